"""The numpy-vectorised classic-control envs: env ``i`` is bit for bit ``make(id)`` seeded with
``seed + i`` and fed the same actions, in every autoreset mode, as ``SyncVectorEnv`` over single
envs is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from tests.support.vector_reference import (
    NextStepReference,
    assert_same_array_infos,
    reset_ended_envs_both,
)
from vecgym import error
from vecgym.envs.classic_control.acrobot import AcrobotEnv, AcrobotVectorEnv
from vecgym.envs.classic_control.continuous_mountain_car import (
    Continuous_MountainCarEnv,
    Continuous_MountainCarVectorEnv,
)
from vecgym.envs.classic_control.mountain_car import MountainCarEnv, MountainCarVectorEnv
from vecgym.envs.classic_control.pendulum import PendulumEnv, PendulumVectorEnv, scalar_square
from vecgym.envs.classic_control.utils import NOT_A_NUMBER_MSG
from vecgym.vector import AutoresetMode, SyncVectorEnv
from vecgym.vector.numpy_vector_env import (
    BOX_ACTIONS_DTYPE_MSG,
    CLOSED_MSG,
    DISCRETE_ACTIONS_MSG,
    MAX_STEPS_MSG,
    NO_RENDER_MODE_MSG,
    NUM_ENVS_MSG,
    UNSUPPORTED_RENDER_MODE_MSG,
    NumpyVectorEnv,
)

MODES = list(AutoresetMode)
NUM_ENVS = 4

VECTOR_CLASSES: dict[str, type[NumpyVectorEnv]] = {
    "MountainCar-v0": MountainCarVectorEnv,
    "MountainCarContinuous-v0": Continuous_MountainCarVectorEnv,
    "Pendulum-v1": PendulumVectorEnv,
    "Acrobot-v1": AcrobotVectorEnv,
}
SINGLE_CLASSES: dict[str, Any] = {
    "MountainCar-v0": MountainCarEnv,
    "MountainCarContinuous-v0": Continuous_MountainCarEnv,
    "Pendulum-v1": PendulumEnv,
    "Acrobot-v1": AcrobotEnv,
}
ENV_IDS = list(VECTOR_CLASSES)


def policy_for(env_id: str, seed: int) -> Callable[[np.ndarray], np.ndarray]:
    """Energy-pumping actions with some noise, so that episodes reach the goal, except for env 0
    whose actions are random (its episodes run into the time limit); continuous actions go past
    the bounds (clipping) and switch between float32 and float64."""
    rng = np.random.default_rng(seed)

    def act(obs: np.ndarray) -> np.ndarray:
        n = len(obs)
        noisy = rng.random(n) < 0.2
        noisy[0] = True
        if env_id == "MountainCar-v0":
            return np.where(noisy, rng.integers(0, 3, n), np.where(obs[:, 1] >= 0, 2, 0))
        if env_id == "MountainCarContinuous-v0":
            pump = np.where(obs[:, 1] >= 0, 1.0, -1.0) * rng.uniform(0.5, 1.5, n)
            actions = np.where(noisy, rng.uniform(-1.3, 1.3, n), pump)[:, None]
            return actions.astype(np.float64 if rng.random() < 0.2 else np.float32)
        if env_id == "Pendulum-v1":
            return rng.uniform(-2.5, 2.5, (n, 1)).astype(np.float32)
        # Acrobot: torque along the second link's swing.
        return np.where(noisy, rng.integers(0, 3, n), np.where(obs[:, 5] >= 0, 2, 0))

    return act


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("seed", [0, 7])
def test_matches_single_envs_with_time_limit(env_id: str, seed: int) -> None:
    """The reference loop: ``make`` envs reset on the step after an episode ends (NEXT_STEP)."""
    limit = 200  # env 0 runs into it, the others reach the goal first
    envs = vecgym.make_vec(
        env_id, num_envs=NUM_ENVS, vectorization_mode="vector_entry_point", max_episode_steps=limit
    )
    assert isinstance(envs, VECTOR_CLASSES[env_id])
    singles = [vecgym.make(env_id, max_episode_steps=limit) for _ in range(NUM_ENVS)]
    obs, infos = envs.reset(seed=seed)
    assert infos == {}
    for i, single in enumerate(singles):
        np.testing.assert_array_equal(obs[i], single.reset(seed=seed + i)[0], strict=True)
    reference = NextStepReference(singles)
    act = policy_for(env_id, seed)
    for _ in range(600):
        actions = act(obs)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        assert infos == {}
        for i, (expected_obs, reward, terminated, truncated, _) in enumerate(
            reference.step(actions)
        ):
            np.testing.assert_array_equal(obs[i], expected_obs, strict=True)
            assert (rewards[i], terminations[i], truncations[i]) == (
                float(reward),
                terminated,
                truncated,
            )
    assert reference.truncated >= 1
    if env_id != "Pendulum-v1":
        assert reference.terminated >= 1


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("mode", MODES)
def test_matches_sync_vector_env_in_every_autoreset_mode(env_id: str, mode: AutoresetMode) -> None:
    seed, steps, limit = 11, 300, 40
    ours = vecgym.make_vec(
        env_id,
        num_envs=NUM_ENVS,
        vectorization_mode="vector_entry_point",
        autoreset_mode=mode,
        max_episode_steps=limit,
    )
    theirs = SyncVectorEnv(
        [lambda: vecgym.make(env_id, max_episode_steps=limit)] * NUM_ENVS, autoreset_mode=mode
    )
    assert ours.metadata["autoreset_mode"] is mode
    obs_ours, _ = ours.reset(seed=seed)
    obs_theirs, _ = theirs.reset(seed=seed)
    np.testing.assert_array_equal(obs_ours, obs_theirs, strict=True)
    act = policy_for(env_id, seed)
    ended_any = False
    for _ in range(steps):
        actions = act(obs_theirs)
        step_ours, step_theirs = ours.step(actions), theirs.step(actions)
        obs_theirs = step_theirs[0]
        for mine, other in zip(step_ours[:4], step_theirs[:4], strict=True):
            np.testing.assert_array_equal(mine, other, strict=True)
        assert_same_array_infos(step_ours[4], step_theirs[4])
        ended = step_theirs[2] | step_theirs[3]
        if mode is AutoresetMode.DISABLED and ended.any():
            obs_theirs = reset_ended_envs_both(ours, theirs, actions, ended)
        ended_any = ended_any or bool(ended.any())
    assert ended_any
    theirs.close()


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_matches_gymnasium_sync_vector_env(mode: AutoresetMode) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    for env_id in ENV_IDS:
        ours = vecgym.make_vec(
            env_id, 3, "vector_entry_point", autoreset_mode=mode, max_episode_steps=30
        )
        theirs = gymnasium.vector.SyncVectorEnv(
            [lambda env_id=env_id: gymnasium.make(env_id, max_episode_steps=30)] * 3,
            autoreset_mode=gymnasium.vector.AutoresetMode(mode.value),
        )
        obs, _ = theirs.reset(seed=5)
        np.testing.assert_array_equal(ours.reset(seed=5)[0], obs)
        act = policy_for(env_id, 5)
        for _ in range(90):
            actions = act(obs)
            step_ours, step_theirs = ours.step(actions), theirs.step(actions)
            obs = step_theirs[0]
            for mine, other in zip(step_ours[:4], step_theirs[:4], strict=True):
                np.testing.assert_array_equal(mine, other)
            assert_same_array_infos(step_ours[4], step_theirs[4])
        theirs.close()


@pytest.mark.parametrize(
    ("env_id", "options"),
    [
        ("MountainCar-v0", {"low": -0.3, "high": 0.1}),
        ("MountainCarContinuous-v0", {"low": 0.2, "high": 0.5}),
        ("Pendulum-v1", {"x_init": 0.5, "y_init": 0.25}),
        ("Acrobot-v1", {"low": -0.5, "high": 0.5}),
    ],
)
def test_reset_options_seeds_and_mask(env_id: str, options: dict[str, float]) -> None:
    envs = VECTOR_CLASSES[env_id](num_envs=3)
    single = SINGLE_CLASSES[env_id]()
    obs, _ = envs.reset(seed=[5, None, 7], options=options)
    np.testing.assert_array_equal(obs[0], single.reset(seed=5, options=options)[0], strict=True)
    np.testing.assert_array_equal(obs[2], single.reset(seed=7, options=options)[0], strict=True)
    assert envs.np_random_seed[0] == 5
    assert envs.np_random_seed[2] == 7
    again, _ = envs.reset(seed=9, options={"reset_mask": np.array([False, True, False])})
    np.testing.assert_array_equal(again[[0, 2]], obs[[0, 2]])
    np.testing.assert_array_equal(again[1], single.reset(seed=10)[0], strict=True)
    with pytest.raises(ValueError, match=message_pattern(NOT_A_NUMBER_MSG)):
        envs.reset(options={"low": "x", "x_init": "x"})


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_spaces_metadata_and_make_vec(env_id: str) -> None:
    envs = vecgym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
    single = vecgym.make(env_id)
    assert isinstance(envs, VECTOR_CLASSES[env_id])
    assert envs.spec is not None
    assert envs.spec.id == env_id
    assert envs.max_episode_steps == single.spec.max_episode_steps  # type: ignore[union-attr]
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space.shape == (3, *(single.observation_space.shape or ()))
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.metadata["render_fps"] == single.metadata["render_fps"]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_render_reuses_the_single_env_drawing(env_id: str) -> None:
    envs = VECTOR_CLASSES[env_id](num_envs=2, render_mode="rgb_array")
    single = SINGLE_CLASSES[env_id](render_mode="rgb_array")
    envs.reset(seed=3)
    single.reset(seed=4)
    actions = envs.action_space.sample()
    envs.step(actions)
    single.step(actions[1])
    frames: Any = envs.render()
    assert isinstance(frames, list)
    assert len(frames) == 2
    expected = single.render()
    assert expected is not None
    assert all(f.shape == expected.shape and f.dtype == np.uint8 for f in frames)
    np.testing.assert_array_equal(frames[1], expected)
    quiet = VECTOR_CLASSES[env_id](num_envs=2)
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match=message_pattern(NO_RENDER_MODE_MSG)):
        assert quiet.render() is None


@pytest.mark.parametrize(
    ("env_id", "actions", "exception", "match"),
    [
        ("MountainCar-v0", np.array([0, 1]), ValueError, "expected a batch of 3 actions"),
        (
            "MountainCar-v0",
            np.array([0, 1, 3]),
            error.InvalidAction,
            message_pattern(DISCRETE_ACTIONS_MSG),
        ),
        (
            "Acrobot-v1",
            np.array([0.0, 1.0, 2.0]),
            error.InvalidAction,
            message_pattern(DISCRETE_ACTIONS_MSG),
        ),
        ("Pendulum-v1", np.zeros(3), ValueError, "expected a batch of 3 actions"),
        (
            "Pendulum-v1",
            np.full((3, 1), "a"),
            error.InvalidAction,
            message_pattern(BOX_ACTIONS_DTYPE_MSG),
        ),
    ],
)
def test_bad_actions(
    env_id: str, actions: np.ndarray, exception: type[Exception], match: str
) -> None:
    envs = VECTOR_CLASSES[env_id](num_envs=3)
    envs.reset(seed=0)
    with pytest.raises(exception, match=match):
        envs.step(actions)


def test_errors_before_reset_after_close_and_bad_arguments() -> None:
    envs = PendulumVectorEnv(num_envs=2)
    with pytest.raises(error.ResetNeeded):
        envs.step(np.zeros((2, 1), dtype=np.float32))
    envs.close()
    envs.close()
    with pytest.raises(error.ClosedEnvironmentError, match=message_pattern(CLOSED_MSG)):
        envs.reset(seed=0)
    with pytest.raises(ValueError, match=message_pattern(NUM_ENVS_MSG)):
        AcrobotVectorEnv(num_envs=True)
    with pytest.raises(ValueError, match=message_pattern(MAX_STEPS_MSG)):
        MountainCarVectorEnv(max_episode_steps=-3)
    with pytest.raises(error.UnsupportedMode, match=message_pattern(UNSUPPORTED_RENDER_MODE_MSG)):
        Continuous_MountainCarVectorEnv(render_mode="human")


def test_acrobot_nips_dynamics_and_torque_noise(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in (AcrobotEnv, AcrobotVectorEnv):
        monkeypatch.setattr(cls, "book_or_nips", "nips")
        monkeypatch.setattr(cls, "torque_noise_max", 0.3)
    ours = SyncVectorEnv([lambda: vecgym.make("Acrobot-v1", max_episode_steps=20)] * 3)
    envs = AcrobotVectorEnv(num_envs=3, max_episode_steps=20)
    np.testing.assert_array_equal(envs.reset(seed=1)[0], ours.reset(seed=1)[0])
    rng = np.random.default_rng(1)
    for _ in range(70):
        actions = rng.integers(0, 3, 3)
        for mine, other in zip(envs.step(actions)[:4], ours.step(actions)[:4], strict=True):
            np.testing.assert_array_equal(mine, other)
    ours.close()


def test_scalar_square_rounds_as_numpy_scalars() -> None:
    values = np.random.default_rng(0).uniform(-10, 10, 5000)
    expected = np.array([v**2 for v in values])
    np.testing.assert_array_equal(scalar_square(values), expected)
    values32 = values.astype(np.float32)
    np.testing.assert_array_equal(
        scalar_square(values32), np.array([v**2 for v in values32]), strict=True
    )


@pytest.mark.parametrize("goal_velocity", [0, 0.01, 1e-50])
def test_continuous_mountain_car_float32_fast_path(goal_velocity: float) -> None:
    """In-range float32 forces take the all-float32 path; it must round as the general one."""
    envs = Continuous_MountainCarVectorEnv(
        num_envs=NUM_ENVS, max_episode_steps=150, goal_velocity=goal_velocity
    )
    theirs = SyncVectorEnv(
        [
            lambda: vecgym.make(
                "MountainCarContinuous-v0", goal_velocity=goal_velocity, max_episode_steps=150
            )
        ]
        * NUM_ENVS
    )
    obs, _ = theirs.reset(seed=2)
    np.testing.assert_array_equal(envs.reset(seed=2)[0], obs, strict=True)
    rng = np.random.default_rng(2)
    terminated_any = False
    for _ in range(400):
        pump = np.where(obs[:, 1] >= 0, 1.0, -1.0) * rng.uniform(0.8, 1.0, NUM_ENVS)
        actions = np.where(rng.random(NUM_ENVS) < 0.1, 0.0, pump)[:, None].astype(np.float32)
        step_ours, step_theirs = envs.step(actions), theirs.step(actions)
        obs = step_theirs[0]
        for mine, other in zip(step_ours[:4], step_theirs[:4], strict=True):
            np.testing.assert_array_equal(mine, other, strict=True)
        terminated_any = terminated_any or bool(step_theirs[2].any())
    assert terminated_any
    theirs.close()


def test_legacy_scalar_promotion_is_numpy_1() -> None:
    from vecgym.envs.classic_control._base import LEGACY_SCALAR_PROMOTION

    numpy_1 = int(np.__version__.split(".")[0]) < 2
    assert numpy_1 is LEGACY_SCALAR_PROMOTION
