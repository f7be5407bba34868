"""TransformReward and ClipReward."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.generic_env import GenericTestEnv
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.wrappers.transform_reward import (
    CLIP_NO_BOUND_MSG,
    CLIP_ORDER_MSG,
    FUNC_NOT_CALLABLE_MSG,
    ClipReward,
    TransformReward,
)


def reward_env(rewards: list[Any]) -> GenericTestEnv:
    """An env whose steps return the given rewards in turn."""
    queue = list(rewards)

    def step(self: GenericTestEnv, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        return self.observation_space.sample(), queue.pop(0), False, False, {}

    return GenericTestEnv(step_func=step)


def rewards_of(env: vecgym.Env[Any, Any], n: int) -> list[Any]:
    env.reset(seed=0)
    return [env.step(env.action_space.sample())[1] for _ in range(n)]


def test_transform_reward_applies_func() -> None:
    env = TransformReward(reward_env([1.0, -2.0]), lambda r: 2 * float(r) + 1)
    assert rewards_of(env, 2) == [3.0, -3.0]


def test_transform_reward_rejects_non_callable() -> None:
    with pytest.raises(TypeError, match=message_pattern(FUNC_NOT_CALLABLE_MSG)):
        TransformReward(reward_env([]), 2.0)  # type: ignore[arg-type]


def test_transform_reward_spec_round_trip() -> None:
    env = TransformReward(vecgym.make("CartPole-v1"), lambda r: float(r) * 10)
    assert env.spec is not None
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, TransformReward)
    rebuilt.reset(seed=0)
    assert rebuilt.step(0)[1] == 10.0


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [(0, 0.5, [0.5, 0.0, 0.25]), (None, 0.1, [0.1, -2.0, 0.1]), (-1, None, [1.0, -1.0, 0.25])],
)
def test_clip_reward_clips(low: Any, high: Any, expected: list[float]) -> None:
    rewards = rewards_of(ClipReward(reward_env([1.0, -2.0, 0.25]), low, high), 3)
    assert rewards == expected
    assert all(isinstance(r, np.floating) for r in rewards)


def test_clip_reward_matches_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import ClipReward as GymClipReward

    ours = ClipReward(vecgym.make("CartPole-v1"), 0, 0.5)
    theirs = GymClipReward(gymnasium.make("CartPole-v1"), 0, 0.5)
    ours.reset(seed=1)
    theirs.reset(seed=1)
    a, b = ours.step(1)[1], theirs.step(1)[1]
    assert a == b
    assert type(a) is type(b)


def test_clip_reward_array_bounds() -> None:
    env = ClipReward(reward_env([np.array([3.0, -3.0])]), np.array([0.0, -1.0]), np.array([1, 2]))
    np.testing.assert_array_equal(rewards_of(env, 1)[0], [1.0, -1.0])


def test_clip_reward_spec_round_trip() -> None:
    env = ClipReward(vecgym.make("CartPole-v1"), max_reward=0.25)
    assert env.spec is not None
    assert env.spec.additional_wrappers[-1].kwargs == {"min_reward": None, "max_reward": 0.25}
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, ClipReward)
    rebuilt.reset(seed=0)
    assert rebuilt.step(0)[1] == 0.25


def test_clip_reward_errors() -> None:
    with pytest.raises(error.InvalidBound, match=message_pattern(CLIP_NO_BOUND_MSG)):
        ClipReward(reward_env([]))
    with pytest.raises(error.InvalidBound, match=message_pattern(CLIP_ORDER_MSG)):
        ClipReward(reward_env([]), 1.0, 0.0)
    with pytest.raises(ValueError, match=message_pattern(CLIP_ORDER_MSG)):
        ClipReward(reward_env([]), np.array([0.0, 2.0]), np.array([1.0, 1.0]))
