"""Tests of the OneOf space, most of them differential against Gymnasium 1.4."""

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
from vecgym.core.spaces.oneof import EMPTY_MSG, NOT_ITERABLE_MSG, SEED_LENGTH_MSG, SEED_TYPE_MSG
from vecgym.core.spaces.tuple import BOTH_MASKS_MSG, MASK_TYPE_MSG, SUBSPACE_TYPE_MSG
from vecgym.spaces import Box, Discrete, OneOf

gymnasium = pytest.importorskip("gymnasium")
gspaces = gymnasium.spaces

Factory = Callable[[ModuleType], Any]

FACTORIES: dict[str, Factory] = {
    "simple": lambda S: S.OneOf((S.Discrete(2), S.Box(-1, 1, shape=(2,)))),
    "many": lambda S: S.OneOf(
        [S.MultiBinary(3), S.MultiDiscrete([2, 5]), S.Text(3), S.Discrete(4, start=-1)]
    ),
    "nested": lambda S: S.OneOf(
        (S.Tuple((S.Discrete(2), S.Box(0, 1))), S.Dict(a=S.Discrete(3)), S.OneOf((S.Discrete(5),)))
    ),
    "single": lambda S: S.OneOf((S.Box(0, 1, (3,)),)),
}


def both(name: str) -> tuple[Any, Any]:
    return FACTORIES[name](vspaces), FACTORIES[name](gspaces)


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.parametrize("seed", [0, 123])
def test_seeded_samples_match_gymnasium(name: str, seed: int) -> None:
    ours, theirs = both(name)
    assert_same_value(ours.seed(seed), theirs.seed(seed))
    for _ in range(40):
        sample = ours.sample()
        assert_same_value(sample, theirs.sample())
        assert sample in ours


def test_constructor_seed_matches_gymnasium() -> None:
    ours = OneOf((Discrete(2), Box(-1, 1, shape=(2,))), seed=123)
    theirs = gspaces.OneOf((gspaces.Discrete(2), gspaces.Box(-1, 1, shape=(2,))), seed=123)
    for _ in range(10):
        assert_same_value(ours.sample(), theirs.sample())


def test_masked_and_probability_samples_match_gymnasium() -> None:
    ours, theirs = both("many")
    ours.seed(6)
    theirs.seed(6)
    mask = (
        np.array([1, 0, 2], dtype=np.int8),
        (np.array([1, 1], dtype=np.int8), np.array([0, 0, 1, 1, 0], dtype=np.int8)),
        None,
        np.array([0, 0, 1, 1], dtype=np.int8),
    )
    probability = (
        np.array([0.9, 0.1, 0.5]),
        (np.array([0.3, 0.7]), np.array([0.0, 0.0, 0.5, 0.5, 0.0])),
        None,
        np.array([0.25, 0.25, 0.0, 0.5]),
    )
    for _ in range(30):
        assert_same_value(ours.sample(mask=mask), theirs.sample(mask=mask))
        assert_same_value(
            ours.sample(probability=probability), theirs.sample(probability=probability)
        )


@pytest.mark.parametrize(
    "seed", [None, 7, (1, 2, 3), [4, 5, 6], (1, (2, 3), {"a": 4}, (5, 6))], ids=str
)
def test_seed_forms(seed: Any) -> None:
    name = "nested" if isinstance(seed, tuple) and len(seed) == 4 else "simple"
    ours, theirs = both(name)
    used = ours.seed(seed)
    assert isinstance(used, tuple)
    assert len(used) == len(ours) + 1
    if seed is None:
        return
    assert_same_value(used, theirs.seed(seed))
    for _ in range(10):
        assert_same_value(ours.sample(), theirs.sample())


def test_seed_errors() -> None:
    space = OneOf((Discrete(2), Discrete(3)))
    with pytest.raises(ValueError, match=message_pattern(SEED_LENGTH_MSG)):
        space.seed([1, 2])
    with pytest.raises(TypeError, match=message_pattern(SEED_TYPE_MSG)):
        space.seed({"a": 1})  # type: ignore[arg-type]


