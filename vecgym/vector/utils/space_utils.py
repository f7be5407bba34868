"""Batching of spaces and values for vector environments (Gymnasium's ``vector.utils.space_utils``).

:func:`batch_space`, :func:`batch_differing_spaces`, :func:`iterate`, :func:`concatenate` and
:func:`create_empty_array` live in :mod:`vecgym.core.spaces.batching` (composite spaces need them
too, and the core layer cannot import this one); they are re-exported here under Gymnasium's path.

vecgym adds :func:`make_batch_writer`: a function ``write(index, value)`` that stores one env's
value straight into row ``index`` of a batched value made by :func:`create_empty_array`, so a
vectoriser fills its batch as the envs step instead of collecting and stacking the values.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any, TypeAlias

from vecgym import error
from vecgym.core.spaces.batching import (
    batch_differing_spaces as batch_differing_spaces,
)
from vecgym.core.spaces.batching import batch_space as batch_space
from vecgym.core.spaces.batching import concatenate as concatenate
from vecgym.core.spaces.batching import create_empty_array as create_empty_array
from vecgym.core.spaces.batching import iterate as iterate
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.multi_binary import MultiBinary
from vecgym.core.spaces.multi_discrete import MultiDiscrete
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.tuple import Tuple

__all__ = [
    "Writer",
    "batch_differing_spaces",
    "batch_space",
    "concatenate",
    "create_empty_array",
    "is_array_batchable",
    "iterate",
    "make_batch_writer",
]

#: ``write(index, value)``: store one env's value at ``index`` of a batched value.
Writer: TypeAlias = Callable[[int, Any], None]

NO_WRITER_MSG = (
    "Space of type {type} has no in-place batch writer: only Box, Discrete, MultiDiscrete, "
    "MultiBinary and Tuple / Dict of them are batched into arrays; use `concatenate` instead"
)


@singledispatch
def make_batch_writer(space: Space[Any], out: Any) -> Writer:
    """Return ``write(index, value)``, storing one value of ``space`` into row ``index`` of ``out``.

    ``out`` is a batched value made by ``create_empty_array(space, n)`` (or the numpy views of a
    shared-memory buffer); each write is one numpy assignment per leaf, with numpy's casting.

    Args:
        space: the space of one value.
        out: the batched value, written in place.

    Returns:
        The writer.

    Raises:
        CustomSpaceError: ``space`` is not batched into arrays (``Text``, ``Graph``, ``Sequence``,
            ``OneOf``, custom spaces); :func:`is_array_batchable` tells beforehand.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Discrete
        >>> out = create_empty_array(Discrete(5), n=3)
        >>> write = make_batch_writer(Discrete(5), out)
        >>> write(2, 4)
        >>> out
        array([0, 0, 4])
    """
    raise error.CustomSpaceError(NO_WRITER_MSG.format(type=type(space)))


@make_batch_writer.register(Box)
@make_batch_writer.register(Discrete)
@make_batch_writer.register(MultiDiscrete)
@make_batch_writer.register(MultiBinary)
def _array_batch_writer(space: Space[Any], out: Any) -> Writer:
    # The array's own ``__setitem__``: no Python frame per write.
    write: Writer = out.__setitem__
    return write


@make_batch_writer.register(Tuple)
def _tuple_batch_writer(space: Tuple, out: Any) -> Writer:
    writers = tuple(
        make_batch_writer(part, part_out) for part, part_out in zip(space.spaces, out, strict=True)
    )

    def write(index: int, value: Any) -> None:
        for part_write, part_value in zip(writers, value, strict=True):
            part_write(index, part_value)

    return write


@make_batch_writer.register(Dict)
def _dict_batch_writer(space: Dict, out: Any) -> Writer:
    writers = tuple((key, make_batch_writer(part, out[key])) for key, part in space.spaces.items())

    def write(index: int, value: Any) -> None:
        for key, part_write in writers:
            part_write(index, value[key])

    return write


def is_array_batchable(space: Space[Any]) -> bool:
    """Whether :func:`make_batch_writer` supports ``space`` (all its leaves batch into arrays)."""
    if isinstance(space, Tuple):
        return all(is_array_batchable(part) for part in space.spaces)
    if isinstance(space, Dict):
        return all(is_array_batchable(part) for part in space.spaces.values())
    impl = make_batch_writer.dispatch(type(space))
    return impl is not make_batch_writer.dispatch(object)
