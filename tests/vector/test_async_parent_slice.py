"""AsyncVectorEnv(parent_envs=m): the parent steps the last ``m`` envs itself.

The results must be exactly those of SyncVectorEnv over the same env functions in every space
type, autoreset mode and collection style; failures in the parent's envs are reported as a
worker's; the workers' failures and restarts leave the parent's envs alone; close() closes them.
"""

from __future__ import annotations

import os
import signal
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.crashing_envs import DyingEnv, RaisingEnv
from tests.support.messages import message_pattern
from tests.vector.helpers import assert_same_batch
from tests.vector.test_async_differential import ACTION_SPACES, SPACES, SpaceEnv
from vecgym import error
from vecgym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from vecgym.vector._async.local import ParentProcess
from vecgym.vector._async.options import PARENT_ENVS_MSG

NUM_ENVS = 5
Z4 = np.zeros(4, dtype=np.int64)


def _fns(obs_key: str, act_key: str = "discrete") -> list[Any]:
    obs_space, act_space = SPACES[obs_key], ACTION_SPACES[act_key]
    return [(lambda i=i: SpaceEnv(obs_space, act_space, 1 + i % 3)) for i in range(NUM_ENVS)]


def _compare(ours: AsyncVectorEnv, sync: SyncVectorEnv, steps: int = 9) -> None:
    assert_same_batch(ours.reset(seed=3), sync.reset(seed=3))
    ours.action_space.seed(5)
    for t in range(steps):
        if t == 4:
            options = {"reset_mask": np.arange(NUM_ENVS) % 2 == 1, "flag": True}
            ours_reset = ours.reset(seed=40, options=options)
            assert_same_batch(ours_reset, sync.reset(seed=40, options=options))
        actions = ours.action_space.sample()
        result = ours.step(actions)
        assert_same_batch(result, sync.step(actions), f"step {t}")
        ended = result[2] | result[3]
        if ours.autoreset_mode is AutoresetMode.DISABLED and ended.any():
            options = {"reset_mask": ended}
            assert_same_batch(ours.reset(options=options), sync.reset(options=options))


@pytest.mark.parametrize("parent_envs", [1, 2, 4])
@pytest.mark.parametrize("obs_key", ["box", "nested", "text", "graph"])
def test_same_results_as_sync(obs_key: str, parent_envs: int) -> None:
    shm = obs_key in ("box", "nested")
    ours = AsyncVectorEnv(
        _fns(obs_key, "dict"),
        num_workers=2 if parent_envs < 4 else 1,
        parent_envs=parent_envs,
        shared_memory=shm,
    )
    sync = SyncVectorEnv(_fns(obs_key, "dict"))
    try:
        assert ours.num_workers == (2 if parent_envs < 4 else 1)
        assert isinstance(ours.processes[-1], ParentProcess)
        assert ours.processes[-1].pid == os.getpid()
        assert [h["env_indices"] for h in ours.worker_health()][-1] == tuple(
            range(NUM_ENVS - parent_envs, NUM_ENVS)
        )
        _compare(ours, sync)
    finally:
        ours.close()
        sync.close()


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_every_autoreset_mode(mode: AutoresetMode) -> None:
    ours = AsyncVectorEnv(_fns("nested"), num_workers=1, parent_envs=2, autoreset_mode=mode)
    sync = SyncVectorEnv(_fns("nested"), autoreset_mode=mode)
    try:
        _compare(ours, sync, steps=12)
    finally:
        ours.close()
        sync.close()


def test_numeric_infos_in_shared_memory_reach_the_parent_slice() -> None:
    """MuJoCo's numeric infos: learned from the workers' proposals, then written by the parent's
    envs into the same slots; the batches equal SyncVectorEnv's step for step."""
    pytest.importorskip("mujoco")
    fns = [lambda: vecgym.make("HalfCheetah-v5")] * 4
    ours = AsyncVectorEnv(fns, num_workers=1, parent_envs=2)
    sync = SyncVectorEnv(fns)
    try:
        assert_same_batch(ours.reset(seed=1), sync.reset(seed=1))
        ours.action_space.seed(0)
        for t in range(6):
            actions = ours.action_space.sample()
            result = ours.step(actions)
            assert_same_batch(result, sync.step(actions), f"step {t}")
            assert set(result[4]) >= {"x_position", "_x_position", "reward_ctrl"}
        assert ours._info_registry is not None
        assert ours._info_registry.generation >= 1
        assert ours._pool.info_sent[-1] == ours._info_registry.generation
    finally:
        ours.close()
        sync.close()


