"""Flattening of spaces and their values, for learning code that wants flat arrays.

* :func:`flatdim` -- the length of the flat array a space's values become;
* :func:`flatten` / :func:`unflatten` -- a value to its flat form and back;
* :func:`flatten_space` -- the space of the flat forms (a :class:`Box` where possible);
* :func:`is_space_dtype_shape_equiv` -- whether two spaces have values of one dtype and shape.

Every function is a :func:`functools.singledispatch` function, so a custom space registers its own
implementation (``flatten.register(MySpace)(fn)``). The rules, as in Gymnasium:

* ``Box`` / ``MultiBinary``: the array, raveled (C order), in the space's dtype;
* ``Discrete`` / ``MultiDiscrete``: one-hot encodings (concatenated for ``MultiDiscrete``), in the
  space's dtype;
* ``Text``: an ``int32`` array of ``max_length`` character indices, padded with
  ``len(character_set)``;
* ``Tuple`` / ``Dict``: the parts' flat forms concatenated in order (key order for ``Dict``), in
  the promoted dtype, when every part is numpy-flattenable; otherwise a tuple / dict of the
  parts' flat forms;
* ``OneOf``: ``[index, *flat value of that subspace, padding]``, padded by repeating the value's
  first element up to the widest subspace, in a dtype that holds every subspace and the index;
* ``Sequence``: a tuple of flat elements (a stacked array with ``stack=True``);
* ``Graph``: a :class:`GraphInstance` of stacked flat nodes and edges.
"""

from __future__ import annotations

from functools import singledispatch
from math import prod
from typing import Any, TypeAlias, TypeVar

import numpy as np
from numpy.typing import NDArray

from vecgym.core.spaces import batching
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.graph import Graph, GraphInstance
from vecgym.core.spaces.multi_binary import MultiBinary
from vecgym.core.spaces.multi_discrete import MultiDiscrete
from vecgym.core.spaces.oneof import OneOf
from vecgym.core.spaces.sequence import Sequence
from vecgym.core.spaces.space import Space, space_class
from vecgym.core.spaces.text import Text
from vecgym.core.spaces.tuple import Tuple

__all__ = [
    "FlatType",
    "flatdim",
    "flatten",
    "flatten_space",
    "is_space_dtype_shape_equiv",
    "unflatten",
]

T = TypeVar("T")
FlatType: TypeAlias = NDArray[Any] | dict[str, Any] | tuple[Any, ...] | GraphInstance

UNKNOWN_SPACE_MSG = "no implementation is registered for the type of the space `{space}`"
NOT_FLATTENABLE_MSG = (
    "{space} has no flat numpy form: a Graph or Sequence inside it has no fixed size"
)
NO_DTYPE_MSG = (
    "{space} has no single dtype to flatten into (a Graph or Sequence inside it has none)"
)
GRAPH_FLATDIM_MSG = "a Graph space has no fixed flat dimension: its numbers of nodes and edges vary"
NOT_ONE_HOT_MSG = (
    "{x} cannot be unflattened to {space}: a flattened Discrete value is a one-hot vector, and "
    "this array has no nonzero entry"
)
NOT_MULTI_ONE_HOT_MSG = (
    "{x} cannot be unflattened to {space}: a flattened MultiDiscrete value is one one-hot vector "
    "per entry of nvec, concatenated, and this array has no nonzero entry"
)
FLAT_ARRAY_EXPECTED_MSG = "unflatten to {space} takes a numpy array (its flat form), got {type}"
FLAT_FORM_EXPECTED_MSG = (
    "unflatten to {space} takes a {form} (the space has no flat numpy form), got {type}"
)
GENERIC_EQUIV_MSG = (
    "is_space_dtype_shape_equiv compares only vecgym's built-in space types, got {type}"
)
EQUIV_NOT_A_SPACE_MSG = "is_space_dtype_shape_equiv expects two Spaces, got {type_1} and {type_2}"


# --- dtype of the flat form -----------------------------------------------------------------------
@singledispatch
def _flat_dtype(space: Space[Any]) -> np.dtype[Any]:
    """The dtype of the :class:`Box` that ``space`` flattens to, without building it."""
    if space.dtype is None:
        raise ValueError(NO_DTYPE_MSG.format(space=space))
    return space.dtype


