"""Gymnasium environments and spaces running on vecgym (vecgym.core.interop)."""

from __future__ import annotations

import copy
import importlib.util
import pickle
from collections.abc import Callable
from typing import Any, cast

import cloudpickle
import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from vecgym.core import interop
from vecgym.core.interop import (
    NO_SPACE_ATTR_MSG,
    NOT_GYMNASIUM_ENV_MSG,
    NOT_GYMNASIUM_SPACE_MSG,
    GymnasiumEnv,
    GymnasiumSpace,
    as_vecgym_env,
    as_vecgym_space,
    as_vecgym_value,
)
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv
from vecgym.vector.vector_env import VectorEnv

gymnasium = pytest.importorskip("gymnasium")

gs: Any = gymnasium.spaces

from tests.support.gymnasium_envs import (  # noqa: E402
    GymDictEnv,
    GymParityEnv,
    GymRespacingEnv,
    Parity,
)
from tests.support.space_values import assert_same_value  # noqa: E402
from tests.vector.helpers import assert_same_batch  # noqa: E402

NUM_ENVS = 3
STEPS = 60


# --- spaces ---------------------------------------------------------------------------------------
SPACES: dict[str, Callable[[], Any]] = {
    "box": lambda: gs.Box(-1.0, np.array([1.0, 2.0, np.inf]), dtype=np.float64),
    "box_int": lambda: gs.Box(low=-3, high=7, shape=(2, 2), dtype=np.int16),
    "discrete": lambda: gs.Discrete(7, start=-2, dtype=np.int32),
    "multi_discrete": lambda: gs.MultiDiscrete(
        [[3, 4], [5, 2]], dtype=np.int8, start=[[1, 0], [0, -1]]
    ),
    "multi_binary": lambda: gs.MultiBinary([2, 3]),
    "text": lambda: gs.Text(6, min_length=2, charset="zyx01"),
    "tuple": lambda: gs.Tuple((gs.Discrete(3), gs.Box(0, 1, (2,)))),
    "dict": lambda: gs.Dict({"b": gs.Discrete(2), "a": gs.MultiBinary(3)}),
    "dict_unsorted": lambda: gs.Dict({"b": gs.Discrete(2), "a": gs.Discrete(4)}, sort_keys=False),
    "sequence": lambda: gs.Sequence(gs.Discrete(4)),
    "sequence_stacked": lambda: gs.Sequence(gs.Box(0, 1, (2,)), stack=True),
    "graph": lambda: gs.Graph(gs.Box(0, 1, (3,)), gs.Discrete(4)),
    "graph_no_edges": lambda: gs.Graph(gs.Discrete(5), None),
    "oneof": lambda: gs.OneOf((gs.Discrete(3), gs.Box(-1, 1, (2,)))),
    "nested": lambda: gs.Dict(
        {
            "seq": gs.Sequence(gs.Tuple((gs.Discrete(2), gs.Text(3)))),
            "pair": gs.Tuple((gs.OneOf((gs.Discrete(2), gs.MultiDiscrete([2, 3]))), gs.Box(0, 1))),
            "graph": gs.Graph(gs.Box(0, 1, (2,)), None),
        }
    ),
}


def _assert_same_parameters(ours: Any, theirs: Any) -> None:
    """``ours`` is the vecgym space of ``theirs``'s class with the same parameters, recursively."""
    name = type(theirs).__name__
    assert type(ours).__name__ == name
    assert type(ours).__module__.startswith("vecgym.")
    if name == "Box":
        assert ours.shape == theirs.shape
        assert ours.dtype == theirs.dtype
        np.testing.assert_array_equal(ours.low, theirs.low)
        np.testing.assert_array_equal(ours.high, theirs.high)
    elif name == "Discrete":
        assert (ours.n, ours.start, ours.dtype) == (theirs.n, theirs.start, theirs.dtype)
    elif name == "MultiDiscrete":
        np.testing.assert_array_equal(ours.nvec, theirs.nvec)
        np.testing.assert_array_equal(ours.start, theirs.start)
        assert ours.dtype == theirs.dtype
    elif name == "MultiBinary":
        assert ours.n == theirs.n
        assert ours.shape == theirs.shape
    elif name == "Text":
        assert (ours.min_length, ours.max_length) == (theirs.min_length, theirs.max_length)
        assert ours.character_list == theirs.character_list
    elif name in ("Tuple", "OneOf"):
        assert len(ours.spaces) == len(theirs.spaces)
        for a, b in zip(ours.spaces, theirs.spaces, strict=True):
            _assert_same_parameters(a, b)
    elif name == "Dict":
        assert list(ours.spaces) == list(theirs.spaces)
        assert ours.sort_keys == theirs.sort_keys
        for key in theirs.spaces:
            _assert_same_parameters(ours.spaces[key], theirs.spaces[key])
    elif name == "Sequence":
        assert ours.stack == theirs.stack
        _assert_same_parameters(ours.feature_space, theirs.feature_space)
    elif name == "Graph":
        _assert_same_parameters(ours.node_space, theirs.node_space)
        if theirs.edge_space is None:
            assert ours.edge_space is None
        else:
            _assert_same_parameters(ours.edge_space, theirs.edge_space)
    else:  # pragma: no cover - a new space in SPACES needs a branch
        raise AssertionError(name)


