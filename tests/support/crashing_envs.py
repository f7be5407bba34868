"""Crashing environments: test doubles that fail in the ways a worker process must survive.

Each env counts its steps like a tiny deterministic env (observation = step count as a
``float32`` array of shape ``(1,)``) and fails at a chosen point:

* :class:`RaisingEnv` raises an exception (a picklable ``ValueError`` by default, or an
  :class:`UnpicklableError`) in ``step`` at ``fail_at``, in ``reset`` when ``fail_on_reset``, or
  from the method :meth:`RaisingEnv.explode` (for ``call``); or it returns what cannot be pickled
  (a lock in its step info when ``lock_in_info``, from the method :meth:`RaisingEnv.lock`);
* :class:`ExitingEnv` kills its own process with ``os._exit(code)`` at ``exit_at`` (a dead worker);
* :class:`DyingEnv` ends its process another way at ``die_at`` (a segfault in native code, a
  ``SIGSEGV`` or ``SIGKILL`` sent to itself — how an OOM kill looks — or a hang), chosen by
  ``how``; ``die_at=None`` never dies, and the death can be armed later with ``set_attr``.
"""

from __future__ import annotations

import ctypes
import faulthandler
import os
import signal
import threading
import time
from typing import Any

import numpy as np

import vecgym
from vecgym.spaces import Box, Discrete

__all__ = ["DEATHS", "DyingEnv", "ExitingEnv", "InfoDyingEnv", "RaisingEnv", "UnpicklableError"]

STEP_FAILURE_MSG = "boom at step {}"
RESET_FAILURE_MSG = "boom in reset"
CALL_FAILURE_MSG = "boom in explode"


class UnpicklableError(RuntimeError):
    """An exception that cannot cross a process boundary (it holds a lock)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.lock = threading.Lock()


class _CountingBase(vecgym.Env[Any, Any]):
    def __init__(self) -> None:
        self.observation_space = Box(0, 10_000, shape=(1,), dtype=np.float32)
        self.action_space = Discrete(2)
        self.count = 0

    def _obs(self) -> np.ndarray:
        return np.array([self.count], dtype=np.float32)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.count = 0
        return self._obs(), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.count += 1
        return self._obs(), 1.0, False, False, {}


class RaisingEnv(_CountingBase):
    """Raises at a chosen point.

    Args:
        fail_at: ``step`` raises when the count reaches this (``None``: never).
        fail_on_reset: ``reset`` raises.
        unpicklable: raise :class:`UnpicklableError` instead of ``ValueError``.
    """

    def __init__(
        self, fail_at: int | None = None, fail_on_reset: bool = False, unpicklable: bool = False
    ) -> None:
        super().__init__()
        self.fail_at = fail_at
        self.fail_on_reset = fail_on_reset
        self.unpicklable = unpicklable
        self.lock_in_info = False

    def _raise(self, message: str) -> None:
        if self.unpicklable:
            raise UnpicklableError(message)
        raise ValueError(message)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if self.fail_on_reset:
            self._raise(RESET_FAILURE_MSG)
        return super().reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.fail_at is not None and self.count + 1 >= self.fail_at:
            self._raise(STEP_FAILURE_MSG.format(self.count + 1))
        obs, reward, terminated, truncated, info = super().step(action)
        if self.lock_in_info:
            info = {"count": self.count, "lock": threading.Lock()}
        return obs, reward, terminated, truncated, info

    def explode(self) -> None:
        """A method that raises, for ``call``."""
        self._raise(CALL_FAILURE_MSG)

    def lock(self) -> Any:
        """A method whose result cannot be pickled, for ``call``."""
        return threading.Lock()


class ExitingEnv(_CountingBase):
    """Ends its process with ``os._exit(code)`` when its step count reaches ``exit_at``."""

    def __init__(self, exit_at: int = 2, code: int = 3) -> None:
        super().__init__()
        self.exit_at = exit_at
        self.code = code

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.count + 1 >= self.exit_at:
            os._exit(self.code)
        return super().step(action)


DEATHS = ("exit", "segfault", "sigsegv", "sigkill", "hang")
"""The ways a :class:`DyingEnv` can end its worker."""


def die(how: str, code: int = 3) -> None:
    """End the calling process as ``how`` says (one of :data:`DEATHS`).

    The worker inherited pytest's faulthandler (fork); it is turned off first so that an
    intended crash does not print a traceback dump into the test output.
    """
    faulthandler.disable()
    if how == "exit":
        os._exit(code)
    elif how == "segfault":
        ctypes.string_at(0)  # reads address 0: a real segmentation fault in native code
    elif how == "sigsegv":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif how == "sigkill":  # what the kernel's OOM killer does
        os.kill(os.getpid(), signal.SIGKILL)
    elif how == "hang":
        while True:
            time.sleep(3600)
    raise ValueError(f"how must be one of {DEATHS}, got {how!r}")


class DyingEnv(_CountingBase):
    """Ends its process (see :func:`die`) when its step count reaches ``die_at``.

    Args:
        die_at: the step count at which to die (``None``: never); counted since the last reset.
        how: one of :data:`DEATHS`.
        die_on_reset: die in ``reset`` instead.
        die_in_call: :meth:`die_now` kills the process (for ``call``).
    """

    def __init__(
        self, die_at: int | None = None, how: str = "exit", die_on_reset: bool = False
    ) -> None:
        super().__init__()
        self.die_at = die_at
        self.how = how
        self.die_on_reset = die_on_reset

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if self.die_on_reset:
            die(self.how)
        return super().reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.die_at is not None and self.count + 1 >= self.die_at:
            die(self.how)
        return super().step(action)

    def die_now(self) -> None:
        """End the process now (for ``call``)."""
        die(self.how)


class InfoDyingEnv(DyingEnv):
    """A :class:`DyingEnv` whose steps return ``{"count": n}`` and whose resets ``{"fresh": 1}``."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        obs, _ = super().reset(seed=seed, options=options)
        return obs, {"fresh": 1}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, _ = super().step(action)
        return obs, reward, terminated, truncated, {"count": self.count}
