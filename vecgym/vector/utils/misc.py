"""Helpers for starting worker processes: CloudpickleWrapper and clear_mpi_env_vars."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

import cloudpickle

__all__ = ["CloudpickleWrapper", "clear_mpi_env_vars"]

T_co = TypeVar("T_co", covariant=True)

#: Prefixes of the variables through which MPI launchers (Open MPI, PMI) mark a process as a rank.
MPI_ENV_PREFIXES = ("OMPI_", "PMI_")


class CloudpickleWrapper(Generic[T_co]):
    """A zero-argument callable (e.g. an env factory) that pickles with ``cloudpickle``.

    Plain ``pickle`` cannot send lambdas or functions defined in ``__main__`` to a process started
    with ``spawn`` or ``forkserver``; wrapping them makes them travel by value.

    Args:
        fn: the callable, called without arguments.

    Example:
        >>> import pickle
        >>> make = CloudpickleWrapper(lambda: 42)
        >>> pickle.loads(pickle.dumps(make))()
        42
    """

    fn: Callable[[], T_co]

    def __init__(self, fn: Callable[[], T_co]) -> None:
        self.fn = fn

    def __getstate__(self) -> bytes:
        """The callable, serialised with ``cloudpickle``."""
        return cloudpickle.dumps(self.fn)

    def __setstate__(self, state: bytes) -> None:
        """Restore the callable (cloudpickle's output loads with plain ``pickle``)."""
        self.fn = pickle.loads(state)

    def __call__(self) -> T_co:
        """Call the wrapped callable."""
        return self.fn()


@contextmanager
def clear_mpi_env_vars() -> Iterator[None]:
    """Remove MPI launcher variables from ``os.environ`` while the block runs, then restore them.

    A child process that inherits them and imports ``mpi4py`` would believe it is an MPI rank
    like its parent and may hang in ``MPI_Init``; start processes inside this block to avoid that.

    Yields:
        Nothing; the variables are back when the block exits, even on an exception.
    """
    removed = {key: value for key, value in os.environ.items() if key.startswith(MPI_ENV_PREFIXES)}
    for key in removed:
        del os.environ[key]
    try:
        yield
    finally:
        os.environ.update(removed)
