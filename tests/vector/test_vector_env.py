"""VectorEnv base class: batched-info layout equal to Gymnasium's, seeding, the wrapper family."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.support.counting_env import CountingEnv
from tests.support.messages import message_pattern
from tests.vector.helpers import assert_same_batch
from vecgym.vector import (
    AutoresetMode,
    SyncVectorEnv,
    VectorActionWrapper,
    VectorEnv,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)
from vecgym.vector.vector_env import OBS_WRAPPER_MODE_MSG, WRAPPER_ENV_TYPE_MSG

gymnasium = pytest.importorskip("gymnasium")


class _Sized(VectorEnv[Any, Any, Any]):
    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs


class _GymSized(gymnasium.vector.VectorEnv):
    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs


class _Obj:
    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Obj)


INFO_SEQUENCES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "int": [(0, {"a": 1}), (2, {"a": 5})],
    "float": [(1, {"a": 1.5})],
    "bool": [(0, {"done": True}), (1, {"done": False})],
    "np_number": [(0, {"x": np.float32(2.5)}), (2, {"x": np.float32(1)}), (1, {"y": np.int8(3)})],
    "np_bool": [(0, {"b": np.bool_(True)})],
    "array": [(1, {"arr": np.arange(3, dtype=np.int16)}), (0, {"arr": np.ones(3, dtype=np.int16)})],
    "object": [(0, {"s": "text"}), (2, {"o": _Obj()}), (1, {"n": None})],
    "nested": [
        (0, {"ep": {"r": 1.0, "l": 3}}),
        (2, {"ep": {"r": 2.0, "l": 4, "deep": {"k": True}}}),
        (1, {"other": 1}),
    ],
    "final_obs": [
        (1, {"final_obs": np.array([1.0, 2.0]), "final_info": {"count": 3}}),
        (2, {"final_obs": {"d": 1}, "final_info": {}}),
    ],
    "empty": [(0, {})],
}


@pytest.mark.parametrize("name", list(INFO_SEQUENCES))
def test_add_info_matches_gymnasium(name: str) -> None:
    ours, theirs = _Sized(3), _GymSized(3)
    infos: dict[str, Any] = {}
    gym_infos: dict[str, Any] = {}
    for env_num, info in INFO_SEQUENCES[name]:
        infos = ours._add_info(infos, info, env_num)
        gym_infos = theirs._add_info(gym_infos, info, env_num)
    assert_same_batch(infos, gym_infos)


def test_add_info_widens_instead_of_truncating() -> None:
    """Gymnasium keeps the first env's dtype and stores 2.7 as 2; vecgym widens the array."""
    infos: dict[str, Any] = {}
    env = _Sized(3)
    env._add_info(infos, {"a": 1, "f": np.float32(0.5), "b": True}, 0)
    env._add_info(infos, {"a": 2.7, "f": 2, "b": 3}, 1)
    env._add_info(infos, {"a": 4, "f": 1.25, "b": False}, 2)
    np.testing.assert_array_equal(infos["a"], [1.0, 2.7, 4.0])
    assert infos["a"].dtype == np.float64
    assert infos["f"].dtype == np.float32  # a Python int or float fits a float32 array as is
    np.testing.assert_array_equal(infos["f"], [0.5, 2.0, 1.25])
    np.testing.assert_array_equal(infos["b"], [1, 3, 0])
    np.testing.assert_array_equal(infos["_a"], [True, True, True])


def test_add_info_layout() -> None:
    infos = _Sized(3)._add_info({}, {"a": 1, "n": {"b": 2.0}}, 1)
    assert list(infos) == ["a", "_a", "n", "_n"]
    assert infos["a"].dtype == np.int64 or infos["a"].dtype == np.dtype(int)
    np.testing.assert_array_equal(infos["_a"], [False, True, False])
    np.testing.assert_array_equal(infos["n"]["b"], [0.0, 2.0, 0.0])
    np.testing.assert_array_equal(infos["n"]["_b"], [False, True, False])


def test_base_seeding_and_defaults() -> None:
    env = _Sized(2)
    env.reset(seed=5)
    assert env.np_random_seed == 5
    rng = np.random.default_rng(0)
    env.np_random = rng
    assert env.np_random is rng
    assert env.np_random_seed == -1
    assert env.unwrapped is env
    assert repr(env) == "_Sized(num_envs=2)"
    with pytest.raises(NotImplementedError):
        env.step(None)
    with pytest.raises(NotImplementedError):
        env.render()
    env.close()
    assert env.closed
    env.close()


def test_autoreset_mode_values() -> None:
    assert [mode.value for mode in AutoresetMode] == [
        mode.value for mode in gymnasium.vector.AutoresetMode
    ]


def _envs(num_envs: int = 2, **kwargs: Any) -> SyncVectorEnv:
    return SyncVectorEnv([lambda: CountingEnv(terminate_at=3) for _ in range(num_envs)], **kwargs)


def test_wrapper_forwards() -> None:
    envs = _envs()
    wrapped = VectorWrapper(envs)
    assert wrapped.num_envs == 2
    assert wrapped.unwrapped is envs
    assert wrapped.observation_space is envs.observation_space
    assert wrapped.single_action_space is envs.single_action_space
    assert wrapped.metadata is envs.metadata
    assert wrapped.render_mode is None
    assert wrapped.spec is None
    assert repr(wrapped) == "<VectorWrapper, SyncVectorEnv(num_envs=2)>"
    obs, _ = wrapped.reset(seed=1)
    np.testing.assert_array_equal(obs, [[0.0], [0.0]])
    assert wrapped.call("get_count", 10) == (10, 10)
    assert wrapped.get_attr("count", indices=[1]) == (0,)
    wrapped.set_attr("count", [4, 5])
    assert envs.get_attr("count") == (4, 5)
    assert wrapped.np_random_seed == (1, 2)
    assert wrapped.render() == ("count=4", "count=5")
    wrapped.observation_space = envs.single_observation_space
    assert wrapped.observation_space is envs.single_observation_space
    wrapped.metadata = {"x": 1}
    assert envs.metadata != {"x": 1}
    wrapped.close()
    assert envs.closed
    assert wrapped.closed


def test_wrapper_rejects_non_vector_env() -> None:
    with pytest.raises(TypeError, match=message_pattern(WRAPPER_ENV_TYPE_MSG)):
        VectorWrapper(CountingEnv())  # type: ignore[arg-type]


class _Double(VectorObservationWrapper):
    def observations(self, observations: Any) -> Any:
        return observations * 2


class _Shift(VectorActionWrapper):
    def actions(self, actions: Any) -> Any:
        return actions + 1


class _Negate(VectorRewardWrapper):
    def rewards(self, rewards: Any) -> Any:
        return -rewards


def test_observation_action_reward_wrappers() -> None:
    envs = _Negate(_Shift(_Double(_envs())))
    obs, _ = envs.reset(seed=0)
    np.testing.assert_array_equal(obs, [[0.0], [0.0]])
    obs, rewards, *_ = envs.step(np.array([0, 1]))
    np.testing.assert_array_equal(obs, [[2.0], [2.0]])
    np.testing.assert_array_equal(rewards, [-1.0, -2.0])
    envs.close()


def test_observation_wrapper_rejects_same_step() -> None:
    envs = _envs(autoreset_mode=AutoresetMode.SAME_STEP)
    with pytest.raises(ValueError, match=message_pattern(OBS_WRAPPER_MODE_MSG)):
        _Double(envs)
    envs.close()
