"""The worker processes of an :class:`~vecgym.vector.AsyncVectorEnv` and the means to talk to them.

A :class:`WorkerPool` owns the processes, their pipes, the wake-up semaphores (one per worker) and
the done semaphore (shared), the shared block and its views, and the sequence numbers. It spawns
workers and runs the attach handshake, posts commands, waits for done words (a bounded spin that
yields, then blocking slices with sentinel checks, see :mod:`vecgym.vector.async_vector_env`),
takes replies and stops the processes. It decides nothing about failures: a dead worker raises
:class:`~vecgym.error.WorkerDied` (or is handed back in ``failures``) and the caller decides.

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
8 CartPole envs run 1.3x faster than with one).

Wake-up primitive, measured on the 2-core development machine (shared with other jobs, so each
figure is the range over repeats; round trip parent -> worker -> parent):

================================================  ==============
pickled ``Pipe`` send/recv                         25 us
semaphore pair, both sides blocking                6-48 us
semaphore pair, waiter spins ~50 us first          0.5-0.9 us
blocking after 100 us of parent work (idle core)   ~60 us
same, worker spinning up to 200 us first           7-21 us
================================================  ==============

What the policy gains, measured on the same machine when it was chosen (best / median of 3 runs
of 1 s, 2 workers, fork):

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
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_connections
from multiprocessing.reduction import send_handle
from typing import Any, cast

from vecgym import error
from vecgym.vector._async.exits import death_error, failed_in_start_up, rebuild_remote_error
from vecgym.vector._async.infos import InfoRegistry
from vecgym.vector._async.local import ParentSlice
from vecgym.vector._async.options import AsyncOptions
from vecgym.vector._async.placement import (
    sigint_held,
    split_slices,
    thread_env_for_start,
    worker_cores,
)
from vecgym.vector._async.protocol import (
    HAS_REPLY,
    Command,
    Hello,
    Reply,
    Request,
    SharedLayout,
    SharedViews,
    create_block,
    is_done,
    pack_command,
    pickle_for_pipe,
    unpack_done,
    yield_cpu,
)
from vecgym.vector._async.registries import CarriedRegistries, carried_registries
from vecgym.vector._async.worker import WorkerConfig, async_worker
from vecgym.vector.utils import CloudpickleWrapper, clear_mpi_env_vars
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["WorkerPool", "WorkerSpec", "alive"]

PARENT_SPIN_S = 100e-6
"""How long the parent spin-yields on the done words before blocking on the done semaphore; it
spins only while the recent waits (a running average) were shorter than this."""
WAIT_AVERAGING = 0.25
"""Weight of the latest wait in the parent's running average of wait times."""
WORKER_SPIN_S = 200e-6
"""How long an idle worker spin-yields on its command word before blocking on its semaphore."""
WAIT_SLICE_S = 0.1
"""Blocking waits are cut into slices this long; worker sentinels are checked between slices."""
CLAIM_EVERY = 4096
"""Waits that found their workers done without taking the done semaphore, after which the parent
takes the tokens those workers left there (see :meth:`WorkerPool.claim_tokens`)."""
_CARRY_INFOS = (Command.STEP, Command.RESET)
"""The commands whose numeric infos may go into shared slots: they hand over a new layout."""
START_FAILURE_GRACE_S = 3.0
"""How long the other workers may take to end by themselves after one failed while starting."""
UNSENDABLE_REQUEST_MSG = (
    "`{command}` sends its arguments to the worker processes pickled (the actions, the reset "
    "options, the arguments of `call`, the values of `set_attr`); it was not sent to worker "
    "{worker} nor to the workers after it"
)
TIMEOUT_MSG = (
    "the call to `{method}` timed out after {timeout} second(s); worker(s) {workers} (envs "
    "{envs}) are still running; their late replies will be discarded"
)