@pytest.mark.parametrize("batch_size", [2, 3, 5])
def test_send_recv_same_transitions_as_sync(batch_size: int) -> None:
    """EnvPool-style batches: every env's sequence of transitions equals its SyncVectorEnv one."""
    ours = AsyncVectorEnv(_fns("box"), num_workers=2, parent_envs=2, batch_size=batch_size)
    sync = SyncVectorEnv(_fns("box"))
    try:
        obs, _ = ours.reset(seed=9)
        expected_obs, _ = sync.reset(seed=9)
        np.testing.assert_array_equal(obs, expected_obs)
        seen: dict[int, list[Any]] = {i: [] for i in range(NUM_ENVS)}
        ours.send(np.ones(NUM_ENVS, dtype=np.int64))
        for _ in range(8):
            obs, rewards, terminated, truncated, _, ids = ours.recv(timeout=30)
            assert 1 <= len(ids) <= batch_size
            for j, i in enumerate(ids.tolist()):
                seen[i].append((obs[j].copy(), rewards[j], terminated[j], truncated[j]))
            ours.send(np.ones(len(ids), dtype=np.int64), ids)
        while ours._scheduler.in_flight():
            ours.recv(timeout=30)
        steps = min(len(v) for v in seen.values())
        for t in range(steps):
            s_obs, s_rew, s_term, s_trunc, _ = sync.step(np.ones(NUM_ENVS, dtype=np.int64))
            for i in range(NUM_ENVS):
                o, r, te, tr = seen[i][t]
                np.testing.assert_array_equal(o, s_obs[i])
                assert (r, te, tr) == (s_rew[i], s_term[i], s_trunc[i])
    finally:
        ours.close()
        sync.close()


def test_calls_and_attributes_reach_the_parent_envs() -> None:
    envs = AsyncVectorEnv([RaisingEnv] * 4, num_workers=1, parent_envs=2)
    try:
        envs.reset(seed=0)
        envs.set_attr("fail_at", [None, None, 50, 60])
        assert envs.get_attr("fail_at") == (None, None, 50, 60)
        assert envs.call("explode", indices=[]) == ()
        envs.set_attr("count", 7, indices=[3])
        obs, *_ = envs.step(Z4)
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 8])
    finally:
        envs.close()


def test_an_exception_in_the_parent_slice_is_reported_as_a_workers() -> None:
    envs = AsyncVectorEnv([RaisingEnv] * 4, num_workers=1, parent_envs=2)
    try:
        envs.reset(seed=0)
        envs.set_attr("fail_at", 2, indices=[3])
        envs.step(Z4)
        with pytest.raises(ValueError, match="boom at step 2") as caught:
            envs.step(Z4)
        assert "sub-environment 3" in str(caught.value)
        assert caught.value.__cause__ is not None
        with pytest.raises(ValueError, match="boom in explode"):
            envs.call("explode", indices=[2])
        envs.set_attr("fail_at", None, indices=[3])
        obs, _ = envs.reset(seed=1)
        np.testing.assert_array_equal(obs[:, 0], [0, 0, 0, 0])
        obs, *_ = envs.step(Z4)
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
    finally:
        envs.close()


class _Interrupting(RaisingEnv):
    """Raises KeyboardInterrupt (a Ctrl-C in the parent) at step ``interrupt_at``."""

    interrupt_at: int | None = None

    def step(self, action: Any) -> Any:
        if self.interrupt_at is not None and self.count + 1 >= self.interrupt_at:
            self.interrupt_at = None
            raise KeyboardInterrupt
        return super().step(action)


def test_a_ctrl_c_in_the_parent_slice_leaves_the_env_usable() -> None:
    envs = AsyncVectorEnv([_Interrupting] * 4, num_workers=1, parent_envs=2)
    try:
        envs.reset(seed=0)
        envs.set_attr("interrupt_at", 1, indices=[2])
        with pytest.raises(KeyboardInterrupt):
            envs.step(Z4)
        obs, _ = envs.reset(seed=1)  # the worker's late step is drained; nothing hangs
        obs, *_ = envs.step(Z4)
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
    finally:
        envs.close()


_CLOSED: list[int] = []


class _Recording(RaisingEnv):
    def close(self) -> None:
        _CLOSED.append(os.getpid())
        super().close()


@pytest.mark.parametrize("terminate", [False, True])
def test_close_closes_the_parent_envs(terminate: bool) -> None:
    _CLOSED.clear()
    envs = AsyncVectorEnv([_Recording] * 3, num_workers=1, parent_envs=2)
    envs.reset(seed=0)
    envs.close(terminate=terminate)
    # the worker's env closed in its own process, the parent's two here
    assert [os.getpid(), os.getpid()] == _CLOSED
    assert not envs.processes[-1].is_alive()


