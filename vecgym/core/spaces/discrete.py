"""The :class:`Discrete` space: the integers ``start, start + 1, ..., start + n - 1``.

This module also holds the small checks that the integer and text spaces share for sampling masks
and probability vectors (``vecgym.core.spaces.multi_discrete`` and ``.text`` import them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.spaces.space import MaskNDArray, Space

__all__ = ["Discrete"]

# --- message templates ----------------------------------------------------------------------------
N_TYPE_MSG = "Discrete n must be an integer, got {!r} of type {}"
N_VALUE_MSG = "Discrete n (the size of the space) must be >= 1, got {}"
START_TYPE_MSG = "Discrete start must be an integer, got {!r} of type {}"
DTYPE_NONE_MSG = "Discrete needs an explicit dtype, got dtype=None"
DTYPE_KIND_MSG = "Discrete needs a dtype of integer kind, got {}"
RANGE_MSG = (
    "Discrete n, start and the largest element start + n - 1 must fit dtype {dtype} "
    "(range [{low}, {high}]), got n={n}, start={start}, start + n - 1 = {top}"
)
BOTH_GIVEN_MSG = "`mask` and `probability` exclude each other, got mask={!r}, probability={!r}"
ARRAY_TYPE_MSG = "the sample {name} must be a numpy.ndarray, got {type}"
ARRAY_DTYPE_MSG = "the sample {name} must have dtype {expected}, got {actual}"
ARRAY_SHAPE_MSG = "the sample {name} must have shape {expected}, got {actual}"
MASK_VALUES_MSG = "a sample mask may hold only 0 and 1, got {}"
PROBABILITY_VALUES_MSG = "every entry of a sample probability must lie in [0, 1], got {}"
PROBABILITY_SUM_MSG = "a sample probability must add up to 1, got a total of {}"


# --- helpers shared with MultiDiscrete and Text ---------------------------------------------------
def _check_array(
    value: Any, name: str, dtype: npt.DTypeLike, shape: tuple[int, ...]
) -> npt.NDArray[Any]:
    """Check that a mask or probability vector is an ndarray of the given dtype and shape."""
    if not isinstance(value, np.ndarray):
        raise error.InvalidMaskType(ARRAY_TYPE_MSG.format(name=name, type=type(value)))
    if value.dtype != np.dtype(dtype):
        raise error.InvalidMask(
            ARRAY_DTYPE_MSG.format(name=name, expected=np.dtype(dtype), actual=value.dtype)
        )
    if value.shape != shape:
        raise error.InvalidMask(
            ARRAY_SHAPE_MSG.format(name=name, expected=shape, actual=value.shape)
        )
    return value


def _check_binary_mask(mask: Any, shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """Validate an ``np.int8`` 0/1 mask and return where it is 1."""
    _check_array(mask, "mask", np.int8, shape)
    allowed = mask == 1
    if not np.all(allowed | (mask == 0)):
        raise error.InvalidMask(MASK_VALUES_MSG.format(mask))
    return allowed


def _check_probability_values(probability: npt.NDArray[np.float64], *, total: bool) -> None:
    """Check that each probability lies in [0, 1] and, if ``total``, that they sum to 1."""
    if not np.all((probability >= 0) & (probability <= 1)):
        raise error.InvalidProbability(PROBABILITY_VALUES_MSG.format(probability))
    if total and not np.isclose(np.sum(probability), 1):
        raise error.InvalidProbability(PROBABILITY_SUM_MSG.format(np.sum(probability)))


def _choice(
    rng: np.random.Generator,
    population: npt.ArrayLike,
    probability: npt.NDArray[np.float64],
    size: int | None = None,
) -> Any:
    """``rng.choice(population, size, p=probability)``, tolerant of sums only close to 1.

    Probabilities are accepted when their sum is ``np.isclose`` to 1, but ``Generator.choice`` has a
    tighter tolerance. Where it refuses (it does so before drawing anything), the vector is scaled
    to sum to 1 and the draw retried, so valid vectors give exactly the draws Gymnasium gives.
    """
    try:
        return rng.choice(population, size=size, p=probability)
    except ValueError:
        return rng.choice(population, size=size, p=probability / np.sum(probability))


def _is_integer(value: Any) -> bool:
    """Whether ``value`` is a Python or numpy integer (``bool`` is not)."""
    return bool(np.issubdtype(type(value), np.integer))


# --- the space ------------------------------------------------------------------------------------
class Discrete(Space[np.integer[Any]]):
    r"""The finite set of integers :math:`\{start, start + 1, \dots, start + n - 1\}`.

    Values are numpy integer scalars of :attr:`dtype` (``np.int64`` by default).

    Args:
        n: the number of elements (positive).
        seed: seeds the sampling generator (an ``int``) or is the generator to use.
        start: the smallest element.
        dtype: an integer dtype for the values; every element must be representable in it.

    Raises:
        TypeError: ``n`` or ``start`` is not an integer.
        InvalidSpace: ``n <= 0`` (also a ``ValueError``).
        InvalidSpaceType: ``dtype`` is ``None`` or not an integer dtype (also a ``TypeError``, as
            in Gymnasium).
        OutOfDtypeRange: elements that do not fit ``dtype`` (also a ``ValueError`` and an
            ``OverflowError``, which numpy raises inside Gymnasium).

    Example:
        >>> from vecgym.core.spaces.discrete import Discrete
        >>> space = Discrete(3, start=-1, seed=42)
        >>> space
        Discrete(3, start=-1)
        >>> int(space.sample()), int(space.sample(mask=np.array([0, 0, 1], dtype=np.int8)))
        (-1, 1)
    """

    dtype: np.dtype[Any]
    n: np.integer[Any]
    start: np.integer[Any]

    def __init__(
        self,
        n: int | np.integer[Any],
        seed: int | np.random.Generator | None = None,
        start: int | np.integer[Any] = 0,
        dtype: npt.DTypeLike = np.int64,
    ) -> None:
        if not _is_integer(n):
            raise TypeError(N_TYPE_MSG.format(n, type(n)))
        if n <= 0:
            raise error.InvalidSpace(N_VALUE_MSG.format(n))
        if not _is_integer(start):
            raise TypeError(START_TYPE_MSG.format(start, type(start)))
        if dtype is None:
            raise error.InvalidSpaceType(DTYPE_NONE_MSG)
        resolved = np.dtype(dtype)
        if not np.issubdtype(resolved, np.integer):
            raise error.InvalidSpaceType(DTYPE_KIND_MSG.format(resolved))
        _check_fits(resolved, int(start), int(n))
        self.n = resolved.type(int(n))
        self.start = resolved.type(int(start))
        super().__init__((), resolved, seed)

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """Always ``True``: a value flattens to a one-hot vector of length ``n``."""
        return True

    def sample(
        self, mask: MaskNDArray | None = None, probability: npt.NDArray[np.float64] | None = None
    ) -> np.integer[Any]:
        """Draw an element, uniformly unless a mask or a probability vector is given.

        Args:
            mask: an ``np.int8`` array of shape ``(n,)`` of 0/1 values; the draw is uniform over
                the elements marked 1, and is ``start`` (drawing nothing) when none is marked.
            probability: an ``np.float64`` array of shape ``(n,)`` with values in ``[0, 1]`` that
                sum to 1: the probability of each element.

        Returns:
            A numpy integer of :attr:`dtype`.

        Raises:
            InvalidMask: both arguments given, or one of the wrong type, dtype, shape, or a mask
                value other than 0/1 (also a ``ValueError``).
            InvalidProbability: probabilities outside ``[0, 1]`` or not summing to 1.
        """
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_GIVEN_MSG.format(mask, probability))
        size = (int(self.n),)
        if mask is not None:
            allowed = _check_binary_mask(mask, size)
            if not np.any(allowed):
                return self.start
            return self.start + self.dtype.type(self.np_random.choice(np.nonzero(allowed)[0]))
        if probability is not None:
            _check_array(probability, "probability", np.float64, size)
            _check_probability_values(probability, total=True)
            elements = np.arange(self.n, dtype=self.dtype)
            return self.start + _choice(self.np_random, elements, probability)
        return self.start + self.np_random.integers(self.n, dtype=self.dtype.type)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is an element: a Python ``int`` or a 0-d numpy integer (scalar or array).

        A numpy value must also be safely castable to :attr:`dtype`; a Python ``int`` must fit it.
        """
        if isinstance(x, int):
            info = np.iinfo(self.dtype)
            if not info.min <= x <= info.max:
                return False
            castable = True
        elif (
            isinstance(x, (np.generic, np.ndarray))
            and np.issubdtype(x.dtype, np.integer)
            and x.shape == ()
        ):
            castable = bool(np.can_cast(x.dtype, self.dtype))
        else:
            return False
        value = int(x)
        return castable and int(self.start) <= value < int(self.start) + int(self.n)

    def __repr__(self) -> str:
        parts = [str(self.n)]
        if self.start != 0:
            parts.append(f"start={self.start}")
        if self.dtype != np.int64:
            parts.append(f"dtype={self.dtype}")
        return f"Discrete({', '.join(parts)})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Discrete)
            and self.n == other.n
            and self.start == other.start
            and self.dtype == other.dtype
        )

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        state = dict(state)
        if "start" not in state:  # pickled before ``start`` existed
            dtype = np.dtype(state.get("dtype", np.int64))
            state["start"] = dtype.type(0)
        super().__setstate__(state)

    def to_jsonable(self, sample_n: Iterable[Any]) -> list[int]:
        """Convert a batch of elements to Python ints."""
        return [int(value) for value in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[np.integer[Any]]:
        """Convert Python ints back to numpy integers of :attr:`dtype`."""
        return [self.dtype.type(value) for value in sample_n]


def _check_fits(dtype: np.dtype[Any], start: int, n: int) -> None:
    """Raise unless ``n``, ``start`` and ``start + n - 1`` are all representable in ``dtype``."""
    info = np.iinfo(dtype)
    top = start + n - 1
    if start < info.min or top > info.max or n > info.max:
        raise error.OutOfDtypeRange(
            RANGE_MSG.format(dtype=dtype, low=info.min, high=info.max, n=n, start=start, top=top)
        )
