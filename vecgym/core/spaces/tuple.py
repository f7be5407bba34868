"""The :class:`Tuple` space: the cartesian product of a fixed sequence of spaces."""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence as AbcSequence
from typing import Any, Generic, overload

import numpy as np

from vecgym import error
from vecgym.core.spaces._composite import SUBSEED_BOUND as SUBSEED_BOUND
from vecgym.core.spaces._composite import T_co, seed_from_generator
from vecgym.core.spaces.space import Space

__all__ = ["Tuple"]


SUBSPACE_TYPE_MSG = "every subspace must be a vecgym Space, got {space} of type {type}"
SEED_LENGTH_MSG = "Expected one seed per subspace: got {got} seeds for {expected} subspaces"
SEED_TYPE_MSG = "a Tuple space seed must be None, an int or a list / tuple of ints, got type {type}"
BOTH_MASKS_MSG = (
    "`mask` and `probability` exclude each other, got mask={mask}, probability={probability}"
)
MASK_TYPE_MSG = "`{kind}` must be a tuple with one entry per subspace, got type {type}"
MASK_LENGTH_MSG = "Expected `{kind}` to have length {expected} (one per subspace), got {got}"


def is_int_seed(seed: object) -> bool:
    """Whether ``seed`` is a single integer seed (Python or numpy integer, bools included)."""
    return isinstance(seed, (int, np.integer))


def check_composite_mask(kind: str, value: object, expected_len: int) -> None:
    """Check that a composite sampling mask is a ``tuple`` with one entry per subspace.

    Raises:
        InvalidMask: ``value`` is not a tuple, or its length differs from ``expected_len``.
    """
    if not isinstance(value, tuple):
        raise error.InvalidMaskType(MASK_TYPE_MSG.format(kind=kind, type=type(value)))
    if len(value) != expected_len:
        raise error.InvalidMask(
            MASK_LENGTH_MSG.format(kind=kind, expected=expected_len, got=len(value))
        )


class Tuple(Space[tuple[Any, ...]], AbcSequence[Space[Any]], Generic[T_co]):
    """The cartesian product of spaces: values are tuples with one value per subspace.

    Args:
        spaces: the subspaces, in order.
        seed: an ``int`` seeds the subspaces through seeds drawn from it (see :meth:`seed`); a
            ``numpy.random.Generator`` becomes this space's own generator.

    Raises:
        TypeError: a subspace is not a :class:`Space`.

    Example:
        >>> from vecgym.spaces import Box, Discrete, Tuple
        >>> space = Tuple((Discrete(2), Box(-1, 1, shape=(2,))), seed=42)
        >>> space.sample()
        (np.int64(0), array([-0.3991573 ,  0.21649833], dtype=float32))
    """

    spaces: tuple[Space[Any], ...]

    def __init__(
        self,
        spaces: Iterable[Space[T_co]],
        seed: int | AbcSequence[Any] | np.random.Generator | None = None,
    ) -> None:
        self.spaces = tuple(spaces)
        for space in self.spaces:
            if not isinstance(space, Space):
                raise TypeError(SUBSPACE_TYPE_MSG.format(space=space, type=type(space)))
        super().__init__(None, None, seed)  # type: ignore[arg-type]

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every subspace can be flattened to a :class:`Box`."""
        return all(space.is_np_flattenable for space in self.spaces)

    def seed(self, seed: int | AbcSequence[Any] | None = None) -> tuple[Any, ...]:
        """Seed the subspaces.

        * ``None``: every subspace seeds itself from fresh entropy.
        * ``int``: this space's generator is seeded with it and draws one seed per subspace
          (below ``2**31 - 1``; distinct seeds are likely, not guaranteed).
        * ``list`` / ``tuple``: one seed per subspace, in order (nested forms for composite
          subspaces, e.g. ``[42, {"a": 1, "b": 2}]``).

        Returns:
            The seeds the subspaces returned, as a tuple.

        Raises:
            ValueError: a list / tuple whose length differs from the number of subspaces.
            TypeError: any other type of seed.
        """
        if seed is None:
            return tuple(space.seed(None) for space in self.spaces)
        if is_int_seed(seed):
            super().seed(seed)
            return tuple(seed_from_generator(self.spaces, self.np_random))
        if isinstance(seed, (list, tuple)):
            if len(seed) != len(self.spaces):
                raise error.InvalidSeed(
                    SEED_LENGTH_MSG.format(got=len(seed), expected=len(self.spaces))
                )
            return tuple(
                space.seed(subseed) for space, subseed in zip(self.spaces, seed, strict=True)
            )
        raise TypeError(SEED_TYPE_MSG.format(type=type(seed)))

    def sample(
        self,
        mask: tuple[Any | None, ...] | None = None,
        probability: tuple[Any | None, ...] | None = None,
    ) -> tuple[Any, ...]:
        """Draw one value from each subspace, in order.

        Args:
            mask: ``None``, or a tuple with one mask (or ``None``) per subspace.
            probability: ``None``, or a tuple with one probability (or ``None``) per subspace.

        Returns:
            A tuple of the subspaces' samples.

        Raises:
            InvalidMask: both ``mask`` and ``probability`` are given, or one is not a tuple of
                the right length.
        """
        if mask is not None and probability is not None:
            raise error.InvalidMask(BOTH_MASKS_MSG.format(mask=mask, probability=probability))
        if mask is not None:
            check_composite_mask("mask", mask, len(self.spaces))
            return tuple(
                space.sample(mask=sub) for space, sub in zip(self.spaces, mask, strict=True)
            )
        if probability is not None:
            check_composite_mask("probability", probability, len(self.spaces))
            return tuple(
                space.sample(probability=sub)
                for space, sub in zip(self.spaces, probability, strict=True)
            )
        return tuple(space.sample() for space in self.spaces)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a tuple (a list or array is accepted) with one value per subspace."""
        if isinstance(x, (list, np.ndarray)):
            x = tuple(x)
        return (
            isinstance(x, tuple)
            and len(x) == len(self.spaces)
            and all(space.contains(part) for space, part in zip(self.spaces, x, strict=True))
        )

    def __repr__(self) -> str:
        return "Tuple(" + ", ".join(str(space) for space in self.spaces) + ")"

    def to_jsonable(self, sample_n: Iterable[tuple[Any, ...]]) -> list[Any]:
        """Convert a batch of values to one JSON-able list per subspace."""
        samples = list(sample_n)
        return [
            space.to_jsonable([sample[i] for sample in samples])
            for i, space in enumerate(self.spaces)
        ]

    def from_jsonable(self, sample_n: list[Any]) -> list[tuple[Any, ...]]:
        """Convert the output of :meth:`to_jsonable` back to a list of tuples."""
        columns = [space.from_jsonable(sample_n[i]) for i, space in enumerate(self.spaces)]
        return list(zip(*columns, strict=True))

    @overload
    def __getitem__(self, index: int) -> Space[Any]: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Space[Any], ...]: ...
    def __getitem__(self, index: int | slice) -> Space[Any] | tuple[Space[Any], ...]:
        """The subspace at ``index`` (a tuple of subspaces for a slice)."""
        return self.spaces[index]

    def __len__(self) -> int:
        """The number of subspaces."""
        return len(self.spaces)

    def __eq__(self, other: object) -> bool:
        """Tuples are equal when their subspaces are equal, in order."""
        return isinstance(other, Tuple) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]
