"""Fault injection for AsyncVectorEnv, for every start method, with and without shared memory.

Cases are grouped per vector env (spawn / forkserver cost an interpreter start per worker):
exceptions and bad input at the boundary, dead workers (``os._exit``, a real segfault, SIGSEGV,
SIGKILL from inside as an OOM kill, SIGKILL from outside), timeouts, worker restart. Parent death
and Ctrl-C run in a child Python process. The autouse fixture in ``tests/conftest.py`` checks
after every test that no process, shared-memory segment or semaphore was left behind.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import psutil
import pytest

from tests.support.crashing_envs import DyingEnv, RaisingEnv
from tests.support.messages import message_pattern
from tests.support.probe_env import ProbeEnv
from tests.support.slow_env import SlowEnv
from vecgym import error
from vecgym.spaces import Space
from vecgym.vector import AsyncVectorEnv
from vecgym.vector._async import supervisor
from vecgym.vector._async.exits import failed_in_start_up
from vecgym.vector._async.worker import ACTION_SPACE_MISMATCH_MSG
from vecgym.vector.async_vector_env import (
    CLOSE_PENDING_MSG,
    CLOSED_MSG,
    RemoteTraceback,
    restart_seed,
)
from vecgym.vector.sync_vector_env import (
    RESET_MASK_DTYPE_MSG,
    RESET_MASK_SHAPE_MSG,
    SEED_LENGTH_MSG,
)
from vecgym.vector.vector_env import AutoresetMode

METHODS = [
    m for m in ("fork", "forkserver", "spawn") if m in multiprocessing.get_all_start_methods()
]
CASES = [
    pytest.param(method, shm, id=f"{method}-{'shm' if shm else 'pipe'}")
    for method in METHODS
    for shm in (True, False)
]
WAIT_S = 30.0
"""Upper bound for any wait that must end: a WorkerDied must come before it (no hang)."""
GONE_S = 10.0
"""How long orphaned workers may take to notice that their parent died."""
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
Z4 = np.zeros(4, dtype=np.int64)


def _vec(fns: list[Any], context: str, shm: bool = True, **kwargs: Any) -> AsyncVectorEnv:
    return AsyncVectorEnv(fns, num_workers=2, context=context, shared_memory=shm, **kwargs)


# --- 1. exceptions and bad input ------------------------------------------------------------------
@pytest.mark.parametrize(("context", "shm"), CASES)
def test_boundary_checks_and_remote_exceptions(context: str, shm: bool) -> None:
    envs = _vec([RaisingEnv] * 4, context, shm)
    try:
        # step before reset: rejected before anything is stepped
        with pytest.raises(error.ResetNeeded, match=r"sub-environment\(s\) \[0, 1, 2, 3\]"):
            envs.step(Z4)
        with pytest.raises(error.ResetNeeded, match="reset"):
            envs.send(np.zeros(2, dtype=np.int64), env_ids=[0, 1])
        # reset arguments of the wrong length / type
        with pytest.raises(ValueError, match=message_pattern(SEED_LENGTH_MSG, 4, 2)):
            envs.reset(seed=[1, 2])
        with pytest.raises(TypeError, match="seed"):
            envs.reset(seed="1")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=message_pattern(RESET_MASK_SHAPE_MSG, 4, (3,))):
            envs.reset(options={"reset_mask": np.ones(3, dtype=np.bool_)})
        bad_dtype = message_pattern(RESET_MASK_DTYPE_MSG, np.dtype(np.int64))
        with pytest.raises(TypeError, match=bad_dtype):
            envs.reset(options={"reset_mask": np.ones(4, dtype=np.int64)})
        envs.reset(seed=0)
        # actions: shape, dtype, range
        with pytest.raises(ValueError, match=r"shape \(4,\)"):
            envs.step(np.zeros(3, dtype=np.int64))
        with pytest.raises(TypeError, match="castable"):
            envs.step(np.zeros(4, dtype=np.float64))
        with pytest.raises(error.InvalidAction, match=r"sub-environment\(s\) \[1, 3\].*Discrete"):
            envs.step(np.array([0, 2, 1, -1]))
        assert envs.get_attr("count") == (0, 0, 0, 0)  # nothing was stepped
        # an exception in step: original type, worker and env named, remote traceback as cause
        envs.set_attr("fail_at", 2, indices=[3])
        envs.step(Z4)
        with pytest.raises(ValueError, match=r"boom at step 2.*worker 1, sub-environment 3") as exc:
            envs.step(Z4)
        assert isinstance(exc.value.__cause__, RemoteTraceback)
        assert "boom at step 2" in str(exc.value.__cause__)
        envs.set_attr("fail_at", None)
        obs, _ = envs.reset(seed=0)  # documented state: reset() recovers
        np.testing.assert_array_equal(obs[:, 0], [0, 0, 0, 0])
        obs, *_ = envs.step(Z4)
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
        # an exception in call: unpicklable -> WorkerError with the type name and traceback
        envs.set_attr("unpicklable", True, indices=[2])
        with pytest.raises(error.WorkerError, match=r"UnpicklableError.*boom in explode") as werr:
            envs.call("explode", indices=[2])
        assert (werr.value.worker, werr.value.env_index) == (1, 2)
        assert isinstance(werr.value.__cause__, RemoteTraceback)
        with pytest.raises(ValueError, match=r"boom in explode.*sub-environment 0"):
            envs.call("explode", indices=[0])
        # what cannot be pickled: the command fails with the type pickling raised, the env or
        # the argument named, and the workers live on (they used to die, or wait forever for a
        # request that never came)
        with pytest.raises(TypeError, match=r"pickle.*sub-environment 3 returned it") as unsent:
            envs.call("lock", indices=[3])
        assert isinstance(unsent.value.__cause__, RemoteTraceback)
        with pytest.raises(TypeError, match=r"pickle.*`call` sends its arguments.*not sent"):
            envs.call("explode", threading.Lock())
        with pytest.raises(TypeError, match=r"pickle.*`set_attr` sends its arguments"):
            envs.set_attr("fail_at", threading.Lock(), indices=[1, 2])
        with pytest.raises(TypeError, match=r"pickle.*`reset` sends its arguments"):
            envs.reset(options={"hook": threading.Lock()})
        envs.set_attr("lock_in_info", True, indices=[2])
        with pytest.raises(TypeError, match=r"pickle.*sub-environment 2 returned it"):
            envs.step(Z4)
        envs.set_attr("lock_in_info", False)
        assert envs.get_attr("fail_at") == (None, None, None, None)
        # an exception in reset
        envs.set_attr("fail_on_reset", True, indices=[1])
        with pytest.raises(ValueError, match=r"boom in reset.*worker 0, sub-environment 1"):
            envs.reset(seed=1)
        envs.set_attr("fail_on_reset", False)
        obs, _ = envs.reset(seed=1)
        np.testing.assert_array_equal(obs[:, 0], [0, 0, 0, 0])
        assert envs.step(Z4)[1].tolist() == [1.0] * 4
    finally:
        envs.close()
    envs.close()  # idempotent
    assert envs.closed
    with pytest.raises(
        error.ClosedEnvironmentError, match=message_pattern(CLOSED_MSG, "AsyncVectorEnv")
    ):
        envs.step(Z4)
    with pytest.raises(error.ClosedEnvironmentError):
        envs.reset()


# --- 2. dead workers ------------------------------------------------------------------------------
DEATH_CASES = [
    pytest.param(method, shm, how, id=f"{method}-{'shm' if shm else 'pipe'}-{how}")
    for method in METHODS
    for how in ("exit", "segfault", "sigsegv", "sigkill", "external")
    for shm in ((True, False) if method == "fork" or how == "exit" else (True,))
]
DEATH_MESSAGES = {
    "exit": r"exit code 3; likely causes: the environment ended the process",
    "segfault": r"killed by signal SIGSEGV \(11\); likely causes: a crash in native code",
    "sigsegv": r"killed by signal SIGSEGV \(11\)",
    "sigkill": r"killed by signal SIGKILL \(9\); likely causes: .*out-of-memory killer",
    "external": r"killed by signal SIGKILL \(9\)",
}


@pytest.mark.parametrize(("context", "shm", "how"), DEATH_CASES)
def test_dead_worker_raises_worker_died(context: str, shm: bool, how: str) -> None:
    envs = _vec([DyingEnv] * 4, context, shm)
    processes = list(envs.processes)
    try:
        envs.reset(seed=0)
        envs.step(Z4)
        if how == "external":
            os.kill(envs.processes[1].pid, signal.SIGKILL)
        else:
            envs.set_attr("how", how, indices=[3])
            envs.set_attr("die_at", 2, indices=[3])
        envs.step_async(Z4)
        with pytest.raises(error.WorkerDied, match=r"worker 1 .*sub-environments \[2, 3\]") as info:
            envs.step_wait(timeout=WAIT_S)  # never a WaitTimeout, EOFError or BrokenPipeError
        assert info.match(DEATH_MESSAGES[how])
        assert info.value.worker == 1
        assert info.value.env_indices == (2, 3)
        assert info.value.exitcode == {"exit": 3, "sigkill": -9, "external": -9}.get(how, -11)
        assert not isinstance(info.value, (EOFError, BrokenPipeError))
        with pytest.raises(error.WorkerDied, match="unusable"):
            envs.step(Z4)
        with pytest.raises(error.WorkerDied, match="unusable"):
            envs.reset()
    finally:
        envs.close()  # prompt, never raises after a failure
    envs.close()
    assert all(p.exitcode is not None for p in processes)


@pytest.mark.parametrize("context", METHODS)
def test_worker_death_during_reset_and_call(context: str) -> None:
    envs = _vec([DyingEnv] * 2, context)
    try:
        envs.set_attr("die_on_reset", True, indices=[0])
        with pytest.raises(error.WorkerDied, match=r"worker 0 .*exit code 3"):
            envs.reset(seed=0)
    finally:
        envs.close()
    envs = _vec([DyingEnv] * 2, context)
    try:
        envs.set_attr("how", "sigkill", indices=[1])
        with pytest.raises(error.WorkerDied, match=r"worker 1 .*SIGKILL \(9\)"):
            envs.call("die_now", indices=[1])
    finally:
        envs.close()


# --- 3. timeouts ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("context", "shm"), CASES)
def test_timeouts_discard_late_replies(context: str, shm: bool) -> None:
    envs = _vec([lambda: SlowEnv(slow_after=1) for _ in range(2)], context, shm)
    a = np.array([1, 1])
    try:
        envs.reset(seed=0)
        envs.step(a)
        envs.set_attr("step_delay", 0.5, indices=[1])
        envs.step_async(a)
        with pytest.raises(error.WaitTimeout, match=r"step_wait.*worker\(s\) \[1\]"):
            envs.step_wait(timeout=0.05)
        envs.set_attr("step_delay", 0.0)  # waits for the late step, discards its reply
        obs, rewards, *_ = envs.step(np.array([0, 0]))
        np.testing.assert_array_equal(obs[:, 0], [3, 3])  # fresh, not the late step's results
        np.testing.assert_array_equal(rewards, [0.0, 0.0])
        # reset_wait
        envs.set_attr("reset_delay", 0.5, indices=[0])
        envs.reset_async(seed=1)
        with pytest.raises(error.WaitTimeout, match="reset_wait"):
            envs.reset_wait(timeout=0.05)
        envs.set_attr("reset_delay", 0.0)
        obs, _ = envs.reset(seed=2)
        np.testing.assert_array_equal(obs[:, 0], [0, 0])
        assert envs.np_random_seed == (2, 3)
        # call_wait
        envs.call_async("_wait", 0.5, indices=[1])
        with pytest.raises(error.WaitTimeout, match="call_wait"):
            envs.call_wait(timeout=0.05)
        assert envs.get_attr("count") == (0, 0)
        # step_timeout is the default timeout of step_wait
        envs.step_timeout = 0.05
        envs.set_attr("slow_after", 0)
        envs.set_attr("step_delay", 0.5, indices=[0])
        with pytest.raises(TimeoutError):
            envs.step(a)
        envs.step_timeout = None
        envs.set_attr("step_delay", 0.0)
        obs, *_ = envs.step(a)
        np.testing.assert_array_equal(obs[:, 0], [2, 2])
    finally:
        envs.close()


# --- 4. close -------------------------------------------------------------------------------------
@pytest.mark.parametrize("context", METHODS)
def test_close_after_hang_terminate_and_del(context: str) -> None:
    envs = _vec([lambda: SlowEnv(step_delay=60.0) for _ in range(2)], context)
    processes = list(envs.processes)
    envs.reset(seed=0)
    envs.step_async(np.array([0, 0]))
    with pytest.raises(error.WaitTimeout):
        envs.step_wait(timeout=0.05)
    envs.close(terminate=True)  # kills at once
    assert all(p.exitcode is not None for p in processes)
    envs.close()
    # a hung worker and a pending call: close(timeout) warns, then terminates
    envs = _vec([lambda: SlowEnv(step_delay=60.0) for _ in range(2)], context)
    processes = list(envs.processes)
    envs.reset(seed=0)
    envs.step_async(np.array([0, 0]))
    with pytest.warns(UserWarning, match=message_pattern(CLOSE_PENDING_MSG, "step")):
        envs.close(timeout=0.2)
    assert all(p.exitcode is not None for p in processes)
    # __del__ after a failure never raises and stops the workers
    envs = _vec([DyingEnv] * 2, context)
    processes = list(envs.processes)
    envs.reset(seed=0)
    os.kill(processes[0].pid, signal.SIGKILL)
    with pytest.raises(error.WorkerDied):
        envs.step(np.array([0, 0]))
    envs.__del__()
    del envs
    assert all(p.exitcode is not None for p in processes)


# --- 5. restart -----------------------------------------------------------------------------------
def _assert_restarted(infos: dict[str, Any], expected: list[bool]) -> None:
    np.testing.assert_array_equal(infos["worker_restarted"], expected)
    np.testing.assert_array_equal(infos["_worker_restarted"], expected)


@pytest.mark.parametrize(("context", "shm"), CASES)
def test_restart_replaces_crashed_and_hung_workers(context: str, shm: bool) -> None:
    envs = _vec([DyingEnv] * 4, context, shm, on_worker_failure="restart")
    envs.restart_entropy = 7
    try:
        envs.reset(seed=10)
        obs, *_ = envs.step(Z4)
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
        kinds = ["exit", "segfault", "sigkill", "external", "hang"]
        for n, how in enumerate(kinds, start=1):
            survivor = envs.processes[0].pid
            before = np.asarray(envs.get_attr("count"))
            if how == "external":
                os.kill(envs.processes[1].pid, signal.SIGKILL)
            else:
                envs.set_attr("how", how, indices=[3])
                envs.set_attr("die_at", 1, indices=[3])
            if how == "hang":
                envs.step_timeout = 0.5
            obs, rewards, terminated, truncated, infos = envs.step(Z4)
            envs.step_timeout = None
            assert envs.processes[0].pid == survivor  # the other worker kept running untouched
            np.testing.assert_array_equal(obs[:, 0], [before[0] + 1, before[1] + 1, 0, 0])
            np.testing.assert_array_equal(rewards, [1, 1, 0, 0])
            np.testing.assert_array_equal(truncated, [False, False, True, True])
            np.testing.assert_array_equal(terminated, [False] * 4)
            _assert_restarted(infos, [False, False, True, True])
            assert envs.restart_count == n
            seeds = envs.get_attr("np_random_seed")
            assert seeds[2:] == tuple(restart_seed(10 + i, i, n, 7) for i in (2, 3))
            assert seeds[:2] == (10, 11)
            # NEXT_STEP: the truncation is followed by an autoreset step of the restarted envs
            obs, rewards, _, truncated, infos = envs.step(Z4)
            np.testing.assert_array_equal(obs[:, 0], [before[0] + 2, before[1] + 2, 0, 0])
            np.testing.assert_array_equal(rewards, [1, 1, 0, 0])
            assert not truncated.any()
            assert "worker_restarted" not in infos
        health = envs.worker_health()
        assert [h["restarts"] for h in health] == [0, len(kinds)]
        assert all(h["alive"] and h["rss"] > 0 and h["pid"] for h in health)
        assert health[1]["env_indices"] == (2, 3)
        # a death during reset: the worker is replaced and the requested seeds are used
        envs.set_attr("die_on_reset", True, indices=[1])
        obs, infos = envs.reset(seed=20)
        np.testing.assert_array_equal(obs[:, 0], [0, 0, 0, 0])
        _assert_restarted(infos, [True, True, False, False])
        assert envs.np_random_seed == (20, 21, 22, 23)
        # a death during call: the worker is replaced, the call's result is lost
        envs.set_attr("how", "sigsegv", indices=[0])
        with pytest.raises(error.WorkerDied, match=r"restarted.*`call`"):
            envs.call("die_now", indices=[0])
        assert envs.get_attr("count") == (0, 0, 0, 0)
        assert envs.restart_count == len(kinds) + 2
        # a worker killed while idle, then a reset: its request cannot be delivered; replaced
        os.kill(envs.processes[1].pid, signal.SIGKILL)
        envs.processes[1].join(WAIT_S)
        obs, infos = envs.reset(seed=30)
        np.testing.assert_array_equal(obs[:, 0], [0, 0, 0, 0])
        _assert_restarted(infos, [False, False, True, True])
        assert envs.np_random_seed == (30, 31, 32, 33)
        envs.step(Z4)
    finally:
        envs.close()


def test_restart_of_a_late_worker() -> None:
    envs = _vec([lambda: SlowEnv() for _ in range(2)], "fork", on_worker_failure="restart")
    try:
        envs.reset(seed=0)
        envs.set_attr("reset_delay", 60.0, indices=[1])
        envs.reset_async(seed=1)
        with pytest.raises(error.WaitTimeout):  # reset timeouts raise, even in restart mode
            envs.reset_wait(timeout=0.05)
        os.kill(envs.processes[1].pid, signal.SIGKILL)  # dies while its late reset runs
        obs, rewards, _, truncated, infos = envs.step(np.array([1, 1]))
        # the replacement had an autoreset pending: this step reset it (reward 0)
        np.testing.assert_array_equal(obs[:, 0], [1, 0])
        np.testing.assert_array_equal(rewards, [1, 0])
        assert not truncated.any()
        _assert_restarted(infos, [False, True])
        assert envs.restart_count == 1
    finally:
        envs.close()


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.DISABLED])
def test_restart_and_autoreset_modes(mode: AutoresetMode) -> None:
    envs = _vec(
        [DyingEnv] * 2,
        "fork",
        on_worker_failure="restart",
        autoreset_mode=mode,
    )
    try:
        envs.reset(seed=0)
        envs.set_attr("die_at", 1, indices=[1])
        obs, _, _, truncated, infos = envs.step(np.array([0, 0]))
        np.testing.assert_array_equal(truncated, [False, True])
        _assert_restarted(infos, [False, True])
        assert "final_obs" not in infos  # the last observation died with the worker
        if mode is AutoresetMode.DISABLED:
            with pytest.raises(error.ResetNeeded, match="sub-environment 1"):
                envs.step(np.array([0, 0]))
            envs.reset(options={"reset_mask": np.array([False, True])})
        obs, *_ = envs.step(np.array([0, 0]))
        np.testing.assert_array_equal(obs[:, 0], [2, 1])  # SAME_STEP: reset already done
    finally:
        envs.close()


@pytest.mark.parametrize("how", ["exit", "hang"])
def test_restart_in_send_recv(how: str) -> None:
    """A worker that dies, or stays busy past step_timeout, during recv is replaced."""
    envs = _vec([DyingEnv] * 4, "fork", on_worker_failure="restart", step_timeout=0.3)
    try:
        envs.reset(seed=0)
        envs.set_attr("how", how, indices=[2])
        envs.set_attr("die_at", 1, indices=[2])
        envs.send(Z4, env_ids=[0, 1, 2, 3])
        seen: dict[int, tuple[float, bool, bool]] = {}
        while len(seen) < 4:
            obs, _, _, truncated, infos, ids = envs.recv(timeout=WAIT_S)
            for row, i in enumerate(ids.tolist()):
                restarted = bool(infos.get("worker_restarted", np.zeros(len(ids)))[row])
                seen[i] = (float(obs[row, 0]), bool(truncated[row]), restarted)
        assert seen == {
            0: (1.0, False, False),
            1: (1.0, False, False),
            2: (0.0, True, True),
            3: (0.0, True, True),
        }
        assert envs.restart_count == 1
        envs.send(Z4, env_ids=[0, 1, 2, 3])  # the replacement worker steps normally
        got = 0
        while got < 4:
            *_, ids = envs.recv(timeout=WAIT_S)
            got += len(ids)
        assert envs.restart_count == 1
    finally:
        envs.close()


def test_recv_timeout_in_restart_mode_still_raises_for_slow_but_alive_workers() -> None:
    envs = _vec(
        [lambda: SlowEnv(step_delay=0.5, slow_after=0)] * 2,
        "fork",
        on_worker_failure="restart",
        step_timeout=5.0,
    )
    try:
        envs.reset(seed=0)
        envs.send(np.zeros(2, dtype=np.int64))
        with pytest.raises(error.WaitTimeout, match="recv"):
            envs.recv(timeout=0.05)
        assert envs.restart_count == 0
        *_, ids = envs.recv(timeout=WAIT_S)  # nothing was lost: the late results still come
        assert sorted(ids.tolist()) in ([0], [1], [0, 1])
    finally:
        envs.close()


def test_restart_options_are_validated() -> None:
    with pytest.raises(ValueError, match="on_worker_failure"):
        AsyncVectorEnv([DyingEnv], on_worker_failure="ignore")
    with pytest.raises(ValueError, match="step_timeout"):
        AsyncVectorEnv([DyingEnv], step_timeout=0)
    with pytest.raises(ValueError, match="check_actions"):
        AsyncVectorEnv([DyingEnv], check_actions="yes")
    with pytest.raises(ValueError, match="worker_threads"):
        AsyncVectorEnv([DyingEnv], worker_threads=0)


# --- 6. construction-time faults ------------------------------------------------------------------
@pytest.mark.parametrize("context", [m for m in METHODS if m != "fork"])
def test_unpicklable_env_fn_named_before_start(context: str) -> None:
    lock = threading.Lock()

    def make() -> RaisingEnv:
        env = RaisingEnv()
        env.lock = lock  # type: ignore[attr-defined]
        return env

    with pytest.raises(TypeError, match=r"env_fns\[1\].*closure variable 'lock'.*lock"):
        AsyncVectorEnv([RaisingEnv, make], context=context)


def test_metadata_that_cannot_be_pickled_fails_the_start_with_its_cause() -> None:
    """The first env's spaces and metadata travel to the parent pickled; a lock among them used to
    kill the worker ("exit code 1", no cause named)."""

    def make() -> RaisingEnv:
        env = RaisingEnv()
        env.metadata = {"render_modes": [], "lock": threading.Lock()}
        return env

    with pytest.raises(TypeError, match=r"pickle.*metadata travel.*sub-environment 0"):
        AsyncVectorEnv([make, RaisingEnv], num_workers=2, context="fork")


@pytest.mark.parametrize("context", METHODS)
def test_envs_whose_spaces_differ(context: str) -> None:
    def other() -> SlowEnv:
        env = SlowEnv()
        env.action_space = __import__("vecgym").spaces.Discrete(3)
        return env

    with pytest.raises(RuntimeError, match=message_pattern(ACTION_SPACE_MISMATCH_MSG, index=1)):
        AsyncVectorEnv([lambda: SlowEnv(), other], num_workers=2, context=context)


NO_GUARD_SCRIPT = """
import vecgym
from vecgym.vector import AsyncVectorEnv

