"""Observation buffers in shared memory, for vector environments that run envs in other processes.

Gymnasium's three functions, with its layouts (so buffers are interchangeable with its tools):

* :func:`create_shared_memory` -- one ``multiprocessing`` ``Array`` per leaf of the space, holding
  ``n`` values: array spaces as their flat elements (``bool`` as ``c_bool``; dtypes without an
  ``array`` typecode, such as ``float16``, as raw bytes), ``Text`` as ``int32`` character indices
  (``max_length`` per value, padded with ``len(character_set)``), ``OneOf`` as an ``int64`` index
  array followed by one buffer per subspace. ``Graph`` and ``Sequence`` values have no fixed size
  and cannot be held (``TypeError``);
* :func:`read_from_shared_memory` -- numpy views of those buffers (``Text`` and ``OneOf`` are
  decoded into tuples instead);
* :func:`write_to_shared_memory` -- write one env's value at an index.

vecgym adds :func:`make_shared_memory_writer`, which builds the numpy views once and returns a
function ``write(index, value)``: the cheap way for a worker to write each step's observation.

Each operation is a :func:`functools.singledispatch` function, so a new space registers its own.
"""

from __future__ import annotations

import multiprocessing as mp
from array import typecodes
from collections.abc import Callable, Mapping
from ctypes import c_bool, c_uint8
from functools import singledispatch
from types import ModuleType
from typing import Any, TypeAlias

import numpy as np

from vecgym import error
from vecgym.core.spaces.batching import NOT_A_SPACE_MSG as NOT_A_SPACE_MSG
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.graph import Graph
from vecgym.core.spaces.multi_binary import MultiBinary
from vecgym.core.spaces.multi_discrete import MultiDiscrete
from vecgym.core.spaces.oneof import OneOf
from vecgym.core.spaces.sequence import Sequence
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.text import Text
from vecgym.core.spaces.tuple import Tuple

__all__ = [
    "Writer",
    "create_shared_memory",
    "make_shared_memory_writer",
    "read_from_shared_memory",
    "write_to_shared_memory",
]

#: What :func:`create_shared_memory` returns: an ``Array`` or nested tuples / dicts of them.
SharedMemory: TypeAlias = Any
#: ``write(index, value)``: store one env's value at ``index`` of a batched buffer.
Writer: TypeAlias = Callable[[int, Any], None]

NO_IMPLEMENTATION_MSG = (
    "`{func}` has no implementation for spaces of type {type}: add one with "
    "`@{func}.register({name})` to keep such observations in shared memory"
)
DYNAMIC_SPACE_MSG = (
    "{space} has values of varying size, which shared memory cannot hold; create "
    "`AsyncVectorEnv(..., shared_memory=False)` instead"
)

_INDEX_DTYPE = np.dtype(np.int64)
_TEXT_DTYPE = np.dtype(np.int32)


def _unsupported(func: str, space: object) -> Exception:
    """The error for a space with no implementation of ``func``."""
    if isinstance(space, Space):
        name = type(space).__name__
        return error.CustomSpaceError(
            NO_IMPLEMENTATION_MSG.format(type=type(space), func=func, name=name)
        )
    return TypeError(NOT_A_SPACE_MSG.format(func=func, type=type(space), value=space))


def _dynamic(space: Space[Any]) -> TypeError:
    return TypeError(DYNAMIC_SPACE_MSG.format(space=space))


def _view(shared_memory: Any, dtype: np.dtype[Any], shape: tuple[int, ...]) -> np.ndarray:
    """A writable numpy view of a ``multiprocessing`` ``Array`` (synchronized or raw)."""
    raw = shared_memory.get_obj() if hasattr(shared_memory, "get_obj") else shared_memory
    return np.frombuffer(raw, dtype=dtype).reshape(shape)


def _array_shape(space: Space[Any]) -> tuple[int, ...]:
    assert space.shape is not None
    return space.shape


