"""Tests for vecgym.core.spaces.multi_discrete.MultiDiscrete, checked against Gymnasium 1.4."""

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
    ARRAY_TYPE_MSG,
    BOTH_GIVEN_MSG,
    MASK_VALUES_MSG,
    PROBABILITY_SUM_MSG,
    PROBABILITY_VALUES_MSG,
    Discrete,
)
from vecgym.core.spaces.multi_discrete import DTYPE_KIND_MSG as MD_DTYPE_KIND_MSG
from vecgym.core.spaces.multi_discrete import DTYPE_NONE_MSG as MD_DTYPE_NONE_MSG
from vecgym.core.spaces.multi_discrete import (
    LEN_WARNING,
    MASK_TUPLE_MSG,
    NVEC_VALUE_MSG,
    SHAPES_DIFFER_MSG,
    MultiDiscrete,
)


@pytest.fixture
def gym_spaces() -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    return gymnasium.spaces


def assert_same_draws(ours: Any, theirs: Any, n: int = 60, **kwargs: Any) -> None:
    for _ in range(n):
        a, b = ours.sample(**kwargs), theirs.sample(**kwargs)
        assert a.dtype == b.dtype
        assert a.shape == b.shape
        assert a.tobytes() == b.tobytes()


# --- construction ---------------------------------------------------------------------------------
def test_attributes() -> None:
    space = MultiDiscrete([3, 4], start=[1, -2], dtype=np.int32)
    assert space.shape == (2,)
    assert space.dtype == np.int32
    assert space.nvec.dtype == space.start.dtype == np.int32
    assert space.nvec.tolist() == [3, 4]
    assert space.start.tolist() == [1, -2]
    assert space.is_np_flattenable is True
    assert MultiDiscrete(np.array([[2, 3], [4, 5]])).shape == (2, 2)
    assert MultiDiscrete([2.0, 3.0]).nvec.tolist() == [2, 3]  # integral floats are fine
    assert MultiDiscrete([]).shape == (0,)
    assert MultiDiscrete(5).shape == ()


def test_bounds_are_read_only_copies() -> None:
    nvec = np.array([3, 4])
    start = np.array([0, 1])
    space = MultiDiscrete(nvec, start=start)
    assert not space.nvec.flags.writeable
    assert not space.start.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        space.nvec[0] = 10
    nvec[0] = 99
    start[1] = 50
    assert space.nvec.tolist() == [3, 4]
    assert space.start.tolist() == [0, 1]
    assert nvec.flags.writeable
    assert start.flags.writeable


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"nvec": [3, 0]}, message_pattern(NVEC_VALUE_MSG)),
        ({"nvec": [3, -1]}, message_pattern(NVEC_VALUE_MSG)),
        ({"nvec": [3, 4], "start": [1]}, message_pattern(SHAPES_DIFFER_MSG)),
        ({"nvec": [3, 4], "dtype": np.float32}, message_pattern(MD_DTYPE_KIND_MSG)),
        ({"nvec": [3, 4], "dtype": None}, message_pattern(MD_DTYPE_NONE_MSG)),
        ({"nvec": [[1, 2], [3]]}, "array-like of integers"),
        ({"nvec": [300], "dtype": np.int8}, "of dtype int8"),
    ],
)
def test_bad_arguments_raise_invalid_space(
    kwargs: dict[str, Any], match: str, gym_spaces: Any
) -> None:
    with pytest.raises(error.InvalidSpace, match=match) as info:
        MultiDiscrete(**kwargs)
    assert isinstance(info.value, ValueError)
    # numpy 1 warns (a warning is an error in this suite) where numpy 2 raises
    with pytest.raises((ValueError, OverflowError, Warning)):
        gym_spaces.MultiDiscrete(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"nvec": [2.5, 3]}, "array-like of integers"),
        ({"nvec": ["3"]}, "array-like of integers"),
        ({"nvec": np.array([300]), "dtype": np.int8}, "of dtype int8"),  # would wrap to 44
        ({"nvec": [256], "dtype": np.uint8}, "of dtype uint8"),
        ({"nvec": [100], "start": [100], "dtype": np.int8}, "must fit dtype"),
        ({"nvec": [3], "start": [-1], "dtype": np.uint8}, "of dtype uint8"),
        ({"nvec": [3], "start": [0.5]}, "array-like of integers"),
    ],
)
def test_values_that_would_be_truncated_or_wrapped_are_rejected(
    kwargs: dict[str, Any], match: str
) -> None:
    with pytest.raises(error.InvalidSpace, match=match):
        MultiDiscrete(**kwargs)