try:
    AsyncVectorEnv([lambda: vecgym.make("CartPole-v1")] * 2, num_workers=2, context={context!r})
except vecgym.error.WorkerDied as exc:
    print("WorkerDied:", exc)
"""


@pytest.mark.parametrize("context", [m for m in METHODS if m != "fork"])
def test_a_script_without_a_main_guard_is_named_as_the_likely_cause(
    context: str, tmp_path: Any
) -> None:
    """The most common start-up failure under spawn / forkserver: the worker runs the script
    again, which starts another vector env while the worker is still bootstrapping. The error
    used to blame the env for ending the process."""
    script = tmp_path / "no_guard.py"
    script.write_text(NO_GUARD_SCRIPT.format(context=context))
    shm_before = set(os.listdir("/dev/shm"))
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=REPO),
        check=False,
    )
    assert "WorkerDied:" in result.stdout, result.stderr[-2000:]
    assert "exit code 1" in result.stdout
    assert 'without `if __name__ == "__main__":`' in result.stdout
    # The script's workers, stopped while they started, leave named semaphores that the
    # script's resource tracker removes after the script has exited: wait for it (bounded).
    deadline = time.monotonic() + WAIT_S
    while set(os.listdir("/dev/shm")) - shm_before and time.monotonic() < deadline:
        time.sleep(0.1)


_TEST_PID = os.getpid()


def _exit_1_in_a_worker() -> Any:
    """An env function that ends a worker process with exit code 1 while it builds its envs
    (and builds a :class:`ProbeEnv` in the test's own process)."""
    if os.getpid() != _TEST_PID:
        os._exit(1)
    return ProbeEnv()


def test_exit_code_1_before_the_first_message_blames_the_start_up_only_without_fork() -> None:
    """A ``fork`` child runs no start-up of Python's own: exit code 1 there is the env's doing,
    and the error must not send the user looking for a missing main guard."""
    assert failed_in_start_up(1, "spawn")
    assert failed_in_start_up(1, "forkserver")
    assert not failed_in_start_up(1, "fork")
    for code in (0, 2, -9, None):
        assert not failed_in_start_up(code, "spawn")
    with pytest.raises(error.WorkerDied) as info:
        AsyncVectorEnv([_exit_1_in_a_worker] * 2, num_workers=2, context="fork")
    assert "exit code 1" in str(info.value)
    assert "__main__" not in str(info.value)


# --- 7. parent death and Ctrl-C (in a child Python process) ---------------------------------------
def _child(script: str, tmpdir: Path | None = None) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=REPO)
    if tmpdir is not None:  # where the child's temporary files go (e.g. a dying parent's)
        env["TMPDIR"] = str(tmpdir)
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=env,
    )


