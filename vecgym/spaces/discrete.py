"""Gymnasium's ``gymnasium.spaces.discrete`` path: re-exports :mod:`vecgym.core.spaces.discrete`."""

from __future__ import annotations

from vecgym.core.spaces.discrete import Discrete as Discrete
from vecgym.core.spaces.space import MaskNDArray as MaskNDArray

__all__ = ["Discrete", "MaskNDArray"]
