"""EnvPool-style asynchronous batches (:meth:`AsyncVectorEnv.send` / :meth:`AsyncVectorEnv.recv`).

Each env is in one :class:`EnvSlot` state: ``IDLE`` (nothing sent), ``RUNNING`` (sent, not yet
stepped or being stepped) or ``READY`` (stepped, waiting for ``recv``). Scheduling granularity is a
worker: an env sent while its worker is busy is queued and dispatched when that worker finishes,
and a worker's envs become ``READY`` together.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.vector._async.batch import select_info
from vecgym.vector._async.exits import rebuild_remote_error
from vecgym.vector._async.infos import HeldInfos, contiguous_rows
from vecgym.vector._async.pool import TIMEOUT_MSG, WorkerPool
from vecgym.vector._async.protocol import Command, pickle_for_pipe
from vecgym.vector._async.supervisor import Supervisor

__all__ = ["EnvSlot", "Scheduler", "mark_running", "select_env_ids"]

ENV_IDS_MSG = "env_ids must be distinct env indices in [0, {}) that are not in flight; got {}"
UNSENDABLE_ACTIONS_MSG = (
    "`send` hands actions outside shared memory to the worker processes pickled; nothing was sent"
)


class EnvSlot(enum.IntEnum):
    """Where an env stands in the ``send`` / ``recv`` cycle."""

    IDLE = 0
    RUNNING = 1
    READY = 2


#: The states as plain ints: numpy compares an array with them without the enum lookups (the
#: per-env enum comparisons made ``send`` / ``recv`` of 64 CartPole envs 4x slower than ``step``)
_RUNNING = int(EnvSlot.RUNNING)
_READY = int(EnvSlot.READY)
_IDLE = int(EnvSlot.IDLE)
#: ``RUNNING`` as the one byte an int8 slot holds: found in the slots' bytes without a temporary
#: array (a third of the cost of ``(slots == RUNNING).any()`` for a few dozen envs)
_RUNNING_BYTE = bytes([_RUNNING])


class Scheduler:
    """The ``send`` / ``recv`` state of every env, and the waits that advance it.

    Args:
        pool: the worker pool (its views must exist).
        supervisor: replaces failed workers in restart mode.
        batch_size: how many envs ``recv`` returns.
        last_obs: each env's latest observation when observations are not in shared memory
            (updated in place).
    """

    def __init__(
        self, pool: WorkerPool, supervisor: Supervisor, batch_size: int, last_obs: list[Any]
    ) -> None:
        num_envs = pool.slices[-1][1]
        self.pool = pool
        self.supervisor = supervisor
        self.num_envs = num_envs
        self.batch_size = batch_size
        self.last_obs = last_obs
        self.worker_of_env = np.concatenate(
            [np.full(b - a, k, dtype=np.intp) for k, (a, b) in enumerate(pool.slices)]
        )
        self.slots = np.zeros(num_envs, dtype=np.int8)
        self.ready: list[int] = []
        self.infos: dict[int, dict[str, Any]] = {}
        self.queued: dict[int, list[int]] = {}
        self.queued_payload: dict[int, Any] = {}
        self.last_recv: npt.NDArray[np.intp] | None = None
        self.mask_all = True
        """Whether every entry of the shared step mask is set (as ``step`` needs it)."""
        self.sent = False
        """Whether a ``send`` happened since the last :meth:`discard` (``in_flight`` is then
        False without looking at the slots: the common ``step``-only loop pays nothing)."""
        registry = pool.info_registry
        self.held = None if registry is None else HeldInfos(registry)
        """Numeric infos of finished envs, held in the shared slots until ``recv`` takes them."""

    def in_flight(self) -> bool:
        """Whether some env was sent and is not yet stepped."""
        return self.sent and _RUNNING_BYTE in self.slots.tobytes()

    def group(self, selected: list[int]) -> dict[int, list[int]]:
        """``selected`` envs grouped by worker (in order of first appearance)."""
        if not len(selected):
            return {}
        envs = np.asarray(selected, dtype=np.intp)
        owners = self.worker_of_env[envs]
        first_owner = int(owners[0])
        if (owners == first_owner).all():  # the usual send: the envs of one worker's batch
            return {first_owner: list(selected)}
        workers, first = np.unique(owners, return_index=True)
        return {
            int(k): envs[owners == k].tolist() for k in workers[np.argsort(first, kind="stable")]
        }

    def select(self, env_ids: Any) -> npt.NDArray[np.intp]:
        """The envs a ``send(actions, env_ids)`` targets (the last ``recv``'s when ``None``).

        Raises:
            ValueError: not distinct env indices, or some env is in flight.
        """
        last = self.last_recv
        if last is None:
            if env_ids is None:
                return np.arange(self.num_envs, dtype=np.intp)
            return select_env_ids(env_ids, None, self.slots == _RUNNING)
        if env_ids is None or (
            type(env_ids) is np.ndarray
            and env_ids.shape == last.shape
            and env_ids.dtype.kind in "iu"
            and bool((env_ids == last).all())
        ):
            # The last recv's envs (the usual send): distinct and in range, and none can be in
            # flight, since a send or a step since that recv would have cleared ``last_recv``.
            return last
        return select_env_ids(env_ids, last, self.slots == _RUNNING)

    def idle(self) -> bool:
        """Whether nothing is left of ``send`` / ``recv`` (no ``send`` since the last
        :meth:`discard`, so nothing in flight, ready or held, and the whole step mask set) and no
        worker is still busy with a command whose wait timed out: the usual state between two
        ``step`` calls."""
        return (
            self.mask_all
            and not (self.sent or self.ready or self.infos)
            and not any(self.pool.outstanding)
        )

    def post_step(self, payload: Any, *, idle: bool) -> list[int]:
        """Post a ``step`` of every env to every worker, the parent's own slice (if any) last,
        after the late workers finished and ``send`` results were forgotten; the workers.

        Args:
            payload: the actions' request, or ``None`` when they are in shared memory.
            idle: :meth:`idle` was true just before (there is nothing late to wait for and the
                step mask is whole).
        """
        workers = list(range(len(self.pool.slices)))
        if not idle:
            self.supervisor.drain_late(workers)
            self.unmask_all()
        self.discard()
        for k, (a, b) in enumerate(self.pool.slices):
            # a pickled request carries the worker's own envs' actions only
            part = None if payload is None else {i: payload[i] for i in range(a, b)}
            self.pool.post(k, Command.STEP, part)
        return workers

    def unmask_all(self) -> None:
        """Set the whole step mask (before a ``step`` of every env)."""
        if not self.mask_all:
            assert self.pool.views is not None
            self.pool.views.step_mask[:] = True
            self.mask_all = True

    def discard(self) -> None:
        """Forget every ``send`` result (a ``step`` or ``reset`` of all envs follows)."""
        self.last_recv = None
        if not (self.sent or self.ready or self.infos):  # nothing sent since: all slots IDLE
            return
        self.slots[:] = _IDLE
        self.sent = False
        self.ready.clear()
        self.infos.clear()
        if self.held is not None:
            self.held.forget(slice(None))

    # --- send ----------------------------------------------------------------------------------
    def send(self, ids: npt.NDArray[np.intp], payload: dict[int, Any] | None) -> None:
        """Start stepping ``ids`` (their actions are written); queue those of busy workers.

        Raises:
            TypeError: (or the type pickling raised) actions outside shared memory that cannot
                be pickled; nothing is sent, and no env is marked in flight.
        """
        if payload is not None:
            pickle_for_pipe(payload, UNSENDABLE_ACTIONS_MSG)  # before any env is marked running
        self.last_recv = None
        mark_running(self.slots, self.ready, self.infos, ids)
        if self.held is not None:
            self.held.forget(ids)
        self.sent = True
        for k, env_list in self.group(ids.tolist()).items():
            # a pickled request carries the worker's own envs' actions only
            part = None if payload is None else {i: payload[i] for i in env_list}
            if self.pool.outstanding[k]:
                self.queued.setdefault(k, []).extend(env_list)
                if part is not None:
                    self.queued_payload.update(part)
            else:
                self._dispatch(k, env_list, part)

    def _dispatch(self, k: int, env_list: list[int], payload: dict[int, Any] | None) -> None:
        a, b = self.pool.slices[k]
        assert self.pool.views is not None
        mask = self.pool.views.step_mask
        mask[a:b] = False
        mask[contiguous_rows(env_list)] = True  # a set of envs: a slice when they are a range
        self.mask_all = False
        self.pool.post(k, Command.STEP, payload)

    # --- recv ----------------------------------------------------------------------------------
    def wait_batch(self, timeout: float | None) -> None:
        """Advance until ``batch_size`` envs are ready (or none is in flight).

        Raises:
            WaitTimeout: no batch was complete in time (what finished stays ready for later).
        """
        pool, supervisor = self.pool, self.supervisor
        deadline = None if timeout is None else time.monotonic() + timeout
        restart = supervisor.restart_mode
        while len(self.ready) < self.batch_size and self.in_flight():
            busy = [k for k in range(len(pool.slices)) if pool.outstanding[k]]
            assert busy, "envs in flight without a busy worker"
            failures: list[int] | None = [] if restart else None
            # In restart mode a worker busy for longer than step_timeout is hung: wake up when the
            # earliest busy worker reaches that point, to replace it.
            hung_at = None
            if restart and supervisor.step_timeout is not None:
                hung_at = min(pool.posted_at[k] for k in busy) + supervisor.step_timeout
            wait_until = deadline if hung_at is None else min(hung_at, deadline or hung_at)
            finished = pool.wait_done(
                busy,
                wait_until,
                need=1,
                method="recv",
                timeout=timeout,
                failures=failures,
                restart_hung=hung_at is not None,
            )
            if failures:
                failures[:] = supervisor.dead_or_hung(failures, finished)
            timed_out = deadline is not None and time.monotonic() >= deadline
            if not finished and not failures and timed_out:
                envs = np.flatnonzero(self.slots == EnvSlot.RUNNING).tolist()
                raise error.WaitTimeout(
                    TIMEOUT_MSG.format(method="recv", timeout=timeout, workers=busy, envs=envs)
                )
            for k in finished:
                try:
                    self._collect(k)
                except error.WorkerDied:
                    if failures is None:
                        raise
                    failures.append(k)
            for k in failures or []:
                self._replace(k)

    def _collect(self, k: int) -> None:
        """Take worker ``k``'s step results; dispatch what was queued for it meanwhile."""
        reply = self.pool.settle(k)
        a, b = self.pool.slices[k]
        states = self.slots[a:b]
        if states.tobytes().count(_RUNNING_BYTE) == b - a:  # the usual batch: the whole slice
            stepped = list(range(a, b))
        else:
            stepped = (np.flatnonzero(states == _RUNNING) + a).tolist()
        if reply is not None:
            if reply.observations is not None:
                for i, obs in reply.observations:
                    self.last_obs[i] = obs
            for i, info in reply.infos:
                self.infos[i] = info
        queued = self.queued.pop(k, [])
        # Envs queued while the worker ran are still RUNNING but were not stepped yet.
        if queued:
            waiting = set(queued)
            done_now = [i for i in stepped if i not in waiting]
        else:
            done_now = stepped
        registry = self.pool.info_registry
        if registry is not None and (reply is None or reply.error is None):
            # Infos the worker wrote into shared memory (_async.infos) stay in its slots until
            # taken (HeldInfos): note their schema ids and the worker's layout generation.
            assert self.pool.views is not None
            assert self.held is not None
            self.held.hold(self.pool.info_sent[k], done_now, self.pool.views.info_schema)
            self.held.hold_finals(self.pool.info_sent[k], done_now, self.pool.views)
            if reply is not None and reply.info_schemas:
                registry.learn(reply.info_schemas)
        if done_now:
            self.slots[contiguous_rows(done_now)] = _READY
        self.ready.extend(done_now)
        if reply is not None and reply.error is not None:
            raise rebuild_remote_error(reply.error, k)
        if queued:
            payload = None
            if self.queued_payload:
                payload = {i: self.queued_payload.pop(i) for i in queued}
            self._dispatch(k, queued, payload)

    def _replace(self, k: int) -> None:
        """Replace worker ``k``; its envs in flight (or ready, not yet received) come back as
        restarted: reset observation, reward 0, ``truncated=True`` and
        ``info["worker_restarted"]``. Its idle envs are reset too, with an autoreset pending."""
        a, b = self.pool.slices[k]
        self.queued.pop(k, None)
        report = [i for i in range(a, b) if self.slots[i] != EnvSlot.IDLE]
        for i in report:
            if self.slots[i] == EnvSlot.READY:
                self.ready.remove(i)
        if self.held is not None:
            self.held.forget(report)
        reply = self.supervisor.replace(k)
        reset_infos: dict[int, dict[str, Any]] = {}
        if reply is not None:
            if reply.observations is not None:
                for i, obs in reply.observations:
                    self.last_obs[i] = obs
            reset_infos = dict(reply.infos)
        views = self.pool.views
        assert views is not None
        for i in report:
            views.rewards[i] = 0.0
            views.terminated[i] = False
            views.truncated[i] = True
            self.infos[i] = {**reset_infos.get(i, {}), "worker_restarted": True}
            self.slots[i] = EnvSlot.READY
            self.ready.append(i)

    def take_infos(
        self, take: list[int], merge: Callable[[list[tuple[int, dict[str, Any]]]], dict[str, Any]]
    ) -> dict[str, Any]:
        """The infos of the envs ``take`` (ascending), one row per env of ``take`` (forgotten
        here once taken): the pickled ones merged in one call of ``merge`` over the ``(env index,
        info)`` pairs, the numeric ones held from the shared slots assembled per key
        (:class:`HeldInfos`)."""
        entries: list[tuple[int, dict[str, Any]]] = []
        for i in take:
            info = self.infos.pop(i, None)
            if info:
                entries.append((i, info))
        if self.held is not None:
            return self.held.take(take, entries, merge)
        return select_info(merge(entries), np.asarray(take, dtype=np.intp)) if entries else {}

    def take_batch(self) -> list[int]:
        """The (ascending) envs of the next ``recv`` batch, now ``IDLE`` again."""
        take = sorted(self.ready[: self.batch_size])
        del self.ready[: self.batch_size]
        ids = np.asarray(take, dtype=np.intp)
        self.slots[ids] = _IDLE
        self.last_recv = ids
        return take


def select_env_ids(
    env_ids: Any, default: npt.NDArray[np.intp] | None, running: npt.NDArray[np.bool_]
) -> npt.NDArray[np.intp]:
    """The env indices a ``send(actions, env_ids)`` targets: ``default`` (all envs when ``None``)
    when ``env_ids`` is ``None``.

    Shared by every vector env with EnvPool's ``send`` (``running[i]``: env ``i`` is in flight).

    Raises:
        ValueError: not distinct env indices in ``[0, len(running))``, or some env is in flight.
    """
    num_envs = len(running)
    if env_ids is not None:
        ids = np.asarray(env_ids)
    elif default is not None:
        ids = default
    else:
        ids = np.arange(num_envs, dtype=np.intp)
    if ids.ndim == 0:
        ids = ids.reshape(1)
    if (
        ids.ndim != 1
        or ids.size == 0
        or not np.issubdtype(ids.dtype, np.integer)
        or ids.min() < 0
        or ids.max() >= num_envs
        or np.unique(ids).size != ids.size
        or running[ids].any()
    ):
        raise ValueError(ENV_IDS_MSG.format(num_envs, env_ids))
    return ids.astype(np.intp)


def mark_running(
    slots: npt.NDArray[Any], ready: list[int], infos: dict[int, Any], ids: npt.NDArray[np.intp]
) -> None:
    """Mark the envs ``ids`` in flight; results not yet received for them (``ready``, ``infos``)
    are dropped, since they are being stepped again."""
    again = ids[slots[ids] == _READY]
    if again.size:
        dropped = set(again.tolist())
        ready[:] = [i for i in ready if i not in dropped]
        for i in dropped:
            infos.pop(i, None)
    slots[ids] = _RUNNING
