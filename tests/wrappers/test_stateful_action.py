"""StickyAction and RepeatAction."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.generic_env import GenericTestEnv
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.spaces import Discrete
from vecgym.wrappers.stateful_action import (
    STICKY_DURATION_ORDER_MSG,
    STICKY_DURATION_TYPE_MSG,
    STICKY_PROBABILITY_MSG,
    STICKY_PROBABILITY_TYPE_MSG,
    RepeatAction,
    StickyAction,
)


def recording_env(
    reward: float = 1.0, terminate_at: int | None = None
) -> tuple[GenericTestEnv, list[Any]]:
    """An env with a Discrete(10) action space recording the actions it executes."""
    seen: list[Any] = []

    def step(self: GenericTestEnv, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        seen.append(action)
        done = terminate_at is not None and len(seen) >= terminate_at
        return len(seen), reward, done, False, {"step": len(seen)}

    def reset(self: GenericTestEnv, *, seed: Any = None, options: Any = None) -> Any:
        vecgym.Env.reset(self, seed=seed)
        return 0, {}

    env = GenericTestEnv(action_space=Discrete(10), reset_func=reset, step_func=step)
    return env, seen


# --- StickyAction ---------------------------------------------------------------------------------
def test_sticky_action_probability_zero_never_sticks() -> None:
    env, seen = recording_env()
    wrapped = StickyAction(env, repeat_action_probability=0.0)
    wrapped.reset(seed=0)
    for a in range(10):
        wrapped.step(a)
    assert seen == list(range(10))


def test_sticky_action_first_step_after_reset_is_never_sticky() -> None:
    env, seen = recording_env()
    wrapped = StickyAction(env, repeat_action_probability=0.99, repeat_action_duration=5)
    wrapped.reset(seed=0)
    wrapped.step(3)
    wrapped.step(4)
    wrapped.reset()
    assert wrapped.last_action is None
    assert not wrapped.is_sticky_actions
    assert wrapped.num_repeats == wrapped.repeats_taken == 0
    wrapped.step(7)
    assert seen == [3, 3, 7]


def test_sticky_action_runs_last_their_duration() -> None:
    env, seen = recording_env()
    wrapped = StickyAction(env, repeat_action_probability=0.999999, repeat_action_duration=3)
    wrapped.reset(seed=0)
    for a in range(9):
        wrapped.step(a)
    # step 0 executes 0; every later draw starts a new run of 3 that replays it
    assert seen == [0] * 9
    assert (wrapped.num_repeats, wrapped.repeats_taken, wrapped.is_sticky_actions) == (3, 2, True)
    wrapped.step(5)  # completes the third run
    assert seen[-1] == 0
    assert (wrapped.num_repeats, wrapped.repeats_taken, wrapped.is_sticky_actions) == (0, 0, False)


@pytest.mark.parametrize(("probability", "duration"), [(0.5, 1), (0.3, (1, 4)), (0.8, (2, 3))])
def test_sticky_action_matches_gymnasium(probability: float, duration: Any) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import StickyAction as GymStickyAction

    ours = StickyAction(vecgym.make("CartPole-v1"), probability, duration)
    theirs = GymStickyAction(gymnasium.make("CartPole-v1"), probability, duration)
    actions = np.random.default_rng(5).integers(0, 2, size=60)
    for seed in (1, 2):
        np.testing.assert_array_equal(ours.reset(seed=seed)[0], theirs.reset(seed=seed)[0])
        for action in actions:
            a, b = ours.step(int(action)), theirs.step(int(action))
            np.testing.assert_array_equal(a[0], b[0])
            assert a[1:4] == b[1:4]
            assert (ours.last_action, ours.num_repeats) == (theirs.last_action, theirs.num_repeats)
            if a[2] or a[3]:
                break


def test_sticky_action_spec_round_trip() -> None:
    env = StickyAction(vecgym.make("CartPole-v1"), 0.4, (1, 3))
    assert env.spec is not None
    assert env.spec.additional_wrappers[-1].kwargs == {
        "repeat_action_probability": 0.4,
        "repeat_action_duration": (1, 3),
    }
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, StickyAction)
    np.testing.assert_array_equal(env.reset(seed=3)[0], rebuilt.reset(seed=3)[0])
    for action in [0, 1, 1, 0, 1, 0, 0, 1]:
        np.testing.assert_array_equal(env.step(action)[0], rebuilt.step(action)[0])


@pytest.mark.parametrize("probability", [-0.1, 1, 1.5, True])
def test_sticky_action_rejects_bad_probability(probability: Any) -> None:
    with pytest.raises(
        error.InvalidProbability, match=message_pattern(STICKY_PROBABILITY_MSG, value=probability)
    ) as info:
        StickyAction(recording_env()[0], probability)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("probability", ["0.5", None])
def test_sticky_action_rejects_a_probability_that_is_no_number(probability: Any) -> None:
    with pytest.raises(
        TypeError,
        match=message_pattern(
            STICKY_PROBABILITY_TYPE_MSG, value=probability, type=type(probability)
        ),
    ):
        StickyAction(recording_env()[0], probability)


BAD_DURATION = message_pattern(STICKY_DURATION_TYPE_MSG)


@pytest.mark.parametrize(
    ("duration", "exc", "match"),
    [
        (0, ValueError, "at least 1"),
        ((0, 2), ValueError, "at least 1"),
        ((3, 1), error.InvalidBound, message_pattern(STICKY_DURATION_ORDER_MSG, value=(3, 1))),
        ((1, 2, 3), ValueError, BAD_DURATION),
        ((1.0, 2), ValueError, BAD_DURATION),
        ("2", ValueError, BAD_DURATION),
        (2.0, ValueError, BAD_DURATION),
        ([1, 2], ValueError, BAD_DURATION),  # Gymnasium takes a tuple only
        (np.int64(2), ValueError, BAD_DURATION),  # and a Python int only
    ],
)
def test_sticky_action_rejects_bad_duration(duration: Any, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        StickyAction(recording_env()[0], 0.5, duration)


def test_sticky_action_accepts_numpy_numbers_where_gymnasium_does() -> None:
    wrapped = StickyAction(recording_env()[0], np.float64(0.25), (np.int64(2), np.int64(3)))
    assert wrapped.repeat_action_duration_range == (2, 3)


# --- RepeatAction ---------------------------------------------------------------------------------
def test_repeat_action_sums_rewards() -> None:
    env, seen = recording_env(reward=1.5)
    wrapped = RepeatAction(env, num_repeats=3)
    wrapped.reset(seed=0)
    obs, reward, terminated, truncated, info = wrapped.step(4)
    assert seen == [4, 4, 4]
    assert (obs, reward, terminated, truncated, info) == (3, 4.5, False, False, {"step": 3})
    assert type(reward) is float


def test_repeat_action_stops_at_termination() -> None:
    env, seen = recording_env(terminate_at=2)
    wrapped = RepeatAction(env, num_repeats=5)
    wrapped.reset(seed=0)
    assert wrapped.step(1) == (2, 2.0, True, False, {"step": 2})
    assert seen == [1, 1]


def test_repeat_action_matches_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import RepeatAction as GymRepeatAction

    ours = RepeatAction(vecgym.make("CartPole-v1"), 4)
    theirs = GymRepeatAction(gymnasium.make("CartPole-v1"), 4)
    np.testing.assert_array_equal(ours.reset(seed=9)[0], theirs.reset(seed=9)[0])
    for action in [1, 1, 1, 1, 1, 1, 1, 1]:
        a, b = ours.step(action), theirs.step(action)
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1:] == b[1:]
        if a[2] or a[3]:
            break


def test_repeat_action_spec_round_trip() -> None:
    env = RepeatAction(vecgym.make("CartPole-v1"), num_repeats=2)
    assert env.spec is not None
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, RepeatAction)
    assert rebuilt.num_repeats == 2


@pytest.mark.parametrize(("repeats", "exc"), [(0, ValueError), (-2, ValueError)])
def test_repeat_action_rejects_small_counts(repeats: int, exc: type) -> None:
    with pytest.raises(exc, match="at least 1"):
        RepeatAction(recording_env()[0], repeats)


@pytest.mark.parametrize("repeats", [2.0, "2", True, None])
def test_repeat_action_rejects_non_integers(repeats: Any) -> None:
    with pytest.raises(TypeError, match="must be an integer"):
        RepeatAction(recording_env()[0], repeats)