@_flat_dtype.register(Text)
def _flat_dtype_text(space: Text) -> np.dtype[Any]:
    return np.dtype(np.int32)


@_flat_dtype.register(Tuple)
def _flat_dtype_tuple(space: Tuple) -> np.dtype[Any]:
    return np.result_type(*(_flat_dtype(part) for part in space.spaces))


@_flat_dtype.register(Dict)
def _flat_dtype_dict(space: Dict) -> np.dtype[Any]:
    return np.result_type(*(_flat_dtype(part) for part in space.spaces.values()))


@_flat_dtype.register(OneOf)
def _flat_dtype_oneof(space: OneOf) -> np.dtype[Any]:
    """The promoted dtype of the subspaces' flat forms, widened if needed to hold the index."""
    dtype = np.result_type(*(_flat_dtype(part) for part in space.spaces))
    largest_index = len(space.spaces) - 1
    if dtype.kind == "b" and largest_index > 1:
        return np.result_type(dtype, np.min_scalar_type(largest_index))
    if dtype.kind in "iu" and largest_index > np.iinfo(dtype).max:
        return np.result_type(dtype, np.min_scalar_type(largest_index))
    return dtype


def _not_flattenable(space: Space[Any]) -> ValueError:
    return ValueError(NOT_FLATTENABLE_MSG.format(space=space))


# --- flatdim --------------------------------------------------------------------------------------
@singledispatch
def flatdim(space: Space[Any]) -> int:
    """The number of elements of the flat array that values of ``space`` flatten to.

    Args:
        space: the space.

    Returns:
        The flat length.

    Raises:
        ValueError: ``space`` cannot be flattened to an array (it is or holds a ``Graph`` or
            ``Sequence``).
        NotImplementedError: ``space``'s type has no registered implementation.

    Example:
        >>> from vecgym.spaces import Dict, Discrete
        >>> flatdim(Dict({"position": Discrete(2), "velocity": Discrete(3)}))
        5
    """
    if space.is_np_flattenable is False:
        raise _not_flattenable(space)
    raise NotImplementedError(UNKNOWN_SPACE_MSG.format(space=space))


@flatdim.register(Box)
@flatdim.register(MultiBinary)
def _flatdim_array(space: Box | MultiBinary) -> int:
    assert space.shape is not None
    return prod(space.shape)


@flatdim.register(Discrete)
def _flatdim_discrete(space: Discrete) -> int:
    return int(space.n)


@flatdim.register(MultiDiscrete)
def _flatdim_multi_discrete(space: MultiDiscrete) -> int:
    return int(np.sum(space.nvec))


@flatdim.register(Tuple)
def _flatdim_tuple(space: Tuple) -> int:
    if not space.is_np_flattenable:
        raise _not_flattenable(space)
    return sum(flatdim(part) for part in space.spaces)


@flatdim.register(Dict)
def _flatdim_dict(space: Dict) -> int:
    if not space.is_np_flattenable:
        raise _not_flattenable(space)
    return sum(flatdim(part) for part in space.spaces.values())


@flatdim.register(Graph)
def _flatdim_graph(space: Graph) -> int:
    raise ValueError(GRAPH_FLATDIM_MSG)


@flatdim.register(Text)
def _flatdim_text(space: Text) -> int:
    return int(space.max_length)


@flatdim.register(OneOf)
def _flatdim_oneof(space: OneOf) -> int:
    return 1 + max(flatdim(part) for part in space.spaces)


# --- flatten --------------------------------------------------------------------------------------
@singledispatch
def flatten(space: Space[Any], x: Any) -> FlatType:
    """Flatten a value of ``space`` (see the module docstring for the form of each space).

    Args:
        space: the space ``x`` belongs to.
        x: the value.

    Returns:
        A 1-d array for numpy-flattenable spaces; a tuple, dict or :class:`GraphInstance` of flat
        parts otherwise.

    Raises:
        NotImplementedError: ``space``'s type has no registered implementation.

    Example:
        >>> from vecgym.spaces import Discrete
        >>> flatten(Discrete(4), 2)
        array([0, 0, 1, 0])
    """
    raise NotImplementedError(UNKNOWN_SPACE_MSG.format(space=space))


@flatten.register(Box)
@flatten.register(MultiBinary)
def _flatten_array(space: Box | MultiBinary, x: Any) -> NDArray[Any]:
    return np.asarray(x, dtype=space.dtype).flatten()


