"""Test-suite wide checks: nothing a test starts may outlive it.

Every test is wrapped by :func:`no_leaks`, which fails the test if it left a child process (or,
with a local Ray session live, a Ray actor process) or a shared-memory segment / semaphore
(``/dev/shm/sem.*``) in ``/dev/shm`` behind (multiprocessing's own long-lived helpers, the
resource tracker and the forkserver, are not counted; nor are entries that a process of another
test run on the same machine has mapped), or a multiprocessing temporary directory: a process
that uses ``forkserver`` keeps its socket in a ``pymp-*`` directory, which only its exit handlers
remove, so one that is killed (a Ray actor ended by ``ray.kill``, say) leaves it behind. The
test processes' children get a temporary directory of the session's (:data:`CHILD_TMP`, through
``TMPDIR``; Ray keeps its session files there too), in which such leftovers are counted, and
which is removed when the session ends.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator

import psutil
import pytest

from tests.support.headless_pygame import PygameRecord, pygame_window_record

SHM_DIR = "/dev/shm"
LEAK_GRACE_S = 5.0

# This process keeps the system's temporary directory (fixed here, before anything asks for it);
# its children, Ray's processes among them, use a directory of the session's (module docstring).
tempfile.gettempdir()
CHILD_TMP = tempfile.mkdtemp(prefix="vecgym-tests-")
os.environ["TMPDIR"] = CHILD_TMP

# Ray (RayVectorEnv tests): a local cluster advertises 127.0.0.1 for GCS, raylets and actors only
# with this set before `ray` is imported (otherwise it uses the machine's interface address).
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
# Ray's memory monitor kills actors when the whole machine is short of memory, which on a shared
# machine is other jobs' doing; the tests leave memory pressure to the kernel.
os.environ["RAY_memory_monitor_refresh_ms"] = "0"  # noqa: SIM112 - Ray spells it so
# jax starts threads and warns at every later fork, which warnings-as-errors turns into failures
# of unrelated tests; libraries import it when it is installed (EnvPool does, for its XLA API).
# The pytest process runs without it (`import jax` raises ImportError here, which those libraries
# handle); the jax tests run in fresh interpreters (tests/support/processes.py). A run of one test
# file that forks nothing may keep jax (JAX_ALLOWED: tests/docs/test_reference.py runs itself so).
JAX_ALLOWED = "VECGYM_TESTS_KEEP_JAX"
if os.environ.get(JAX_ALLOWED) != "1":
    sys.modules["jax"] = None  # type: ignore[assignment]


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


def _describe(pids: set[int]) -> str:
    """The pids with what each process runs and its parent, for a leak's message."""
    described = []
    for pid in sorted(pids):
        try:
            process = psutil.Process(pid)
            command = " ".join(process.cmdline())[:160] or process.name()
            described.append(f"{pid} ({command!r}, parent {process.ppid()}, {process.status()})")
        except psutil.Error:
            described.append(f"{pid} (gone)")
    return ", ".join(described)


def _ray_actors() -> set[int]:
    """Pids of Ray actor processes in this process's tree (a live local Ray session only).

    Ray reuses its pooled worker processes for actors, so an actor left alive may run in a process
    that existed before the test; an actor's process is titled ``ray::<Class>...``, an idle
    worker's ``ray::IDLE``.
    """
    ray = sys.modules.get("ray")
    if ray is None or not getattr(ray, "is_initialized", lambda: False)():
        return set()
    actors = set()
    for child in psutil.Process().children(recursive=True):
        try:
            title = (child.cmdline() or [""])[0]
            actor = title.startswith("ray::") and not title.startswith("ray::IDLE")
            if actor and child.status() != psutil.STATUS_ZOMBIE:
                actors.add(child.pid)
        except psutil.Error:
            continue
    return actors


def _mapped_by_others(entries: set[str]) -> set[str]:
    """The ``entries`` that a process outside this test process's tree has mapped.

    ``/dev/shm`` is shared by every test run on the machine: a semaphore that another run's live
    process uses (glibc maps every named semaphore it opens; the mapping names a temporary file,
    so entries are matched by inode) is not this test's leak.
    """
    inodes: dict[int, str] = {}
    for name in entries:
        with contextlib.suppress(OSError):
            inodes[os.stat(os.path.join(SHM_DIR, name)).st_ino] = name
    ours = {os.getpid()} | {child.pid for child in psutil.Process().children(recursive=True)}
    found: set[str] = set()
    for pid in os.listdir("/proc") if inodes else ():
        if not pid.isdigit() or int(pid) in ours:
            continue
        try:
            with open(f"/proc/{pid}/maps") as maps:
                for line in maps:
                    if SHM_DIR in line:
                        inode = int(line.split()[4])
                        if inode in inodes:
                            found.add(inodes[inode])
        except (OSError, ValueError, IndexError):
            continue
    return found


