"""Gymnasium's ``gymnasium.spaces`` path: the spaces and the flattening functions.

The classes and functions live in :mod:`vecgym.core.spaces`; this module re-exports the same
objects, so ``from vecgym.spaces import Box`` and ``from vecgym.core.spaces import Box`` agree.
"""

from __future__ import annotations

from vecgym.core.spaces.box import Box as Box
from vecgym.core.spaces.dict import Dict as Dict
from vecgym.core.spaces.discrete import Discrete as Discrete
from vecgym.core.spaces.graph import Graph as Graph
from vecgym.core.spaces.graph import GraphInstance as GraphInstance
from vecgym.core.spaces.multi_binary import MultiBinary as MultiBinary
from vecgym.core.spaces.multi_discrete import MultiDiscrete as MultiDiscrete
from vecgym.core.spaces.oneof import OneOf as OneOf
from vecgym.core.spaces.sequence import Sequence as Sequence
from vecgym.core.spaces.space import Space as Space
from vecgym.core.spaces.text import Text as Text
from vecgym.core.spaces.tuple import Tuple as Tuple
from vecgym.core.spaces.utils import flatdim as flatdim
from vecgym.core.spaces.utils import flatten as flatten
from vecgym.core.spaces.utils import flatten_space as flatten_space
from vecgym.core.spaces.utils import unflatten as unflatten

__all__ = [
    "Box",
    "Dict",
    "Discrete",
    "Graph",
    "GraphInstance",
    "MultiBinary",
    "MultiDiscrete",
    "OneOf",
    "Sequence",
    "Space",
    "Text",
    "Tuple",
    "flatdim",
    "flatten",
    "flatten_space",
    "unflatten",
]
