"""AsyncVectorEnv: environments stepped in worker processes, results exchanged in shared memory.

Data flow of one ``step`` (worker ``k`` owns the contiguous env slice ``[a_k, b_k)``)::

    parent process                                    worker process k
    --------------                                    ----------------
    check actions (shape / dtype), write them
      into shm.actions[...]  (one memcpy per leaf)
    shm.command[k] = (seq, STEP); wake[k].release() -> [spin-yield on shm.command[k] for
                                                       WORKER_SPIN_S] wake[k].acquire()
                                                      for i in [a_k, b_k): AutoresetEnv(env_i).step(
                                                          shm.actions[i]) -> write obs leaves,
                                                          reward, terminated, truncated into row i
                                                      shm.done[k] = (seq, has_reply)
    done.acquire() in 0.1 s slices, checking the  <-  done.release()
      workers' sentinels between slices (a dead      (then, only if some info is non-empty or an
      worker -> WorkerDied) [spin-yield on the        env raised: ONE pickled Reply on the pipe)
      done words for PARENT_SPIN_S first]
    merge the replies' infos in env order
    return views of shm (or copies, copy=True)

Nothing is pickled on the fast path: a step with empty infos costs two semaphore operations per
worker and the numpy writes. Observations of spaces without a fixed size (Text, Sequence, Graph,
OneOf, custom spaces) and all observations when ``shared_memory=False`` travel in the Reply instead
(the parent keeps each env's latest observation and re-batches them, so values are always live);
actions of such action spaces travel in a pickled request. Every command carries a sequence number:
a reply that arrives after its ``*_wait`` timed out is recognised and discarded.

Wake-up primitive, measured on the 2-core development machine (shared with other jobs, so each
figure is the range over repeats; round trip parent -> worker -> parent):

================================================  ==============
pickled ``Pipe`` send/recv                         25 us
semaphore pair, both sides blocking                6-48 us
semaphore pair, waiter spins ~50 us first          0.5-0.9 us
blocking after 100 us of parent work (idle core)   ~60 us
same, worker spinning up to 200 us first           7-21 us
================================================  ==============

Pure busy-waiting collapses when spinners outnumber cores (2 workers + a spinning parent on 2 cores
fell to ~1k CartPole steps/s in the prototype), and blocking alone pays the ~60 us wake-up of an
idle virtual CPU at every hand-off (twice per step: parent -> workers, workers -> parent; with two
workers the parent may even wake twice). The policy is a bounded spin that yields: an idle worker
polls its command word for up to ``WORKER_SPIN_S`` (200 us) and the parent polls the done words for
up to ``PARENT_SPIN_S`` (100 us), calling ``sched_yield()`` on every turn, then both block on their
semaphores. A spinner that yields hands its core at once to any runnable worker or parent, so it
never starves the processes it waits for, yet the core does not go idle, and the next hand-off
costs microseconds instead of a wake-up. The parent spins only while the workers' recent replies
(a running average of its waits) came within its spin window: when the workers are busy for
longer than that, i.e. the cores are filled with env work, it blocks at once and leaves them the
CPU (measured: a 500 us env at 4 envs runs as fast as with a parent that never spins, while
8 CartPole envs run 1.3x faster than with one). Measured on the 2-core machine (best / median of
3 runs of 1 s, 2 workers, fork):

============================================  ===================  ==================
CartPole-v1 env steps/s                        block only           spin + yield
============================================  ===================  ==================
8 envs                                         82k / 75k            170k / 166k
64 envs                                        269k / 232k          376k / 360k
256 envs                                       393k / 327k          450k / 440k
64 envs, 4 workers (oversubscribed)            215k / 163k          306k / 261k
64 envs, 8 workers (oversubscribed)            168k / 153k          234k / 175k
64 envs beside a CPU-bound process             180k / 173k          196k / 146k
500 us env, 4 envs (bound 3,990)               3,625 / 3,607        3,797 / 3,782
84x84x4 uint8 frames, 16 envs                  126k / 120k          252k / 236k
============================================  ===================  ==================

Start method: ``context=None`` chooses explicitly rather than inheriting the platform default (which
Python 3.14 changed from ``fork`` to ``forkserver`` on Linux): ``fork`` where the platform has it
(not macOS, where system frameworks are not fork-safe) and the calling process runs no other Python
thread (forking a multi-threaded process can copy a lock held by another thread and deadlock the
child); otherwise ``forkserver`` where available, else ``spawn``. ``fork`` starts workers in
milliseconds and needs nothing picklable; ``forkserver`` / ``spawn`` cost an interpreter start and
an import of vecgym per worker. Env constructors are always sent through ``CloudpickleWrapper`` so
lambdas and closures work under every method.

Failures (all detected without adding work to the fast path: worker sentinels are looked at only
when a 0.1 s wait slice passes without a wake-up):

* an env's exception is re-raised in the parent with its type (or as ``WorkerError`` when it cannot
  be pickled), worker and env index named, remote traceback as ``__cause__``; ``reset()`` recovers;
* a dead worker (``os._exit``, segfault, ``SIGKILL`` / OOM kill) raises ``WorkerDied`` naming the
  worker, its pid and envs, the exit code or signal ("killed by signal SIGKILL (9)") and likely
  causes; the vector env is then unusable (``on_worker_failure="raise"``) or the worker is
  replaced and its envs rebuilt and reset (``"restart"``, see :meth:`AsyncVectorEnv.step_wait`);
* a ``*_wait`` timeout raises ``WaitTimeout``; the late reply is discarded by sequence number;
  with ``"restart"`` a step that outlives ``step_timeout`` has its worker killed and replaced;
* ``close()`` never raises and never hangs (graceful, then terminate, then kill); workers ignore
  SIGINT and exit by themselves when the parent dies (a watchdog thread, every 0.5 s);
* bad input is refused before anything is stepped: step before reset (``ResetNeeded``), actions of
  the wrong shape / dtype (``ValueError`` / ``TypeError``) or outside the action space
  (``InvalidAction``, ``check_actions``), env constructors that cannot be pickled under
  ``spawn`` / ``forkserver`` (a pre-flight ``TypeError`` naming the member at fault).

A soak run (``benchmarks/bench_soak.py``: 10M CartPole-sized steps, 64 envs, 2 workers, random
``os._exit`` / segfault / ``SIGKILL`` / hang faults under ``"restart"``, every observation checked
against a reference model) gave 133 restarts, 0 mismatches, 128k steps/s on the 2-core machine.

Scheduling granularity is a worker: :meth:`AsyncVectorEnv.send` / :meth:`AsyncVectorEnv.recv`
(EnvPool-style asynchronous batches) report a worker's envs when the whole worker finished its
slice, so with ``num_workers`` workers the natural batch sizes are multiples of the slice sizes.
"""

from __future__ import annotations

import contextlib
import copy as copy_module
import enum
import multiprocessing
import os
import pickle
import signal
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_connections
from multiprocessing.reduction import send_handle
from typing import Any, Generic, cast

import numpy as np
import numpy.typing as npt

from vecgym import error, logger
from vecgym.core.env import ActType, Env, ObsType, RenderFrame
from vecgym.core.spaces.space import Space
from vecgym.vector._arguments import (
    normalize_indices,
    normalize_seeds,
    split_reset_options,
)
from vecgym.vector._async.placement import (
    default_start_method,
    split_slices,
    thread_env_for_start,
    usable_cores,
    worker_cores,
)
from vecgym.vector._async.protocol import (
    Command,
    RemoteError,
    Reply,
    Request,
    SharedLayout,
    create_block,
    is_done,
    leaf_tree,
    pack_command,
    unpack_done,
    yield_cpu,
)
from vecgym.vector._async.worker import WorkerConfig, async_worker
from vecgym.vector._boundary import (
    CHECK_ACTIONS_MSG,
    check_env_fns_picklable,
    check_not_before_reset,
    make_action_check,
)
from vecgym.vector.autoreset import STEP_AFTER_END_MSG
from vecgym.vector.utils import (
    CloudpickleWrapper,
    batch_differing_spaces,
    batch_space,
    clear_mpi_env_vars,
    concatenate,
    create_empty_array,
    iterate,
)
from vecgym.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["AsyncState", "AsyncVectorEnv", "RemoteTraceback", "usable_cores"]

PARENT_SPIN_S = 100e-6
"""How long the parent spin-yields on the done words before blocking on the done semaphore; it
spins only while the recent waits (a running average) were shorter than this."""
WAIT_AVERAGING = 0.25
"""Weight of the latest wait in the parent's running average of wait times."""
WORKER_SPIN_S = 200e-6
"""How long an idle worker spin-yields on its command word before blocking on its semaphore."""
WAIT_SLICE_S = 0.1
"""Blocking waits are cut into slices this long; worker sentinels are checked between slices."""
LATE_WAIT_S = 10.0
"""How long a call waits for workers still busy with a command whose wait timed out, before it
raises :class:`~vecgym.error.WaitTimeout` itself (``on_worker_failure="raise"``)."""
CLOSE_TIMEOUT_S = 10.0
"""How long ``close()`` waits for workers to finish (when no timeout is given) before killing."""

