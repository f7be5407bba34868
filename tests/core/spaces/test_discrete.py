"""Tests for vecgym.core.spaces.discrete.Discrete, with differential checks against Gymnasium."""

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
    DTYPE_KIND_MSG,
    DTYPE_NONE_MSG,
    MASK_VALUES_MSG,
    N_TYPE_MSG,
    N_VALUE_MSG,
    PROBABILITY_SUM_MSG,
    PROBABILITY_VALUES_MSG,
    RANGE_MSG,
    START_TYPE_MSG,
    Discrete,
)


@pytest.fixture
def gym_spaces() -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    return gymnasium.spaces


def assert_same_draws(ours: Any, theirs: Any, n: int = 100, **kwargs: Any) -> None:
    for _ in range(n):
        a, b = ours.sample(**kwargs), theirs.sample(**kwargs)
        assert type(a) is type(b)
        assert a == b


# --- construction ---------------------------------------------------------------------------------
def test_attributes() -> None:
    space = Discrete(5, start=-2, dtype=np.int32)
    assert space.n == 5
    assert type(space.n) is np.int32
    assert space.start == -2
    assert type(space.start) is np.int32
    assert space.dtype == np.int32
    assert space.shape == ()
    assert space.is_np_flattenable is True
    default = Discrete(np.int64(3))
    assert default.dtype == np.int64
    assert default.start == 0


@pytest.mark.parametrize("n", [1.0, "3", None, True, np.float32(2)])
def test_non_integer_n_raises_type_error(n: Any, gym_spaces: Any) -> None:
    with pytest.raises(TypeError, match=message_pattern(N_TYPE_MSG)):
        Discrete(n)
    with pytest.raises(TypeError):
        gym_spaces.Discrete(n)


@pytest.mark.parametrize("start", [0.5, "1", None, False])
def test_non_integer_start_raises_type_error(start: Any, gym_spaces: Any) -> None:
    with pytest.raises(TypeError, match=message_pattern(START_TYPE_MSG)):
        Discrete(3, start=start)
    with pytest.raises(TypeError):
        gym_spaces.Discrete(3, start=start)


@pytest.mark.parametrize("n", [0, -1, np.int8(-3)])
def test_non_positive_n_raises_invalid_space(n: Any, gym_spaces: Any) -> None:
    with pytest.raises(error.InvalidSpace, match=message_pattern(N_VALUE_MSG)) as info:
        Discrete(n)
    assert isinstance(info.value, ValueError)
    with pytest.raises(ValueError):
        gym_spaces.Discrete(n)


@pytest.mark.parametrize("dtype", [np.float32, "U1", np.bool_])
def test_non_integer_dtype_raises(dtype: Any) -> None:
    with pytest.raises(error.InvalidSpace, match=message_pattern(DTYPE_KIND_MSG)):
        Discrete(3, dtype=dtype)


def test_none_dtype_raises() -> None:
    with pytest.raises(error.InvalidSpace, match=message_pattern(DTYPE_NONE_MSG)):
        Discrete(3, dtype=None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("n", "start", "dtype"),
    [
        (256, 0, np.uint8),
        (200, 0, np.int8),
        (100, 100, np.int8),
        (np.int64(256), 0, np.uint8),
        (2, -1, np.uint8),
    ],
)
def test_elements_must_fit_dtype(n: Any, start: int, dtype: Any) -> None:
    with pytest.raises(error.InvalidSpace, match=message_pattern(RANGE_MSG)):
        Discrete(n, start=start, dtype=dtype)


def test_largest_fitting_space_is_fine() -> None:
    space = Discrete(255, dtype=np.uint8, seed=0)
    assert space.sample() in space
    assert 254 in space
    assert 255 not in space
    assert Discrete(127, start=-128, dtype=np.int8).contains(np.int8(-2))


# --- contains -------------------------------------------------------------------------------------
def test_contains() -> None:
    space = Discrete(3, start=-1)
    assert -1 in space
    assert 0 in space
    assert 1 in space
    assert 2 not in space
    assert -2 not in space
    assert np.int64(1) in space
    assert np.int32(1) in space  # int32 casts safely to int64
    assert np.array(0) in space
    assert np.array([0]) not in space
    assert 0.0 not in space
    assert "0" not in space
    assert np.float64(0) not in space
    assert np.bool_(True) not in space
    assert True in space  # a Python bool is an int, as in Gymnasium


