"""One contract, every vectoriser: SyncVectorEnv and AsyncVectorEnv (with and without shared
memory, each start method the platform has) must all behave exactly as written here.

The expected values come from :class:`~tests.support.counting_env.CountingEnv` (observation =
steps since reset, reward = action, terminates at 3, info ``{"count": c}`` on even counts), not
from comparing one vectoriser with another, so a bug shared by all of them still fails.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from tests.support.counting_env import CountingEnv
from vecgym import error
from vecgym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv

N = 4
TERMINATE_AT = 3
START_METHODS = multiprocessing.get_all_start_methods()

VECTORISERS: dict[str, dict[str, Any] | None] = {
    "sync": None,
    "async-fork-shm": {"context": "fork", "shared_memory": True, "num_workers": 2},
    "async-fork-pipes": {"context": "fork", "shared_memory": False, "num_workers": 2},
    "async-forkserver-shm": {"context": "forkserver", "shared_memory": True, "num_workers": 2},
    "async-spawn-pipes": {"context": "spawn", "shared_memory": False, "num_workers": 1},
}
VECTORISERS = {
    name: kwargs
    for name, kwargs in VECTORISERS.items()
    if kwargs is None or kwargs["context"] in START_METHODS
}

Factory = Callable[..., VectorEnv[Any, Any, Any]]


def _env_fns() -> list[Callable[[], CountingEnv]]:
    return [lambda: CountingEnv(terminate_at=TERMINATE_AT, info_every=2) for _ in range(N)]


@pytest.fixture(params=list(VECTORISERS), ids=list(VECTORISERS))
def make_envs(request: pytest.FixtureRequest) -> Iterator[Factory]:
    """A factory building the vectoriser under test; everything it built is closed afterwards."""
    kwargs = VECTORISERS[request.param]
    built: list[VectorEnv[Any, Any, Any]] = []

    def factory(**extra: Any) -> VectorEnv[Any, Any, Any]:
        if kwargs is None:
            envs: VectorEnv[Any, Any, Any] = SyncVectorEnv(_env_fns(), **extra)
        else:
            envs = AsyncVectorEnv(_env_fns(), **kwargs, **extra)
        built.append(envs)
        return envs

    yield factory
    for envs in built:
        envs.close()


def _actions(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def test_reset_returns_batched_observations_and_infos(make_envs: Factory) -> None:
    envs = make_envs()
    obs, infos = envs.reset(seed=3)
    assert obs.shape == (N, 1)
    assert obs.dtype == np.float32
    np.testing.assert_array_equal(obs, np.zeros((N, 1)))
    np.testing.assert_array_equal(infos["count"], [0] * N)
    np.testing.assert_array_equal(infos["_count"], [True] * N)
    assert envs.np_random_seed is not None


def test_step_outputs_have_gymnasium_types(make_envs: Factory) -> None:
    envs = make_envs()
    envs.reset(seed=0)
    obs, rewards, terminated, truncated, infos = envs.step(_actions(0, 1, 2, 1))
    np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
    assert rewards.dtype == np.float64
    np.testing.assert_array_equal(rewards, [0.0, 1.0, 2.0, 1.0])
    assert terminated.dtype == np.bool_
    assert truncated.dtype == np.bool_
    assert not terminated.any()
    assert not truncated.any()
    assert infos == {}  # count 1: every env's info is empty


def test_next_step_autoreset(make_envs: Factory) -> None:
    envs = make_envs()
    envs.reset(seed=0)
    for _ in range(TERMINATE_AT - 1):
        envs.step(_actions(1, 1, 1, 1))
    obs, rewards, terminated, _, infos = envs.step(_actions(1, 1, 1, 1))
    np.testing.assert_array_equal(obs[:, 0], [3] * N)
    assert terminated.all()
    # the next step is the reset step: reset observation, reward 0, flags cleared, reset info
    obs, rewards, terminated, truncated, infos = envs.step(_actions(2, 2, 2, 2))
    np.testing.assert_array_equal(obs[:, 0], [0] * N)
    np.testing.assert_array_equal(rewards, [0.0] * N)
    assert not terminated.any()
    assert not truncated.any()
    np.testing.assert_array_equal(infos["count"], [0] * N)
    obs, *_ = envs.step(_actions(2, 2, 2, 2))
    np.testing.assert_array_equal(obs[:, 0], [1] * N)


def test_same_step_autoreset_reports_final_observation(make_envs: Factory) -> None:
    envs = make_envs(autoreset_mode=AutoresetMode.SAME_STEP)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    envs.reset(seed=0)
    for _ in range(TERMINATE_AT - 1):
        envs.step(_actions(1, 1, 1, 1))
    obs, rewards, terminated, _, infos = envs.step(_actions(1, 1, 1, 1))
    np.testing.assert_array_equal(obs[:, 0], [0] * N)  # already reset
    np.testing.assert_array_equal(rewards, [1.0] * N)
    assert terminated.all()
    np.testing.assert_array_equal(infos["_final_obs"], [True] * N)
    assert [float(final[0]) for final in infos["final_obs"]] == [3.0] * N
    np.testing.assert_array_equal(infos["count"], [0] * N)  # the reset's info


def test_disabled_autoreset_needs_a_masked_reset(make_envs: Factory) -> None:
    envs = make_envs(autoreset_mode=AutoresetMode.DISABLED)
    envs.reset(seed=0)
    for _ in range(TERMINATE_AT):
        envs.step(_actions(1, 1, 1, 1))
    with pytest.raises(error.ResetNeeded):
        envs.step(_actions(1, 1, 1, 1))
    obs, _ = envs.reset(options={"reset_mask": np.ones(N, dtype=np.bool_)})
    np.testing.assert_array_equal(obs[:, 0], [0] * N)
    obs, *_ = envs.step(_actions(1, 1, 1, 1))
    np.testing.assert_array_equal(obs[:, 0], [1] * N)


def test_partial_reset_touches_only_masked_envs(make_envs: Factory) -> None:
    envs = make_envs()
    envs.reset(seed=0)
    envs.step(_actions(1, 1, 1, 1))
    options = {"reset_mask": np.array([True, False, True, False]), "start": 2}
    obs, infos = envs.reset(options=options)
    assert "reset_mask" in options  # the caller's dict is left as it was
    np.testing.assert_array_equal(obs[:, 0], [2, 1, 2, 1])
    np.testing.assert_array_equal(infos["_count"], [True, False, True, False])
    obs, *_ = envs.step(_actions(1, 1, 1, 1))
    np.testing.assert_array_equal(obs[:, 0], [3, 2, 3, 2])


def test_manual_reset_clears_a_pending_autoreset(make_envs: Factory) -> None:
    envs = make_envs()
    envs.reset(seed=0)
    for _ in range(TERMINATE_AT):
        envs.step(_actions(1, 1, 1, 1))
    envs.reset(seed=0, options={"start": 1})
    obs, rewards, *_ = envs.step(_actions(2, 2, 2, 2))
    np.testing.assert_array_equal(obs[:, 0], [2] * N)  # a real step, not a reset step
    np.testing.assert_array_equal(rewards, [2.0] * N)


def test_bad_input_is_rejected_before_anything_steps(make_envs: Factory) -> None:
    envs = make_envs()
    envs.reset(seed=0)
    with pytest.raises(ValueError, match=str(N)):
        envs.step(np.zeros(N + 1, dtype=np.int64))
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[1, 2])
    with pytest.raises((TypeError, ValueError), match="reset_mask"):
        envs.reset(options={"reset_mask": np.ones(N, dtype=np.int64)})
    obs, *_ = envs.step(_actions(1, 1, 1, 1))
    np.testing.assert_array_equal(obs[:, 0], [1] * N)  # nothing was stepped by the bad calls


def test_call_get_attr_set_attr_with_indices(make_envs: Factory) -> None:
    envs = make_envs()
    envs.reset(seed=0)
    envs.step(_actions(1, 1, 1, 1))
    assert envs.call("get_count", 10) == (11, 11, 11, 11)
    assert envs.call("get_count", indices=[1, 3]) == (1, 1)
    envs.set_attr("terminate_at", [10, 20], indices=[0, 2])
    assert envs.get_attr("terminate_at") == (10, 3, 20, 3)


def test_copy_true_returns_arrays_the_next_step_does_not_change(make_envs: Factory) -> None:
    envs = make_envs(copy=True)
    obs, _ = envs.reset(seed=0)
    first, *_ = envs.step(_actions(1, 1, 1, 1))
    envs.step(_actions(1, 1, 1, 1))
    np.testing.assert_array_equal(first[:, 0], [1] * N)
    np.testing.assert_array_equal(obs[:, 0], [0] * N)


def test_close_is_idempotent_and_final(make_envs: Factory) -> None:
    envs = make_envs()
    envs.reset(seed=0)
    envs.close()
    envs.close()
    assert envs.closed
    with pytest.raises(error.ClosedEnvironmentError):
        envs.step(_actions(1, 1, 1, 1))
    with pytest.raises(error.ClosedEnvironmentError):
        envs.reset()
