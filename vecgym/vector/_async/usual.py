"""The usual ``step``, on a short path.

Most calls of :meth:`~vecgym.vector.AsyncVectorEnv.step` are alike: one action array of the shared
leaf's shape and dtype, every env stepped, no ``send`` batch or late worker about, and every
worker done within the parent's spin with its results in shared memory and no reply. The
general path serves every case through the scheduler, the pool's ``post`` and ``wait_done``,
the supervisor's ``wait`` and ``collect`` and the info assembly, about thirty Python calls; on a
cheap env (CartPole-v1 at 64 envs) that work is a tenth of the step, and it also takes the
caches from the parent's own slice of envs. :class:`UsualStep` does the same work for the usual
call in a few statements, and hands over to the general path as soon as the call is not one:

* :meth:`UsualStep.post` refuses (nothing done) anything but the usual call, and otherwise checks
  the actions (for a ``Discrete`` space from 0, inline: a batch whose largest value read as
  unsigned exceeds ``n - 1`` goes to the full check, which raises) and posts the step exactly as
  the scheduler and the pool do (sequence numbers, post times, command words, wake-ups, the
  parent's slice run last);
* :meth:`UsualStep.finish` spins on the done words for at most the pool's spin window, then
  batches the shared infos as the general path does
  (:func:`~vecgym.vector._async.infos.step_infos`); when every env returned the same flat keys
  (or none) and no ``SAME_STEP`` episode end left its final observation in shared memory, with
  the plan :meth:`~vecgym.vector._async.infos.InfoRegistry.usual_infos` keeps from step to step
  (a copy per key, the masks the rows of one block). A worker still busy after the window, or one
  that announced a reply (an env error, pickled infos or observations), leaves the wait to the
  general path (``AsyncVectorEnv._finish_step``), which blocks, times out, restarts and raises
  as always.

The results are the general path's, bit for bit (``tests/vector/test_usual_step.py`` steps the
two side by side through every autoreset mode, infos, episode ends and errors).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from vecgym.vector._async.batch import ActionWriter
from vecgym.vector._async.finals import final_states
from vecgym.vector._async.infos import InfoRegistry, step_infos
from vecgym.vector._async.pool import WorkerPool
from vecgym.vector._async.protocol import Command, yield_cpu
from vecgym.vector._async.supervisor import Supervisor

__all__ = ["UsualStep"]

_STEP = Command.STEP


class UsualStep:
    """The usual ``step`` of every env (module docstring).

    Args:
        pool: the worker pool, attached (its ``info_registry`` set).
        actions: the action writer (its views and its action check).
        supervisor: the supervisor (restarts to report go the general way).
    """

    def __init__(self, pool: WorkerPool, actions: ActionWriter, supervisor: Supervisor) -> None:
        views = pool.views
        assert views is not None
        assert type(views.actions) is np.ndarray
        self.pool = pool
        self.views = views
        self.leaf: np.ndarray = views.actions
        self.dtype = self.leaf.dtype
        self.check = actions.check
        # Discrete actions: the check's one-pass test, run here without its calls (a
        # microsecond); any other space calls the check.
        span = None
        if self.check is not None and self.leaf.ndim == 1:
            span = self.check.discrete_span(self.dtype)
        self.unsigned: np.dtype[Any] | None = None if span is None else span[0]
        self.span = 0 if span is None else span[1]
        self.registry: InfoRegistry | None = pool.info_registry
        self.supervisor = supervisor
        self.workers = list(range(len(pool.slices)))
        self.remote = [k for k in self.workers if k != pool.local_index]

    @classmethod
    def create(
        cls, pool: WorkerPool, actions: ActionWriter, supervisor: Supervisor, obs_in_shm: bool
    ) -> UsualStep | None:
        """The short path for a vector env whose observations (``obs_in_shm``) and actions (one
        array) are in shared memory; ``None`` for any other, whose steps all reply or send their
        actions pickled."""
        views = pool.views
        if not obs_in_shm or views is None or type(views.actions) is not np.ndarray:
            return None
        return cls(pool, actions, supervisor)

    def post(self, actions: Any) -> list[int] | None:
        """Check and store ``actions`` and post the step to every worker, the parent's own slice
        (run now) last; the workers posted, or ``None``, with nothing done, when this is not the
        usual call.

        Raises:
            InvalidAction: (nothing posted) with the action check on, some action lies outside
                the action space.
        """
        leaf = self.leaf
        pool = self.pool
        registry = self.registry
        if (
            type(actions) is not np.ndarray
            or actions.shape != leaf.shape
            or (actions.dtype is not self.dtype and actions.dtype != self.dtype)
            or self.supervisor.restarted_late
            or pool.actions_piped_any  # the last step's actions went through the pipes
            or (registry is not None and registry.generation > min(pool.info_sent))
        ):
            return None
        check = self.check
        if self.unsigned is not None:
            values = actions.view(self.unsigned)
            if values[values.argmax()] > self.span:
                assert check is not None
                check.check_leaves((actions,))  # raises, naming the envs
        elif check is not None:
            check.check_leaves((actions,))
        leaf[...] = actions
        now = time.monotonic()
        for k in self.remote:
            pool.publish(k, _STEP, now)
            pool.wake[k].release()
        if pool.local is not None:
            pool.run_local(pool.publish(pool.local_index, _STEP, now), _STEP)
        return self.workers

    def finish(self, last_obs: list[Any], merge: Any) -> dict[str, Any] | None:
        """The posted step's batched infos once every worker finished it (the workers marked
        idle); ``None``, with nothing changed, when a worker is still busy after the pool's spin
        window or announced a reply: the general wait takes over."""
        if not self._wait():
            return None
        registry = self.registry
        if registry is None:
            return {}
        if final_states(self.views, None) is None:  # no SAME_STEP final in shared memory
            infos = registry.usual_infos(self.views.info_schema)
            if infos is not None:
                return infos
        return step_infos(registry, self.pool, [], [], last_obs, merge)[0]

    def _wait(self) -> bool:
        pool = self.pool
        started = time.perf_counter()
        end = started + pool.spin_window()
        for k in self.remote:
            while not pool.finished(k):
                if time.perf_counter() > end:
                    return False
                yield_cpu()
        if not pool.settle_quiet(self.workers):  # a reply to take: the general path takes it
            return False
        pool.note_wait(time.perf_counter() - started)
        self.supervisor.restarted_now = []
        return True
