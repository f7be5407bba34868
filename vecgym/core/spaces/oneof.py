"""The :class:`OneOf` space: a value of exactly one of several spaces, tagged with its index."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence as AbcSequence
from typing import Any, Generic

import numpy as np

from vecgym import error
from vecgym.core.spaces import batching
from vecgym.core.spaces._composite import T_co, seed_from_generator
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.tuple import (
    BOTH_MASKS_MSG,
    SUBSPACE_TYPE_MSG,
    Tuple,
    check_composite_mask,
    is_int_seed,
)

__all__ = ["OneOf"]


NOT_ITERABLE_MSG = "OneOf expected an iterable of spaces, got {value!r}"
EMPTY_MSG = "OneOf must have at least one subspace"
SEED_LENGTH_MSG = (
    "Expected one seed for the OneOf space followed by one per subspace: got {got} seeds, "
    "expected {expected}"
)
SEED_TYPE_MSG = "a OneOf space seed must be None, an int or a list / tuple of ints, got type {type}"


class OneOf(Space[tuple[int, Any]], Generic[T_co]):
    """The direct sum of spaces: a value is ``(index, value of spaces[index])``.

    Sampling first draws the index uniformly from this space's own generator, then samples that
    subspace.

    Args:
        spaces: the subspaces (at least one).
        seed: an ``int`` seeds this space and, through seeds drawn from it, the subspaces (see
            :meth:`seed`); a ``numpy.random.Generator`` becomes this space's generator.

    Raises:
        TypeError: ``spaces`` is not iterable, or a subspace is not a :class:`Space`.
        InvalidSpace: ``spaces`` is empty.

    Example:
        >>> from vecgym.spaces import Box, Discrete, OneOf
        >>> space = OneOf((Discrete(2), Box(-1, 1, shape=(2,))), seed=123)
        >>> space.sample()
        (np.int64(0), np.int64(0))
        >>> space.sample()
        (np.int64(1), array([-0.00711833, -0.7257502 ], dtype=float32))
    """

    spaces: tuple[Space[Any], ...]

    def __init__(
        self,
        spaces: Iterable[Space[T_co]],
        seed: int | AbcSequence[Any] | np.random.Generator | None = None,
    ) -> None:
        if not isinstance(spaces, Iterable):
            raise TypeError(NOT_ITERABLE_MSG.format(value=spaces))
        self.spaces = tuple(spaces)
        if not self.spaces:
            raise error.InvalidSpace(EMPTY_MSG)
        for space in self.spaces:
            if not isinstance(space, Space):
                raise TypeError(SUBSPACE_TYPE_MSG.format(space=space, type=type(space)))
        super().__init__(None, None, seed)  # type: ignore[arg-type]

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every subspace can be flattened to a :class:`Box`."""
        return all(space.is_np_flattenable for space in self.spaces)

    def seed(self, seed: int | AbcSequence[Any] | None = None) -> tuple[Any, ...]:
        """Seed this space's generator (which picks the subspace) and the subspaces.

        * ``None``: everything seeds itself from fresh entropy.
        * ``int``: this space is seeded with it and draws one seed per subspace; it is then
          seeded with it again, so that its index stream is the same as after ``(seed, ...)``.
        * ``list`` / ``tuple``: ``(own seed, seed of subspace 0, seed of subspace 1, ...)``.

        Returns:
            ``(own seed, *subspace seeds)``.

        Raises:
            ValueError: a list / tuple of the wrong length.
            TypeError: any other type of seed.
        """
        if seed is None:
            own = super().seed(None)
            return (own, *(space.seed(None) for space in self.spaces))
        if is_int_seed(seed):
            own = super().seed(seed)
            subspace_seeds = seed_from_generator(self.spaces, self.np_random)
            super().seed(seed)
            return (own, *subspace_seeds)
        if isinstance(seed, (list, tuple)):
            if len(seed) != len(self.spaces) + 1:
                raise error.InvalidSeed(
                    SEED_LENGTH_MSG.format(got=len(seed), expected=len(self.spaces) + 1)
                )
            own = super().seed(seed[0])
            return (
                own,
                *(space.seed(sub) for space, sub in zip(self.spaces, seed[1:], strict=True)),
            )
        raise TypeError(SEED_TYPE_MSG.format(type=type(seed)))

    def sample(
        self,
        mask: tuple[Any | None, ...] | None = None,
        probability: tuple[Any | None, ...] | None = None,
    ) -> tuple[Any, Any]:
        """Pick a subspace uniformly at random and sample it.

        Args:
            mask: ``None``, or a tuple with one mask (or ``None``) per subspace; only the picked
                subspace's entry is used.
            probability: ``None``, or a tuple with one probability (or ``None``) per subspace.

        Returns:
            ``(np.int64 index, value of that subspace)``.

        Raises:
            InvalidMask: both ``mask`` and ``probability`` are given, or one is not a tuple with
                one entry per subspace (checked after the index was drawn, as in Gymnasium).
        """
        index = self.np_random.integers(0, len(self.spaces), dtype=np.int64)
        chosen = self.spaces[index]
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_MASKS_MSG.format(mask=mask, probability=probability))
        if mask is not None:
            check_composite_mask("mask", mask, len(self.spaces))
            value = chosen.sample(mask=mask[index])
        elif probability is not None:
            check_composite_mask("probability", probability, len(self.spaces))
            value = chosen.sample(probability=probability[index])
        else:
            value = chosen.sample()
        return index, value

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a pair ``(index, value)`` with ``value`` in ``spaces[index]``."""
        return bool(
            isinstance(x, tuple)
            and len(x) == 2
            and isinstance(x[0], (int, np.int64))
            and 0 <= x[0] < len(self.spaces)
            and self.spaces[x[0]].contains(x[1])
        )

    def __repr__(self) -> str:
        return "OneOf(" + ", ".join(str(space) for space in self.spaces) + ")"

    def to_jsonable(self, sample_n: Iterable[tuple[int, Any]]) -> list[list[Any]]:
        """Convert a batch of values to ``[index, JSON-able value]`` pairs.

        The JSON-able value is the subspace's form of the one value, as in Gymnasium. For ``Tuple``
        and ``Dict`` subspaces, whose batch form is one column per part rather than one entry per
        value, it is the whole one-value batch: Gymnasium 1.4 keeps only the first column of a
        ``Tuple`` (losing data) and fails on a ``Dict``.
        """
        result = []
        for index, value in sample_n:
            batch = self.spaces[index].to_jsonable([value])
            item = batch if _is_columnar(self.spaces[index]) else batch[0]
            result.append([int(index), item])
        return result

    def from_jsonable(self, sample_n: list[list[Any]]) -> list[tuple[Any, ...]]:
        """Convert the output of :meth:`to_jsonable` back to ``(np.int64 index, value)`` pairs."""
        result = []
        for index, item in sample_n:
            space = self.spaces[index]
            batch = item if _is_columnar(space) else [item]
            result.append((np.int64(index), space.from_jsonable(batch)[0]))
        return result

    def __getitem__(self, index: int) -> Space[Any]:
        """The subspace at ``index``."""
        return self.spaces[index]

    def __len__(self) -> int:
        """The number of subspaces."""
        return len(self.spaces)

    def __eq__(self, other: object) -> bool:
        """OneOf spaces are equal when their subspaces are equal, in order."""
        return isinstance(other, OneOf) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]


def _is_columnar(space: Space[Any]) -> bool:
    """Whether ``space.to_jsonable`` gives one entry per part (``Tuple`` / ``Dict``) rather than
    one entry per value."""
    return isinstance(space, (Tuple, Dict))


@batching.create_empty_array.register(OneOf)
def _empty_oneof(space: OneOf, n: int = 1, fn: Any = np.zeros) -> tuple[tuple[()], ...]:
    return tuple(() for _ in range(n))


# Registered by element type: batch_differing_spaces dispatches on type(spaces[0]) itself.
batching.batch_differing_spaces.register(OneOf)(batching.differing_spaces_as_tuple)
