"""The :class:`Box` space: a product of closed, possibly unbounded, intervals of numbers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from vecgym import error, logger
from vecgym.core.spaces.space import Space

__all__ = ["Box", "array_short_repr", "is_float_integer"]

# --- message templates ----------------------------------------------------------------------------
DTYPE_NONE_MSG = "Box needs an explicit dtype, got dtype=None"
DTYPE_KIND_MSG = "Box dtype must be of an integer, floating-point or boolean kind, got {}"
SHAPE_TYPE_MSG = "Box shape must be an iterable of integers, got {!r} of type {}"
SHAPE_DIM_TYPE_MSG = "Box shape must contain only integers, got element types {}"
SHAPE_DIM_VALUE_MSG = "Box shape must contain only non-negative integers, got {}"
SHAPES_DIFFER_MSG = "Box low and high must have the same shape, got low.shape={}, high.shape={}"
SHAPE_UNKNOWN_MSG = (
    "Box needs a shape, or low/high that are numpy arrays, integers or floats to infer it from, "
    "got low of type {} and high of type {}"
)
BOUND_SHAPE_MSG = "Box {name}.shape must match shape, got {name}.shape={actual}, shape={expected}"
BOUND_TYPE_MSG = "Box {name} must be given as an int, a float or a numpy.ndarray, got {type}"
BOUND_DTYPE_MSG = (
    "Box {name} must have a dtype of an integer, floating-point or boolean kind, got {dtype}"
)
BOUND_NAN_MSG = "Box {name} must not contain nan, got {name}={value}"
BOUND_INF_UNSIGNED_MSG = (
    "Box {name} may only be {inf} for a signed integer or floating dtype, got dtype {dtype}"
)
BOUND_INF_WRONG_SIDE_MSG = "Box {name} must be finite or {inf} for dtype {dtype}, got {value}"
BOUND_RANGE_MSG = "Box {name} must lie in the range [{low}, {high}] of dtype {dtype}, got {value}"
BOUND_PRECISION_MSG = (
    "Box {name} is cast from {src} to the less precise {dtype}, so its values may be rounded"
)
LOW_ABOVE_HIGH_MSG = "Box low must not exceed high at any position, got low={}, high={}"
MANNER_MSG = "manner must be one of 'below', 'above' or 'both', got {!r}"
MASK_MSG = "Box.sample does not accept a mask, got {!r}"
PROBABILITY_MSG = "Box.sample does not accept a probability, got {!r}"
CAST_WARNING = (
    "Box.contains converts a value that is not a numpy array with np.asarray; pass an ndarray to "
    "skip the conversion"
)


def array_short_repr(arr: npt.NDArray[Any]) -> str:
    """The text of ``arr``, or of its only value when every entry is the same.

    Args:
        arr: the array to describe.

    Returns:
        ``str`` of the single repeated value, else ``str(arr)``.
    """
    if arr.size > 0 and np.min(arr) == np.max(arr):
        return str(np.min(arr))
    return str(arr)


def is_float_integer(var: object) -> bool:
    """Whether ``var`` is a Python or numpy integer or float scalar (a ``bool`` is not)."""
    return isinstance(var, (int, float, np.integer, np.floating)) and not isinstance(var, bool)


class Box(Space[npt.NDArray[Any]]):
    r"""A box in :math:`\mathbb{R}^n`: the product of intervals ``[low[i], high[i]]``.

    An interval may be open at either end (a bound of ``-inf`` or ``inf``), which
    :attr:`bounded_below` and :attr:`bounded_above` record. Scalar bounds are broadcast to
    ``shape``; array bounds must have exactly the space's shape. :attr:`low` and :attr:`high` are
    read-only copies: the arrays passed in are never modified.

    Args:
        low: the lower bounds, a scalar or a ``numpy.ndarray``. For integer dtypes ``-inf`` becomes
            the dtype's minimum (signed dtypes only).
        high: the upper bounds, a scalar or a ``numpy.ndarray``. For integer dtypes ``inf`` becomes
            the dtype's maximum (signed dtypes only).
        shape: the shape of the values; inferred from array bounds, else ``(1,)``.
        dtype: an integer, floating or bool dtype.
        seed: seeds the sampling generator (an ``int``) or is the generator to use.

    Raises:
        TypeError: ``shape`` is not an iterable of integers.
        InvalidSpace: a bad dtype, shapes that disagree, nan bounds, bounds outside the dtype's
            range, or ``low > high`` somewhere (also a ``ValueError``, which Gymnasium raises).

    Example:
        >>> import numpy as np
        >>> from vecgym.core.spaces.box import Box
        >>> Box(low=-1.0, high=2.0, shape=(3, 4), dtype=np.float32)
        Box(-1.0, 2.0, (3, 4), float32)
        >>> Box(low=np.array([-1.0, -2.0]), high=np.array([2.0, 4.0]), dtype=np.float64)
        Box([-1. -2.], [2. 4.], (2,), float64)
        >>> Box(0, 10, shape=(2,), dtype=np.int64, seed=42).sample()
        array([8, 4])
    """

    dtype: np.dtype[Any]
    _shape: tuple[int, ...]
    low: npt.NDArray[Any]
    high: npt.NDArray[Any]
    bounded_below: npt.NDArray[np.bool_]
    bounded_above: npt.NDArray[np.bool_]
    low_repr: str | None
    high_repr: str | None

    def __init__(
        self,
        low: Any,
        high: Any,
        shape: Iterable[int | np.integer[Any]] | None = None,
        dtype: npt.DTypeLike = np.float32,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        resolved = _resolve_dtype(dtype)
        self.dtype = resolved
        self._shape = _resolve_shape(low, high, shape)
        low_array, below = _cast_bound(low, "low", resolved, self._shape)
        high_array, above = _cast_bound(high, "high", resolved, self._shape)
        for name, array in (("low", low_array), ("high", high_array)):
            if array.shape != self._shape:
                raise error.InvalidSpace(
                    BOUND_SHAPE_MSG.format(name=name, actual=array.shape, expected=self._shape)
                )
        if np.any(low_array > high_array):
            raise error.InvalidSpace(LOW_ABOVE_HIGH_MSG.format(low_array, high_array))
        self.low = _read_only(low_array)
        self.high = _read_only(high_array)
        self.bounded_below = _read_only(below)
        self.bounded_above = _read_only(above)
        self.low_repr = None  # filled in by the first ``repr``
        self.high_repr = None
        super().__init__(self._shape, resolved, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the values (never ``None``)."""
        return self._shape

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """Always ``True``."""
        return True

    def is_bounded(self, manner: Literal["both", "below", "above"] = "both") -> bool:
        """Whether every interval is bounded on the given side(s).

        Args:
            manner: ``"below"``, ``"above"`` or ``"both"``.

        Raises:
            ValueError: ``manner`` is none of those.
        """
        below = bool(np.all(self.bounded_below))
        above = bool(np.all(self.bounded_above))
        if manner == "both":
            return below and above
        if manner == "below":
            return below
        if manner == "above":
            return above
        raise ValueError(MANNER_MSG.format(manner))

    def sample(self, mask: None = None, probability: None = None) -> npt.NDArray[Any]:
        r"""Draw a value, each coordinate independently according to the form of its interval.

        * :math:`[a, b]`: uniform (for integer dtypes, uniform over the integers ``a..b``);
        * :math:`[a, \infty)`: ``a`` plus an exponential;
        * :math:`(-\infty, b]`: ``b`` minus an exponential;
        * :math:`(-\infty, \infty)`: standard normal.

        The draws are made in that order (normal, lower-bounded, upper-bounded, bounded), as in
        Gymnasium, so a seeded space gives Gymnasium's values.

        Raises:
            InvalidMask: a mask or a probability was given; a Box takes neither.
        """
        if mask is not None:
            raise error.InvalidMask(MASK_MSG.format(mask))
        if probability is not None:
            raise error.InvalidMask(PROBABILITY_MSG.format(probability))
        rng = self.np_random
        is_float = self.dtype.kind == "f"
        high = self.high if is_float else self.high.astype(np.int64) + 1
        below, above = self.bounded_below, self.bounded_above
        unbounded = ~below & ~above
        upper_only = ~below & above
        lower_only = below & ~above
        bounded = below & above

        values = np.empty(self._shape)
        values[unbounded] = rng.normal(size=(np.count_nonzero(unbounded),))
        values[lower_only] = (
            rng.exponential(size=(np.count_nonzero(lower_only),)) + self.low[lower_only]
        )
        values[upper_only] = (
            -rng.exponential(size=(np.count_nonzero(upper_only),)) + high[upper_only]
        )
        values[bounded] = rng.uniform(
            low=self.low[bounded], high=high[bounded], size=(np.count_nonzero(bounded),)
        )
        if is_float:
            return values.astype(self.dtype)
        return self._to_integers(np.floor(values))

    def _to_integers(self, values: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
        """Cast floored float samples to the integer/bool dtype without wrapping around."""
        if self.dtype.kind in "iu":
            info = np.iinfo(self.dtype)
            lowest, highest = int(info.min), int(info.max)
            if self.dtype == np.int64:
                # float64 cannot hold int64's extremes exactly: keep clear of them
                lowest, highest = lowest + 2, highest - 2
            values = values.clip(min=lowest, max=highest)
        result = values.astype(self.dtype)
        if self.dtype == np.int64:
            # near int64's extremes float64 is coarser than 1: clip again after the cast
            result = result.clip(min=self.low, max=self.high)
        return result

    def contains(self, x: Any) -> bool:
        """Whether ``x`` lies in the box, has its shape and a dtype safely castable to its dtype.

        Anything that is not an ndarray (a list, a scalar) is first converted to one of
        :attr:`dtype`, with a warning, as in Gymnasium; values that cannot be converted are not
        contained.
        """
        if not isinstance(x, np.ndarray):
            logger.warn(CAST_WARNING, stacklevel=2)
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError, OverflowError):
                return False
        return bool(
            np.can_cast(x.dtype, self.dtype)
            and x.shape == self._shape
            and np.all(x >= self.low)
            and np.all(x <= self.high)
        )

    def to_jsonable(self, sample_n: Iterable[npt.NDArray[Any]]) -> list[Any]:
        """Convert a batch of values to nested lists."""
        return [value.tolist() for value in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[npt.NDArray[Any]]:
        """Convert nested lists back to arrays of :attr:`dtype`."""
        return [np.asarray(value, dtype=self.dtype) for value in sample_n]

    def __repr__(self) -> str:
        """``Box(low, high, shape, dtype)``, a bound given as one number when it is uniform."""
        if self.low_repr is None:
            self.low_repr = array_short_repr(self.low)
        if self.high_repr is None:
            self.high_repr = array_short_repr(self.high)
        return f"Box({self.low_repr}, {self.high_repr}, {self._shape}, {self.dtype})"

    def __eq__(self, other: object) -> bool:
        """Same shape, dtype and bounds (floating bounds compared with ``np.allclose``).

        Integer and bool bounds are compared exactly: Gymnasium compares them with
        ``np.allclose`` too, whose relative tolerance calls e.g. ``Box(0, 2**40, dtype=np.int64)``
        and ``Box(0, 2**40 + 1, dtype=np.int64)`` equal.
        """
        if not (
            isinstance(other, Box) and self._shape == other._shape and self.dtype == other.dtype
        ):
            return False
        if self.dtype.kind == "f":
            return bool(np.allclose(self.low, other.low) and np.allclose(self.high, other.high))
        return bool(np.array_equal(self.low, other.low) and np.array_equal(self.high, other.high))

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        super().__setstate__(state)
        for name in ("low", "high", "bounded_below", "bounded_above"):
            value = self.__dict__.get(name)
            if isinstance(value, np.ndarray):
                _read_only(value)
        if not hasattr(self, "low_repr"):  # pickled before the repr cache existed
            self.low_repr = array_short_repr(self.low)
        if not hasattr(self, "high_repr"):
            self.high_repr = array_short_repr(self.high)


# --- construction helpers -------------------------------------------------------------------------
def _read_only(array: Any) -> npt.NDArray[Any]:
    """Make ``array`` read-only; a numpy scalar (what a 0-d array operation yields) becomes a 0-d
    array first, since only arrays have flags."""
    if not isinstance(array, np.ndarray):
        array = np.asarray(array)
    array.flags.writeable = False
    return array


def _resolve_dtype(dtype: npt.DTypeLike) -> np.dtype[Any]:
    if dtype is None:
        raise error.InvalidSpace(DTYPE_NONE_MSG)
    resolved = np.dtype(dtype)
    if resolved.kind not in "iufb":
        raise error.InvalidSpace(DTYPE_KIND_MSG.format(resolved))
    return resolved


def _resolve_shape(low: Any, high: Any, shape: Any) -> tuple[int, ...]:
    """The explicit ``shape``, else the shape of the array bound(s), else ``(1,)`` for scalars."""
    if shape is not None:
        if not isinstance(shape, Iterable):
            raise TypeError(SHAPE_TYPE_MSG.format(shape, type(shape)))
        dims = tuple(shape)
        if not all(isinstance(dim, (int, np.integer)) for dim in dims):
            raise TypeError(SHAPE_DIM_TYPE_MSG.format(tuple(type(dim) for dim in dims)))
        if any(dim < 0 for dim in dims):
            raise error.InvalidSpace(SHAPE_DIM_VALUE_MSG.format(dims))
        return tuple(int(dim) for dim in dims)
    if isinstance(low, np.ndarray) and isinstance(high, np.ndarray):
        if low.shape != high.shape:
            raise error.InvalidSpace(SHAPES_DIFFER_MSG.format(low.shape, high.shape))
        return tuple(low.shape)
    if isinstance(low, np.ndarray):
        return tuple(low.shape)
    if isinstance(high, np.ndarray):
        return tuple(high.shape)
    if is_float_integer(low) and is_float_integer(high):
        return (1,)
    raise error.InvalidSpace(SHAPE_UNKNOWN_MSG.format(type(low), type(high)))


def _dtype_range(dtype: np.dtype[Any]) -> tuple[int | float, int | float]:
    """The smallest and largest values of ``dtype`` as Python numbers."""
    if dtype.kind == "b":
        return 0, 1
    if dtype.kind == "f":
        finfo = np.finfo(dtype)
        return float(finfo.min), float(finfo.max)
    iinfo = np.iinfo(dtype)
    return int(iinfo.min), int(iinfo.max)


def _cast_bound(
    value: Any, name: str, dtype: np.dtype[Any], shape: tuple[int, ...]
) -> tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]:
    """Turn one bound into a fresh array of ``dtype`` and say where it is finite on its side.

    ``name`` is ``"low"`` (whose open end is ``-inf``) or ``"high"`` (whose open end is ``inf``).
    """
    if is_float_integer(value):
        return _cast_scalar_bound(value, name, dtype, shape)
    if not isinstance(value, np.ndarray):
        raise error.InvalidSpace(BOUND_TYPE_MSG.format(name=name, type=type(value)))
    if value.dtype.kind not in "iufb":
        raise error.InvalidSpace(BOUND_DTYPE_MSG.format(name=name, dtype=value.dtype))
    if np.any(np.isnan(value)):
        raise error.InvalidSpace(BOUND_NAN_MSG.format(name=name, value=value))
    dtype_min, dtype_max = _dtype_range(dtype)
    is_low = name == "low"
    open_end = np.isneginf(value) if is_low else np.isposinf(value)
    wrong_end = np.isposinf(value) if is_low else np.isneginf(value)
    if dtype.kind != "f":
        if np.any(open_end) and dtype.kind in "ub":
            raise error.InvalidSpace(
                BOUND_INF_UNSIGNED_MSG.format(name=name, inf=_inf_text(is_low), dtype=dtype)
            )
        if np.any(wrong_end):
            raise error.InvalidSpace(
                BOUND_INF_WRONG_SIDE_MSG.format(
                    name=name, inf=_inf_text(is_low), dtype=dtype, value=value
                )
            )
    finite = value[np.isfinite(value)]
    if value.dtype != dtype and finite.size > 0:
        smallest, largest = finite.min().item(), finite.max().item()
        if smallest < dtype_min or largest > dtype_max:
            raise error.OutOfDtypeRange(
                BOUND_RANGE_MSG.format(
                    name=name, low=dtype_min, high=dtype_max, dtype=dtype, value=value
                )
            )
    if (
        value.dtype.kind == "f"
        and dtype.kind == "f"
        and np.finfo(dtype).precision < np.finfo(value.dtype).precision
    ):
        # attribute the warning to the code that built the Box
        logger.warn(
            BOUND_PRECISION_MSG.format(name=name, dtype=dtype, src=value.dtype), stacklevel=3
        )
    bounded = ~open_end
    if dtype.kind == "i" and np.any(open_end):
        # cast the finite part, then put the dtype's extreme where the bound was infinite
        result = np.where(open_end, 0, value).astype(dtype)
        result[open_end] = dtype_min if is_low else dtype_max
    else:
        result = value.astype(dtype)  # always a copy: the caller's array is never touched
    return result, bounded