def _mp_temp_dirs() -> set[str]:
    """multiprocessing's temporary directories in :data:`CHILD_TMP` (module docstring)."""
    try:
        return {name for name in os.listdir(CHILD_TMP) if name.startswith("pymp-")}
    except FileNotFoundError:  # pragma: no cover - removed by hand during the session
        return set()


def _shm_entries() -> set[str]:
    try:
        return set(os.listdir(SHM_DIR))
    except FileNotFoundError:  # pragma: no cover - platforms without /dev/shm
        return set()


@pytest.fixture(autouse=True)
def no_leaks() -> Iterator[None]:
    """Fail the test if it leaks a child process, a shared-memory entry or a multiprocessing
    temporary directory."""
    children_before = _children()
    shm_before = _shm_entries()
    actors_before = _ray_actors()
    dirs_before = _mp_temp_dirs()
    yield
    deadline = time.monotonic() + LEAK_GRACE_S
    while True:
        multiprocessing.active_children()  # reap finished children
        leaked_children = (_children() - children_before) | (_ray_actors() - actors_before)
        leaked_shm = _shm_entries() - shm_before
        if leaked_shm:
            leaked_shm -= _mapped_by_others(leaked_shm)
        leaked_dirs = _mp_temp_dirs() - dirs_before
        if not (leaked_children or leaked_shm or leaked_dirs) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    leaked = _describe(leaked_children) if leaked_children else ""  # before they are killed
    for pid in leaked_children:
        with contextlib.suppress(psutil.NoSuchProcess):
            psutil.Process(pid).kill()
    assert not leaked_children, f"test leaked child processes: {leaked}"
    assert not leaked_shm, f"test leaked shared memory entries in {SHM_DIR}: {sorted(leaked_shm)}"
    assert not leaked_dirs, (
        f"test left multiprocessing temporary directories in {CHILD_TMP} (a process that used "
        f"forkserver ended without its exit handlers): {sorted(leaked_dirs)}"
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the children's temporary directory (Ray's session files included)."""
    shutil.rmtree(CHILD_TMP, ignore_errors=True)


@pytest.fixture(autouse=True, scope="session")
def sb3_log_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point Stable-Baselines3's logger into pytest's temporary directory for the session.

    Without ``SB3_LOGDIR``, every ``model.learn()`` makes a new ``SB3-<timestamp>`` directory in
    the system's temporary directory and leaves it there. Examples run as subprocesses inherit
    the variable. A directory the user set is kept.
    """
    if os.environ.get("SB3_LOGDIR"):
        yield
        return
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3-logs"))
    try:
        yield
    finally:
        os.environ.pop("SB3_LOGDIR", None)


@pytest.fixture
def pygame_window(monkeypatch: pytest.MonkeyPatch) -> Iterator[PygameRecord]:
    """The real pygame, headless (SDL's dummy driver), noting what a window is given."""
    yield from pygame_window_record(monkeypatch)


# --- the `slow` marker ----------------------------------------------------------------------------
#: A vector env started with ``spawn`` or ``forkserver`` pays an interpreter start and an import of
#: vecgym per worker: every test parametrised with one of these start methods is marked ``slow``.
SLOW_START_METHODS = frozenset({"spawn", "forkserver"})
#: Tests that take several seconds whatever the start method (parent deaths, restarts after
#: hangs), by function name, in files that the suite shares with other parametrisations.
SLOW_TESTS = frozenset(
    {
        "test_workers_exit_when_parent_dies",
        "test_restart_replaces_crashed_and_hung_workers",
        "test_keyboard_interrupt_during_step",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests, so that ``pytest -m "not slow"`` is a quick inner loop; run the tests
    marked ``ray`` last.

    Ray leaves gRPC threads running in the process even after ``ray.shutdown()``. From then on,
    AsyncVectorEnv's default start method is ``forkserver`` instead of ``fork``
    (``placement.default_start_method``), so tests that run after Ray would not exercise the
    ``fork`` path that most users get.
    """
    for item in items:
        callspec = getattr(item, "callspec", None)
        param_ids = set(callspec.id.split("-")) if callspec is not None else set()
        name = getattr(item, "originalname", item.name)
        if param_ids & SLOW_START_METHODS or name in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("ray") is not None)  # stable