# --- create ---------------------------------------------------------------------------------------
@singledispatch
def create_shared_memory(space: Space[Any], n: int = 1, ctx: ModuleType | Any = mp) -> SharedMemory:
    """Allocate shared memory for ``n`` values of ``space`` (layouts in the module docstring).

    Args:
        space: one environment's observation space.
        n: how many values (environments) the buffer holds.
        ctx: the ``multiprocessing`` module or a context from ``multiprocessing.get_context``.

    Returns:
        A ``multiprocessing`` ``Array``, or a tuple / dict of them for composite spaces.

    Raises:
        CustomSpaceError: ``space``'s type has no registered implementation.
        TypeError: ``space`` is a ``Graph`` or ``Sequence`` (values of varying size) or no space.

    Example:
        >>> from vecgym.spaces import Box
        >>> memory = create_shared_memory(Box(0, 1, shape=(2,)), n=3)
        >>> read_from_shared_memory(Box(0, 1, shape=(2,)), memory, n=3).shape
        (3, 2)
    """
    raise _unsupported("create_shared_memory", space)


@create_shared_memory.register(Box)
@create_shared_memory.register(Discrete)
@create_shared_memory.register(MultiDiscrete)
@create_shared_memory.register(MultiBinary)
def _create_array_memory(space: Space[Any], n: int = 1, ctx: ModuleType | Any = mp) -> SharedMemory:
    assert space.dtype is not None
    count = n * int(np.prod(_array_shape(space)))
    code = space.dtype.char
    if code == "?":
        return ctx.Array(c_bool, count)
    if code in typecodes:
        return ctx.Array(code, count)
    # No ``array`` typecode (e.g. float16): allocate the bytes; views reinterpret them.
    return ctx.Array(c_uint8, count * space.dtype.itemsize)


@create_shared_memory.register(Tuple)
def _create_tuple_memory(space: Tuple, n: int = 1, ctx: ModuleType | Any = mp) -> tuple[Any, ...]:
    return tuple(create_shared_memory(part, n=n, ctx=ctx) for part in space.spaces)


@create_shared_memory.register(Dict)
def _create_dict_memory(space: Dict, n: int = 1, ctx: ModuleType | Any = mp) -> dict[str, Any]:
    return {key: create_shared_memory(part, n=n, ctx=ctx) for key, part in space.spaces.items()}


@create_shared_memory.register(Text)
def _create_text_memory(space: Text, n: int = 1, ctx: ModuleType | Any = mp) -> SharedMemory:
    return ctx.Array(_TEXT_DTYPE.char, n * space.max_length)


@create_shared_memory.register(OneOf)
def _create_oneof_memory(space: OneOf, n: int = 1, ctx: ModuleType | Any = mp) -> tuple[Any, ...]:
    index_memory = ctx.Array(_INDEX_DTYPE.char, n)
    return (index_memory, *(create_shared_memory(part, n=n, ctx=ctx) for part in space.spaces))


@create_shared_memory.register(Graph)
@create_shared_memory.register(Sequence)
def _create_dynamic_memory(
    space: Space[Any], n: int = 1, ctx: ModuleType | Any = mp
) -> SharedMemory:
    raise _dynamic(space)


# --- read -----------------------------------------------------------------------------------------
@singledispatch
def read_from_shared_memory(space: Space[Any], shared_memory: SharedMemory, n: int = 1) -> Any:
    """Read the ``n`` values held by ``shared_memory``.

    Array leaves are returned as numpy *views* of the shared memory, of shape ``(n, *shape)``:
    later writes to the memory show through them (``np.copy`` them to keep a snapshot). ``Text``
    and ``OneOf`` values are decoded into new tuples.

    Args:
        space: one environment's observation space.
        shared_memory: the memory made by :func:`create_shared_memory` for ``space`` and ``n``.
        n: how many values the memory holds.

    Returns:
        The batched value (nested tuples / dicts for composite spaces).

    Raises:
        CustomSpaceError: ``space``'s type has no registered implementation.
    """
    raise _unsupported("read_from_shared_memory", space)


@read_from_shared_memory.register(Box)
@read_from_shared_memory.register(Discrete)
@read_from_shared_memory.register(MultiDiscrete)
@read_from_shared_memory.register(MultiBinary)
def _read_array(space: Space[Any], shared_memory: SharedMemory, n: int = 1) -> np.ndarray:
    assert space.dtype is not None
    return _view(shared_memory, space.dtype, (n, *_array_shape(space)))


