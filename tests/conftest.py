"""Test-suite wide checks: nothing a test starts may outlive it.

Every test is wrapped by :func:`no_leaks`, which fails the test if it left a child process or a
shared-memory segment / semaphore in ``/dev/shm`` behind (multiprocessing's own long-lived helpers,
the resource tracker and the forkserver, are not counted).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Iterator

import psutil
import pytest

SHM_DIR = "/dev/shm"
LEAK_GRACE_S = 5.0


def _service_pids() -> set[int]:
    """Pids of multiprocessing's own helper processes, which live as long as the test session."""
    pids: set[int] = set()
    try:
        from multiprocessing import resource_tracker

        pid = getattr(resource_tracker._resource_tracker, "_pid", None)
        if pid:
            pids.add(pid)
    except Exception:  # pragma: no cover - private API drift
        pass
    try:
        from multiprocessing import forkserver

        pid = getattr(forkserver._forkserver, "_forkserver_pid", None)
        if pid:
            pids.add(pid)
    except Exception:  # pragma: no cover - private API drift
        pass
    return pids


def _children() -> set[int]:
    me = psutil.Process(os.getpid())
    alive = set()
    for child in me.children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                alive.add(child.pid)
        except psutil.NoSuchProcess:
            continue
    return alive - _service_pids()


def _shm_entries() -> set[str]:
    try:
        return set(os.listdir(SHM_DIR))
    except FileNotFoundError:  # pragma: no cover - platforms without /dev/shm
        return set()


@pytest.fixture(autouse=True)
def no_leaks() -> Iterator[None]:
    """Fail the test if it leaks a child process or a shared-memory entry."""
    children_before = _children()
    shm_before = _shm_entries()
    yield
    deadline = time.monotonic() + LEAK_GRACE_S
    while True:
        multiprocessing.active_children()  # reap finished children
        leaked_children = _children() - children_before
        leaked_shm = _shm_entries() - shm_before
        if not (leaked_children or leaked_shm) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in leaked_children:
        try:
            psutil.Process(pid).kill()
        except psutil.NoSuchProcess:
            pass
    assert not leaked_children, f"test leaked child processes: {sorted(leaked_children)}"
    assert not leaked_shm, f"test leaked shared memory entries in {SHM_DIR}: {sorted(leaked_shm)}"
