"""Where the workers of :class:`~vecgym.vector.AsyncVectorEnv` run, and with how many threads.

Parent side: how many workers (:func:`usable_cores`), how the envs are split among them
(:func:`split_slices`), the start method (:func:`default_start_method`), the core each worker is
pinned to (:func:`worker_cores`) and the thread variables set while a ``spawn`` child starts
(:func:`thread_env_for_start`). Worker side: :func:`apply_placement` pins the worker and caps the
BLAS / OpenMP thread pools before its envs are built.

Start method: ``context=None`` chooses explicitly rather than inheriting the platform default
(which Python 3.14 changed from ``fork`` to ``forkserver`` on Linux): ``fork`` where the platform
has it (not macOS, where system frameworks are not fork-safe) and the calling process runs no other
thread that could hold a lock or a half-updated structure the child inherits; otherwise
``forkserver`` where available, else ``spawn``. "No other thread" means no second Python thread
and, on Linux, no native thread that a library started and named (:func:`named_native_threads`):
gRPC's pollers, which Ray leaves running even after ``ray.shutdown()``, CUDA's event handler,
XLA's pools. Unnamed native threads (the BLAS / OpenMP pools numpy and torch start, the watchdog
of :func:`faulthandler.dump_traceback_later`) are not counted: these libraries make their pools
fork-safe, and nearly every process has them. Nor is SDL's timer thread
(:data:`FORK_SAFE_THREAD_NAMES`): pygame starts it the first time anything renders, and it outlives
``pygame.quit()``, so counting it would take ``fork`` from every process that once drew a frame;
it holds no lock a worker takes (a worker that uses SDL timers of its own is broken by ``fork``
in any case, thread or not).

A worker started without ``fork`` still finds every env id the parent registered
(:mod:`vecgym.vector._async.registries`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

__all__ = [
    "FORK_SAFE_THREAD_NAMES",
    "THREAD_ENV_VARS",
    "apply_placement",
    "default_start_method",
    "limit_loaded_thread_pools",
    "named_native_threads",
    "sigint_held",
    "split_slices",
    "thread_env_for_start",
    "usable_cores",
    "worker_cores",
]

THREAD_ENV_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
"""The environment variables a worker sets to its thread cap before building its envs."""

#: Thread-count setters of the BLAS / OpenMP libraries, by symbol (the first one found is called).
THREAD_SETTERS = (
    "scipy_openblas_set_num_threads64_",  # numpy >= 2's bundled OpenBLAS
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
    "MKL_Set_Num_Threads",
    "omp_set_num_threads",
)
_POOL_LIBRARY_HINTS = ("blas", "omp", "mkl")

#: Names of native threads that do not rule out ``fork`` (see the module docstring).
FORK_SAFE_THREAD_NAMES = frozenset({"SDLTimer"})

# Keeps threadpoolctl's limiter alive for the life of the worker.
_THREADPOOL_LIMITS: list[Any] = []


# --- parent side ---------------------------------------------------------------------------------
def usable_cores() -> int:
    """Physical cores this process may run on: psutil's physical count capped by its affinity."""
    import psutil

    physical = psutil.cpu_count(logical=False) or os.cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        physical = min(physical, len(os.sched_getaffinity(0)))
    return max(1, physical)


def named_native_threads() -> list[str]:
    """The names of this process's threads that carry a name other than the main thread's.

    A thread starts with its creator's name (``comm`` on Linux), so threads that no one named share
    the main thread's; the ones that differ were named by the library that started them (gRPC's
    ``grpc_global_tim``, ``event_engine``...). Linux only (``/proc/self/task``); elsewhere, and
    where ``/proc`` cannot be read, an empty list.
    """
    try:
        with open("/proc/self/comm", encoding="utf-8", errors="replace") as f:
            main = f.read().strip()
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return []
    names = []
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/comm", encoding="utf-8", errors="replace") as f:
                name = f.read().strip()
        except OSError:  # the thread ended while we listed them
            continue
        if name != main:
            names.append(name)
    return sorted(names)


