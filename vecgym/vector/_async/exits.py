"""How a worker ended, and the exceptions the parent raises for a dead worker or a remote error.

Nothing here has a side effect on the vector env: the functions describe and build exceptions;
whoever raises them decides what else changes.
"""

from __future__ import annotations

import contextlib
import pickle
import signal
from typing import Any, Protocol

from vecgym import error, logger
from vecgym.core.gymnasium_errors import adopt_gymnasium_error
from vecgym.vector._async.protocol import RemoteError

__all__ = [
    "RemoteFailure",
    "RemoteTraceback",
    "death_error",
    "describe_exit",
    "failed_in_start_up",
    "rebuild_remote_error",
    "revive_remote_error",
]

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
CAUSES_START = (
    "the worker failed before it could build its envs. A `spawn` or `forkserver` worker first "
    "runs the main module again, then unpickles the env constructors: a script that makes the "
    'vector env at import time, without `if __name__ == "__main__":`, or a constructor '
    "defined where the worker cannot import it, stops it there (its traceback is on stderr)"
)
WORKER_ERROR_MSG = "{type_name}: {message} (raised in worker {worker}, sub-environment {env})"
REMOTE_NOTE = "raised in AsyncVectorEnv worker {worker}, sub-environment {env}"
REMOTE_ERROR_LOG_MSG = (
    "sub-environment {env} (AsyncVectorEnv worker {worker}) raised {type_name}; the worker's "
    "traceback:\n{traceback}"
)
REMOTE_RERAISE_LOG_MSG = (
    "re-raising the exception of sub-environment {env} in the main process (its remote traceback "
    "is the __cause__)"
)

_CRASH_SIGNALS = frozenset(
    {"SIGSEGV", "SIGBUS", "SIGABRT", "SIGFPE", "SIGILL", "SIGSYS", "SIGTRAP", "SIGXCPU"}
)


class RemoteTraceback(Exception):
    """The ``__cause__`` of an exception re-raised from a worker: the remote traceback."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def describe_exit(exitcode: int | None) -> tuple[str, str]:
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


def failed_in_start_up(exitcode: int | None, start_method: str) -> bool:
    """Whether a worker that died before its first message failed in Python's start-up of its
    process: exit code 1 from a ``spawn`` / ``forkserver`` child (a ``fork`` child has no such
    start-up; there exit code 1 is the env's doing)."""
    return exitcode == 1 and start_method != "fork"


def death_error(k: int, process: Any, envs: range, bootstrap: bool = False) -> error.WorkerDied:
    """The :class:`~vecgym.error.WorkerDied` describing how ``process`` (worker ``k``) ended.
    ``bootstrap``: it failed in Python's start-up of the process (:func:`failed_in_start_up`),
    whose usual causes the message names instead."""
    how, causes = describe_exit(process.exitcode)
    if bootstrap:
        causes = CAUSES_START
    return error.WorkerDied(
        WORKER_DIED_MSG.format(worker=k, pid=process.pid, envs=list(envs), how=how, causes=causes),
        worker=k,
        env_indices=tuple(envs),
        exitcode=process.exitcode,
    )


def rebuild_remote_error(remote: RemoteError, k: int) -> BaseException:
    """The exception to raise in the parent for ``remote`` (raised in worker ``k``).

    Its own type when it unpickles (message and notes naming the worker and env), else a
    :class:`~vecgym.error.WorkerError`; the remote traceback is its ``__cause__``. Like Gymnasium,
    the error and its traceback are also reported through :func:`vecgym.logger.error`.
    """
    _log_remote_error(remote, k)
    message = WORKER_ERROR_MSG.format(
        type_name=remote.type_name, message=remote.message, worker=k, env=remote.env_index
    )
    note = REMOTE_NOTE.format(worker=k, env=remote.env_index)
    return revive_remote_error(remote, k, message, note)


class RemoteFailure(Protocol):
    """What a remote process reports about an exception (:class:`RemoteError` of an AsyncVectorEnv
    worker, ``HostFailure`` of a RayVectorEnv host)."""

    pickled: bytes | None
    type_name: str
    message: str
    env_index: int | None
    traceback_text: str


def revive_remote_error(
    failure: RemoteFailure, worker: int, message: str, note: str
) -> BaseException:
    """The exception to raise in the parent for ``failure`` (reported by ``worker``).

    Shared by every backend that re-raises an env's exception in the parent: the exception the
    remote process pickled keeps its type (one of ``gymnasium.error``'s also becomes an instance
    of ``vecgym.error``'s class of its name: :mod:`vecgym.core.gymnasium_errors`), its first
    string argument ends with ``(note)`` and it
    carries ``note`` as a PEP 678 note; if it does not unpickle, a
    :class:`~vecgym.error.WorkerError` with ``message``. Either way its ``__cause__`` is a
    :class:`RemoteTraceback` of the remote traceback.
    """
    exc: BaseException | None = None
    if failure.pickled is not None:
        try:
            exc = pickle.loads(failure.pickled)
        except Exception:
            exc = None
    if exc is None:
        exc = error.WorkerError(
            message,
            worker=worker,
            env_index=failure.env_index,
            type_name=failure.type_name,
            remote_traceback=failure.traceback_text,
        )
    else:
        if exc.args and isinstance(exc.args[0], str):
            exc.args = (f"{exc.args[0]} ({note})", *exc.args[1:])
        if hasattr(exc, "add_note"):
            exc.add_note(note)
    exc.__cause__ = RemoteTraceback(failure.traceback_text)
    return adopt_gymnasium_error(exc)  # one of Gymnasium's is also vecgym's class of its name


def _log_remote_error(remote: RemoteError, k: int) -> None:
    # A log escalated to an error (``-W error``) must not replace the env's own exception.
    with contextlib.suppress(Exception):
        logger.error(
            REMOTE_ERROR_LOG_MSG.format(
                env=remote.env_index,
                worker=k,
                type_name=remote.type_name,
                traceback=remote.traceback_text.rstrip(),
            )
        )
    with contextlib.suppress(Exception):
        logger.error(REMOTE_RERAISE_LOG_MSG.format(env=remote.env_index))
