"""Pieces shared by the composite spaces (:class:`Tuple`, :class:`Dict`, :class:`OneOf`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from vecgym.core.spaces.space import Space

__all__ = ["SUBSEED_BOUND", "T_co", "seed_from_generator"]

if TYPE_CHECKING:  # a default lets type checkers infer `Any` where no subspace type is known
    from typing_extensions import TypeVar

    T_co = TypeVar("T_co", covariant=True, default=Any)
else:
    from typing import TypeVar

    T_co = TypeVar("T_co", covariant=True)

# A seed drawn for each subspace is below this bound, as in Gymnasium.
SUBSEED_BOUND = int(np.iinfo(np.int32).max)


def seed_from_generator(spaces: Sequence[Space[Any]], rng: np.random.Generator) -> list[Any]:
    """Seed each of ``spaces``, in order, with seeds drawn from ``rng`` in one call.

    Returns:
        What each subspace's ``seed`` returned.
    """
    subseeds = rng.integers(SUBSEED_BOUND, size=len(spaces))
    return [space.seed(int(subseed)) for space, subseed in zip(spaces, subseeds, strict=True)]
