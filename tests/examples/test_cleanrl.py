"""CleanRL-style collection with ``import vecgym as gym``: examples/cleanrl_ppo_continuous.py and a
``ppo_atari.py``-style Atari stack.

The same env-building code runs once with ``gym`` being vecgym and once with ``gym`` being
Gymnasium (the one line CleanRL users change); for the same seeds and actions the vector envs
return the same observations, rewards, terminations, truncations and infos.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.examples import imported_example, iteration_marks, run_example
from tests.support.rollouts import assert_same_rollouts, vector_rollout

gymnasium = pytest.importorskip("gymnasium")

SMOKE_TIMEOUT_S = 240


@pytest.fixture(scope="module")
def cleanrl_example() -> Iterator[ModuleType]:
    pytest.importorskip("torch", reason="the CleanRL example trains with torch")
    pytest.importorskip("mujoco", reason="Hopper-v5 needs the `mujoco` extra")
    yield from imported_example("cleanrl_ppo_continuous")


def test_cleanrl_example_runs(cleanrl_example: ModuleType) -> None:
    lines = run_example(
        "cleanrl_ppo_continuous.py",
        *("--total-timesteps", "1024", "--num-envs", "2", "--num-steps", "256"),
        *("--update-epochs", "1", "--num-minibatches", "4", "--async"),
        timeout=SMOKE_TIMEOUT_S,
    )
    assert any(line.startswith("global_step=") and "episodic_return=" in line for line in lines)
    assert iteration_marks(lines) == ["iteration=1", "iteration=2"]


def test_cleanrl_env_code_gives_gymnasium_trajectories(
    cleanrl_example: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    def build() -> Any:
        gym = cleanrl_example.gym
        return gym.vector.SyncVectorEnv(
            [cleanrl_example.make_env("Hopper-v5", 0.99) for _ in range(2)]
        )

    ours = build()
    assert cleanrl_example.gym is vecgym
    assert isinstance(ours, vecgym.vector.VectorEnv)
    monkeypatch.setattr(cleanrl_example, "gym", gymnasium)  # CleanRL's original import
    theirs = build()
    assert isinstance(theirs, gymnasium.vector.VectorEnv)
    assert_same_rollouts(
        vector_rollout(ours, 9, 150), vector_rollout(theirs, 9, 150), ignore_wall_time=True
    )


def make_atari_env(gym: Any, env_id: str) -> Callable[[], Any]:
    """A ``ppo_atari.py``-style env (Gymnasium 1.x wrappers), built from the module ``gym``."""

    def thunk() -> Any:
        env = gym.make(env_id, frameskip=1)
        env = gym.wrappers.RecordEpisodeStatistics(env)
        env = gym.wrappers.AtariPreprocessing(
            env, noop_max=30, frame_skip=4, screen_size=84, terminal_on_life_loss=True
        )
        env = gym.wrappers.ClipReward(env, min_reward=-1, max_reward=1)
        return gym.wrappers.FrameStackObservation(env, 4)

    return thunk


@pytest.mark.parametrize("env_id", ["ALE/Breakout-v5", "ALE/Pong-v5"])
def test_ppo_atari_style_stack_gives_gymnasium_trajectories(env_id: str) -> None:
    ale_py = pytest.importorskip("ale_py", reason="Atari envs need the `atari` extra")
    pytest.importorskip("cv2", reason="Gymnasium's AtariPreprocessing needs OpenCV")
    gymnasium.register_envs(ale_py)
    ours = vecgym.vector.SyncVectorEnv([make_atari_env(vecgym, env_id) for _ in range(2)])
    theirs = gymnasium.vector.SyncVectorEnv([make_atari_env(gymnasium, env_id) for _ in range(2)])
    assert ours.single_observation_space == vecgym.spaces.Box(0, 255, (4, 84, 84), np.uint8)
    assert_same_rollouts(
        vector_rollout(ours, 2, 120), vector_rollout(theirs, 2, 120), ignore_wall_time=True
    )
