"""examples/custom_env.py: the Circle2D environment registers, passes check_env, and runs the
same through make, SyncVectorEnv and AsyncVectorEnv."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import vecgym
from vecgym.utils.env_checker import check_env

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "custom_env.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("custom_env_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # so that the env class pickles by reference in workers
    spec.loader.exec_module(module)
    module.register_circle2d()
    return module


def test_main_runs_single_sync_and_async(
    example: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    result = example.main(seed=1, steps=40)
    out = capsys.readouterr().out
    assert "check_env: passed" in out
    assert result["single"]["terminated"]
    assert result["single"]["final_distance"] <= 0.05
    assert result["sync_finished"] > 0
    assert result["async_matches_sync"]
    np.testing.assert_array_equal(result["sync_obs"], result["async_obs"])


def test_registered_env_behaviour(example: ModuleType) -> None:
    env = vecgym.make(example.ENV_ID)
    assert env.spec is not None
    assert env.spec.max_episode_steps == example.MAX_EPISODE_STEPS
    check_env(env.unwrapped)
    obs, info = env.reset(seed=3, options={"position": (0.0, 0.5)})
    np.testing.assert_array_equal(obs, np.array([0.0, 0.5], dtype=np.float32))
    assert info["distance"] == pytest.approx(0.5)
    # Moving straight up reaches the unit circle in five steps of 0.1.
    for step in range(5):
        obs, reward, terminated, truncated, info = env.step(np.array([0.0, 1.0], np.float32))
        assert not truncated
        assert terminated == (step == 4)
    assert reward == pytest.approx(example.TARGET_REACHED_BONUS - info["distance"])
    # Without moving, the episode is truncated by the registered time limit.
    env.reset(seed=3, options={"position": (0.0, 0.0)})
    for _ in range(example.MAX_EPISODE_STEPS - 1):
        assert env.step(np.zeros(2, np.float32))[3:4] == (False,)
    assert env.step(np.zeros(2, np.float32))[3]
    with pytest.raises(ValueError, match="position must be a pair"):
        env.reset(options={"position": (1.0, 2.0, 3.0)})


def test_same_seed_same_start(example: ModuleType) -> None:
    envs = vecgym.make_vec(example.ENV_ID, num_envs=3, vectorization_mode="sync")
    obs, _ = envs.reset(seed=11)
    single = vecgym.make(example.ENV_ID)
    np.testing.assert_array_equal(obs[2], single.reset(seed=13)[0])
    envs.close()


def test_runs_as_a_script() -> None:
    completed = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=60, check=True
    )
    assert "same as sync: True" in completed.stdout
    assert "check_env: passed" in completed.stdout
