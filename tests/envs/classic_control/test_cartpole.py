"""CartPole specifics: v0 vs v1, the Sutton-Barto reward, stepping after termination, bad input."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.registration import OUT_OF_DATE_MSG
from vecgym.envs.classic_control import CartPoleEnv
from vecgym.envs.classic_control.cartpole import STEP_AFTER_TERMINATED_MSG

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.envs.classic_control import CartPoleEnv as GymCartPoleEnv  # noqa: E402


def fall(env: CartPoleEnv) -> list[float]:
    """Push right until the pole falls; return the rewards."""
    rewards = []
    while True:
        _, reward, terminated, truncated, _ = env.step(1)
        rewards.append(reward)
        assert truncated is False
        if terminated:
            return rewards


def test_v0_and_v1_differ_only_in_limits() -> None:
    with pytest.warns(
        DeprecationWarning, match=message_pattern(OUT_OF_DATE_MSG, env_id="CartPole-v0", latest=1)
    ):
        v0 = vecgym.make("CartPole-v0")
    v1 = vecgym.make("CartPole-v1")
    assert (v0.spec.max_episode_steps, v0.spec.reward_threshold) == (200, 195.0)
    assert (v1.spec.max_episode_steps, v1.spec.reward_threshold) == (500, 475.0)
    assert (
        v0.spec.entry_point
        == v1.spec.entry_point
        == "vecgym.envs.classic_control.cartpole:CartPoleEnv"
    )
    np.testing.assert_array_equal(v0.reset(seed=1)[0], v1.reset(seed=1)[0])


def test_default_reward_is_one_per_step_including_the_last() -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    rewards = fall(env)
    assert rewards == [1.0] * len(rewards)
    assert all(type(r) is float for r in rewards)


def test_sutton_barto_reward_is_zero_then_minus_one() -> None:
    env = CartPoleEnv(sutton_barto_reward=True)
    env.reset(seed=0)
    rewards = fall(env)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == -1.0


@pytest.mark.parametrize("sutton_barto_reward", [False, True])
def test_sutton_barto_reward_through_make_matches_gymnasium(sutton_barto_reward: bool) -> None:
    ours = vecgym.make("CartPole-v1", sutton_barto_reward=sutton_barto_reward)
    theirs = gymnasium.make("CartPole-v1", sutton_barto_reward=sutton_barto_reward)
    ours.reset(seed=11)
    theirs.reset(seed=11)
    theirs.action_space.seed(11)
    for _ in range(300):
        action = theirs.action_space.sample()
        step_ours, step_theirs = ours.step(action), theirs.step(action)
        np.testing.assert_array_equal(step_ours[0], step_theirs[0])
        assert step_ours[1:] == step_theirs[1:]
        if step_theirs[2] or step_theirs[3]:
            np.testing.assert_array_equal(ours.reset()[0], theirs.reset()[0])


@pytest.mark.parametrize("sutton_barto_reward", [False, True])
def test_stepping_after_termination_warns_once_as_gymnasium(sutton_barto_reward: bool) -> None:
    ours = CartPoleEnv(sutton_barto_reward=sutton_barto_reward)
    theirs = GymCartPoleEnv(sutton_barto_reward=sutton_barto_reward)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    assert fall(ours) == fall(theirs)
    assert ours.steps_beyond_terminated == theirs.steps_beyond_terminated == 0
    with warnings.catch_warnings(record=True) as ours_warned:
        warnings.simplefilter("always")
        first = ours.step(0)
    with warnings.catch_warnings(record=True) as theirs_warned:
        warnings.simplefilter("always")
        first_theirs = theirs.step(0)
    # one warning of the same category each; the text is each library's own
    assert [w.category for w in ours_warned] == [w.category for w in theirs_warned] == [UserWarning]
    assert re.search(message_pattern(STEP_AFTER_TERMINATED_MSG), str(ours_warned[0].message))
    assert first[1:] == first_theirs[1:]
    assert first[1] == (-1.0 if sutton_barto_reward else 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # later extra steps do not warn again
        for _ in range(3):
            assert ours.step(0)[1:] == theirs.step(0)[1:]
    assert ours.steps_beyond_terminated == theirs.steps_beyond_terminated == 4
    ours.reset()
    assert ours.steps_beyond_terminated is None


@pytest.mark.parametrize("action", [2, -1, 0.5, "1", np.array([1]), np.float64(1.0), None])
def test_invalid_action_raises_invalid_action(action: object) -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    with pytest.raises(error.InvalidAction, match=r"action must be an element of Discrete\(2\)"):
        env.step(action)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [1, np.int64(1), np.int8(1), np.array(1), True])
def test_integer_like_actions_are_accepted(action: object) -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    reference = CartPoleEnv()
    reference.reset(seed=0)
    np.testing.assert_array_equal(env.step(action)[0], reference.step(1)[0])  # type: ignore[arg-type]


def test_step_before_reset_raises_reset_needed() -> None:
    with pytest.raises(error.ResetNeeded, match="reset"):
        CartPoleEnv().step(0)


def test_observation_is_a_fresh_float32_array_and_state_float64() -> None:
    env = CartPoleEnv()
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32
    assert info == {}
    assert env.state is not None
    assert env.state.dtype == np.float64
    obs2 = env.step(0)[0]
    assert obs2 is not obs
    assert not np.shares_memory(obs2, env.state)
    assert env.observation_space.contains(obs)
    assert env.observation_space.contains(obs2)
