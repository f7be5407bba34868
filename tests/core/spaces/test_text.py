"""Tests for vecgym.core.spaces.text.Text, checked against Gymnasium 1.4."""

from __future__ import annotations

import copy
import pickle
import string
from typing import Any

import numpy as np
import pytest

from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.spaces.discrete import (
    ARRAY_TYPE_MSG,
    BOTH_GIVEN_MSG,
    PROBABILITY_SUM_MSG,
    PROBABILITY_VALUES_MSG,
)
from vecgym.core.spaces.text import (
    CHARSET_ELEMENT_MSG,
    CHARSET_ELEMENT_TYPE_MSG,
    CHARSET_TYPE_MSG,
    LENGTHS_ORDER_MSG,
    MASK_LENGTH_TYPE_MSG,
    MASK_TUPLE_MSG,
    MASK_VALUES_MSG,
    MIN_LENGTH_MSG,
    NO_CHARACTER_MSG,
    Text,
    alphanumeric,
)


@pytest.fixture
def gym_spaces() -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    return gymnasium.spaces


def assert_same_draws(ours: Any, theirs: Any, n: int = 60, **kwargs: Any) -> None:
    for _ in range(n):
        assert ours.sample(**kwargs) == theirs.sample(**kwargs)


# --- construction ---------------------------------------------------------------------------------
def test_defaults() -> None:
    space = Text(5)
    assert space.min_length == 1
    assert space.max_length == 5
    assert space.character_set == alphanumeric
    assert space.character_list == tuple(sorted(alphanumeric))
    assert space.characters == "".join(sorted(alphanumeric))
    assert space.shape is None
    assert space.is_np_flattenable is True


def test_string_charset_keeps_first_seen_order() -> None:
    space = Text(3, charset="cbaab")
    assert space.character_list == ("c", "b", "a")
    assert space.character_set == frozenset("abc")
    assert space.characters == "abc"
    assert [int(space.character_index(c)) for c in "cba"] == [0, 1, 2]
    assert type(space.character_index("a")) is np.int32


def test_set_charset_is_sorted() -> None:
    assert Text(3, charset={"z", "a", "m"}).character_list == ("a", "m", "z")


def test_numpy_integer_lengths() -> None:
    space = Text(np.int32(4), min_length=np.int64(0))
    assert space.min_length == 0
    assert type(space.min_length) is int
    assert space.max_length == 4
    assert type(space.max_length) is int


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"max_length": 5, "min_length": 6}, message_pattern(LENGTHS_ORDER_MSG)),
        ({"max_length": 5, "min_length": -1}, message_pattern(MIN_LENGTH_MSG)),
        ({"max_length": 5, "charset": {"ab", "c"}}, message_pattern(CHARSET_ELEMENT_MSG)),
        ({"max_length": 5, "charset": ["x", ""]}, message_pattern(CHARSET_ELEMENT_MSG)),
    ],
)
def test_bad_arguments_raise_invalid_space(
    kwargs: dict[str, Any], match: str, gym_spaces: Any
) -> None:
    with pytest.raises(error.InvalidSpace, match=match) as info:
        Text(**kwargs)
    assert isinstance(info.value, ValueError)
    with pytest.raises(ValueError):
        gym_spaces.Text(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"max_length": 5.0}, "max_length must be an integer"),
        ({"max_length": 5, "min_length": 1.0}, "min_length must be an integer"),
        ({"max_length": True}, "max_length must be an integer"),
        ({"max_length": 5, "charset": 5}, message_pattern(CHARSET_TYPE_MSG)),
        ({"max_length": 5, "charset": {1, 2}}, message_pattern(CHARSET_ELEMENT_TYPE_MSG)),
    ],
)
def test_bad_types_raise_type_error(kwargs: dict[str, Any], match: str, gym_spaces: Any) -> None:
    with pytest.raises(TypeError, match=match):
        Text(**kwargs)
    with pytest.raises(TypeError):
        gym_spaces.Text(**kwargs)


def test_min_length_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        Text(5, 1)  # type: ignore[call-arg]


# --- contains -------------------------------------------------------------------------------------
def test_contains() -> None:
    space = Text(4, min_length=2, charset="abc")
    assert "ab" in space
    assert "cccc" in space
    assert "a" not in space
    assert "abcab" not in space
    assert "abd" not in space
    assert 12 not in space
    assert ["a", "b"] not in space
    assert "" in Text(3, min_length=0)


# --- sampling -------------------------------------------------------------------------------------
CONFIGS: list[dict[str, Any]] = [
    {"max_length": 8},
    {"max_length": 5, "min_length": 0, "charset": "abc"},
    {"max_length": 10, "min_length": 10, "charset": string.digits},
    {"max_length": 3, "charset": {"x", "y", "z", "!"}},
    {"max_length": 12, "min_length": 4, "charset": "zyxw"},
]


@pytest.mark.parametrize("seed", [0, 1, 42, 777])
@pytest.mark.parametrize("config", CONFIGS)
def test_sample_stream_matches_gymnasium(
    seed: int, config: dict[str, Any], gym_spaces: Any
) -> None:
    assert_same_draws(Text(**config, seed=seed), gym_spaces.Text(**config, seed=seed))


