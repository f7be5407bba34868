"""The :class:`MultiBinary` space: arrays of 0s and 1s of a fixed shape."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.spaces.discrete import (
    BOTH_GIVEN_MSG,
    _check_array,
    _check_probability_values,
)
from vecgym.core.spaces.space import Space

__all__ = ["MultiBinary"]

# --- message templates ----------------------------------------------------------------------------
N_TYPE_MSG = (
    "MultiBinary n must be an integer or a sequence of integers (the shape), got {!r} of type {}"
)
N_VALUE_MSG = "MultiBinary n must hold only positive sizes, got {}"
MASK_VALUES_MSG = "a MultiBinary sample mask may hold only 0, 1 and 2, got {}"


class MultiBinary(Space[npt.NDArray[np.int8]]):
    """Binary arrays (``np.int8`` 0s and 1s) of a shape fixed at construction.

    Args:
        n: the shape: an ``int`` for a flat space, or a sequence (or array) of ints for several
            axes. :attr:`n` keeps that form: an ``int``, or a tuple of ints.
        seed: seeds the sampling generator (an ``int``) or is the generator to use.

    Raises:
        InvalidSpace: ``n`` is not an integer or a sequence of integers, or a count is not positive
            (also a ``ValueError``, which Gymnasium raises).

    Example:
        >>> from vecgym.core.spaces.multi_binary import MultiBinary
        >>> MultiBinary(5, seed=42).sample()
        array([1, 0, 1, 0, 1], dtype=int8)
        >>> MultiBinary([3, 2], seed=42).sample()
        array([[1, 0],
               [1, 0],
               [1, 1]], dtype=int8)
    """

    dtype: np.dtype[np.int8]
    n: int | tuple[int, ...]

    def __init__(
        self,
        n: npt.NDArray[np.integer[Any]] | Sequence[int] | int,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        if _is_integer(n):
            self.n = int(n)  # type: ignore[arg-type]
            dims: tuple[int, ...] = (self.n,)
        elif isinstance(n, (Sequence, np.ndarray)) and not isinstance(n, str):
            if not all(_is_integer(dim) or _is_integral_float(dim) for dim in n):
                raise error.InvalidSpace(N_TYPE_MSG.format(n, type(n)))
            self.n = dims = tuple(int(dim) for dim in n)
        else:
            raise error.InvalidSpace(N_TYPE_MSG.format(n, type(n)))
        if not all(dim > 0 for dim in dims):
            raise error.InvalidSpace(N_VALUE_MSG.format(n))
        super().__init__(dims, np.int8, seed)

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the values (never ``None``)."""
        return self._shape  # type: ignore[return-value]

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """Always ``True``."""
        return True

    def sample(
        self,
        mask: npt.NDArray[np.int8] | None = None,
        probability: npt.NDArray[np.float64] | None = None,
    ) -> npt.NDArray[np.int8]:
        """Draw a value: one fair coin toss per entry, unless a mask or probabilities are given.

        Args:
            mask: an ``np.int8`` array of :attr:`shape`; an entry of 0 or 1 fixes that entry of
                the value, 2 leaves it random. (A full set of tosses is drawn either way.)
            probability: an ``np.float64`` array of :attr:`shape` in ``[0, 1]``: the probability
                that each entry is 1.

        Returns:
            An ``np.int8`` array of :attr:`shape`.

        Raises:
            InvalidMask: both arguments given, or one of the wrong type, dtype or shape, or a mask
                value other than 0, 1 or 2 (also a ``ValueError``).
            InvalidProbability: probabilities outside ``[0, 1]``.
        """
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_GIVEN_MSG.format(mask, probability))
        if mask is not None:
            _check_array(mask, "mask", np.int8, self.shape)
            if not np.all((mask == 0) | (mask == 1) | (mask == 2)):
                raise error.InvalidMask(MASK_VALUES_MSG.format(mask))
            tosses = self.np_random.integers(low=0, high=2, size=self.n, dtype=self.dtype)
            return np.where(mask == 2, tosses, mask.astype(self.dtype))
        if probability is not None:
            _check_array(probability, "probability", np.float64, self.shape)
            _check_probability_values(probability, total=False)
            # ``random() < p`` is 1 with probability exactly p (Gymnasium's ``<=`` could give a 1
            # where p == 0, when the draw is exactly 0.0)
            return (self.np_random.random(size=self.shape) < probability).astype(self.dtype)
        return self.np_random.integers(low=0, high=2, size=self.n, dtype=self.dtype)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` (an ndarray, or a sequence made one) has the shape and only 0s and 1s."""
        if isinstance(x, Sequence):
            x = np.array(x)
        return bool(
            isinstance(x, np.ndarray)
            and self.shape == x.shape
            and np.all(np.logical_or(x == 0, x == 1))
        )

    def to_jsonable(self, sample_n: Iterable[npt.NDArray[np.int8]]) -> list[Any]:
        """Convert a batch of values to nested lists."""
        return np.array(list(sample_n)).tolist()

    def from_jsonable(self, sample_n: list[Any]) -> list[npt.NDArray[np.int8]]:
        """Convert nested lists back to ``np.int8`` arrays."""
        return [np.asarray(value, self.dtype) for value in sample_n]

    def __repr__(self) -> str:
        return f"MultiBinary({self.n})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MultiBinary) and self.n == other.n


def _is_integer(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _is_integral_float(value: Any) -> bool:
    return isinstance(value, (float, np.floating)) and float(value).is_integer()