PENDING_MSG = "Calling `{method}` while waiting for a pending call to `{pending}` to complete."
NO_ASYNC_MSG = "Calling `{method}` without any prior call to `{partner}`."
TIMEOUT_MSG = (
    "the call to `{method}` timed out after {timeout} second(s); worker(s) {workers} (envs "
    "{envs}) are still running; their late replies will be discarded"
)
LATE_TIMEOUT_MSG = (
    "worker(s) {workers} (envs {envs}) are still busy with a command whose wait timed out, and "
    "did not finish within {timeout} second(s) more; nothing was sent to any worker. Call again "
    "later, or close() the vector env (close(terminate=True) stops them at once)"
)
WORKER_DIED_MSG = (
    "worker {worker} of AsyncVectorEnv (pid {pid}, sub-environments {envs}) died unexpectedly: "
    "{how}; likely causes: {causes}"
)
CAUSES_KILLED = (
    "the process was killed from outside, most often by the kernel's out-of-memory killer "
    "(check `dmesg` or the container's memory limit), a job scheduler or a user"
)
CAUSES_CRASHED = (
    "a crash in native code (a C extension, a simulator or a library: segmentation fault, abort, "
    "bus error), or memory exhaustion inside native code"
)
CAUSES_SIGNAL = "the process received a signal it does not handle"
CAUSES_EXIT = (
    "the environment ended the process (os._exit(), sys.exit() from a non-Python thread, a "
    "library calling exit()), or a fatal error of the interpreter"
)
CAUSES_UNKNOWN = "the process ended without reporting why"
ON_FAILURE_MSG = "on_worker_failure must be 'raise' or 'restart', got {!r}"
MAX_CONCURRENCY_TYPE_MSG = "`max_concurrency` must be an integer or None, got {}."
MAX_CONCURRENCY_VALUE_MSG = "`max_concurrency` must be a positive or None, got {}."
STEP_TIMEOUT_MSG = "step_timeout must be None or a positive number of seconds, got {!r}"
WORKER_THREADS_MSG = "worker_threads must be None or an int >= 1, got {!r}"
RESTARTED_DURING_MSG = (
    "{died}; it was restarted (on_worker_failure='restart'): sub-environments {envs} were rebuilt "
    "and reset, but the `{method}` call on them was lost"
)
BROKEN_MSG = "AsyncVectorEnv is unusable after a worker died; close it. The first failure was: {}"
WORKER_ERROR_MSG = "{type_name}: {message} (raised in worker {worker}, sub-environment {env})"
REMOTE_NOTE = "raised in AsyncVectorEnv worker {worker}, sub-environment {env}"
ACTION_SHAPE_MSG = "actions must have shape {expected} (a batch for {count} env(s)), got {got}"
ACTION_DTYPE_MSG = "actions must be castable to {expected} (same kind), got dtype {got}"
ACTION_STRUCTURE_MSG = "actions must be a {expected} matching the action space, got {got}"
ACTION_COUNT_MSG = "expected {expected} actions (one per env), got {got}"
NUM_WORKERS_MSG = "num_workers must be an int >= 1 or None, got {!r}"
BATCH_SIZE_MSG = "batch_size must be an int in [1, num_envs={}] or None, got {!r}"
ENV_FNS_MSG = "env_fns must be a non-empty sequence of callables, got {!r}"
OBS_MODE_MSG = (
    "Invalid `observation_mode`, expected: 'same' or 'different' or tuple of single and batch "
    "observation space, actual got {}"
)
OBS_MODE_SPACES_MSG = "Expected both elements of observation_mode to be Spaces, got {} and {}"
CONTEXT_MSG = "context must be None or one of {}, got {!r}"
ENV_IDS_MSG = "env_ids must be distinct env indices in [0, {}) that are not in flight; got {}"
NOTHING_IN_FLIGHT_MSG = "Calling `recv` without any environment in flight: call `send` first."
POOL_BUSY_MSG = "Calling `{}` while environments sent with `send` are still in flight: `recv` them."
CLOSE_PENDING_MSG = "Calling `close` while waiting for a pending call to `{}` to complete."
SET_ATTR_LENGTH_MSG = (
    "Values must be a list or tuple with length equal to the number of environments. Got `{}` "
    "values for {} environments."
)
CLOSED_MSG = "Trying to operate on `{}`, after a call to `close()`."

_IDLE, _RUNNING, _READY = 0, 1, 2


class AsyncState(enum.Enum):
    """What an :class:`AsyncVectorEnv` is waiting for (Gymnasium's names and values)."""

    DEFAULT = "default"
    WAITING_RESET = "reset"
    WAITING_STEP = "step"
    WAITING_CALL = "call"


