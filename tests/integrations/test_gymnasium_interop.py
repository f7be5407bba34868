"""vecgym envs as real Gymnasium envs and back (vecgym.interop)."""

from __future__ import annotations

import pickle
import re
import warnings
from typing import Any

import cloudpickle
import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from tests.support.processes import python_stdout
from vecgym import error
from vecgym.core.interop import GymnasiumEnv, as_vecgym_space
from vecgym.core.registration import OUT_OF_DATE_MSG
from vecgym.integrations import _gymnasium_adapters as adapters
from vecgym.integrations import gymnasium_interop
from vecgym.interop import as_gymnasium_space, from_gymnasium, to_gymnasium
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from tests.interop.test_gymnasium_envs import SPACES  # noqa: E402
from tests.support.space_values import assert_same_value  # noqa: E402

BUILT_IN_IDS = sorted(vecgym.registry.own_specs())
OUT_OF_DATE = message_pattern(OUT_OF_DATE_MSG)


def _warnings_of(fn: Any) -> list[tuple[str, str]]:
    """``(category name, text)`` of each warning ``fn`` gives, sorted."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    # without terminal colours (Gymnasium's logger adds them, vecgym's does not)
    return sorted(
        (w.category.__name__, re.sub(r"\x1b\[[0-9;]*m", "", str(w.message))) for w in caught
    )


def _check(env: Any) -> None:
    check_env(env, skip_render_check=True)


# --- single envs ----------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", BUILT_IN_IDS)
def test_gymnasium_check_env_passes_on_every_built_in_env(env_id: str) -> None:
    def check_ours() -> None:
        env = to_gymnasium(vecgym.make(env_id))
        assert isinstance(env, gymnasium.Env)
        _check(env)
        env.close()

    def check_theirs() -> None:
        env = gymnasium.make(env_id)
        _check(env)
        env.close()

    ours = _warnings_of(check_ours)
    if env_id in gymnasium.registry:
        theirs = _warnings_of(check_theirs)
        # vecgym's own warnings (``make`` of an old version) are in its own words: Gymnasium gives
        # one of the same category
        own = [w for w in ours if re.search(OUT_OF_DATE, w[1])]
        assert {category for category, _ in own} <= {category for category, _ in theirs}
        # The other warnings (Gymnasium's check_env's) are ones Gymnasium's own env gives too
        # (e.g. CartPole's infinite bounds).
        assert {w for w in ours if w not in own} <= set(theirs)
    else:
        assert ours == []


def test_converted_env_gives_the_vecgym_envs_trajectory() -> None:
    direct = vecgym.make("CartPole-v1")
    env = to_gymnasium(vecgym.make("CartPole-v1"))
    obs, info = env.reset(seed=3)
    expected, _ = direct.reset(seed=3)
    np.testing.assert_array_equal(obs, expected)
    done = False
    while not done:
        action = int(env.action_space.sample())
        obs, reward, terminated, truncated, info = env.step(action)
        step = direct.step(action)
        np.testing.assert_array_equal(obs, step[0])
        assert (reward, terminated, truncated, info) == step[1:]
        done = terminated or truncated
    assert env.np_random_seed == 3
    env.close()
    direct.close()


def test_converted_env_attributes_and_spec_rebuild() -> None:
    env = to_gymnasium(vecgym.make("FrozenLake-v1", map_name="8x8"))
    assert env.unwrapped is env
    assert env.observation_space == gymnasium.spaces.Discrete(64)
    assert env.spec.id == "FrozenLake-v1"
    assert env.spec.kwargs["map_name"] == "8x8"
    assert env.desc.shape == (8, 8)  # read from the vecgym env, through its wrappers
    # Gymnasium's make rebuilds it from the copied spec (Gymnasium's wrappers on the outside)
    rebuilt = gymnasium.make(env.spec)
    assert isinstance(rebuilt.unwrapped, adapters.VecgymEnv)
    assert rebuilt.unwrapped.vecgym_env.unwrapped.desc.shape == (8, 8)
    rebuilt.close()
    env.close()


def test_gymnasium_wrappers_and_vectorisers_take_converted_envs() -> None:
    env = gymnasium.wrappers.RecordEpisodeStatistics(to_gymnasium(vecgym.make("CartPole-v1")))
    env.reset(seed=0)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(1)
        done = terminated or truncated
    assert info["episode"]["l"] > 0
    env.close()
    fns = [lambda: to_gymnasium(vecgym.make("CartPole-v1"))] * 2
    envs = gymnasium.vector.AsyncVectorEnv(fns)
    reference = vecgym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
    obs, _ = envs.reset(seed=[5, 6])
    expected, _ = reference.reset(seed=[5, 6])
    np.testing.assert_array_equal(obs, expected)
    envs.close()
    reference.close()


def test_converted_env_pickles() -> None:
    env = to_gymnasium(vecgym.make("CartPole-v1"))
    for dumps, loads in ((pickle.dumps, pickle.loads), (cloudpickle.dumps, pickle.loads)):
        copy = loads(dumps(env))
        assert isinstance(copy, adapters.VecgymEnv)
        assert copy.observation_space == env.observation_space
    env.close()


def test_attributes_of_the_vecgym_env_are_set_on_it() -> None:
    env = to_gymnasium(vecgym.make("CartPole-v1"))
    env.gravity = 1.5  # what SB3's DummyVecEnv.set_attr does
    assert env.vecgym_env.unwrapped.gravity == 1.5
    assert "gravity" not in vars(env)
    env.new_attribute = 3  # unknown to the vecgym env: the adapter's own
    assert vars(env)["new_attribute"] == 3
    assert not env.vecgym_env.has_wrapper_attr("new_attribute")
    env.close()


def test_missing_attribute_is_an_attribute_error() -> None:
    env = to_gymnasium(vecgym.make("CartPole-v1"))
    with pytest.raises(AttributeError, match="no_such_attribute"):
        _ = env.no_such_attribute
    with pytest.raises(AttributeError, match=r"VecgymEnv has no attribute '_private'"):
        _ = env._private
    env.close()


# --- spaces ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SPACES))
def test_space_round_trip_keeps_parameters_and_the_random_stream(name: str) -> None:
    original = SPACES[name]()
    original.seed(11)
    reference = SPACES[name]()
    reference.seed(11)
    ours = as_vecgym_space(original)
    back = as_gymnasium_space(ours)
    assert type(back) is type(original)
    assert back == original
    # the generator object travels with the conversion: one stream, continued
    assert_same_value(back.sample(), reference.sample())
    assert_same_value(back.sample(), reference.sample())


def test_space_without_counterpart_is_named_in_the_error() -> None:
    class Odd(vecgym.spaces.Discrete):
        pass

    space = Odd(3)
    with pytest.raises(TypeError) as info:
        as_gymnasium_space(space)
    assert str(info.value) == adapters.NO_COUNTERPART_MSG.format(
        space=space, cls=type(space).__qualname__
    )


def test_graph_observations_are_gymnasium_graph_instances() -> None:
    value = vecgym.spaces.GraphInstance(np.zeros((2, 1)), None, None)
    converted = adapters._value_converter(
        vecgym.spaces.Tuple([vecgym.spaces.Graph(vecgym.spaces.Box(0, 1, (1,)), None)])
    )
    assert converted is not None
    (graph,) = converted((value,))
    assert type(graph) is gymnasium.spaces.GraphInstance


# --- vector envs ----------------------------------------------------------------------------------
def _vector_envs() -> dict[str, Any]:
    return {
        "sync": lambda **kw: vecgym.make_vec(
            "CartPole-v1", num_envs=3, vectorization_mode="sync", vector_kwargs=kw
        ),
        "async": lambda **kw: vecgym.make_vec(
            "CartPole-v1", num_envs=3, vectorization_mode="async", vector_kwargs=kw
        ),
        "vectorised": lambda **kw: vecgym.make_vec(
            "CartPole-v1", num_envs=3, vectorization_mode="vector_entry_point", **kw
        ),
    }


@pytest.mark.parametrize("kind", ["sync", "async", "vectorised"])
@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_converted_vector_env_passes_results_through(kind: str, mode: str) -> None:
    make = _vector_envs()[kind]
    envs = to_gymnasium(make(autoreset_mode=mode))
    reference = make(autoreset_mode=mode)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode(mode)
    assert envs.single_action_space == gymnasium.spaces.Discrete(2)
    assert envs.observation_space.shape == (3, 4)
    obs, _ = envs.reset(seed=7)
    expected, _ = reference.reset(seed=7)
    np.testing.assert_array_equal(obs, expected)
    for _ in range(40):
        actions = envs.action_space.sample()
        result = envs.step(actions)
        wanted = reference.step(actions)
        for ours, theirs in zip(result[:4], wanted[:4], strict=True):
            np.testing.assert_array_equal(ours, theirs)
        assert result[4].keys() == wanted[4].keys()
    envs.close()
    reference.close()
    assert envs.closed


def test_vector_step_path_copies_nothing() -> None:
    venv = SyncVectorEnv([lambda: vecgym.make("CartPole-v1")] * 2, copy=False)
    envs = to_gymnasium(venv)
    obs, _ = envs.reset(seed=0)
    stepped = envs.step(np.array([0, 1]))[0]
    direct = venv.step(np.array([1, 0]))[0]
    assert stepped is direct  # the vecgym env's own buffer, handed through
    assert obs is direct
    envs.close()


def test_vector_attribute_calls_and_gymnasium_vector_wrappers() -> None:
    venv = AsyncVectorEnv([lambda: vecgym.make("CartPole-v1")] * 2, num_workers=1)
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(to_gymnasium(venv))
    assert envs.unwrapped.num_workers == 1  # read through from the vecgym env
    assert envs.unwrapped.get_attr("gravity") == (9.8, 9.8)
    envs.unwrapped.set_attr("gravity", [1.0, 2.0])
    assert envs.unwrapped.call("get_wrapper_attr", "gravity") == (1.0, 2.0)
    envs.reset(seed=0)
    seen = False
    for _ in range(200):
        *_, infos = envs.step(np.array([1, 1]))
        seen = seen or "episode" in infos
    assert seen
    envs.close()
    assert venv.closed


# --- both ways ------------------------------------------------------------------------------------
def test_from_gymnasium_and_to_gymnasium_undo_each_other() -> None:
    vecgym_env = vecgym.make("CartPole-v1")
    converted = to_gymnasium(vecgym_env)
    assert from_gymnasium(converted) is vecgym_env
    assert from_gymnasium(vecgym_env) is vecgym_env
    assert to_gymnasium(converted) is converted
    gym_env = gymnasium.make("CartPole-v1")
    adapter = from_gymnasium(gym_env)
    assert isinstance(adapter, GymnasiumEnv)
    assert to_gymnasium(adapter) is gym_env
    venv = vecgym.make_vec("CartPole-v1", num_envs=2)
    assert from_gymnasium(to_gymnasium(venv)) is venv
    for env in (vecgym_env, gym_env, venv):
        env.close()


def test_from_gymnasium_gives_gymnasium_vector_envs_the_vecgym_adapter() -> None:
    module = pytest.importorskip(gymnasium_interop.GYMNASIUM_VECTOR_ADAPTER)
    envs = gymnasium.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
    converted = from_gymnasium(envs)
    assert isinstance(converted, module.GymnasiumVectorEnv)
    converted.close()


def test_bad_types_are_rejected() -> None:
    with pytest.raises(TypeError) as info:
        to_gymnasium("CartPole-v1")
    assert str(info.value) == gymnasium_interop.TO_GYMNASIUM_TYPE_MSG.format(type=str)
    with pytest.raises(TypeError) as info:
        from_gymnasium(42)
    assert str(info.value) == gymnasium_interop.FROM_GYMNASIUM_TYPE_MSG.format(type=int)


def test_missing_gymnasium_raises_dependency_not_installed() -> None:
    code = (
        "import sys\nsys.modules['gymnasium'] = None\n"
        "import vecgym\nfrom vecgym.interop import to_gymnasium\n"
        "from vecgym.integrations.gymnasium_interop import GYMNASIUM_EXTRA_MSG\n"
        "try:\n    to_gymnasium(vecgym.make('CartPole-v1'))\n"
        "except vecgym.error.DependencyNotInstalled as exc:\n"
        "    assert str(exc) == GYMNASIUM_EXTRA_MSG, exc\n    print('raised')\n"
    )
    assert python_stdout(code) == "raised"
    assert "gymnasium" in gymnasium_interop.GYMNASIUM_EXTRA_MSG
    assert issubclass(error.DependencyNotInstalled, error.Error)


def test_importing_the_integrations_imports_no_other_library() -> None:
    code = (
        "import sys\nimport vecgym.interop, vecgym.integrations.sb3\n"
        "import vecgym.integrations.torchrl, vecgym.integrations.rllib\n"
        "libs = ('gymnasium', 'stable_baselines3', 'torch', 'torchrl', 'ray')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in libs))\n"
    )
    assert python_stdout(code) == "[]"
