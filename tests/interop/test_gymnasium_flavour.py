"""vecgym env stacks over a Gymnasium env are ``gymnasium.Env`` instances (the flavour twins).

A ``GymnasiumEnv`` adapter, and every vecgym wrapper stacked over a ``gymnasium.Env``, is an
instance of a twin of its class that also derives from ``gymnasium.Env``, so Gymnasium's own
wrappers (and libraries built on them, like SB3's Atari wrappers) accept it; vecgym's wrappers and
vector envs accept those Gymnasium wrappers in turn. Where Gymnasium is installed, vecgym's own
envs, wrappers and spaces are twins too (``vecgym.core.flavour``).
"""

from __future__ import annotations

import copy
import pickle
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import cloudpickle
import numpy as np
import pytest

import vecgym
from tests.envs.test_builtin_envs import BUILTIN_IDS
from tests.support.processes import python_stdout
from vecgym.core.flavour import child_spaces, unflavoured
from vecgym.core.interop import GymnasiumEnv, as_vecgym_env, gymnasium_flavoured
from vecgym.interop import to_gymnasium
from vecgym.utils.env_checker import data_equivalence
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

gymnasium = pytest.importorskip("gymnasium")


def _bridged() -> Any:
    """A vecgym wrapper stack over a Gymnasium env."""
    return vecgym.wrappers.RecordEpisodeStatistics(
        vecgym.wrappers.TimeLimit(gymnasium.make("CartPole-v1"), max_episode_steps=50)
    )


def _trajectory(env: Any, seed: int = 3, steps: int = 80) -> list[Any]:
    record: list[Any] = [env.reset(seed=seed)]
    for i in range(steps):
        obs, reward, terminated, truncated, info = env.step(i % 2)
        info.pop("episode", None)  # its wall time differs between runs
        record.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            record.append(env.reset())
    return record


def test_vecgym_envs_of_their_own_are_gymnasium_envs() -> None:
    env = vecgym.wrappers.RecordEpisodeStatistics(vecgym.make("CartPole-v1"))
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env.unwrapped, gymnasium.Env)
    assert isinstance(env, vecgym.wrappers.RecordEpisodeStatistics)
    assert type(env).__name__ == "RecordEpisodeStatistics"
    assert type(env).step is vecgym.wrappers.RecordEpisodeStatistics.step
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    assert isinstance(vecgym.spaces.Dict({"a": vecgym.spaces.Text(3)}), gymnasium.spaces.Dict)
    assert isinstance(vecgym.spaces.Dict({"a": vecgym.spaces.Text(3)})["a"], gymnasium.spaces.Text)
    env.close()


class _Positive(vecgym.spaces.Box):
    """A user's subclass of a built-in space."""


class _Coin(vecgym.Env):
    """A user's env written as SB3's custom-env guide writes one (with ``import vecgym as gym``)."""

    def __init__(self) -> None:
        self.observation_space = vecgym.spaces.Box(0.0, 1.0, (3,), np.float32)
        self.action_space = vecgym.spaces.Discrete(2)
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        self._steps = 0
        return self.observation_space.sample(), {}

    def step(self, action: Any) -> Any:
        self._steps += 1
        reward = float(action == int(self.np_random.integers(2)))
        return self.observation_space.sample(), reward, False, self._steps >= 20, {}


def test_spaces_and_envs_users_write_are_gymnasium_ones() -> None:
    space = _Positive(0.0, 1.0, (2,))
    assert isinstance(space, gymnasium.spaces.Box)
    assert type(space).__name__ == "_Positive"
    assert isinstance(pickle.loads(pickle.dumps(space)), gymnasium.spaces.Box)
    assert isinstance(vecgym.spaces.Space(), gymnasium.spaces.Space)
    env = _Coin()
    assert isinstance(env, gymnasium.Env)
    clone = copy.deepcopy(env)
    assert isinstance(clone, _Coin)
    assert isinstance(clone, gymnasium.Env)


