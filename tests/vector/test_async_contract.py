"""AsyncVectorEnv's contract, for each start method, with and without shared memory."""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from tests.support.counting_env import CountingEnv
from tests.support.messages import message_pattern
from tests.vector.helpers import assert_same_batch
from vecgym import error
from vecgym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from vecgym.vector._async.options import MAX_CONCURRENCY_TYPE_MSG, MAX_CONCURRENCY_VALUE_MSG
from vecgym.vector._async.worker import OBS_SPACE_MISMATCH_MSG
from vecgym.vector.async_vector_env import (
    CLOSE_PENDING_MSG,
    SET_ATTR_LENGTH_MSG,
    AsyncState,
    default_start_method,
    usable_cores,
)

NUM_ENVS = 4
WAIT_S = 30.0

CONTEXTS = [
    c for c in ("fork", "forkserver", "spawn") if c in multiprocessing.get_all_start_methods()
]


def _fns(**kwargs: Any) -> list[Any]:
    return [lambda: CountingEnv(terminate_at=3, info_every=2, **kwargs) for _ in range(NUM_ENVS)]


# Every combination under fork; forkserver and spawn start slowly, so they get a few.
VARIANTS = [("fork", shm, w) for shm in (True, False) for w in (1, 2)] + [
    variant
    for variant in (("forkserver", True, 2), ("forkserver", False, 1), ("spawn", True, 2))
    if variant[0] in CONTEXTS
]


@pytest.fixture(params=VARIANTS, ids=lambda p: f"{p[0]}-shm{p[1]}-w{p[2]}")
def envs(request: pytest.FixtureRequest) -> Iterator[AsyncVectorEnv]:
    context, shm, workers = request.param
    env = AsyncVectorEnv(_fns(), context=context, shared_memory=shm, num_workers=workers)
    yield env
    env.close()


def test_spaces_and_metadata(envs: AsyncVectorEnv) -> None:
    assert envs.num_envs == NUM_ENVS
    assert envs.single_observation_space == CountingEnv().observation_space
    assert envs.observation_space.shape == (NUM_ENVS, 1)
    assert envs.action_space.shape == (NUM_ENVS,)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.metadata["render_modes"] == ["ansi"]


def test_steps_like_sync(envs: AsyncVectorEnv) -> None:
    sync = SyncVectorEnv(_fns())
    try:
        assert_same_batch(envs.reset(seed=1), sync.reset(seed=1))
        for t in range(8):
            actions = np.array([(t + i) % 3 for i in range(NUM_ENVS)])
            assert_same_batch(
                envs.step_async(actions) or envs.step_wait(WAIT_S), sync.step(actions)
            )
    finally:
        sync.close()


def test_call_get_set_attr_with_indices(envs: AsyncVectorEnv) -> None:
    envs.reset(seed=0)
    assert envs.get_attr("terminate_at") == (3,) * NUM_ENVS
    envs.set_attr("terminate_at", [5, 6], indices=[3, 1])
    assert envs.get_attr("terminate_at") == (3, 6, 3, 5)
    assert envs.get_attr("terminate_at", indices=[2, 1]) == (3, 6)
    envs.set_attr("terminate_at", 9)
    assert envs.call("_info") == ({"count": 0},) * NUM_ENVS
    assert envs.call("_info", indices=0) == ({"count": 0},)
    with pytest.raises(ValueError, match=message_pattern(SET_ATTR_LENGTH_MSG, 2, NUM_ENVS)):
        envs.set_attr("terminate_at", [1, 2])
    envs.call_async("_info")
    assert envs.call_wait(timeout=WAIT_S) == ({"count": 0},) * NUM_ENVS
    # `call_async`'s own `name` is positional-only (as Gymnasium's): a keyword `name` goes on
    envs.call_async("get_wrapper_attr", name="terminate_at")
    assert envs.call_wait(timeout=WAIT_S) == (9,) * NUM_ENVS


