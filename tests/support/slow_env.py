"""`SlowEnv`: an environment whose ``step`` and ``reset`` take a chosen time (for timeouts).

The observation is the step count (a ``float32`` array of shape ``(1,)``); ``step`` sleeps
``step_delay`` seconds (``sleep=True``) or busy-burns the CPU for that long (``sleep=False``,
the benchmarks' CPU-bound env), ``reset`` sleeps ``reset_delay`` seconds.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

import vecgym
from vecgym.spaces import Box, Discrete

__all__ = ["SlowEnv"]


class SlowEnv(vecgym.Env[Any, Any]):
    """Steps that take ``step_delay`` seconds.

    Args:
        step_delay: seconds per step.
        reset_delay: seconds per reset.
        sleep: sleep (``True``) or burn the CPU (``False``).
        slow_after: only steps after this count are slow (earlier ones are instant).
    """

    def __init__(
        self,
        step_delay: float = 0.0,
        reset_delay: float = 0.0,
        sleep: bool = True,
        slow_after: int = 0,
    ) -> None:
        self.observation_space = Box(0, 1e9, shape=(1,), dtype=np.float32)
        self.action_space = Discrete(2)
        self.step_delay = step_delay
        self.reset_delay = reset_delay
        self.sleep = sleep
        self.slow_after = slow_after
        self.count = 0

    def _wait(self, seconds: float) -> None:
        if seconds <= 0:
            return
        if self.sleep:
            time.sleep(seconds)
            return
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            pass

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._wait(self.reset_delay)
        self.count = 0
        return np.array([0.0], dtype=np.float32), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.count += 1
        if self.count > self.slow_after:
            self._wait(self.step_delay)
        return np.array([self.count], dtype=np.float32), float(action), False, False, {}
