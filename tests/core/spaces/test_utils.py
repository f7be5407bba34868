"""Tests of flatdim / flatten / unflatten / flatten_space / is_space_dtype_shape_equiv,
differential against Gymnasium 1.4 for every space type."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym.spaces as vspaces
import vecgym.spaces.utils as vutils
from tests.support.messages import message_pattern
from tests.support.space_values import assert_same_value
from vecgym import error
from vecgym.core.spaces.utils import (
    EQUIV_NOT_A_SPACE_MSG,
    FLAT_ARRAY_EXPECTED_MSG,
    FLAT_FORM_EXPECTED_MSG,
    GENERIC_EQUIV_MSG,
    GRAPH_FLATDIM_MSG,
    NOT_FLATTENABLE_MSG,
    NOT_MULTI_ONE_HOT_MSG,
    NOT_ONE_HOT_MSG,
    UNKNOWN_SPACE_MSG,
)
from vecgym.spaces import Box, Dict, Discrete, MultiDiscrete, Space, Text, Tuple

gymnasium = pytest.importorskip("gymnasium")
gspaces = gymnasium.spaces
gutils = gymnasium.spaces.utils

Factory = Callable[[ModuleType], Any]

FLATTENABLE: dict[str, Factory] = {
    "box": lambda S: S.Box(-1, 1, (2, 3)),
    "box_int": lambda S: S.Box(0, 255, (2, 2), np.uint8),
    "box_unbounded": lambda S: S.Box(-np.inf, np.inf, (3,), np.float64),
    "box_scalar": lambda S: S.Box(0, 1, ()),
    "discrete": lambda S: S.Discrete(5),
    "discrete_start": lambda S: S.Discrete(4, start=-2),
    "discrete_int8": lambda S: S.Discrete(3, dtype=np.int8),
    "multi_discrete": lambda S: S.MultiDiscrete([2, 3, 4]),
    "multi_discrete_2d": lambda S: S.MultiDiscrete([[2, 3], [4, 5]], start=[[1, 0], [-1, 2]]),
    "multi_binary": lambda S: S.MultiBinary(4),
    "multi_binary_2d": lambda S: S.MultiBinary([2, 3]),
    "text": lambda S: S.Text(6, min_length=2, charset="abcd"),
    "tuple": lambda S: S.Tuple((S.Discrete(3), S.Box(0, 1, (2,)), S.MultiBinary(2))),
    "dict": lambda S: S.Dict(position=S.Discrete(2), velocity=S.Box(0, 1, (2, 2))),
    "dict_unsorted": lambda S: S.Dict(
        {"z": S.Discrete(2), "a": S.Box(0, 1, (2,))}, sort_keys=False
    ),
    "nested": lambda S: S.Dict(
        a=S.Tuple((S.Discrete(2), S.Dict(b=S.MultiDiscrete([2, 2]), c=S.MultiBinary(3)))),
        d=S.Box(-2, 2, (1,), np.float64),
    ),
    "nested_text": lambda S: S.Tuple(
        (S.Text(3), S.Dict(a=S.Discrete(3), b=S.Box(0, 9, (2,), np.int32)))
    ),
    "oneof": lambda S: S.OneOf((S.Discrete(3), S.Box(-1, 1, (2,)))),
    "oneof_text": lambda S: S.OneOf((S.Text(4), S.Box(-1, 1, (2,), np.float16), S.MultiBinary(5))),
    "oneof_bool": lambda S: S.OneOf(tuple(S.Box(0, 1, (2,), np.bool_) for _ in range(3))),
    "oneof_int8": lambda S: S.OneOf(tuple(S.Discrete(2, dtype=np.int8) for _ in range(200))),
    "oneof_nested": lambda S: S.OneOf(
        (S.Tuple((S.Discrete(2), S.Discrete(3))), S.Dict(a=S.MultiBinary(3)))
    ),
}

NOT_FLATTENABLE: dict[str, Factory] = {
    "graph": lambda S: S.Graph(S.Box(-1, 1, (2,)), S.Discrete(3)),
    "graph_no_edges": lambda S: S.Graph(S.Discrete(4), None),
    "graph_multi": lambda S: S.Graph(S.MultiDiscrete([2, 3]), S.Box(0, 1, (2, 2))),
    "sequence": lambda S: S.Sequence(S.Discrete(3)),
    "sequence_stack": lambda S: S.Sequence(S.Box(0, 1, (2,)), stack=True),
    "sequence_stack_discrete": lambda S: S.Sequence(S.Discrete(4), stack=True),
    "tuple_sequence": lambda S: S.Tuple((S.Discrete(2), S.Sequence(S.Box(0, 1)))),
    "dict_graph": lambda S: S.Dict(g=S.Graph(S.Box(0, 1), None), d=S.Discrete(2)),
}

ALL = {**FLATTENABLE, **NOT_FLATTENABLE}


def both(name: str) -> tuple[Any, Any]:
    return ALL[name](vspaces), ALL[name](gspaces)


def paired_samples(ours: Any, theirs: Any, count: int = 8, seed: int = 0) -> list[tuple[Any, Any]]:
    ours.seed(seed)
    theirs.seed(seed)
    return [(ours.sample(), theirs.sample()) for _ in range(count)]


@pytest.mark.parametrize("name", sorted(FLATTENABLE))
def test_flatdim_and_flatten_space_match_gymnasium(name: str) -> None:
    ours, theirs = both(name)
    assert vutils.flatdim(ours) == gutils.flatdim(theirs)
    flat_ours: Any = vutils.flatten_space(ours)
    flat_theirs = gutils.flatten_space(theirs)
    assert repr(flat_ours) == repr(flat_theirs)
    assert flat_ours.dtype == flat_theirs.dtype
    np.testing.assert_array_equal(flat_ours.low, flat_theirs.low)
    np.testing.assert_array_equal(flat_ours.high, flat_theirs.high)
    assert flat_ours.shape == (vutils.flatdim(ours),)


@pytest.mark.parametrize("name", sorted(NOT_FLATTENABLE))
def test_not_flattenable_spaces_match_gymnasium(name: str) -> None:
    ours, theirs = both(name)
    assert ours.is_np_flattenable is False
    with pytest.raises(ValueError):
        vutils.flatdim(ours)
    assert repr(vutils.flatten_space(ours)) == repr(gutils.flatten_space(theirs))


@pytest.mark.parametrize("name", sorted(ALL))
def test_flatten_unflatten_match_gymnasium_and_round_trip(name: str) -> None:
    ours, theirs = both(name)
    flat_space = vutils.flatten_space(ours)
    for mine, their in paired_samples(ours, theirs):
        flat = vutils.flatten(ours, mine)
        assert_same_value(flat, gutils.flatten(theirs, their))
        assert flat in flat_space
        back = vutils.unflatten(ours, flat)
        assert_same_value(back, gutils.unflatten(theirs, gutils.flatten(theirs, their)))
        assert back in ours
        assert_same_value(vutils.flatten(ours, back), flat)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("discrete", 2),
        ("discrete_start", -2),
        ("multi_discrete", np.array([1, 0, 3])),
        ("text", "ab"),
    ],
)
def test_known_flat_forms(name: str, value: Any) -> None:
    ours, theirs = both(name)
    assert_same_value(vutils.flatten(ours, value), gutils.flatten(theirs, value))


def test_flatten_examples() -> None:
    np.testing.assert_array_equal(vutils.flatten(Discrete(4), 2), [0, 0, 1, 0])
    space = Tuple((Box(0, 1, shape=(2,)), Box(0, 1, shape=(3,)), Discrete(3)))
    flat: Any = vutils.flatten(space, ((0.5, 0.25), (1.0, 0.0, 0.2), 1))
    np.testing.assert_allclose(flat, [0.5, 0.25, 1.0, 0.0, 0.2, 0.0, 1.0, 0.0])
    assert vutils.flatdim(Dict(position=Discrete(2), velocity=Discrete(3))) == 5
    np.testing.assert_array_equal(vutils.flatten(Text(4, charset="ab"), "ba"), [1, 0, 2, 2])


def test_text_next_to_float_space_round_trips() -> None:
    """Gymnasium 1.4 cannot unflatten a Text flattened to floats inside a Tuple; vecgym can."""
    space = Tuple((Text(3, charset="xyz"), Box(0, 1, (1,))), seed=3)
    for _ in range(5):
        value = space.sample()
        flat: Any = vutils.flatten(space, value)
        assert flat.dtype == np.float64
        back = vutils.unflatten(space, flat)
        assert back[0] == value[0]
        np.testing.assert_array_equal(back[1], value[1])


def test_unflatten_rejects_invalid_one_hot() -> None:
    with pytest.raises(ValueError, match=message_pattern(NOT_ONE_HOT_MSG)):
        vutils.unflatten(Discrete(3), np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=message_pattern(NOT_MULTI_ONE_HOT_MSG)):
        vutils.unflatten(MultiDiscrete([2, 2]), np.zeros(4, dtype=np.int64))


def test_unflatten_rejects_wrong_container() -> None:
    with pytest.raises(TypeError, match=message_pattern(FLAT_ARRAY_EXPECTED_MSG)):
        vutils.unflatten(Tuple((Discrete(2),)), (np.array([1, 0]),))
    with pytest.raises(TypeError, match=message_pattern(FLAT_FORM_EXPECTED_MSG, form="tuple")):
        vutils.unflatten(Tuple((vspaces.Sequence(Discrete(2)),)), [()])
    with pytest.raises(TypeError, match=message_pattern(FLAT_ARRAY_EXPECTED_MSG)):
        vutils.unflatten(Dict(a=Discrete(2)), {"a": np.array([1, 0])})
    with pytest.raises(TypeError, match=message_pattern(FLAT_FORM_EXPECTED_MSG, form="dict")):
        vutils.unflatten(Dict(a=vspaces.Sequence(Discrete(2))), [()])


class _CustomSpace(Space[int]):
    @property
    def is_np_flattenable(self) -> bool:
        return True


class _UnflattenableCustomSpace(Space[int]):
    @property
    def is_np_flattenable(self) -> bool:
        return False


def test_custom_spaces_raise_like_gymnasium() -> None:
    space = _CustomSpace()
    with pytest.raises(NotImplementedError, match=message_pattern(UNKNOWN_SPACE_MSG)):
        vutils.flatdim(space)
    with pytest.raises(NotImplementedError, match=message_pattern(UNKNOWN_SPACE_MSG)):
        vutils.flatten(space, 1)
    with pytest.raises(NotImplementedError, match=message_pattern(UNKNOWN_SPACE_MSG)):
        vutils.unflatten(space, np.array([1]))
    with pytest.raises(NotImplementedError, match=message_pattern(UNKNOWN_SPACE_MSG)):
        vutils.flatten_space(space)
    with pytest.raises(ValueError, match=message_pattern(NOT_FLATTENABLE_MSG)):
        vutils.flatdim(_UnflattenableCustomSpace())
    with pytest.raises(ValueError, match=message_pattern(GRAPH_FLATDIM_MSG)):
        vutils.flatdim(vspaces.Graph(Discrete(2), None))


def test_custom_space_can_register() -> None:
    class Custom(Space[int]):
        pass

    vutils.flatdim.register(Custom)(lambda space: 7)
    assert vutils.flatdim(Custom()) == 7


EQUIV_PAIRS: list[tuple[Factory, Factory]] = [
    (lambda S: S.Box(0, 1, (2,)), lambda S: S.Box(-5, 5, (2,))),
    (lambda S: S.Box(0, 1, (2,)), lambda S: S.Box(0, 1, (3,))),
    (lambda S: S.Box(0, 1, (2,)), lambda S: S.Box(0, 1, (2,), np.float64)),
    (lambda S: S.Box(0, 1, (2,), np.int64), lambda S: S.MultiDiscrete([2, 2])),
    (lambda S: S.Discrete(3), lambda S: S.Discrete(5, start=2)),
    (lambda S: S.MultiBinary(3), lambda S: S.MultiBinary(3)),
    (lambda S: S.Text(3), lambda S: S.Text(3, min_length=0)),
    (lambda S: S.Text(3), lambda S: S.Text(4)),
    (lambda S: S.Text(3), lambda S: S.Text(3, charset="ab")),
    (lambda S: S.Dict(a=S.Discrete(2)), lambda S: S.Dict(a=S.Discrete(7))),
    (lambda S: S.Dict(a=S.Discrete(2)), lambda S: S.Dict(b=S.Discrete(2))),
    (lambda S: S.Tuple((S.Discrete(2),)), lambda S: S.Tuple((S.Discrete(2), S.Discrete(2)))),
    (lambda S: S.Tuple((S.Discrete(2),)), lambda S: S.Tuple((S.Discrete(3),))),
    (lambda S: S.Graph(S.Box(0, 1), None), lambda S: S.Graph(S.Box(0, 2), None)),
    (lambda S: S.Graph(S.Box(0, 1), None), lambda S: S.Graph(S.Box(0, 1), S.Discrete(2))),
    (lambda S: S.Graph(S.Box(0, 1), S.Discrete(3)), lambda S: S.Graph(S.Box(0, 1), S.Discrete(2))),
    (lambda S: S.OneOf((S.Discrete(2),)), lambda S: S.OneOf((S.Discrete(3),))),
    (lambda S: S.OneOf((S.Discrete(2),)), lambda S: S.OneOf((S.Box(0, 1),))),
    (lambda S: S.Sequence(S.Discrete(2)), lambda S: S.Sequence(S.Discrete(3))),
    (lambda S: S.Sequence(S.Discrete(2)), lambda S: S.Sequence(S.Discrete(2), stack=True)),
    (lambda S: S.Discrete(2), lambda S: S.Tuple((S.Discrete(2),))),
]


@pytest.mark.parametrize("pair", range(len(EQUIV_PAIRS)))
def test_is_space_dtype_shape_equiv_matches_gymnasium(pair: int) -> None:
    first, second = EQUIV_PAIRS[pair]
    expected = gutils.is_space_dtype_shape_equiv(first(gspaces), second(gspaces))
    assert vutils.is_space_dtype_shape_equiv(first(vspaces), second(vspaces)) is expected
    reverse = gutils.is_space_dtype_shape_equiv(second(gspaces), first(gspaces))
    assert vutils.is_space_dtype_shape_equiv(second(vspaces), first(vspaces)) is reverse


def test_is_space_dtype_shape_equiv_errors() -> None:
    with pytest.raises(NotImplementedError, match=message_pattern(GENERIC_EQUIV_MSG)):
        vutils.is_space_dtype_shape_equiv(_CustomSpace(), _CustomSpace())
    with pytest.raises(TypeError, match=message_pattern(EQUIV_NOT_A_SPACE_MSG)):
        vutils.is_space_dtype_shape_equiv(3, Discrete(2))  # type: ignore[arg-type]


def test_flatten_does_not_modify_its_input() -> None:
    space = Box(0, 1, (2, 2))
    value = space.sample()
    before = value.copy()
    flat: Any = vutils.flatten(space, value)
    flat[:] = 7
    np.testing.assert_array_equal(value, before)


def test_error_types_are_vecgym_errors() -> None:
    assert issubclass(error.InvalidMask, ValueError)
