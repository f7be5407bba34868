"""Helpers shared by the toy-text environments."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["categorical_sample"]


def categorical_sample(prob_n: npt.ArrayLike, np_random: np.random.Generator) -> np.int64:
    """Draw an index from the categorical distribution ``prob_n`` with one uniform draw.

    The index returned is the first one whose cumulative probability exceeds a single
    ``np_random.random()`` draw, so the generator advances by exactly one double per call, as in
    Gymnasium.

    Args:
        prob_n: the probability of each index (non-negative, summing to one).
        np_random: the generator to draw from.

    Returns:
        The sampled index as a numpy integer.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> int(categorical_sample([0.25, 0.5, 0.25], rng))
        1
    """
    cumulative = np.cumsum(np.asarray(prob_n))
    return np.argmax(cumulative > np_random.random())