@pytest.mark.parametrize("name", SPACES)
def test_space_is_converted_with_the_same_parameters(name: str) -> None:
    theirs = SPACES[name]()
    ours = as_vecgym_space(theirs)
    _assert_same_parameters(ours, theirs)
    assert isinstance(ours, vecgym.spaces.Space)
    assert ours == as_vecgym_space(SPACES[name]())  # conversion is deterministic
    assert ours.contains(ours.sample())


@pytest.mark.parametrize("name", SPACES)
def test_sampling_continues_the_gymnasium_stream(name: str) -> None:
    theirs = SPACES[name]()
    theirs.seed(123)
    theirs.sample()  # the stream is somewhere in the middle
    reference = copy.deepcopy(theirs)
    ours = as_vecgym_space(theirs)
    for i in range(5):
        assert_same_value(ours.sample(), reference.sample(), f"sample {i}")


@pytest.mark.parametrize("name", SPACES)
def test_samples_of_the_gymnasium_space_are_members_of_the_converted_one(name: str) -> None:
    theirs = SPACES[name]()
    theirs.seed(5)
    ours = as_vecgym_space(theirs)
    for _ in range(5):
        assert ours.contains(as_vecgym_value(ours, theirs.sample()))


def test_unseeded_space_gets_its_own_generator_on_first_use() -> None:
    theirs = gs.Discrete(4)
    ours = as_vecgym_space(theirs)
    assert ours.contains(ours.sample())
    ours.seed(3)
    theirs.seed(3)
    assert_same_value(ours.sample(), theirs.sample())


def test_vecgym_spaces_and_other_objects_are_returned_unchanged() -> None:
    space = vecgym.spaces.Box(0, 1, (2,))
    assert as_vecgym_space(space) is space
    marker = object()
    result: Any = as_vecgym_space(marker)
    assert result is marker


def test_custom_gymnasium_space_is_kept_inside_a_proxy() -> None:
    custom = Parity(seed=1)
    reference = copy.deepcopy(custom)
    ours: Any = as_vecgym_space(gs.Tuple((custom, gs.Discrete(2))))
    proxy = ours.spaces[0]
    assert isinstance(proxy, GymnasiumSpace)
    assert proxy.space is custom
    assert proxy == GymnasiumSpace(Parity())
    assert proxy.shape == ()
    assert proxy.dtype == np.int64
    assert not proxy.is_np_flattenable
    assert [proxy.sample() for _ in range(4)] == [reference.sample() for _ in range(4)]
    assert 4 in proxy
    assert 3 not in proxy
    assert proxy.seed(9) == 9
    assert proxy.np_random is custom.np_random
    assert "Parity" in repr(proxy)
    assert (proxy.limit, proxy.halves(8)) == (10, 4)  # the space's own attributes read through
    with pytest.raises(AttributeError, match="no_such_attribute"):
        proxy.no_such_attribute  # noqa: B018
    with pytest.raises(AttributeError, match=message_pattern(NO_SPACE_ATTR_MSG, name="_limit")):
        proxy._limit  # noqa: B018
    assert pickle.loads(pickle.dumps(proxy)).limit == 10


def test_subclass_of_a_builtin_gymnasium_space_is_not_flattened_into_the_builtin() -> None:
    class Positive(gs.Box):
        def contains(self, x: Any) -> bool:
            return bool(super().contains(x) and np.all(x > 0))

    ours = as_vecgym_space(Positive(0, 1, (2,)))
    assert isinstance(ours, GymnasiumSpace)
    assert not ours.contains(np.zeros(2, dtype=np.float32))