def test_contains_respects_dtype() -> None:
    space = Discrete(3, dtype=np.int8)
    assert 2 in space
    assert np.int8(2) in space
    assert np.int64(2) not in space  # int64 -> int8 is unsafe
    assert 2**70 not in space
    assert 300 not in Discrete(3, dtype=np.uint8)


@pytest.mark.parametrize(
    "value",
    [
        0,
        1,
        2,
        3,
        -1,
        2**40,
        np.int64(2),
        np.int8(1),
        np.uint64(1),
        np.array(1),
        np.array([1]),
        1.0,
        True,
        "a",
    ],
)
def test_contains_matches_gymnasium(value: Any, gym_spaces: Any) -> None:
    for kwargs in ({}, {"start": -1}, {"dtype": np.int16}):
        assert Discrete(3, **kwargs).contains(value) == gym_spaces.Discrete(3, **kwargs).contains(
            value
        )


# --- sampling -------------------------------------------------------------------------------------
CONFIGS = [
    {"n": 5},
    {"n": 7, "start": -3},
    {"n": 4, "dtype": np.int32},
    {"n": 3, "start": 10, "dtype": np.uint8},
    {"n": 1},
    {"n": 1000, "start": -500, "dtype": np.int16},
]


@pytest.mark.parametrize("seed", [0, 1, 42, 9999])
@pytest.mark.parametrize("config", CONFIGS)
def test_sample_stream_matches_gymnasium(
    seed: int, config: dict[str, Any], gym_spaces: Any
) -> None:
    assert_same_draws(Discrete(**config, seed=seed), gym_spaces.Discrete(**config, seed=seed))


@pytest.mark.parametrize("seed", [0, 3, 77])
@pytest.mark.parametrize(
    "mask",
    [
        np.array([1, 0, 1, 0, 1], dtype=np.int8),
        np.array([0, 0, 0, 1, 0], dtype=np.int8),
        np.array([1, 1, 1, 1, 1], dtype=np.int8),
        np.array([0, 0, 0, 0, 0], dtype=np.int8),
    ],
)
def test_masked_stream_matches_gymnasium(seed: int, mask: Any, gym_spaces: Any) -> None:
    ours = Discrete(5, start=2, seed=seed)
    theirs = gym_spaces.Discrete(5, start=2, seed=seed)
    assert_same_draws(ours, theirs, mask=mask)
    assert_same_draws(ours, theirs, n=5)  # the unmasked stream continues identically


@pytest.mark.parametrize("seed", [0, 3, 77])
@pytest.mark.parametrize(
    "probability",
    [
        np.array([0.1, 0.2, 0.3, 0.0, 0.4]),
        np.array([0.0, 0.0, 1.0, 0.0, 0.0]),
        np.full(5, 0.2),
    ],
)
def test_probability_stream_matches_gymnasium(seed: int, probability: Any, gym_spaces: Any) -> None:
    ours = Discrete(5, start=-1, dtype=np.int32, seed=seed)
    theirs = gym_spaces.Discrete(5, start=-1, dtype=np.int32, seed=seed)
    assert_same_draws(ours, theirs, probability=probability)
    assert_same_draws(ours, theirs, n=5)


def test_mask_semantics() -> None:
    space = Discrete(4, start=10, seed=0)
    allowed = np.array([0, 1, 0, 1], dtype=np.int8)
    draws = {int(space.sample(mask=allowed)) for _ in range(50)}
    assert draws == {11, 13}
    assert space.sample(mask=np.zeros(4, dtype=np.int8)) == 10
    only = np.array([0, 0, 1, 0], dtype=np.float64)
    assert all(space.sample(probability=only) == 12 for _ in range(10))