@read_from_shared_memory.register(Tuple)
def _read_tuple(space: Tuple, shared_memory: SharedMemory, n: int = 1) -> tuple[Any, ...]:
    return tuple(
        read_from_shared_memory(part, memory, n=n)
        for part, memory in zip(space.spaces, shared_memory, strict=True)
    )


@read_from_shared_memory.register(Dict)
def _read_dict(space: Dict, shared_memory: SharedMemory, n: int = 1) -> dict[str, Any]:
    return {
        key: read_from_shared_memory(part, shared_memory[key], n=n)
        for key, part in space.spaces.items()
    }


@read_from_shared_memory.register(Text)
def _read_text(space: Text, shared_memory: SharedMemory, n: int = 1) -> tuple[str, ...]:
    codes = _view(shared_memory, _TEXT_DTYPE, (n, space.max_length))
    characters = space.character_list
    pad = len(space.character_set)
    return tuple("".join(characters[code] for code in row if code < pad) for row in codes)


@read_from_shared_memory.register(OneOf)
def _read_oneof(space: OneOf, shared_memory: SharedMemory, n: int = 1) -> tuple[Any, ...]:
    indices = _view(shared_memory[0], _INDEX_DTYPE, (n,))
    values = [
        read_from_shared_memory(part, memory, n=n)
        for part, memory in zip(space.spaces, shared_memory[1:], strict=True)
    ]
    return tuple((index, values[index][i]) for i, index in enumerate(indices))


# --- write ----------------------------------------------------------------------------------------
@singledispatch
def write_to_shared_memory(
    space: Space[Any], index: int, value: Any, shared_memory: SharedMemory
) -> None:
    """Write one environment's value into the shared memory at position ``index``.

    For many writes to the same memory, :func:`make_shared_memory_writer` is cheaper: it builds
    the numpy views once.

    Args:
        space: one environment's observation space.
        index: the environment's position, in ``[0, n)``.
        value: a value of ``space``.
        shared_memory: the memory made by :func:`create_shared_memory` for ``space``.

    Raises:
        CustomSpaceError: ``space``'s type has no registered implementation.
    """
    raise _unsupported("write_to_shared_memory", space)


@write_to_shared_memory.register(Box)
@write_to_shared_memory.register(Discrete)
@write_to_shared_memory.register(MultiDiscrete)
@write_to_shared_memory.register(MultiBinary)
def _write_array(space: Space[Any], index: int, value: Any, shared_memory: SharedMemory) -> None:
    assert space.dtype is not None
    size = int(np.prod(_array_shape(space)))
    flat = _view(shared_memory, space.dtype, (-1,))
    flat[index * size : (index + 1) * size] = np.asarray(value, dtype=space.dtype).reshape(-1)


@write_to_shared_memory.register(Tuple)
def _write_tuple(space: Tuple, index: int, value: Any, shared_memory: SharedMemory) -> None:
    for part, part_value, memory in zip(space.spaces, value, shared_memory, strict=True):
        write_to_shared_memory(part, index, part_value, memory)


@write_to_shared_memory.register(Dict)
def _write_dict(
    space: Dict, index: int, value: Mapping[str, Any], shared_memory: SharedMemory
) -> None:
    for key, part in space.spaces.items():
        write_to_shared_memory(part, index, value[key], shared_memory[key])


@write_to_shared_memory.register(Text)
def _write_text(space: Text, index: int, value: str, shared_memory: SharedMemory) -> None:
    codes = _view(shared_memory, _TEXT_DTYPE, (-1, space.max_length))
    codes[index] = _encode_text(space, value)


@write_to_shared_memory.register(OneOf)
def _write_oneof(
    space: OneOf, index: int, value: tuple[int, Any], shared_memory: SharedMemory
) -> None:
    which, part_value = value
    _view(shared_memory[0], _INDEX_DTYPE, (-1,))[index] = which
    # Only the chosen subspace's buffer is written; the others keep whatever they held.
    write_to_shared_memory(space.spaces[which], index, part_value, shared_memory[1 + which])


