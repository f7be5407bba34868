"""Step-API conversion between ``(obs, reward, done, info)`` and ``terminated``/``truncated``."""

from __future__ import annotations

import copy
import re
from typing import Any

import numpy as np
import pytest

import vecgym.utils
from tests.support.messages import message_pattern
from vecgym.utils.step_api_compatibility import (
    STEP_LENGTH_MSG,
    TRUNCATED_KEY,
    VECTOR_INFOS_TYPE_MSG,
    convert_to_done_step_api,
    convert_to_terminated_truncated_step_api,
    step_api_compatibility,
)

# (terminated, truncated) -> (done, info["TimeLimit.truncated"] or absent)
SINGLE_CASES = [
    (False, False, False, None),
    (True, False, True, False),
    (False, True, True, True),
    (True, True, True, False),
]


@pytest.mark.parametrize(("terminated", "truncated", "done", "flag"), SINGLE_CASES)
def test_single_to_done(terminated: bool, truncated: bool, done: bool, flag: bool | None) -> None:
    out: Any = convert_to_done_step_api((1, 2.0, terminated, truncated, {}))
    obs, reward, out_done, info = out
    assert (obs, reward, out_done) == (1, 2.0, done)
    assert info.get(TRUNCATED_KEY) == flag
    assert (TRUNCATED_KEY in info) == (flag is not None)


@pytest.mark.parametrize(
    ("done", "info", "terminated", "truncated"),
    [
        (False, {}, False, False),
        (True, {}, True, False),
        (True, {TRUNCATED_KEY: True}, False, True),
        (True, {TRUNCATED_KEY: False}, True, False),
        (False, {TRUNCATED_KEY: True}, False, False),
    ],
)
def test_single_to_terminated_truncated(
    done: bool, info: dict[str, Any], terminated: bool, truncated: bool
) -> None:
    out = convert_to_terminated_truncated_step_api((1, 2.0, done, dict(info, other=3)))
    assert out == (1, 2.0, terminated, truncated, {"other": 3})


def test_conversion_pops_and_sets_key_in_place() -> None:
    info: dict[str, Any] = {TRUNCATED_KEY: True}
    convert_to_terminated_truncated_step_api((0, 0.0, True, info))
    assert info == {}
    convert_to_done_step_api((0, 0.0, False, True, info))
    assert info == {TRUNCATED_KEY: True}


def test_already_converted_returns_same_tuple() -> None:
    new: Any = (0, 0.0, False, False, {})
    old: Any = (0, 0.0, False, {})
    assert convert_to_terminated_truncated_step_api(new) is new
    assert convert_to_done_step_api(old) is old


@pytest.mark.parametrize("length", [0, 3, 6])
def test_wrong_length_raises(length: int) -> None:
    step = tuple(range(length))
    with pytest.raises(ValueError, match=re.escape(STEP_LENGTH_MSG.format(length))):
        convert_to_done_step_api(step)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message_pattern(STEP_LENGTH_MSG)):
        convert_to_terminated_truncated_step_api(step)  # type: ignore[arg-type]


def test_vector_dict_infos_round_trip() -> None:
    terminated = np.array([True, False, False, True])
    truncated = np.array([False, True, False, True])
    done_out: Any = convert_to_done_step_api(
        (np.zeros(4), np.ones(4), terminated, truncated, {}), is_vector_env=True
    )
    obs, rewards, dones, infos = done_out
    np.testing.assert_array_equal(dones, [True, True, False, True])
    np.testing.assert_array_equal(infos[TRUNCATED_KEY], [False, True, False, False])
    out = convert_to_terminated_truncated_step_api((obs, rewards, dones, infos), is_vector_env=True)
    np.testing.assert_array_equal(out[2], [True, False, False, True])
    np.testing.assert_array_equal(out[3], [False, True, False, False])
    assert out[4] == {}


def test_vector_dict_without_endings_adds_no_key() -> None:
    flags = np.zeros(3, dtype=bool)
    _, _, dones, infos = convert_to_done_step_api((0, 0, flags, flags, {}), is_vector_env=True)
    assert infos == {}
    np.testing.assert_array_equal(dones, flags)
    out: Any = convert_to_terminated_truncated_step_api((0, 0, dones, {}), is_vector_env=True)
    np.testing.assert_array_equal(out[3], flags)
    assert out[3].dtype == np.bool_


def test_vector_list_infos_round_trip() -> None:
    terminated = np.array([True, False, False])
    truncated = np.array([True, True, False])
    _, _, dones, infos = convert_to_done_step_api(
        (0, 0, terminated, truncated, [{}, {}, {}]), is_vector_env=True
    )
    np.testing.assert_array_equal(dones, [True, True, False])
    assert infos == [{TRUNCATED_KEY: False}, {TRUNCATED_KEY: True}, {}]
    out = convert_to_terminated_truncated_step_api((0, 0, dones, infos), is_vector_env=True)
    np.testing.assert_array_equal(out[2], [True, False, False])
    np.testing.assert_array_equal(out[3], [False, True, False])
    assert out[4] == [{}, {}, {}]


