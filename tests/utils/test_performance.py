"""The throughput benchmarks, driven by a fake clock (tests never measure real time)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.checker_envs import CheckerEnv
from vecgym.spaces import Box, Discrete, MultiDiscrete
from vecgym.utils import performance
from vecgym.vector import AutoresetMode


def fake_clock(monkeypatch: pytest.MonkeyPatch, *timestamps: float) -> Iterator[float]:
    """Make ``performance.time.time()`` return ``timestamps`` one per call."""
    ticks = iter(timestamps)
    monkeypatch.setattr(performance.time, "time", lambda: next(ticks))
    return ticks


def episode_env(length: int, log: list[str]) -> CheckerEnv:
    """An env whose episodes last ``length`` steps, logging every reset and step."""

    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        log.append(f"reset({seed})")
        self.seed_base(seed)
        self.t = 0
        return self.sample_obs(), {}

    def step(self: Any, action: Any) -> Any:
        log.append("step")
        self.t += 1
        return self.sample_obs(), 0.0, self.t >= length, False, {}

    def render(self: Any) -> Any:
        log.append("render")
        return None

    return CheckerEnv(
        Box(0.0, 1.0, (2,), np.float32), Discrete(3), reset=reset, step=step, render=render
    )


def test_uses_the_time_module_through_its_own_attribute() -> None:
    assert performance.time is time


def test_benchmark_step_counts_steps_over_elapsed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[str] = []
    env = episode_env(2, log)
    fake_clock(monkeypatch, 10.0, 10.5, 11.0, 11.5, 12.5)
    assert performance.benchmark_step(env, target_duration=2, seed=7) == pytest.approx(4 / 2.5)
    # the seeded reset before the clock, then an unseeded reset after each finished episode
    assert log == ["reset(7)", "step", "step", "reset(None)", "step", "step", "reset(None)"]


def test_benchmark_step_seed_makes_actions_reproducible(monkeypatch: pytest.MonkeyPatch) -> None:
    def actions() -> list[int]:
        seen: list[int] = []

        def step(self: Any, action: Any) -> Any:
            seen.append(int(action))
            return self.sample_obs(), 0.0, False, False, {}

        env = CheckerEnv(Box(0.0, 1.0, (2,), np.float32), Discrete(100), step=step)
        fake_clock(monkeypatch, 0.0, *[0.0] * 9, 1.0)
        performance.benchmark_step(env, target_duration=0, seed=3)
        return seen

    first = actions()
    assert len(first) == 10
    assert actions() == first


def test_benchmark_init(monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[str] = []
    fake_clock(monkeypatch, 0.0, 1.0, 2.0, 3.0)
    rate = performance.benchmark_init(lambda: episode_env(5, log), target_duration=2, seed=4)
    assert rate == pytest.approx(3 / 3.0)
    assert log == ["reset(4)"] * 3


def test_benchmark_render(monkeypatch: pytest.MonkeyPatch) -> None:
    log: list[str] = []
    fake_clock(monkeypatch, 0.0, 0.25, 1.25)
    assert performance.benchmark_render(episode_env(5, log), target_duration=1) == pytest.approx(
        2 / 1.25
    )
    assert log == ["render", "render"]


class FakeVectorEnv:
    """The parts of a vector env the benchmark uses; sub-env ``i`` finishes at steps ``ends[i]``."""

    def __init__(self, mode: Any, ends: list[set[int]]) -> None:
        self.num_envs = len(ends)
        self.metadata = {"autoreset_mode": mode}
        self.action_space = MultiDiscrete([2] * self.num_envs)
        self.ends = ends
        self.t = 0
        self.calls: list[Any] = []

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        self.calls.append(
            ("reset", seed, None if options is None else options["reset_mask"].tolist())
        )
        self.t = 0
        return np.zeros(self.num_envs), {}

    def step(self, action: Any) -> Any:
        self.calls.append("step")
        self.t += 1
        terminated = np.array([self.t in end for end in self.ends])
        return (
            np.zeros(self.num_envs),
            np.zeros(self.num_envs),
            terminated,
            np.zeros(self.num_envs, bool),
            {},
        )


@pytest.mark.parametrize(
    ("mode", "steps"),
    [
        # env 0 ends at step 1, so its step 2 is a reset step that NEXT_STEP does not count
        (AutoresetMode.NEXT_STEP, 3 + 2 + 3),
        ("NextStep", 3 + 2 + 3),
        (AutoresetMode.SAME_STEP, 9),
        (AutoresetMode.DISABLED, 9),
    ],
)
def test_benchmark_vector_step_counts_env_steps(
    monkeypatch: pytest.MonkeyPatch, mode: Any, steps: int
) -> None:
    env = FakeVectorEnv(mode, [{1}, set(), set()])
    fake_clock(monkeypatch, 0.0, 1.0, 2.0, 4.0)
    assert performance.benchmark_vector_step(env, target_duration=3, seed=1) == pytest.approx(
        steps / 4.0
    )  # type: ignore[arg-type]
    # warm-up (seeded reset, one step, seeded reset) happens before the clock starts
    assert env.calls[:3] == [("reset", 1, None), "step", ("reset", 1, None)]
    if mode is AutoresetMode.DISABLED:
        assert ("reset", None, [True, False, False]) in env.calls
    else:
        assert env.calls[3:] == ["step"] * 3


def test_benchmark_vector_step_without_mode_assumes_next_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = FakeVectorEnv(None, [{1}, set()])
    del env.metadata["autoreset_mode"]
    fake_clock(monkeypatch, 0.0, 1.0, 2.0)
    assert performance.benchmark_vector_step(env, target_duration=1, seed=None) == pytest.approx(
        3 / 2.0
    )  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_benchmark_vector_step_with_sync_vector_env_matches_gymnasium(
    monkeypatch: pytest.MonkeyPatch, mode: AutoresetMode
) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils import performance as gymnasium_performance

    ours = vecgym.vector.SyncVectorEnv(
        [lambda: vecgym.make("CartPole-v1", max_episode_steps=2) for _ in range(3)],
        autoreset_mode=mode,
    )
    theirs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("CartPole-v1", max_episode_steps=2) for _ in range(3)],
        autoreset_mode=gymnasium.vector.AutoresetMode(mode.value),
    )
    try:
        timestamps = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        fake_clock(monkeypatch, *timestamps)
        our_rate = performance.benchmark_vector_step(ours, target_duration=5, seed=0)
        fake_clock(monkeypatch, *timestamps)
        their_rate = gymnasium_performance.benchmark_vector_step(theirs, target_duration=5, seed=0)
    finally:
        ours.close()
        theirs.close()
    assert our_rate == their_rate