def _cast_scalar_bound(
    value: float | np.floating[Any] | np.integer[Any],
    name: str,
    dtype: np.dtype[Any],
    shape: tuple[int, ...],
) -> tuple[npt.NDArray[Any], npt.NDArray[np.bool_]]:
    """Broadcast a scalar bound to ``shape``; see :func:`_cast_bound`."""
    dtype_min, dtype_max = _dtype_range(dtype)
    is_low = name == "low"
    bounded = True
    fill: Any = value
    if isinstance(value, (float, np.floating)):
        if np.isnan(value):
            raise error.InvalidSpace(BOUND_NAN_MSG.format(name=name, value=value))
        if np.isinf(value):
            if (value < 0) == is_low:  # infinite at this bound's open end
                bounded = False
                if dtype.kind in "ub":
                    raise error.InvalidSpace(
                        BOUND_INF_UNSIGNED_MSG.format(name=name, inf=_inf_text(is_low), dtype=dtype)
                    )
                if dtype.kind == "i":
                    fill = dtype_min if is_low else dtype_max
            elif dtype.kind != "f":
                raise error.InvalidSpace(
                    BOUND_INF_WRONG_SIDE_MSG.format(
                        name=name, inf=_inf_text(is_low), dtype=dtype, value=value
                    )
                )
    number = fill.item() if isinstance(fill, np.generic) else fill
    if not (isinstance(number, float) and np.isinf(number)) and not (
        dtype_min <= number <= dtype_max
    ):
        raise error.OutOfDtypeRange(
            BOUND_RANGE_MSG.format(
                name=name, low=dtype_min, high=dtype_max, dtype=dtype, value=value
            )
        )
    return np.full(shape, fill, dtype=dtype), np.full(shape, bounded)


def _inf_text(is_low: bool) -> str:
    return "-inf" if is_low else "inf"
