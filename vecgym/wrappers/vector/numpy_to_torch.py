"""The vector :class:`NumpyToTorch` (needs the ``torch`` extra, imported when built)."""

from __future__ import annotations

from typing import Any

import numpy as np

from vecgym.vector.vector_env import VectorEnv
from vecgym.wrappers.array_conversion import Device, import_optional
from vecgym.wrappers.vector.array_conversion import ArrayConversion

__all__ = ["NumpyToTorch"]


class NumpyToTorch(ArrayConversion):
    """Drive a numpy vector env with torch tensors (returned on ``device``).

    Raises:
        DependencyNotInstalled: torch is missing (the message names the ``torch`` extra).
    """

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Device | None = None) -> None:
        """Wrap ``env``; ``device`` is where the returned tensors are put."""
        torch = import_optional("torch", extra="torch", user="NumpyToTorch")
        super().__init__(env, env_xp=np, target_xp=torch, target_device=device)
        self.device: Device | None = device
