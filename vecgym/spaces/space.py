"""Gymnasium's ``gymnasium.spaces.space`` path: re-exports :mod:`vecgym.core.spaces.space`."""

from __future__ import annotations

from vecgym.core.spaces.space import MaskNDArray as MaskNDArray
from vecgym.core.spaces.space import Space as Space

__all__ = ["MaskNDArray", "Space"]