@dataclass
class WorkerSpec:
    """What every worker of a pool is started with."""

    env_fns: Sequence[Callable[[], Any]]
    autoreset_mode: AutoresetMode
    worker: Callable[..., None] | None
    daemon: bool
    threads: int | None
    cores: list[int] | None
    limiter: Any
    owner: str
    """The vector env's class name, for the process names."""
    parent_envs: int = 0
    """Envs of the last slice, stepped by the parent itself (:mod:`vecgym.vector._async.local`)."""


def alive(process: Any) -> bool:
    """Whether ``process`` was started and is still running (never raises)."""
    try:
        return process.pid is not None and process.is_alive()
    except Exception:
        return False


def _parent_create_time() -> float | None:
    try:
        import psutil

        return float(psutil.Process().create_time())
    except Exception:  # pragma: no cover - psutil is a dependency
        return None


class WorkerPool:
    """The worker processes, each owning the env slice ``slices[k]``.

    Args:
        ctx: the ``multiprocessing`` context.
        slices: the env slice of each worker.
        spec: what the workers are started with.
        tolerate_dead_pipe: a command posted to a dead worker is left for the wait to find (the
            restart mode) instead of raising :class:`~vecgym.error.WorkerDied` at once.
    """

    def __init__(
        self, ctx: Any, slices: list[tuple[int, int]], spec: WorkerSpec, tolerate_dead_pipe: bool
    ) -> None:
        count = len(slices)
        self.ctx = ctx
        self.context = str(ctx.get_start_method())
        self.slices = slices
        self.spec = spec
        self.tolerate_dead_pipe = tolerate_dead_pipe
        self.processes: list[Any] = [None] * count
        self.pipes: list[Connection | None] = [None] * count
        self.wake: list[Any] = []
        self.done: Any = None
        self.block_fd: int | None = None
        self.views: SharedViews | None = None
        self.seq = 0
        self.outstanding = [0] * count
        self.posted_at = [0.0] * count  # when each worker was sent its command
        self.parent_spin_s = PARENT_SPIN_S
        self.recent_wait_s = 0.0  # a running average of how long the workers took to reply
        self.unclaimed_waits = 0  # waits since the done semaphore's tokens were last claimed
        self._attach_payload: tuple[Any, ...] | None = None
        self._parent_create_time = _parent_create_time()
        self._health: list[Any] = [None] * count
        self._carried: CarriedRegistries | None = None  # made at the first non-fork start
        #: the shared-memory infos (``_async.infos``), or ``None`` while they are off
        self.info_registry: InfoRegistry | None = None
        self.info_sent = [0] * count  # the info-layout generation each worker was handed
        self._actions_piped = [False] * count  # each worker's ``actions_piped`` flag, as set
        self.actions_piped_any = False  # some flag is set (the usual step's path then stands aside)
        #: the envs the parent steps itself (the last slice), or ``None``
        self.local: ParentSlice | None = None
        self.local_index = count - 1 if spec.parent_envs else -1

    @classmethod
    def create(
        cls,
        options: AsyncOptions,
        env_fns: Sequence[Callable[[], Any]],
        worker: Callable[..., None] | None,
        daemon: bool,
        owner: str,
    ) -> WorkerPool:
        """The (not yet started) pool that the validated ``options`` ask for."""
        ctx = multiprocessing.get_context(options.context)
        spec = WorkerSpec(
            env_fns=env_fns,
            autoreset_mode=options.autoreset_mode,
            worker=worker,
            daemon=daemon,
            threads=options.worker_threads,
            cores=worker_cores(options.num_workers) if options.pin_workers else None,
            limiter=None
            if options.max_concurrency is None
            else ctx.BoundedSemaphore(options.max_concurrency),
            owner=owner,
            parent_envs=options.parent_envs,
        )
        remote = options.num_envs - options.parent_envs
        slices = split_slices(remote, options.num_workers)
        if options.parent_envs:
            slices.append((remote, options.num_envs))
        return cls(ctx, slices, spec, tolerate_dead_pipe=options.on_worker_failure == "restart")

    def envs_of(self, workers: Sequence[int]) -> list[int]:
        """The env indices of ``workers``, in order."""
        return [i for k in workers for i in range(*self.slices[k])]

    # --- start-up ------------------------------------------------------------------------------
    def start(self) -> Hello:
        """Start every worker; worker 0's greeting (its first env's spaces and metadata)."""
        self.done = self.ctx.Semaphore(0)
        self.wake.extend(self.ctx.Semaphore(0) for _ in self.slices)
        remote = [k for k in range(len(self.slices)) if k != self.local_index]
        for k in remote:
            self.spawn(k)
        if self.local_index >= 0:  # built after the workers started: a fork copies none of it
            k = self.local_index
            a, b = self.slices[k]
            spec = self.spec
            self.local = ParentSlice(k, a, spec.env_fns[a:b], spec.autoreset_mode, spec.limiter)
            self.processes[k], self.pipes[k] = self.local.process, cast(Any, self.local.pipe)
        try:
            hellos = [
                self.local.hello
                if k == self.local_index and self.local
                else self.receive_startup(k, first=True)
                for k in range(len(self.slices))
            ]
        except error.WorkerDied as exc:
            if failed_in_start_up(exc.exitcode, self.context):
                self._let_starting_workers_end()
            raise
        for k, hello in enumerate(hellos):
            if hello.error is not None:
                raise rebuild_remote_error(hello.error, k)
        return cast(Hello, hellos[0])

    def _let_starting_workers_end(self) -> None:
        """A worker failed in Python's start-up of a ``spawn`` / ``forkserver`` process (see
        :func:`~vecgym.vector._async.exits.failed_in_start_up`), and the others most likely fail
        the same way: let them end by themselves, up to :data:`START_FAILURE_GRACE_S`, before
        the vector env stops them. One killed while Python's start-up made a named semaphore
        leaves that semaphore's file in ``/dev/shm``."""
        deadline = time.monotonic() + START_FAILURE_GRACE_S
        for process in self.processes:
            if alive(process):
                process.join(max(0.0, deadline - time.monotonic()))

    def spawn(self, k: int) -> None:
        """Start worker ``k`` (with its current wake-up semaphore) and open its pipe."""
        spec = self.spec
        a, b = self.slices[k]
        parent_conn, child_conn = self.ctx.Pipe()
        config = WorkerConfig(
            worker_index=k,
            start=a,
            env_fns=CloudpickleWrapper(cast(Any, list(spec.env_fns[a:b]))),
            autoreset_mode=spec.autoreset_mode,
            parent_pid=os.getpid(),
            spin_s=WORKER_SPIN_S,
            parent_create_time=self._parent_create_time,
            cpu=None if spec.cores is None else spec.cores[k],
            threads=spec.threads,
            limiter=spec.limiter,
            registries=self._registries(),
        )
        process = self.ctx.Process(
            target=spec.worker or async_worker,
            name=f"Worker<{spec.owner}>-{k}",
            args=(
                config,
                child_conn,
                parent_conn if self.context == "fork" else None,
                self.wake[k],
                self.done,
            ),
            daemon=spec.daemon,
        )
        self.pipes[k] = parent_conn
        self.processes[k] = process
        with clear_mpi_env_vars(), thread_env_for_start(self.context, spec.threads), sigint_held():
            process.start()
        child_conn.close()
        self._health[k] = None

    def _registries(self) -> CarriedRegistries | None:
        """The env registries a worker gets at its start: none under ``fork`` (it inherits
        them), else this process's, taken once (a restarted worker gets the same)."""
        if self.context == "fork":
            return None
        if self._carried is None:
            self._carried = carried_registries()
        return self._carried

    def receive_startup(self, k: int, first: bool = False) -> Any:
        """The next start-up message of worker ``k`` (raising WorkerDied if it dies first);
        ``first``: its first message, the Hello."""
        conn = self.pipes[k]
        assert conn is not None
        while True:
            ready = wait_connections([conn, self.processes[k].sentinel], WAIT_SLICE_S)
            if conn in ready:
                try:
                    return conn.recv()
                except (EOFError, OSError):
                    pass
            if ready:
                process = self.processes[k]
                process.join(1.0)
                bootstrap = first and failed_in_start_up(process.exitcode, self.context)
                raise self.join_dead(k, bootstrap=bootstrap)

    def attach(self, layout: SharedLayout, spaces: tuple[Any, ...]) -> SharedViews:
        """Create the shared block of ``layout`` and attach every worker to it.

        Args:
            layout: the planned layout.
            spaces: ``(observation mode, observation space, action space)`` every env must match.
        """
        # The descriptor stays open (until close) so that a restarted worker can map the block.
        self.block_fd, block = create_block(layout.size)
        self.views = layout.views(block)
        self._attach_payload = (layout, *spaces)
        remote = [k for k in range(len(self.slices)) if k != self.local_index]
        for k in remote:
            self._send_attach(k)
        if self.local is not None:
            self.local.attach(layout, self.views, cast(Any, spaces))
        for k in remote:
            self._receive_attached(k)
        return self.views

    def _send_attach(self, k: int) -> None:
        conn = self.pipes[k]
        assert conn is not None
        assert self.block_fd is not None
        self.seq += 1
        conn.send(Request(self.seq, Command.ATTACH, self._attach_payload))
        send_handle(conn, self.block_fd, self.processes[k].pid)

    def _receive_attached(self, k: int) -> None:
        reply = self.receive_startup(k)
        assert isinstance(reply, Reply)
        if reply.error is not None:
            raise rebuild_remote_error(reply.error, k)

    def respawn(self, k: int) -> None:
        """Kill worker ``k`` if needed and start, greet and attach a fresh one in its place."""
        assert k != self.local_index, "the parent's own slice is never replaced"
        old = self.processes[k]
        with contextlib.suppress(Exception):
            if old.exitcode is None:
                old.kill()
            old.join(5.0)
        conn = self.pipes[k]
        with contextlib.suppress(Exception):
            if conn is not None:
                conn.close()
        # A fresh wake-up semaphore: the old one may hold a token the dead worker never took.
        self.wake[k] = self.ctx.Semaphore(0)
        assert self.views is not None
        self.views.command[k] = 0
        self.views.done[k] = 0
        self.views.info_gen[k] = 0
        self.info_sent[k] = 0
        self.views.actions_piped[k] = self._actions_piped[k] = False
        self.actions_piped_any = any(self._actions_piped)
        self.outstanding[k] = 0
        self.spawn(k)
        hello = self.receive_startup(k, first=True)
        if hello.error is not None:
            raise rebuild_remote_error(hello.error, k)
        self._send_attach(k)
        self._receive_attached(k)

    # --- commands ------------------------------------------------------------------------------
    def post(self, k: int, command: Command, payload: Any) -> None:
        """Post ``command`` to worker ``k`` (its request, if any, follows on the pipe).

        Raises:
            TypeError: (or the type pickling raised) the request cannot be pickled (an argument of
                ``call``, a value of ``set_attr``, a reset option): raised before anything is
                posted to worker ``k``.
        """
        assert self.views is not None
        carries_request = command is not Command.CLOSE and (
            command is not Command.STEP or payload is not None
        )
        request = None
        if carries_request and k != self.local_index:
            context = UNSENDABLE_REQUEST_MSG.format(command=command.name.lower(), worker=k)
            request = pickle_for_pipe(Request(self.seq + 1, command, payload), context)
        registry = self.info_registry
        new_layout = (
            command in _CARRY_INFOS
            and registry is not None
            and registry.generation > self.info_sent[k]
        )
        if new_layout:
            assert registry is not None
            # Before the command word: the worker reads it to know that a layout follows.
            self.views.info_gen[k] = registry.generation
        if command is Command.STEP and self.views.action_leaves:
            # Actions in the request although the layout has shared rows for them (a batch that
            # does not fit the rows): flagged before the command word, as the layout above.
            piped = payload is not None
            if piped or self._actions_piped[k]:
                self.views.actions_piped[k] = self._actions_piped[k] = piped
                self.actions_piped_any = any(self._actions_piped)
        seq = self.publish(k, command, time.monotonic())
        if k == self.local_index:
            self.run_local(seq, command, payload, new_layout, carries_request)
            return
        self.wake[k].release()
        # CLOSE carries nothing and the worker exits without reading its pipe: sending it a
        # request could meet a closed pipe. Every other command's request is read before the
        # worker can exit, so a send can only fail on a dead worker.
        if request is not None:
            conn = self.pipes[k]
            assert conn is not None
            try:
                conn.send_bytes(request)
            except (BrokenPipeError, OSError):
                if not self.tolerate_dead_pipe:
                    raise self.join_dead(k) from None
                # the wait finds the dead worker through its sentinel and hands it back
                return
        if new_layout:
            assert registry is not None
            assert registry.fd is not None
            conn = self.pipes[k]
            assert conn is not None
            try:
                conn.send(registry.layout)
                send_handle(conn, registry.fd, self.processes[k].pid)
            except (BrokenPipeError, OSError):
                if not self.tolerate_dead_pipe:
                    raise self.join_dead(k) from None
                return
            self.info_sent[k] = registry.generation

    def publish(self, k: int, command: Command, now: float) -> int:
        """Give worker ``k`` ``command`` under the next sequence number, posted at ``now``: its
        command word and outstanding command (the wake-up, a request or a layout, and the run of
        the parent's slice are the caller's); the sequence number."""
        assert self.views is not None
        self.seq += 1
        self.posted_at[k] = now
        self.views.command[k] = pack_command(self.seq, command)
        self.outstanding[k] = self.seq
        return self.seq

    def run_local(
        self,
        seq: int,
        command: Command,
        payload: Any = None,
        new_layout: bool = False,
        carries_request: bool = False,
    ) -> None:
        """Hand command ``seq`` to the parent's own slice and run it now (after the workers were
        posted theirs, since the slice is the last worker); ``carries_request``: as :meth:`post`
        decided it, the payload goes ahead of the command as a request."""
        local = self.local
        assert local is not None
        pipe = local.pipe
        if carries_request:
            pipe.send(Request(seq, command, payload))
        registry = self.info_registry
        if new_layout and registry is not None and registry.fd is not None:
            pipe.send(registry.layout)
            pipe.send_fd(registry.fd)
            self.info_sent[self.local_index] = registry.generation
        try:
            local.run(seq, command)
        except BaseException:
            self.outstanding[self.local_index] = 0  # interrupted: nothing is left to wait for
            raise

    def finished(self, k: int) -> bool:
        """Whether worker ``k`` published the done word of its outstanding command."""
        assert self.views is not None
        return is_done(int(self.views.done[k]), self.outstanding[k])

    def wait_done(
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
        if need >= len(workers) and all(map(self.finished, workers)):
            # The usual end of a step: everything finished already (a wait of zero).
            self.note_wait(0.0)
            return list(workers)
        pending = list(workers)
        finished: list[int] = []
        started = time.perf_counter()
        spin_s = self.spin_window()
        claimed = False
        while True:
            for k in pending[:]:
                if self.finished(k):
                    pending.remove(k)
                    finished.append(k)
            if len(finished) >= need or not pending:
                self.note_wait(time.perf_counter() - started)
                return finished
            if spin_s > 0.0:
                if self._spin(pending, spin_s):
                    continue
                spin_s = 0.0  # spun once in vain: block from now on
            if not claimed:
                # Block only on tokens of commands finished from now on, or a stale token would
                # end the blocking wait at once (a busy loop, taking the core from a worker).
                # The done words are read again after the claim: a worker that finished just
                # before it left its done word set.
                self.claim_tokens()
                claimed = True
                continue
            slice_s = WAIT_SLICE_S
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    if failures is not None and restart_hung:
                        failures.extend(pending)
                        return finished
                    raise error.WaitTimeout(
                        TIMEOUT_MSG.format(
                            method=method,
                            timeout=timeout,
                            workers=pending,
                            envs=self.envs_of(pending),
                        )
                    )
                slice_s = min(slice_s, remaining)
            if not self.done.acquire(True, slice_s):
                self._hand_back_dead(pending, failures)
                if not pending:
                    return finished

    def spin_window(self) -> float:
        """How long a wait for the workers may spin before it blocks: the spin window while
        replies have been arriving within it, else none (the workers are busy for longer, the
        cores filled with work, and the parent blocks at once)."""
        return self.parent_spin_s if self.recent_wait_s <= self.parent_spin_s else 0.0

    def note_wait(self, waited: float) -> None:
        """Count a wait that ended without a blocking acquire, ``waited`` seconds long: into
        the running average of wait times, and towards the next claim of tokens."""
        self.recent_wait_s += WAIT_AVERAGING * (waited - self.recent_wait_s)
        self._count_unclaimed()

    def _count_unclaimed(self) -> None:
        """Count a wait that took no token; claim the tokens every :data:`CLAIM_EVERY` waits."""
        self.unclaimed_waits += 1
        if self.unclaimed_waits >= CLAIM_EVERY:
            self.claim_tokens()

    def claim_tokens(self) -> None:
        """Take every token the workers left on the done semaphore.

        A worker releases the semaphore each time it finishes a command, and the parent takes a
        token only when it blocks: a wait that finds its workers done (at once, or while
        spinning) leaves their tokens. Unclaimed, they would pile up to the semaphore's limit
        (a worker's release fails after about 2**31 of them, days of fast stepping) and make
        every blocking wait return at once. A wait may claim tokens only where it reads the
        done words again before it blocks (as :meth:`wait_done` does)."""
        self.unclaimed_waits = 0
        acquire = self.done.acquire
        while acquire(False):
            pass

    def _spin(self, pending: list[int], spin_s: float) -> bool:
        """Spin-yield up to ``spin_s`` until one of ``pending`` finished; whether one did."""
        end = time.perf_counter() + spin_s
        while time.perf_counter() < end:
            if any(self.finished(k) for k in pending):
                return True
            yield_cpu()
        return any(self.finished(k) for k in pending)

    def _hand_back_dead(self, pending: list[int], failures: list[int] | None) -> None:
        """Raise for a dead worker of ``pending``, or move it to ``failures`` when given."""
        for k in pending[:]:
            if self.processes[k].exitcode is not None and not self.finished(k):
                if failures is None:
                    raise self.join_dead(k)
                pending.remove(k)
                failures.append(k)

    def take_reply(self, k: int) -> Reply | None:
        """The reply of worker ``k`` to its outstanding command, if its done word announced one."""
        assert self.views is not None
        seq, has_reply = unpack_done(int(self.views.done[k]))
        if not has_reply:
            return None
        if k == self.local_index and self.local is not None:
            return self.local.take_reply(seq)
        conn = self.pipes[k]
        assert conn is not None
        while True:
            ready = wait_connections([conn, self.processes[k].sentinel], None)
            if conn in ready or conn.poll():
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    raise self.join_dead(k) from None
                if isinstance(message, Reply) and message.seq == seq:
                    return message
                continue  # a late reply to a command whose wait timed out
            raise self.join_dead(k)

    def settle_quiet(self, workers: list[int]) -> bool:
        """Mark the finished ``workers`` idle if none of them announced a reply (the usual step,
        whose results are all in shared memory); whether they were. Otherwise nothing changes:
        the caller takes each reply with :meth:`settle`."""
        assert self.views is not None
        done = self.views.done
        for k in workers:  # (a loop: a generator in any() costs a microsecond a step)
            if int(done[k]) & HAS_REPLY:
                return False
        outstanding = self.outstanding
        for k in workers:
            outstanding[k] = 0
        return True

    def settle(self, k: int) -> Reply | None:
        """Take worker ``k``'s reply to its finished command and mark it idle."""
        reply = self.take_reply(k)
        self.outstanding[k] = 0
        return reply

    def join_dead(self, k: int, bootstrap: bool = False) -> error.WorkerDied:
        """Join the dead worker ``k`` briefly (to read its exit code) and describe its death
        (``bootstrap``: see :func:`~vecgym.vector._async.exits.death_error`)."""
        process = self.processes[k]
        process.join(0.5)
        return death_error(k, process, range(*self.slices[k]), bootstrap)

    # --- health and closing --------------------------------------------------------------------
    def health(self, restarts: list[int]) -> list[dict[str, Any]]:
        """One dict per worker (see :meth:`AsyncVectorEnv.worker_health`)."""
        import psutil

        report: list[dict[str, Any]] = []
        for k, process in enumerate(self.processes):
            is_alive = alive(process)
            cpu, rss = 0.0, 0
            if is_alive:
                try:
                    handle = self._health[k]
                    if handle is None or handle.pid != process.pid:
                        handle = self._health[k] = psutil.Process(process.pid)
                    cpu = handle.cpu_percent(interval=None)
                    rss = handle.memory_info().rss
                except psutil.Error:
                    is_alive = False
            report.append(
                {
                    "worker": k,
                    "pid": None if process is None else process.pid,
                    "alive": is_alive,
                    "env_indices": tuple(range(*self.slices[k])),
                    "restarts": restarts[k],
                    "cpu_percent": cpu,
                    "rss": rss,
                }
            )
        return report

    def close_gracefully(self, deadline: float, broken: bool) -> None:
        """Let busy workers finish, then ask every live worker to close its envs and exit.

        With ``broken`` only the idle survivors are asked; the others are stopped by :meth:`stop`.
        """
        if self.views is None:
            return
        live = [k for k, p in enumerate(self.processes) if p is not None and p.exitcode is None]
        if broken:
            for k in live:
                if self.finished(k):
                    self.outstanding[k] = 0
            live = [k for k in live if not self.outstanding[k]]
        late = [k for k in live if self.outstanding[k]]
        if late:
            for k in self.wait_done(late, deadline, need=len(late), method="close", timeout=None):
                self.settle(k)
        for k in live:
            self.post(k, Command.CLOSE, None)
        # a worker that exited before publishing its done word is joined below
        with contextlib.suppress(error.WorkerDied):
            self.wait_done(live, deadline, need=len(live), method="close", timeout=None)

    def stop(self, deadline: float) -> None:
        """Join the processes until ``deadline``, then terminate, then kill; release the rest."""
        for process in self.processes:
            with contextlib.suppress(Exception):
                if process is not None and process.pid is not None:
                    process.join(max(0.0, deadline - time.monotonic()))
        stragglers = [p for p in self.processes if alive(p)]
        for process in stragglers:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in stragglers:
            try:
                process.join(1.0)
                if alive(process):
                    process.kill()
                    process.join(1.0)
            except Exception:
                pass
        for k, conn in enumerate(self.pipes):
            with contextlib.suppress(Exception):
                if conn is not None:
                    conn.close()
            self.pipes[k] = None
        if self.block_fd is not None:
            with contextlib.suppress(Exception):
                os.close(self.block_fd)
            self.block_fd = None
        if self.local is not None:
            self.local.close()
        # Named semaphores (forkserver / spawn) are unlinked when the last reference goes.
        self.wake.clear()
        self.done = None
