"""Tests for vecgym.core.spaces.multi_binary.MultiBinary, checked against Gymnasium 1.4."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import numpy as np
import pytest

from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.spaces.discrete import (
    ARRAY_SHAPE_MSG,
    ARRAY_TYPE_MSG,
    BOTH_GIVEN_MSG,
    PROBABILITY_VALUES_MSG,
)
from vecgym.core.spaces.multi_binary import MASK_VALUES_MSG, N_TYPE_MSG, N_VALUE_MSG, MultiBinary


@pytest.fixture
def gym_spaces() -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    return gymnasium.spaces


def assert_same_draws(ours: Any, theirs: Any, n: int = 60, **kwargs: Any) -> None:
    for _ in range(n):
        a, b = ours.sample(**kwargs), theirs.sample(**kwargs)
        assert a.dtype == b.dtype == np.int8
        assert a.shape == b.shape
        assert a.tobytes() == b.tobytes()


# --- construction ---------------------------------------------------------------------------------
def test_attributes() -> None:
    flat = MultiBinary(5)
    assert flat.n == 5
    assert type(flat.n) is int
    assert flat.shape == (5,)
    assert flat.dtype == np.int8
    grid = MultiBinary([3, 2])
    assert grid.n == (3, 2)
    assert grid.shape == (3, 2)
    assert MultiBinary(np.array([2, 3])).n == (2, 3)
    assert MultiBinary(np.int64(4)).n == 4  # numpy integers are accepted too
    assert MultiBinary(()).shape == ()
    assert flat.is_np_flattenable is True


@pytest.mark.parametrize(
    ("n", "match"),
    [
        (0, message_pattern(N_VALUE_MSG)),
        (-2, message_pattern(N_VALUE_MSG)),
        ((2, -1), message_pattern(N_VALUE_MSG)),
        ([3, 0], message_pattern(N_VALUE_MSG)),
        (2.0, message_pattern(N_TYPE_MSG)),
        ("ab", message_pattern(N_TYPE_MSG)),
        (None, message_pattern(N_TYPE_MSG)),
    ],
)
def test_bad_n_raises_invalid_space(n: Any, match: str, gym_spaces: Any) -> None:
    with pytest.raises(error.InvalidSpace, match=match) as info:
        MultiBinary(n)
    assert isinstance(info.value, ValueError)
    with pytest.raises(ValueError):
        gym_spaces.MultiBinary(n)


@pytest.mark.parametrize("n", [True, [2.5], ["2"]])
def test_nonsense_n_is_rejected(n: Any) -> None:
    with pytest.raises(error.InvalidSpace, match=message_pattern(N_TYPE_MSG)):
        MultiBinary(n)


# --- contains -------------------------------------------------------------------------------------
def test_contains() -> None:
    space = MultiBinary([2, 2])
    assert np.array([[0, 1], [1, 0]], dtype=np.int8) in space
    assert np.array([[0, 1], [1, 0]]) in space
    assert np.array([[True, False], [False, True]]) in space
    assert [[0, 1], [1, 1]] in space
    assert np.array([[0, 2], [1, 0]]) not in space
    assert np.array([0, 1, 1, 0]) not in space
    assert 1 not in space
    assert space.sample() in space


@pytest.mark.parametrize(
    "value",
    [np.array([0, 1, 1]), np.array([0, 1]), [1, 1, 1], (0, 0, 2), np.array([0.0, 1.0, 1.0]), "011"],
)
def test_contains_matches_gymnasium(value: Any, gym_spaces: Any) -> None:
    assert MultiBinary(3).contains(value) == gym_spaces.MultiBinary(3).contains(value)


# --- sampling -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 42, 4242])
@pytest.mark.parametrize("n", [1, 5, [3, 2], np.array([2, 2, 2]), 64])
def test_sample_stream_matches_gymnasium(seed: int, n: Any, gym_spaces: Any) -> None:
    assert_same_draws(MultiBinary(n, seed=seed), gym_spaces.MultiBinary(n, seed=seed))


@pytest.mark.parametrize("seed", [0, 9])
def test_masked_streams_match_gymnasium(seed: int, gym_spaces: Any) -> None:
    mask = np.array([[0, 1, 2], [2, 2, 1]], dtype=np.int8)
    probability = np.array([[0.0, 1.0, 0.25], [0.5, 0.75, 0.1]])
    ours = MultiBinary([2, 3], seed=seed)
    theirs = gym_spaces.MultiBinary([2, 3], seed=seed)
    assert_same_draws(ours, theirs, mask=mask)
    assert_same_draws(ours, theirs, probability=probability)
    assert_same_draws(ours, theirs, n=5)


def test_mask_semantics() -> None:
    space = MultiBinary(4, seed=0)
    mask = np.array([0, 1, 2, 2], dtype=np.int8)
    seen = set()
    for _ in range(40):
        value = space.sample(mask=mask)
        assert value[0] == 0
        assert value[1] == 1
        seen.add(tuple(value[2:].tolist()))
        fixed = space.sample(probability=np.array([0.0, 1.0, 0.0, 1.0]))
        assert fixed.tolist() == [0, 1, 0, 1]
    assert len(seen) > 1


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"mask": [0, 1, 2]}, message_pattern(ARRAY_TYPE_MSG)),
        ({"mask": np.array([0, 1, 2])}, "must have dtype int8"),
        ({"mask": np.array([0, 1], dtype=np.int8)}, r"must have shape \(3,\)"),
        ({"mask": np.array([0, 1, 3], dtype=np.int8)}, message_pattern(MASK_VALUES_MSG)),
        ({"probability": np.array([0.5, 0.5, 0.5], dtype=np.float32)}, "dtype float64"),
        ({"probability": np.array([0.5, 0.5])}, message_pattern(ARRAY_SHAPE_MSG)),
        (
            {"mask": np.zeros(3, dtype=np.int8), "probability": np.zeros(3)},
            message_pattern(BOTH_GIVEN_MSG),
        ),
    ],
)
def test_bad_masks_raise_invalid_mask(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(error.InvalidMask, match=match) as info:
        MultiBinary(3, seed=0).sample(**kwargs)
    assert isinstance(info.value, ValueError)


def test_bad_probabilities_raise_invalid_probability() -> None:
    with pytest.raises(error.InvalidProbability, match=message_pattern(PROBABILITY_VALUES_MSG)):
        MultiBinary(3, seed=0).sample(probability=np.array([0.5, 1.5, 0.0]))


# --- repr, equality, pickling, JSON ---------------------------------------------------------------
@pytest.mark.parametrize("n", [5, [3, 2], np.array([1, 2, 3]), (4,)])
def test_repr_matches_gymnasium(n: Any, gym_spaces: Any) -> None:
    assert repr(MultiBinary(n)) == repr(gym_spaces.MultiBinary(n))


def test_equality() -> None:
    assert MultiBinary(3) == MultiBinary(3)
    assert MultiBinary([3, 2]) == MultiBinary((3, 2))
    assert MultiBinary(3) != MultiBinary(4)
    assert MultiBinary(3) != MultiBinary([3])  # as in Gymnasium: ``n`` keeps its form
    assert MultiBinary(3) != 3


@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_pickle_round_trip_continues_the_stream(clone: str) -> None:
    space = MultiBinary([4, 3], seed=6)
    space.sample()
    restored = pickle.loads(pickle.dumps(space)) if clone == "pickle" else copy.deepcopy(space)
    assert restored == space
    for _ in range(10):
        np.testing.assert_array_equal(restored.sample(), space.sample())


def test_json_round_trip() -> None:
    space = MultiBinary([2, 3], seed=1)
    samples = [space.sample() for _ in range(4)]
    restored = space.from_jsonable(json.loads(json.dumps(space.to_jsonable(samples))))
    for original, back in zip(samples, restored, strict=True):
        assert back.dtype == np.int8
        np.testing.assert_array_equal(original, back)
