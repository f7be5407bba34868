"""The spaces of vecgym: the sets of valid actions and observations of environments.

Every space derives from :class:`Space`. Array spaces (:class:`Box`, :class:`Discrete`,
:class:`MultiDiscrete`, :class:`MultiBinary`) and :class:`Text` are the building blocks; the
composite spaces (:class:`Tuple`, :class:`Dict`, :class:`Sequence`, :class:`Graph`,
:class:`OneOf`) combine them. :mod:`vecgym.core.spaces.utils` flattens spaces and their values, and
:mod:`vecgym.core.spaces.batching` stacks them. ``vecgym.spaces`` serves the same objects under
Gymnasium's public paths.
"""

from __future__ import annotations

from vecgym.core.spaces import batching
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.graph import Graph, GraphInstance
from vecgym.core.spaces.multi_binary import MultiBinary
from vecgym.core.spaces.multi_discrete import MultiDiscrete
from vecgym.core.spaces.oneof import OneOf
from vecgym.core.spaces.sequence import Sequence
from vecgym.core.spaces.space import MaskNDArray, Space
from vecgym.core.spaces.text import Text
from vecgym.core.spaces.tuple import Tuple
from vecgym.core.spaces.utils import (
    flatdim,
    flatten,
    flatten_space,
    is_space_dtype_shape_equiv,
    unflatten,
)

__all__ = [
    "Box",
    "Dict",
    "Discrete",
    "Graph",
    "GraphInstance",
    "MaskNDArray",
    "MultiBinary",
    "MultiDiscrete",
    "OneOf",
    "Sequence",
    "Space",
    "Text",
    "Tuple",
    "batching",
    "flatdim",
    "flatten",
    "flatten_space",
    "is_space_dtype_shape_equiv",
    "unflatten",
]
