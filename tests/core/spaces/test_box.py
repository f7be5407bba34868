"""Tests for vecgym.core.spaces.box.Box, with differential checks against Gymnasium 1.4."""

from __future__ import annotations

import copy
import json
import pickle
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.spaces.box import (
    BOUND_DTYPE_MSG,
    BOUND_NAN_MSG,
    BOUND_PRECISION_MSG,
    BOUND_RANGE_MSG,
    BOUND_TYPE_MSG,
    CAST_WARNING,
    DTYPE_KIND_MSG,
    DTYPE_NONE_MSG,
    LOW_ABOVE_HIGH_MSG,
    MANNER_MSG,
    MASK_MSG,
    PROBABILITY_MSG,
    SHAPE_DIM_VALUE_MSG,
    SHAPE_UNKNOWN_MSG,
    SHAPES_DIFFER_MSG,
    Box,
    array_short_repr,
    is_float_integer,
)

INF = np.inf

#: Gymnasium's own warning (its text) when float64 bounds are cast to a less precise dtype
GYMNASIUM_PRECISION_WARNING = ".*precision lowered by casting"


@pytest.fixture(autouse=True)
def _ignore_precision_warnings() -> Iterator[None]:
    """float64 bounds given to a float32/float16 Box warn (as in Gymnasium); tested on its own
    below."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*" + message_pattern(BOUND_PRECISION_MSG), UserWarning)
        warnings.filterwarnings("ignore", GYMNASIUM_PRECISION_WARNING, UserWarning)
        yield


@pytest.fixture
def gym_spaces() -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    return gymnasium.spaces


def assert_same_draws(ours: Any, theirs: Any, n: int = 60) -> None:
    for _ in range(n):
        a, b = ours.sample(), theirs.sample()
        assert a.dtype == b.dtype
        assert a.shape == b.shape
        assert a.tobytes() == b.tobytes()


# --- construction ---------------------------------------------------------------------------------
def test_scalar_bounds_broadcast_to_shape() -> None:
    space = Box(-1.0, 2.0, shape=(3, 4))
    assert space.shape == (3, 4)
    assert space.dtype == np.float32
    assert space.low.dtype == space.high.dtype == np.float32
    assert np.all(space.low == -1.0)
    assert np.all(space.high == 2.0)


def test_scalar_bounds_without_shape_give_shape_1() -> None:
    assert Box(0, 1).shape == (1,)


def test_shape_is_inferred_from_array_bounds() -> None:
    f32 = np.float32
    assert Box(np.zeros((2, 3), f32), 1.0).shape == (2, 3)
    assert Box(0.0, np.ones(4, f32)).shape == (4,)
    assert Box(np.zeros(2, f32), np.ones(2, f32), shape=np.array([2])).shape == (2,)


def test_shape_dims_become_python_ints() -> None:
    shape = Box(0, 1, shape=(np.int64(2), 3)).shape
    assert shape == (2, 3)
    assert all(type(dim) is int for dim in shape)


@pytest.mark.parametrize(
    ("dtype", "low", "high"),
    [(np.int8, -128, 127), (np.int64, -(2**63), 2**63 - 1), (np.int32, -(2**31), 2**31 - 1)],
)
def test_signed_integer_infinities_become_dtype_extremes(dtype: Any, low: int, high: int) -> None:
    space = Box(-INF, INF, shape=(2,), dtype=dtype)
    assert space.low.tolist() == [low, low]
    assert space.high.tolist() == [high, high]
    assert not space.bounded_below.any()
    assert not space.bounded_above.any()


def test_int64_array_infinities_become_dtype_extremes() -> None:
    # Gymnasium 1.4 writes int64's maximum into the float bound array, where it rounds up to 2**63,
    # and the cast wraps to -2**63, so it rejects this space with "low > high".
    space = Box(np.array([-INF, 0.0]), np.array([INF, 5.0]), dtype=np.int64)
    assert space.low.tolist() == [-(2**63), 0]
    assert space.high.tolist() == [2**63 - 1, 5]
    assert space.bounded_below.tolist() == [False, True]
    assert space.bounded_above.tolist() == [False, True]
    for _ in range(20):
        assert space.sample() in space


def test_bounded_flags_and_is_bounded() -> None:
    space = Box(np.array([-INF, 0.0, -1.0]), np.array([1.0, INF, 1.0]))
    assert space.bounded_below.tolist() == [False, True, True]
    assert space.bounded_above.tolist() == [True, False, True]
    assert not space.is_bounded()
    assert not space.is_bounded("below")
    assert not space.is_bounded("above")
    bounded = Box(-1.0, 1.0, shape=(2,))
    assert bounded.is_bounded("both")
    assert bounded.is_bounded("below")
    assert bounded.is_bounded("above")
    below_only = Box(0.0, INF, shape=(2,))
    assert below_only.is_bounded("below")
    assert not below_only.is_bounded("above")


def test_is_bounded_rejects_unknown_manner() -> None:
    with pytest.raises(ValueError, match=message_pattern(MANNER_MSG)):
        Box(0, 1).is_bounded("sideways")  # type: ignore[arg-type]


def test_is_np_flattenable() -> None:
    assert Box(0, 1).is_np_flattenable is True


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"low": 0, "high": 1, "dtype": None}, message_pattern(DTYPE_NONE_MSG)),
        ({"low": 0, "high": 1, "dtype": "U3"}, message_pattern(DTYPE_KIND_MSG)),
        ({"low": 0, "high": 1, "dtype": np.complex64}, message_pattern(DTYPE_KIND_MSG)),
        ({"low": np.zeros(2), "high": np.ones(3)}, message_pattern(SHAPES_DIFFER_MSG)),
        ({"low": np.zeros(2), "high": 1.0, "shape": (3,)}, r"low.shape must match shape"),
        ({"low": 0.0, "high": np.ones(2), "shape": (3,)}, r"high.shape must match shape"),
        ({"low": np.nan, "high": 1}, message_pattern(BOUND_NAN_MSG)),
        ({"low": 0, "high": np.array([np.nan])}, message_pattern(BOUND_NAN_MSG)),
        ({"low": -INF, "high": 1, "dtype": np.uint8}, "may only be -inf"),
        ({"low": np.array([-INF]), "high": 1, "dtype": np.uint8}, "may only be -inf"),
        ({"low": 0, "high": INF, "dtype": np.bool_}, "may only be inf"),
        ({"low": 1, "high": 0}, message_pattern(LOW_ABOVE_HIGH_MSG)),
        (
            {"low": np.array([0.0, 2.0]), "high": np.array([1.0, 1.0])},
            message_pattern(LOW_ABOVE_HIGH_MSG),
        ),
        ({"low": [0], "high": [1]}, message_pattern(SHAPE_UNKNOWN_MSG)),
        ({"low": "a", "high": "b"}, message_pattern(SHAPE_UNKNOWN_MSG)),
        ({"low": [0], "high": [1], "shape": (1,)}, message_pattern(BOUND_TYPE_MSG)),
        ({"low": np.array(["a"]), "high": 1}, message_pattern(BOUND_DTYPE_MSG, name="low")),
        ({"low": 0, "high": 300, "dtype": np.uint8}, r"must lie in the range \[0, 255\]"),
        ({"low": -1, "high": 3, "dtype": np.uint8}, message_pattern(BOUND_RANGE_MSG)),
        ({"low": np.array([-1]), "high": 3, "dtype": np.uint8}, message_pattern(BOUND_RANGE_MSG)),
        ({"low": -1e39, "high": 0, "dtype": np.float32}, message_pattern(BOUND_RANGE_MSG)),
    ],
)
def test_bad_arguments_raise_invalid_space(
    kwargs: dict[str, Any], match: str, gym_spaces: Any
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # precision warnings from float64 bounds
        with pytest.raises(error.InvalidSpace, match=match) as info:
            Box(**kwargs)
        # Gymnasium raises a ValueError for the same arguments: `except ValueError` keeps working
        with pytest.raises(ValueError):
            gym_spaces.Box(**kwargs)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, error.Error)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"low": 0, "high": 1, "shape": (-1,)}, message_pattern(SHAPE_DIM_VALUE_MSG)),
        ({"low": INF, "high": INF, "dtype": np.int32}, "must be finite or -inf"),
        ({"low": np.array([0.0]), "high": np.array([-INF]), "dtype": np.int16}, "finite or inf"),
        ({"low": np.array([200]), "high": np.array([100]), "dtype": np.int8}, "range"),
    ],
)
def test_nonsense_bounds_gymnasium_accepts_are_rejected(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(error.InvalidSpace, match=match):
        Box(**kwargs)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8])
@pytest.mark.parametrize(
    ("low", "high"),
    [
        (np.array(-1.0), np.array(1.0)),
        (np.array(-INF), np.array(1.0)),
        (np.array(-1.0), 1.0),
        (-1, np.array(2)),
    ],
)
def test_zero_dimensional_bounds_give_shape_empty_as_in_gymnasium(
    gym_spaces: Any, low: Any, high: Any, dtype: Any
) -> None:
    space = Box(low=low, high=high, dtype=dtype, seed=5)
    theirs = gym_spaces.Box(low=_copy(low), high=_copy(high), dtype=dtype, seed=5)
    assert space.shape == theirs.shape == ()
    for ours_array, their_array in (
        (space.low, theirs.low),
        (space.high, theirs.high),
        (space.bounded_below, theirs.bounded_below),
        (space.bounded_above, theirs.bounded_above),
    ):
        assert isinstance(ours_array, np.ndarray)
        assert ours_array.shape == ()
        assert not ours_array.flags.writeable
        assert ours_array == their_array
    assert_same_draws(space, theirs, n=20)
    assert space.contains(np.array(0, dtype=dtype))


def _copy(value: Any) -> Any:
    return value.copy() if isinstance(value, np.ndarray) else value


@pytest.mark.parametrize(
    "shape",
    [3, (2.0,), ("a",)],
)
def test_bad_shape_type_raises_type_error(shape: Any) -> None:
    with pytest.raises(TypeError, match="Box shape must"):
        Box(0, 1, shape=shape)


def test_lower_precision_bound_warns() -> None:
    with pytest.warns(
        UserWarning,
        match=message_pattern(BOUND_PRECISION_MSG, name="low", dtype=np.dtype(np.float32)),
    ):
        Box(np.zeros(2), np.ones(2, dtype=np.float32))
    with pytest.warns(UserWarning, match=message_pattern(BOUND_PRECISION_MSG, name="high")):
        Box(np.zeros(2, dtype=np.float32), np.ones(2))


def test_low_repr_is_filled_by_first_repr() -> None:
    space = Box(0, 1, shape=(2,))
    assert space.low_repr is None
    assert space.high_repr is None
    repr(space)
    assert space.low_repr == "0.0"
    assert space.high_repr == "1.0"


# --- value semantics ------------------------------------------------------------------------------
def test_bounds_are_read_only() -> None:
    space = Box(np.zeros(3, dtype=np.float32), np.ones(3, dtype=np.float32))
    for array in (space.low, space.high, space.bounded_below, space.bounded_above):
        assert not array.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        space.low[0] = -5.0
    with pytest.raises(ValueError, match="read-only"):
        space.high[...] = 5.0


def test_input_arrays_are_copied_and_never_modified() -> None:
    low = np.array([-INF, 0.0, -2.0])
    high = np.array([INF, 4.0, 2.0])
    low_before, high_before = low.copy(), high.copy()
    space = Box(low, high, dtype=np.int32)
    np.testing.assert_array_equal(low, low_before)
    np.testing.assert_array_equal(high, high_before)
    assert low.flags.writeable
    assert high.flags.writeable
    same_dtype_low = np.zeros(2, dtype=np.float32)
    space = Box(same_dtype_low, 1.0)
    assert not np.shares_memory(space.low, same_dtype_low)
    same_dtype_low[0] = 0.5
    assert space.low[0] == 0.0


# --- contains -------------------------------------------------------------------------------------
def test_contains_arrays() -> None:
    space = Box(-1.0, 1.0, shape=(2,))
    assert np.array([0.0, 1.0], dtype=np.float32) in space
    assert np.array([0.0, 1.5], dtype=np.float32) not in space
    assert np.array([0.0, -1.5], dtype=np.float32) not in space
    assert np.array([0.0], dtype=np.float32) not in space
    assert np.array([0.0, 0.0], dtype=np.float64) not in space  # float64 -> float32 is unsafe
    assert np.array([0, 1], dtype=np.int8) in space
    assert space.contains(space.sample())


def test_contains_converts_other_values_with_a_warning() -> None:
    space = Box(-1.0, 1.0, shape=(2,))
    with pytest.warns(UserWarning, match=message_pattern(CAST_WARNING)):
        assert [0.5, -0.5] in space
    with pytest.warns(UserWarning, match=message_pattern(CAST_WARNING)):
        assert [0.5, 2.0] not in space
    with pytest.warns(UserWarning, match=message_pattern(CAST_WARNING)):
        assert ["a", "b"] not in space
    with pytest.warns(UserWarning, match=message_pattern(CAST_WARNING)):
        assert Box(0.0, 1.0, shape=()).contains(0.5)


def test_contains_integer_box() -> None:
    space = Box(0, 10, shape=(2,), dtype=np.int32)
    assert np.array([0, 10], dtype=np.int32) in space
    assert np.array([0, 11], dtype=np.int32) not in space
    assert np.array([0, 10], dtype=np.int64) not in space  # int64 -> int32 is unsafe
    assert np.array([0.0, 1.0]) not in space


# --- sampling -------------------------------------------------------------------------------------
MIXED_LOW = np.array([-INF, 0.0, -INF, -3.0, 1.0, -2.0])
MIXED_HIGH = np.array([INF, INF, 5.0, 3.0, 1.0, -1.0])


@pytest.mark.parametrize("seed", [0, 1, 42, 12345])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32])
def test_sample_stream_matches_gymnasium_mixed_bounds(
    seed: int, dtype: Any, gym_spaces: Any
) -> None:
    ours = Box(MIXED_LOW, MIXED_HIGH, dtype=dtype, seed=seed)
    theirs = gym_spaces.Box(MIXED_LOW.copy(), MIXED_HIGH.copy(), dtype=dtype, seed=seed)
    assert_same_draws(ours, theirs)


@pytest.mark.parametrize("seed", [0, 7, 2024])
@pytest.mark.parametrize(
    ("low", "high", "shape", "dtype"),
    [
        (0, 255, (4, 4), np.uint8),
        (0, 1, (3, 2), np.bool_),
        (-INF, INF, (), np.float32),
        (-INF, INF, (3,), np.int64),
        (0, 10, (5,), np.int64),
        (-(2**62), 2**62, (3,), np.int64),
        (0, 2**32 - 1, (3,), np.uint32),
        (0.0, 1.0, (2, 0), np.float32),
        (-1.5, 2.5, (2, 3, 2), np.float64),
    ],
)
def test_sample_stream_matches_gymnasium(
    seed: int, low: Any, high: Any, shape: tuple[int, ...], dtype: Any, gym_spaces: Any
) -> None:
    ours = Box(low, high, shape=shape, dtype=dtype, seed=seed)
    theirs = gym_spaces.Box(low, high, shape=shape, dtype=dtype, seed=seed)
    assert_same_draws(ours, theirs)


def test_samples_are_contained() -> None:
    for dtype in (np.float32, np.int8, np.uint8, np.int64, np.bool_):
        space = Box(0, 1, shape=(4,), dtype=dtype, seed=3)
        for _ in range(20):
            value = space.sample()
            assert value.dtype == dtype
            assert value in space
    extreme = Box(-INF, INF, shape=(8,), dtype=np.int64, seed=0)
    for _ in range(20):
        assert extreme.sample() in extreme


def test_same_seed_same_draws() -> None:
    a = Box(-INF, INF, shape=(5,), seed=9)
    b = Box(-INF, INF, shape=(5,))
    assert b.seed(9) == 9
    for _ in range(5):
        np.testing.assert_array_equal(a.sample(), b.sample())


def test_sample_rejects_mask_and_probability() -> None:
    space = Box(0, 1, shape=(2,))
    with pytest.raises(error.InvalidMask, match=message_pattern(MASK_MSG)) as info:
        space.sample(mask=np.ones(2, dtype=np.int8))  # type: ignore[arg-type]
    assert isinstance(info.value, error.Error)
    with pytest.raises(error.InvalidMask, match=message_pattern(PROBABILITY_MSG)):
        space.sample(probability=np.ones(2))  # type: ignore[arg-type]


# --- repr and equality ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((-1.0, 2.0), {"shape": (3, 4), "dtype": np.float32}),
        ((np.array([-1.0, -2.0]), np.array([2.0, 4.0])), {"dtype": np.float64}),
        ((0, 255), {"shape": (2,), "dtype": np.uint8}),
        ((-INF, INF), {"shape": (2,), "dtype": np.int32}),
        ((-INF, INF), {"shape": (), "dtype": np.float64}),
        ((0, 1), {"shape": (2,), "dtype": np.bool_}),
        ((0.0, 1.0), {"shape": (0,), "dtype": np.float32}),
        ((MIXED_LOW, MIXED_HIGH), {"dtype": np.float32}),
    ],
)
def test_repr_matches_gymnasium(
    args: tuple[Any, ...], kwargs: dict[str, Any], gym_spaces: Any
) -> None:
    assert repr(Box(*args, **kwargs)) == repr(gym_spaces.Box(*args, **kwargs))


def test_equality() -> None:
    assert Box(0, 1, shape=(2,)) == Box(np.zeros(2, np.float32), np.ones(2, np.float32))
    assert Box(0, 1, shape=(2,)) == Box(0, 1 + 1e-9, shape=(2,))  # floats compare with allclose
    assert Box(0, 1, shape=(2,)) != Box(0, 1, shape=(3,))
    assert Box(0, 1, shape=(2,)) != Box(0, 1, shape=(2,), dtype=np.float64)
    assert Box(0, 1, shape=(2,)) != Box(0, 2, shape=(2,))
    assert Box(0, 1, shape=(2,)) != "Box"
    # integer bounds compare exactly (np.allclose's relative tolerance would call these equal)
    assert Box(0, 2**40, shape=(1,), dtype=np.int64) != Box(
        0, 2**40 + 1, shape=(1,), dtype=np.int64
    )
    assert Box(0, 2**40, shape=(1,), dtype=np.int64) == Box(0, 2**40, shape=(1,), dtype=np.int64)


# --- pickling, copying, JSON ----------------------------------------------------------------------
@pytest.mark.parametrize("clone", [pickle.loads, copy.deepcopy])
def test_pickle_round_trip_continues_the_stream(clone: Any) -> None:
    space = Box(MIXED_LOW, MIXED_HIGH, seed=5)
    space.sample()
    repr(space)
    restored = clone(pickle.dumps(space)) if clone is pickle.loads else clone(space)
    assert restored == space
    assert repr(restored) == repr(space)
    for name in ("low", "high", "bounded_below", "bounded_above"):
        array = getattr(restored, name)
        np.testing.assert_array_equal(array, getattr(space, name))
        assert not array.flags.writeable
    for _ in range(10):
        np.testing.assert_array_equal(restored.sample(), space.sample())


def test_legacy_state_without_repr_cache() -> None:
    space = Box(0, 1, shape=(2,))
    state = dict(space.__dict__)
    for key in ("low_repr", "high_repr"):
        del state[key]
    state["shape"] = state.pop("_shape")
    state["np_random"] = state.pop("_np_random")
    restored = Box.__new__(Box)
    restored.__setstate__(state)
    assert restored.shape == (2,)
    assert restored.low_repr == "0.0"
    assert restored.high_repr == "1.0"
    assert restored == space


def test_json_round_trip() -> None:
    space = Box(-2, 2, shape=(2, 3), dtype=np.int16, seed=1)
    samples = [space.sample() for _ in range(4)]
    text = json.dumps(space.to_jsonable(samples))
    restored = space.from_jsonable(json.loads(text))
    for original, back in zip(samples, restored, strict=True):
        assert back.dtype == np.int16
        np.testing.assert_array_equal(original, back)


def test_helpers() -> None:
    assert array_short_repr(np.full((2, 2), 3.0)) == "3.0"
    assert array_short_repr(np.array([1, 2])) == "[1 2]"
    assert array_short_repr(np.array([])) == "[]"
    assert is_float_integer(1)
    assert is_float_integer(1.5)
    assert is_float_integer(np.int8(1))
    assert not is_float_integer(True)
    assert not is_float_integer("1")
    assert not is_float_integer([1])