def test_probability_close_to_one_is_accepted() -> None:
    # np.isclose accepts this sum while numpy's choice alone would refuse it
    probability = np.array([0.3, 0.3, 0.4 + 1e-7])
    space = Discrete(3, seed=0)
    for _ in range(20):
        assert space.sample(probability=probability) in space


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"mask": [1, 0, 1]}, message_pattern(ARRAY_TYPE_MSG)),
        ({"mask": np.array([1, 0, 1], dtype=np.int64)}, "must have dtype int8"),
        ({"mask": np.array([1, 0], dtype=np.int8)}, r"must have shape \(3,\)"),
        ({"mask": np.array([[1, 0, 1]], dtype=np.int8)}, message_pattern(ARRAY_SHAPE_MSG)),
        ({"mask": np.array([1, 2, 0], dtype=np.int8)}, message_pattern(MASK_VALUES_MSG)),
        ({"probability": [0.5, 0.5, 0.0]}, message_pattern(ARRAY_TYPE_MSG)),
        ({"probability": np.array([0.5, 0.5, 0.0], dtype=np.float32)}, "dtype float64"),
        ({"probability": np.array([0.5, 0.5])}, message_pattern(ARRAY_SHAPE_MSG)),
        (
            {"mask": np.array([1, 0, 1], dtype=np.int8), "probability": np.full(3, 1 / 3)},
            message_pattern(BOTH_GIVEN_MSG),
        ),
    ],
)
def test_bad_masks_raise_invalid_mask(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(error.InvalidMask, match=match) as info:
        Discrete(3, seed=0).sample(**kwargs)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("probability", "match"),
    [
        (np.array([0.5, 0.6, -0.1]), message_pattern(PROBABILITY_VALUES_MSG)),
        (np.array([0.5, 0.5, np.nan]), message_pattern(PROBABILITY_VALUES_MSG)),
        (np.array([0.5, 0.2, 0.2]), message_pattern(PROBABILITY_SUM_MSG)),
        (np.array([1.0, 1.0, 1.0]), message_pattern(PROBABILITY_SUM_MSG)),
    ],
)
def test_bad_probabilities_raise_invalid_probability(probability: Any, match: str) -> None:
    with pytest.raises(error.InvalidProbability, match=match):
        Discrete(3, seed=0).sample(probability=probability)


def test_failed_sample_draws_nothing() -> None:
    space = Discrete(3, seed=1)
    reference = Discrete(3, seed=1)
    with pytest.raises(error.InvalidProbability):
        space.sample(probability=np.array([0.5, 0.2, 0.2]))
    assert [space.sample() for _ in range(5)] == [reference.sample() for _ in range(5)]


# --- repr, equality, pickling, JSON ---------------------------------------------------------------
@pytest.mark.parametrize("config", [*CONFIGS, {"n": 2, "start": 0, "dtype": np.int64}])
def test_repr_matches_gymnasium(config: dict[str, Any], gym_spaces: Any) -> None:
    assert repr(Discrete(**config)) == repr(gym_spaces.Discrete(**config))


def test_equality() -> None:
    assert Discrete(3) == Discrete(np.int32(3))
    assert Discrete(3) != Discrete(4)
    assert Discrete(3) != Discrete(3, start=1)
    assert Discrete(3) != Discrete(3, dtype=np.int32)
    assert Discrete(3) != 3
    with pytest.raises(TypeError):
        hash(Discrete(3))


@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_pickle_round_trip_continues_the_stream(clone: str) -> None:
    space = Discrete(10, start=-5, dtype=np.int16, seed=4)
    space.sample()
    restored = pickle.loads(pickle.dumps(space)) if clone == "pickle" else copy.deepcopy(space)
    assert restored == space
    assert [restored.sample() for _ in range(10)] == [space.sample() for _ in range(10)]


def test_legacy_state_without_start() -> None:
    state = {"n": 4, "shape": (), "dtype": np.dtype(np.int64), "np_random": None}
    restored = Discrete.__new__(Discrete)
    restored.__setstate__(state)
    assert restored.start == 0
    assert type(restored.start) is np.int64
    assert restored.shape == ()
    assert 3 in restored


def test_json_round_trip() -> None:
    space = Discrete(6, start=3, dtype=np.int32, seed=2)
    samples = [space.sample() for _ in range(5)]
    encoded = json.loads(json.dumps(space.to_jsonable(samples)))
    assert encoded == [int(s) for s in samples]
    decoded = space.from_jsonable(encoded)
    assert all(type(v) is np.int32 for v in decoded)
    assert decoded == samples


def test_seed_returns_the_seed_and_replays() -> None:
    space = Discrete(100)
    assert space.seed(123) == 123
    first = [space.sample() for _ in range(5)]
    space.seed(123)
    assert [space.sample() for _ in range(5)] == first
    with pytest.raises(error.InvalidSeed):
        space.seed(-1)
