"""Per-space batching operations, shared by composite spaces and the vector runtime.

:class:`~vecgym.core.spaces.sequence.Sequence` (``stack=True``) and
:class:`~vecgym.core.spaces.graph.Graph` stack values of a feature space, and so does every vector
environment. The operations live here, in the core layer, so that spaces never import the vector
layer; ``vecgym.vector.utils`` serves the same functions under Gymnasium's names.

Each operation is a :func:`functools.singledispatch` function: a new space type registers its own
implementation (``batch_space.register(MySpace)(fn)``) rather than editing this module. The
implementations for ``Graph``, ``Sequence`` and ``OneOf`` are registered by their own modules.

* :func:`batch_space` -- the space of ``n`` stacked values of a space;
* :func:`batch_differing_spaces` -- the space of values of several compatible spaces, stacked;
* :func:`iterate` -- the single values held by a batched value;
* :func:`concatenate` -- stack single values into a batched value (writing into ``out``);
* :func:`create_empty_array` -- a batched value to be filled by :func:`concatenate`.

Random generators: a batched space samples from a *copy* of the generator of the space it was
built from, so building it never advances the original generator (Gymnasium does the same, and
seeded streams depend on it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Sequence as AbcSequence
from copy import deepcopy
from functools import singledispatch
from typing import Any, TypeVar

import numpy as np

from vecgym import error
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.multi_binary import MultiBinary
from vecgym.core.spaces.multi_discrete import MultiDiscrete
from vecgym.core.spaces.space import Space, space_class
from vecgym.core.spaces.text import Text
from vecgym.core.spaces.tuple import Tuple

__all__ = [
    "batch_differing_spaces",
    "batch_space",
    "concatenate",
    "create_empty_array",
    "iterate",
]

T = TypeVar("T")

NOT_A_SPACE_MSG = "{func} expected a vecgym Space instance, got {type} ({value!r})"
NO_ITERATE_MSG = (
    "iterate has no implementation for spaces of type {type}; add one with "
    "`@iterate.register({name})`"
)
DISCRETE_ITERATE_MSG = (
    "a value of a `Discrete` space is a single integer, there is nothing to iterate over"
)
NOT_ITERABLE_MSG = "the value {value!r} is not iterable"
TUPLE_ITERATE_MSG = (
    "iterating over a value of {space} failed: {types} has no registered `iterate` function, and "
    "falling back to `iter(value)` raised {err}"
)
EMPTY_SPACES_MSG = "batch_differing_spaces expected a non-empty sequence of spaces"
MIXED_TYPES_MSG = "batch_differing_spaces expected spaces of one type, got types {types}"
UNREGISTERED_DIFFERING_MSG = (
    "batch_differing_spaces has no implementation for {type}; registered types: {registered}"
)
DIFFERING_ATTR_MSG = "batch_differing_spaces expected every {what} to be equal, got {values}"


def _not_a_space(func: str, space: object) -> TypeError:
    return TypeError(NOT_A_SPACE_MSG.format(func=func, type=type(space), value=space))


# --- batch_space ----------------------------------------------------------------------------------
@singledispatch
def batch_space(space: Space[Any], n: int = 1) -> Space[Any]:
    """Return the space of ``n`` values of ``space`` stacked along a new first axis.

    Args:
        space: the space of one value (e.g. one environment's observation space).
        n: how many values are stacked.

    Returns:
        The batched space. Array spaces become :class:`Box` / :class:`MultiDiscrete` spaces with a
        leading axis of size ``n``; ``Tuple`` and ``Dict`` are batched part by part; any other
        space becomes a ``Tuple`` of ``n`` copies of it, seeded from a copy of its generator.

    Raises:
        TypeError: ``space`` is not a :class:`Space`.

    Example:
        >>> from vecgym.spaces import Box
        >>> batch_space(Box(0, 1, shape=(3,)), n=4)
        Box(0.0, 1.0, (4, 3), float32)
    """
    raise _not_a_space("batch_space", space)


@batch_space.register(Box)
def _batch_box(space: Box, n: int = 1) -> Box:
    reps = (n,) + (1,) * space.low.ndim
    return Box(
        low=np.tile(space.low, reps),
        high=np.tile(space.high, reps),
        dtype=space.dtype,
        seed=deepcopy(space.np_random),
    )


@batch_space.register(Discrete)
def _batch_discrete(space: Discrete, n: int = 1) -> MultiDiscrete:
    return MultiDiscrete(
        np.full((n,), space.n, dtype=space.dtype),
        dtype=space.dtype,
        seed=deepcopy(space.np_random),
        start=np.full((n,), space.start, dtype=space.dtype),
    )


@batch_space.register(MultiDiscrete)
def _batch_multi_discrete(space: MultiDiscrete, n: int = 1) -> Box:
    reps = (n,) + (1,) * space.nvec.ndim
    low = np.tile(space.start, reps)
    high = low + np.tile(space.nvec, reps) - 1
    return Box(low=low, high=high, dtype=space.dtype, seed=deepcopy(space.np_random))


@batch_space.register(MultiBinary)
def _batch_multi_binary(space: MultiBinary, n: int = 1) -> Box:
    assert space.shape is not None
    return Box(
        low=0,
        high=1,
        shape=(n, *space.shape),
        dtype=space.dtype,
        seed=deepcopy(space.np_random),
    )


@batch_space.register(Tuple)
def _batch_tuple(space: Tuple, n: int = 1) -> Tuple:
    parts = tuple(batch_space(part, n) for part in space.spaces)
    return Tuple(parts, seed=deepcopy(space.np_random))


@batch_space.register(Dict)
def _batch_dict(space: Dict, n: int = 1) -> Dict:
    parts = {key: batch_space(part, n) for key, part in space.spaces.items()}
    return Dict(parts, seed=deepcopy(space.np_random), sort_keys=space.sort_keys)


@batch_space.register(Space)
def batch_space_as_tuple(space: Space[Any], n: int = 1) -> Tuple:
    """Batch a space without an array form as a ``Tuple`` of ``n`` independent copies.

    The copies are seeded with ``n`` integers drawn from a *copy* of ``space``'s generator, so the
    original generator does not move. ``Text``, ``Graph``, ``Sequence``, ``OneOf`` and custom
    spaces use this.
    """
    batched: Tuple[Any] = Tuple(
        tuple(deepcopy(space) for _ in range(n)), seed=deepcopy(space.np_random)
    )
    seeds = deepcopy(space.np_random).integers(0, 10**8, n)
    batched.seed([int(seed) for seed in seeds])
    return batched


# --- batch_differing_spaces -----------------------------------------------------------------------
@singledispatch
def batch_differing_spaces(spaces: Any) -> Space[Any]:
    """Return the space of values of ``spaces`` (one value per space) stacked together.

    The spaces must have one type and may differ in their parameters (e.g. bounds, ``n``), as
    long as their values share a dtype and shape.

    Args:
        spaces: a non-empty sequence of spaces of one type.

    Returns:
        The batched space, seeded from a copy of the first space's generator.

    Raises:
        ValueError: ``spaces`` is empty, or the spaces' dtypes, shapes or keys differ.
        TypeError: the spaces have different types, or the type has no implementation.

    Example:
        >>> from vecgym.spaces import Discrete
        >>> batch_differing_spaces([Discrete(3), Discrete(5)])
        MultiDiscrete([3 5])
    """
    if len(spaces) == 0:
        raise error.InvalidSpace(EMPTY_SPACES_MSG)
    first_type = space_class(spaces[0])  # a twin (see space_class) counts as its vecgym class
    if not all(isinstance(space, first_type) for space in spaces):
        raise TypeError(MIXED_TYPES_MSG.format(types=[type(space) for space in spaces]))
    if first_type not in batch_differing_spaces.registry:
        registered = list(batch_differing_spaces.registry)
        raise TypeError(UNREGISTERED_DIFFERING_MSG.format(type=first_type, registered=registered))
    return batch_differing_spaces.dispatch(first_type)(spaces)


def _require_equal(what: str, values: list[Any]) -> None:
    if any(value != values[0] for value in values[1:]):
        raise error.InvalidSpace(DIFFERING_ATTR_MSG.format(what=what, values=values))


@batch_differing_spaces.register(Box)
def _differing_box(spaces: AbcSequence[Box]) -> Box:
    _require_equal("dtype", [space.dtype for space in spaces])
    _require_equal("Box.low shape", [space.low.shape for space in spaces])
    _require_equal("Box.high shape", [space.high.shape for space in spaces])
    return Box(
        low=np.array([space.low for space in spaces]),
        high=np.array([space.high for space in spaces]),
        dtype=spaces[0].dtype,
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(Discrete)
def _differing_discrete(spaces: AbcSequence[Discrete]) -> MultiDiscrete:
    widest = max((space.dtype for space in spaces), key=lambda dt: np.dtype(dt).itemsize)
    return MultiDiscrete(
        nvec=np.array([space.n for space in spaces]),
        dtype=widest,
        start=np.array([space.start for space in spaces]),
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(MultiDiscrete)
def _differing_multi_discrete(spaces: AbcSequence[MultiDiscrete]) -> Box:
    _require_equal("dtype", [space.dtype for space in spaces])
    _require_equal("MultiDiscrete.nvec shape", [space.nvec.shape for space in spaces])
    _require_equal("MultiDiscrete.start shape", [space.start.shape for space in spaces])
    return Box(
        low=np.array([space.start for space in spaces]),
        high=np.array([space.start + space.nvec for space in spaces]) - 1,
        dtype=spaces[0].dtype,
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(MultiBinary)
def _differing_multi_binary(spaces: AbcSequence[MultiBinary]) -> Box:
    _require_equal("MultiBinary shape", [space.shape for space in spaces])
    shape = spaces[0].shape
    assert shape is not None
    return Box(
        low=0,
        high=1,
        shape=(len(spaces), *shape),
        dtype=spaces[0].dtype,
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(Tuple)
def _differing_tuple(spaces: AbcSequence[Tuple]) -> Tuple:
    lengths = [len(space.spaces) for space in spaces]
    _require_equal("Tuple length", lengths)
    columns = zip(*(space.spaces for space in spaces), strict=True)
    return Tuple(
        tuple(batch_differing_spaces(list(column)) for column in columns),
        seed=deepcopy(spaces[0].np_random),
    )


@batch_differing_spaces.register(Dict)
def _differing_dict(spaces: AbcSequence[Dict]) -> Dict:
    _require_equal("Dict keys", [list(space.keys()) for space in spaces])
    return Dict(
        {key: batch_differing_spaces([space[key] for space in spaces]) for key in spaces[0]},
        seed=deepcopy(spaces[0].np_random),
        sort_keys=spaces[0].sort_keys,
    )


@batch_differing_spaces.register(Text)
def differing_spaces_as_tuple(spaces: AbcSequence[Space[Any]]) -> Tuple:
    """Batch spaces without an array form as a ``Tuple`` of copies of them."""
    return Tuple([deepcopy(space) for space in spaces], seed=deepcopy(spaces[0].np_random))


# --- iterate --------------------------------------------------------------------------------------
@singledispatch
def iterate(space: Space[Any], items: Any) -> Iterator[Any]:
    """Iterate over the single values held by ``items``, a value of the batched space ``space``.

    Args:
        space: a batched space (e.g. a vector environment's ``observation_space``).
        items: a value of ``space``.

    Returns:
        An iterator of single values.

    Raises:
        CustomSpaceError: ``space``'s type has no registered implementation.
        TypeError: ``space`` is not a :class:`Space`, or ``items`` cannot be iterated over.

    Example:
        >>> from vecgym.spaces import Box
        >>> [float(x) for x in iterate(Box(0, 1, shape=(2,)), np.array([0.25, 0.5]))]
        [0.25, 0.5]
    """
    if isinstance(space, Space):
        name = type(space).__name__
        raise error.CustomSpaceError(NO_ITERATE_MSG.format(type=type(space), name=name))
    raise _not_a_space("iterate", space)


@iterate.register(Discrete)
def _iterate_discrete(space: Discrete, items: Any) -> Iterator[Any]:
    raise TypeError(DISCRETE_ITERATE_MSG)


@iterate.register(Box)
@iterate.register(MultiDiscrete)
@iterate.register(MultiBinary)
def _iterate_array(space: Space[Any], items: Any) -> Iterator[Any]:
    try:
        return iter(items)
    except TypeError as exc:
        raise TypeError(NOT_ITERABLE_MSG.format(value=items)) from exc


@iterate.register(Tuple)
def _iterate_tuple(space: Tuple, items: Any) -> Iterator[Any]:
    parts = space.spaces
    if all(space_class(part) in iterate.registry for part in parts):
        return zip(*(iterate(part, items[i]) for i, part in enumerate(parts)), strict=True)
    try:
        return iter(items)
    except Exception as exc:
        unregistered = [type(part) for part in parts if space_class(part) not in iterate.registry]
        raise error.CustomSpaceError(
            TUPLE_ITERATE_MSG.format(space=space, types=unregistered, err=exc)
        ) from exc


@iterate.register(Dict)
def _iterate_dict(space: Dict, items: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    keys = list(space.spaces)
    iterators = [iterate(space.spaces[key], items[key]) for key in keys]
    for values in zip(*iterators, strict=True):
        yield dict(zip(keys, values, strict=True))


# --- concatenate ----------------------------------------------------------------------------------
@singledispatch
def concatenate(space: Space[Any], items: Iterable[Any], out: Any) -> Any:
    """Stack single values of ``space`` into one batched value, written into ``out`` where possible.

    Args:
        space: the space of one value.
        items: the values to stack.
        out: the destination, as made by :func:`create_empty_array` (arrays are filled in place).

    Returns:
        The batched value: ``out`` itself for array spaces, nested tuples / dicts of such arrays
        for ``Tuple`` / ``Dict``, and a plain ``tuple`` of the values for other spaces.

    Raises:
        TypeError: ``space`` is not a :class:`Space`.

    Example:
        >>> from vecgym.spaces import Discrete
        >>> concatenate(Discrete(3), [1, 2], np.zeros(2, dtype=np.int64))
        array([1, 2])
    """
    raise _not_a_space("concatenate", space)


@concatenate.register(Box)
@concatenate.register(Discrete)
@concatenate.register(MultiDiscrete)
@concatenate.register(MultiBinary)
def _concatenate_array(space: Space[Any], items: Iterable[Any], out: np.ndarray) -> np.ndarray:
    return np.stack(list(items), axis=0, out=out)


@concatenate.register(Tuple)
def _concatenate_tuple(space: Tuple, items: Iterable[Any], out: Any) -> tuple[Any, ...]:
    items = list(items)
    return tuple(
        concatenate(part, [item[i] for item in items], out[i])
        for i, part in enumerate(space.spaces)
    )


@concatenate.register(Dict)
def _concatenate_dict(space: Dict, items: Iterable[Any], out: Any) -> dict[str, Any]:
    items = list(items)
    return {
        key: concatenate(part, [item[key] for item in items], out[key])
        for key, part in space.spaces.items()
    }


@concatenate.register(Space)
def concatenate_as_tuple(space: Space[Any], items: Iterable[Any], out: Any) -> tuple[Any, ...]:
    """Batch values of a space without an array form as a plain ``tuple`` (``out`` is unused)."""
    return tuple(items)


# --- create_empty_array ---------------------------------------------------------------------------
@singledispatch
def create_empty_array(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> Any:
    """Create a batched value of ``n`` placeholder values of ``space``, to be filled by
    :func:`concatenate`.

    The placeholder need not be a value of the batched space (e.g. zeros below a ``Box``'s low).

    Args:
        space: the space of one value.
        n: how many values the batch holds.
        fn: the array factory, called as ``fn(shape, dtype=dtype)`` (``np.zeros``, ``np.empty``).

    Returns:
        An array of shape ``(n, *space.shape)`` for array spaces, nested tuples / dicts for
        ``Tuple`` / ``Dict``, a tuple of placeholders for ``Text`` / ``Graph`` / ``Sequence`` /
        ``OneOf``, and ``None`` for custom spaces.

    Raises:
        TypeError: ``space`` is not a :class:`Space`.

    Example:
        >>> from vecgym.spaces import Box
        >>> create_empty_array(Box(0, 1, shape=(2,)), n=3).shape
        (3, 2)
    """
    raise _not_a_space("create_empty_array", space)


@create_empty_array.register(Box)
@create_empty_array.register(Discrete)
@create_empty_array.register(MultiDiscrete)
@create_empty_array.register(MultiBinary)
def _empty_array(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> Any:
    assert space.shape is not None
    return fn((n, *space.shape), dtype=space.dtype)


@create_empty_array.register(Tuple)
def _empty_tuple(space: Tuple, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[Any, ...]:
    return tuple(create_empty_array(part, n=n, fn=fn) for part in space.spaces)


@create_empty_array.register(Dict)
def _empty_dict(space: Dict, n: int = 1, fn: Callable[..., Any] = np.zeros) -> dict[str, Any]:
    return {key: create_empty_array(part, n=n, fn=fn) for key, part in space.spaces.items()}


@create_empty_array.register(Text)
def _empty_text(space: Text, n: int = 1, fn: Callable[..., Any] = np.zeros) -> tuple[str, ...]:
    filler = space.characters[0] * space.min_length
    return tuple(filler for _ in range(n))


@create_empty_array.register(Space)
def _empty_custom(space: Space[Any], n: int = 1, fn: Callable[..., Any] = np.zeros) -> None:
    return None
