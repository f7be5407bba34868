"""vecgym.vector.utils batching functions: equal to Gymnasium's, and round trips for every space."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym.spaces as vspaces
from tests.support.space_values import assert_same_value
from vecgym import error
from vecgym.vector import utils
from vecgym.vector.utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
)
from vecgym.vector.utils.space_utils import is_array_batchable, make_batch_writer

gymnasium = pytest.importorskip("gymnasium")
gvu = pytest.importorskip("gymnasium.vector.utils")


def _space_makers() -> dict[str, Callable[[Any], Any]]:
    """Builders of one space from a ``spaces`` module (vecgym's or Gymnasium's)."""
    return {
        "box": lambda s: s.Box(-1.0, 1.0, shape=(2, 3), dtype=np.float32),
        "box_uint8": lambda s: s.Box(0, 255, shape=(4,), dtype=np.uint8),
        "box_float16": lambda s: s.Box(-1.0, 1.0, shape=(3,), dtype=np.float16),
        "discrete": lambda s: s.Discrete(5),
        "discrete_start": lambda s: s.Discrete(3, start=-1),
        "multi_discrete": lambda s: s.MultiDiscrete([2, 3, 4]),
        "multi_discrete_2d": lambda s: s.MultiDiscrete([[2, 3], [4, 5]]),
        "multi_binary": lambda s: s.MultiBinary(4),
        "multi_binary_2d": lambda s: s.MultiBinary([2, 3]),
        "tuple": lambda s: s.Tuple((s.Discrete(2), s.Box(0.0, 1.0, shape=(2,)))),
        "dict": lambda s: s.Dict(
            {"a": s.Discrete(3), "b": s.Box(0.0, 1.0, shape=(2,)), "c": s.MultiBinary(2)}
        ),
        "nested": lambda s: s.Dict(
            {
                "t": s.Tuple((s.Discrete(2), s.Dict({"x": s.MultiDiscrete([3, 3])}))),
                "d": s.Discrete(4),
            }
        ),
        "text": lambda s: s.Text(6, min_length=1),
        "sequence": lambda s: s.Sequence(s.Discrete(3)),
        "sequence_stack": lambda s: s.Sequence(s.Box(0.0, 1.0, shape=(2,)), stack=True),
        "graph": lambda s: s.Graph(s.Box(0.0, 1.0, shape=(2,)), s.Discrete(3)),
        "oneof": lambda s: s.OneOf((s.Discrete(2), s.Box(0.0, 1.0, shape=(2,)))),
        "tuple_of_text": lambda s: s.Tuple((s.Text(4), s.Discrete(2))),
    }


MAKERS = _space_makers()
FIXED = [
    "box",
    "box_uint8",
    "box_float16",
    "discrete",
    "discrete_start",
    "multi_discrete",
    "multi_discrete_2d",
    "multi_binary",
    "multi_binary_2d",
    "tuple",
    "dict",
    "nested",
]
SHARED = [*FIXED, "text", "oneof", "tuple_of_text"]


def _pair(name: str) -> tuple[Any, Any]:
    return MAKERS[name](vspaces), MAKERS[name](gymnasium.spaces)


@pytest.mark.parametrize("name", list(MAKERS))
@pytest.mark.parametrize("n", [1, 3])
def test_batch_space_matches_gymnasium(name: str, n: int) -> None:
    ours, theirs = _pair(name)
    ours.seed(7)
    theirs.seed(7)
    batched, gym_batched = batch_space(ours, n), gvu.batch_space(theirs, n)
    assert type(batched).__name__ == type(gym_batched).__name__
    assert repr(batched) == repr(gym_batched)
    # The batched space samples from a copy of the single space's generator, seed for seed.
    for _ in range(3):
        assert_same_value(batched.sample(), gym_batched.sample())
    assert_same_value(ours.sample(), theirs.sample())  # the original generator did not move
    batched.seed(11)
    gym_batched.seed(11)
    assert_same_value(batched.sample(), gym_batched.sample())


@pytest.mark.parametrize(
    "build",
    [
        lambda s: [s.Box(0.0, 1.0, shape=(2,)), s.Box(-1.0, 2.0, shape=(2,))],
        lambda s: [s.Discrete(3), s.Discrete(5, start=2), s.Discrete(4)],
        lambda s: [s.MultiDiscrete([2, 3]), s.MultiDiscrete([4, 5])],
        lambda s: [s.MultiBinary(3), s.MultiBinary(3)],
        lambda s: [
            s.Tuple((s.Discrete(2), s.Box(0, 1, (1,)))),
            s.Tuple((s.Discrete(4), s.Box(0, 2, (1,)))),
        ],
        lambda s: [s.Dict({"a": s.Discrete(2)}), s.Dict({"a": s.Discrete(6)})],
        lambda s: [s.Text(3), s.Text(5)],
    ],
)
def test_batch_differing_spaces_matches_gymnasium(build: Callable[[Any], list[Any]]) -> None:
    ours, theirs = build(vspaces), build(gymnasium.spaces)
    for a, b in zip(ours, theirs, strict=True):
        a.seed(3)
        b.seed(3)
    batched, gym_batched = batch_differing_spaces(ours), gvu.batch_differing_spaces(theirs)
    assert repr(batched) == repr(gym_batched)
    assert_same_value(batched.sample(), gym_batched.sample())


def test_batch_differing_spaces_errors() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        batch_differing_spaces([])
    with pytest.raises(TypeError, match="one type"):
        batch_differing_spaces([vspaces.Discrete(2), vspaces.Box(0, 1, (1,))])
    with pytest.raises(ValueError, match="dtype"):
        batch_differing_spaces(
            [vspaces.Box(0, 1, (1,), dtype=np.float32), vspaces.Box(0, 1, (1,), dtype=np.float64)]
        )


@pytest.mark.parametrize("name", list(MAKERS))
def test_iterate_concatenate_round_trip(name: str) -> None:
    space = MAKERS[name](vspaces)
    space.seed(1)
    batched = batch_space(space, 4)
    batched.seed(2)
    value = batched.sample()
    if isinstance(space, vspaces.Discrete):
        with pytest.raises(TypeError, match="Discrete"):
            iterate(space, value)
    items = list(iterate(batched, value))
    assert len(items) == 4
    for item in items:
        assert item in space
    out = create_empty_array(space, n=4)
    assert_same_value(concatenate(space, items, out), value)


@pytest.mark.parametrize("name", list(MAKERS))
def test_create_empty_array_matches_gymnasium(name: str) -> None:
    ours, theirs = _pair(name)
    for fn in (np.zeros, np.ones):
        assert_same_value(
            create_empty_array(ours, n=3, fn=fn), gvu.create_empty_array(theirs, n=3, fn=fn)
        )


class _CustomSpace(vspaces.Space[int]):
    def sample(self, mask: Any = None, probability: Any = None) -> int:
        return 0

    def contains(self, x: Any) -> bool:
        return x == 0


def test_custom_space() -> None:
    space = _CustomSpace()
    batched = batch_space(space, 2)
    assert isinstance(batched, vspaces.Tuple)
    assert len(batched) == 2
    assert concatenate(space, [0, 0], None) == (0, 0)
    assert create_empty_array(space, n=2) is None
    with pytest.raises(error.CustomSpaceError):
        iterate(space, [0, 0])
    with pytest.raises(TypeError):
        batch_space("not a space", 2)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", list(MAKERS))
def test_batch_writer(name: str) -> None:
    space = MAKERS[name](vspaces)
    if not is_array_batchable(space):
        with pytest.raises(error.CustomSpaceError):
            make_batch_writer(space, create_empty_array(space, n=3))
        return
    space.seed(5)
    out = create_empty_array(space, n=3)
    write = make_batch_writer(space, out)
    items = [space.sample() for _ in range(3)]
    for i in (2, 0, 1):
        write(i, items[i])
    assert_same_value(out, concatenate(space, items, create_empty_array(space, n=3)))


def test_utils_exports_gymnasium_names() -> None:
    for name in gvu.__all__:
        assert hasattr(utils, name), name
