"""``reset(options=...)`` bounds behave as Gymnasium's, and bad options raise ``ValueError``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym.envs.classic_control as vecgym_cc
from tests.support.messages import message_pattern
from vecgym.envs.classic_control.utils import (
    BOUNDS_ORDER_MSG,
    NOT_A_NUMBER_MSG,
    maybe_parse_reset_bounds,
    verify_number_and_cast,
)

gymnasium = pytest.importorskip("gymnasium")
import gymnasium.envs.classic_control as gymnasium_cc  # noqa: E402

BOUNDED = ["CartPoleEnv", "MountainCarEnv", "Continuous_MountainCarEnv", "AcrobotEnv"]
BOUND_OPTIONS: list[dict[str, Any] | None] = [
    None,
    {},
    {"low": -0.2},
    {"high": 0.3},
    {"low": -0.7, "high": 0.5},
    {"low": np.float32(0.1), "high": "0.2"},
    {"low": 0.25, "high": 0.25},
    {"unrelated": 1},
]


@pytest.mark.parametrize("name", BOUNDED)
@pytest.mark.parametrize("options", BOUND_OPTIONS)
def test_bounds_match_gymnasium(name: str, options: dict[str, Any] | None) -> None:
    ours, theirs = getattr(vecgym_cc, name)(), getattr(gymnasium_cc, name)()
    try:
        theirs.reset(seed=0, options=options)
    except ValueError:  # e.g. a "low" above MountainCar's default "high"
        with pytest.raises(ValueError, match=message_pattern(BOUNDS_ORDER_MSG)):
            ours.reset(seed=0, options=options)
        return
    for seed in (0, 42):
        obs_ours, info_ours = ours.reset(seed=seed, options=options)
        obs_theirs, info_theirs = theirs.reset(seed=seed, options=options)
        assert obs_ours.dtype == obs_theirs.dtype
        np.testing.assert_array_equal(obs_ours, obs_theirs)
        assert info_ours == info_theirs == {}
        # The episode goes on identically from there.
        for action in (0, 1, 0):
            a = np.array([action - 0.5], dtype=np.float32) if "Continuous" in name else action
            step_ours, step_theirs = ours.step(a), theirs.step(a)
            np.testing.assert_array_equal(step_ours[0], step_theirs[0])
            assert step_ours[1:] == step_theirs[1:]
            if step_theirs[2]:  # wide bounds can start next to the failure limits
                break


@pytest.mark.parametrize("name", BOUNDED)
def test_initial_state_lies_within_the_bounds(name: str) -> None:
    env = getattr(vecgym_cc, name)()
    env.reset(seed=0, options={"low": 0.2, "high": 0.3})
    drawn = np.asarray(env.state, dtype=np.float64)
    drawn = drawn[:1] if "MountainCar" in name else drawn
    assert ((drawn >= 0.2) & (drawn <= 0.3)).all()


@pytest.mark.parametrize("name", BOUNDED)
@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"low": 0.5, "high": 0.1}, message_pattern(BOUNDS_ORDER_MSG)),
        ({"low": "abc"}, message_pattern(NOT_A_NUMBER_MSG)),
        ({"high": None}, message_pattern(NOT_A_NUMBER_MSG)),
        ({"low": [0.1]}, message_pattern(NOT_A_NUMBER_MSG)),
    ],
)
def test_bad_bounds_raise_value_error(name: str, options: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        getattr(vecgym_cc, name)().reset(seed=0, options=options)
    with pytest.raises(ValueError):  # Gymnasium rejects the same options
        getattr(gymnasium_cc, name)().reset(seed=0, options=options)


@pytest.mark.parametrize(
    "options",
    [None, {}, {"x_init": 0.5}, {"y_init": 2}, {"x_init": np.pi / 4, "y_init": 0.0}],
)
def test_pendulum_init_options_match_gymnasium(options: dict[str, Any] | None) -> None:
    ours, theirs = vecgym_cc.PendulumEnv(), gymnasium_cc.PendulumEnv()
    obs_ours, _ = ours.reset(seed=8, options=options)
    obs_theirs, _ = theirs.reset(seed=8, options=options)
    np.testing.assert_array_equal(obs_ours, obs_theirs)
    np.testing.assert_array_equal(ours.state, theirs.state)


def test_pendulum_bad_init_option_raises_value_error() -> None:
    with pytest.raises(ValueError, match=message_pattern(NOT_A_NUMBER_MSG)):
        vecgym_cc.PendulumEnv().reset(seed=0, options={"x_init": "wide"})


def test_helpers() -> None:
    assert maybe_parse_reset_bounds(None, -1, 1) == (-1, 1)
    low, high = maybe_parse_reset_bounds({"low": 0}, -1.0, 1.0)
    assert (low, high) == (0.0, 1.0)
    assert type(low) is float
    assert verify_number_and_cast(np.int64(3)) == 3.0
    with pytest.raises(ValueError, match=message_pattern(NOT_A_NUMBER_MSG)):
        verify_number_and_cast(object())  # type: ignore[arg-type]
