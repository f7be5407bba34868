"""The :class:`Sequence` space: finite sequences, of any length, of values of one space."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence as AbcSequence
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from vecgym import error
from vecgym.core.spaces import batching
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.tuple import BOTH_MASKS_MSG, SUBSEED_BOUND, is_int_seed

__all__ = ["Sequence"]

# The length of an unmasked sample is drawn from a geometric distribution with this parameter
# (mean length 4), as in Gymnasium.
GEOMETRIC_P = 0.25

FEATURE_TYPE_MSG = "Sequence feature space must be a vecgym Space, got type {type}"
SEED_LENGTH_MSG = (
    "a Sequence space seed given as a list / tuple must hold 2 ints (one each for the Sequence and "
    "its feature space), got {got}"
)
SEED_TYPE_MSG = (
    "a Sequence space seed must be None, an int or a list / tuple of two ints, got type {type}"
)
MASK_FORM_MSG = (
    "`{kind}` for a Sequence sample must be a pair (length {kind}, feature space {kind}), got "
    "{value!r}"
)
LENGTH_NEGATIVE_MSG = "the length in `{kind}` must be >= 0, got {value}"
LENGTH_NDIM_MSG = "the array of lengths in `{kind}` must be 1-D, got shape {shape}"
LENGTHS_NEGATIVE_MSG = "every entry of the array of lengths in `{kind}` must be >= 0, got {value}"
LENGTH_DTYPE_MSG = "the array of lengths in `{kind}` must have an integer dtype, got {dtype}"
LENGTH_TYPE_MSG = (
    "the length in `{kind}` must be None, an integer or a numpy array of integers, got type {type}"
)


class Sequence(Space[Any]):
    """Finite sequences of values of a feature space; the length varies from sample to sample.

    Values are tuples of feature values, or, with ``stack=True``, one batched value (e.g. an array
    with a leading axis of the sequence's length) as built by
    :func:`vecgym.vector.utils.batch_space` / ``concatenate``.

    Args:
        space: the feature space of the elements.
        seed: an ``int`` seeds this space and, through a seed drawn from it, the feature space
            (see :meth:`seed`); a ``numpy.random.Generator`` becomes this space's generator.
        stack: whether samples are stacked into one batched value.

    Raises:
        TypeError: ``space`` is not a :class:`Space`.

    Example:
        >>> from vecgym.spaces import Box, Sequence
        >>> space = Sequence(Box(0, 1), seed=0)
        >>> [float(x[0]) for x in space.sample()]
        [0.6822636127471924, 0.18933342397212982, 0.19049619138240814]
        >>> Sequence(Box(0, 1), stack=True, seed=0).sample().shape
        (3, 1)
    """

    feature_space: Space[Any]
    stack: bool
    stacked_feature_space: Space[Any]

    def __init__(
        self,
        space: Space[Any],
        seed: int | AbcSequence[Any] | np.random.Generator | None = None,
        stack: bool = False,
    ) -> None:
        if not isinstance(space, Space):
            raise TypeError(FEATURE_TYPE_MSG.format(type=type(space)))
        self.feature_space = space
        self.stack = stack
        if stack:
            self.stacked_feature_space = batching.batch_space(space, 1)
        super().__init__(None, None, seed)  # type: ignore[arg-type]

    def seed(self, seed: int | AbcSequence[Any] | None = None) -> tuple[Any, Any]:
        """Seed this space's generator (which draws lengths) and the feature space.

        * ``None``: both seed themselves from fresh entropy.
        * ``int``: this space is seeded with it and draws the feature space's seed; it is then
          seeded with it again, so that its length stream is the same as after ``(seed, ...)``.
        * ``list`` / ``tuple`` of two: ``(own seed, feature space seed)``.

        Returns:
            ``(own seed, feature space seed)``.

        Raises:
            ValueError: a list / tuple whose length is not two.
            TypeError: any other type of seed.
        """
        if seed is None:
            return super().seed(None), self.feature_space.seed(None)
        if is_int_seed(seed):
            own = super().seed(seed)
            feature_seed = int(self.np_random.integers(SUBSEED_BOUND))
            super().seed(seed)
            return own, self.feature_space.seed(feature_seed)
        if isinstance(seed, (list, tuple)):
            if len(seed) != 2:
                raise error.InvalidSeed(SEED_LENGTH_MSG.format(got=len(seed)))
            return super().seed(seed[0]), self.feature_space.seed(seed[1])
        raise TypeError(SEED_TYPE_MSG.format(type=type(seed)))

    @property
    def is_np_flattenable(self) -> Literal[False]:
        """Always ``False``: sequences have no fixed size."""
        return False

    def sample(
        self,
        mask: tuple[int | NDArray[np.integer[Any]] | None, Any] | None = None,
        probability: tuple[int | NDArray[np.integer[Any]] | None, Any] | None = None,
    ) -> Any:
        """Draw a length, then that many values of the feature space.

        Args:
            mask: ``None`` or ``(length_mask, feature_mask)``. ``length_mask`` is ``None`` (a
                geometric length, ``p = 0.25``), a non-negative integer (that length) or a 1-d
                array of non-negative integers (a length drawn uniformly from it);
                ``feature_mask`` is passed as ``mask`` to every feature sample.
            probability: as ``mask``, with the second part passed as ``probability``.

        Returns:
            A tuple of feature values, or their stacked form when ``stack`` is set. A sequence of
            length 0 stacks to the empty batch (e.g. an array of shape ``(0, ...)``), where
            Gymnasium 1.4 raises ``ValueError``.

        Raises:
            InvalidMask: both ``mask`` and ``probability`` are given, or a malformed length part.
            TypeError: a length part of an unsupported type.
        """
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_MASKS_MSG.format(mask=mask, probability=probability))
        if mask is not None:
            length_mask, feature_mask = self._split_mask("mask", mask)
            length = self.generate_sample_length(length_mask, "mask")
            values = tuple(self.feature_space.sample(mask=feature_mask) for _ in range(length))
        elif probability is not None:
            length_mask, feature_prob = self._split_mask("probability", probability)
            length = self.generate_sample_length(length_mask, "probability")
            values = tuple(
                self.feature_space.sample(probability=feature_prob) for _ in range(length)
            )
        else:
            length = self.np_random.geometric(GEOMETRIC_P)
            values = tuple(self.feature_space.sample() for _ in range(length))

        if self.stack:
            out = batching.create_empty_array(self.feature_space, len(values))
            if not values:
                # Gymnasium fails here ("need at least one array to stack"); the empty batch
                # (e.g. an array of shape (0, ...)) is the stacked form of an empty sequence.
                return out
            return batching.concatenate(self.feature_space, values, out)
        return values

    @staticmethod
    def _split_mask(kind: str, value: Any) -> tuple[Any, Any]:
        if not isinstance(value, (tuple, list)) or len(value) != 2:
            raise error.InvalidMaskType(MASK_FORM_MSG.format(kind=kind, value=value))
        return value[0], value[1]

    def generate_sample_length(
        self,
        length_mask: int | np.integer[Any] | NDArray[np.integer[Any]] | None,
        mask_type: str | None,
    ) -> int:
        """Draw the length of a sample.

        Args:
            length_mask: ``None`` (geometric, ``p = 0.25``), a non-negative integer (returned as
                it is) or a 1-d array of non-negative integers (one drawn uniformly).
            mask_type: ``"mask"`` or ``"probability"``, for error messages.

        Returns:
            The length.

        Raises:
            InvalidMask: a negative length, or an array that is not 1-d, has a negative entry or
                has a non-integer dtype.
            TypeError: ``length_mask`` of another type.
        """
        if length_mask is None:
            return self.np_random.geometric(GEOMETRIC_P)
        if np.issubdtype(type(length_mask), np.integer):
            if length_mask < 0:
                raise error.InvalidMask(
                    LENGTH_NEGATIVE_MSG.format(kind=mask_type, value=length_mask)
                )
            return length_mask  # type: ignore[return-value]
        if isinstance(length_mask, np.ndarray):
            if length_mask.ndim != 1:
                raise error.InvalidMask(
                    LENGTH_NDIM_MSG.format(kind=mask_type, shape=length_mask.shape)
                )
            if not np.all(length_mask >= 0):
                raise error.InvalidMask(
                    LENGTHS_NEGATIVE_MSG.format(kind=mask_type, value=length_mask)
                )
            if not np.issubdtype(length_mask.dtype, np.integer):
                raise error.InvalidMask(
                    LENGTH_DTYPE_MSG.format(kind=mask_type, dtype=length_mask.dtype)
                )
            return self.np_random.choice(length_mask)
        raise TypeError(LENGTH_TYPE_MSG.format(kind=mask_type, type=type(length_mask)))

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a tuple of feature values (with ``stack``: a stacked value whose
        elements are all feature values)."""
        if self.stack:
            try:
                items = list(batching.iterate(self.stacked_feature_space, x))
            except TypeError:
                return False
            return all(item in self.feature_space for item in items)
        return isinstance(x, tuple) and all(self.feature_space.contains(item) for item in x)

    def __repr__(self) -> str:
        return f"Sequence({self.feature_space}, stack={self.stack})"

    def to_jsonable(self, sample_n: Iterable[Any]) -> list[Any]:
        """Convert a batch of sequences to one JSON-able list per sequence."""
        if self.stack:
            return self.stacked_feature_space.to_jsonable(sample_n)
        return [self.feature_space.to_jsonable(sample) for sample in sample_n]

    def from_jsonable(self, sample_n: list[Any]) -> list[Any]:
        """Convert the output of :meth:`to_jsonable` back to sequences."""
        if self.stack:
            return self.stacked_feature_space.from_jsonable(sample_n)
        return [tuple(self.feature_space.from_jsonable(sample)) for sample in sample_n]

    def __eq__(self, other: object) -> bool:
        """Sequences are equal when their feature spaces and ``stack`` flags are equal."""
        return (
            isinstance(other, Sequence)
            and self.feature_space == other.feature_space
            and self.stack == other.stack
        )

    __hash__ = None  # type: ignore[assignment]


@batching.create_empty_array.register(Sequence)
def _empty_sequence(space: Sequence, n: int = 1, fn: Any = np.zeros) -> tuple[Any, ...]:
    if space.stack:
        return tuple(batching.create_empty_array(space.feature_space, n=1, fn=fn) for _ in range(n))
    return tuple(() for _ in range(n))


# Registered by element type: batch_differing_spaces dispatches on type(spaces[0]) itself.
batching.batch_differing_spaces.register(Sequence)(batching.differing_spaces_as_tuple)
