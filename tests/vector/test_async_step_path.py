"""``AsyncVectorEnv.step`` from the idle state goes straight through; from any other state it
is ``step_async`` then ``step_wait`` with everything they check and clear.

The direct path skips the wait for late workers and the reset of the step mask: these tests put
the env in each state where those matter (a timed-out step, a ``send`` of some envs) and check
that ``step`` still steps every env with fresh results, that a subclass's own calls are used, and
that the direct path is the one taken between plain steps.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.slow_env import SlowEnv
from tests.vector.helpers import assert_same_batch
from tests.vector.test_async_differential import SpaceEnv
from vecgym import error
from vecgym.spaces import Box, Text
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv
from vecgym.vector._async.protocol import Command

NUM_ENVS = 4


def _cartpoles() -> list[Any]:
    return [lambda: vecgym.make("CartPole-v1")] * NUM_ENVS


def _counting(obj: Any, name: str) -> list[int]:
    """Count the calls of ``obj.name`` (replaced on the instance by a counting wrapper)."""
    calls = [0]
    method = getattr(obj, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return method(*args, **kwargs)

    setattr(obj, name, counted)
    return calls


@pytest.mark.parametrize("parent_envs", [0, 2])
def test_plain_steps_take_the_direct_path_with_the_same_results(parent_envs: int) -> None:
    envs = AsyncVectorEnv(_cartpoles(), num_workers=2 - bool(parent_envs), parent_envs=parent_envs)
    split = AsyncVectorEnv(_cartpoles(), num_workers=1)
    sync = SyncVectorEnv(_cartpoles())
    try:
        results = [env.reset(seed=7) for env in (envs, split, sync)]
        assert_same_batch(results[0], results[2])
        assert_same_batch(results[1], results[2])
        drained = _counting(envs._supervisor, "drain_late")
        unmasked = _counting(envs._scheduler, "unmask_all")
        ended = 0
        rng = np.random.default_rng(0)
        for t in range(60):  # episodes end on the way: autoresets included
            actions = rng.integers(0, 2, NUM_ENVS)
            expected = sync.step(actions)
            assert_same_batch(envs.step(actions), expected, f"step {t}")
            ended += int((expected[2] | expected[3]).sum())
            split.step_async(actions)
            assert_same_batch(split.step_wait(), expected, f"step_async / step_wait {t}")
        assert ended > 0
        assert drained == [0]
        assert unmasked == [0]
        envs.step_async(np.zeros(NUM_ENVS, dtype=np.int64))
        envs.step_wait()
        assert drained == [1]
        assert unmasked == [1]
    finally:
        for env in (envs, split, sync):
            env.close()


def test_a_step_after_a_timed_out_step_waits_for_the_late_worker() -> None:
    fns = [SlowEnv, SlowEnv, lambda: SlowEnv(step_delay=0.3, slow_after=1), SlowEnv]
    envs = AsyncVectorEnv(fns, num_workers=2)
    try:
        envs.reset(seed=0)
        envs.step(np.ones(NUM_ENVS, dtype=np.int64))
        envs.step_async(np.ones(NUM_ENVS, dtype=np.int64))
        with pytest.raises(error.WaitTimeout, match=r"worker\(s\) \[1\]"):
            envs.step_wait(timeout=0.05)
        drained = _counting(envs._supervisor, "drain_late")
        obs, rewards, terminated, truncated, _ = envs.step(np.zeros(NUM_ENVS, dtype=np.int64))
        assert drained == [1]
        np.testing.assert_array_equal(obs[:, 0], [3, 3, 3, 3])  # this step's, not the late one's
        np.testing.assert_array_equal(rewards, np.zeros(NUM_ENVS))
        assert not terminated.any()
        assert not truncated.any()
    finally:
        envs.close()


def test_a_step_after_send_of_some_envs_steps_every_env() -> None:
    envs = AsyncVectorEnv(_cartpoles(), num_workers=2, batch_size=2)
    singles = [vecgym.make("CartPole-v1") for _ in range(NUM_ENVS)]
    try:
        obs, _ = envs.reset(seed=3)
        for i, env in enumerate(singles):
            np.testing.assert_array_equal(env.reset(seed=3 + i)[0], obs[i])
        envs.send(np.array([1]), env_ids=[2])  # one of worker 1's two envs: a partial step mask
        with pytest.raises(error.AlreadyPendingCallError):
            envs.step(np.zeros(NUM_ENVS, dtype=np.int64))
        sent_obs, *_, ids = envs.recv()
        np.testing.assert_array_equal(ids, [2])
        np.testing.assert_array_equal(singles[2].step(1)[0], sent_obs[0])
        actions = np.array([0, 1, 1, 0])
        obs, rewards, *_ = envs.step(actions)
        for i, env in enumerate(singles):  # all four stepped, env 2 a second time
            np.testing.assert_array_equal(env.step(int(actions[i]))[0], obs[i], f"env {i}")
        np.testing.assert_array_equal(rewards, np.ones(NUM_ENVS))
    finally:
        envs.close()
        for env in singles:
            env.close()


def test_step_calls_a_subclass_s_own_step_async_and_step_wait() -> None:
    calls: list[str] = []

    class Logged(AsyncVectorEnv):
        def step_async(self, actions: Any) -> None:
            calls.append("step_async")
            super().step_async(actions)

        def step_wait(self, timeout: float | None = None) -> Any:
            calls.append("step_wait")
            return super().step_wait(timeout)

    envs = Logged(_cartpoles(), num_workers=2)
    try:
        envs.reset(seed=0)
        envs.step(np.zeros(NUM_ENVS, dtype=np.int64))
        assert calls == ["step_async", "step_wait"]
    finally:
        envs.close()


def test_step_refuses_what_step_async_refuses() -> None:
    envs = AsyncVectorEnv(_cartpoles(), num_workers=2)
    actions = np.zeros(NUM_ENVS, dtype=np.int64)
    try:
        with pytest.raises(error.ResetNeeded):
            envs.step(actions)
        envs.reset(seed=0)
        envs.reset_async(seed=1)
        with pytest.raises(error.AlreadyPendingCallError):
            envs.step(actions)
        envs.reset_wait()
        with pytest.raises(error.InvalidAction, match=r"\[1\]"):
            envs.step(np.array([0, 2, 0, 0]))
        envs.step(actions)  # nothing was stepped by the refused calls: the env is still usable
    finally:
        envs.close()
    with pytest.raises(error.ClosedEnvironmentError):
        envs.step(actions)


@pytest.mark.parametrize("parent_envs", [0, 2])
def test_each_worker_is_sent_its_own_envs_actions_only(parent_envs: int) -> None:
    # Text actions travel pickled: each worker's request holds its envs' actions, not the batch
    fns = [(lambda: SpaceEnv(Box(-1, 1, (2,), np.float32), Text(4), 3))] * NUM_ENVS
    envs = AsyncVectorEnv(fns, num_workers=2 - bool(parent_envs), parent_envs=parent_envs)
    sync = SyncVectorEnv(fns)
    posted: list[tuple[int, list[int] | None]] = []
    post = envs._pool.post

    def recording(k: int, command: Any, payload: Any) -> None:
        if command is Command.STEP:
            posted.append((k, None if payload is None else sorted(payload)))
        post(k, command, payload)

    envs._pool.post = recording  # type: ignore[method-assign]
    try:
        assert_same_batch(envs.reset(seed=1), sync.reset(seed=1))
        envs.action_space.seed(2)
        for t in range(4):
            posted.clear()
            actions = envs.action_space.sample()
            assert_same_batch(envs.step(actions), sync.step(actions), f"step {t}")
            assert posted == [(0, [0, 1]), (1, [2, 3])]
        posted.clear()
        envs.send(("ab", "c"), env_ids=[1, 2])
        assert posted == [(0, [1]), (1, [2])]
        assert sorted(envs.recv()[-1].tolist()) == [1, 2]
    finally:
        envs.close()
        sync.close()
