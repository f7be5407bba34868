"""CleanRL's ``ppo_atari.py`` env stack with ``import vecgym as gym`` (cleanrl_ppo_atari.py).

The stack puts Stable-Baselines3's Atari wrappers (``gymnasium.Wrapper`` subclasses) between
vecgym's wrappers. The example's own ``make_env`` runs once with ``gym`` being vecgym and once
with ``gym`` being Gymnasium (CleanRL's original import); for the same seeds and actions, through
SyncVectorEnv and AsyncVectorEnv, the vector envs return the same observations, rewards,
terminations, truncations and infos as Gymnasium's SyncVectorEnv over Gymnasium's wrappers.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.examples import imported_example, iteration_marks, run_example
from tests.support.rollouts import assert_same_rollouts, without_wall_time

gymnasium = pytest.importorskip("gymnasium")

SMOKE_TIMEOUT_S = 300
ENV_ID = "BreakoutNoFrameskip-v4"


@pytest.fixture(scope="module")
def atari_example() -> Iterator[ModuleType]:
    pytest.importorskip("torch", reason="the CleanRL example trains with torch")
    pytest.importorskip("ale_py", reason="Atari envs need the `atari` extra")
    pytest.importorskip("cv2", reason="ResizeObservation matches Gymnasium with OpenCV")
    pytest.importorskip("stable_baselines3", reason="ppo_atari.py uses SB3's Atari wrappers")
    yield from imported_example("cleanrl_ppo_atari")


def _rollout(envs: Any, seed: int, actions: np.ndarray) -> list[Any]:
    """``reset(seed=seed)`` then one step per row of ``actions``; episode wall times dropped."""
    record: list[Any] = [envs.reset(seed=seed)]
    record += [envs.step(row) for row in actions]
    envs.close()
    return [without_wall_time(result) for result in record]


def _vector_envs(module: ModuleType, gym: Any, vector: str, num_envs: int) -> Any:
    """``gym.vector.<vector>`` over the example's own thunks, built with ``module.gym = gym``."""
    saved = module.gym
    module.gym = gym
    try:
        return getattr(gym.vector, vector)([module.make_env(ENV_ID) for _ in range(num_envs)])
    finally:
        module.gym = saved


@pytest.mark.parametrize("vector", ["SyncVectorEnv", "AsyncVectorEnv"])
def test_ppo_atari_stack_gives_gymnasium_trajectories(
    atari_example: ModuleType, vector: str
) -> None:
    num_envs, steps = 2, 300
    theirs = _vector_envs(atari_example, gymnasium, "SyncVectorEnv", num_envs)
    ours = _vector_envs(atari_example, vecgym, vector, num_envs)
    assert atari_example.gym is vecgym
    assert isinstance(ours, vecgym.vector.VectorEnv)
    assert ours.single_observation_space == vecgym.spaces.Box(0, 255, (4, 84, 84), np.uint8)
    assert ours.single_action_space == vecgym.spaces.Discrete(4)
    assert theirs.single_observation_space.shape == ours.single_observation_space.shape
    # Random actions, with FIRE often enough that the ball is served and lives are lost.
    actions = np.random.default_rng(3).integers(0, 4, size=(steps, num_envs))
    mine, ref = _rollout(ours, 7, actions), _rollout(theirs, 7, actions)
    assert len(mine) == steps + 1
    assert_same_rollouts(mine, ref)
    rewards = np.array([result[1] for result in ref[1:]])
    assert rewards.any(), "the rollout should score (the comparison covers rewards)"
    assert any(result[2].any() for result in ref[1:]), "EpisodicLifeEnv should end an episode"


def test_ppo_atari_single_env_stack_is_a_gymnasium_env(atari_example: ModuleType) -> None:
    env = atari_example.make_env(ENV_ID)()
    assert isinstance(env, vecgym.Env)
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env.observation_space, vecgym.spaces.Box)
    names = [type(layer).__name__ for layer in _layers(env)]
    assert names[:4] == [
        "FrameStackObservation",
        "GrayscaleObservation",
        "ResizeObservation",
        "GymnasiumEnv",
    ]
    assert "NoopResetEnv" in names
    assert "RecordEpisodeStatistics" in names
    obs, _ = env.reset(seed=1)
    assert obs.shape == (4, 84, 84)
    env.close()


def _layers(env: Any) -> Iterator[Any]:
    while True:
        yield env
        inner = getattr(env, "env", None) or getattr(env, "gymnasium_env", None)
        if inner is None:
            return
        env = inner


def test_cleanrl_atari_example_runs(atari_example: ModuleType) -> None:
    lines = run_example(
        "cleanrl_ppo_atari.py",
        *("--total-timesteps", "512", "--num-envs", "2", "--num-steps", "128"),
        *("--update-epochs", "1", "--async"),
        timeout=SMOKE_TIMEOUT_S,
    )
    assert iteration_marks(lines) == ["iteration=1", "iteration=2"]