def test_proxy_rejects_a_non_gymnasium_space() -> None:
    with pytest.raises(TypeError, match=message_pattern(NOT_GYMNASIUM_SPACE_MSG)):
        GymnasiumSpace(vecgym.spaces.Discrete(2))


# --- the adapter ----------------------------------------------------------------------------------
def test_adapter_exposes_converted_spaces_and_forwards_the_env() -> None:
    inner = gymnasium.make("CartPole-v1")
    env = as_vecgym_env(inner)
    assert isinstance(env, GymnasiumEnv)
    assert isinstance(env, vecgym.Env)
    assert env.gymnasium_env is inner
    assert isinstance(env.observation_space, vecgym.spaces.Box)
    assert isinstance(env.action_space, vecgym.spaces.Discrete)
    assert env.observation_space is env.observation_space  # converted once
    assert env.metadata is inner.metadata
    assert env.render_mode is None
    assert env.unwrapped is env
    assert env.spec is not None
    assert env.spec.id == "CartPole-v1"
    assert env.spec.max_episode_steps == 500
    assert isinstance(env.spec, vecgym.envs.registration.EnvSpec)

    obs, _info = env.reset(seed=7)
    expected, _ = gymnasium.make("CartPole-v1").reset(seed=7)
    np.testing.assert_array_equal(obs, expected)
    assert env.np_random_seed == 7
    assert env.np_random is inner.np_random
    assert env._np_random is inner.unwrapped._np_random
    generator = np.random.default_rng(1)
    env.np_random = generator
    assert inner.unwrapped.np_random is generator
    assert str(env).startswith("<GymnasiumEnv<TimeLimit")
    env.close()
    raw = GymnasiumEnv(inner.unwrapped)  # over a raw env it shows as the raw env does
    assert str(raw) == repr(raw) == str(inner.unwrapped) == "<CartPoleEnv<CartPole-v1>>"
    raw.spec = None
    assert str(raw) == "<CartPoleEnv instance>"


def test_adapter_reaches_attributes_of_the_gymnasium_env() -> None:
    inner = gymnasium.make("CartPole-v1")
    env = GymnasiumEnv(inner)
    # The raw env's public attributes read and write through the adapter (it is `unwrapped`).
    assert env.gravity == inner.unwrapped.gravity
    unwrapped: Any = env.unwrapped
    unwrapped.gravity = 3.0
    assert inner.unwrapped.gravity == 3.0
    assert not hasattr(env, "no_such_attribute")
    with pytest.raises(AttributeError, match="no attribute '_private'"):
        env._private  # noqa: B018
    # The wrapper-attribute API searches the Gymnasium wrapper stack.
    assert env.has_wrapper_attr("_max_episode_steps")
    assert env.get_wrapper_attr("_max_episode_steps") == 500
    assert env.set_wrapper_attr("_max_episode_steps", 3, force=False)
    assert inner.get_wrapper_attr("_max_episode_steps") == 3
    assert env.get_wrapper_attr("observation_space") is env.observation_space
    assert not env.set_wrapper_attr("brand_new", 1, force=False)
    assert env.set_wrapper_attr("brand_new", 1)
    assert env.get_wrapper_attr("brand_new") == 1
    with pytest.raises(AttributeError):
        env.get_wrapper_attr("nothing_has_this")
    env.close()


def test_adapter_reads_and_writes_the_raw_env_s_private_attributes() -> None:
    """A MuJoCo env's reward weights are private: setting one through ``env.unwrapped`` changes
    the rewards exactly as with Gymnasium (it used to stay on the adapter, silently)."""
    pytest.importorskip("mujoco", reason="HalfCheetah-v5 needs the `mujoco` extra")
    ours, theirs = vecgym.make("HalfCheetah-v5"), gymnasium.make("HalfCheetah-v5")
    results = []
    for env in (ours, theirs):
        env.reset(seed=4)
        unwrapped: Any = env.unwrapped
        unwrapped._forward_reward_weight = 100.0
        observation = unwrapped._get_obs()
        results.append((observation, env.step(np.full(6, 0.5, dtype=np.float32))))
        env.close()
    assert_same_value(results[0], results[1])
    assert ours.unwrapped.gymnasium_env.unwrapped._forward_reward_weight == 100.0


