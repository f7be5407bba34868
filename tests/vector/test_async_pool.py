"""EnvPool-style asynchronous batches: send(actions, env_ids) / recv()."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.counting_env import CountingEnv
from tests.support.slow_env import SlowEnv
from vecgym import error
from vecgym.vector import AsyncVectorEnv


def test_send_recv_returns_first_batch_with_ids() -> None:
    fns = [(lambda i=i: SlowEnv(step_delay=0.3 if i >= 2 else 0.0)) for i in range(4)]
    envs = AsyncVectorEnv(fns, num_workers=2, batch_size=2)
    try:
        envs.reset(seed=0)
        envs.send(np.array([1, 0, 1, 1]), np.arange(4))
        obs, rewards, terminated, truncated, infos, ids = envs.recv(timeout=30)
        np.testing.assert_array_equal(ids, [0, 1])  # the fast worker finished first
        np.testing.assert_array_equal(obs[:, 0], [1, 1])
        np.testing.assert_array_equal(rewards, [1.0, 0.0])
        assert infos == {}
        assert terminated.shape == truncated.shape == (2,)
        envs.send(np.array([0, 0]))  # default env_ids: the last batch
        with pytest.raises(ValueError, match="not in flight"):
            envs.send(np.array([0]), [2])
        seen = []
        for _ in range(2):
            obs, _, _, _, _, ids = envs.recv(timeout=30)
            seen.append((ids.tolist(), obs[:, 0].tolist()))
        assert sorted(seen) == [([0, 1], [2.0, 2.0]), ([2, 3], [1.0, 1.0])]
        with pytest.raises(error.NoAsyncCallError):
            envs.recv(timeout=1)
    finally:
        envs.close()


def test_send_subset_of_a_worker_and_queueing() -> None:
    envs = AsyncVectorEnv(
        [lambda: CountingEnv(terminate_at=None, info_every=1)] * 4,
        num_workers=2,
        batch_size=1,
        copy=False,
    )
    try:
        envs.reset(seed=0)
        envs.send(np.array([2]), [1])
        envs.send(np.array([1]), [0])  # worker 0 may still be busy: queued
        got = {}
        for _ in range(2):
            obs, rewards, _, _, infos, ids = envs.recv(timeout=30)
            assert infos["count"].tolist() == [1]
            assert infos["_count"].tolist() == [True]
            got[int(ids[0])] = (float(obs[0, 0]), float(rewards[0]))
        assert got == {0: (1.0, 1.0), 1: (1.0, 2.0)}
        assert envs.get_attr("count") == (1, 1, 0, 0)
        obs, *_ = envs.step(np.zeros(4, dtype=np.int64))  # the pool is drained: step works
        np.testing.assert_array_equal(obs[:, 0], [2, 2, 1, 1])
    finally:
        envs.close()


def test_step_while_pool_in_flight_is_an_error() -> None:
    envs = AsyncVectorEnv([lambda: CountingEnv()] * 2, num_workers=2)
    try:
        envs.reset(seed=0)
        envs.send(np.array([0, 0]), [0, 1])
        with pytest.raises(error.AlreadyPendingCallError):
            envs.step(np.array([0, 0]))
        envs.recv(timeout=30)
    finally:
        envs.close()


def _done_tokens(envs: AsyncVectorEnv) -> int:
    """The tokens waiting on the done semaphore (platforms without ``sem_getvalue`` skip)."""
    try:
        return int(envs._pool.done.get_value())
    except NotImplementedError:  # pragma: no cover - macOS
        pytest.skip("sem_getvalue is not available here")


def test_done_tokens_do_not_pile_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers release the done semaphore after every command; waits that find them done
    without blocking leave those tokens, and the parent claims them every CLAIM_EVERY waits,
    so the count stays bounded (unbounded, a worker's release fails after 2**31)."""
    from vecgym.vector._async import pool

    monkeypatch.setattr(pool, "CLAIM_EVERY", 16)
    envs = AsyncVectorEnv([lambda: CountingEnv(terminate_at=None)] * 4, num_workers=2)
    try:
        envs.reset(seed=0)
        for _ in range(400):  # fast steps: the parent spins and finds the workers done
            envs.step(np.zeros(4, dtype=np.int64))
        assert _done_tokens(envs) <= 2 * (16 + 1)  # two tokens a wait, claimed every 16 waits
    finally:
        envs.close()


def test_a_blocking_wait_ignores_stale_done_tokens() -> None:
    """A wait that blocks first claims the tokens left by earlier commands: blocking on them
    would return at once, again and again, a busy loop beside the workers."""
    envs = AsyncVectorEnv([lambda: SlowEnv(step_delay=0.05)] * 2, num_workers=2)
    try:
        envs.reset(seed=0)
        for _ in range(100_000):
            envs._pool.done.release()
        envs.step(np.zeros(2, dtype=np.int64))  # 50 ms: the parent blocks
        assert _done_tokens(envs) <= 2
    finally:
        envs.close()
