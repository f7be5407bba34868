"""Classic-control envs match Gymnasium 1.4 step by step: same observations (values, dtype and
type), rewards (value and type), terminated, truncated and info, for the same seeds and actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
import vecgym.envs.classic_control as vecgym_cc
from tests.support.messages import message_pattern
from vecgym.core.registration import OUT_OF_DATE_MSG, vector_entry_point_of

gymnasium = pytest.importorskip("gymnasium")
import gymnasium.envs.classic_control as gymnasium_cc  # noqa: E402

CLASSES = [
    "CartPoleEnv",
    "MountainCarEnv",
    "Continuous_MountainCarEnv",
    "PendulumEnv",
    "AcrobotEnv",
]
ENV_IDS = [
    "CartPole-v0",
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
]
SEEDS = [0, 1, 123]


def make_both(env_id: str, **kwargs: Any) -> tuple[Any, Any]:
    """``make`` the env in vecgym and in Gymnasium (both warn that CartPole-v0 is outdated)."""
    if env_id == "CartPole-v0":
        with pytest.warns(
            DeprecationWarning, match=message_pattern(OUT_OF_DATE_MSG, env_id="CartPole-v0")
        ):
            ours = vecgym.make(env_id, **kwargs)
        with pytest.warns(DeprecationWarning, match="out of date"):  # Gymnasium's own text
            theirs = gymnasium.make(env_id, **kwargs)
        return ours, theirs
    return vecgym.make(env_id, **kwargs), gymnasium.make(env_id, **kwargs)


def assert_same_obs(ours: Any, theirs: Any) -> None:
    assert type(ours) is type(theirs)
    assert ours.dtype == theirs.dtype
    assert ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs, strict=True)


def assert_same_step(ours: tuple[Any, ...], theirs: tuple[Any, ...]) -> None:
    assert len(ours) == len(theirs) == 5
    assert_same_obs(ours[0], theirs[0])
    assert type(ours[1]) is type(theirs[1]), (type(ours[1]), type(theirs[1]))
    assert ours[1] == theirs[1]
    for ours_flag, theirs_flag in zip(ours[2:4], theirs[2:4], strict=True):
        assert type(ours_flag) is type(theirs_flag) is bool
        assert ours_flag == theirs_flag
    assert ours[4] == theirs[4]


def run_side_by_side(ours: Any, theirs: Any, seed: int, steps: int) -> int:
    """Step both envs with the same random actions, resetting both when an episode ends.

    Returns the number of episodes that ended.
    """
    assert_same_obs(ours.reset(seed=seed)[0], theirs.reset(seed=seed)[0])
    theirs.action_space.seed(seed)
    ended = 0
    for _ in range(steps):
        action = theirs.action_space.sample()
        step_ours, step_theirs = ours.step(action), theirs.step(action)
        assert_same_step(step_ours, step_theirs)
        if step_theirs[2] or step_theirs[3]:
            ended += 1
            reset_ours, reset_theirs = ours.reset(), theirs.reset()
            assert_same_obs(reset_ours[0], reset_theirs[0])
            assert reset_ours[1] == reset_theirs[1] == {}
    return ended


@pytest.mark.parametrize("name", CLASSES)
@pytest.mark.parametrize("seed", SEEDS)
def test_direct_construction_matches(name: str, seed: int) -> None:
    ours, theirs = getattr(vecgym_cc, name)(), getattr(gymnasium_cc, name)()
    run_side_by_side(ours, theirs, seed, steps=600)
    # The state left behind is the same too (those who read env.state see the same values).
    np.testing.assert_array_equal(np.asarray(ours.state), np.asarray(theirs.state))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_make_matches_with_time_limit(env_id: str) -> None:
    ours, theirs = make_both(env_id)
    limit = theirs.spec.max_episode_steps
    assert ours.spec.max_episode_steps == limit
    ended = run_side_by_side(ours, theirs, seed=7, steps=max(2 * limit + 10, 400))
    assert ended >= 1
    ours.close()
    theirs.close()


def test_make_truncates_at_the_time_limit() -> None:
    ours, theirs = vecgym.make("MountainCar-v0"), gymnasium.make("MountainCar-v0")
    ours.reset(seed=3)
    theirs.reset(seed=3)
    for step in range(1, 201):
        step_ours, step_theirs = ours.step(1), theirs.step(1)
        assert_same_step(step_ours, step_theirs)
        assert step_ours[3] is (step == 200)


@pytest.mark.parametrize("name", CLASSES)
def test_spaces_and_metadata_match(name: str) -> None:
    ours, theirs = getattr(vecgym_cc, name)(), getattr(gymnasium_cc, name)()
    assert ours.metadata == theirs.metadata
    for attr in ("observation_space", "action_space"):
        ours_space, theirs_space = getattr(ours, attr), getattr(theirs, attr)
        assert type(ours_space).__name__ == type(theirs_space).__name__
        assert ours_space.shape == theirs_space.shape
        assert ours_space.dtype == theirs_space.dtype
        if hasattr(theirs_space, "low"):
            assert_same_obs(ours_space.low, theirs_space.low)
            assert_same_obs(ours_space.high, theirs_space.high)
        else:
            assert ours_space.n == theirs_space.n
            assert ours_space.start == theirs_space.start


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_registration_matches(env_id: str) -> None:
    ours, theirs = vecgym.spec(env_id), gymnasium.spec(env_id)
    for field in ("max_episode_steps", "reward_threshold", "kwargs", "nondeterministic"):
        assert getattr(ours, field) == getattr(theirs, field), field
    module, _, attr = ours.entry_point.partition(":")
    assert module == theirs.entry_point.partition(":")[0].replace("gymnasium.", "vecgym.", 1)
    assert attr == theirs.entry_point.partition(":")[2]
    if theirs.vector_entry_point is not None:
        assert ours.vector_entry_point == theirs.vector_entry_point.replace(
            "gymnasium.", "vecgym.", 1
        )
    else:  # vecgym vectorises every classic-control env, Gymnasium only CartPole
        assert ours.vector_entry_point is None
        vector = vector_entry_point_of(ours)
        assert vector == f"{module}:{attr.replace('Env', 'VectorEnv')}"


def test_acrobot_nips_dynamics_and_torque_noise_match() -> None:
    ours, theirs = vecgym_cc.AcrobotEnv(), gymnasium_cc.AcrobotEnv()
    for env in (ours, theirs):
        env.book_or_nips = "nips"
        env.torque_noise_max = 0.2
    run_side_by_side(ours, theirs, seed=5, steps=400)


def test_cartpole_semi_implicit_euler_matches() -> None:
    ours, theirs = vecgym_cc.CartPoleEnv(), gymnasium_cc.CartPoleEnv()
    ours.kinematics_integrator = theirs.kinematics_integrator = "semi-implicit-euler"
    run_side_by_side(ours, theirs, seed=2, steps=400)


def test_pendulum_gravity_and_float64_actions_match() -> None:
    ours, theirs = vecgym_cc.PendulumEnv(g=9.81), gymnasium_cc.PendulumEnv(g=9.81)
    assert_same_obs(ours.reset(seed=4)[0], theirs.reset(seed=4)[0])
    rng = np.random.default_rng(0)
    for torque in rng.uniform(-3, 3, size=200):  # beyond the bounds: clipped by both
        action = np.array([torque])  # float64, not the space's float32
        assert_same_step(ours.step(action), theirs.step(action))


def test_continuous_mountain_car_extreme_actions_match() -> None:
    ours = vecgym_cc.Continuous_MountainCarEnv(goal_velocity=0.01)
    theirs = gymnasium_cc.Continuous_MountainCarEnv(goal_velocity=0.01)
    assert_same_obs(ours.reset(seed=9)[0], theirs.reset(seed=9)[0])
    # Bang-bang control with out-of-range forces reaches the goal and hits the left wall.
    velocity = 0.0
    for _ in range(999):
        action = np.array([5.0 if velocity >= 0 else -5.0], dtype=np.float32)
        step_ours, step_theirs = ours.step(action), theirs.step(action)
        assert_same_step(step_ours, step_theirs)
        velocity = float(step_theirs[0][1])
        if step_theirs[2]:
            break
    assert step_theirs[2]


def test_package_exports_gymnasiums_names() -> None:
    assert set(vecgym_cc.__all__) == set(gymnasium_cc.__all__)
    for name in vecgym_cc.__all__:
        assert getattr(vecgym_cc, name).__name__ == name


def test_acrobot_helpers_match() -> None:
    from gymnasium.envs.classic_control import acrobot as theirs

    from vecgym.envs.classic_control import acrobot as ours

    for x in (-10.0, -np.pi, -1.0, 0.0, 2.5, np.pi, 7.0, 100.0):
        assert ours.wrap(x, -np.pi, np.pi) == theirs.wrap(x, -np.pi, np.pi)
        assert ours.bound(x, -2.0, 3.0) == theirs.bound(x, -2.0, 3.0)
        assert ours.bound(x, (-2.0, 3.0)) == theirs.bound(x, (-2.0, 3.0))
    env = vecgym_cc.AcrobotEnv()
    y0 = np.array([0.3, -0.2, 1.0, -2.0, 1.0])
    for t in ([0, 0.2], [0.0, 0.1, 0.25, 0.4]):
        np.testing.assert_array_equal(
            ours.rk4(env._dsdt, y0, t), theirs.rk4(gymnasium_cc.AcrobotEnv()._dsdt, y0, t)
        )


def test_pendulum_helpers_match() -> None:
    from gymnasium.envs.classic_control import pendulum as theirs

    from vecgym.envs.classic_control import pendulum as ours

    angles = np.linspace(-20, 20, 101)
    np.testing.assert_array_equal(ours.angle_normalize(angles), theirs.angle_normalize(angles))
    assert (ours.DEFAULT_X, ours.DEFAULT_Y) == (theirs.DEFAULT_X, theirs.DEFAULT_Y)