def test_adapter_puts_new_public_attributes_and_the_render_mode_on_the_raw_env() -> None:
    inner = gymnasium.make("CartPole-v1")
    env: Any = GymnasiumEnv(inner)
    env.my_flag = True  # as on Gymnasium's raw env: where the env's own methods see it
    assert inner.unwrapped.my_flag is True
    assert env.my_flag is True
    env._adapter_note = 1  # a new private name stays the adapter's own
    assert "_adapter_note" in vars(env)
    assert not hasattr(inner.unwrapped, "_adapter_note")
    env.render_mode = "rgb_array"
    assert inner.unwrapped.render_mode == "rgb_array"
    if importlib.util.find_spec("pygame") is not None:  # Gymnasium's CartPole draws with it
        env.reset(seed=0)
        assert env.render().shape == (400, 600, 3)
    with pytest.raises(AttributeError, match="GymnasiumEnv around CartPoleEnv has no attribute"):
        env.__no_such_thing__  # noqa: B018
    env.close()


def test_as_vecgym_env_leaves_vecgym_envs_and_other_objects_alone() -> None:
    env = vecgym.make("CartPole-v1")
    assert as_vecgym_env(env) is env
    assert as_vecgym_env(42) == 42
    with pytest.raises(TypeError, match=message_pattern(NOT_GYMNASIUM_ENV_MSG)):
        GymnasiumEnv(env)
    env.close()


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps], ids=["pickle", "cloudpickle"])
def test_adapter_pickles_and_continues_identically(dumps: Callable[[Any], bytes]) -> None:
    env = GymnasiumEnv(gymnasium.make("CartPole-v1"))
    env.reset(seed=3)
    env.step(1)
    clone = pickle.loads(dumps(env))
    assert isinstance(clone, GymnasiumEnv)
    assert clone.observation_space == env.observation_space
    assert clone.spec == env.spec
    for action in (0, 1, 1, 0):
        assert_same_value(clone.step(action), env.step(action))
    assert_same_value(clone.reset(), env.reset())
    env.close()
    clone.close()


def test_check_env_passes_on_the_adapter() -> None:
    from vecgym.core.env_checker import (
        MSG_BOX_HIGH_INFINITE,
        MSG_BOX_LOW_INFINITE,
        MSG_NO_SPEC_FOR_RENDER,
    )
    from vecgym.utils.env_checker import check_env

    infinite = "|".join(
        message_pattern(template, space_type="observation")
        for template in (MSG_BOX_LOW_INFINITE, MSG_BOX_HIGH_INFINITE)
    )
    with pytest.warns(UserWarning, match=infinite):  # CartPole's unbounded Box (as Gymnasium)
        check_env(GymnasiumEnv(gymnasium.make("CartPole-v1").unwrapped), skip_render_check=True)
    with pytest.warns(UserWarning, match=message_pattern(MSG_NO_SPEC_FOR_RENDER)):  # as Gymnasium
        check_env(GymnasiumEnv(GymDictEnv()))
    # A Gymnasium env itself is checked through the adapter, as Gymnasium's check_env takes it.
    with pytest.warns(UserWarning, match=infinite):
        check_env(gymnasium.make("CartPole-v1").unwrapped, skip_render_check=True)
    with pytest.warns(UserWarning, match=message_pattern(MSG_NO_SPEC_FOR_RENDER)):
        check_env(GymDictEnv())


def test_make_adapts_an_entry_point_that_builds_a_gymnasium_env() -> None:
    env_id = "InteropGymCartPole-v0"
    vecgym.register(
        env_id,
        entry_point="gymnasium.envs.classic_control.cartpole:CartPoleEnv",
        max_episode_steps=20,
    )
    try:
        env = vecgym.make(env_id)
        assert isinstance(env.unwrapped, GymnasiumEnv)
        assert env.spec is not None
        assert env.spec.id == env_id
        env.reset(seed=0)
        truncated = False
        for _ in range(20):
            _, _, terminated, truncated, _ = env.step(0 if _ % 2 else 1)
            if terminated:
                break
        assert terminated or truncated
        env.close()
    finally:
        vecgym.registry.pop(env_id)


# --- vector envs ----------------------------------------------------------------------------------
def _rollout(envs: Any, seed: int, steps: int = STEPS) -> list[Any]:
    """Reset with ``seed``, then step with fixed actions in {0, 1}; every result, in order."""
    actions_rng = np.random.default_rng(0)
    results: list[Any] = [envs.reset(seed=seed)]
    for _ in range(steps):
        results.append(envs.step(actions_rng.integers(0, 2, size=envs.num_envs)))
    return results


def _assert_same_rollout(ours: list[Any], theirs: list[Any]) -> None:
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert len(a) == len(b)
        for j, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same_batch(x, y, f"step {i} item {j}")


def _gym_cartpole() -> Any:
    return gymnasium.make("CartPole-v1")


