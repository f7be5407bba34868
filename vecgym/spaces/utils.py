"""Gymnasium's ``gymnasium.spaces.utils`` path: re-exports :mod:`vecgym.core.spaces.utils`."""

from __future__ import annotations

from vecgym.core.spaces.utils import FlatType as FlatType
from vecgym.core.spaces.utils import flatdim as flatdim
from vecgym.core.spaces.utils import flatten as flatten
from vecgym.core.spaces.utils import flatten_space as flatten_space
from vecgym.core.spaces.utils import is_space_dtype_shape_equiv as is_space_dtype_shape_equiv
from vecgym.core.spaces.utils import unflatten as unflatten

__all__ = [
    "FlatType",
    "flatdim",
    "flatten",
    "flatten_space",
    "is_space_dtype_shape_equiv",
    "unflatten",
]