@flatten.register(Discrete)
def _flatten_discrete(space: Discrete, x: Any) -> NDArray[Any]:
    one_hot = np.zeros(space.n, dtype=space.dtype)
    one_hot[x - space.start] = 1
    return one_hot


def _one_hot_offsets(space: MultiDiscrete, dtype: Any) -> NDArray[Any]:
    """Where each sub-encoding starts in the concatenated one-hot form, plus the total length."""
    offsets = np.zeros(space.nvec.size + 1, dtype=dtype)
    offsets[1:] = np.cumsum(space.nvec.flatten())
    return offsets


@flatten.register(MultiDiscrete)
def _flatten_multi_discrete(space: MultiDiscrete, x: Any) -> NDArray[Any]:
    offsets = _one_hot_offsets(space, np.int32)
    one_hot = np.zeros(offsets[-1], dtype=space.dtype)
    one_hot[offsets[:-1] + (x - space.start).flatten()] = 1
    return one_hot


@flatten.register(Tuple)
def _flatten_tuple(space: Tuple, x: Any) -> tuple[Any, ...] | NDArray[Any]:
    pairs = zip(space.spaces, x, strict=True)
    if space.is_np_flattenable:
        return np.concatenate([np.array(flatten(part, value)) for part, value in pairs])
    return tuple(flatten(part, value) for part, value in pairs)


@flatten.register(Dict)
def _flatten_dict(space: Dict, x: Any) -> dict[str, Any] | NDArray[Any]:
    if space.is_np_flattenable:
        return np.concatenate(
            [np.array(flatten(part, x[key])) for key, part in space.spaces.items()]
        )
    return {key: flatten(part, x[key]) for key, part in space.spaces.items()}


def _flatten_stacked(space: Space[Any], batched: Space[Any], stacked: Any) -> Any:
    """Flatten every element of a stacked value and stack the flat forms."""
    flat_space = flatten_space(space)
    flat_items = [flatten(space, item) for item in batching.iterate(batched, stacked)]
    out = batching.create_empty_array(flat_space, n=len(flat_items))
    return batching.concatenate(flat_space, flat_items, out)


def _unflatten_stacked(space: Space[Any], stacked_flat: Any) -> Any:
    """Unflatten every element of a stacked flat value and stack the results."""
    flat_items = batching.iterate(flatten_space(space), stacked_flat)
    items = [unflatten(space, item) for item in flat_items]
    out = batching.create_empty_array(space, n=len(items))
    return batching.concatenate(space, items, out)


