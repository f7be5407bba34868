"""Tests of the Dict space, most of them differential against Gymnasium 1.4."""

from __future__ import annotations

import json
import pickle
from collections import OrderedDict
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym.spaces as vspaces
from tests.support.messages import message_pattern
from tests.support.space_values import assert_same_value
from vecgym import error
from vecgym.core.spaces.dict import (
    DUPLICATE_KEY_MSG,
    INPUT_TYPE_MSG,
    MASK_TYPE_MSG,
    SEED_KEYS_MSG,
    SEED_TYPE_MSG,
    SETITEM_TYPE_MSG,
    SUBSPACE_TYPE_MSG,
)
from vecgym.core.spaces.tuple import BOTH_MASKS_MSG
from vecgym.spaces import Box, Dict, Discrete, MultiBinary, Tuple

gymnasium = pytest.importorskip("gymnasium")
gspaces = gymnasium.spaces

Factory = Callable[[ModuleType], Any]

FACTORIES: dict[str, Factory] = {
    "sorted": lambda S: S.Dict({"position": S.Box(-1, 1, shape=(2,)), "color": S.Discrete(3)}),
    "unsorted": lambda S: S.Dict(
        {"z": S.Discrete(4), "a": S.MultiBinary(3), "m": S.Box(0, 5, (1,))}, sort_keys=False
    ),
    "ordered": lambda S: S.Dict(
        OrderedDict([("b", S.Discrete(2)), ("a", S.MultiDiscrete([3, 4]))])
    ),
    "pairs": lambda S: S.Dict([("y", S.Text(3)), ("x", S.Discrete(2))]),
    "kwargs": lambda S: S.Dict({"b": S.Discrete(2)}, a=S.Box(0, 1), c=S.MultiBinary(2)),
    "nested": lambda S: S.Dict(
        {
            "ext": S.MultiDiscrete([5, 2, 2]),
            "inner": S.Dict(
                {
                    "charge": S.Discrete(100),
                    "checks": S.MultiBinary(4),
                    "pair": S.Tuple((S.Discrete(2), S.Box(0, 1))),
                }
            ),
        }
    ),
    "mixed_keys": lambda S: S.Dict({2: S.Discrete(2), "a": S.Discrete(3), 1: S.Box(0, 1)}),
    "empty": lambda S: S.Dict(),
}


def both(name: str) -> tuple[Any, Any]:
    return FACTORIES[name](vspaces), FACTORIES[name](gspaces)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_key_order_matches_gymnasium(name: str) -> None:
    ours, theirs = both(name)
    assert list(ours.keys()) == list(theirs.keys())
    assert list(ours) == list(theirs)


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.parametrize("seed", [0, 123])
def test_seeded_samples_match_gymnasium(name: str, seed: int) -> None:
    ours, theirs = both(name)
    assert_same_value(ours.seed(seed), theirs.seed(seed))
    for _ in range(30):
        sample = ours.sample()
        assert_same_value(sample, theirs.sample())
        assert sample in ours


def test_constructor_seeds_match_gymnasium() -> None:
    seeds: list[Any] = [42, {"color": 1, "position": 2}]
    for seed in seeds:
        ours = Dict({"position": Box(-1, 1, (2,)), "color": Discrete(3)}, seed=seed)
        theirs = gspaces.Dict(
            {"position": gspaces.Box(-1, 1, (2,)), "color": gspaces.Discrete(3)}, seed=seed
        )
        for _ in range(10):
            assert_same_value(ours.sample(), theirs.sample())


def test_nested_dict_seed_matches_gymnasium() -> None:
    ours, theirs = both("nested")
    seed = {"ext": 1, "inner": {"charge": 2, "checks": 3, "pair": [4, 5]}}
    assert_same_value(ours.seed(seed), theirs.seed(seed))
    for _ in range(10):
        assert_same_value(ours.sample(), theirs.sample())


def test_masked_and_probability_samples_match_gymnasium() -> None:
    ours, theirs = both("unsorted")
    ours.seed(9)
    theirs.seed(9)
    mask = {
        "z": np.array([1, 0, 1, 0], dtype=np.int8),
        "a": np.array([2, 2, 0], dtype=np.int8),
        "m": None,
    }
    probability = {"z": np.array([0.5, 0.0, 0.0, 0.5]), "a": np.array([0.5, 0.5, 0.5]), "m": None}
    for _ in range(20):
        assert_same_value(ours.sample(mask=mask), theirs.sample(mask=mask))
        assert_same_value(
            ours.sample(probability=probability), theirs.sample(probability=probability)
        )


def test_seed_none_returns_seed_per_key() -> None:
    space = Dict(a=Discrete(2), b=Discrete(3))
    used = space.seed(None)
    assert list(used) == ["a", "b"]
    assert all(isinstance(seed, int) for seed in used.values())


