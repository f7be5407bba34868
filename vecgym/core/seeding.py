"""Random number generators seeded exactly as Gymnasium seeds them.

The same seed gives the same stream as ``gymnasium.utils.seeding.np_random``: a
``numpy.random.SeedSequence`` built from the seed feeds a ``PCG64`` bit generator, and the returned
seed is the sequence's entropy (the seed itself, or fresh OS entropy when the seed is ``None``).
"""

from __future__ import annotations

import numpy as np

from vecgym import error

__all__ = ["RNG", "RandomNumberGenerator", "np_random"]

RNG = RandomNumberGenerator = np.random.Generator

SEED_TYPE_MSG = "a seed must be an integer (or None for a random one), got a value of type {}"
SEED_VALUE_MSG = "a seed must be >= 0, got {}"


def np_random(seed: int | None = None) -> tuple[np.random.Generator, int]:
    """Return a generator seeded from ``seed`` and the seed it was built from.

    Args:
        seed: a non-negative Python ``int`` (``numpy`` integers are accepted too), or ``None`` for a
            seed drawn from the OS's entropy.

    Returns:
        ``(generator, seed)``, where ``seed`` is the value that reproduces the generator.

    Raises:
        InvalidSeed: ``seed`` is not an integer or is negative (a subclass of both
            ``vecgym.error.Error``, as in Gymnasium, and ``ValueError``).

    Example:
        >>> rng, seed = np_random(42)
        >>> seed, int(rng.integers(100))
        (42, 8)
    """
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise error.InvalidSeed(SEED_TYPE_MSG.format(type(seed)))
        if seed < 0:
            raise error.InvalidSeed(SEED_VALUE_MSG.format(seed))
        seed = int(seed)
    seed_seq = np.random.SeedSequence(seed)
    rng = RandomNumberGenerator(np.random.PCG64(seed_seq))
    return rng, int(seed_seq.entropy)  # type: ignore[arg-type]
