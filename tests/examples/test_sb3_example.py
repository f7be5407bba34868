"""examples/sb3_ppo_cartpole.py: SB3's PPO through SB3VecEnv(AsyncVectorEnv(...)).

A short smoke run always; the full run (which solves CartPole-v1, a few minutes on 2 busy cores)
only with ``VECGYM_RUN_SLOW=1``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("stable_baselines3")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "sb3_ppo_cartpole.py"
SUMMARY = re.compile(r"^done: env_steps=(\d+) wall_s=[\d.]+ sps=\d+ eval_return=([\d.]+)\+-")


def _run(*args: str, timeout: float) -> tuple[subprocess.CompletedProcess[str], re.Match[str]]:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "PYTHONPATH": str(SCRIPT.parents[1])},
    )
    summary = [m for line in result.stdout.splitlines() if (m := SUMMARY.match(line))]
    assert len(summary) == 1, result.stdout + result.stderr
    return result, summary[0]


def test_sb3_example_smoke_run() -> None:
    result, summary = _run(
        *("--total-steps", "1024", "--num-envs", "4", "--num-workers", "2"),
        *("--eval-episodes", "2", "--target", "0", "--log-every", "512"),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert int(summary.group(1)) >= 1024
    assert "steps=    512 mean_return" in result.stdout
    assert result.stdout.rstrip().endswith("solved")


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("VECGYM_RUN_SLOW") != "1", reason="set VECGYM_RUN_SLOW=1")
def test_sb3_example_solves_cartpole() -> None:
    result, summary = _run(timeout=1800)
    assert result.returncode == 0, result.stdout
    assert float(summary.group(2)) >= 475.0
