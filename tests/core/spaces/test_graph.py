"""Tests of the Graph space, most of them differential against Gymnasium 1.4."""

from __future__ import annotations

import json
import pickle
import re
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym.spaces as vspaces
from tests.support.messages import message_pattern
from tests.support.space_values import assert_same_value
from vecgym import error
from vecgym.core.spaces.graph import (
    EDGE_SPACE_TYPE_MSG,
    EDGES_WITHOUT_SPACE_MSG,
    NODE_SPACE_TYPE_MSG,
    NUM_EDGES_MSG,
    NUM_NODES_MSG,
    SEED_LENGTH_MSG,
    SEED_TYPE_MSG,
)
from vecgym.core.spaces.tuple import BOTH_MASKS_MSG
from vecgym.spaces import Box, Discrete, Graph, GraphInstance

gymnasium = pytest.importorskip("gymnasium")
gspaces = gymnasium.spaces

Factory = Callable[[ModuleType], Any]

FACTORIES: dict[str, Factory] = {
    "box_discrete": lambda S: S.Graph(
        node_space=S.Box(-100, 100, shape=(3,)), edge_space=S.Discrete(3)
    ),
    "discrete_box": lambda S: S.Graph(S.Discrete(4), S.Box(0, 1, (2, 2))),
    "no_edges": lambda S: S.Graph(S.Box(0, 1, (2,)), None),
    "multi": lambda S: S.Graph(S.MultiDiscrete([2, 3]), S.MultiBinary(2)),
    "dict_nodes": lambda S: S.Graph(S.Dict(a=S.Discrete(2), b=S.Box(0, 1)), S.Discrete(2)),
}


def both(name: str) -> tuple[Any, Any]:
    return FACTORIES[name](vspaces), FACTORIES[name](gspaces)


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.parametrize("num_nodes", [1, 2, 5, 10])
def test_seeded_samples_match_gymnasium(name: str, num_nodes: int) -> None:
    ours, theirs = both(name)
    assert_same_value(ours.seed(31), theirs.seed(31))
    for _ in range(10):
        sample = ours.sample(num_nodes=num_nodes)
        assert_same_value(sample, theirs.sample(num_nodes=num_nodes))
        assert sample in ours


def test_default_sample_matches_gymnasium() -> None:
    ours = Graph(node_space=Box(-100, 100, shape=(3,)), edge_space=Discrete(3), seed=123)
    theirs = gspaces.Graph(gspaces.Box(-100, 100, shape=(3,)), gspaces.Discrete(3), seed=123)
    assert_same_value(
        ours.sample(num_nodes=4, num_edges=8), theirs.sample(num_nodes=4, num_edges=8)
    )
    for _ in range(5):
        assert_same_value(ours.sample(), theirs.sample())


@pytest.mark.parametrize("num_edges", [0, 1, 7])
def test_fixed_edge_count_matches_gymnasium(num_edges: int) -> None:
    ours, theirs = both("discrete_box")
    ours.seed(2)
    theirs.seed(2)
    for _ in range(5):
        sample = ours.sample(num_nodes=3, num_edges=num_edges)
        assert_same_value(sample, theirs.sample(num_nodes=3, num_edges=num_edges))
        assert sample in ours


def test_masked_and_probability_samples_match_gymnasium() -> None:
    ours = Graph(Discrete(4), Discrete(3), seed=12)
    theirs = gspaces.Graph(gspaces.Discrete(4), gspaces.Discrete(3), seed=12)
    node_mask = tuple(np.array([1, 0, 1, 1], dtype=np.int8) for _ in range(4))
    edge_mask = np.array([0, 1, 1], dtype=np.int8)
    node_prob = tuple(np.array([0.5, 0.0, 0.25, 0.25]) for _ in range(4))
    edge_prob = np.array([0.1, 0.0, 0.9])
    for num_edges in (None, 5):
        # Without `num_edges` the edge mask is repeated once per edge; with it, it is per edge.
        edges_mask = edge_mask if num_edges is None else (edge_mask,) * num_edges
        edges_prob = edge_prob if num_edges is None else (edge_prob,) * num_edges
        for _ in range(5):
            kwargs: dict[str, Any] = {"num_nodes": 4, "num_edges": num_edges}
            sample = ours.sample(mask=(node_mask, edges_mask), **kwargs)
            assert_same_value(sample, theirs.sample(mask=(node_mask, edges_mask), **kwargs))
            assert set(np.asarray(sample.nodes).tolist()) <= {0, 2, 3}
            assert_same_value(
                ours.sample(probability=(node_prob, edges_prob), **kwargs),
                theirs.sample(probability=(node_prob, edges_prob), **kwargs),
            )
            assert_same_value(
                ours.sample(mask=(None, None), **kwargs), theirs.sample(mask=(None, None), **kwargs)
            )


def test_edges_without_edge_space_warns_like_gymnasium() -> None:
    ours, theirs = both("no_edges")
    ours.seed(1)
    theirs.seed(1)
    with warnings.catch_warnings(record=True) as ours_warned:
        warnings.simplefilter("always")
        sample = ours.sample(num_nodes=3, num_edges=3)
    with warnings.catch_warnings(record=True) as theirs_warned:
        warnings.simplefilter("always")
        assert_same_value(sample, theirs.sample(num_nodes=3, num_edges=3))
    # the same warning category, once each; the text is each library's own
    assert [w.category for w in ours_warned] == [w.category for w in theirs_warned] == [UserWarning]
    pattern = message_pattern(EDGES_WITHOUT_SPACE_MSG, num_edges=3)
    assert re.search(pattern, str(ours_warned[0].message))
    assert sample.edges is None
    assert sample.edge_links is None


