"""The :class:`MultiDiscrete` space: a cartesian product of :class:`Discrete` spaces."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from vecgym import error, logger
from vecgym.core.spaces.discrete import (
    BOTH_GIVEN_MSG,
    Discrete,
    _check_array,
    _check_binary_mask,
    _check_probability_values,
)
from vecgym.core.spaces.space import MaskNDArray, Space

__all__ = ["MultiDiscrete"]

# --- message templates ----------------------------------------------------------------------------
DTYPE_NONE_MSG = "MultiDiscrete needs an explicit dtype, got dtype=None"
DTYPE_KIND_MSG = "MultiDiscrete needs a dtype of integer kind, got {}"
VALUES_TYPE_MSG = "MultiDiscrete {name} must be an array-like of integers, got {value!r}"
SHAPES_DIFFER_MSG = "MultiDiscrete start has shape {} and nvec has shape {}; the shapes must match"
NVEC_VALUE_MSG = "MultiDiscrete nvec must hold only positive counts, got {}"
VALUES_RANGE_MSG = (
    "MultiDiscrete {name} must lie in the range [{low}, {high}] of dtype {dtype}, got {value}"
)
RANGE_MSG = (
    "MultiDiscrete elements and counts must fit dtype {dtype} (range [{low}, {high}]), got "
    "smallest start {start}, largest count {count} and largest element start + nvec - 1 = {top}"
)
MASK_TUPLE_MSG = (
    "the sample {name} for nvec {nvec} must be a tuple of {length} entries, got {value!r}"
)
LEN_WARNING = (
    "len() of a MultiDiscrete space whose nvec has several axes counts only the first axis"
)


class MultiDiscrete(Space[npt.NDArray[np.integer[Any]]]):
    """The product of discrete spaces, one per entry of :attr:`nvec`, e.g. a game controller.

    Entry ``i`` of a value lies in ``start[i] .. start[i] + nvec[i] - 1``. ``nvec`` may have several
    axes, giving values of that shape. :attr:`nvec` and :attr:`start` are read-only copies.

    Args:
        nvec: the number of values of each entry (positive integers; array-like).
        dtype: an integer dtype for the values; every element must be representable in it.
        seed: seeds the sampling generator (an ``int``) or is the generator to use.
        start: the smallest value of each entry (default all zero), the shape of ``nvec``.

    Raises:
        InvalidSpace: a non-integer dtype, non-integer values, shapes that disagree, a count that is
            not positive, or elements that do not fit ``dtype`` (also a ``ValueError``).

    Example:
        >>> import numpy as np
        >>> from vecgym.core.spaces.multi_discrete import MultiDiscrete
        >>> space = MultiDiscrete(np.array([[1, 2], [3, 4]]), seed=42)
        >>> space.sample()
        array([[0, 0],
               [2, 2]])
    """

    dtype: np.dtype[Any]
    nvec: npt.NDArray[np.integer[Any]]
    start: npt.NDArray[np.integer[Any]]

    def __init__(
        self,
        nvec: npt.ArrayLike,
        dtype: npt.DTypeLike = np.int64,
        seed: int | np.random.Generator | None = None,
        start: npt.ArrayLike | None = None,
    ) -> None:
        if dtype is None:
            raise error.InvalidSpace(DTYPE_NONE_MSG)
        resolved = np.dtype(dtype)
        if not np.issubdtype(resolved, np.integer):
            raise error.InvalidSpace(DTYPE_KIND_MSG.format(resolved))
        # each argument is checked in full before the next, in Gymnasium's order
        counts = _integer_values(nvec, "nvec")
        _check_values_fit(resolved, counts, "nvec")
        starts = np.zeros(counts.shape, dtype=np.int64) if start is None else None
        if starts is None:
            starts = _integer_values(start, "start")
            _check_values_fit(resolved, starts, "start")
        if starts.shape != counts.shape:
            raise error.InvalidSpace(SHAPES_DIFFER_MSG.format(starts.shape, counts.shape))
        if not np.all(counts > 0):
            raise error.InvalidSpace(NVEC_VALUE_MSG.format(counts))
        _check_fits(resolved, starts, counts)
        self.nvec = _read_only(counts.astype(resolved))
        self.start = _read_only(starts.astype(resolved))
        super().__init__(self.nvec.shape, resolved, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the values (never ``None``)."""
        return self._shape  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """Always ``True``: a value flattens to concatenated one-hot vectors."""
        return True

    def sample(
        self,
        mask: tuple[Any, ...] | MaskNDArray | None = None,
        probability: tuple[Any, ...] | npt.NDArray[np.float64] | None = None,
    ) -> npt.NDArray[np.integer[Any]]:
        """Draw a value, each entry uniformly unless masks or probability vectors are given.

        Args:
            mask: nested tuples shaped like :attr:`nvec` whose leaves are ``np.int8`` 0/1 arrays of
                shape ``(nvec[i],)``; entry ``i`` is drawn uniformly among the values marked 1, or
                is ``start[i]`` (drawing nothing) when none is marked.
            probability: nested tuples like ``mask`` whose leaves are ``np.float64`` arrays of
                shape ``(nvec[i],)``, values in ``[0, 1]`` summing to 1.

        Returns:
            An array of :attr:`shape` and :attr:`dtype`.

        Raises:
            InvalidMask: both arguments given, or a mask/probability of the wrong structure, type,
                dtype or shape, or a mask value other than 0/1 (also a ``ValueError``).
            InvalidProbability: probabilities outside ``[0, 1]`` or not summing to 1.
        """
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_GIVEN_MSG.format(mask, probability))
        if mask is not None:
            drawn = self._draw_masked(mask, self.nvec, self.start, "mask")
            return np.array(drawn, dtype=self.dtype)
        if probability is not None:
            drawn = self._draw_masked(probability, self.nvec, self.start, "probability")
            return np.array(drawn, dtype=self.dtype)
        uniform = self.np_random.random(self.nvec.shape)
        return (uniform * self.nvec).astype(self.dtype) + self.start

    def _draw_masked(self, masks: Any, counts: Any, starts: Any, name: str) -> Any:
        """Walk ``masks`` alongside ``counts``/``starts`` and draw each leaf, in row-major order."""
        if np.ndim(counts) > 0:
            if not isinstance(masks, tuple) or len(masks) != len(counts):
                raise error.InvalidMask(
                    MASK_TUPLE_MSG.format(name=name, nvec=counts, length=len(counts), value=masks)
                )
            return [
                self._draw_masked(sub_mask, sub_count, sub_start, name)
                for sub_mask, sub_count, sub_start in zip(masks, counts, starts, strict=True)
            ]
        size = (int(counts),)
        if name == "mask":
            allowed = _check_binary_mask(masks, size)
            if not np.any(allowed):
                return starts
            return self.np_random.choice(np.nonzero(allowed)[0]) + starts
        _check_array(masks, name, np.float64, size)
        _check_probability_values(masks, total=True)
        possible = masks > 0
        scaled = masks / np.sum(masks)
        return self.np_random.choice(np.nonzero(possible)[0], p=scaled[possible]) + starts

    def contains(self, x: Any) -> bool:
        """Whether ``x`` (an ndarray, or a sequence turned into one) is a value of this space.

        Its dtype must be safely castable to :attr:`dtype` and its shape equal :attr:`shape`.
        """
        if isinstance(x, Sequence):
            x = np.array(x)
        # compare with the largest element rather than computing ``x - start``, which could wrap
        return bool(
            isinstance(x, np.ndarray)
            and x.shape == self.shape
            and np.can_cast(x.dtype, self.dtype)
            and np.all(self.start <= x)
            and np.all(x <= self.start + (self.nvec - 1))
        )

    def to_jsonable(self, sample_n: Iterable[npt.NDArray[Any]]) -> list[Any]:
        """Convert a batch of values to nested lists."""
        return [value.tolist() for value in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[npt.NDArray[np.integer[Any]]]:
        """Convert nested lists back to arrays of :attr:`dtype`."""
        return [np.array(value, dtype=self.dtype) for value in sample_n]

    def __repr__(self) -> str:
        if np.any(self.start != 0):
            return f"MultiDiscrete({self.nvec}, start={self.start})"
        return f"MultiDiscrete({self.nvec})"

    def __getitem__(self, index: Any) -> Discrete | MultiDiscrete:
        """The subspace at ``index``, with a copy of this space's generator state.

        An integer index into a one-axis space gives a :class:`Discrete`; other indices give a
        :class:`MultiDiscrete`.
        """
        counts = self.nvec[index]
        starts = self.start[index]
        rng = copy.deepcopy(self.np_random)
        if np.ndim(counts) == 0:
            return Discrete(counts, seed=rng, start=starts, dtype=self.dtype)
        return MultiDiscrete(counts, dtype=self.dtype, seed=rng, start=starts)

    def __len__(self) -> int:
        """The length of the first axis of :attr:`nvec` (with a warning when there are several)."""
        if self.nvec.ndim >= 2:
            logger.warn(LEN_WARNING)
        return len(self.nvec)

    def __eq__(self, other: object) -> bool:
        return bool(
            isinstance(other, MultiDiscrete)
            and self.dtype == other.dtype
            and self.shape == other.shape
            and np.all(self.nvec == other.nvec)
            and np.all(self.start == other.start)
        )

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        state = dict(state)
        nvec = np.asarray(state["nvec"])
        if "start" not in state:  # pickled before ``start`` existed
            state["start"] = np.zeros(nvec.shape, dtype=state.get("dtype", nvec.dtype))
        state["nvec"] = nvec
        state["start"] = np.asarray(state["start"])
        super().__setstate__(state)
        _read_only(self.nvec)
        _read_only(self.start)


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    array.flags.writeable = False
    return array


def _integer_values(value: Any, name: str) -> npt.NDArray[Any]:
    """``value`` as a fresh numpy array of integers (integral floats are accepted)."""
    try:
        array = np.array(value, copy=True)
    except (ValueError, TypeError) as exc:
        raise error.InvalidSpaceType(VALUES_TYPE_MSG.format(name=name, value=value)) from exc
    if array.dtype.kind in "iu":
        return array
    if array.dtype.kind == "b":  # True counts as 1, as numpy (and Gymnasium) reads it
        return array.astype(np.int64)
    if array.dtype.kind == "f" and np.all(np.isfinite(array)) and np.all(array == np.floor(array)):
        # Python integers keep every count exact, whatever its size
        return np.array([int(v) for v in array.ravel().tolist()], dtype=object).reshape(array.shape)
    raise error.InvalidSpaceType(VALUES_TYPE_MSG.format(name=name, value=value))


def _check_values_fit(dtype: np.dtype[Any], values: npt.NDArray[Any], name: str) -> None:
    """Raise unless every value of ``values`` (``nvec`` or ``start``) fits ``dtype``."""
    if values.size == 0:
        return
    info = np.iinfo(dtype)
    numbers = [int(v) for v in values.ravel().tolist()]
    if min(numbers) < info.min or max(numbers) > info.max:
        raise error.OutOfDtypeRange(
            VALUES_RANGE_MSG.format(
                name=name, dtype=dtype, low=info.min, high=info.max, value=values
            )
        )


def _check_fits(dtype: np.dtype[Any], starts: npt.NDArray[Any], counts: npt.NDArray[Any]) -> None:
    """Raise unless every count, start and largest element is representable in ``dtype``."""
    if counts.size == 0:
        return
    info = np.iinfo(dtype)
    start_list = [int(v) for v in starts.ravel().tolist()]
    count_list = [int(v) for v in counts.ravel().tolist()]
    lowest = min(start_list)
    largest_count = max(count_list)
    top = max(s + c - 1 for s, c in zip(start_list, count_list, strict=True))
    if lowest < info.min or largest_count > info.max or top > info.max:
        raise error.OutOfDtypeRange(
            RANGE_MSG.format(
                dtype=dtype,
                low=info.min,
                high=info.max,
                start=lowest,
                count=largest_count,
                top=top,
            )
        )
