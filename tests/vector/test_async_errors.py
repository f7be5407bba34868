"""Failures inside AsyncVectorEnv workers: exceptions, dead workers, timeouts, bad actions."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.crashing_envs import ExitingEnv, RaisingEnv
from tests.support.slow_env import SlowEnv
from vecgym import error
from vecgym.vector import AsyncVectorEnv
from vecgym.vector.async_vector_env import RemoteTraceback

WAIT_S = 30.0
ZEROS = np.zeros(4, dtype=np.int64)


def _envs(factory: object, bad: int = 3, **kwargs: object) -> AsyncVectorEnv:
    fns = [(lambda i=i: factory(i == bad)) for i in range(4)]  # type: ignore[operator]
    return AsyncVectorEnv(fns, num_workers=2, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("context", ["fork", "forkserver"])
def test_exception_in_step_keeps_type_and_cause(context: str) -> None:
    envs = _envs(lambda bad: RaisingEnv(fail_at=2 if bad else None), context=context)
    try:
        envs.reset(seed=0)
        envs.step(ZEROS)
        with pytest.raises(
            ValueError, match=r"boom at step 2.*worker 1, sub-environment 3"
        ) as info:
            envs.step(ZEROS)
        assert isinstance(info.value.__cause__, RemoteTraceback)
        assert "Traceback" in str(info.value.__cause__)
        assert "boom" in str(info.value.__cause__)
        # the vector env stays usable: a reset recovers it
        obs, _ = envs.reset(seed=0)
        assert obs.shape == (4, 1)
    finally:
        envs.close()


def test_exception_in_reset() -> None:
    envs = _envs(lambda bad: RaisingEnv(fail_on_reset=bad), bad=0)
    try:
        with pytest.raises(ValueError, match=r"boom in reset.*sub-environment 0"):
            envs.reset(seed=0)
    finally:
        envs.close()


def test_exception_in_call_and_unpicklable() -> None:
    envs = _envs(lambda bad: RaisingEnv(unpicklable=bad), bad=2)
    try:
        envs.reset(seed=0)
        with pytest.raises(error.WorkerError, match=r"UnpicklableError.*boom in explode") as info:
            envs.call("explode", indices=[2])
        assert info.value.env_index == 2
        assert info.value.worker == 1
        assert "UnpicklableError" in info.value.type_name
        assert isinstance(info.value.__cause__, RemoteTraceback)
        with pytest.raises(ValueError, match="use the vector env's `step`"):
            envs.call("step", 0)
        assert envs.get_attr("count") == (0, 0, 0, 0)
    finally:
        envs.close()


def test_exception_in_constructor() -> None:
    def broken() -> RaisingEnv:
        raise KeyError("no such env")

    with pytest.raises(KeyError, match="no such env"):
        AsyncVectorEnv([broken, broken], num_workers=2)


@pytest.mark.parametrize("shm", [True, False])
def test_dead_worker_raises_worker_died(shm: bool) -> None:
    envs = _envs(lambda bad: ExitingEnv(exit_at=2 if bad else 10**6, code=3), shared_memory=shm)
    envs.reset(seed=0)
    envs.step(ZEROS)
    envs.step_async(ZEROS)
    with pytest.raises(error.WorkerDied, match=r"worker 1 .*\[2, 3\].*exit code 3") as info:
        envs.step_wait(timeout=WAIT_S)
    assert info.value.worker == 1
    assert info.value.env_indices == (2, 3)
    assert info.value.exitcode == 3
    with pytest.raises(error.WorkerDied, match="unusable"):
        envs.step(ZEROS)
    envs.close()  # never raises after a failure
    envs.close()


def test_timeout_then_fresh_results() -> None:
    fns = [(lambda i=i: SlowEnv(step_delay=0.5 if i == 1 else 0.0, slow_after=1)) for i in range(2)]
    envs = AsyncVectorEnv(fns, num_workers=2)
    try:
        envs.reset(seed=0)
        envs.step(np.array([1, 1]))
        envs.step_async(np.array([1, 1]))
        with pytest.raises(error.WaitTimeout, match="timed out"):
            envs.step_wait(timeout=0.05)
        envs.step_async(np.array([0, 0]))
        with pytest.raises(TimeoutError):  # also a TimeoutError
            envs.step_wait(timeout=0.01)
        envs.set_attr("step_delay", 0.0)
        obs, rewards, *_ = envs.step(np.array([0, 0]))
        # each env was stepped 4 times: the late results were discarded, not returned
        np.testing.assert_array_equal(obs[:, 0], [4, 4])
        np.testing.assert_array_equal(rewards, [0.0, 0.0])
    finally:
        envs.close()


def test_close_after_hang_terminates_quickly() -> None:
    envs = AsyncVectorEnv([lambda: SlowEnv(step_delay=60.0, slow_after=0)] * 2, num_workers=2)
    envs.reset(seed=0)
    envs.step_async(np.array([0, 0]))
    with pytest.raises(error.WaitTimeout):
        envs.step_wait(timeout=0.05)
    envs.close(timeout=0.5)
    assert envs.closed


@pytest.mark.parametrize(
    ("actions", "exc", "match"),
    [
        (np.zeros(3, dtype=np.int64), ValueError, r"shape \(4,\)"),
        (np.zeros((3, 1), dtype=np.int64), ValueError, "shape"),
        (np.zeros(4, dtype=np.float64), TypeError, "castable"),
    ],
)
def test_bad_actions_rejected_before_stepping(actions: object, exc: type, match: str) -> None:
    envs = _envs(lambda bad: RaisingEnv())
    try:
        envs.reset(seed=0)
        with pytest.raises(exc, match=match):
            envs.step(actions)
        assert envs.get_attr("count") == (0, 0, 0, 0)
        envs.step(ZEROS)  # nothing pending
    finally:
        envs.close()


def test_del_without_close_never_raises() -> None:
    envs = _envs(lambda bad: RaisingEnv())
    envs.reset(seed=0)
    processes = list(envs.processes)
    envs.__del__()
    assert all(not p.is_alive() for p in processes)


class _BadOutputEnv(RaisingEnv):
    """Steps as :class:`RaisingEnv`, but its second step returns an output that fits no row: an
    observation of the wrong shape, or a reward that is not a number."""

    def __init__(self, bad_field: str | None) -> None:
        super().__init__()
        self.bad_field = bad_field

    def step(self, action: object) -> tuple[object, object, bool, bool, dict[str, object]]:
        obs, reward, terminated, truncated, info = super().step(action)
        if self.bad_field is not None and self.count == 2:
            if self.bad_field == "obs":
                obs = np.zeros(3, dtype=np.float32)
            else:
                reward = "not a number"
        return obs, reward, terminated, truncated, info


@pytest.mark.parametrize("bad_field", ["obs", "reward"])
@pytest.mark.parametrize("parent_envs", [0, 2])
def test_an_output_that_fits_no_row_names_its_env(bad_field: str, parent_envs: int) -> None:
    # Writing the outputs into the shared rows fails for env 3 only; the error names that env,
    # in a worker and in the parent's slice alike, and the other envs' outputs were fine.
    fns = [(lambda i=i: _BadOutputEnv(bad_field if i == 3 else None)) for i in range(4)]
    envs = AsyncVectorEnv(fns, num_workers=1, parent_envs=parent_envs)  # type: ignore[arg-type]
    try:
        envs.reset(seed=0)
        obs, rewards, *_ = envs.step(ZEROS)
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
        with pytest.raises(ValueError, match=r"sub-environment 3") as info:
            envs.step(ZEROS)
        assert isinstance(info.value.__cause__, RemoteTraceback)
        obs, _ = envs.reset(seed=0)
        obs, rewards, *_ = envs.step(ZEROS)
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
        np.testing.assert_array_equal(rewards, [1.0, 1.0, 1.0, 1.0])
    finally:
        envs.close()