class _Named(vecgym.Env):
    """A base whose subclasses must name themselves: no twin can be built for them."""

    def __init_subclass__(cls, *, label: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.label = label


class _Labelled(_Named, label="x"):
    observation_space = vecgym.spaces.Discrete(2)
    action_space = vecgym.spaces.Discrete(2)


def test_a_class_no_twin_can_be_built_for_is_used_as_it_is() -> None:
    env = _Labelled()
    assert type(env) is _Labelled
    assert not isinstance(env, gymnasium.Env)
    assert type(_Labelled()) is _Labelled  # remembered, not tried again


def test_sb3_readme_example_runs_with_vecgym_as_gym() -> None:
    # SB3's README example, with `import vecgym as gym` as its only change, and SB3's custom-env
    # guide (check_env, then PPO) on an env subclassing vecgym.Env.
    pytest.importorskip("stable_baselines3")
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_checker import check_env
    from stable_baselines3.common.monitor import Monitor

    gym = vecgym
    env = gym.make("CartPole-v1")
    model = PPO("MlpPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0)
    model.learn(total_timesteps=64)
    vec_env = model.get_env()
    assert vec_env is not None
    obs = vec_env.reset()
    action, _states = model.predict(obs, deterministic=True)
    obs, rewards, _dones, _infos = vec_env.step(action)
    assert obs.shape == (1, 4)
    assert rewards.shape == (1,)
    vec_env.close()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # SB3's advice is not a failure
        check_env(_Coin())
    model = PPO("MlpPolicy", Monitor(_Coin()), n_steps=32, batch_size=16, n_epochs=1, seed=0)
    model.learn(64)
    assert model.num_timesteps == 64
    model.env.close()


def test_without_gymnasium_vecgym_classes_are_their_own() -> None:
    code = (
        "import sys\nsys.modules['gymnasium'] = None\n"
        "import vecgym\nfrom vecgym.wrappers import TimeLimit\n"
        "env = vecgym.make('CartPole-v1')\n"
        "assert type(env) is TimeLimit, type(env).__mro__\n"
        "assert type(env.observation_space) is vecgym.spaces.Box\n"
        "env.reset(seed=0)\nenv.step(0)\nenv.close()\nprint('plain')\n"
    )
    assert python_stdout(code) == "plain"


def test_gymnasium_blocked_for_a_while_is_not_remembered() -> None:
    code = (
        "import sys\nsys.modules['gymnasium'] = None\nimport vecgym\n"
        "print(type(vecgym.spaces.Discrete(2)) is vecgym.spaces.Discrete)\n"
        "del sys.modules['gymnasium']\nimport gymnasium\n"
        "print(isinstance(vecgym.spaces.Discrete(2), gymnasium.spaces.Discrete))\n"
    )
    assert python_stdout(code).split() == ["True", "True"]


def test_importing_vecgym_does_not_import_gymnasium() -> None:
    code = "import sys\nimport vecgym\nprint('gymnasium' in sys.modules)\n"
    assert python_stdout(code) == "False"


def test_adapter_and_wrappers_over_it_are_gymnasium_envs() -> None:
    adapter = GymnasiumEnv(gymnasium.make("CartPole-v1"))
    assert isinstance(adapter, gymnasium.Env)
    assert isinstance(adapter, vecgym.Env)
    env = _bridged()
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env, vecgym.wrappers.RecordEpisodeStatistics)
    # The twin is invisible otherwise: same name, module, methods, vecgym spaces.
    assert type(env).__name__ == "RecordEpisodeStatistics"
    assert type(env).__module__ == vecgym.wrappers.RecordEpisodeStatistics.__module__
    assert type(env).step is vecgym.wrappers.RecordEpisodeStatistics.step
    assert isinstance(env.observation_space, vecgym.spaces.Box)
    assert str(env).startswith("<RecordEpisodeStatistics<TimeLimit<GymnasiumEnv<")
    # vecgym's make of a Gymnasium-registered id builds such a stack.
    assert isinstance(vecgym.make("Acrobot-v1", disable_env_checker=True), vecgym.Env)


def test_twins_are_built_once_and_twins_of_twins_are_themselves() -> None:
    twin = gymnasium_flavoured(vecgym.wrappers.ClipReward)
    assert gymnasium_flavoured(vecgym.wrappers.ClipReward) is twin
    assert gymnasium_flavoured(twin) is twin
    assert issubclass(twin, vecgym.wrappers.ClipReward)
    assert issubclass(twin, gymnasium.Env)


@pytest.mark.parametrize(
    "dumps",
    [pickle.dumps, cloudpickle.dumps, partial(pickle.dumps, protocol=0)],
    ids=["pickle", "cloudpickle", "pickle-protocol-0"],
)
def test_twins_pickle_and_continue_identically(dumps: Callable[[Any], bytes]) -> None:
    env = _bridged()
    env.reset(seed=5)
    clone = pickle.loads(dumps(env))
    assert type(clone) is type(env)
    assert isinstance(clone, gymnasium.Env)
    assert data_equivalence(_trajectory(clone), _trajectory(env))


def test_twins_deep_copy() -> None:
    env = _bridged()
    env.reset(seed=5)
    clone = copy.deepcopy(env)
    assert type(clone) is type(env)
    assert clone.env is not env.env
    assert data_equivalence(_trajectory(clone), _trajectory(env))


def test_gymnasium_wrappers_and_vecgym_wrappers_stack_both_ways() -> None:
    # vecgym over Gymnasium over vecgym over Gymnasium: same steps as Gymnasium's own stack.
    ours = vecgym.wrappers.ClipReward(
        gymnasium.wrappers.TransformReward(_bridged(), lambda r: 2.0 * r), -1.5, 1.5
    )
    theirs = gymnasium.wrappers.ClipReward(
        gymnasium.wrappers.TransformReward(
            gymnasium.wrappers.RecordEpisodeStatistics(
                gymnasium.wrappers.TimeLimit(gymnasium.make("CartPole-v1"), 50)
            ),
            lambda r: 2.0 * r,
        ),
        -1.5,
        1.5,
    )
    assert isinstance(ours, gymnasium.Env)
    assert isinstance(ours.env, GymnasiumEnv)  # the Gymnasium wrapper, adapted once
    assert ours.unwrapped.get_wrapper_attr("gravity") == theirs.unwrapped.gravity
    assert data_equivalence(_trajectory(ours), _trajectory(theirs))


def test_a_to_gymnasium_adapter_is_unwrapped_not_adapted_again() -> None:
    inner = vecgym.make("CartPole-v1")
    adapter = to_gymnasium(inner)
    assert as_vecgym_env(adapter) is inner
    assert vecgym.wrappers.ClipReward(adapter, -1, 1).env is inner
    envs = SyncVectorEnv([lambda: to_gymnasium(vecgym.make("CartPole-v1"))])
    assert type(envs.envs[0]).__name__ == "TimeLimit"
    envs.close()


@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv])
def test_vector_envs_run_gymnasium_wrappers_over_vecgym_wrappers(vector: Any) -> None:
    def env_fn() -> Any:
        return gymnasium.wrappers.TransformReward(_bridged(), lambda r: 3.0 * r)

    envs = vector([env_fn, env_fn])
    envs.reset(seed=1)
    rewards = [envs.step(np.array([0, 1]))[1] for _ in range(5)]
    envs.close()
    assert np.array_equal(np.stack(rewards), np.full((5, 2), 3.0))