def test_out_of_range_values_raise_what_numpy_raises_in_gymnasium(gym_spaces: Any) -> None:
    with pytest.raises(error.OutOfDtypeRange) as info:
        MultiDiscrete([3], start=[-1], dtype=np.uint8)
    assert isinstance(info.value, OverflowError)
    if int(np.__version__.split(".")[0]) >= 2:  # numpy 1 only warns and wraps the number around
        with pytest.raises(OverflowError):
            gym_spaces.MultiDiscrete([3], start=[-1], dtype=np.uint8)


def test_bool_counts_are_ones_as_in_gymnasium(gym_spaces: Any) -> None:
    space = MultiDiscrete(np.array([True, True]))
    assert space.nvec.tolist() == [1, 1]
    assert space.nvec.dtype == np.int64
    assert space == MultiDiscrete([1, 1])
    assert gym_spaces.MultiDiscrete(np.array([True, True])).nvec.tolist() == [1, 1]


# --- contains -------------------------------------------------------------------------------------
def test_contains() -> None:
    space = MultiDiscrete([3, 4], start=[1, -1])
    assert np.array([1, -1]) in space
    assert np.array([3, 2]) in space
    assert np.array([4, 2]) not in space
    assert np.array([0, 0]) not in space
    assert [2, 0] in space  # a sequence becomes an array
    assert (2, 0) in space
    assert np.array([2, 0, 0]) not in space
    assert np.array([2.0, 0.0]) not in space  # float64 -> int64 is unsafe
    assert np.array([2, 0], dtype=np.int8) in space
    assert "ab" not in space
    assert 2 not in space


def test_contains_without_overflow_near_dtype_limits() -> None:
    space = MultiDiscrete([2], start=[126], dtype=np.int8)
    assert np.array([127], dtype=np.int8) in space
    assert np.array([-128], dtype=np.int8) not in space


@pytest.mark.parametrize(
    "value",
    [
        np.array([0, 0]),
        np.array([2, 3]),
        np.array([3, 0]),
        np.array([0, 0], dtype=np.int32),
        np.array([0.0, 1.0]),
        [1, 2],
        (0, 4),
        np.array([[0, 0]]),
    ],
)
def test_contains_matches_gymnasium(value: Any, gym_spaces: Any) -> None:
    for kwargs in ({}, {"start": [1, 0]}, {"dtype": np.int32}):
        assert MultiDiscrete([3, 4], **kwargs).contains(value) == gym_spaces.MultiDiscrete(
            [3, 4], **kwargs
        ).contains(value)


# --- sampling -------------------------------------------------------------------------------------
CONFIGS: list[dict[str, Any]] = [
    {"nvec": [3, 4, 5]},
    {"nvec": [3, 4, 5], "start": [1, -2, 10]},
    {"nvec": [[2, 3], [4, 5]], "dtype": np.int32},
    {"nvec": [7, 1, 100], "start": [0, 5, -50], "dtype": np.int16},
    {"nvec": [2, 2], "dtype": np.uint8},
    {"nvec": 6},
]


@pytest.mark.parametrize("seed", [0, 1, 42, 31337])
@pytest.mark.parametrize("config", CONFIGS)
def test_sample_stream_matches_gymnasium(
    seed: int, config: dict[str, Any], gym_spaces: Any
) -> None:
    ours = MultiDiscrete(**config, seed=seed)
    theirs = gym_spaces.MultiDiscrete(**config, seed=seed)
    assert_same_draws(ours, theirs)


MASK = (
    np.array([1, 0, 1], dtype=np.int8),
    np.array([0, 0, 0, 0], dtype=np.int8),
    np.array([1, 1, 1, 1, 1], dtype=np.int8),
)
PROBABILITY = (
    np.array([0.5, 0.0, 0.5]),
    np.array([0.0, 0.0, 0.0, 1.0]),
    np.array([0.1, 0.2, 0.3, 0.2, 0.2]),
)