def default_start_method() -> str:
    """The start method used when ``context=None`` (see the module docstring for why)."""
    methods = multiprocessing.get_all_start_methods()
    if (
        "fork" in methods
        and sys.platform != "darwin"
        and threading.active_count() == 1
        and FORK_SAFE_THREAD_NAMES.issuperset(named_native_threads())
    ):
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def split_slices(num_envs: int, num_workers: int) -> list[tuple[int, int]]:
    """The contiguous env slice ``[a_k, b_k)`` of each worker (sizes differ by at most one)."""
    base, extra = divmod(num_envs, num_workers)
    slices, start = [], 0
    for k in range(num_workers):
        stop = start + base + (1 if k < extra else 0)
        slices.append((start, stop))
        start = stop
    return slices


def worker_cores(num_workers: int) -> list[int]:
    """The core worker ``k`` is pinned to: ``k`` modulo the cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        cores = sorted(os.sched_getaffinity(0))
    else:  # pragma: no cover - non-Linux
        cores = list(range(os.cpu_count() or 1))
    return [cores[k % len(cores)] for k in range(num_workers)]


@contextlib.contextmanager
def thread_env_for_start(context: str, threads: int | None) -> Iterator[None]:
    """Under ``spawn`` the child imports numpy before the worker runs: set the thread variables
    for the start only (restored at once), so its BLAS pool starts small."""
    if context != "spawn" or threads is None:
        yield
        return
    saved = {name: os.environ.get(name) for name in THREAD_ENV_VARS}
    try:
        for name in THREAD_ENV_VARS:
            os.environ[name] = str(threads)
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Hold SIGINT (a Ctrl-C) back while a worker process starts; it is handled when the block
    ends.

    A ``fork`` runs Python callbacks in the parent afterwards (``os.register_at_fork``: logging
    releases its lock there). A ``KeyboardInterrupt`` raised inside one is printed as "Exception
    ignored" and dropped, so a Ctrl-C pressed at that moment would be lost and the program would
    run on. Here the SIGINT handler is swapped for one that only remembers the signal, and the
    previous handler is called once the start returns (where the default one raises
    ``KeyboardInterrupt`` and the caller can clean up). Only in the main thread, where Python
    runs its signal handlers, and only when the handler is a Python function.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # ignored, or the C default: nothing is raised in Python
        yield
        return
    frames: list[Any] = []
    signal.signal(signal.SIGINT, lambda signum, frame: frames.append(frame))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if frames:
            previous(signal.SIGINT, frames[-1])


# --- worker side ---------------------------------------------------------------------------------
def apply_placement(cpu: int | None, threads: int | None) -> None:
    """Pin the calling process to ``cpu`` and cap BLAS / OpenMP threads at ``threads``."""
    if cpu is not None:
        with contextlib.suppress(Exception):  # affinity is best effort (containers may refuse)
            import psutil

            psutil.Process().cpu_affinity([cpu])
    if threads is not None:
        for name in THREAD_ENV_VARS:
            os.environ[name] = str(threads)
        try:
            from threadpoolctl import threadpool_limits  # optional, never a dependency
        except ImportError:
            # Libraries loaded before the fork (numpy's OpenBLAS) read the variables long ago.
            limit_loaded_thread_pools(threads)
            return
        with contextlib.suppress(Exception):
            _THREADPOOL_LIMITS.append(threadpool_limits(limits=threads))


def limit_loaded_thread_pools(threads: int) -> list[str]:
    """Set the thread count of the BLAS / OpenMP libraries already loaded in this process.

    A library reads ``OMP_NUM_THREADS`` and friends when it loads, so under ``fork`` (numpy
    already imported in the parent) the variables come too late; this calls the libraries' own
    setters, found in ``/proc/self/maps`` (Linux). Best effort: elsewhere it does nothing.

    Returns:
        The setters that were called (for tests and benchmarks).
    """
    import ctypes

    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if ".so" in line}
    except OSError:
        return []
    called: list[str] = []
    for path in sorted(paths):
        if not any(hint in os.path.basename(path).lower() for hint in _POOL_LIBRARY_HINTS):
            continue
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in THREAD_SETTERS:
            setter = getattr(library, symbol, None)
            if setter is not None:
                setter(ctypes.c_int(threads))
                called.append(symbol)
                break
    return called