def test_sb3_monitor_and_gymnasium_wrappers_take_a_stack_over_a_gymnasium_env() -> None:
    monitor = pytest.importorskip("stable_baselines3.common.monitor")
    env = gymnasium.wrappers.TimeLimit(monitor.Monitor(_bridged()), max_episode_steps=5)
    env.reset(seed=0)
    for _ in range(5):
        *_, truncated, _info = env.step(0)
    assert truncated
    assert env.get_wrapper_attr("get_episode_rewards")() == []  # the episode was cut by TimeLimit
    env.close()


def test_gymnasium_wrappers_that_build_spaces_from_the_stacks_spaces() -> None:
    # The stack's spaces are Gymnasium spaces too (twins): wrappers that check their classes or
    # build Gymnasium spaces out of them take them, as minigrid's observation wrappers do.
    stack = _bridged()
    assert isinstance(stack.observation_space, gymnasium.spaces.Box)
    assert isinstance(stack.observation_space, vecgym.spaces.Box)
    assert isinstance(stack.action_space, gymnasium.spaces.Discrete)
    wrapped = gymnasium.wrappers.DtypeObservation(stack, np.float64)
    built = gymnasium.spaces.Dict({"obs": stack.observation_space, "act": stack.action_space})
    reference = gymnasium.wrappers.DtypeObservation(gymnasium.make("CartPole-v1"), np.float64)
    assert wrapped.observation_space == reference.observation_space
    assert built.sample() in built
    obs, _ = wrapped.reset(seed=3)
    expected, _ = reference.reset(seed=3)
    assert obs.dtype == np.float64
    np.testing.assert_array_equal(obs, expected)
    assert gymnasium.spaces.flatdim(stack.observation_space) == 4
    with pytest.raises(ValueError, match="3 channels"):  # as for gymnasium.make's CartPole
        gymnasium.wrappers.GrayscaleObservation(stack)
    # the twins pickle as vecgym spaces, re-flavoured when loaded, and compare equal
    again = pickle.loads(pickle.dumps(stack.observation_space))
    assert type(again) is type(stack.observation_space)
    assert (
        again
        == stack.observation_space
        == vecgym.spaces.Box(
            stack.observation_space.low, stack.observation_space.high, (4,), np.float32
        )
    )
    assert copy.deepcopy(stack.action_space) == vecgym.spaces.Discrete(2)
    stack.close()