def _gym_cartpole_short() -> Any:
    return gymnasium.make("CartPole-v1", max_episode_steps=15)


@pytest.mark.parametrize("env_fn", [_gym_cartpole, _gym_cartpole_short], ids=["cartpole", "short"])
def test_sync_vector_env_runs_gymnasium_envs_like_gymnasium(env_fn: Callable[[], Any]) -> None:
    ours = SyncVectorEnv([env_fn] * NUM_ENVS)
    theirs = gymnasium.vector.SyncVectorEnv([env_fn] * NUM_ENVS)
    assert isinstance(ours.single_observation_space, vecgym.spaces.Box)
    assert all(isinstance(env, GymnasiumEnv) for env in ours.envs)
    _assert_same_rollout(_rollout(ours, 11), _rollout(theirs, 11))
    ours.close()
    theirs.close()


@pytest.mark.parametrize("shared_memory", [True, False], ids=["shm", "pipes"])
def test_async_vector_env_runs_gymnasium_envs_like_gymnasium(shared_memory: bool) -> None:
    # Relies on the worker adapting what each env factory builds (as_vecgym_env in _worker._start).
    ours = AsyncVectorEnv([_gym_cartpole_short] * NUM_ENVS, shared_memory=shared_memory)
    theirs = gymnasium.vector.SyncVectorEnv([_gym_cartpole_short] * NUM_ENVS)
    try:
        assert isinstance(ours.single_observation_space, vecgym.spaces.Box)
        _assert_same_rollout(_rollout(ours, 5), _rollout(theirs, 5))
    finally:
        ours.close()
        theirs.close()


def test_async_vector_env_runs_explicitly_adapted_gymnasium_envs() -> None:
    def env_fn() -> vecgym.Env:
        return as_vecgym_env(_gym_cartpole_short())

    ours = AsyncVectorEnv([env_fn] * 2)
    theirs = gymnasium.vector.SyncVectorEnv([_gym_cartpole_short] * 2)
    try:
        _assert_same_rollout(_rollout(ours, 2), _rollout(theirs, 2))
    finally:
        ours.close()
        theirs.close()


def test_sync_vector_env_runs_a_gymnasium_dict_env_like_gymnasium() -> None:
    ours = SyncVectorEnv(cast(Any, [GymDictEnv] * NUM_ENVS))
    theirs = gymnasium.vector.SyncVectorEnv(cast(Any, [GymDictEnv] * NUM_ENVS))
    assert isinstance(ours.single_observation_space, vecgym.spaces.Dict)
    assert isinstance(ours.observation_space, vecgym.spaces.Dict)
    _assert_same_rollout(_rollout(ours, 8, steps=12), _rollout(theirs, 8, steps=12))
    ours.close()
    theirs.close()


def test_sync_vector_env_batches_a_custom_gymnasium_space_as_tuples() -> None:
    envs = SyncVectorEnv(cast(Any, [GymParityEnv] * 2))
    assert isinstance(envs.single_observation_space, GymnasiumSpace)
    obs, _ = envs.reset(seed=1)
    assert isinstance(obs, tuple)
    assert len(obs) == 2
    obs, *_ = envs.step(np.array([1, 0]))
    assert obs == (2, 0)
    envs.close()


def test_vector_env_action_space_sampling_follows_the_converted_spaces() -> None:
    envs = SyncVectorEnv([_gym_cartpole] * 2)
    assert isinstance(envs, VectorEnv)
    envs.action_space.seed(4)
    assert envs.action_space.contains(envs.action_space.sample())
    envs.close()


# --- wrappers -------------------------------------------------------------------------------------
def test_time_limit_wraps_a_raw_gymnasium_env() -> None:
    env = vecgym.wrappers.TimeLimit(gymnasium.make("CartPole-v1").unwrapped, max_episode_steps=4)
    assert isinstance(env.env, GymnasiumEnv)
    env.reset(seed=0)
    results = [env.step(i % 2) for i in range(4)]
    assert [r[3] for r in results] == [False, False, False, True]
    env.close()


def test_record_episode_statistics_on_a_gymnasium_env() -> None:
    env = vecgym.wrappers.RecordEpisodeStatistics(
        gymnasium.make("CartPole-v1", max_episode_steps=5)
    )
    env.reset(seed=0)
    info: dict[str, Any] = {}
    for i in range(5):
        *_, info = env.step(i % 2)
    assert info["episode"]["l"] == 5
    assert info["episode"]["r"] == 5.0
    env.close()