def test_pending_and_closed_errors(envs: AsyncVectorEnv) -> None:
    with pytest.raises(error.NoAsyncCallError):
        envs.step_wait()
    envs.reset_async(seed=0)
    with pytest.raises(error.AlreadyPendingCallError):
        envs.step_async(np.zeros(NUM_ENVS, dtype=np.int64))
    envs.reset_wait(timeout=WAIT_S)
    envs.close()
    envs.close()  # idempotent
    assert envs.closed
    with pytest.raises(error.ClosedEnvironmentError):
        envs.reset()


def test_close_while_pending_warns_and_closes(envs: AsyncVectorEnv) -> None:
    envs.reset(seed=0)
    envs.step_async(np.zeros(NUM_ENVS, dtype=np.int64))
    with pytest.warns(UserWarning, match=message_pattern(CLOSE_PENDING_MSG, "step")):
        envs.close()
    assert envs.closed


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("shm", [True, False])
def test_autoreset_modes_like_sync(mode: AutoresetMode, shm: bool) -> None:
    ours = AsyncVectorEnv(_fns(), autoreset_mode=mode, shared_memory=shm, num_workers=2)
    sync = SyncVectorEnv(_fns(), autoreset_mode=mode)
    try:
        assert_same_batch(ours.reset(seed=3), sync.reset(seed=3))
        for t in range(6):
            if mode is AutoresetMode.DISABLED and t == 3:
                mask = np.array([True, False, True, True])
                assert_same_batch(
                    ours.reset(options={"reset_mask": mask}),
                    sync.reset(options={"reset_mask": mask}),
                )
                mask = ~mask
                assert_same_batch(
                    ours.reset(options={"reset_mask": mask}),
                    sync.reset(options={"reset_mask": mask}),
                )
            actions = np.full(NUM_ENVS, t % 3)
            assert_same_batch(ours.step(actions), sync.step(actions))
    finally:
        ours.close()
        sync.close()


def test_copy_false_returns_shared_views() -> None:
    envs = AsyncVectorEnv(_fns(), copy=False, num_workers=2)
    try:
        obs, _ = envs.reset(seed=0)
        first = obs
        obs, *_ = envs.step(np.zeros(NUM_ENVS, dtype=np.int64))
        assert obs is first
        assert np.all(first == 1)
    finally:
        envs.close()


def test_defaults() -> None:
    envs = AsyncVectorEnv(_fns())
    try:
        assert envs.num_workers == min(usable_cores(), NUM_ENVS)
        assert envs.context == default_start_method()
        assert envs._state is AsyncState.DEFAULT
        assert repr(envs) == f"AsyncVectorEnv(num_envs={NUM_ENVS})"
        frames = envs.render()
        assert isinstance(frames, tuple)
        assert len(frames) == NUM_ENVS
    finally:
        envs.close()


@pytest.mark.parametrize(
    ("kwargs", "exc"),
    [
        ({"num_workers": 0}, ValueError),
        ({"batch_size": 0}, ValueError),
        ({"observation_mode": "nope"}, ValueError),
        ({"context": "teleport"}, ValueError),
    ],
)
def test_bad_constructor_arguments(kwargs: dict[str, Any], exc: type[Exception]) -> None:
    with pytest.raises(exc):
        AsyncVectorEnv(_fns(), **kwargs)


class _RecordingFn:
    """An env fn that appends the pid of the process calling it to a file."""

    def __init__(self, path: Any) -> None:
        self.path = path

    def __call__(self) -> CountingEnv:
        with open(self.path, "a") as log:
            log.write(f"{os.getpid()}\n")
        return CountingEnv()


def test_each_env_fn_is_called_once_in_a_worker(tmp_path: Any) -> None:
    # Gymnasium also calls env_fns[0] in the parent, for the spaces; vecgym's workers report them
    paths = [tmp_path / f"env{i}.log" for i in range(NUM_ENVS)]
    envs = AsyncVectorEnv([_RecordingFn(path) for path in paths], num_workers=2)
    try:
        assert envs.single_observation_space == CountingEnv().observation_space
        envs.reset(seed=0)
        calls = [path.read_text().split() for path in paths]
        assert [len(pids) for pids in calls] == [1] * NUM_ENVS
        workers = {str(process.pid) for process in envs.processes}
        assert {pid for pids in calls for pid in pids} == workers
        assert str(os.getpid()) not in workers
    finally:
        envs.close()