def test_a_worker_restart_leaves_the_parent_slice_alone() -> None:
    envs = AsyncVectorEnv([DyingEnv] * 4, num_workers=1, parent_envs=2, on_worker_failure="restart")
    envs.restart_entropy = 0
    try:
        envs.reset(seed=10)
        envs.step(Z4)
        os.kill(envs.processes[0].pid, signal.SIGKILL)
        envs.processes[0].join(30)
        obs, _, _, truncated, infos = envs.step(Z4)
        np.testing.assert_array_equal(obs[:, 0], [0, 0, 2, 2])
        np.testing.assert_array_equal(truncated, [True, True, False, False])
        np.testing.assert_array_equal(infos["worker_restarted"], [True, True, False, False])
        assert envs.get_attr("np_random_seed")[2:] == (12, 13)
        assert [h["restarts"] for h in envs.worker_health()] == [1, 0]
    finally:
        envs.close()


def test_make_vec_and_the_default_worker_count() -> None:
    envs = vecgym.make_vec(
        "CartPole-v1",
        num_envs=4,
        vectorization_mode="async",
        vector_kwargs={"parent_envs": 2, "num_workers": None},
    )
    sync = vecgym.make_vec("CartPole-v1", num_envs=4, vectorization_mode="sync")
    try:
        assert isinstance(envs, AsyncVectorEnv)
        assert envs.parent_envs == 2
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        assert envs.num_workers == min(max(1, cores - 1), 2)
        assert_same_batch(envs.reset(seed=0), sync.reset(seed=0))
        for _ in range(30):
            a = np.array([0, 1, 1, 0])
            assert_same_batch(envs.step(a), sync.step(a))
    finally:
        envs.close()
        sync.close()


@pytest.mark.parametrize("bad", [-1, 4, 5, True, 1.0, "2"])
def test_bad_parent_envs_are_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match=message_pattern(PARENT_ENVS_MSG, 3, bad)):
        AsyncVectorEnv([RaisingEnv] * 4, parent_envs=bad)


def test_a_failing_constructor_in_the_parent_slice() -> None:
    def broken() -> Any:
        raise RuntimeError("cannot build")

    with pytest.raises(RuntimeError, match="cannot build"):
        AsyncVectorEnv([RaisingEnv, RaisingEnv, broken], num_workers=1, parent_envs=1)


def test_mismatched_spaces_in_the_parent_slice() -> None:
    with pytest.raises(RuntimeError, match="sub-environment 2"):
        AsyncVectorEnv(
            [RaisingEnv, RaisingEnv, lambda: vecgym.make("CartPole-v1")],
            num_workers=1,
            parent_envs=1,
        )


def test_error_reports_name_the_env() -> None:
    envs = AsyncVectorEnv([RaisingEnv] * 3, num_workers=1, parent_envs=1)
    try:
        envs.reset(seed=0)
        envs.set_attr("fail_at", 1, indices=[2])
        with pytest.raises(ValueError, match="boom at step 1") as caught:
            envs.step(np.zeros(3, dtype=np.int64))
        assert "sub-environment 2" in str(caught.value)
        assert not isinstance(caught.value, error.WorkerDied)
        assert [h["alive"] for h in envs.worker_health()] == [True, True]
    finally:
        envs.close()


def test_different_observation_spaces_and_max_concurrency() -> None:
    """``observation_mode="different"`` reads every env's space, the parent's included; the
    ``max_concurrency`` semaphore is taken by the parent's envs too."""
    from vecgym.spaces import Box

    def make(high: float) -> Any:
        return lambda: SpaceEnv(Box(0, high, (2,), np.float32), ACTION_SPACES["discrete"], 3)

    fns = [make(1.0), make(2.0), make(3.0)]
    ours = AsyncVectorEnv(
        fns, num_workers=1, parent_envs=1, observation_mode="different", max_concurrency=1
    )
    sync = SyncVectorEnv(fns, observation_mode="different")
    try:
        assert ours.observation_space == sync.observation_space
        assert ours.observation_space.high[2].tolist() == [3.0, 3.0]
        assert_same_batch(ours.reset(seed=0), sync.reset(seed=0))
        for _ in range(5):
            actions = np.array([0, 1, 2])
            assert_same_batch(ours.step(actions), sync.step(actions))
    finally:
        ours.close()
        sync.close()
