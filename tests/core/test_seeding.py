"""vecgym.core.seeding: Gymnasium's generator for the same seed; clear errors for bad seeds."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.seeding import SEED_TYPE_MSG, SEED_VALUE_MSG, np_random


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31, 2**64 + 5])
def test_same_stream_as_gymnasium(seed: int) -> None:
    gymnasium_seeding = pytest.importorskip("gymnasium.utils.seeding")
    ours, our_seed = np_random(seed)
    theirs, their_seed = gymnasium_seeding.np_random(seed)
    assert our_seed == their_seed == seed
    np.testing.assert_array_equal(ours.random(16), theirs.random(16))
    np.testing.assert_array_equal(ours.integers(0, 1000, 16), theirs.integers(0, 1000, 16))


def test_none_draws_a_fresh_reproducible_seed() -> None:
    rng, seed = np_random(None)
    again, _ = np_random(seed)
    assert isinstance(seed, int)
    assert rng.random() == again.random()


def test_numpy_integer_seed_is_accepted() -> None:
    rng, seed = np_random(np.int64(7))
    assert seed == 7
    assert type(seed) is int
    assert rng.random() == np_random(7)[0].random()


@pytest.mark.parametrize("bad", [1.5, "3", True, [1], np.float32(2.0)])
def test_seed_of_wrong_type(bad: object) -> None:
    with pytest.raises(error.Error, match=message_pattern(SEED_TYPE_MSG)):
        np_random(bad)  # type: ignore[arg-type]


def test_negative_seed() -> None:
    with pytest.raises(error.InvalidSeed, match=message_pattern(SEED_VALUE_MSG, -1)):
        np_random(-1)
    with pytest.raises(ValueError, match=message_pattern(SEED_VALUE_MSG)):
        np_random(-1)
