"""NormalizeReward."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.generic_env import GenericTestEnv
from vecgym import error
from vecgym.wrappers.stateful_reward import NormalizeReward


def reward_env(rewards: list[float], terminated_at: set[int] = frozenset()) -> GenericTestEnv:  # type: ignore[assignment]
    """An env returning the given rewards; ``terminated`` (a numpy bool) at the given steps."""
    state = {"t": 0}

    def step(self: GenericTestEnv, action: Any) -> tuple[Any, float, Any, bool, dict[str, Any]]:
        t = state["t"]
        state["t"] += 1
        return self.observation_space.sample(), rewards[t], np.bool_(t in terminated_at), False, {}

    return GenericTestEnv(step_func=step)


def test_normalize_reward_scales_by_return_std() -> None:
    env = NormalizeReward(reward_env([1.0] * 4), gamma=0.5)
    env.reset(seed=0)
    got = [float(env.step(0)[1]) for _ in range(4)]
    # the discounted sums are 1, 1.5, 1.75, 1.875; each reward is divided by sqrt(var + eps)
    sums = np.array([1.0, 1.5, 1.75, 1.875])
    for t in range(4):
        count = 1e-4 + t + 1
        mean = sums[: t + 1].sum() / count
        var = (1e-4 * (1 + mean**2) + ((sums[: t + 1] - mean) ** 2).sum()) / count
        assert got[t] == pytest.approx(1.0 / np.sqrt(var + 1e-8), rel=1e-6)


def test_normalize_reward_numpy_bool_termination_restarts_sum() -> None:
    env = NormalizeReward(reward_env([1.0, 1.0, 1.0], terminated_at={1}), gamma=0.9)
    env.reset(seed=0)
    env.step(0)
    assert env.discounted_reward.tolist() == [1.0]
    env.step(0)  # terminates: as in Gymnasium the sum restarts with this step's reward
    assert env.discounted_reward.tolist() == [1.0]
    env.step(0)
    assert env.discounted_reward.tolist() == [1.9]


def test_normalize_reward_freeze() -> None:
    env = NormalizeReward(reward_env([1.0, 2.0, 3.0]))
    env.reset(seed=0)
    env.step(0)
    env.update_running_mean = False
    assert env.update_running_mean is False
    var, count = env.return_rms.var.copy(), env.return_rms.count
    reward = env.step(0)[1]
    assert env.return_rms.count == count
    assert reward == pytest.approx(2.0 / np.sqrt(var + 1e-8))


def test_normalize_reward_matches_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import NormalizeReward as GymNormalizeReward

    ours = NormalizeReward(vecgym.make("MountainCarContinuous-v0"), gamma=0.95, epsilon=1e-6)
    theirs = GymNormalizeReward(gymnasium.make("MountainCarContinuous-v0"), 0.95, 1e-6)
    actions = np.random.default_rng(0).uniform(-1, 1, size=(150, 1)).astype(np.float32)
    ours.reset(seed=4)
    theirs.reset(seed=4)
    for action in actions:
        a, b = ours.step(action), theirs.step(action)
        assert a[1] == b[1]
        assert type(a[1]) is type(b[1])
    assert ours.return_rms.var == theirs.return_rms.var


def test_normalize_reward_spec_round_trip() -> None:
    env = NormalizeReward(vecgym.make("CartPole-v1"), gamma=0.9)
    assert env.spec is not None
    assert env.spec.additional_wrappers[-1].kwargs == {"gamma": 0.9, "epsilon": 1e-8}
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, NormalizeReward)
    assert (rebuilt.gamma, rebuilt.epsilon) == (0.9, 1e-8)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"gamma": -0.1}, "gamma"),
        ({"gamma": 1.5}, "gamma"),
        ({"gamma": "0.9"}, "gamma"),
        ({"epsilon": 0.0}, "epsilon"),
        ({"epsilon": -1e-8}, "epsilon"),
        ({"epsilon": None}, "epsilon"),
    ],
)
def test_normalize_reward_rejects_bad_arguments(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(error.InvalidBound, match=match):
        NormalizeReward(reward_env([]), **kwargs)