@pytest.mark.parametrize("seed", [0, 11])
@pytest.mark.parametrize(
    "mask",
    [
        (None, np.array([1, 0, 1, 0], dtype=np.int8)),
        (3, np.array([0, 1, 1, 1], dtype=np.int8)),
        (4, None),
        (None, None),
        (None, np.array([0, 0, 0, 0], dtype=np.int8)),
        (2, np.array([0, 0, 0, 0], dtype=np.int8)),
    ],
)
def test_masked_stream_matches_gymnasium(seed: int, mask: Any, gym_spaces: Any) -> None:
    ours = Text(6, min_length=0, charset="abcd", seed=seed)
    theirs = gym_spaces.Text(6, min_length=0, charset="abcd", seed=seed)
    assert_same_draws(ours, theirs, mask=mask)
    assert_same_draws(ours, theirs, n=5)


@pytest.mark.parametrize("seed", [0, 11])
@pytest.mark.parametrize(
    "probability",
    [
        (None, np.array([0.1, 0.2, 0.3, 0.4])),
        (5, np.array([0.0, 0.0, 1.0, 0.0])),
        (2, None),
    ],
)
def test_probability_stream_matches_gymnasium(seed: int, probability: Any, gym_spaces: Any) -> None:
    ours = Text(6, charset="abcd", seed=seed)
    theirs = gym_spaces.Text(6, charset="abcd", seed=seed)
    assert_same_draws(ours, theirs, probability=probability)
    assert_same_draws(ours, theirs, n=5)


def test_mask_semantics() -> None:
    space = Text(6, min_length=0, charset="abcd", seed=0)
    for _ in range(20):
        value = space.sample(mask=(None, np.array([1, 0, 0, 1], dtype=np.int8)))
        assert set(value) <= {"a", "d"}
        assert value in space
        assert len(space.sample(mask=(4, None))) == 4
    assert space.sample(mask=(3, np.zeros(4, dtype=np.int8))) == ""


def test_all_zero_mask_with_positive_min_length_raises() -> None:
    space = Text(6, min_length=1, charset="abcd", seed=0)
    with pytest.raises(error.InvalidMask, match=message_pattern(NO_CHARACTER_MSG)):
        space.sample(mask=(None, np.zeros(4, dtype=np.int8)))


def test_probability_close_to_one_is_accepted() -> None:
    space = Text(6, charset="abc", seed=0)
    for _ in range(10):
        assert space.sample(probability=(None, np.array([0.3, 0.3, 0.4 + 1e-7]))) in space


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"mask": np.array([1, 0, 1], dtype=np.int8)}, message_pattern(MASK_TUPLE_MSG)),
        ({"mask": (None,)}, message_pattern(MASK_TUPLE_MSG)),
        ({"mask": (2.0, None)}, message_pattern(MASK_LENGTH_TYPE_MSG)),
        ({"mask": (9, None)}, r"length must lie in \[1, 6\]"),
        ({"mask": (0, None)}, r"length must lie in \[1, 6\]"),
        ({"mask": (None, [1, 0, 1])}, message_pattern(ARRAY_TYPE_MSG)),
        ({"mask": (None, np.array([1, 0, 1]))}, "must have dtype int8"),
        ({"mask": (None, np.array([1, 0], dtype=np.int8))}, r"must have shape \(3,\)"),
        ({"mask": (None, np.array([1, 0, 5], dtype=np.int8))}, message_pattern(MASK_VALUES_MSG)),
        ({"probability": (None, np.array([0.5, 0.5, 0.0], dtype=np.float32))}, "float64"),
        ({"mask": (None, None), "probability": (None, None)}, message_pattern(BOTH_GIVEN_MSG)),
    ],
)
def test_bad_masks_raise_invalid_mask(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(error.InvalidMask, match=match) as info:
        Text(6, charset="abc", seed=0).sample(**kwargs)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("probability", "match"),
    [
        (np.array([0.5, 0.6, -0.1]), message_pattern(PROBABILITY_VALUES_MSG)),
        (np.array([0.5, 0.2, 0.2]), message_pattern(PROBABILITY_SUM_MSG)),
    ],
)
def test_bad_probabilities_raise_invalid_probability(probability: Any, match: str) -> None:
    with pytest.raises(error.InvalidProbability, match=match):
        Text(6, charset="abc", seed=0).sample(probability=(None, probability))


# --- repr, equality, pickling, JSON ---------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS)
def test_repr_matches_gymnasium(config: dict[str, Any], gym_spaces: Any) -> None:
    assert repr(Text(**config)) == repr(gym_spaces.Text(**config))


def test_equality() -> None:
    assert Text(5, charset="abc") == Text(5, charset={"c", "b", "a"})
    assert Text(5) != Text(6)
    assert Text(5) != Text(5, min_length=0)
    assert Text(5, charset="ab") != Text(5, charset="abc")
    assert Text(5) != "Text(5)"


@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_pickle_round_trip_continues_the_stream(clone: str) -> None:
    space = Text(7, min_length=2, charset="hello", seed=3)
    space.sample()
    restored = pickle.loads(pickle.dumps(space)) if clone == "pickle" else copy.deepcopy(space)
    assert restored == space
    assert restored.character_list == space.character_list
    assert [restored.sample() for _ in range(10)] == [space.sample() for _ in range(10)]


def test_json_round_trip() -> None:
    space = Text(5, seed=0)
    samples = [space.sample() for _ in range(3)]
    assert space.from_jsonable(space.to_jsonable(samples)) == samples


def test_masks_are_not_modified() -> None:
    mask = np.array([1, 0, 1], dtype=np.int8)
    probability = np.array([0.3, 0.3, 0.4 + 1e-7])
    space = Text(4, charset="abc", seed=0)
    space.sample(mask=(None, mask))
    space.sample(probability=(None, probability))
    np.testing.assert_array_equal(mask, [1, 0, 1])
    np.testing.assert_array_equal(probability, [0.3, 0.3, 0.4 + 1e-7])