def _worker_pids(line: str) -> list[int]:
    assert line.startswith("pids"), line
    return [int(pid) for pid in line.split()[1:]]


PARENT_SCRIPT = """
import os, sys, time
import numpy as np
from tests.support.slow_env import SlowEnv
from vecgym.vector import AsyncVectorEnv, async_vector_env
if __name__ == "__main__":
    envs = AsyncVectorEnv([lambda: SlowEnv(step_delay={delay})] * 2, num_workers=2,
                          context={context!r})
    envs.reset(seed=0)
    envs.step_async(np.array([0, 0]))
    print("pids", *[p.pid for p in envs.processes], flush=True)
    names = [s._semlock.name for s in [envs._done, *envs._wake]]
    print("sems", *[name.lstrip("/") for name in names if name], flush=True)
    if {exit!r}:
        os._exit(0)
    time.sleep(600)
"""


@pytest.mark.parametrize("context", METHODS)
@pytest.mark.parametrize("death", ["os_exit_idle", "sigkill_busy"])
def test_workers_exit_when_parent_dies(context: str, death: str, tmp_path: Path) -> None:
    busy = death == "sigkill_busy"
    # A parent that dies without its exit handlers leaves multiprocessing's temporary directory
    # (a forkserver's socket) behind: it goes to pytest's temporary directory, not the session's.
    child = _child(
        PARENT_SCRIPT.format(delay=600.0 if busy else 0.0, context=context, exit=not busy),
        tmp_path,
    )
    try:
        assert child.stdout is not None
        pids = _worker_pids(child.stdout.readline())
        semaphores = [f"/dev/shm/sem.{name}" for name in child.stdout.readline().split()[1:]]
        workers = [psutil.Process(pid) for pid in pids]
        if busy:
            child.send_signal(signal.SIGKILL)
        child.wait(WAIT_S)
        _, alive = psutil.wait_procs(workers, timeout=GONE_S)
        for process in alive:  # pragma: no cover - only on failure
            process.kill()
        assert not alive, f"orphaned workers still running: {alive}"
    finally:
        child.kill()
        child.communicate()
    # Named semaphores (forkserver / spawn) are unlinked by the dead parent's resource tracker
    # once the last worker holding its pipe has exited.
    deadline = time.monotonic() + GONE_S
    while any(map(os.path.exists, semaphores)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [path for path in semaphores if os.path.exists(path)]


INTERRUPT_SCRIPT = """
import sys
import numpy as np
from tests.support.slow_env import SlowEnv
from vecgym.vector import AsyncVectorEnv, async_vector_env
if __name__ == "__main__":
    envs = AsyncVectorEnv([lambda: SlowEnv(step_delay=0.05)] * 2, num_workers=2,
                          context={context!r})
    envs.reset(seed=0)
    try:  # print inside the try: the SIGINT may arrive right after the line is read
        print("pids", *[p.pid for p in envs.processes], flush=True)
        while True:
            envs.step(np.array([0, 0]))
    except KeyboardInterrupt:
        import warnings
        warnings.simplefilter("ignore")
        envs.close()
        import multiprocessing, psutil
        zombies = [c for c in psutil.Process().children() if c.status() == psutil.STATUS_ZOMBIE]
        print("closed", envs.closed, "zombies", len(zombies), flush=True)
"""


@pytest.mark.parametrize("context", METHODS)
def test_keyboard_interrupt_during_step(context: str) -> None:
    child = _child(INTERRUPT_SCRIPT.format(context=context))
    try:
        assert child.stdout is not None
        pids = _worker_pids(child.stdout.readline())
        child.send_signal(signal.SIGINT)  # only the parent: as a terminal would, minus the group
        out, err = child.communicate(timeout=WAIT_S)
    finally:
        child.kill()
        child.communicate()
    assert "closed True zombies 0" in out, err
    assert child.returncode == 0, err
    _, alive = psutil.wait_procs([psutil.Process(p) for p in pids if psutil.pid_exists(p)], 5)
    assert not alive


def test_keyboard_interrupt_in_process() -> None:
    envs = _vec([lambda: SlowEnv(step_delay=0.3) for _ in range(2)], "fork")
    processes = list(envs.processes)

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        envs.reset(seed=0)
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        with pytest.raises(KeyboardInterrupt):
            envs.step(np.array([0, 0]))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        with pytest.warns(UserWarning, match=message_pattern(CLOSE_PENDING_MSG)):
            envs.close()
    assert all(p.exitcode is not None for p in processes)
    me = psutil.Process()
    assert not [c for c in me.children() if c.status() == psutil.STATUS_ZOMBIE]


def test_a_ctrl_c_during_a_worker_start_is_held_until_the_start_returns() -> None:
    """A SIGINT that arrives while a worker process starts (when a ``fork`` runs its callbacks
    in the parent, which would drop a KeyboardInterrupt) is raised once the start returns."""
    from vecgym.vector._async.placement import sigint_held

    reached: list[str] = []

    def start() -> None:
        with sigint_held():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # a KeyboardInterrupt here would skip the next line
            reached.append("end of the start")

    handler = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        start()
    assert reached == ["end of the start"]
    assert signal.getsignal(signal.SIGINT) is handler


def _sigint_bits(pid: int) -> tuple[bool, bool]:
    """Whether SIGINT is blocked and whether it is ignored in process ``pid`` (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status if ":" in line)
    bit = 1 << (signal.SIGINT - 1)
    return bool(int(fields["SigBlk"], 16) & bit), bool(int(fields["SigIgn"], 16) & bit)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_workers_ignore_sigint_without_blocking_it(context: str) -> None:
    """Workers ignore SIGINT (the parent decides what a Ctrl-C does) without blocking it, also
    when started inside :func:`sigint_held`."""
    envs = AsyncVectorEnv([ProbeEnv] * 2, num_workers=2, context=context)
    try:
        for process in envs.processes:
            assert _sigint_bits(process.pid) == (False, True)
    finally:
        envs.close()


# --- 8. placement ---------------------------------------------------------------------------------
@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_pinned_workers_and_single_threaded_blas(context: str) -> None:
    cores = sorted(os.sched_getaffinity(0))
    omp_before = os.environ.get("OMP_NUM_THREADS")
    envs = AsyncVectorEnv([ProbeEnv] * 3, num_workers=3, context=context, pin_workers=True)
    try:
        probes = envs.call("probe")
        assert [p["affinity"] for p in probes] == [[cores[k % len(cores)]] for k in range(3)]
        assert {p["OMP_NUM_THREADS"] for p in probes} == {"1"}
        assert {p["OPENBLAS_NUM_THREADS"] for p in probes} == {"1"}
        # numpy's OpenBLAS, loaded in the parent before a fork, is capped in the workers too
        assert {p["openblas_threads"] for p in probes} <= {1, None}
        assert [h["pid"] for h in envs.worker_health()] == [p["pid"] for p in probes]
    finally:
        envs.close()
    assert os.environ.get("OMP_NUM_THREADS") == omp_before  # the parent is left alone
    envs = AsyncVectorEnv([ProbeEnv] * 2, num_workers=2, context=context, worker_threads=None)
    try:
        probes = envs.call("probe")
        assert all(p["affinity"] == cores for p in probes)  # not pinned by default
        assert {p["OMP_NUM_THREADS"] for p in probes} == {omp_before}
    finally:
        envs.close()


def test_call_after_a_timed_out_wait_on_a_hung_worker_raises_instead_of_hanging(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Raise mode: the next call waits for the late worker only LATE_WAIT_S, then says why."""
    monkeypatch.setattr(supervisor, "LATE_WAIT_S", 0.3)
    envs = _vec([lambda: SlowEnv(step_delay=60.0, slow_after=1) for _ in range(2)], "fork")
    try:
        envs.reset(seed=0)
        envs.step(np.array([0, 0]))
        envs.step_async(np.array([0, 0]))
        with pytest.raises(error.WaitTimeout, match="step_wait"):
            envs.step_wait(timeout=0.05)
        with pytest.raises(error.WaitTimeout, match=r"still busy .* close\(\)"):
            envs.step(np.array([0, 0]))
        with pytest.raises(error.WaitTimeout, match="still busy"):
            envs.get_attr("step_delay")
    finally:
        envs.close(terminate=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="native thread names: /proc")
@pytest.mark.parametrize(
    ("name", "expected"),
    [("probe-native", "forkserver"), ("SDLTimer", "fork")],  # SDLTimer: pygame's, fork-safe
)
def test_a_named_native_thread_rules_out_fork(name: str, expected: str) -> None:
    """A thread a library started in C and named (Ray's gRPC pollers are such threads) is not a
    Python thread, so ``threading`` does not see it; the default start method must."""
    import ctypes

    from vecgym.vector._async.placement import default_start_method, named_native_threads

    libc = ctypes.CDLL(None)
    started_r, started_w = os.pipe()
    stop_r, stop_w = os.pipe()

    @ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)
    def body(_arg: Any) -> None:
        libc.prctl(15, name.encode())  # PR_SET_NAME: this thread's name
        libc.write(started_w, b"s", 1)
        libc.read(stop_r, ctypes.create_string_buffer(1), 1)  # blocks in C, without the GIL

    before = named_native_threads()  # (pygame's SDLTimer, when an earlier test rendered)
    assert default_start_method() == "fork"
    thread = ctypes.c_ulong()
    assert libc.pthread_create(ctypes.byref(thread), None, body, None) == 0
    try:
        assert os.read(started_r, 1) == b"s"
        assert threading.active_count() == 1  # invisible to the Python-thread rule
        assert named_native_threads() == sorted([*before, name])
        assert default_start_method() == expected
        envs = AsyncVectorEnv([ProbeEnv] * 2, num_workers=2)
        try:
            assert envs.context == expected
            assert len(envs.call("probe")) == 2
        finally:
            envs.close()
    finally:
        os.write(stop_w, b"x")
        assert libc.pthread_join(thread, None) == 0
        for fd in (started_r, started_w, stop_r, stop_w):
            os.close(fd)
    assert named_native_threads() == before