def test_env_fns_must_be_callables() -> None:
    with pytest.raises(TypeError, match="env_fns"):
        AsyncVectorEnv([1])
    with pytest.raises(error.NoEnvironments, match="env_fns") as info:
        AsyncVectorEnv([])
    assert isinstance(info.value, IndexError)  # what Gymnasium raises


def test_differing_spaces_rejected() -> None:
    fns = [lambda: CountingEnv(), lambda: CountingEnv(max_count=7)]
    with pytest.raises(RuntimeError, match=message_pattern(OBS_SPACE_MISMATCH_MSG, index=1)):
        AsyncVectorEnv(fns, num_workers=2)


def test_gymnasium_env_through_make() -> None:
    import vecgym

    envs = AsyncVectorEnv([lambda: vecgym.make("CartPole-v1")] * 3, num_workers=2)
    sync = SyncVectorEnv([lambda: vecgym.make("CartPole-v1")] * 3)
    try:
        assert_same_batch(envs.reset(seed=42), sync.reset(seed=42))
        rng = np.random.default_rng(0)
        for _ in range(40):
            actions = rng.integers(0, 2, 3)
            assert_same_batch(envs.step(actions), sync.step(actions))
    finally:
        envs.close()
        sync.close()


def test_close_after_a_call_lets_every_worker_exit_by_itself() -> None:
    """A worker that closes and exits at once must not stop close() from reaching the others.

    (Regression: the CLOSE request was also sent down the pipe; a worker already gone made that
    send fail, close() gave up on the remaining workers and later had to terminate them.)
    """
    for _ in range(10):
        env = AsyncVectorEnv(
            [lambda: CountingEnv(), lambda: CountingEnv()], num_workers=2, context="fork"
        )
        env.get_attr("metadata")
        env.close()
        assert [p.exitcode for p in env.processes] == [0, 0]


def test_max_concurrency_limits_envs_in_step_and_reset() -> None:
    """Gymnasium 1.4's max_concurrency: at most that many envs inside reset/step at once."""
    counter = multiprocessing.get_context("fork").Value("i", 0)
    peak = multiprocessing.get_context("fork").Value("i", 0)

    class Overlap(CountingEnv):
        def step(self, action: Any) -> Any:
            with counter.get_lock():
                counter.value += 1
                peak.value = max(peak.value, counter.value)
            time.sleep(0.01)
            with counter.get_lock():
                counter.value -= 1
            return super().step(action)

    envs = AsyncVectorEnv([Overlap] * 4, num_workers=4, context="fork", max_concurrency=1)
    try:
        assert envs.max_concurrency == 1
        envs.reset(seed=0)
        for _ in range(3):
            envs.step(np.zeros(4, dtype=np.int64))
        assert peak.value == 1
    finally:
        envs.close()
    unlimited = AsyncVectorEnv([Overlap] * 4, num_workers=4, context="fork")
    try:
        unlimited.reset(seed=0)
        peak.value = 0
        for _ in range(5):
            unlimited.step(np.zeros(4, dtype=np.int64))
        assert peak.value > 1  # the check above can fail: without the limit envs overlap
    finally:
        unlimited.close()


@pytest.mark.parametrize(
    ("value", "match"),
    [
        (0, message_pattern(MAX_CONCURRENCY_VALUE_MSG, 0)),
        (1.5, message_pattern(MAX_CONCURRENCY_TYPE_MSG, float)),
        (True, message_pattern(MAX_CONCURRENCY_TYPE_MSG, bool)),
    ],
)
def test_max_concurrency_must_be_a_positive_integer(value: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        AsyncVectorEnv([CountingEnv], context="fork", max_concurrency=value)