def test_flatten_observation_on_a_gymnasium_dict_env() -> None:
    ours = vecgym.wrappers.FlattenObservation(cast(Any, GymDictEnv()))
    theirs = gymnasium.wrappers.FlattenObservation(GymDictEnv())
    assert isinstance(ours.observation_space, vecgym.spaces.Box)
    assert ours.observation_space.shape == theirs.observation_space.shape
    assert_same_value(ours.reset(seed=2), theirs.reset(seed=2))
    for action in (0, 2, 1):
        assert_same_value(ours.step(action), theirs.step(action))


def test_clip_action_on_gymnasium_pendulum_like_gymnasium() -> None:
    ours = vecgym.wrappers.ClipAction(gymnasium.make("Pendulum-v1"))
    theirs = gymnasium.wrappers.ClipAction(gymnasium.make("Pendulum-v1"))
    assert isinstance(ours.action_space, vecgym.spaces.Box)
    assert_same_value(ours.reset(seed=9), theirs.reset(seed=9))
    for action in ([5.0], [-7.5], [0.3]):
        step = np.array(action, dtype=np.float32)
        assert_same_value(ours.step(step), theirs.step(step))
    ours.close()
    theirs.close()


def test_interop_module_does_not_import_gymnasium() -> None:
    assert "gymnasium" not in interop.__dict__


def test_vectorisers_step_an_unconverted_gymnasium_env_directly() -> None:
    """The vector loops call the Gymnasium env's own step/reset when the adapter would only
    forward them: the adapter is a gymnasium.Env-flavoured twin class once Gymnasium is imported,
    and the shortcut must see through it (it once compared the exact type and never applied)."""
    adapted = as_vecgym_env(gymnasium.make("CartPole-v1"))
    assert type(adapted) is not GymnasiumEnv  # the twin class
    assert isinstance(adapted, gymnasium.Env)
    assert interop.stepping_target(adapted) is adapted.gymnasium_env
    envs = SyncVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 2)
    try:
        assert [auto.env for auto in envs._autoreset_envs] == [
            env.gymnasium_env for env in envs.envs
        ]
    finally:
        envs.close()

    class Overriding(GymnasiumEnv):
        def step(self, action: Any) -> Any:
            return super().step(action)

    overriding = Overriding(gymnasium.make("CartPole-v1"))
    assert interop.stepping_target(overriding) is overriding  # its own step must run

    class GymGraphEnv(gymnasium.Env[Any, Any]):
        observation_space = gs.Graph(gs.Box(0, 1, (2,)), None)
        action_space = gs.Discrete(2)

    graph = as_vecgym_env(GymGraphEnv())
    assert graph._observation_converter is not None
    assert interop.stepping_target(graph) is graph  # graph observations are re-packed
    vecgym_env = vecgym.make("CartPole-v1")
    assert interop.stepping_target(vecgym_env) is vecgym_env


def test_spaces_follow_a_gymnasium_env_that_replaces_them() -> None:
    gymnasium.register("VecgymTest/Respacing-v0", entry_point=GymRespacingEnv)
    try:
        env = vecgym.make("VecgymTest/Respacing-v0")
        reference = gymnasium.make("VecgymTest/Respacing-v0")
        for e in (env, reference):
            e.reset(seed=1)
            e.unwrapped.configure({"continuous": True, "width": 3})  # takes effect on reset
        assert env.action_space == vecgym.spaces.Discrete(5)
        for e in (env, reference):
            e.reset(seed=2)
        for space, theirs in [
            (env.action_space, reference.action_space),
            (env.observation_space, reference.observation_space),
            (env.unwrapped.observation_space, reference.unwrapped.observation_space),
        ]:
            assert isinstance(space, vecgym.spaces.Box)
            assert repr(space) == repr(theirs)  # Box(-1.0, 1.0, (2,), float32) and (3,)
        env.action_space.seed(3)
        env.step(env.action_space.sample())  # the stale Discrete(5) would fail the env's check
        own = vecgym.spaces.Box(-2.0, 2.0, (3,), np.float32)
        env.unwrapped.observation_space = own  # assigned: kept until the env replaces its own
        env.step(env.action_space.sample())
        assert env.observation_space is own
        env.unwrapped.configure({"width": 4})  # this env's reset replaces it, as in Gymnasium
        env.reset(seed=5)
        assert env.observation_space.shape == (4,)
        env.close()
        reference.close()
    finally:
        del gymnasium.registry["VecgymTest/Respacing-v0"]