@pytest.mark.parametrize("seed", [0, 5, 99])
def test_masked_stream_matches_gymnasium(seed: int, gym_spaces: Any) -> None:
    ours = MultiDiscrete([3, 4, 5], start=[1, 2, -3], seed=seed)
    theirs = gym_spaces.MultiDiscrete([3, 4, 5], start=[1, 2, -3], seed=seed)
    assert_same_draws(ours, theirs, mask=MASK)
    assert_same_draws(ours, theirs, probability=PROBABILITY)
    assert_same_draws(ours, theirs, n=5)


@pytest.mark.parametrize("seed", [0, 5])
def test_nested_masked_stream_matches_gymnasium(seed: int, gym_spaces: Any) -> None:
    nvec = np.array([[2, 3], [3, 2]])
    mask = (
        (np.array([1, 1], np.int8), np.array([0, 1, 1], np.int8)),
        (np.array([0, 0, 0], np.int8), np.array([1, 0], np.int8)),
    )
    probability = (
        (np.array([0.25, 0.75]), np.array([0.0, 0.5, 0.5])),
        (np.array([1.0, 0.0, 0.0]), np.array([0.5, 0.5])),
    )
    ours = MultiDiscrete(nvec, dtype=np.int32, seed=seed)
    theirs = gym_spaces.MultiDiscrete(nvec, dtype=np.int32, seed=seed)
    assert_same_draws(ours, theirs, mask=mask)
    assert_same_draws(ours, theirs, probability=probability)


def test_mask_semantics() -> None:
    space = MultiDiscrete([3, 4, 5], start=[1, 2, -3], seed=0)
    for _ in range(30):
        value = space.sample(mask=MASK)
        assert value.dtype == np.int64
        assert value[0] in (1, 3)
        assert value[1] == 2  # nothing allowed: the start
        assert -3 <= value[2] <= 1
        assert value in space
        assert space.sample(probability=PROBABILITY)[1] == 5


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"mask": list(MASK)}, "must be a tuple of 3 entries"),
        ({"mask": MASK[:2]}, "must be a tuple of 3 entries"),
        ({"mask": np.ones(3, dtype=np.int8)}, message_pattern(MASK_TUPLE_MSG)),
        ({"mask": (MASK[0], MASK[1], [1, 1, 1, 1, 1])}, message_pattern(ARRAY_TYPE_MSG)),
        ({"mask": (MASK[0], MASK[1], np.ones(4, np.int8))}, r"must have shape \(5,\)"),
        ({"mask": (MASK[0], MASK[1], np.ones(5, np.int64))}, "must have dtype int8"),
        ({"mask": (MASK[0], MASK[1], np.full(5, 2, np.int8))}, message_pattern(MASK_VALUES_MSG)),
        ({"probability": (PROBABILITY[0], PROBABILITY[1], MASK[2])}, "dtype float64"),
        ({"probability": (PROBABILITY[0], PROBABILITY[1])}, message_pattern(MASK_TUPLE_MSG)),
        ({"mask": MASK, "probability": PROBABILITY}, message_pattern(BOTH_GIVEN_MSG)),
    ],
)
def test_bad_masks_raise_invalid_mask(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(error.InvalidMask, match=match) as info:
        MultiDiscrete([3, 4, 5], seed=0).sample(**kwargs)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("leaf", "match"),
    [
        (np.array([0.5, 0.6, -0.1, 0.0, 0.0]), message_pattern(PROBABILITY_VALUES_MSG)),
        (np.array([0.5, 0.2, 0.0, 0.0, 0.0]), message_pattern(PROBABILITY_SUM_MSG)),
    ],
)
def test_bad_probabilities_raise_invalid_probability(leaf: Any, match: str) -> None:
    with pytest.raises(error.InvalidProbability, match=match):
        MultiDiscrete([3, 4, 5], seed=0).sample(probability=(*PROBABILITY[:2], leaf))


