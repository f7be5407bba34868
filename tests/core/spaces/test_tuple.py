"""Tests of the Tuple space, most of them differential against Gymnasium 1.4."""

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
from vecgym.core.spaces.tuple import (
    BOTH_MASKS_MSG,
    MASK_TYPE_MSG,
    SEED_LENGTH_MSG,
    SEED_TYPE_MSG,
    SUBSPACE_TYPE_MSG,
)
from vecgym.spaces import Box, Discrete, MultiBinary, MultiDiscrete, Text, Tuple

gymnasium = pytest.importorskip("gymnasium")
gspaces = gymnasium.spaces

Factory = Callable[[ModuleType], Any]

FACTORIES: dict[str, Factory] = {
    "flat": lambda S: S.Tuple((S.Discrete(3), S.Box(-1, 1, shape=(2,)), S.MultiBinary(3))),
    "mixed": lambda S: S.Tuple(
        (
            S.Discrete(5, start=-2),
            S.MultiDiscrete([2, 3]),
            S.Text(4),
            S.Box(0, 10, (2, 2), np.int64),
        )
    ),
    "nested": lambda S: S.Tuple(
        (S.Tuple((S.Discrete(2), S.Box(0, 1))), S.Dict(a=S.Discrete(4), b=S.MultiBinary(2)))
    ),
    "empty": lambda S: S.Tuple(()),
}


def both(name: str, **kwargs: Any) -> tuple[Any, Any]:
    return FACTORIES[name](vspaces, **kwargs), FACTORIES[name](gspaces, **kwargs)


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.parametrize("seed", [0, 42, 2**31])
def test_seeded_samples_match_gymnasium(name: str, seed: int) -> None:
    ours, theirs = both(name)
    assert_same_value(ours.seed(seed), theirs.seed(seed))
    for _ in range(30):
        sample = ours.sample()
        assert_same_value(sample, theirs.sample())
        assert sample in ours


def test_constructor_seed_matches_gymnasium() -> None:
    ours = Tuple((Discrete(3), Box(-1, 1, (2,))), seed=7)
    theirs = gspaces.Tuple((gspaces.Discrete(3), gspaces.Box(-1, 1, (2,))), seed=7)
    for _ in range(10):
        assert_same_value(ours.sample(), theirs.sample())


def test_masked_and_probability_samples_match_gymnasium() -> None:
    ours, theirs = both("flat")
    ours.seed(3)
    theirs.seed(3)
    mask = (np.array([0, 1, 1], dtype=np.int8), None, np.array([0, 1, 2], dtype=np.int8))
    probability = (np.array([0.2, 0.0, 0.8]), None, np.array([0.1, 0.5, 0.9]))
    for _ in range(20):
        assert_same_value(ours.sample(mask=mask), theirs.sample(mask=mask))
        assert_same_value(
            ours.sample(probability=probability), theirs.sample(probability=probability)
        )


@pytest.mark.parametrize(
    "seed",
    [None, 5, [1, 2, 3], (4, 5, 6), [[1, 2], {"a": 3, "b": 4}]],
    ids=["none", "int", "list", "tuple", "nested"],
)
def test_seed_forms(seed: Any) -> None:
    name = "nested" if seed == [[1, 2], {"a": 3, "b": 4}] else "flat"
    ours, theirs = both(name)
    used = ours.seed(seed)
    assert isinstance(used, tuple)
    assert len(used) == len(ours)
    if seed is None:
        return
    assert_same_value(used, theirs.seed(seed))
    for _ in range(10):
        assert_same_value(ours.sample(), theirs.sample())


def test_seed_accepts_numpy_integer() -> None:
    space = Tuple((Discrete(3),))
    assert space.seed(np.int64(5)) == Tuple((Discrete(3),)).seed(5)


def test_seed_errors() -> None:
    space = Tuple((Discrete(2), Discrete(3)))
    with pytest.raises(ValueError, match=message_pattern(SEED_LENGTH_MSG)):
        space.seed([1, 2, 3])
    with pytest.raises(TypeError, match=message_pattern(SEED_TYPE_MSG)):
        space.seed("seed")
    with pytest.raises(error.InvalidSeed):
        space.seed(-1)


