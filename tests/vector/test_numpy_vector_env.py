"""``NumpyVectorEnv`` and ``BatchAutoreset``: a numpy-vectorised env built on them behaves as
``SyncVectorEnv`` over the equivalent single env, in every autoreset mode."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import vecgym
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.spaces import Box, Discrete
from vecgym.vector import AutoresetMode, SyncVectorEnv, VectorEnv
from vecgym.vector.autoreset import UNKNOWN_MODE_MSG, BatchAutoreset, final_obs_infos
from vecgym.vector.numpy_vector_env import NumpyVectorEnv
from vecgym.wrappers import TimeLimit

LIMIT = 7


class WalkEnv(vecgym.Env[np.ndarray, int]):
    """A walk on a line: starts at a random integer in [-2, 2], actions move it by -1, 0 or +1,
    terminates at |position| >= 3."""

    def __init__(self) -> None:
        self.observation_space = Box(-10, 10, shape=(1,), dtype=np.float32)
        self.action_space: Any = Discrete(3)
        self.position = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        spread = 2 if options is None else options.get("spread", 2)
        self.position = int(self.np_random.integers(-spread, spread + 1))
        return np.array([self.position], dtype=np.float32), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.position += int(action) - 1
        terminated = abs(self.position) >= 3
        return np.array([self.position], dtype=np.float32), float(action), terminated, False, {}


class WalkVectorEnv(NumpyVectorEnv):
    """``WalkEnv`` with a time limit, vectorised on the base class's hooks."""

    def __init__(self, num_envs: int, autoreset_mode: AutoresetMode = AutoresetMode.NEXT_STEP):
        super().__init__(num_envs, LIMIT, None, autoreset_mode)
        self.single_observation_space = Box(-10, 10, shape=(1,), dtype=np.float32)
        self.single_action_space = Discrete(3)
        self._batch_spaces()
        self.position = np.zeros(num_envs, dtype=np.int64)

    def _parse_reset_options(self, options: dict[str, Any] | None) -> int:
        return 2 if options is None else int(options.get("spread", 2))

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: int) -> None:
        for i in indices.tolist():
            self.position[i] = self._rng(i).integers(-params, params + 1)

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]]:
        self.position += actions - 1
        return actions.astype(np.float64), np.abs(self.position) >= 3

    def _observations(self) -> np.ndarray:
        return self.position.astype(np.float32)[:, None]


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_subclass_matches_sync_vector_env(mode: AutoresetMode) -> None:
    ours = WalkVectorEnv(3, mode)
    theirs = SyncVectorEnv([lambda: TimeLimit(WalkEnv(), LIMIT)] * 3, autoreset_mode=mode)
    np.testing.assert_array_equal(
        ours.reset(seed=4, options={"spread": 1})[0],
        theirs.reset(seed=4, options={"spread": 1})[0],
    )
    rng = np.random.default_rng(4)
    seen = {"terminated": False, "truncated": False}
    for _ in range(150):
        actions = rng.integers(0, 3, 3)
        step_ours, step_theirs = ours.step(actions), theirs.step(actions)
        for mine, other in zip(step_ours[:4], step_theirs[:4], strict=True):
            np.testing.assert_array_equal(mine, other, strict=True)
        assert step_ours[4].keys() == step_theirs[4].keys()
        if "final_obs" in step_theirs[4]:
            np.testing.assert_array_equal(step_ours[4]["_final_obs"], step_theirs[4]["_final_obs"])
            for mine, other in zip(
                step_ours[4]["final_obs"], step_theirs[4]["final_obs"], strict=True
            ):
                assert (mine is None) == (other is None)
                if other is not None:
                    np.testing.assert_array_equal(mine, other, strict=True)
            assert step_ours[4]["final_info"] == step_theirs[4]["final_info"] == {}
        seen["terminated"] |= bool(step_theirs[2].any())
        seen["truncated"] |= bool(step_theirs[3].any())
        ended = step_theirs[2] | step_theirs[3]
        if mode is AutoresetMode.DISABLED and ended.any():
            with pytest.raises(error.ResetNeeded, match=f"sub-environment {np.argmax(ended)}"):
                ours.step(actions)
            np.testing.assert_array_equal(
                ours.reset(options={"reset_mask": ended})[0],
                theirs.reset(options={"reset_mask": ended})[0],
            )
    assert seen == {"terminated": True, "truncated": True}
    theirs.close()