def test_constructor_errors() -> None:
    with pytest.raises(TypeError, match=message_pattern(NOT_ITERABLE_MSG)):
        OneOf(3)  # type: ignore[arg-type]
    with pytest.raises(error.InvalidSpace, match=message_pattern(EMPTY_MSG)):
        OneOf(())
    with pytest.raises(ValueError):
        OneOf([])
    with pytest.raises(TypeError, match=message_pattern(SUBSPACE_TYPE_MSG)):
        OneOf((Discrete(2), "x"))  # type: ignore[arg-type]


def test_mask_errors() -> None:
    space = OneOf((Discrete(2), Discrete(3)))
    with pytest.raises(error.InvalidMask, match=message_pattern(BOTH_MASKS_MSG)):
        space.sample(mask=(None, None), probability=(None, None))
    with pytest.raises(error.InvalidMask, match=message_pattern(MASK_TYPE_MSG)):
        space.sample(mask=[None, None])  # type: ignore[arg-type]
    with pytest.raises(error.InvalidMask, match="length 2"):
        space.sample(probability=(None,))


def test_contains() -> None:
    space = OneOf((Discrete(2), Box(0, 1, (2,))))
    assert (0, 1) in space
    assert (np.int64(1), np.array([0.5, 0.5], dtype=np.float32)) in space
    assert (1, np.array([2.0, 2.0], dtype=np.float32)) not in space
    assert (2, 0) not in space
    assert (-1, 0) not in space
    assert [0, 1] not in space
    assert (0, 1, 2) not in space
    assert (np.int32(0), 1) not in space  # only int and np.int64 indices, as in Gymnasium


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_repr_matches_gymnasium(name: str) -> None:
    ours, theirs = both(name)
    assert repr(ours) == repr(theirs)


def test_sequence_protocol_and_equality() -> None:
    parts = (Discrete(2), Box(0, 1))
    space = OneOf(parts)
    assert len(space) == 2
    assert space[1] is parts[1]
    assert list(space) == list(parts)  # type: ignore[call-overload]
    assert space == OneOf(list(parts))
    assert space != OneOf(parts[::-1])
    assert space != vspaces.Tuple(parts)


def test_is_np_flattenable() -> None:
    assert OneOf((Discrete(2), Box(0, 1))).is_np_flattenable
    assert not OneOf((Discrete(2), vspaces.Sequence(Discrete(2)))).is_np_flattenable


@pytest.mark.parametrize("name", ["many", "simple", "single"])
def test_jsonable_matches_gymnasium_and_round_trips(name: str) -> None:
    ours, theirs = both(name)
    ours.seed(8)
    theirs.seed(8)
    samples = [ours.sample() for _ in range(6)]
    their_samples = [theirs.sample() for _ in range(6)]
    jsonable = json.loads(json.dumps(ours.to_jsonable(samples)))
    assert jsonable == theirs.to_jsonable(their_samples)
    back = ours.from_jsonable(jsonable)
    assert_same_value(back, theirs.from_jsonable(theirs.to_jsonable(their_samples)))


def test_jsonable_round_trips_composite_subspaces() -> None:
    """Gymnasium 1.4 drops all but the first part of a Tuple subspace's value and fails on a Dict
    subspace; vecgym keeps the whole value."""
    space = FACTORIES["nested"](vspaces)
    space.seed(8)
    samples = [space.sample() for _ in range(12)]
    assert {int(index) for index, _ in samples} == {0, 1, 2}
    back = space.from_jsonable(json.loads(json.dumps(space.to_jsonable(samples))))
    assert_same_value(back, samples)


def test_pickle_keeps_the_stream() -> None:
    space = OneOf((Discrete(5), Box(-1, 1, (3,))), seed=4)
    space.sample()
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space
    for _ in range(5):
        assert_same_value(clone.sample(), space.sample())
