"""`ProbeEnv`: reports facts about the process it runs in (for worker placement tests)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

import vecgym
from vecgym.spaces import Box, Discrete

__all__ = ["ProbeEnv"]


class ProbeEnv(vecgym.Env[Any, Any]):
    """A trivial env (observation always ``[0.0]``) with a :meth:`probe` method for ``call``."""

    def __init__(self) -> None:
        self.observation_space = Box(0, 1, shape=(1,), dtype=np.float32)
        self.action_space = Discrete(2)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        return np.zeros(1, dtype=np.float32), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        return np.zeros(1, dtype=np.float32), 0.0, False, False, {}

    def probe(self) -> dict[str, Any]:
        """The process's pid, CPU affinity and thread-count environment variables."""
        affinity = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
        return {
            "pid": os.getpid(),
            "affinity": affinity,
            "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS"),
            "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
            "openblas_threads": openblas_threads(),
        }


def openblas_threads() -> int | None:
    """The thread count numpy's OpenBLAS runs with in this process (``None``: not found)."""
    import ctypes

    import numpy  # noqa: F401  (loads its OpenBLAS)

    with open("/proc/self/maps") as maps:
        paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
    for path in paths:
        library = ctypes.CDLL(path)
        for symbol in (
            "scipy_openblas_get_num_threads64_",
            "scipy_openblas_get_num_threads",
            "openblas_get_num_threads64_",
            "openblas_get_num_threads",
        ):
            getter = getattr(library, symbol, None)
            if getter is not None:
                return int(getter())
    return None