def test_sb3_takes_a_stack_over_a_gymnasium_env_directly() -> None:
    # Its spaces are Gymnasium spaces too, so SB3's checks pass without to_gymnasium.
    pytest.importorskip("stable_baselines3")
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # SB3's advice is not a failure
        check_env(_bridged())
    model = PPO("MlpPolicy", _bridged(), n_steps=32, batch_size=16, n_epochs=1, seed=0)
    model.learn(64)
    assert model.num_timesteps == 64
    model.env.close()


def test_sb3_atari_wrapper_over_vecgym_make_matches_gymnasium() -> None:
    ale_py = pytest.importorskip("ale_py", reason="ALE ids need the `atari` extra")
    atari = pytest.importorskip("stable_baselines3.common.atari_wrappers")
    gymnasium.register_envs(ale_py)
    ours = atari.AtariWrapper(vecgym.make("BreakoutNoFrameskip-v4"))
    theirs = atari.AtariWrapper(gymnasium.make("BreakoutNoFrameskip-v4"))
    assert ours.observation_space == theirs.observation_space
    assert data_equivalence(ours.reset(seed=1), theirs.reset(seed=1))
    for action in [1, 2, 3, 0] * 25:
        assert data_equivalence(ours.step(action), theirs.step(action))
    ours.close()
    theirs.close()


def test_twin_spaces_count_as_their_vecgym_class() -> None:
    from vecgym.core.spaces.utils import is_space_dtype_shape_equiv

    plain, stack = vecgym.make("CartPole-v1"), _bridged()
    _plain(plain.unwrapped.observation_space)
    assert type(stack.observation_space) is not type(plain.observation_space)
    assert is_space_dtype_shape_equiv(stack.observation_space, plain.observation_space)
    assert stack.observation_space == plain.observation_space == stack.observation_space
    envs = SyncVectorEnv([lambda: vecgym.make("CartPole-v1"), _bridged])  # one of each
    obs, _ = envs.reset(seed=2)
    assert obs.shape == (2, 4)
    envs.close()
    plain.close()
    stack.close()


def _plain(space: Any) -> Any:
    """``space`` with itself and every space inside it made plain vecgym spaces again (what every
    space is where Gymnasium is not installed), in place."""
    space.__class__ = unflavoured(type(space))
    for child in child_spaces(space):
        _plain(child)
    return space


def test_batching_and_iterating_twin_spaces_as_their_vecgym_class() -> None:
    from vecgym.vector.utils import batch_differing_spaces, batch_space, concatenate, iterate

    def tuple_space() -> Any:
        return vecgym.spaces.Tuple(
            (vecgym.spaces.Discrete(3), vecgym.spaces.Box(0.0, 1.0, (2,), np.float32))
        )

    twin, plain = tuple_space(), _plain(tuple_space())
    assert isinstance(twin.spaces[0], gymnasium.spaces.Discrete)
    assert not isinstance(plain.spaces[0], gymnasium.spaces.Discrete)
    batched, plain_batched = batch_space(twin, 2), batch_space(plain, 2)
    assert batched == plain_batched
    values = [(1, np.zeros(2, np.float32)), (2, np.ones(2, np.float32))]
    items = concatenate(twin, values, batched.sample())
    assert isinstance(batched.spaces[0], vecgym.spaces.MultiDiscrete)
    assert [(int(a), b.tolist()) for a, b in iterate(batched, items)] == [
        (int(a), b.tolist()) for a, b in iterate(plain_batched, items)
    ]
    assert [(int(a), b.tolist()) for a, b in iterate(batched, items)] == [
        (1, [0.0, 0.0]),
        (2, [1.0, 1.0]),
    ]
    differing = [vecgym.spaces.Discrete(3), vecgym.spaces.Discrete(5)]
    assert all(isinstance(space, gymnasium.spaces.Discrete) for space in differing)
    assert batch_differing_spaces(differing) == vecgym.spaces.MultiDiscrete([3, 5])
    assert batch_differing_spaces([_plain(space) for space in differing]) == batch_differing_spaces(
        differing
    )


