"""CleanRL-style collection with ``import vecgym as gym``: examples/cleanrl_ppo_continuous.py and a
``ppo_atari.py``-style Atari stack.

The same env-building code runs once with ``gym`` being vecgym and once with ``gym`` being
Gymnasium (the one line CleanRL users change); for the same seeds and actions the vector envs
return the same observations, rewards, terminations, truncations and infos.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import vecgym
from vecgym.utils.env_checker import data_equivalence

gymnasium = pytest.importorskip("gymnasium")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SMOKE_TIMEOUT_S = 240


@pytest.fixture(scope="module")
def cleanrl_example() -> Iterator[ModuleType]:
    pytest.importorskip("torch", reason="the CleanRL example trains with torch")
    pytest.importorskip("mujoco", reason="Hopper-v5 needs the `mujoco` extra")
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module("cleanrl_ppo_continuous")
    finally:
        sys.path.remove(str(EXAMPLES))


def _vector_rollout(envs: Any, seed: int, steps: int) -> list[Any]:
    envs.action_space.seed(seed)
    record: list[Any] = [envs.reset(seed=seed)]
    record += [envs.step(envs.action_space.sample()) for _ in range(steps)]
    envs.close()
    return record


def _without_wall_time(result: Any) -> Any:
    """``result`` without RecordEpisodeStatistics' episode wall-clock times (never equal)."""
    info = result[-1]
    if "episode" in info:
        info["episode"] = {k: v for k, v in info["episode"].items() if k not in ("t", "_t")}
    return result


def _assert_same(ours: list[Any], theirs: list[Any]) -> None:
    assert len(ours) == len(theirs)
    for mine, ref in zip(ours, theirs, strict=True):
        assert data_equivalence(_without_wall_time(mine), _without_wall_time(ref))


def test_cleanrl_example_runs(cleanrl_example: ModuleType) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "cleanrl_ppo_continuous.py"),
            *("--total-timesteps", "1024", "--num-envs", "2", "--num-steps", "256"),
            *("--update-epochs", "1", "--num-minibatches", "4", "--async"),
        ],
        capture_output=True,
        text=True,
        timeout=SMOKE_TIMEOUT_S,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("global_step=") and "episodic_return=" in line for line in lines)
    assert [line.split()[0] for line in lines if line.startswith("iteration=")] == [
        "iteration=1",
        "iteration=2",
    ]


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
    _assert_same(_vector_rollout(ours, 9, 150), _vector_rollout(theirs, 9, 150))


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
    _assert_same(_vector_rollout(ours, 2, 120), _vector_rollout(theirs, 2, 120))