def test_vector_list_length_mismatch_raises() -> None:
    with pytest.raises(ValueError):
        convert_to_done_step_api(
            (0, 0, np.array([True, False]), np.array([False, False]), [{}]), is_vector_env=True
        )


@pytest.mark.parametrize("bad_infos", [None, (), "info"])
def test_vector_infos_of_wrong_type_raise(bad_infos: Any) -> None:
    flags = np.zeros(2, dtype=bool)
    with pytest.raises(TypeError, match=message_pattern(VECTOR_INFOS_TYPE_MSG)):
        convert_to_done_step_api((0, 0, flags, flags, bad_infos), is_vector_env=True)
    with pytest.raises(TypeError, match=message_pattern(VECTOR_INFOS_TYPE_MSG)):
        convert_to_terminated_truncated_step_api((0, 0, flags, bad_infos), is_vector_env=True)


@pytest.mark.parametrize("output_truncation_bool", [True, False])
def test_step_api_compatibility_dispatches(output_truncation_bool: bool) -> None:
    steps: list[Any] = [(0, 1.0, True, {}), (0, 1.0, False, True, {})]
    for step in steps:
        out = step_api_compatibility(step, output_truncation_bool=output_truncation_bool)
        assert len(out) == (5 if output_truncation_bool else 4)


def _cases() -> list[tuple[tuple[Any, ...], bool]]:
    t = np.array([True, False, True, False])
    u = np.array([False, True, True, False])
    cases: list[tuple[tuple[Any, ...], bool]] = []
    for terminated, truncated, _, _ in SINGLE_CASES:
        cases.append(((1, 0.5, terminated, truncated, {"x": 1}), False))
    for done in (True, False):
        for info in ({}, {TRUNCATED_KEY: True}, {TRUNCATED_KEY: False}):
            cases.append(((1, 0.5, done, dict(info)), False))
    cases.append(((np.zeros(4), np.ones(4), t, u, {}), True))
    cases.append(((np.zeros(4), np.ones(4), t, u, [{}, {}, {}, {}]), True))
    cases.append(((np.zeros(4), np.ones(4), t, u, {"a": np.arange(4)}), True))
    cases.append(((np.zeros(4), np.ones(4), t | u, {TRUNCATED_KEY: u & ~t}), True))
    cases.append(((np.zeros(4), np.ones(4), t | u, [{TRUNCATED_KEY: True}, {}, {}, {}]), True))
    cases.append(((np.zeros(4), np.ones(4), np.zeros(4, bool), np.zeros(4, bool), {}), True))
    return cases


def _assert_same(a: Any, b: Any) -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict)
        assert a.keys() == b.keys()
        for key in a:
            _assert_same(a[key], b[key])
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b)
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _assert_same(x, y)
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray)
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    else:
        assert type(a) is type(b)
        assert a == b


@pytest.mark.parametrize(("step", "is_vector_env"), _cases())
@pytest.mark.parametrize("output_truncation_bool", [True, False])
def test_matches_gymnasium(
    step: tuple[Any, ...], is_vector_env: bool, output_truncation_bool: bool
) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.step_api_compatibility import step_api_compatibility as reference

    ours = step_api_compatibility(copy.deepcopy(step), output_truncation_bool, is_vector_env)
    theirs = reference(copy.deepcopy(step), output_truncation_bool, is_vector_env)
    _assert_same(ours, theirs)


def test_utils_package_exports_match_gymnasium() -> None:
    gym_utils = pytest.importorskip("gymnasium.utils")

    assert sorted(vecgym.utils.__all__) == sorted(gym_utils.__all__)
    for name in gym_utils.__all__:
        assert hasattr(vecgym.utils, name)


def test_seeding_reexports() -> None:
    from vecgym.core import seeding as home
    from vecgym.utils import seeding

    assert seeding.np_random is home.np_random
    assert seeding.RandomNumberGenerator is home.RandomNumberGenerator
    assert seeding.RNG is home.RNG
    assert vecgym.utils.seeding is seeding


@pytest.mark.parametrize(
    "color", ["gray", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "crimson"]
)
@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("highlight", [False, True])
def test_colorize_matches_gymnasium(color: str, bold: bool, highlight: bool) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.colorize import colorize as reference

    assert vecgym.utils.colorize("text", color, bold, highlight) == reference(
        "text", color, bold, highlight
    )


def test_colorize_unknown_colour_raises_key_error() -> None:
    with pytest.raises(KeyError):
        vecgym.utils.colorize("text", "orange")


def test_utils_submodules_resolve_lazily() -> None:
    from vecgym.utils import step_api_compatibility as module

    assert vecgym.utils.step_api_compatibility is module
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = vecgym.utils.nope
