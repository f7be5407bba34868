"""Batching the per-env info dicts of a vector env step into one dict of arrays and masks.

:meth:`VectorEnv._add_info <vecgym.vector.VectorEnv._add_info>` defines the result one env at a
time (Gymnasium's fold). What is here gives the same result with less work per step:
:func:`merge_info_columns` batches key by key, and :class:`RepeatedScalarInfos` batches the
infos of envs that keep returning the same scalar keys (MuJoCo, Atari) in a few passes.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any, cast

import numpy as np

__all__ = [
    "RepeatedScalarInfos",
    "fold_infos",
    "merge_info_columns",
    "repeated_values",
    "same_key_columns",
]

_SCALAR_INFO_TYPES = (int, float, bool)
# The same scalars as a set: the Python ones and numpy's own number types (not subclasses of them).
_EXACT_SCALAR_INFO_TYPES = frozenset(
    (*_SCALAR_INFO_TYPES, *(t for t in np.sctypeDict.values() if issubclass(t, np.number)))
)


def _one_array_key(key: Any) -> bool:
    """Whether the values of info ``key`` may become their batch array in one go when they
    have one exact scalar type: a string that the fold cannot mix up with a mask (no leading
    ``_``), and not ``final_obs`` (always an object array)."""
    return isinstance(key, str) and key[:1] != "_" and key != "final_obs"


def _widen_info_array(array: np.ndarray, value: Any) -> np.ndarray:
    """``array``, or a copy with a wider dtype when ``value`` would not fit without loss.

    Gymnasium keeps the dtype of the first env's value, so a later float is silently truncated
    into an int array (``{"prob": 1}`` then ``{"prob": 1/3}`` stores 0). Here the batch array is
    widened (int -> float, bool -> int, ...) by numpy's promotion rules instead.
    """
    if isinstance(value, (np.ndarray, np.generic)):
        promote_with: Any = value.dtype
    elif type(value) in _SCALAR_INFO_TYPES:
        promote_with = value  # a Python scalar promotes "weakly": 2 keeps a float32 array float32
    else:
        return array
    try:
        wider = np.result_type(array.dtype, promote_with)
    except TypeError:
        return array
    if wider == array.dtype:
        return array
    return array.astype(wider)


def _new_info_array(key: str, value: Any, num_envs: int) -> np.ndarray:
    """The empty batched array for info ``key`` whose first value seen is ``value``."""
    value_type = type(value)
    if key == "final_obs":
        return np.full(num_envs, None, dtype=object)
    # Exact types only for the Python scalars (an IntEnum member is stored as an object).
    if value_type in _SCALAR_INFO_TYPES or issubclass(value_type, np.number):
        return np.zeros(num_envs, dtype=value_type)
    if isinstance(value, np.ndarray):
        return np.zeros((num_envs, *value.shape), dtype=value.dtype)
    return np.full(num_envs, None, dtype=object)


def merge_info_columns(entries: list[tuple[int, dict[str, Any]]], num_envs: int) -> dict[str, Any]:
    """The infos of ``entries`` (``(env_index, info)`` pairs) batched as :meth:`VectorEnv._add_info`
    batches them one after another, with one numpy assignment per key.

    The values of each key are first gathered into a column (the env indices and the values).
    A column whose values all have one exact type (Python ``int`` / ``float`` / ``bool``, one
    numpy number type, or numpy arrays of one dtype and shape) becomes its array in one
    assignment, as the fold would make it: no widening can happen there. Nested dicts are merged
    the same way, recursively. Any other column (mixed types that may widen, objects,
    ``final_obs``) and any key starting with ``_`` or not a string (which the fold could mix up
    with a mask) goes through :meth:`VectorEnv._add_info`'s rules value by value, so the result
    is the fold's in every case. ``entries`` are in increasing env order.
    """
    if len(entries) == 1:
        env_num, info = entries[0]
        return fold_infos({}, info, env_num, num_envs)
    found = same_key_columns([info for _, info in entries])
    if found is not None and len(entries) == num_envs:
        # Env indices are distinct and sorted: every env returned an info, in env order.
        batched = _scalar_columns_batch(*found, num_envs)
        if batched is not None:
            return batched
    columns: dict[str, tuple[list[int], Sequence[Any]]]
    if found is not None:
        keys, key_columns = found
        env_nums = [env_num for env_num, _ in entries]  # a list: a tuple would index dimensions
        columns = {key: (env_nums, column) for key, column in zip(keys, key_columns, strict=True)}
    else:
        gathered: dict[str, tuple[list[int], list[Any]]] = {}
        for env_num, info in entries:
            for key, value in info.items():
                column = gathered.get(key)
                if column is None:
                    gathered[key] = ([env_num], [value])
                else:
                    column[0].append(env_num)
                    column[1].append(value)
        columns = cast("dict[str, tuple[list[int], Sequence[Any]]]", gathered)
    if any(not isinstance(key, str) or key[:1] == "_" for key in columns):
        # A key starting with "_" could be mixed up with a mask, and so could a key that is not
        # a string (3's mask is "_3"): the fold decides those.
        infos: dict[str, Any] = {}
        for env_num, info in entries:
            infos = fold_infos(infos, info, env_num, num_envs)
        return infos
    infos = {}
    full_mask: np.ndarray | None = None
    for key, (indices, values) in columns.items():
        full = len(indices) == num_envs  # env indices are distinct and sorted: every env, in order
        array = _column_array(key, indices, values, num_envs, full)
        if array is None:
            column_infos: dict[str, Any] = {}
            for env_num, value in zip(indices, values, strict=True):
                column_infos = fold_infos(column_infos, {key: value}, env_num, num_envs)
            infos.update(column_infos)
            continue
        if full:
            if full_mask is None:
                full_mask = np.ones(num_envs, dtype=np.bool_)
            mask = full_mask.copy()  # a copy is cheaper than np.ones, and each key owns its mask
        else:
            mask = np.zeros(num_envs, dtype=np.bool_)
            mask[indices] = True
        infos[key] = array
        infos[f"_{key}"] = mask
    return infos


def _scalar_columns_batch(
    keys: list[str], columns: list[Sequence[Any]], num_envs: int
) -> dict[str, Any] | None:
    """The batched infos of one info per env, given as :func:`same_key_columns` of the infos,
    when each key's values have one exact scalar type (Python ``int`` / ``float`` / ``bool`` or
    one of numpy's number types); ``None`` otherwise.

    These are the per-step infos of MuJoCo and Atari envs (``x_position``, ``lives``, ...), and
    the result is :func:`merge_info_columns`'s, with less work per key: one type test and one
    array per key, and the masks are the rows of one all-``True`` block. Keys that the fold could
    mix up with a mask (not a string, or starting with ``_``) and ``final_obs`` are left to the
    general path, and so is a value numpy cannot store in its key's type (an int beyond int64).
    """
    batched: dict[str, Any] = {}
    masks: Iterator[np.ndarray] | None = None
    for key, column in zip(keys, columns, strict=True):
        kinds = set(map(type, column))
        if len(kinds) != 1 or not _one_array_key(key):
            return None
        kind = kinds.pop()
        if kind not in _EXACT_SCALAR_INFO_TYPES:
            return None
        try:
            batched[key] = np.array(column, dtype=kind)
        except (OverflowError, TypeError, ValueError):
            return None
        if masks is None:
            masks = iter(np.ones((len(keys), num_envs), dtype=np.bool_))
        batched[f"_{key}"] = next(masks)
    return batched


class RepeatedScalarInfos:
    """Batches one info per env for a vector env whose envs return the same info keys, with
    values of the same exact scalar types, step after step (the per-step infos of MuJoCo and
    Atari envs: ``x_position``, ``lives``, ...).

    It remembers the keys, their order and the value types of the last batch it learned. A batch
    that repeats them is checked and gathered in two passes over all the keys and all the values
    at once (:func:`repeated_values`) instead of :func:`merge_info_columns`' passes per key. A
    batch that does not
    fit is learned when its first info could be (string keys not starting with ``_``, no
    ``final_obs``, exact scalar values), and checked again as a whole. The result is always
    :func:`merge_info_columns`' (the fold's) for the same infos, or ``None``: the caller then
    uses the general merge.

    Args:
        num_envs: the number of envs, one info each.

    Example:
        >>> batch = RepeatedScalarInfos(2)
        >>> infos = batch([{"lives": 3, "x": np.float32(0.5)}, {"lives": 2, "x": np.float32(1.0)}])
        >>> infos["lives"], infos["_lives"], infos["x"].dtype
        (array([3, 2]), array([ True,  True]), dtype('float32'))
        >>> batch([{"lives": 3, "x": "left"}, {"lives": 2, "x": "right"}]) is None
        True
    """

    __slots__ = (
        "_keys",
        "_keys_in_row",
        "_masks",
        "_num_envs",
        "_plan",
        "_seen",
        "_types",
        "_width",
    )

    def __init__(self, num_envs: int) -> None:
        self._num_envs = num_envs
        self._keys: tuple[str, ...] = ()
        self._keys_in_row: list[str] = []
        self._width = 0
        self._types: list[type] = []
        self._plan: tuple[tuple[str, str, np.dtype[Any], int], ...] = ()
        # All true, one row per key: each batch's masks are rows of one copy of it.
        self._masks: np.ndarray = np.ones((0, num_envs), dtype=np.bool_)
        # The keys and value types of the first info last looked at by _learn.
        self._seen: tuple[tuple[Any, ...], tuple[type, ...]] | None = None

    def __call__(self, infos: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
        """The batched infos of ``infos`` (one per env, in env order), or ``None``."""
        batched = self._batch(infos)
        if batched is None and self._learn(infos):
            batched = self._batch(infos)
        return batched

    def _learn(self, infos: Sequence[dict[str, Any]]) -> bool:
        """Take the schema of ``infos[0]``; whether it is new and could be batched here."""
        if len(infos) != self._num_envs:
            return False
        first = infos[0]
        keys = tuple(first)
        kinds = list(map(type, first.values()))
        seen = (keys, tuple(kinds))
        if seen == self._seen:
            # Known: learned already (the batch itself does not fit it), or rejected already.
            return False
        self._seen = seen
        self._keys = ()
        if not keys or not all(map(_one_array_key, keys)):
            return False
        if not all(kind in _EXACT_SCALAR_INFO_TYPES for kind in kinds):
            return False
        width = len(keys)
        self._keys, self._width = keys, width
        self._keys_in_row = list(keys) * self._num_envs
        self._types = kinds * self._num_envs
        self._plan = tuple(
            (key, f"_{key}", np.dtype(kind), j)
            for j, (key, kind) in enumerate(zip(keys, kinds, strict=True))
        )
        self._masks = np.ones((width, self._num_envs), dtype=np.bool_)
        return True

    def _batch(self, infos: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
        if not self._keys:
            return None
        values = repeated_values(infos, self._keys_in_row, self._types)
        if values is None:
            return None
        width = self._width
        masks = self._masks.copy()
        batched: dict[str, Any] = {}
        try:
            for key, mask_key, dtype, j in self._plan:
                batched[key] = np.array(values[j::width], dtype=dtype)
                batched[mask_key] = masks[j]
        except (OverflowError, TypeError, ValueError):  # e.g. an int beyond int64: fold instead
            return None
        return batched


def repeated_values(
    infos: Sequence[dict[str, Any]], keys_in_row: list[Any], kinds_in_row: list[type]
) -> list[Any] | None:
    """The values of ``infos`` in a row, info after info, when the infos repeat a batch seen
    before: their keys in a row are ``keys_in_row`` (so each info has exactly that batch's keys,
    in its order, and there are as many infos) and the types of their values ``kinds_in_row``;
    else ``None``. Two passes at C speed, over all the keys and over all the values' types, instead
    of one pass per key.

    Example:
        >>> keys, kinds = ["x", "y"] * 2, [int, float] * 2
        >>> repeated_values([{"x": 1, "y": 2.0}, {"x": 3, "y": 4.0}], keys, kinds)
        [1, 2.0, 3, 4.0]
        >>> repeated_values([{"x": 1, "y": 2.0}, {"y": 4.0, "x": 3}], keys, kinds) is None
        True
        >>> repeated_values([{"x": 1, "y": 2.0}, {"x": 3, "y": 4}], keys, kinds) is None
        True
    """
    try:
        if list(chain.from_iterable(infos)) != keys_in_row:
            return None
        values = list(chain.from_iterable(map(dict.values, infos)))
    except TypeError:  # not a dict
        return None
    return values if list(map(type, values)) == kinds_in_row else None


def same_key_columns(
    infos: Sequence[dict[str, Any]], *, ordered: bool = False
) -> tuple[list[str], list[Sequence[Any]]] | None:
    """``(keys, columns)`` of ``infos`` when every info has the keys of the first one (the usual
    case): the first info's keys in order, and for each key its values, one per info, gathered
    without a Python loop per info. ``None`` when the key sets differ (or ``infos`` is empty),
    and with ``ordered`` also when the keys come in different orders.

    Example:
        >>> same_key_columns([{"x": 1, "y": 2.0}, {"y": 3.0, "x": 4}])
        (['x', 'y'], [(1, 4), (2.0, 3.0)])
        >>> same_key_columns([{"x": 1, "y": 2.0}, {"y": 3.0, "x": 4}], ordered=True) is None
        True
        >>> same_key_columns([{"x": 1}, {"y": 2}]) is None
        True
    """
    if not infos or len(set(map(tuple if ordered else len, infos))) != 1:
        return None
    keys = list(infos[0])
    if not keys:
        return keys, []
    try:
        # Equal lengths and every key of the first info present: the key sets are equal.
        if len(keys) == 1:
            key = keys[0]
            return keys, [tuple(info[key] for info in infos)]
        return keys, list(zip(*map(operator.itemgetter(*keys), infos), strict=True))
    except KeyError:
        return None


def _column_array(
    key: str, indices: list[int], values: Sequence[Any], num_envs: int, full: bool
) -> Any:
    """The batched array (or nested infos) of one info key's column, or ``None`` when the column
    needs the value-by-value fold (``full``: ``indices`` are every env in order)."""
    if key == "final_obs":
        return None
    kinds = set(map(type, values))
    if len(kinds) != 1:
        return None
    kind = type(values[0])
    if kind is dict:
        return merge_info_columns(list(zip(indices, values, strict=True)), num_envs)
    if kind in _SCALAR_INFO_TYPES or issubclass(kind, np.number):
        try:
            column = np.array(values, dtype=kind)
        except (OverflowError, TypeError, ValueError):  # e.g. an int beyond int64: fold instead
            return None
        if full:
            return column
        array = np.zeros(num_envs, dtype=kind)
        array[indices] = column
        return array
    if kind is np.ndarray:
        first = values[0]
        dtype, shape = first.dtype, first.shape
        if dtype.hasobject or not all(
            value.dtype == dtype and value.shape == shape for value in values
        ):
            return None
        array = np.zeros((num_envs, *shape), dtype=dtype)
        for env_num, value in zip(indices, values, strict=True):
            array[env_num] = value
        return array
    return None


def fold_infos(
    vector_infos: dict[str, Any], env_info: dict[str, Any], env_num: int, num_envs: int
) -> dict[str, Any]:
    """:meth:`VectorEnv._add_info` for ``num_envs`` envs (the fold the column merge reproduces)."""
    for key, value in env_info.items():
        if isinstance(value, dict) and key != "final_obs":
            array: Any = fold_infos(vector_infos.get(key, {}), value, env_num, num_envs)
        else:
            array = vector_infos.get(key)
            if array is None:
                array = _new_info_array(key, value, num_envs)
            elif array.dtype != object and key != "final_obs":
                array = _widen_info_array(array, value)
            array[env_num] = value
        mask_key = f"_{key}"
        mask = vector_infos.get(mask_key)
        if mask is None:
            mask = np.zeros(num_envs, dtype=np.bool_)
        mask[env_num] = True
        vector_infos[key] = array
        vector_infos[mask_key] = mask
    return vector_infos