class RemoteTraceback(Exception):
    """The ``__cause__`` of an exception re-raised from a worker: the remote traceback."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def _copy_tree(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return value.copy()
    if type(value) is dict:
        return {key: _copy_tree(sub) for key, sub in value.items()}
    if type(value) is tuple:  # not namedtuples such as GraphInstance: deepcopy keeps their type
        return tuple(_copy_tree(sub) for sub in value)
    return copy_module.deepcopy(value)


def _select_tree(value: Any, ids: Any) -> Any:
    """Rows ``ids`` (a slice or an index array) of every array of a batch structure."""
    if isinstance(value, np.ndarray):
        return value[ids]
    if isinstance(value, dict):
        return {key: _select_tree(sub, ids) for key, sub in value.items()}
    return tuple(_select_tree(sub, ids) for sub in value)


def _select_info(infos: dict[str, Any], ids: npt.NDArray[np.intp]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in infos.items():
        out[key] = _select_info(value, ids) if isinstance(value, dict) else value[ids]
    return out


_CRASH_SIGNALS = frozenset(
    {"SIGSEGV", "SIGBUS", "SIGABRT", "SIGFPE", "SIGILL", "SIGSYS", "SIGTRAP", "SIGXCPU"}
)


def _describe_exit(exitcode: int | None) -> tuple[str, str]:
    """``(how the process ended, its likely causes)`` from a ``multiprocessing`` exit code."""
    if exitcode is None:
        return "an unknown exit status", CAUSES_UNKNOWN
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            return f"killed by signal {-exitcode}", CAUSES_SIGNAL
        if name == "SIGKILL":
            causes = CAUSES_KILLED
        elif name in _CRASH_SIGNALS:
            causes = CAUSES_CRASHED
        else:
            causes = CAUSES_SIGNAL
        return f"killed by signal {name} ({-exitcode})", causes
    return f"exit code {exitcode}", CAUSES_EXIT


def restart_seed(base_seed: int | None, env_index: int, restart: int, entropy: int) -> int:
    """The seed a restarted env is reset with (``on_worker_failure="restart"``).

    ``np.random.SeedSequence(entropy=(base, entropy), spawn_key=(env_index, restart))``'s first
    32-bit word, where ``base`` is the seed of the env's last ``reset`` (``0`` when that seed was
    ``None``), ``entropy`` the vector env's :attr:`AsyncVectorEnv.restart_entropy` and ``restart``
    the restart count of the env's worker (1 for its first restart). Same seeds, same faults =>
    same restart seeds; distinct envs and successive restarts get independent streams.

    Example:
        >>> restart_seed(42, env_index=3, restart=1, entropy=0) == restart_seed(42, 3, 1, 0)
        True
    """
    base = 0 if base_seed is None else int(base_seed)
    sequence = np.random.SeedSequence(entropy=(base, entropy), spawn_key=(env_index, restart))
    return int(sequence.generate_state(1, dtype=np.uint32)[0])


class AsyncVectorEnv(VectorEnv[ObsType, ActType, np.ndarray], Generic[ObsType, ActType]):
    """Runs environments in worker processes (several per worker), results in shared memory.

    Gymnasium 1.4's ``AsyncVectorEnv`` API and results, seed for seed, plus ``num_workers`` (the
    envs are split into that many contiguous slices, one process each) and EnvPool-style
    asynchronous batches (:meth:`send` / :meth:`recv`, with ``batch_size``).

    Args:
        env_fns: functions that build the sub-environments (cloudpickled to the workers).
        shared_memory: keep observations in shared memory (fixed-size spaces); ``False`` sends
            them pickled through the pipes. Rewards, terminations and truncations (and actions of
            fixed-size action spaces) are in shared memory either way.
        copy: return copies of the observations from :meth:`reset` / :meth:`step`; ``False``
            returns views of the shared buffers, overwritten by the next call.
        context: the ``multiprocessing`` start method; ``None`` picks one explicitly (see the
            module docstring).
        daemon: start the workers as daemon processes.
        worker: replaces the worker function; it is called in the child as
            ``worker(config, conn, parent_conn, wake, done)`` (see
            :func:`vecgym.vector._async.worker.async_worker`; Gymnasium's per-env worker signature
            does not apply here).
        observation_mode: ``"same"``, ``"different"`` or a ``(observation_space,
            single_observation_space)`` tuple, as in Gymnasium.
        autoreset_mode: the autoreset mode.
        max_concurrency: as in Gymnasium 1.4: at most this many sub-environments run ``reset`` or
            ``step`` at the same moment (a semaphore shared by the workers, taken around each
            env's call); ``None``: no limit. Each worker steps its envs one after another, so
            with the default ``num_workers`` the limit only matters below the number of workers.
        num_workers: number of worker processes; ``None``: the usable physical cores (psutil's
            physical count capped by the CPU affinity), at most ``num_envs``.
        batch_size: how many envs :meth:`recv` returns; ``None``: ``num_envs``.
        check_actions: check the actions before anything is stepped, raising
            :class:`vecgym.error.InvalidAction` naming the envs: ``True`` (default) rejects
            integer actions outside their Discrete / MultiDiscrete / MultiBinary range and NaN in
            Box actions (a couple of numpy reductions, about 1% of a 64-env CartPole step);
            ``"strict"`` also enforces Box ``low`` / ``high`` (off by default: Gymnasium accepts
            out-of-bounds continuous actions, which many envs clip); ``False`` checks nothing.
        on_worker_failure: ``"raise"`` (default): a dead worker raises
            :class:`vecgym.error.WorkerDied` and leaves the vector env unusable (close it);
            ``"restart"``: a worker that dies, or (in ``step``) exceeds the step timeout, is
            replaced, see :meth:`step_wait` for how its envs are reported.
        step_timeout: seconds :meth:`step_wait` waits when called without a timeout (``None``:
            no limit). In ``"restart"`` mode a worker whose step takes longer is killed and
            replaced; in ``"raise"`` mode :class:`vecgym.error.WaitTimeout` is raised.
        pin_workers: pin worker ``k`` to core ``k mod n`` of the ``n`` cores this process may run
            on (psutil CPU affinity), so workers neither migrate nor share a core needlessly.
        worker_threads: BLAS / OpenMP threads per worker (the ``*_NUM_THREADS`` variables set in
            the worker before its envs are built, and threadpoolctl when installed); ``None``
            leaves them alone. Default 1: many workers each running a full-width BLAS pool
            oversubscribe the cores.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.vector.AsyncVectorEnv([lambda: gym.make("CartPole-v1")] * 4, num_workers=2)
        >>> obs, infos = envs.reset(seed=42)
        >>> obs.shape
        (4, 4)
        >>> obs, rewards, terminated, truncated, infos = envs.step(np.array([0, 1, 0, 1]))
        >>> rewards
        array([1., 1., 1., 1.])
        >>> envs.close()
    """

    def __init__(
        self,
        env_fns: Sequence[Callable[[], Env[Any, Any]]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: Callable[..., None] | None = None,
        observation_mode: str | tuple[Space[Any], Space[Any]] = "same",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        max_concurrency: int | None = None,
        num_workers: int | None = None,
        batch_size: int | None = None,
        check_actions: bool | str = True,
        on_worker_failure: str = "raise",
        step_timeout: float | None = None,
        pin_workers: bool = False,
        worker_threads: int | None = 1,
    ) -> None:
        # Attributes close() relies on come first, so a failed construction still closes cleanly.
        self.closed = False
        self.processes: list[Any] = []
        self.parent_pipes: list[Connection | None] = []
        self._broken: BaseException | None = None
        self._state = AsyncState.DEFAULT
        self._block_fd: int | None = None

        if max_concurrency is not None and (
            isinstance(max_concurrency, bool) or not isinstance(max_concurrency, (int, np.integer))
        ):
            raise ValueError(MAX_CONCURRENCY_TYPE_MSG.format(type(max_concurrency)))
        if max_concurrency is not None and max_concurrency < 1:
            raise ValueError(MAX_CONCURRENCY_VALUE_MSG.format(max_concurrency))
        self.max_concurrency = None if max_concurrency is None else int(max_concurrency)
        if on_worker_failure not in ("raise", "restart"):
            raise ValueError(ON_FAILURE_MSG.format(on_worker_failure))
        if step_timeout is not None and (
            isinstance(step_timeout, bool)
            or not isinstance(step_timeout, (int, float))
            or not step_timeout > 0
        ):
            raise ValueError(STEP_TIMEOUT_MSG.format(step_timeout))
        if worker_threads is not None and (
            isinstance(worker_threads, bool)
            or not isinstance(worker_threads, (int, np.integer))
            or worker_threads < 1
        ):
            raise ValueError(WORKER_THREADS_MSG.format(worker_threads))
        self.on_worker_failure = on_worker_failure
        self.step_timeout = None if step_timeout is None else float(step_timeout)
        if not (check_actions is True or check_actions is False or check_actions == "strict"):
            raise ValueError(CHECK_ACTIONS_MSG.format(check_actions))
        self.check_actions = check_actions
        self.pin_workers = bool(pin_workers)
        self.worker_threads = None if worker_threads is None else int(worker_threads)

        if (
            not isinstance(env_fns, Sequence)
            or len(env_fns) == 0
            or not all(callable(fn) for fn in env_fns)
        ):
            if isinstance(env_fns, Sequence) and len(env_fns) == 0:
                raise error.NoEnvironments(ENV_FNS_MSG.format(env_fns))
            raise TypeError(ENV_FNS_MSG.format(env_fns))
        self.env_fns = env_fns
        self.shared_memory = shared_memory
        self.copy = copy
        self.daemon = daemon
        self.worker = worker
        self.observation_mode = observation_mode
        self.autoreset_mode = (
            autoreset_mode
            if isinstance(autoreset_mode, AutoresetMode)
            else AutoresetMode(autoreset_mode)
        )
        self.num_envs = len(env_fns)
        self._check_mode(observation_mode)

        cores = usable_cores()
        if num_workers is None:
            num_workers = min(cores, self.num_envs)
        elif (
            isinstance(num_workers, bool)
            or not isinstance(num_workers, (int, np.integer))
            or (num_workers < 1)
        ):
            raise ValueError(NUM_WORKERS_MSG.format(num_workers))
        self.num_workers = min(int(num_workers), self.num_envs)
        if batch_size is None:
            batch_size = self.num_envs
        if (
            isinstance(batch_size, bool)
            or not isinstance(batch_size, (int, np.integer))
            or not (1 <= batch_size <= self.num_envs)
        ):
            raise ValueError(BATCH_SIZE_MSG.format(self.num_envs, batch_size))
        self.batch_size = int(batch_size)

        methods = multiprocessing.get_all_start_methods()
        if context is not None and context not in methods:
            raise ValueError(CONTEXT_MSG.format(methods, context))
        self.context = context if context is not None else default_start_method()
        self._ctx = multiprocessing.get_context(self.context)
        self._slices = split_slices(self.num_envs, self.num_workers)
        self._worker_of_env = np.concatenate(
            [np.full(b - a, k, dtype=np.intp) for k, (a, b) in enumerate(self._slices)]
        )
        self._parent_spin_s = PARENT_SPIN_S
        self._recent_wait_s = 0.0  # a running average of how long the workers took to reply
        self._worker_spin_s = WORKER_SPIN_S

        self._seq = 0
        self._outstanding = [0] * self.num_workers
        self._posted_at = [0.0] * self.num_workers  # when each worker was sent its command
        self._pending_workers: list[int] = []
        self._restarts = [0] * self.num_workers
        self._restarted_now: list[int] = []
        self._restarted_late: list[int] = []
        self._health: list[Any] = [None] * self.num_workers
        self._was_reset = np.zeros(self.num_envs, dtype=np.bool_)
        self._all_reset = False
        # DISABLED mode: envs whose episode ended; stepping them is refused before anything runs
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)
        self._last_seeds: list[int | None] = [None] * self.num_envs
        self._reset_request: tuple[list[int | None], Any, npt.NDArray[np.bool_]] | None = None
        self.restart_entropy = int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])
        """Mixed into :func:`restart_seed`; set it (e.g. to 0) for reproducible restart seeds."""
        self._cores = worker_cores(self.num_workers) if self.pin_workers else None
        self._limiter = (
            None
            if self.max_concurrency is None
            else self._ctx.BoundedSemaphore(self.max_concurrency)
        )
        try:
            import psutil

            self._parent_create_time: float | None = psutil.Process().create_time()
        except Exception:  # pragma: no cover - psutil is a dependency
            self._parent_create_time = None
        try:
            if self.context != "fork":
                check_env_fns_picklable(self.env_fns, self.context)
            self._start_workers()
        except BaseException:
            self.close(terminate=True)
            raise

    # --- construction ----------------------------------------------------------------------------
    def _check_mode(self, observation_mode: Any) -> None:
        if isinstance(observation_mode, tuple) and len(observation_mode) == 2:
            if not all(isinstance(space, Space) for space in observation_mode):
                raise TypeError(
                    OBS_MODE_SPACES_MSG.format(type(observation_mode[0]), type(observation_mode[1]))
                )
        elif observation_mode not in ("same", "different"):
            raise ValueError(OBS_MODE_MSG.format(observation_mode))

    def _start_workers(self) -> None:
        ctx = self._ctx
        self._done: Any = ctx.Semaphore(0)
        self._wake = [ctx.Semaphore(0) for _ in range(self.num_workers)]
        self.parent_pipes = [None] * self.num_workers
        self.processes = [None] * self.num_workers
        for k in range(self.num_workers):
            self._spawn(k)
        hellos = [self._receive_startup(k) for k in range(self.num_workers)]
        for k, hello in enumerate(hellos):
            if hello.error is not None:
                raise self._rebuild(hello.error, k)
        first = hellos[0]
        self.metadata = dict(first.metadata)
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = first.render_mode
        self.single_action_space = first.action_space
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._set_observation_spaces(first.observation_space)
        self._attach()

    def _spawn(self, k: int) -> None:
        """Start worker ``k`` (with its current wake-up semaphore) and open its pipe."""
        ctx = self._ctx
        a, b = self._slices[k]
        parent_conn, child_conn = ctx.Pipe()
        config = WorkerConfig(
            worker_index=k,
            start=a,
            env_fns=CloudpickleWrapper(cast(Any, list(self.env_fns[a:b]))),
            autoreset_mode=self.autoreset_mode,
            parent_pid=os.getpid(),
            spin_s=self._worker_spin_s,
            parent_create_time=self._parent_create_time,
            cpu=None if self._cores is None else self._cores[k],
            threads=self.worker_threads,
            limiter=self._limiter,
        )
        process = ctx.Process(  # type: ignore[attr-defined]
            target=self.worker or async_worker,
            name=f"Worker<{type(self).__name__}>-{k}",
            args=(
                config,
                child_conn,
                parent_conn if self.context == "fork" else None,
                self._wake[k],
                self._done,
            ),
            daemon=self.daemon,
        )
        self.parent_pipes[k] = parent_conn
        self.processes[k] = process
        with clear_mpi_env_vars(), thread_env_for_start(self.context, self.worker_threads):
            process.start()
        child_conn.close()
        self._health[k] = None

    def _set_observation_spaces(self, first_space: Space[Any]) -> None:
        mode = self.observation_mode
        if isinstance(mode, tuple):
            self.observation_space, self.single_observation_space = mode
        elif mode == "same":
            self.single_observation_space = first_space
            self.observation_space = batch_space(first_space, self.num_envs)
        else:  # "different": provisional, replaced by the batch of every env's space once attached
            self.single_observation_space = first_space
            self.observation_space = batch_space(first_space, self.num_envs)

    def _attach(self) -> None:
        obs_tree = leaf_tree(self.single_observation_space) if self.shared_memory else None
        action_tree = leaf_tree(self.single_action_space)
        layout = SharedLayout(self.num_envs, self.num_workers, obs_tree, action_tree).plan()
        # The descriptor stays open (until close) so that a restarted worker can map the block.
        self._block_fd, self._block = create_block(layout.size)
        self._views = layout.views(self._block)
        self._attach_payload = (
            layout,
            self.observation_mode if isinstance(self.observation_mode, str) else "different",
            self.single_observation_space,
            self.single_action_space,
        )
        for k in range(self.num_workers):
            self._send_attach(k)
        for k in range(self.num_workers):
            self._receive_attached(k)
        self._action_check = make_action_check(self.single_action_space, self.check_actions)
        views = self._views
        self._obs_in_shm = obs_tree is not None
        self._actions_in_shm = action_tree is not None
        if self._obs_in_shm:
            self.observations = views.observations
            self._last_obs: list[Any] = []
        else:
            self.observations = create_empty_array(
                self.single_observation_space, n=self.num_envs, fn=np.zeros
            )
            self._last_obs = [None] * self.num_envs
        views.step_mask[:] = True
        self._mask_all = True
        self._env_state = np.zeros(self.num_envs, dtype=np.int8)
        self._pool_infos: dict[int, dict[str, Any]] = {}
        self._ready: list[int] = []
        self._queued: dict[int, list[int]] = {}
        self._queued_payload: dict[int, Any] = {}
        self._last_recv: npt.NDArray[np.intp] | None = None
        if self.observation_mode == "different":
            spaces = self.get_attr("observation_space")
            self.single_observation_space = spaces[0]
            self.observation_space = batch_differing_spaces(list(spaces))

    def _send_attach(self, k: int) -> None:
        conn = self.parent_pipes[k]
        assert conn is not None
        assert self._block_fd is not None
        self._seq += 1
        conn.send(Request(self._seq, Command.ATTACH, self._attach_payload))
        send_handle(conn, self._block_fd, self.processes[k].pid)

    def _receive_attached(self, k: int) -> None:
        reply = self._receive_startup(k)
        assert isinstance(reply, Reply)
        if reply.error is not None:
            raise self._rebuild(reply.error, k)

    def _receive_startup(self, k: int) -> Any:
        """The next start-up message of worker ``k`` (raising WorkerDied if it dies first)."""
        conn = self.parent_pipes[k]
        assert conn is not None
        while True:
            ready = wait_connections([conn, self.processes[k].sentinel], WAIT_SLICE_S)
            if conn in ready:
                try:
                    return conn.recv()
                except (EOFError, OSError):
                    pass
            if ready:
                self.processes[k].join(1.0)
                raise self._died(k)

    # --- properties ------------------------------------------------------------------------------
    @property
    def np_random_seed(self) -> tuple[int, ...]:  # type: ignore[override]
        """The ``np_random_seed`` of every sub-environment."""
        return self.get_attr("np_random_seed")

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The ``np_random`` generator of every sub-environment (copies, from the workers)."""
        return self.get_attr("np_random")

    # --- reset -----------------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the sub-environments (all, or those of ``options["reset_mask"]``).

        Args:
            seed: ``None``, an int ``s`` (env ``i`` gets ``s + i``) or one seed per env.
            options: passed to every env's ``reset``; the key ``"reset_mask"`` (a bool array of
                shape ``(num_envs,)``) selects the envs reset, the others keep their observation.

        Returns:
            The batched observations and infos. A reset clears any pending autoreset of the envs
            it resets.
        """
        self.reset_async(seed=seed, options=options)
        return self.reset_wait()

    def reset_async(
        self,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Start resetting the sub-environments; collect the results with :meth:`reset_wait`.

        Raises:
            ClosedEnvironmentError: after ``close()``.
            AlreadyPendingCallError: another ``*_async`` call is pending.
        """
        self._assert_is_running()
        seeds = normalize_seeds(seed, self.num_envs)
        self._assert_idle("reset_async")
        reset_mask, env_options = split_reset_options(options, self.num_envs)
        mask = np.ones(self.num_envs, dtype=np.bool_) if reset_mask is None else reset_mask
        workers = [k for k, (a, b) in enumerate(self._slices) if mask[a:b].any()]
        self._prepare(workers)
        self._discard_pool()
        for k in workers:
            a, b = self._slices[k]
            self._post(k, Command.RESET, (seeds[a:b], env_options, mask[a:b].tolist()))
        self._reset_request = (seeds, env_options, mask)
        self._pending_workers = workers
        self._state = AsyncState.WAITING_RESET

    def reset_wait(self, timeout: float | None = None) -> tuple[ObsType, dict[str, Any]]:
        """Wait for :meth:`reset_async` and return ``(observations, infos)``.

        Args:
            timeout: seconds to wait; ``None`` waits as long as it takes.

        Raises:
            NoAsyncCallError: no :meth:`reset_async` pending.
            WaitTimeout: the timeout elapsed (also a ``TimeoutError``); the late results are
                discarded and the next call gets fresh ones.
            WorkerDied: a worker process died.
        """
        self._assert_is_running()
        if self._state is not AsyncState.WAITING_RESET:
            raise error.NoAsyncCallError(
                NO_ASYNC_MSG.format(method="reset_wait", partner="reset_async"),
                AsyncState.WAITING_RESET.value,
            )
        request = self._reset_request
        replies = self._gather("reset_wait", timeout)
        assert request is not None
        seeds, _, mask = request
        self._was_reset[mask] = True
        self._all_reset = bool(self._was_reset.all())
        self._ended[mask] = False
        for i in np.flatnonzero(mask).tolist():
            self._last_seeds[i] = seeds[i]
        infos = self._merge(replies)
        return self._observations_out(), self._flag_restarts(infos)

    # --- step ------------------------------------------------------------------------------------
    def step(
        self, actions: ActType
    ) -> tuple[
        ObsType,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Step every sub-environment with its action (autoresetting per ``autoreset_mode``).

        Args:
            actions: a batch of actions, an element of :attr:`action_space`. Fixed-size actions are
                checked (shape, and dtype castable with ``same_kind``) before anything is stepped
                and converted to the action space's dtype.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``; rewards, terminations
            and truncations are new arrays; observations are copies (``copy=True``) or views of
            the shared buffers that the next call overwrites (``copy=False``).
        """
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: ActType) -> None:
        """Send the actions and start stepping; collect the results with :meth:`step_wait`.

        Raises:
            ClosedEnvironmentError: after ``close()``.
            AlreadyPendingCallError: another ``*_async`` call is pending.
            ResetNeeded: some env was never reset, or (``DISABLED`` mode) an env whose episode
                ended was not reset since; nothing is stepped then.
            ValueError / TypeError: actions that do not fit the batched action space (nothing is
                stepped then).
            InvalidAction: with ``check_actions``, actions outside the action space (nothing is
                stepped then); the message names the envs.
        """
        self._assert_is_running()
        self._assert_idle("step_async")
        if not self._all_reset:
            check_not_before_reset(self._was_reset)
        if self.autoreset_mode is AutoresetMode.DISABLED and self._ended.any():
            raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=int(np.argmax(self._ended))))
        payload = self._write_actions(actions, None)
        workers = list(range(self.num_workers))
        self._prepare(workers)
        self._discard_pool()
        if not self._mask_all:
            self._views.step_mask[:] = True
            self._mask_all = True
        for k in workers:
            self._post(k, Command.STEP, payload)
        self._pending_workers = workers
        self._state = AsyncState.WAITING_STEP

    def step_wait(
        self, timeout: float | None = None
    ) -> tuple[
        ObsType,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Wait for :meth:`step_async` and return the batched step results (see :meth:`step`).

        Raises:
            NoAsyncCallError: no :meth:`step_async` pending.
            WaitTimeout: the timeout elapsed; late results are discarded, never returned later.
            WorkerDied: a worker process died (``on_worker_failure="raise"``).
            Exception: the exception an env raised (its own type, ``__cause__`` the remote
                traceback). The envs after it in the same worker were not stepped; ``reset()``
                brings the vector env back to a known state.

        With ``on_worker_failure="restart"``, a worker that died, or that did not finish within
        ``timeout`` (default :attr:`step_timeout`), is killed and replaced: its envs are rebuilt
        from ``env_fns`` and reset with :func:`restart_seed` seeds, while the other workers' envs
        are stepped as usual. For this step the restarted envs report their reset observation,
        reward ``0``, ``terminated=False``, ``truncated=True``, their reset info and
        ``infos["worker_restarted"]`` (a bool array with the mask ``infos["_worker_restarted"]``,
        Gymnasium's info layout). The truncation follows the autoreset mode: ``NEXT_STEP`` — the
        next step of those envs is an autoreset step (action ignored, a new reset observation,
        reward 0); ``DISABLED`` — they must be reset (``reset_mask``) before they are stepped
        again; ``SAME_STEP`` — they have been reset already (no ``final_obs`` for them: their last
        observation died with the worker).
        """
        self._assert_is_running()
        if self._state is not AsyncState.WAITING_STEP:
            raise error.NoAsyncCallError(
                NO_ASYNC_MSG.format(method="step_wait", partner="step_async"),
                AsyncState.WAITING_STEP.value,
            )
        if timeout is None:
            timeout = self.step_timeout
        replies = self._gather("step_wait", timeout, restart_hung=True)
        infos = self._merge(replies) if replies else {}
        views = self._views
        if self._restarted_now or self._restarted_late:
            for k in self._restarted_now:
                a, b = self._slices[k]
                views.rewards[a:b] = 0.0
                views.terminated[a:b] = False
                views.truncated[a:b] = True
            infos = self._flag_restarts(infos)
        terminated, truncated = views.terminated.copy(), views.truncated.copy()
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended |= terminated | truncated
        return self._observations_out(), views.rewards.copy(), terminated, truncated, infos

    # --- EnvPool-style asynchronous batches ------------------------------------------------------
    def send(self, actions: Any, env_ids: Any = None) -> None:
        """Step the envs ``env_ids`` with ``actions`` without waiting (EnvPool's ``send``).

        Each worker steps the listed envs of its slice; an env whose worker is still busy is
        queued and starts when that worker finishes. Collect results with :meth:`recv`.

        Args:
            actions: a batch of ``len(env_ids)`` actions, in the order of ``env_ids``.
            env_ids: env indices not in flight; ``None``: the ids returned by the last
                :meth:`recv` (all envs before the first one).

        Raises:
            ValueError: bad ``env_ids`` or actions (nothing is sent then).
        """
        self._assert_is_running()
        self._assert_idle("send")
        if env_ids is None:
            ids = (
                np.arange(self.num_envs, dtype=np.intp)
                if self._last_recv is None
                else self._last_recv
            )
        else:
            ids = np.asarray(env_ids)
            if ids.ndim == 0:
                ids = ids.reshape(1)
        if (
            ids.ndim != 1
            or ids.size == 0
            or not np.issubdtype(ids.dtype, np.integer)
            or ids.min() < 0
            or ids.max() >= self.num_envs
            or np.unique(ids).size != ids.size
            or (self._env_state[ids] == _RUNNING).any()
        ):
            raise ValueError(ENV_IDS_MSG.format(self.num_envs, env_ids))
        ids = ids.astype(np.intp)
        if not self._all_reset:
            check_not_before_reset(self._was_reset, ids)
        if self.autoreset_mode is AutoresetMode.DISABLED and self._ended[ids].any():
            first = int(ids[np.argmax(self._ended[ids])])
            raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=first))
        payload = self._write_actions(actions, ids)
        self._last_recv = None
        # Results not yet received for these envs are dropped: they are being stepped again.
        for i in ids.tolist():
            if self._env_state[i] == _READY:
                self._ready.remove(i)
                self._pool_infos.pop(i, None)
        self._env_state[ids] = _RUNNING
        by_worker: dict[int, list[int]] = {}
        for i in ids.tolist():
            by_worker.setdefault(int(self._worker_of_env[i]), []).append(i)
        for k, env_list in by_worker.items():
            if self._outstanding[k]:
                self._queued.setdefault(k, []).extend(env_list)
                if payload is not None:
                    self._queued_payload.update({i: payload[i] for i in env_list})
            else:
                self._dispatch_subset(k, env_list, payload)

    def _dispatch_subset(self, k: int, env_list: list[int], payload: dict[int, Any] | None) -> None:
        a, b = self._slices[k]
        mask = self._views.step_mask
        mask[a:b] = False
        mask[env_list] = True
        self._mask_all = False
        self._post(k, Command.STEP, payload)

    def recv(
        self, timeout: float | None = None
    ) -> tuple[
        Any,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
        npt.NDArray[np.intp],
    ]:
        """Wait for the first ``batch_size`` envs to finish (EnvPool's ``recv``).

        Returns ``(observations, rewards, terminations, truncations, infos, env_ids)`` for the
        envs ``env_ids`` (ascending); fewer than ``batch_size`` only when fewer are in flight.
        Envs finish a whole worker at a time. When ``env_ids`` are contiguous and ``copy=False``
        the observations are views of the shared buffers (zero-copy).

        Raises:
            NoAsyncCallError: nothing was sent.
            WaitTimeout: no batch was complete in time (what finished stays ready for later).
        """
        self._assert_is_running()
        running = self._env_state == _RUNNING
        if not running.any() and not self._ready:
            raise error.NoAsyncCallError(NOTHING_IN_FLIGHT_MSG, "recv")
        deadline = None if timeout is None else time.monotonic() + timeout
        restart = self.on_worker_failure == "restart"
        while len(self._ready) < self.batch_size and (self._env_state == _RUNNING).any():
            busy = [k for k in range(self.num_workers) if self._outstanding[k]]
            assert busy, "envs in flight without a busy worker"
            failures: list[int] | None = [] if restart else None
            # In restart mode a worker busy for longer than step_timeout is hung: wake up when the
            # earliest busy worker reaches that point, to replace it.
            hung_at = None
            if restart and self.step_timeout is not None:
                hung_at = min(self._posted_at[k] for k in busy) + self.step_timeout
            wait_until = deadline if hung_at is None else min(hung_at, deadline or hung_at)
            finished = self._wait_done(
                busy,
                wait_until,
                need=1,
                method="recv",
                timeout=timeout,
                failures=failures,
                restart_hung=hung_at is not None,
            )
            if failures:
                failures[:] = self._dead_or_hung(failures, finished)
            if (
                not finished
                and not failures
                and deadline is not None
                and time.monotonic() >= deadline
            ):
                envs = np.flatnonzero(self._env_state == _RUNNING).tolist()
                raise error.WaitTimeout(
                    TIMEOUT_MSG.format(method="recv", timeout=timeout, workers=busy, envs=envs)
                )
            for k in finished:
                try:
                    self._collect_pool(k)
                except error.WorkerDied:
                    if failures is None:
                        raise
                    self._broken = None  # set by _died; the worker is replaced below
                    failures.append(k)
            for k in failures or []:
                self._restart_pool_worker(k)
        take = sorted(self._ready[: self.batch_size])
        del self._ready[: self.batch_size]
        ids = np.asarray(take, dtype=np.intp)
        self._env_state[ids] = _IDLE
        self._last_recv = ids
        infos: dict[str, Any] = {}
        for i in take:
            info = self._pool_infos.pop(i, None)
            if info:
                infos = self._add_info(infos, info, i)
        infos = _select_info(infos, ids)
        contiguous = take == list(range(take[0], take[0] + len(take)))
        selector: Any = slice(take[0], take[0] + len(take)) if contiguous else ids
        if self._obs_in_shm:
            obs = _select_tree(self.observations, selector)
            if self.copy and contiguous:
                obs = _copy_tree(obs)
        else:
            obs = concatenate(
                self.single_observation_space,
                [self._last_obs[i] for i in take],
                create_empty_array(self.single_observation_space, n=len(take), fn=np.zeros),
            )
        views = self._views
        terminated, truncated = views.terminated[ids], views.truncated[ids]
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended[ids] |= terminated | truncated
        return obs, views.rewards[ids], terminated, truncated, infos, ids

    def _dead_or_hung(self, candidates: list[int], finished: list[int]) -> list[int]:
        """The workers of ``candidates`` to replace: dead ones, and those busy with their command
        for at least ``step_timeout`` (the others were only still running at a wake-up)."""
        now = time.monotonic()
        step_timeout = self.step_timeout
        return [
            k
            for k in dict.fromkeys(candidates)
            if k not in finished
            and (
                self.processes[k].exitcode is not None
                or (step_timeout is not None and now - self._posted_at[k] >= step_timeout)
            )
        ]

    def _collect_pool(self, k: int) -> None:
        reply = self._take_reply(k)
        self._outstanding[k] = 0
        a, b = self._slices[k]
        stepped = [i for i in range(a, b) if self._env_state[i] == _RUNNING]
        if reply is not None:
            if reply.observations is not None:
                for i, obs in reply.observations:
                    self._last_obs[i] = obs
            for i, info in reply.infos:
                self._pool_infos[i] = info
        queued = self._queued.pop(k, [])
        # Envs queued while the worker ran are still RUNNING but were not stepped yet.
        done_now = [i for i in stepped if i not in queued]
        for i in done_now:
            self._env_state[i] = _READY
        self._ready.extend(done_now)
        if reply is not None and reply.error is not None:
            raise self._rebuild(reply.error, k)
        if queued:
            payload = None
            if not self._actions_in_shm:
                payload = {i: self._queued_payload.pop(i) for i in queued}
            self._dispatch_subset(k, queued, payload)

    def _restart_pool_worker(self, k: int) -> None:
        """Replace worker ``k`` during :meth:`recv`; its envs in flight (or ready, not yet
        received) come back as restarted: reset observation, reward 0, ``truncated=True`` and
        ``info["worker_restarted"]``. Its idle envs are reset too, with an autoreset pending."""
        a, b = self._slices[k]
        self._queued.pop(k, None)
        report = [i for i in range(a, b) if self._env_state[i] != _IDLE]
        for i in report:
            if self._env_state[i] == _READY:
                self._ready.remove(i)
        reply = self._restart_worker(k, self._restart_seeds(k), self._pending_after_restart())
        reset_infos: dict[int, dict[str, Any]] = {}
        if reply is not None:
            if reply.observations is not None:
                for i, obs in reply.observations:
                    self._last_obs[i] = obs
            reset_infos = dict(reply.infos)
        views = self._views
        for i in report:
            views.rewards[i] = 0.0
            views.terminated[i] = False
            views.truncated[i] = True
            self._pool_infos[i] = {**reset_infos.get(i, {}), "worker_restarted": True}
            self._env_state[i] = _READY
            self._ready.append(i)

    def _discard_pool(self) -> None:
        self._env_state[:] = _IDLE
        self._ready.clear()
        self._pool_infos.clear()
        self._last_recv = None

    # --- call / attributes / render --------------------------------------------------------------
    def call(
        self, name: str, *args: Any, indices: int | Sequence[int] | None = None, **kwargs: Any
    ) -> tuple[Any, ...]:
        """Call method ``name`` (or read attribute ``name``) of each sub-environment.

        Args:
            name: the method or attribute.
            *args: positional arguments of the call.
            indices: a vecgym addition: only these envs (results in that order); consumed here.
            **kwargs: keyword arguments of the call.

        Returns:
            One result per env.
        """
        self.call_async(name, *args, indices=indices, **kwargs)
        return self.call_wait()

    def render(self) -> tuple[RenderFrame, ...] | None:
        """The frames rendered by every sub-environment (``call("render")``)."""
        return self.call("render")

    def call_async(
        self, name: str, *args: Any, indices: int | Sequence[int] | None = None, **kwargs: Any
    ) -> None:
        """Start :meth:`call`; collect the results with :meth:`call_wait`."""
        self._assert_is_running()
        self._assert_idle("call_async")
        selected = normalize_indices(indices, self.num_envs)
        by_worker = self._group(selected)
        self._prepare(list(by_worker))
        for k, env_list in by_worker.items():
            self._post(k, Command.CALL, (env_list, name, args, kwargs))
        self._call_order = selected
        self._pending_workers = list(by_worker)
        self._state = AsyncState.WAITING_CALL

    def call_wait(self, timeout: float | None = None) -> tuple[Any, ...]:
        """Wait for :meth:`call_async`; one result per selected env, in the selected order.

        Raises:
            NoAsyncCallError: no :meth:`call_async` pending.
            WaitTimeout: the timeout elapsed (late results are discarded).
        """
        self._assert_is_running()
        if self._state is not AsyncState.WAITING_CALL:
            raise error.NoAsyncCallError(
                NO_ASYNC_MSG.format(method="call_wait", partner="call_async"),
                AsyncState.WAITING_CALL.value,
            )
        replies = self._gather("call_wait", timeout)
        results: dict[int, Any] = {}
        for k, reply in replies:
            assert reply is not None
            assert reply.results is not None
            env_list = self._group(self._call_order)[k]
            for i, value in zip(env_list, reply.results, strict=False):
                results[i] = value
        return tuple(results[i] for i in self._call_order)

    def get_attr(self, name: str, *, indices: int | Sequence[int] | None = None) -> tuple[Any, ...]:
        """The attribute ``name`` of each sub-environment (Gymnasium's async ``get_attr``: a
        callable attribute is called)."""
        return self.call(name, indices=indices)

    def set_attr(
        self, name: str, values: Any, *, indices: int | Sequence[int] | None = None
    ) -> None:
        """Set attribute ``name`` of the sub-environments.

        Args:
            name: the attribute.
            values: one value per selected env (a list or tuple), or one value for all.
            indices: a vecgym addition: only these envs; ``None`` for all.

        Raises:
            ValueError: a list or tuple of the wrong length.
        """
        self._assert_is_running()
        selected = normalize_indices(indices, self.num_envs)
        if not isinstance(values, (list, tuple)):
            values = [values] * len(selected)
        if len(values) != len(selected):
            raise ValueError(SET_ATTR_LENGTH_MSG.format(len(values), len(selected)))
        self._assert_idle("set_attr")
        by_worker = self._group(selected)
        value_of = dict(zip(selected, values, strict=False))
        self._prepare(list(by_worker))
        for k, env_list in by_worker.items():
            self._post(k, Command.SET_ATTR, (env_list, name, [value_of[i] for i in env_list]))
        self._pending_workers = list(by_worker)
        self._state = AsyncState.WAITING_CALL
        self._gather("set_attr", None)

    def _group(self, selected: list[int]) -> dict[int, list[int]]:
        groups: dict[int, list[int]] = {}
        for i in selected:
            groups.setdefault(int(self._worker_of_env[i]), []).append(i)
        return groups

    # --- protocol helpers ------------------------------------------------------------------------
    def _assert_is_running(self) -> None:
        if self.closed:
            raise error.ClosedEnvironmentError(CLOSED_MSG.format(type(self).__name__))
        if self._broken is not None:
            raise error.WorkerDied(BROKEN_MSG.format(self._broken))

    def _assert_idle(self, method: str) -> None:
        if self._state is not AsyncState.DEFAULT:
            raise error.AlreadyPendingCallError(
                PENDING_MSG.format(method=method, pending=self._state.value),
                str(self._state.value),
            )
        if method != "send" and (self._env_state == _RUNNING).any():
            raise error.AlreadyPendingCallError(POOL_BUSY_MSG.format(method), "send")

    def _write_actions(
        self, actions: Any, ids: npt.NDArray[np.intp] | None
    ) -> dict[int, Any] | None:
        """Check the actions and put them where the workers read them.

        Returns:
            ``None`` when the actions went into shared memory, else ``{env_index: action}`` for
            the pickled request.
        """
        count = self.num_envs if ids is None else len(ids)
        if not self._actions_in_shm:
            items = list(
                iterate(
                    self.action_space
                    if ids is None
                    else batch_space(self.single_action_space, count),
                    actions,
                )
            )
            if len(items) != count:
                raise ValueError(ACTION_COUNT_MSG.format(expected=count, got=len(items)))
            targets = range(self.num_envs) if ids is None else ids.tolist()
            if self._action_check is not None:
                self._action_check.check_items(items, None if ids is None else ids.tolist())
            return dict(zip(targets, items, strict=False))
        arrays: list[np.ndarray] = []
        self._check_action_tree(actions, self._views.actions, count, arrays)
        if self._action_check is not None:
            self._action_check.check_leaves(arrays, None if ids is None else ids.tolist())
        rows: Any = slice(None) if ids is None else ids
        for leaf, value in zip(self._views.action_leaves, arrays, strict=False):
            leaf[rows] = value
        return None

    def _check_action_tree(self, value: Any, views: Any, count: int, out: list[np.ndarray]) -> None:
        if isinstance(views, np.ndarray):
            array = value if isinstance(value, np.ndarray) else np.asarray(value)
            expected = (count, *views.shape[1:])
            if array.shape != expected:
                raise ValueError(
                    ACTION_SHAPE_MSG.format(expected=expected, count=count, got=array.shape)
                )
            if array.dtype != views.dtype and not np.can_cast(
                array.dtype, views.dtype, casting="same_kind"
            ):
                raise TypeError(ACTION_DTYPE_MSG.format(expected=views.dtype, got=array.dtype))
            out.append(array)
        elif isinstance(views, dict):
            if not isinstance(value, dict) or set(value) != set(views):
                raise TypeError(ACTION_STRUCTURE_MSG.format(expected="dict", got=value))
            for key, sub in views.items():
                self._check_action_tree(value[key], sub, count, out)
        else:
            if not isinstance(value, (tuple, list)) or len(value) != len(views):
                raise TypeError(ACTION_STRUCTURE_MSG.format(expected="tuple", got=value))
            for item, sub in zip(value, views, strict=False):
                self._check_action_tree(item, sub, count, out)

    def _prepare(self, workers: list[int]) -> None:
        """Wait for workers still busy with a command whose ``*_wait`` timed out (discarding it).

        In restart mode a late worker that dies (or outlives ``step_timeout``) meanwhile is
        replaced; its envs are reported with ``worker_restarted`` by the next result.
        """
        late = [k for k in workers if self._outstanding[k]]
        if not late:
            return
        restart = self.on_worker_failure == "restart"
        failures: list[int] | None = [] if restart else None
        # Bounded: in restart mode by step_timeout (then the worker is replaced), else by
        # LATE_WAIT_S (then WaitTimeout: nothing hangs on a worker that never finishes).
        limit = self.step_timeout if restart else LATE_WAIT_S
        deadline = None if limit is None else time.monotonic() + limit
        try:
            finished = self._wait_done(
                late,
                deadline,
                need=len(late),
                method="",
                timeout=limit,
                failures=failures,
                restart_hung=True,
            )
        except error.WaitTimeout:
            envs = [i for k in late for i in range(*self._slices[k])]
            raise error.WaitTimeout(
                LATE_TIMEOUT_MSG.format(workers=late, envs=envs, timeout=limit)
            ) from None
        for k in finished:
            try:
                self._take_reply(k)
            except error.WorkerDied:
                if failures is None:
                    raise
                self._broken = None  # set by _died; the worker is replaced below
                failures.append(k)
                continue
            self._outstanding[k] = 0
        for k in failures or []:
            self._restart_worker(k, self._restart_seeds(k), self._pending_after_restart())
            self._restarted_late.append(k)

    def _post(self, k: int, command: Command, payload: Any) -> None:
        self._seq += 1
        seq = self._seq
        self._posted_at[k] = time.monotonic()
        self._views.command[k] = pack_command(seq, command)
        self._wake[k].release()
        self._outstanding[k] = seq
        # CLOSE carries nothing and the worker exits without reading its pipe: sending it a
        # request could meet a closed pipe. Every other command's request is read before the
        # worker can exit, so a send can only fail on a dead worker.
        if command is not Command.CLOSE and (command is not Command.STEP or payload is not None):
            conn = self.parent_pipes[k]
            assert conn is not None
            try:
                conn.send(Request(seq, command, payload))
            except (BrokenPipeError, OSError):
                if self.on_worker_failure != "restart":
                    raise self._died(k) from None
                # restart mode: the wait finds the dead worker through its sentinel and replaces it

    def _wait_done(
        self,
        workers: list[int],
        deadline: float | None,
        *,
        need: int,
        method: str,
        timeout: float | None,
        failures: list[int] | None = None,
        restart_hung: bool = False,
    ) -> list[int]:
        """Wait until ``need`` of ``workers`` have finished their outstanding command.

        A dead worker raises :class:`~vecgym.error.WorkerDied` and the deadline
        :class:`~vecgym.error.WaitTimeout`, unless ``failures`` is given: then dead workers (and,
        with ``restart_hung``, those still busy at the deadline) are appended to it instead and
        no longer waited for. Sentinels are only looked at when a wait slice times out.
        """
        done_words = self._views.done
        outstanding = self._outstanding
        pending = list(workers)
        finished: list[int] = []
        started = time.perf_counter()
        # Spin only while replies have been arriving within the spin window: when the workers are
        # busy for longer (the cores filled with work), the parent blocks at once.
        spin_s = self._parent_spin_s if self._recent_wait_s <= self._parent_spin_s else 0.0
        while True:
            for k in pending[:]:
                if is_done(int(done_words[k]), outstanding[k]):
                    pending.remove(k)
                    finished.append(k)
            if len(finished) >= need or not pending:
                waited = time.perf_counter() - started
                self._recent_wait_s += WAIT_AVERAGING * (waited - self._recent_wait_s)
                return finished
            if spin_s > 0.0:
                end = time.perf_counter() + spin_s
                while time.perf_counter() < end:
                    if any(is_done(int(done_words[k]), outstanding[k]) for k in pending):
                        break
                    yield_cpu()
                else:
                    spin_s = 0.0  # spun once in vain: block from now on
                if any(is_done(int(done_words[k]), outstanding[k]) for k in pending):
                    continue
            slice_s = WAIT_SLICE_S
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    if failures is not None and restart_hung:
                        failures.extend(pending)
                        return finished
                    envs = [i for k in pending for i in range(*self._slices[k])]
                    raise error.WaitTimeout(
                        TIMEOUT_MSG.format(
                            method=method, timeout=timeout, workers=pending, envs=envs
                        )
                    )
                slice_s = min(slice_s, remaining)
            if not self._done.acquire(True, slice_s):
                for k in pending[:]:
                    if self.processes[k].exitcode is not None and (
                        not is_done(int(done_words[k]), outstanding[k])
                    ):
                        if failures is None:
                            raise self._died(k)
                        pending.remove(k)
                        failures.append(k)
                if not pending:
                    return finished

    def _take_reply(self, k: int) -> Reply | None:
        """The reply of worker ``k`` to its outstanding command, if its done word announced one."""
        seq, has_reply = unpack_done(int(self._views.done[k]))
        if not has_reply:
            return None
        conn = self.parent_pipes[k]
        assert conn is not None
        while True:
            ready = wait_connections([conn, self.processes[k].sentinel], None)
            if conn in ready or conn.poll():
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    raise self._died(k) from None
                if isinstance(message, Reply) and message.seq == seq:
                    return message
                continue  # a late reply to a command whose wait timed out
            raise self._died(k)

    def _gather(
        self, method: str, timeout: float | None, *, restart_hung: bool = False
    ) -> list[tuple[int, Reply | None]]:
        """Collect the pending command's completion from every targeted worker.

        In restart mode, workers that died (or, with ``restart_hung``, missed the deadline) are
        replaced; their indices are left in :attr:`_restarted_now` and their reset replies are
        returned with the others.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        workers = self._pending_workers
        failures: list[int] | None = [] if self.on_worker_failure == "restart" else None
        self._restarted_now = []
        try:
            self._wait_done(
                workers,
                deadline,
                need=len(workers),
                method=method,
                timeout=timeout,
                failures=failures,
                restart_hung=restart_hung,
            )
        except error.WaitTimeout:
            self._state = AsyncState.DEFAULT
            self._pending_workers = []
            raise
        except error.WorkerDied:
            self._state = AsyncState.DEFAULT
            raise
        self._state = AsyncState.DEFAULT
        self._pending_workers = []
        replies: list[tuple[int, Reply | None]] = []
        for k in sorted(workers):
            if failures is not None and k in failures:
                continue
            try:
                reply = self._take_reply(k)
            except error.WorkerDied:
                if failures is None:
                    raise
                self._broken = None  # set by _died; the worker is replaced below
                failures.append(k)
                continue
            self._outstanding[k] = 0
            replies.append((k, reply))
        if failures:
            replies.extend(self._recover(sorted(set(failures)), method))
            replies.sort(key=lambda item: item[0])
        first_error = next(
            ((k, reply.error) for k, reply in replies if reply is not None and reply.error),
            None,
        )
        if first_error is not None:
            raise self._rebuild(first_error[1], first_error[0])
        return [(k, reply) for k, reply in replies if reply is not None]

    def _merge(self, replies: list[tuple[int, Reply | None]]) -> dict[str, Any]:
        """Fold the replies' observations into the batch and their infos into one dict."""
        infos: dict[str, Any] = {}
        changed = False
        for _, reply in replies:
            assert reply is not None
            if reply.observations:
                for i, obs in reply.observations:
                    self._last_obs[i] = obs
                changed = True
            for i, info in reply.infos:
                infos = self._add_info(infos, info, i)
        if changed or (not self._obs_in_shm and replies):
            self.observations = concatenate(
                self.single_observation_space, self._last_obs, self.observations
            )
        return infos

    # --- worker restart --------------------------------------------------------------------------
    def _recover(self, failed: list[int], method: str) -> list[tuple[int, Reply | None]]:
        """Replace the ``failed`` workers (restart mode); their reset replies, by worker."""
        replies: list[tuple[int, Reply | None]] = []
        lost: error.WorkerDied | None = None
        for k in failed:
            a, b = self._slices[k]
            died = self._death_error(k) if self.processes[k].exitcode is not None else None
            seeds = self._restart_seeds(k)
            pending = self._pending_after_restart()
            if method == "reset_wait" and self._reset_request is not None:
                wanted, _, mask = self._reset_request
                seeds = [wanted[i] if mask[i] else seeds[i - a] for i in range(a, b)]
                pending = False
            replies.append((k, self._restart_worker(k, seeds, pending)))
            self._restarted_now.append(k)
            if died is not None and lost is None and method in ("call_wait", "set_attr"):
                lost = error.WorkerDied(
                    RESTARTED_DURING_MSG.format(
                        died=str(died), envs=list(range(a, b)), method=method.split("_")[0]
                    ),
                    worker=k,
                    env_indices=tuple(range(a, b)),
                    exitcode=died.exitcode,
                )
        if lost is not None:
            raise lost
        return replies

    def _restart_seeds(self, k: int) -> list[int | None]:
        """The :func:`restart_seed` of each env of worker ``k`` for its next restart."""
        restart = self._restarts[k] + 1
        return [
            restart_seed(self._last_seeds[i], i, restart, self.restart_entropy)
            for i in range(*self._slices[k])
        ]

    def _pending_after_restart(self) -> bool:
        """Whether restarted envs are left with an autoreset pending (as after a truncation)."""
        return self.autoreset_mode is not AutoresetMode.SAME_STEP

    def _restart_worker(self, k: int, seeds: list[int | None], pending: bool) -> Reply | None:
        """Kill worker ``k`` if needed, start a new one, attach it and reset its envs."""
        old = self.processes[k]
        with contextlib.suppress(Exception):
            if old.exitcode is None:
                old.kill()
            old.join(5.0)
        conn = self.parent_pipes[k]
        with contextlib.suppress(Exception):
            if conn is not None:
                conn.close()
        self._restarts[k] += 1
        # A fresh wake-up semaphore: the old one may hold a token the dead worker never took.
        self._wake[k] = self._ctx.Semaphore(0)
        self._views.command[k] = 0
        self._views.done[k] = 0
        self._outstanding[k] = 0
        try:
            self._spawn(k)
            hello = self._receive_startup(k)
            if hello.error is not None:
                raise self._rebuild(hello.error, k)
            self._send_attach(k)
            self._receive_attached(k)
            a, b = self._slices[k]
            self._post(k, Command.RESET, (seeds, None, [True] * (b - a), pending))
            self._wait_done([k], None, need=1, method="restart", timeout=None)
            reply = self._take_reply(k)
        except BaseException as exc:
            if self._broken is None:
                self._broken = exc
            raise
        self._outstanding[k] = 0
        if reply is not None and reply.error is not None:
            self._broken = self._rebuild(reply.error, k)
            raise self._broken
        for i in range(*self._slices[k]):
            self._was_reset[i] = True
        return reply

    def _flag_restarts(self, infos: dict[str, Any]) -> dict[str, Any]:
        """Add ``worker_restarted`` (Gymnasium's info layout) for the envs restarted just now."""
        late, self._restarted_late = self._restarted_late, []
        for k in [*self._restarted_now, *late]:
            for i in range(*self._slices[k]):
                infos = self._add_info(infos, {"worker_restarted": True}, i)
        return infos

    @property
    def restart_count(self) -> int:
        """How many worker restarts happened (``on_worker_failure="restart"``)."""
        return sum(self._restarts)

    def worker_health(self) -> list[dict[str, Any]]:
        """One dict per worker: ``worker``, ``pid``, ``alive``, ``env_indices``, ``restarts``,
        ``cpu_percent`` (psutil's, since the previous call; 0.0 on the first call after a
        worker started) and ``rss`` (resident memory in bytes; 0 for a dead worker)."""
        import psutil

        report: list[dict[str, Any]] = []
        for k, process in enumerate(self.processes):
            alive = _alive(process)
            cpu, rss = 0.0, 0
            if alive:
                try:
                    handle = self._health[k]
                    if handle is None or handle.pid != process.pid:
                        handle = self._health[k] = psutil.Process(process.pid)
                    cpu = handle.cpu_percent(interval=None)
                    rss = handle.memory_info().rss
                except psutil.Error:
                    alive = False
            report.append(
                {
                    "worker": k,
                    "pid": None if process is None else process.pid,
                    "alive": alive,
                    "env_indices": tuple(range(*self._slices[k])),
                    "restarts": self._restarts[k],
                    "cpu_percent": cpu,
                    "rss": rss,
                }
            )
        return report

    def _observations_out(self) -> Any:
        return _copy_tree(self.observations) if self.copy else self.observations

    # --- errors ----------------------------------------------------------------------------------
    def _death_error(self, k: int) -> error.WorkerDied:
        """The error describing the death of worker ``k`` (no side effect)."""
        process = self.processes[k]
        process.join(0.5)
        a, b = self._slices[k]
        how, causes = _describe_exit(process.exitcode)
        return error.WorkerDied(
            WORKER_DIED_MSG.format(
                worker=k, pid=process.pid, envs=list(range(a, b)), how=how, causes=causes
            ),
            worker=k,
            env_indices=tuple(range(a, b)),
            exitcode=process.exitcode,
        )

    def _died(self, k: int) -> error.WorkerDied:
        """The death error of worker ``k``; the vector env is unusable from now on."""
        exc = self._death_error(k)
        self._broken = exc
        self._state = AsyncState.DEFAULT
        return exc

    def _rebuild(self, remote: RemoteError, k: int) -> BaseException:
        """The exception to raise in the parent for ``remote`` (worker ``k``)."""
        exc: BaseException | None = None
        if remote.pickled is not None:
            try:
                exc = pickle.loads(remote.pickled)
            except Exception:
                exc = None
        if exc is not None:
            if exc.args and isinstance(exc.args[0], str):
                exc.args = (
                    f"{exc.args[0]} ({REMOTE_NOTE.format(worker=k, env=remote.env_index)})",
                    *exc.args[1:],
                )
            if hasattr(exc, "add_note"):
                exc.add_note(REMOTE_NOTE.format(worker=k, env=remote.env_index))
        else:
            exc = error.WorkerError(
                WORKER_ERROR_MSG.format(
                    type_name=remote.type_name,
                    message=remote.message,
                    worker=k,
                    env=remote.env_index,
                ),
                worker=k,
                env_index=remote.env_index,
                type_name=remote.type_name,
                remote_traceback=remote.traceback_text,
            )
        exc.__cause__ = RemoteTraceback(remote.traceback_text)
        return exc

    # --- closing ---------------------------------------------------------------------------------
    def close_extras(
        self, timeout: float | None = None, terminate: bool = False, **kwargs: Any
    ) -> None:
        """Stop the workers and release the shared memory; never raises, never hangs.

        Args:
            timeout: seconds to wait for the workers to finish and exit (``None``:
                ``CLOSE_TIMEOUT_S``); stragglers are terminated, then killed.
            terminate: terminate the workers at once instead of asking them to close their envs.
        """
        budget = CLOSE_TIMEOUT_S if timeout is None else max(0.0, timeout)
        deadline = time.monotonic() + budget
        try:
            if self._state is not AsyncState.DEFAULT:
                pending, self._state = self._state, AsyncState.DEFAULT
                # a warning escalated to an error (-W error) must not skip the graceful close
                with contextlib.suppress(Exception):
                    logger.warn(CLOSE_PENDING_MSG.format(pending.value))
            if not terminate and hasattr(self, "_views"):
                self._close_gracefully(deadline)
        except Exception:  # close never raises: whatever failed, the workers are stopped below
            pass
        self._stop_processes(deadline if not terminate else time.monotonic())
        for conn in self.parent_pipes:
            try:
                if conn is not None:
                    conn.close()
            except Exception:
                pass
        self.parent_pipes = [None] * len(self.parent_pipes)
        if self._block_fd is not None:
            with contextlib.suppress(Exception):
                os.close(self._block_fd)
            self._block_fd = None
        # Named semaphores (forkserver / spawn) are unlinked when the last reference goes.
        self._wake = []
        self._done = None

    def _close_gracefully(self, deadline: float) -> None:
        live = [k for k, p in enumerate(self.processes) if p is not None and p.exitcode is None]
        if self._broken is not None:  # only ask the idle survivors; the rest get terminated
            for k in live:
                if unpack_done(int(self._views.done[k]))[0] == self._outstanding[k]:
                    self._outstanding[k] = 0
            live = [k for k in live if not self._outstanding[k]]
        late = [k for k in live if self._outstanding[k]]
        if late:
            finished = self._wait_done(late, deadline, need=len(late), method="close", timeout=None)
            for k in finished:
                self._take_reply(k)
                self._outstanding[k] = 0
        for k in live:
            self._post(k, Command.CLOSE, None)
        # a worker that exited before publishing its done word is joined below
        with contextlib.suppress(error.WorkerDied):
            self._wait_done(live, deadline, need=len(live), method="close", timeout=None)

    def _stop_processes(self, deadline: float) -> None:
        for process in self.processes:
            with contextlib.suppress(Exception):
                if process is not None and process.pid is not None:
                    process.join(max(0.0, deadline - time.monotonic()))
        stragglers = [p for p in self.processes if _alive(p)]
        for process in stragglers:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in stragglers:
            try:
                process.join(1.0)
                if _alive(process):
                    process.kill()
                    process.join(1.0)
            except Exception:
                pass

    def __del__(self) -> None:
        """Terminate the workers if the env was never closed; never raises."""
        try:
            if not getattr(self, "closed", True):
                self.close(terminate=True)
        except Exception:
            pass

    def __repr__(self) -> str:
        spec = getattr(self, "spec", None)
        head = f"{spec.id}, " if spec is not None else ""
        return f"AsyncVectorEnv({head}num_envs={self.num_envs})"


def _alive(process: Any) -> bool:
    try:
        return process.pid is not None and process.is_alive()
    except Exception:
        return False
