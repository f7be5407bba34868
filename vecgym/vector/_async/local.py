"""The parent's own slice: envs that :class:`~vecgym.vector.AsyncVectorEnv` steps in its process.

With ``AsyncVectorEnv(..., parent_envs=m)`` the last ``m`` envs are not given to a worker process:
the parent steps them itself, between posting a command to the workers and waiting for them. On a
machine with few cores this turns the parent's otherwise idle wait into env steps (with 2 cores:
one worker process and the parent, each stepping half the envs, instead of two workers and a
parent that mostly waits, three processes on two cores).

The slice is driven exactly as a worker's: the same :class:`~vecgym.vector.autoreset.AutoresetEnv`
per env, the same command handlers (:data:`vecgym.vector._async.worker.HANDLERS`), the same rows
of the shared block, the same done word and replies, so the pool, the supervisor and the
scheduler treat it as the last worker, one that finishes its command at once. Its messages go
through an in-process channel (:func:`vecgym.vector._async.protocol.local_pipe`) and are never
pickled.

The price, documented on the constructor: these envs lose crash isolation. A segfault in one of
them ends the parent; a hung step hangs the parent (``step_timeout`` cannot interrupt it, and a
restart is impossible); ``worker_threads``, ``pin_workers`` and a custom ``worker`` do not apply
to them; ``step_async`` / ``send`` step them before returning. An exception they raise is
reported exactly as a worker's (its type, the env index, the traceback as ``__cause__``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from typing import Any

from vecgym.vector._async.protocol import (
    Command,
    Hello,
    LocalEnd,
    Reply,
    SharedLayout,
    SharedViews,
    local_pipe,
    pack_done,
)
from vecgym.vector._async.worker import (
    HANDLERS,
    WorkerConfig,
    WorkerState,
    build_envs,
    check_spaces,
    greeting,
)
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["ParentProcess", "ParentSlice"]


class ParentProcess:
    """Stands in for a worker process where the parent steps the slice itself.

    It is never dead while the vector env is open (a crash of these envs is the parent's), and
    joining, terminating or killing it does nothing: the envs are closed by :class:`ParentSlice`.
    """

    name = "parent"
    daemon = False
    sentinel = None

    def __init__(self) -> None:
        self.pid: int | None = os.getpid()
        self.exitcode: int | None = None

    def is_alive(self) -> bool:
        """Whether the slice is open."""
        return self.exitcode is None

    def join(self, timeout: float | None = None) -> None:
        """Nothing to wait for."""

    def terminate(self) -> None:
        """Nothing to stop (see :meth:`ParentSlice.close`)."""

    kill = terminate


class ParentSlice:
    """The envs ``[start, start + len(env_fns))`` stepped by the parent, as worker ``index``.

    Args:
        index: the worker index the slice takes (the last one).
        start: the vector-env index of its first env.
        env_fns: the constructors of its envs.
        autoreset_mode: the autoreset mode.
        limiter: the ``max_concurrency`` semaphore, or ``None``.
    """

    def __init__(
        self,
        index: int,
        start: int,
        env_fns: Sequence[Callable[[], Any]],
        autoreset_mode: AutoresetMode,
        limiter: Any,
    ) -> None:
        self.index = index
        self.start = start
        self.process = ParentProcess()
        self.pipe, self._conn = local_pipe()
        self._config = WorkerConfig(
            worker_index=index,
            start=start,
            env_fns=None,
            autoreset_mode=autoreset_mode,
            parent_pid=os.getpid(),
            spin_s=0.0,
            threads=None,
            limiter=limiter,
        )
        self._envs, failed = build_envs(list(env_fns), start)
        self.hello: Hello = failed if failed is not None else greeting(self._envs, index == 0)
        self._state: WorkerState | None = None

    def attach(
        self, layout: SharedLayout, views: SharedViews, spaces: tuple[Any, Any, Any]
    ) -> None:
        """Check the envs' spaces against ``spaces`` and drive them over ``views``.

        Raises:
            RuntimeError: an env's space does not match (as a worker's check reports it).
        """
        check_spaces(self._envs, self.start, spaces)
        conn: Any = self._conn
        self._state = WorkerState(self._config, conn, self._envs, views, layout)

    def run(self, seq: int, command: Command) -> None:
        """Run command ``seq`` on the slice now: its reply (if any) is queued on :attr:`pipe`
        and its done word published, as a worker does. An interruption (``KeyboardInterrupt``)
        leaves the command unfinished and propagates."""
        state = self._state
        assert state is not None, "the parent slice runs commands only once attached"
        reply: Reply | None = HANDLERS[command](state, seq)
        if command is Command.CLOSE:
            self.process.exitcode = 0
        if reply is not None:
            self._conn.send(reply)
        state.views.done[self.index] = pack_done(seq, reply is not None)

    def take_reply(self, seq: int) -> Reply | None:
        """The queued reply to command ``seq`` (older ones are discarded)."""
        pipe: LocalEnd = self.pipe
        while pipe.poll():
            message = pipe.recv()
            if isinstance(message, Reply) and message.seq == seq:
                return message
        return None

    def close(self) -> None:
        """Close the envs if no ``CLOSE`` command did (a terminating close); never raises."""
        if self.process.exitcode is None:
            self.process.exitcode = 0
            for env in self._envs:
                with contextlib.suppress(Exception):
                    env.close()
        self.pipe.close()
        self._conn.close()
