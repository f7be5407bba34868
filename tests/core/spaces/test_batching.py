"""Tests of the batching operations of vecgym.core.spaces.batching, differential against
gymnasium.vector.utils (Gymnasium 1.4)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym.spaces as vspaces
from tests.support.messages import message_pattern
from tests.support.space_values import assert_same_value
from vecgym import error
from vecgym.core.spaces import batching
from vecgym.core.spaces.batching import (
    DISCRETE_ITERATE_MSG,
    EMPTY_SPACES_MSG,
    MIXED_TYPES_MSG,
    NOT_A_SPACE_MSG,
    UNREGISTERED_DIFFERING_MSG,
)
from vecgym.spaces import Box, Discrete, Space

gymnasium = pytest.importorskip("gymnasium")
gspaces = gymnasium.spaces
gbatch = gymnasium.vector.utils

Factory = Callable[[ModuleType], Any]

FACTORIES: dict[str, Factory] = {
    "box": lambda S: S.Box(-1, 1, (2,)),
    "discrete": lambda S: S.Discrete(4, start=2),
    "multi_discrete": lambda S: S.MultiDiscrete([2, 3]),
    "multi_binary": lambda S: S.MultiBinary((2, 2)),
    "text": lambda S: S.Text(4),
    "tuple": lambda S: S.Tuple((S.Discrete(2), S.Box(0, 1))),
    "dict": lambda S: S.Dict(a=S.Discrete(3), b=S.MultiBinary(2)),
    "sequence": lambda S: S.Sequence(S.Discrete(2)),
    "graph": lambda S: S.Graph(S.Box(0, 1, (2,)), S.Discrete(2)),
    "oneof": lambda S: S.OneOf((S.Discrete(2), S.Box(0, 1))),
}
ARRAY_LIKE = ["box", "discrete", "multi_discrete", "multi_binary", "tuple", "dict"]


def both(name: str) -> tuple[Any, Any]:
    return FACTORIES[name](vspaces), FACTORIES[name](gspaces)


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_batch_space_matches_gymnasium(name: str) -> None:
    ours, theirs = both(name)
    ours.seed(10)
    theirs.seed(10)
    batched, their_batched = batching.batch_space(ours, 3), gbatch.batch_space(theirs, 3)
    assert repr(batched) == repr(their_batched)
    for _ in range(3):
        assert_same_value(batched.sample(), their_batched.sample())
    # Building the batched space does not move the original generator.
    assert_same_value(ours.sample(), theirs.sample())


@pytest.mark.parametrize("name", ARRAY_LIKE)
def test_concatenate_iterate_round_trip(name: str) -> None:
    ours, theirs = both(name)
    ours.seed(1)
    theirs.seed(1)
    items = [ours.sample() for _ in range(4)]
    their_items = [theirs.sample() for _ in range(4)]
    out = batching.create_empty_array(ours, 4)
    assert_same_value(out, gbatch.create_empty_array(theirs, 4))
    stacked = batching.concatenate(ours, items, out)
    assert_same_value(
        stacked, gbatch.concatenate(theirs, their_items, gbatch.create_empty_array(theirs, 4))
    )
    assert stacked in batching.batch_space(ours, 4)
    assert_same_value(list(batching.iterate(batching.batch_space(ours, 4), stacked)), items)


@pytest.mark.parametrize("name", ["text", "sequence", "graph", "oneof"])
def test_create_empty_array_of_dynamic_spaces(name: str) -> None:
    ours, theirs = both(name)
    assert_same_value(batching.create_empty_array(ours, 2), gbatch.create_empty_array(theirs, 2))


def test_batch_differing_spaces_matches_gymnasium() -> None:
    ours = batching.batch_differing_spaces([Discrete(3), Discrete(5, start=1)])
    theirs = gbatch.batch_differing_spaces([gspaces.Discrete(3), gspaces.Discrete(5, start=1)])
    assert repr(ours) == repr(theirs)
    ours_box = batching.batch_differing_spaces([Box(0, 1, (2,)), Box(-1, 2, (2,))])
    theirs_box = gbatch.batch_differing_spaces([gspaces.Box(0, 1, (2,)), gspaces.Box(-1, 2, (2,))])
    assert repr(ours_box) == repr(theirs_box)
    graphs = [vspaces.Graph(Discrete(2), None), vspaces.Graph(Discrete(3), None)]
    assert isinstance(batching.batch_differing_spaces(graphs), vspaces.Tuple)


def test_errors() -> None:
    with pytest.raises(TypeError, match=message_pattern(NOT_A_SPACE_MSG)):
        batching.batch_space(3, 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message_pattern(EMPTY_SPACES_MSG)):
        batching.batch_differing_spaces([])
    with pytest.raises(TypeError, match=message_pattern(MIXED_TYPES_MSG)):
        batching.batch_differing_spaces([Discrete(2), Box(0, 1)])
    with pytest.raises(ValueError, match="dtype"):
        batching.batch_differing_spaces([Box(0, 1), Box(0, 1, dtype=np.float64)])
    with pytest.raises(TypeError, match=message_pattern(DISCRETE_ITERATE_MSG)):
        batching.iterate(Discrete(2), [1, 2])

    class Custom(Space[int]):
        pass

    with pytest.raises(error.CustomSpaceError, match="iterate"):
        batching.iterate(Custom(), [1])
    with pytest.raises(TypeError, match=message_pattern(UNREGISTERED_DIFFERING_MSG)):
        batching.batch_differing_spaces([Custom(), Custom()])
    assert batching.create_empty_array(Custom(), 2) is None