# --- subspaces and length -------------------------------------------------------------------------
def test_getitem_gives_subspaces_with_the_generator_state(gym_spaces: Any) -> None:
    space = MultiDiscrete([[2, 3], [4, 5]], start=[[0, 1], [2, 3]], dtype=np.int32, seed=3)
    theirs = gym_spaces.MultiDiscrete(
        [[2, 3], [4, 5]], start=[[0, 1], [2, 3]], dtype=np.int32, seed=3
    )
    row = space[1]
    assert row == MultiDiscrete([4, 5], start=[2, 3], dtype=np.int32)
    element = space[1, 0]
    assert isinstance(element, Discrete)
    assert element == Discrete(4, start=2, dtype=np.int32)
    assert_same_draws(row, theirs[1], n=10)
    their_element = theirs[1, 0]
    for _ in range(10):
        assert element.sample() == their_element.sample()
    # taking subspaces does not move the parent's generator
    parent_next = space.sample()
    np.testing.assert_array_equal(parent_next, theirs.sample())


def test_getitem_copies_state_without_sharing_it() -> None:
    space = MultiDiscrete([5, 5, 5], seed=0)
    sub = space[0]
    first = sub.sample()
    again = space[0].sample()
    assert first == again  # the parent's generator did not move


def test_len() -> None:
    assert len(MultiDiscrete([2, 3, 4])) == 3
    with pytest.warns(UserWarning, match=message_pattern(LEN_WARNING)):
        assert len(MultiDiscrete([[2, 3], [4, 5], [6, 7]])) == 3


# --- repr, equality, pickling, JSON ---------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS)
def test_repr_matches_gymnasium(config: dict[str, Any], gym_spaces: Any) -> None:
    assert repr(MultiDiscrete(**config)) == repr(gym_spaces.MultiDiscrete(**config))


def test_equality() -> None:
    assert MultiDiscrete([3, 4]) == MultiDiscrete(np.array([3, 4]))
    assert MultiDiscrete([3, 4]) != MultiDiscrete([3, 5])
    assert MultiDiscrete([3, 4]) != MultiDiscrete([3, 4], start=[0, 1])
    assert MultiDiscrete([3, 4]) != MultiDiscrete([3, 4], dtype=np.int32)
    assert MultiDiscrete([3, 4]) != MultiDiscrete([[3, 4]])
    assert MultiDiscrete([3, 4]) != [3, 4]


@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_pickle_round_trip_continues_the_stream(clone: str) -> None:
    space = MultiDiscrete([3, 4, 5], start=[1, 0, -1], seed=8)
    space.sample()
    restored = pickle.loads(pickle.dumps(space)) if clone == "pickle" else copy.deepcopy(space)
    assert restored == space
    assert not restored.nvec.flags.writeable
    assert not restored.start.flags.writeable
    for _ in range(10):
        np.testing.assert_array_equal(restored.sample(), space.sample())


def test_legacy_state_without_start() -> None:
    space = MultiDiscrete([3, 4], dtype=np.int32)
    state = dict(space.__dict__)
    del state["start"]
    state["shape"] = state.pop("_shape")  # as very old pickles stored it
    restored = MultiDiscrete.__new__(MultiDiscrete)
    restored.__setstate__(state)
    assert restored.start.tolist() == [0, 0]
    assert restored.start.dtype == np.int32
    assert restored == space
    assert not restored.start.flags.writeable


def test_json_round_trip() -> None:
    space = MultiDiscrete([[2, 3], [4, 5]], dtype=np.int16, seed=1)
    samples = [space.sample() for _ in range(4)]
    restored = space.from_jsonable(json.loads(json.dumps(space.to_jsonable(samples))))
    for original, back in zip(samples, restored, strict=True):
        assert back.dtype == np.int16
        np.testing.assert_array_equal(original, back)


def test_scalar_nvec_takes_a_single_mask_array() -> None:
    space = MultiDiscrete(5, start=2, seed=0)
    assert space.sample(mask=np.array([0, 1, 0, 0, 0], dtype=np.int8)) == 3
    assert space.sample(probability=np.array([0.0, 0.0, 0.0, 0.0, 1.0])) == 6


def test_masks_are_not_modified() -> None:
    mask = tuple(m.copy() for m in MASK)
    probability = tuple(p.copy() for p in PROBABILITY)
    space = MultiDiscrete([3, 4, 5], seed=0)
    space.sample(mask=mask)
    space.sample(probability=probability)
    for given, original in zip((*mask, *probability), (*MASK, *PROBABILITY), strict=True):
        np.testing.assert_array_equal(given, original)
