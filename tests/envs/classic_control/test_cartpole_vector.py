"""``CartPoleVectorEnv``: env ``i`` behaves bit for bit as ``make("CartPole-v1")`` seeded with
``seed + i``, under every autoreset mode, as ``SyncVectorEnv`` over single envs does."""

from __future__ import annotations

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
from vecgym.core.registration import OUT_OF_DATE_MSG
from vecgym.envs._render_base import UNSUPPORTED_RENDER_MODE_MSG
from vecgym.envs.classic_control.cartpole import CartPoleEnv, CartPoleVectorEnv
from vecgym.envs.classic_control.utils import BOUNDS_ORDER_MSG
from vecgym.vector import AutoresetMode, SyncVectorEnv
from vecgym.vector._arguments import SEED_LENGTH_MSG
from vecgym.vector.numpy_vector_env import (
    CLOSED_MSG,
    DISCRETE_ACTIONS_MSG,
    MAX_STEPS_MSG,
    NUM_ENVS_MSG,
)
from vecgym.vector.numpy_vector_env import NO_RENDER_MODE_MSG as VECTOR_NO_RENDER_MODE_MSG

MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]
NUM_ENVS = 4


def actions_for(seed: int, steps: int, num_envs: int = NUM_ENVS) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2, size=(steps, num_envs))


def test_matches_single_envs_with_time_limit_next_step() -> None:
    """The reference loop: independent ``make`` envs, reset on the step after an episode ends."""
    seed, steps, limit = 10, 700, 500
    envs = CartPoleVectorEnv(num_envs=NUM_ENVS, max_episode_steps=limit)
    singles = [vecgym.make("CartPole-v1") for _ in range(NUM_ENVS)]
    obs, infos = envs.reset(seed=seed)
    assert infos == {}
    for i, single in enumerate(singles):
        np.testing.assert_array_equal(obs[i], single.reset(seed=seed + i)[0], strict=True)
    reference = NextStepReference(singles)
    # Mostly "balance" actions (push towards the lean) so that some episodes reach the limit.
    rng = np.random.default_rng(0)
    for _ in range(steps):
        lean = obs[:, 2] + 0.5 * obs[:, 3]
        balance = (lean > 0).astype(np.int64)
        actions = np.where(rng.random(NUM_ENVS) < 0.1, 1 - balance, balance)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        assert rewards.dtype == np.float32
        assert infos == {}
        expected = reference.step([int(a) for a in actions])
        for i, (expected_obs, reward, terminated, truncated, _) in enumerate(expected):
            np.testing.assert_array_equal(obs[i], expected_obs, strict=True)
            assert (rewards[i], terminations[i], truncations[i]) == (reward, terminated, truncated)
    assert reference.truncated >= 1


@pytest.mark.parametrize("mode", MODES)
def test_matches_sync_vector_env_in_every_autoreset_mode(mode: AutoresetMode) -> None:
    seed, steps = 3, 400
    ours = CartPoleVectorEnv(num_envs=NUM_ENVS, max_episode_steps=60, autoreset_mode=mode)
    theirs = SyncVectorEnv(
        [lambda: vecgym.make("CartPole-v1", max_episode_steps=60)] * NUM_ENVS,
        autoreset_mode=mode,
    )
    assert ours.metadata["autoreset_mode"] is mode
    obs_ours, _ = ours.reset(seed=seed)
    obs_theirs, _ = theirs.reset(seed=seed)
    np.testing.assert_array_equal(obs_ours, obs_theirs, strict=True)
    ended_any = False
    for actions in actions_for(seed, steps):
        step_ours, step_theirs = ours.step(actions), theirs.step(actions)
        np.testing.assert_array_equal(step_ours[0], step_theirs[0], strict=True)
        np.testing.assert_array_equal(step_ours[1], step_theirs[1].astype(np.float32), strict=True)
        np.testing.assert_array_equal(step_ours[2], step_theirs[2], strict=True)
        np.testing.assert_array_equal(step_ours[3], step_theirs[3], strict=True)
        assert_same_array_infos(step_ours[4], step_theirs[4])
        ended = step_theirs[2] | step_theirs[3]
        if mode is AutoresetMode.DISABLED and ended.any():
            ended_any = True
            obs_theirs = reset_ended_envs_both(ours, theirs, actions, ended)
        ended_any = ended_any or bool(ended.any())
    assert ended_any
    theirs.close()


@pytest.mark.parametrize("mode", MODES)
def test_matches_gymnasium_sync_vector_env(mode: AutoresetMode) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    seed, steps = 21, 300
    ours = CartPoleVectorEnv(num_envs=3, autoreset_mode=mode)
    theirs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("CartPole-v1")] * 3,
        autoreset_mode=gymnasium.vector.AutoresetMode(mode.value),
    )
    np.testing.assert_array_equal(ours.reset(seed=seed)[0], theirs.reset(seed=seed)[0])
    for actions in actions_for(seed, steps, 3):
        step_ours, step_theirs = ours.step(actions), theirs.step(actions)
        for mine, other in zip(step_ours[:4], step_theirs[:4], strict=True):
            np.testing.assert_array_equal(mine, other)
        if mode is AutoresetMode.SAME_STEP:
            assert_same_array_infos(step_ours[4], step_theirs[4])
        ended = step_theirs[2] | step_theirs[3]
        if mode is AutoresetMode.DISABLED and ended.any():
            np.testing.assert_array_equal(
                ours.reset(options={"reset_mask": ended})[0],
                theirs.reset(options={"reset_mask": ended.copy()})[0],
            )
    theirs.close()