@pytest.mark.parametrize("env_id", BUILTIN_IDS)
def test_gymnasiums_check_env_passes_on_vecgyms_own_envs_directly(env_id: str) -> None:
    checker = pytest.importorskip("gymnasium.utils.env_checker")
    # its render check opens each env in "human" mode, which needs pygame (for Gymnasium's too)
    pytest.importorskip("pygame", reason="Gymnasium's check_env renders in human mode")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # CartPole-v0 is an old version
        env = vecgym.make(env_id, render_mode="rgb_array")
        warnings.simplefilter("ignore", UserWarning)  # Gymnasium's advice is not a failure
        checker.check_env(env.unwrapped)
    env.close()


GYMNASIUM_WRAPPED: dict[str, Callable[[Any], Any]] = {
    "FlattenObservation": lambda lib: gymnasium.wrappers.FlattenObservation(
        lib.make("Blackjack-v1")
    ),
    "NormalizeObservation": lambda lib: gymnasium.wrappers.NormalizeObservation(
        lib.make("Pendulum-v1")
    ),
    "RescaleAction": lambda lib: gymnasium.wrappers.RescaleAction(
        lib.make("MountainCarContinuous-v0"), -0.5, 0.5
    ),
    "FrameStackObservation": lambda lib: gymnasium.wrappers.FrameStackObservation(
        lib.make("Acrobot-v1"), 3
    ),
    "DtypeObservation": lambda lib: gymnasium.wrappers.DtypeObservation(
        lib.make("MountainCar-v0"), np.float64
    ),
    "TimeAwareObservation": lambda lib: gymnasium.wrappers.TimeAwareObservation(
        lib.make("CartPole-v1")
    ),
}


@pytest.mark.parametrize("name", sorted(GYMNASIUM_WRAPPED))
def test_gymnasium_wrappers_over_vecgyms_own_envs_match_gymnasium(name: str) -> None:
    # Gymnasium's wrappers take vecgym's envs and spaces (building Gymnasium spaces from them) and
    # give what they give over Gymnasium's own envs, seed for seed.
    with warnings.catch_warnings():
        # what Gymnasium's Box warns of, building the wrappers' spaces, over either library's env
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        ours, theirs = GYMNASIUM_WRAPPED[name](vecgym), GYMNASIUM_WRAPPED[name](gymnasium)
    assert ours.observation_space == theirs.observation_space
    assert theirs.action_space == ours.action_space
    ours.action_space.seed(4)
    theirs.action_space.seed(4)
    assert data_equivalence(ours.reset(seed=4), theirs.reset(seed=4))
    for _ in range(60):
        a, b = ours.action_space.sample(), theirs.action_space.sample()
        assert data_equivalence(a, b)
        step_a, step_b = ours.step(a), theirs.step(b)
        assert data_equivalence(step_a, step_b, exact=False)
        if step_a[2] or step_a[3]:
            assert data_equivalence(ours.reset(), theirs.reset())
    ours.close()
    theirs.close()


@pytest.mark.parametrize("vector", ["SyncVectorEnv", "AsyncVectorEnv"])
def test_gymnasiums_vector_envs_run_vecgyms_own_envs(vector: str) -> None:
    cls = getattr(gymnasium.vector, vector)
    ours = cls([lambda: vecgym.make("CartPole-v1")] * 2)
    theirs = cls([lambda: gymnasium.make("CartPole-v1")] * 2)
    record_a, record_b = [ours.reset(seed=3)], [theirs.reset(seed=3)]
    for i in range(40):
        actions = np.array([i % 2, (i // 2) % 2])
        record_a.append(ours.step(actions))
        record_b.append(theirs.step(actions))
    ours.close()
    theirs.close()
    assert data_equivalence(record_a, record_b)