def _encode_text(space: Text, value: str) -> np.ndarray:
    """``value`` as ``max_length`` int32 character indices padded with ``len(character_set)``."""
    codes = np.full(space.max_length, len(space.character_set), dtype=_TEXT_DTYPE)
    for position, character in enumerate(value):
        codes[position] = space.character_index(character)
    return codes


# --- writers (vecgym extension) -------------------------------------------------------------------
@singledispatch
def make_shared_memory_writer(space: Space[Any], shared_memory: SharedMemory, n: int = 1) -> Writer:
    """Return ``write(index, value)``, storing one env's value into ``shared_memory`` at ``index``.

    Equivalent to ``write_to_shared_memory(space, index, value, shared_memory)`` but the numpy
    views are built once, here, so each write costs one array assignment per leaf. The value is
    cast to the leaf's dtype as numpy assignment casts (``float64`` into ``float32``, ...).

    Args:
        space: one environment's observation space.
        shared_memory: the memory made by :func:`create_shared_memory` for ``space`` and ``n``.
        n: how many values the memory holds.

    Returns:
        The writer.

    Raises:
        CustomSpaceError: ``space``'s type has no registered implementation.

    Example:
        >>> from vecgym.spaces import Box
        >>> space = Box(0, 1, shape=(2,))
        >>> memory = create_shared_memory(space, n=2)
        >>> write = make_shared_memory_writer(space, memory, n=2)
        >>> write(1, np.array([0.5, 1.0], dtype=np.float32))
        >>> read_from_shared_memory(space, memory, n=2)[1]
        array([0.5, 1. ], dtype=float32)
    """
    raise _unsupported("make_shared_memory_writer", space)


def array_writer(out: np.ndarray) -> Writer:
    """A writer storing a value into row ``index`` of the array ``out``."""

    def write(index: int, value: Any) -> None:
        out[index] = value

    return write


@make_shared_memory_writer.register(Box)
@make_shared_memory_writer.register(Discrete)
@make_shared_memory_writer.register(MultiDiscrete)
@make_shared_memory_writer.register(MultiBinary)
def _array_memory_writer(space: Space[Any], shared_memory: SharedMemory, n: int = 1) -> Writer:
    return array_writer(read_from_shared_memory(space, shared_memory, n=n))


@make_shared_memory_writer.register(Tuple)
def _tuple_memory_writer(space: Tuple, shared_memory: SharedMemory, n: int = 1) -> Writer:
    writers = tuple(
        make_shared_memory_writer(part, memory, n=n)
        for part, memory in zip(space.spaces, shared_memory, strict=True)
    )

    def write(index: int, value: Any) -> None:
        for part_write, part_value in zip(writers, value, strict=True):
            part_write(index, part_value)

    return write


@make_shared_memory_writer.register(Dict)
def _dict_memory_writer(space: Dict, shared_memory: SharedMemory, n: int = 1) -> Writer:
    writers = tuple(
        (key, make_shared_memory_writer(part, shared_memory[key], n=n))
        for key, part in space.spaces.items()
    )

    def write(index: int, value: Any) -> None:
        for key, part_write in writers:
            part_write(index, value[key])

    return write


@make_shared_memory_writer.register(Text)
def _text_memory_writer(space: Text, shared_memory: SharedMemory, n: int = 1) -> Writer:
    codes = _view(shared_memory, _TEXT_DTYPE, (n, space.max_length))

    def write(index: int, value: Any) -> None:
        codes[index] = _encode_text(space, value)

    return write


@make_shared_memory_writer.register(OneOf)
def _oneof_memory_writer(space: OneOf, shared_memory: SharedMemory, n: int = 1) -> Writer:
    indices = _view(shared_memory[0], _INDEX_DTYPE, (n,))
    writers = tuple(
        make_shared_memory_writer(part, memory, n=n)
        for part, memory in zip(space.spaces, shared_memory[1:], strict=True)
    )

    def write(index: int, value: Any) -> None:
        which, part_value = value
        indices[index] = which
        writers[which](index, part_value)

    return write


@make_shared_memory_writer.register(Graph)
@make_shared_memory_writer.register(Sequence)
def _dynamic_memory_writer(space: Space[Any], shared_memory: SharedMemory, n: int = 1) -> Writer:
    raise _dynamic(space)