@pytest.mark.parametrize("seed", [None, 3, (1, 2, 3), [4, 5, 6]], ids=str)
def test_seed_forms_with_edges(seed: Any) -> None:
    ours, theirs = both("box_discrete")
    used = ours.seed(seed)
    assert len(used) == 3
    if seed is None:
        return
    assert_same_value(used, theirs.seed(seed))
    for _ in range(5):
        assert_same_value(ours.sample(), theirs.sample())


@pytest.mark.parametrize("seed", [None, 3, (1, 2), [4, 5]], ids=str)
def test_seed_forms_without_edges(seed: Any) -> None:
    ours, theirs = both("no_edges")
    used = ours.seed(seed)
    assert len(used) == 2
    if seed is None:
        return
    assert_same_value(used, theirs.seed(seed))
    for _ in range(5):
        assert_same_value(ours.sample(), theirs.sample())


def test_seed_errors() -> None:
    with pytest.raises(ValueError, match=message_pattern(SEED_LENGTH_MSG, expected=3, got=2)):
        FACTORIES["box_discrete"](vspaces).seed((1, 2))
    with pytest.raises(ValueError, match=message_pattern(SEED_LENGTH_MSG, expected=2, got=3)):
        FACTORIES["no_edges"](vspaces).seed((1, 2, 3))
    with pytest.raises(TypeError, match=message_pattern(SEED_TYPE_MSG)):
        FACTORIES["no_edges"](vspaces).seed("1")


def test_constructor_errors() -> None:
    with pytest.raises(TypeError, match=message_pattern(NODE_SPACE_TYPE_MSG)):
        Graph(3, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message_pattern(EDGE_SPACE_TYPE_MSG)):
        Graph(Discrete(2), 3)  # type: ignore[arg-type]


def test_sample_errors() -> None:
    space = FACTORIES["box_discrete"](vspaces)
    with pytest.raises(ValueError, match=message_pattern(NUM_NODES_MSG)):
        space.sample(num_nodes=0)
    with pytest.raises(ValueError, match=message_pattern(NUM_EDGES_MSG, value=-1)):
        space.sample(num_edges=-1)
    with pytest.raises(error.InvalidMask, match=message_pattern(BOTH_MASKS_MSG)):
        space.sample(mask=(None, None), probability=(None, None))
    with pytest.raises(error.InvalidMask, match="node mask, edge mask"):
        space.sample(mask=(None,))


def test_contains() -> None:
    space = Graph(Box(0, 1, (2,)), Discrete(3))
    nodes = np.zeros((3, 2), dtype=np.float32)
    links = np.array([[0, 1], [2, 2]], dtype=np.int32)
    assert GraphInstance(nodes, np.array([0, 2]), links) in space
    assert GraphInstance(nodes, None, None) in space
    assert GraphInstance(nodes, np.array([0, 2]), None) not in space
    assert GraphInstance(nodes, np.array([0, 3]), links) not in space
    assert GraphInstance(nodes, np.array([0, 2]), links.astype(np.float64)) not in space
    assert GraphInstance(nodes, np.array([0, 2]), np.array([[0, 1], [2, 3]])) not in space
    assert GraphInstance(nodes, np.array([0, 2, 1]), links) not in space
    assert GraphInstance(nodes + 2, None, None) not in space
    assert GraphInstance(5, None, None) not in space  # type: ignore[arg-type]
    assert (nodes, None, None) not in space
    no_edges = Graph(Box(0, 1, (2,)), None)
    assert GraphInstance(nodes, np.array([0, 2]), links) not in no_edges


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_repr_matches_gymnasium(name: str) -> None:
    ours, theirs = both(name)
    assert repr(ours) == repr(theirs)


def test_equality_and_flags() -> None:
    assert Graph(Discrete(2), Box(0, 1)) == Graph(Discrete(2), Box(0, 1))
    assert Graph(Discrete(2), Box(0, 1)) != Graph(Discrete(2), None)
    assert Graph(Discrete(2), None) != Graph(Discrete(3), None)
    assert Graph(Discrete(2), None) != Discrete(2)
    assert Graph(Discrete(2), None).is_np_flattenable is False


@pytest.mark.parametrize("name", ["box_discrete", "discrete_box", "no_edges", "multi"])
def test_jsonable_matches_gymnasium_and_round_trips(name: str) -> None:
    ours, theirs = both(name)
    ours.seed(4)
    theirs.seed(4)
    samples = [ours.sample(num_nodes=n) for n in (1, 3, 4)]
    their_samples = [theirs.sample(num_nodes=n) for n in (1, 3, 4)]
    jsonable = json.loads(json.dumps(ours.to_jsonable(samples)))
    assert jsonable == theirs.to_jsonable(their_samples)
    back = ours.from_jsonable(jsonable)
    assert_same_value(back, theirs.from_jsonable(theirs.to_jsonable(their_samples)))
    assert all(sample in ours for sample in back)


def test_pickle_keeps_the_stream() -> None:
    space = Graph(Box(-1, 1, (3,)), Discrete(4), seed=4)
    space.sample()
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space
    for _ in range(5):
        assert_same_value(clone.sample(), space.sample())
