"""Gymnasium's ``gymnasium.spaces.box`` path: re-exports :mod:`vecgym.core.spaces.box`."""

from __future__ import annotations

from vecgym.core.spaces.box import Box as Box
from vecgym.core.spaces.box import array_short_repr as array_short_repr
from vecgym.core.spaces.box import is_float_integer as is_float_integer

__all__ = ["Box", "array_short_repr", "is_float_integer"]
