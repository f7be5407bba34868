"""``vecgym bench --compare``'s PufferLib rows over the real PufferLib.

PufferLib 3.0.0 does not build from PyPI on a machine that reaches only the package registries
(its build downloads from GitHub), so these tests skip where ``pufferlib.vector`` does not import;
docs/benchmarks.md says how its source tree was run beside vecgym. Importing ``pufferlib`` makes a
``resources`` symlink in the current directory: each test runs from its temporary directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vecgym.cli.measure import COUNT_NEXT_STEP, measure_stepper
from vecgym.cli.runtimes import puffer_creator, puffer_stepper


@pytest.fixture
def pufferlib_vector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.chdir(tmp_path)
    pytest.importorskip("gymnasium")
    return pytest.importorskip("pufferlib.vector")


def _cartpole() -> Any:
    import gymnasium

    return gymnasium.make("CartPole-v1")


def test_pufferlib_resets_an_ended_env_at_its_next_step(pufferlib_vector: Any) -> None:
    # What the stepper's NEXT_STEP counting rests on: the step after an episode's end returns the
    # reset's observation with no reward, whatever its action.
    creator = puffer_creator(_cartpole)
    envs = pufferlib_vector.make(creator, backend=pufferlib_vector.Serial, num_envs=1)
    try:
        envs.reset(seed=0)
        ended_at = None
        for t in range(500):
            _, reward, terminal, truncation, _ = envs.step(np.ones(1, dtype=np.int64))
            if ended_at is not None:
                assert t == ended_at + 1
                assert reward[0] == 0.0
                assert not terminal[0]
                assert not truncation[0]
                break
            if terminal[0] or truncation[0]:
                ended_at = t
        assert ended_at is not None  # always pushing right ends an episode within 500 steps
    finally:
        envs.close()


@pytest.mark.parametrize(("backend", "workers"), [("Serial", None), ("Multiprocessing", 1)])
def test_puffer_stepper_steps_and_closes(
    pufferlib_vector: Any, backend: str, workers: int | None
) -> None:
    stepper, actions = puffer_stepper(_cartpole, backend, 4, workers, seed=0)
    try:
        assert stepper.counting == COUNT_NEXT_STEP
        assert np.shape(actions[0]) == (4,)
        measurement = measure_stepper(stepper, actions, seconds=0.2)
    finally:
        stepper.close()
    # random actions end CartPole episodes every few dozen steps: their reset steps not counted
    assert 0 < measurement.env_steps < 4 * measurement.calls