def test_seeding_and_generators() -> None:
    envs = WalkVectorEnv(3)
    envs.reset(seed=[1, None, 3])
    seeds = envs.np_random_seed
    assert seeds[0] == 1
    assert seeds[2] == 3
    assert isinstance(seeds[1], int)
    assert len(envs.np_random) == 3
    assert all(isinstance(rng, np.random.Generator) for rng in envs.np_random)
    with pytest.raises(ValueError):
        envs.reset(seed=[1, 2])
    with pytest.raises(TypeError):
        envs.reset(options={"reset_mask": [True, False, True]})


def test_manual_reset_clears_a_pending_autoreset() -> None:
    envs = WalkVectorEnv(1)
    envs.reset(seed=0)
    while not envs.step(np.array([2]))[2][0]:
        pass
    assert envs.needs_reset[0]
    envs.reset(options={"reset_mask": np.array([True])})
    assert not envs.needs_reset[0]
    _, rewards, *_ = envs.step(np.array([2]))
    assert rewards[0] == 2.0  # a real step, not an autoreset one


def test_closed_and_unimplemented_hooks() -> None:
    envs = WalkVectorEnv(2)
    assert isinstance(envs, VectorEnv)
    envs.close()
    assert envs.closed
    with pytest.raises(error.ClosedEnvironmentError):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(NotImplementedError):
        NumpyVectorEnv(2).reset()


def calls_append(calls: list[list[int]]) -> Any:
    def reset_envs(indices: npt.NDArray[np.intp]) -> None:
        calls.append(indices.tolist())

    return reset_envs


def test_batch_autoreset_modes() -> None:
    ended = np.array([False, True, False])
    no = np.zeros(3, dtype=np.bool_)
    for mode in AutoresetMode:
        auto = BatchAutoreset(mode, 3)
        rewards = np.ones(3)
        calls: list[list[int]] = []
        _obs, infos = auto.finish_step(
            None,
            rewards,
            ended.copy(),
            no.copy(),
            calls_append(calls),
            lambda: np.arange(3.0)[:, None],
        )
        if mode is AutoresetMode.SAME_STEP:
            assert calls == [[1]]
            assert infos["final_obs"][1].tolist() == [1.0]
            assert infos["final_obs"][0] is None
            assert auto.begin_step() is None
        else:
            assert infos == {}
            assert calls == []
            np.testing.assert_array_equal(auto.needs_reset, ended)
        if mode is AutoresetMode.NEXT_STEP:
            pending = auto.begin_step()
            assert pending is not None
            assert pending.tolist() == [1]
            terminated, truncated = np.ones(3, bool), np.ones(3, bool)
            auto.finish_step(
                pending, rewards, terminated, truncated, lambda idx: None, lambda: np.zeros(3)
            )
            assert rewards[1] == 0
            assert not terminated[1]
            assert not truncated[1]
        if mode is AutoresetMode.DISABLED:
            with pytest.raises(error.ResetNeeded, match="sub-environment 1"):
                auto.begin_step()
            auto.clear(np.array([1]))
            assert auto.begin_step() is None
    with pytest.raises(TypeError, match=message_pattern(UNKNOWN_MODE_MSG)):
        BatchAutoreset("NextStep", 3)  # type: ignore[arg-type]


def test_final_obs_infos_matches_add_info() -> None:
    env = WalkVectorEnv(4)
    expected: dict[str, Any] = {}
    rows = np.array([[5.0], [7.0]], dtype=np.float32)
    for row, i in enumerate([1, 3]):
        expected = env._add_info(expected, {"final_obs": rows[row], "final_info": {}}, i)
    ours = final_obs_infos(rows, np.array([1, 3]), 4)
    assert ours.keys() == expected.keys()
    for key in ("_final_obs", "_final_info"):
        np.testing.assert_array_equal(ours[key], expected[key], strict=True)
    assert ours["final_info"] == expected["final_info"] == {}
    assert ours["final_obs"].dtype == object
    assert [None if v is None else v.tolist() for v in ours["final_obs"]] == [
        None if v is None else v.tolist() for v in expected["final_obs"]
    ]