def test_generator_seed_is_used() -> None:
    rng = np.random.default_rng(0)
    space = Tuple((Discrete(3),), seed=rng)
    assert space.np_random is rng


def test_constructor_rejects_non_spaces() -> None:
    with pytest.raises(TypeError, match=message_pattern(SUBSPACE_TYPE_MSG)):
        Tuple((Discrete(2), 3))  # type: ignore[arg-type]


def test_mask_errors() -> None:
    space = Tuple((Discrete(2), Discrete(3)))
    with pytest.raises(error.InvalidMask, match=message_pattern(BOTH_MASKS_MSG)):
        space.sample(mask=(None, None), probability=(None, None))
    with pytest.raises(error.InvalidMask, match=message_pattern(MASK_TYPE_MSG)):
        space.sample(mask=[None, None])  # type: ignore[arg-type]
    with pytest.raises(error.InvalidMask, match="length 2"):
        space.sample(probability=(None,))
    with pytest.raises(ValueError):  # InvalidMask is also a ValueError
        space.sample(mask=(None, None, None))


def test_contains() -> None:
    space: Any = Tuple((Discrete(3), Box(0, 1, (2,))))
    good = (np.int64(1), np.array([0.5, 0.5], dtype=np.float32))
    assert good in space
    assert list(good) in space
    assert (1,) not in space
    assert (5, good[1]) not in space
    assert 3 not in space
    assert np.array([1, 2, 3]) not in space


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_repr_matches_gymnasium(name: str) -> None:
    ours, theirs = both(name)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)


def test_sequence_protocol() -> None:
    parts = (Discrete(2), Box(0, 1), MultiBinary(2))
    space = Tuple(parts)
    assert len(space) == 3
    assert space[1] is parts[1]
    assert space[-1] is parts[2]
    assert space[0:2] == parts[0:2]
    assert list(space) == list(parts)
    assert space.index(parts[2]) == 2


def test_equality() -> None:
    assert Tuple((Discrete(2), Box(0, 1))) == Tuple([Discrete(2), Box(0, 1)])
    assert Tuple((Discrete(2), Box(0, 1))) != Tuple((Box(0, 1), Discrete(2)))
    assert Tuple((Discrete(2),)) != Tuple((Discrete(3),))
    assert Tuple((Discrete(2),)) != (Discrete(2),)


def test_is_np_flattenable() -> None:
    assert Tuple((Discrete(2), Box(0, 1))).is_np_flattenable
    assert not Tuple((Discrete(2), vspaces.Sequence(Discrete(2)))).is_np_flattenable


@pytest.mark.parametrize("name", sorted(set(FACTORIES) - {"empty"}))
def test_jsonable_matches_gymnasium_and_round_trips(name: str) -> None:
    ours, theirs = both(name)
    ours.seed(1)
    theirs.seed(1)
    samples = [ours.sample() for _ in range(4)]
    their_samples = [theirs.sample() for _ in range(4)]
    jsonable = ours.to_jsonable(samples)
    assert json.loads(json.dumps(jsonable)) == theirs.to_jsonable(their_samples)
    back = ours.from_jsonable(json.loads(json.dumps(jsonable)))
    assert_same_value(back, theirs.from_jsonable(theirs.to_jsonable(their_samples)))
    assert all(sample in ours for sample in back)


def test_pickle_keeps_the_stream() -> None:
    space = Tuple((Discrete(5), Box(-1, 1, (3,)), Text(5)), seed=11)
    space.sample()
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space
    assert repr(clone) == repr(space)
    for _ in range(5):
        assert_same_value(clone.sample(), space.sample())


def test_unseeded_space_samples() -> None:
    space: Any = Tuple((Discrete(3), MultiDiscrete([2, 2])))
    assert space.sample() in space
    assert isinstance(space.np_random, np.random.Generator)
