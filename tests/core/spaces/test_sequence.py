"""Tests of the Sequence space, most of them differential against Gymnasium 1.4."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym.spaces as vspaces
from tests.support.messages import message_pattern
from tests.support.space_values import assert_same_value
from vecgym import error
from vecgym.core.spaces.sequence import (
    FEATURE_TYPE_MSG,
    LENGTH_DTYPE_MSG,
    LENGTH_NDIM_MSG,
    LENGTH_NEGATIVE_MSG,
    LENGTH_TYPE_MSG,
    LENGTHS_NEGATIVE_MSG,
    MASK_FORM_MSG,
    SEED_LENGTH_MSG,
    SEED_TYPE_MSG,
)
from vecgym.core.spaces.tuple import BOTH_MASKS_MSG
from vecgym.spaces import Box, Discrete, Sequence

gymnasium = pytest.importorskip("gymnasium")
gspaces = gymnasium.spaces

Factory = Callable[[ModuleType, bool], Any]

FACTORIES: dict[str, Factory] = {
    "box": lambda S, stack: S.Sequence(S.Box(0, 1, (2,)), stack=stack),
    "discrete": lambda S, stack: S.Sequence(S.Discrete(4, start=1), stack=stack),
    "multi_binary": lambda S, stack: S.Sequence(S.MultiBinary(3), stack=stack),
    "text": lambda S, stack: S.Sequence(S.Text(5), stack=stack),
    "dict": lambda S, stack: S.Sequence(S.Dict(a=S.Discrete(3), b=S.Box(-1, 1, (2,))), stack=stack),
    "tuple": lambda S, stack: S.Sequence(
        S.Tuple((S.MultiDiscrete([2, 3]), S.Discrete(2))), stack=stack
    ),
    "nested": lambda S, stack: S.Sequence(S.Sequence(S.Discrete(3)), stack=stack),
}
CASES = [(name, stack) for name in sorted(FACTORIES) for stack in (False, True)]


def both(name: str, stack: bool) -> tuple[Any, Any]:
    return FACTORIES[name](vspaces, stack), FACTORIES[name](gspaces, stack)


@pytest.mark.parametrize(("name", "stack"), CASES)
def test_seeded_samples_match_gymnasium(name: str, stack: bool) -> None:
    ours, theirs = both(name, stack)
    assert_same_value(ours.seed(17), theirs.seed(17))
    for _ in range(25):
        sample = ours.sample()
        assert_same_value(sample, theirs.sample())
        assert sample in ours


@pytest.mark.parametrize("stack", [False, True])
def test_constructor_seed_matches_gymnasium(stack: bool) -> None:
    ours = Sequence(Box(0, 1), seed=0, stack=stack)
    theirs = gspaces.Sequence(gspaces.Box(0, 1), seed=0, stack=stack)
    for _ in range(10):
        assert_same_value(ours.sample(), theirs.sample())


LENGTH_MASKS: list[Any] = [None, 3, np.int64(2), np.array([1, 4, 6]), np.array([2], dtype=np.uint8)]


@pytest.mark.parametrize("stack", [False, True])
@pytest.mark.parametrize("length", LENGTH_MASKS, ids=lambda v: repr(v))
def test_masked_samples_match_gymnasium(stack: bool, length: Any) -> None:
    ours, theirs = both("discrete", stack)
    ours.seed(5)
    theirs.seed(5)
    feature_mask = np.array([0, 1, 0, 1], dtype=np.int8)
    feature_probability = np.array([0.1, 0.2, 0.3, 0.4])
    for _ in range(10):
        assert_same_value(
            ours.sample(mask=(length, feature_mask)), theirs.sample(mask=(length, feature_mask))
        )
        assert_same_value(
            ours.sample(probability=(length, feature_probability)),
            theirs.sample(probability=(length, feature_probability)),
        )
        assert_same_value(ours.sample(mask=(length, None)), theirs.sample(mask=(length, None)))


@pytest.mark.parametrize("name", ["box", "discrete", "dict", "text", "tuple"])
def test_empty_stacked_sample(name: str) -> None:
    """Gymnasium 1.4 fails to stack a sequence of length 0; vecgym returns the empty batch."""
    space = FACTORIES[name](vspaces, True)
    space.seed(0)
    sample = space.sample(mask=(0, None))
    assert sample in space
    unstacked = FACTORIES[name](vspaces, False)
    assert unstacked.sample(mask=(0, None)) == ()
    if name == "box":
        assert sample.shape == (0, 2)
        assert sample.dtype == np.float32


@pytest.mark.parametrize("seed", [None, 3, (1, 2), [3, 4], (5, (1, 2))], ids=str)
def test_seed_forms(seed: Any) -> None:
    name = "nested" if seed == (5, (1, 2)) else "box"
    ours, theirs = both(name, False)
    used = ours.seed(seed)
    assert isinstance(used, tuple)
    assert len(used) == 2
    if seed is None:
        return
    assert_same_value(used, theirs.seed(seed))
    for _ in range(10):
        assert_same_value(ours.sample(), theirs.sample())


def test_int_seed_equals_pair_seed_for_lengths() -> None:
    a, b = Sequence(Discrete(3)), Sequence(Discrete(3))
    own, feature = a.seed(8)
    b.seed((own, feature))
    for _ in range(10):
        assert_same_value(a.sample(), b.sample())


def test_seed_errors() -> None:
    space = Sequence(Discrete(2))
    with pytest.raises(ValueError, match=message_pattern(SEED_LENGTH_MSG)):
        space.seed([1, 2, 3])
    with pytest.raises(TypeError, match=message_pattern(SEED_TYPE_MSG)):
        space.seed(1.5)  # type: ignore[arg-type]


def test_constructor_rejects_non_space() -> None:
    with pytest.raises(TypeError, match=message_pattern(FEATURE_TYPE_MSG)):
        Sequence(Discrete)  # type: ignore[arg-type]


def test_mask_errors() -> None:
    space = Sequence(Discrete(3))
    with pytest.raises(error.InvalidMask, match=message_pattern(BOTH_MASKS_MSG)):
        space.sample(mask=(None, None), probability=(None, None))
    with pytest.raises(
        error.InvalidMask, match=message_pattern(LENGTH_NEGATIVE_MSG, kind="mask", value=-1)
    ):
        space.sample(mask=(-1, None))
    with pytest.raises(error.InvalidMask, match=message_pattern(LENGTH_NDIM_MSG)):
        space.sample(mask=(np.array([[1, 2]]), None))
    with pytest.raises(
        error.InvalidMask, match=message_pattern(LENGTHS_NEGATIVE_MSG, kind="probability")
    ):
        space.sample(probability=(np.array([1, -2]), None))
    with pytest.raises(error.InvalidMask, match=message_pattern(LENGTH_DTYPE_MSG)):
        space.sample(mask=(np.array([1.0, 2.0]), None))
    with pytest.raises(TypeError, match=message_pattern(LENGTH_TYPE_MSG)):
        space.sample(mask=(2.5, None))  # type: ignore[arg-type]
    with pytest.raises(error.InvalidMask, match=message_pattern(MASK_FORM_MSG)):
        space.sample(mask=3)  # type: ignore[arg-type]


def test_contains() -> None:
    space = Sequence(Discrete(3))
    assert () in space
    assert (0, 1, 2) in space
    assert (0, 3) not in space
    assert [0, 1] not in space
    stacked = Sequence(Box(0, 1, (2,)), stack=True)
    assert np.zeros((4, 2), dtype=np.float32) in stacked
    assert np.full((4, 2), 2.0, dtype=np.float32) not in stacked
    assert np.zeros((0, 2), dtype=np.float32) in stacked
    assert 3 not in stacked


@pytest.mark.parametrize(("name", "stack"), CASES)
def test_repr_matches_gymnasium(name: str, stack: bool) -> None:
    ours, theirs = both(name, stack)
    assert repr(ours) == repr(theirs)


def test_equality() -> None:
    assert Sequence(Discrete(3)) == Sequence(Discrete(3))
    assert Sequence(Discrete(3)) != Sequence(Discrete(3), stack=True)
    assert Sequence(Discrete(3)) != Sequence(Discrete(4))
    assert Sequence(Discrete(3)) != Discrete(3)


def test_not_np_flattenable() -> None:
    assert Sequence(Discrete(3)).is_np_flattenable is False


def test_stacked_feature_space() -> None:
    space = Sequence(Box(0, 1, (2,)), stack=True)
    assert repr(space.stacked_feature_space) == "Box(0.0, 1.0, (1, 2), float32)"


@pytest.mark.parametrize(
    ("name", "stack"), [("box", False), ("discrete", False), ("box", True), ("dict", False)]
)
def test_jsonable_matches_gymnasium_and_round_trips(name: str, stack: bool) -> None:
    ours, theirs = both(name, stack)
    ours.seed(4)
    theirs.seed(4)
    samples = [ours.sample() for _ in range(3)]
    their_samples = [theirs.sample() for _ in range(3)]
    jsonable = json.loads(json.dumps(ours.to_jsonable(samples)))
    assert jsonable == theirs.to_jsonable(their_samples)
    back = ours.from_jsonable(jsonable)
    assert_same_value(back, theirs.from_jsonable(theirs.to_jsonable(their_samples)))


@pytest.mark.parametrize("stack", [False, True])
def test_pickle_keeps_the_stream(stack: bool) -> None:
    space = Sequence(Box(-1, 1, (3,)), seed=4, stack=stack)
    space.sample()
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space
    for _ in range(5):
        assert_same_value(clone.sample(), space.sample())
