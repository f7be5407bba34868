"""The :class:`Text` space: strings of bounded length over a set of characters."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.spaces.discrete import (
    BOTH_GIVEN_MSG,
    _check_array,
    _check_probability_values,
    _choice,
    _is_integer,
)
from vecgym.core.spaces.space import Space

__all__ = ["Text", "alphanumeric"]

#: The default character set: the English letters (both cases) and the digits.
alphanumeric: frozenset[str] = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

# --- message templates ----------------------------------------------------------------------------
LENGTH_TYPE_MSG = "Text {name} must be an integer, got {value!r} of type {type}"
MIN_LENGTH_MSG = "Text min_length must be >= 0, got {}"
LENGTHS_ORDER_MSG = "Text min_length must not exceed max_length, got min_length={}, max_length={}"
CHARSET_TYPE_MSG = "Text charset must be a string or a set of characters, got {!r}"
CHARSET_ELEMENT_MSG = "Text charset elements must be single-character strings, got {}"
CHARSET_ELEMENT_TYPE_MSG = "Text charset elements must be strings, got elements of types {}"
MASK_TUPLE_MSG = "the Text sample {name} must be a tuple (length, array), got {value!r}"
MASK_LENGTH_TYPE_MSG = (
    "the `length` of a Text sample must be None or an integer, got {!r} of type {}"
)
MASK_LENGTH_RANGE_MSG = "the Text sample length must lie in [{}, {}], got {}"
MASK_VALUES_MSG = "a Text sample mask may hold only 0 and 1, got {}"
NO_CHARACTER_MSG = (
    "cannot sample a Text value: min_length is {} but the mask allows no character "
    "(an all-zero mask only gives the empty string, which needs min_length == 0)"
)


class Text(Space[str]):
    r"""Strings of ``min_length`` to ``max_length`` characters (both inclusive) from ``charset``.

    Args:
        max_length: the longest length.
        min_length: the shortest length (keyword only; default 1, so no empty string).
        charset: the characters: a string (its order is kept, duplicates dropped) or a set (sorted,
            so that sampling does not depend on hash randomisation). Each must be one character.
        seed: seeds the sampling generator (an ``int``) or is the generator to use.

    Raises:
        TypeError: a length is not an integer, or ``charset`` is not an iterable of strings.
        InvalidSpace: ``min_length < 0``, ``min_length > max_length``, or a charset element that
            is not a single character (also a ``ValueError``, which Gymnasium raises).

    Example:
        >>> import string
        >>> from vecgym.core.spaces.text import Text
        >>> Text(5)
        Text(1, 5, charset=0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz)
        >>> Text(min_length=1, max_length=10, charset=string.digits, seed=42).sample()
        '4'
    """

    min_length: int
    max_length: int

    def __init__(
        self,
        max_length: int,
        *,
        min_length: int = 1,
        charset: Iterable[str] = alphanumeric,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        for name, value in (("min_length", min_length), ("max_length", max_length)):
            if not _is_integer(value):
                raise TypeError(LENGTH_TYPE_MSG.format(name=name, value=value, type=type(value)))
        if min_length < 0:
            raise error.InvalidSpace(MIN_LENGTH_MSG.format(min_length))
        if min_length > max_length:
            raise error.InvalidSpace(LENGTHS_ORDER_MSG.format(min_length, max_length))
        self.min_length = int(min_length)
        self.max_length = int(max_length)

        chars = _character_list(charset)
        self._char_set: frozenset[str] = frozenset(chars)
        self._char_list: tuple[str, ...] = tuple(chars)
        self._char_index: dict[str, np.int32] = {c: np.int32(i) for i, c in enumerate(chars)}
        self._char_str: str = "".join(sorted(chars))
        super().__init__(dtype=str, seed=seed)  # values have no fixed shape

    @property
    def character_set(self) -> frozenset[str]:
        """The characters, as a set."""
        return self._char_set

    @property
    def character_list(self) -> tuple[str, ...]:
        """The characters in their fixed order (the order of masks and of flattened values)."""
        return self._char_list

    def character_index(self, char: str) -> np.int32:
        """The position of ``char`` in :attr:`character_list`."""
        return self._char_index[char]

    @property
    def characters(self) -> str:
        """The characters, sorted, as one string."""
        return self._char_str

    @property
    def is_np_flattenable(self) -> bool:
        """Always ``True``: a value flattens to character indices padded to ``max_length``."""
        return True

    def sample(
        self,
        mask: tuple[int | None, npt.NDArray[np.int8] | None] | None = None,
        probability: tuple[int | None, npt.NDArray[np.float64] | None] | None = None,
    ) -> str:
        """Draw a string: a length uniformly in ``[min_length, max_length]``, then its characters.

        Args:
            mask: ``(length, char_mask)``: a fixed length (or ``None`` for a random one) and an
                ``np.int8`` 0/1 array over :attr:`character_list` (or ``None`` for all); characters
                are drawn uniformly among those marked 1. An all-zero mask gives ``""`` when
                ``min_length == 0``.
            probability: ``(length, char_probability)`` like ``mask``, with an ``np.float64``
                array of per-character probabilities in ``[0, 1]`` summing to 1.

        Returns:
            A string of this space.

        Raises:
            InvalidMask: both arguments given; a mask/probability that is not a ``(length, array)``
                tuple; a length that is not an integer in range; an array of the wrong type, dtype
                or shape; mask values other than 0/1; or an all-zero mask with ``min_length > 0``
                (also a ``ValueError``).
            InvalidProbability: probabilities outside ``[0, 1]`` or not summing to 1.
        """
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_GIVEN_MSG.format(mask, probability))
        weights: npt.NDArray[np.float64] | None = None
        length: Any = None
        if mask is not None:
            length, char_mask = self._unpack(mask, np.int8, "mask")
            if char_mask is not None:
                if not np.all((char_mask == 0) | (char_mask == 1)):
                    raise error.InvalidMask(MASK_VALUES_MSG.format(char_mask))
                total = np.sum(char_mask)
                weights = char_mask / total if total > 0 else char_mask
        elif probability is not None:
            length, weights = self._unpack(probability, np.float64, "probability")
            if weights is not None:
                _check_probability_values(weights, total=True)

        if length is None:
            length = self.np_random.integers(self.min_length, self.max_length + 1)
        if weights is None:
            count = len(self._char_list)
            weights = np.ones(count) / count
        if np.all(weights == 0):
            if self.min_length == 0:
                return ""
            raise error.InvalidMask(NO_CHARACTER_MSG.format(self.min_length))
        drawn = _choice(self.np_random, self._char_list, weights, size=length)
        return "".join(drawn)

    def _unpack(self, value: Any, dtype: type[np.generic], name: str) -> tuple[Any, Any]:
        """Check a ``(length, array)`` mask or probability and return its two parts."""
        if not isinstance(value, tuple) or len(value) != 2:
            raise error.InvalidMaskType(MASK_TUPLE_MSG.format(name=name, value=value))
        length, array = value
        if length is not None:
            if not _is_integer(length):
                raise error.InvalidMaskType(MASK_LENGTH_TYPE_MSG.format(length, type(length)))
            if not self.min_length <= length <= self.max_length:
                raise error.InvalidMask(
                    MASK_LENGTH_RANGE_MSG.format(self.min_length, self.max_length, length)
                )
        if array is not None:
            _check_array(array, name, dtype, (len(self._char_list),))
        return length, array

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a string of an allowed length made only of :attr:`character_set`."""
        if isinstance(x, str) and self.min_length <= len(x) <= self.max_length:
            return all(c in self._char_set for c in x)
        return False

    def __repr__(self) -> str:
        return f"Text({self.min_length}, {self.max_length}, charset={self.characters})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Text)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
            and self.character_set == other.character_set
        )


def _character_list(charset: Iterable[str]) -> list[str]:
    """The characters of ``charset`` in sampling order: sorted for sets, first-seen otherwise."""
    if not isinstance(charset, Iterable):
        raise TypeError(CHARSET_TYPE_MSG.format(charset))
    elements = list(charset)
    wrong_types = {type(c).__name__ for c in elements if not isinstance(c, str)}
    if wrong_types:
        raise TypeError(CHARSET_ELEMENT_TYPE_MSG.format(sorted(wrong_types)))
    if isinstance(charset, (set, frozenset)):
        chars = sorted(elements)
    else:
        chars = list(dict.fromkeys(elements))
    invalid = [c for c in chars if len(c) != 1]
    if invalid:
        raise error.InvalidSpace(CHARSET_ELEMENT_MSG.format(invalid))
    return chars