class _AnyAction(Space[Any]):
    """An action space that holds anything (a custom space: its actions travel pickled)."""

    def __init__(self) -> None:
        super().__init__(None, None)

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        return "any"

    def contains(self, x: Any) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _AnyAction)

    __hash__ = Space.__hash__


class _AnyActionEnv(RaisingEnv):
    def __init__(self) -> None:
        super().__init__()
        self.action_space = _AnyAction()


def test_actions_that_cannot_be_pickled_are_refused_before_anything_is_sent() -> None:
    """Actions outside shared memory travel pickled. One that cannot be pickled fails ``step`` or
    ``send`` before any worker was posted (``send`` used to mark the envs in flight first, and
    the next ``recv`` failed an internal assertion)."""
    envs = _vec([_AnyActionEnv] * 4, "fork")
    try:
        envs.reset(seed=0)
        with pytest.raises(TypeError, match=r"pickle.*`step` sends its arguments"):
            envs.step(("a", threading.Lock(), "c", "d"))
        assert envs.step(("a", "b", "c", "d"))[0][:, 0].tolist() == [1.0] * 4
        envs.send(("a", "b"), env_ids=[0, 1])
        with pytest.raises(TypeError, match=r"pickle.*`send`.*nothing was sent"):
            envs.send((threading.Lock(), "x"), env_ids=[2, 3])
        assert envs.recv(timeout=WAIT_S)[-1].tolist() == [0, 1]
        envs.send(("y", "x"), env_ids=[2, 3])
        obs, *_, ids = envs.recv(timeout=WAIT_S)
        assert ids.tolist() == [2, 3]
        assert obs[:, 0].tolist() == [2.0, 2.0]
    finally:
        envs.close()