def test_make_vec_uses_the_vector_entry_point_with_the_spec_limits() -> None:
    envs = vecgym.make_vec("CartPole-v1", num_envs=2)
    assert isinstance(envs, CartPoleVectorEnv)
    assert envs.max_episode_steps == 500
    assert envs.spec is not None
    assert envs.spec.id == "CartPole-v1"
    with pytest.warns(
        DeprecationWarning, match=message_pattern(OUT_OF_DATE_MSG, env_id="CartPole-v0", latest=1)
    ):
        v0 = vecgym.make_vec("CartPole-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert v0.max_episode_steps == 200
    same_step = vecgym.make_vec("CartPole-v1", num_envs=2, autoreset_mode=AutoresetMode.SAME_STEP)
    assert same_step.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP


def test_spaces_and_metadata() -> None:
    envs = CartPoleVectorEnv(num_envs=3)
    single = CartPoleEnv()
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space.shape == (3, 4)
    assert envs.action_space.shape == (3,)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert CartPoleVectorEnv.metadata["render_modes"] == ["rgb_array"]
    assert CartPoleVectorEnv(autoreset_mode="SameStep").autoreset_mode is AutoresetMode.SAME_STEP


def test_reset_seeds_options_and_mask() -> None:
    envs = CartPoleVectorEnv(num_envs=3)
    obs, _ = envs.reset(seed=[5, None, 7], options={"low": -0.2, "high": 0.2})
    np.testing.assert_array_equal(
        obs[0], CartPoleEnv().reset(seed=5, options={"low": -0.2, "high": 0.2})[0]
    )
    np.testing.assert_array_equal(
        obs[2], CartPoleEnv().reset(seed=7, options={"low": -0.2, "high": 0.2})[0]
    )
    assert envs.np_random_seed[0] == 5
    assert envs.np_random_seed[2] == 7
    assert len(envs.np_random) == 3
    again, _ = envs.reset(seed=9, options={"reset_mask": np.array([False, True, False])})
    np.testing.assert_array_equal(again[[0, 2]], obs[[0, 2]])
    np.testing.assert_array_equal(again[1], CartPoleEnv().reset(seed=10)[0])
    with pytest.raises(ValueError, match=message_pattern(BOUNDS_ORDER_MSG)):
        envs.reset(options={"low": 1.0, "high": 0.0})
    with pytest.raises(ValueError, match=message_pattern(SEED_LENGTH_MSG, 3, 2)):
        envs.reset(seed=[1, 2])


def test_sutton_barto_reward() -> None:
    envs = CartPoleVectorEnv(num_envs=2, sutton_barto_reward=True)
    envs.reset(seed=0)
    seen_end = False
    for _ in range(200):
        _, rewards, terminations, _, _ = envs.step(np.ones(2, dtype=np.int64))
        expected = np.where(terminations, -1.0, 0.0).astype(np.float32)
        np.testing.assert_array_equal(rewards, expected)
        seen_end = seen_end or bool(terminations.any())
    assert seen_end


@pytest.mark.parametrize(
    ("actions", "exception", "match"),
    [
        (np.array([0, 1]), ValueError, "expected a batch of 3 actions"),
        (np.array([0, 1, 2]), error.InvalidAction, message_pattern(DISCRETE_ACTIONS_MSG)),
        (np.array([0.0, 1.0, 1.0]), error.InvalidAction, message_pattern(DISCRETE_ACTIONS_MSG)),
        (np.array([[0, 1, 1]]), ValueError, "expected a batch of 3 actions"),
    ],
)
def test_bad_actions(actions: np.ndarray, exception: type[Exception], match: str) -> None:
    envs = CartPoleVectorEnv(num_envs=3)
    envs.reset(seed=0)
    with pytest.raises(exception, match=match):
        envs.step(actions)


def test_errors_before_reset_after_close_and_bad_arguments() -> None:
    envs = CartPoleVectorEnv(num_envs=2)
    with pytest.raises(error.ResetNeeded):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.close()
    with pytest.raises(error.ClosedEnvironmentError, match=message_pattern(CLOSED_MSG)):
        envs.reset(seed=0)
    with pytest.raises(ValueError, match=message_pattern(NUM_ENVS_MSG)):
        CartPoleVectorEnv(num_envs=0)
    with pytest.raises(ValueError, match=message_pattern(MAX_STEPS_MSG)):
        CartPoleVectorEnv(max_episode_steps=0)
    with pytest.raises(error.UnsupportedMode, match=message_pattern(UNSUPPORTED_RENDER_MODE_MSG)):
        CartPoleVectorEnv(render_mode="human")
    with pytest.raises(ValueError, match="AutoresetMode"):
        CartPoleVectorEnv(autoreset_mode="Sometimes")


def test_render_returns_one_frame_per_env() -> None:
    envs = CartPoleVectorEnv(num_envs=2, render_mode="rgb_array")
    envs.reset(seed=0)
    frames = envs.render()
    assert isinstance(frames, list)
    assert len(frames) == 2
    assert all(f.shape == (400, 600, 3) and f.dtype == np.uint8 for f in frames)
    single = CartPoleEnv(render_mode="rgb_array")
    single.reset(seed=1)
    np.testing.assert_array_equal(frames[1], single.render())
    quiet = CartPoleVectorEnv(num_envs=2)
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match=message_pattern(VECTOR_NO_RENDER_MODE_MSG)):
        assert quiet.render() is None
