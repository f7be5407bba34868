"""Gymnasium's ``gymnasium.spaces.multi_discrete`` path.

Re-exports the objects of :mod:`vecgym.core.spaces.multi_discrete`.
"""

from __future__ import annotations

from vecgym.core.spaces.multi_discrete import MultiDiscrete as MultiDiscrete
from vecgym.core.spaces.space import MaskNDArray as MaskNDArray

__all__ = ["MaskNDArray", "MultiDiscrete"]