@flatten.register(Graph)
def _flatten_graph(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _flatten_stacked(space.node_space, space.batch_node_space, x.nodes)
    edges = None
    if x.edges is not None:
        assert space.edge_space is not None
        assert space.batch_edge_space is not None
        edges = _flatten_stacked(space.edge_space, space.batch_edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


@flatten.register(Text)
def _flatten_text(space: Text, x: str) -> NDArray[np.int32]:
    flat = np.full(space.max_length, len(space.character_set), dtype=np.int32)
    for i, char in enumerate(x):
        flat[i] = space.character_index(char)
    return flat


@flatten.register(Sequence)
def _flatten_sequence(space: Sequence, x: Any) -> Any:
    if space.stack:
        return _flatten_stacked(space.feature_space, space.stacked_feature_space, x)
    return tuple(flatten(space.feature_space, item) for item in x)


@flatten.register(OneOf)
def _flatten_oneof(space: OneOf, x: tuple[int, Any]) -> NDArray[Any]:
    index, value = x
    flat_value: NDArray[Any] = flatten(space.spaces[index], value)  # type: ignore[assignment]
    width = flatdim(space) - 1
    if flat_value.size < width:
        padding = np.full(width - flat_value.size, flat_value[0], dtype=flat_value.dtype)
        flat_value = np.concatenate([flat_value, padding])
    dtype = _flat_dtype(space)
    return np.concatenate([np.array([index], dtype=dtype), flat_value.astype(dtype, copy=False)])


# --- unflatten ------------------------------------------------------------------------------------
@singledispatch
def unflatten(space: Space[Any], x: Any) -> Any:
    """Turn the flat form of a value back into the value (the inverse of :func:`flatten`).

    Args:
        space: the space that was given to :func:`flatten`.
        x: the flat form.

    Returns:
        The value, structured as ``space``'s values are.

    Raises:
        ValueError: ``x`` is not a valid one-hot encoding (``Discrete`` / ``MultiDiscrete``).
        TypeError: ``x`` has the wrong container type for a ``Tuple`` / ``Dict`` space.
        NotImplementedError: ``space``'s type has no registered implementation.

    Example:
        >>> from vecgym.spaces import Discrete
        >>> int(unflatten(Discrete(4), np.array([0, 0, 1, 0])))
        2
    """
    raise NotImplementedError(UNKNOWN_SPACE_MSG.format(space=space))


@unflatten.register(Box)
@unflatten.register(MultiBinary)
def _unflatten_array(space: Box | MultiBinary, x: Any) -> NDArray[Any]:
    return np.asarray(x, dtype=space.dtype).reshape(space.shape)


@unflatten.register(Discrete)
def _unflatten_discrete(space: Discrete, x: Any) -> Any:
    (hot,) = np.nonzero(x)
    if hot.size == 0:
        raise ValueError(NOT_ONE_HOT_MSG.format(x=x, space=space))
    return space.start + hot[0].astype(space.dtype)


@unflatten.register(MultiDiscrete)
def _unflatten_multi_discrete(space: MultiDiscrete, x: Any) -> NDArray[Any]:
    offsets = _one_hot_offsets(space, space.dtype)
    (hot,) = np.nonzero(x)
    if hot.size == 0:
        raise ValueError(NOT_MULTI_ONE_HOT_MSG.format(x=x, space=space))
    values = np.asarray(hot - offsets[:-1], dtype=space.dtype).reshape(space.shape)
    return values + space.start


def _split_flat(x: NDArray[Any], parts: list[Space[Any]]) -> list[NDArray[Any]]:
    dims = np.asarray([flatdim(part) for part in parts], dtype=np.int_)
    return np.split(x, np.cumsum(dims[:-1]))


@unflatten.register(Tuple)
def _unflatten_tuple(space: Tuple, x: Any) -> tuple[Any, ...]:
    if space.is_np_flattenable:
        if not isinstance(x, np.ndarray):
            raise TypeError(FLAT_ARRAY_EXPECTED_MSG.format(space=space, type=type(x)))
        chunks = _split_flat(x, list(space.spaces))
        return tuple(
            unflatten(part, chunk) for part, chunk in zip(space.spaces, chunks, strict=True)
        )
    if not isinstance(x, tuple):
        raise TypeError(FLAT_FORM_EXPECTED_MSG.format(space=space, form="tuple", type=type(x)))
    return tuple(unflatten(part, chunk) for part, chunk in zip(space.spaces, x, strict=True))


@unflatten.register(Dict)
def _unflatten_dict(space: Dict, x: Any) -> dict[str, Any]:
    if space.is_np_flattenable:
        if not isinstance(x, np.ndarray):
            raise TypeError(FLAT_ARRAY_EXPECTED_MSG.format(space=space, type=type(x)))
        chunks = _split_flat(x, list(space.spaces.values()))
        return {
            key: unflatten(part, chunk)
            for (key, part), chunk in zip(space.spaces.items(), chunks, strict=True)
        }
    if not isinstance(x, dict):
        raise TypeError(FLAT_FORM_EXPECTED_MSG.format(space=space, form="dict", type=type(x)))
    return {key: unflatten(part, x[key]) for key, part in space.spaces.items()}


@unflatten.register(Graph)
def _unflatten_graph(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _unflatten_stacked(space.node_space, x.nodes)
    edges = None
    if x.edges is not None:
        assert space.edge_space is not None
        edges = _unflatten_stacked(space.edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


@unflatten.register(Text)
def _unflatten_text(space: Text, x: Any) -> str:
    """Indices may come as floats, when the Text was flattened inside a Tuple / Dict next to a
    float space (Gymnasium 1.4 fails there with ``TypeError``); they are whole numbers."""
    size = len(space.character_set)
    return "".join(space.character_list[int(index)] for index in x if index < size)


@unflatten.register(Sequence)
def _unflatten_sequence(space: Sequence, x: Any) -> Any:
    if space.stack:
        return _unflatten_stacked(space.feature_space, x)
    return tuple(unflatten(space.feature_space, item) for item in x)


@unflatten.register(OneOf)
def _unflatten_oneof(space: OneOf, x: NDArray[Any]) -> tuple[Any, Any]:
    index = np.int64(x[0])
    chosen = space.spaces[index]
    # `x` holds every subspace in one shared dtype: give the slice back its own flat dtype.
    flat_value = x[1 : 1 + flatdim(chosen)].astype(_flat_dtype(chosen))
    return index, unflatten(chosen, flat_value)


# --- flatten_space --------------------------------------------------------------------------------
@singledispatch
def flatten_space(space: Space[Any]) -> Box | Dict | Sequence | Tuple | Graph:
    """The space of the flat forms of ``space``'s values.

    A :class:`Box` of :func:`flatdim` elements for numpy-flattenable spaces (``flatten(space, x)
    in flatten_space(space)`` for every ``x`` in ``space``; sampling the ``Box`` does not give
    valid one-hot encodings, though). ``Graph`` gives a ``Graph`` of flat node / edge spaces,
    ``Sequence`` a ``Sequence`` of the flat feature space, and a ``Tuple`` / ``Dict`` holding those
    a ``Tuple`` / ``Dict`` of flat parts.

    Raises:
        NotImplementedError: ``space``'s type has no registered implementation.

    Example:
        >>> from vecgym.spaces import Box, Discrete
        >>> flatten_space(Box(0.0, 1.0, shape=(3, 4, 5)))
        Box(0.0, 1.0, (60,), float32)
        >>> flatten_space(Discrete(5))
        Box(0, 1, (5,), int64)
    """
    raise NotImplementedError(UNKNOWN_SPACE_MSG.format(space=space))


@flatten_space.register(Box)
def _flatten_space_box(space: Box) -> Box:
    return Box(space.low.flatten(), space.high.flatten(), dtype=space.dtype)


@flatten_space.register(Discrete)
@flatten_space.register(MultiBinary)
@flatten_space.register(MultiDiscrete)
def _flatten_space_binary(space: Discrete | MultiBinary | MultiDiscrete) -> Box:
    assert space.dtype is not None
    return Box(low=0, high=1, shape=(flatdim(space),), dtype=space.dtype)


def _concatenate_boxes(boxes: list[Box]) -> Box:
    return Box(
        low=np.concatenate([box.low for box in boxes]),
        high=np.concatenate([box.high for box in boxes]),
        dtype=np.result_type(*(box.dtype for box in boxes)),
    )


@flatten_space.register(Tuple)
def _flatten_space_tuple(space: Tuple) -> Box | Tuple:
    if space.is_np_flattenable:
        return _concatenate_boxes([flatten_space(part) for part in space.spaces])  # type: ignore[misc]
    return Tuple([flatten_space(part) for part in space.spaces])


@flatten_space.register(Dict)
def _flatten_space_dict(space: Dict) -> Box | Dict:
    if space.is_np_flattenable:
        return _concatenate_boxes([flatten_space(part) for part in space.spaces.values()])  # type: ignore[misc]
    return Dict(
        {key: flatten_space(part) for key, part in space.spaces.items()},
        sort_keys=space.sort_keys,
    )


@flatten_space.register(Graph)
def _flatten_space_graph(space: Graph) -> Graph:
    edge_space = None if space.edge_space is None else flatten_space(space.edge_space)
    return Graph(node_space=flatten_space(space.node_space), edge_space=edge_space)


@flatten_space.register(Text)
def _flatten_space_text(space: Text) -> Box:
    return Box(low=0, high=len(space.character_set), shape=(space.max_length,), dtype=np.int32)


@flatten_space.register(Sequence)
def _flatten_space_sequence(space: Sequence) -> Sequence:
    return Sequence(flatten_space(space.feature_space), stack=space.stack)


@flatten_space.register(OneOf)
def _flatten_space_oneof(space: OneOf) -> Box:
    width = max(flatdim(part) for part in space.spaces) + 1
    flat_parts = [flatten_space(part) for part in space.spaces]
    low = np.min([np.min(part.low) for part in flat_parts])  # type: ignore[union-attr]
    high = np.max([np.max(part.high) for part in flat_parts])  # type: ignore[union-attr]
    lows = np.concatenate([[0], np.full(width - 1, low)])
    highs = np.concatenate([[len(space.spaces) - 1], np.full(width - 1, high)])
    return Box(low=lows, high=highs, shape=(width,), dtype=_flat_dtype(space))


# --- is_space_dtype_shape_equiv -------------------------------------------------------------------
@singledispatch
def is_space_dtype_shape_equiv(space_1: Space[Any], space_2: Space[Any]) -> bool:
    """Whether two spaces have values of the same dtype and shape (and structure).

    Vector environments use it to check that their environments' spaces are compatible.

    Args:
        space_1: a space (it picks the implementation).
        space_2: another space.

    Returns:
        ``True`` when values of both spaces share dtypes, shapes and structure (same types of
        array space, same ``Text`` character set and length, same keys, ...).

    Raises:
        NotImplementedError: ``space_1``'s type has no registered implementation.
        TypeError: an argument is not a :class:`Space`.

    Example:
        >>> from vecgym.spaces import Box
        >>> is_space_dtype_shape_equiv(Box(0, 1, shape=(2,)), Box(-5, 5, shape=(2,)))
        True
    """
    if isinstance(space_1, Space) and isinstance(space_2, Space):
        raise NotImplementedError(GENERIC_EQUIV_MSG.format(type=type(space_1)))
    raise TypeError(EQUIV_NOT_A_SPACE_MSG.format(type_1=type(space_1), type_2=type(space_2)))


@is_space_dtype_shape_equiv.register(Box)
@is_space_dtype_shape_equiv.register(Discrete)
@is_space_dtype_shape_equiv.register(MultiDiscrete)
@is_space_dtype_shape_equiv.register(MultiBinary)
def _equiv_array(space_1: Space[Any], space_2: Any) -> bool:
    # The dispatch only looked at the first space: the types must match exactly (a space's
    # Gymnasium-flavoured twin, see vecgym.core.flavour.gymnasium_flavoured, counts as its class).
    return (
        space_class(space_1) is space_class(space_2)
        and space_1.shape == space_2.shape
        and space_1.dtype == space_2.dtype
    )


@is_space_dtype_shape_equiv.register(Text)
def _equiv_text(space_1: Text, space_2: Any) -> bool:
    return (
        isinstance(space_2, Text)
        and space_1.max_length == space_2.max_length
        and space_1.character_set == space_2.character_set
    )


@is_space_dtype_shape_equiv.register(Dict)
def _equiv_dict(space_1: Dict, space_2: Any) -> bool:
    return (
        isinstance(space_2, Dict)
        and space_1.keys() == space_2.keys()
        and all(is_space_dtype_shape_equiv(space_1[key], space_2[key]) for key in space_1)
    )


def _equiv_parts(parts_1: tuple[Space[Any], ...], parts_2: tuple[Space[Any], ...]) -> bool:
    return len(parts_1) == len(parts_2) and all(
        is_space_dtype_shape_equiv(a, b) for a, b in zip(parts_1, parts_2, strict=True)
    )


@is_space_dtype_shape_equiv.register(Tuple)
def _equiv_tuple(space_1: Tuple, space_2: Any) -> bool:
    return isinstance(space_2, Tuple) and _equiv_parts(space_1.spaces, space_2.spaces)


@is_space_dtype_shape_equiv.register(OneOf)
def _equiv_oneof(space_1: OneOf, space_2: Any) -> bool:
    return isinstance(space_2, OneOf) and _equiv_parts(space_1.spaces, space_2.spaces)


@is_space_dtype_shape_equiv.register(Graph)
def _equiv_graph(space_1: Graph, space_2: Any) -> bool:
    if not isinstance(space_2, Graph):
        return False
    if not is_space_dtype_shape_equiv(space_1.node_space, space_2.node_space):
        return False
    if space_1.edge_space is None or space_2.edge_space is None:
        return space_1.edge_space is None and space_2.edge_space is None
    return is_space_dtype_shape_equiv(space_1.edge_space, space_2.edge_space)


@is_space_dtype_shape_equiv.register(Sequence)
def _equiv_sequence(space_1: Sequence, space_2: Any) -> bool:
    return (
        isinstance(space_2, Sequence)
        and space_1.stack is space_2.stack
        and is_space_dtype_shape_equiv(space_1.feature_space, space_2.feature_space)
    )