def test_seed_errors() -> None:
    space = Dict(a=Discrete(2), b=Discrete(3))
    with pytest.raises(ValueError, match=message_pattern(SEED_KEYS_MSG)):
        space.seed({"a": 1})
    with pytest.raises(TypeError, match=message_pattern(SEED_TYPE_MSG)):
        space.seed([1, 2])  # type: ignore[arg-type]
    with pytest.raises(error.InvalidSeed):
        space.seed(-3)


def test_constructor_errors() -> None:
    with pytest.raises(TypeError, match=message_pattern(INPUT_TYPE_MSG, type=int)):
        Dict(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message_pattern(SUBSPACE_TYPE_MSG)):
        Dict({"a": 3})  # type: ignore[dict-item]
    with pytest.raises(error.InvalidSpace, match=message_pattern(DUPLICATE_KEY_MSG)):
        Dict({"a": Discrete(2)}, a=Discrete(3))
    with pytest.raises(ValueError, match="pairs"):
        Dict(["ab", "c"])  # type: ignore[list-item]


def test_mask_errors() -> None:
    space = Dict(a=Discrete(2), b=Discrete(3))
    with pytest.raises(error.InvalidMask, match=message_pattern(BOTH_MASKS_MSG)):
        space.sample(mask={"a": None, "b": None}, probability={"a": None, "b": None})
    with pytest.raises(error.InvalidMask, match=message_pattern(MASK_TYPE_MSG)):
        space.sample(mask=(None, None))  # type: ignore[arg-type]
    with pytest.raises(error.InvalidMask, match="keys"):
        space.sample(probability={"a": None})


def test_contains() -> None:
    space: Any = Dict(a=Discrete(2), b=Box(0, 1, (2,)))
    assert {"a": 1, "b": np.array([0.1, 0.2], dtype=np.float32)} in space
    assert {"b": np.array([0.1, 0.2], dtype=np.float32), "a": 1} in space
    assert {"a": 1} not in space
    assert {"a": 2, "b": np.array([0.1, 0.2], dtype=np.float32)} not in space
    assert [("a", 1)] not in space
    assert "a" not in space  # `in` tests values, not keys, as in Gymnasium


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_repr_matches_gymnasium(name: str) -> None:
    ours, theirs = both(name)
    assert repr(ours) == repr(theirs)


def test_mapping_protocol() -> None:
    a, b = Discrete(2), Box(0, 1)
    space = Dict(a=a, b=b)
    assert space["a"] is a
    assert len(space) == 2
    assert list(space.keys()) == ["a", "b"]
    assert list(space.values()) == [a, b]
    assert list(space.items()) == [("a", a), ("b", b)]
    assert space.get("missing") is None
    with pytest.raises(KeyError):
        space["missing"]
    c = MultiBinary(2)
    space["c"] = c
    assert space["c"] is c
    with pytest.raises(TypeError, match=message_pattern(SETITEM_TYPE_MSG)):
        space["d"] = 4  # type: ignore[assignment]


def test_equality() -> None:
    assert Dict(a=Discrete(2), b=Box(0, 1)) == Dict({"b": Box(0, 1), "a": Discrete(2)})
    assert Dict(a=Discrete(2)) != Dict(a=Discrete(3))
    assert Dict(a=Discrete(2)) != Dict(b=Discrete(2))
    assert Dict(a=Discrete(2)) != {"a": Discrete(2)}
    # Gymnasium compares the underlying dicts, which ignores key order.
    x, y = (
        Dict(a=Discrete(2), b=Discrete(3), sort_keys=False),
        Dict(b=Discrete(3), a=Discrete(2), sort_keys=False),
    )
    assert (x == y) == (
        gspaces.Dict(a=gspaces.Discrete(2), b=gspaces.Discrete(3), sort_keys=False)
        == gspaces.Dict(b=gspaces.Discrete(3), a=gspaces.Discrete(2), sort_keys=False)
    )


def test_is_np_flattenable() -> None:
    assert Dict(a=Discrete(2), b=Tuple((Box(0, 1),))).is_np_flattenable
    assert not Dict(a=vspaces.Graph(Box(0, 1), None)).is_np_flattenable


@pytest.mark.parametrize("name", ["sorted", "unsorted", "ordered", "pairs", "nested"])
def test_jsonable_matches_gymnasium_and_round_trips(name: str) -> None:
    ours, theirs = both(name)
    ours.seed(2)
    theirs.seed(2)
    samples = [ours.sample() for _ in range(3)]
    their_samples = [theirs.sample() for _ in range(3)]
    jsonable = json.loads(json.dumps(ours.to_jsonable(samples)))
    assert jsonable == theirs.to_jsonable(their_samples)
    back = ours.from_jsonable(jsonable)
    assert_same_value(back, theirs.from_jsonable(theirs.to_jsonable(their_samples)))
    assert all(sample in ours for sample in back)


def test_pickle_keeps_the_stream() -> None:
    space = Dict(a=Discrete(5), b=Box(-1, 1, (3,)), seed=4)
    space.sample()
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space
    assert list(clone.keys()) == list(space.keys())
    for _ in range(5):
        assert_same_value(clone.sample(), space.sample())
