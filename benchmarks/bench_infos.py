"""What 4 numeric info keys a step cost: the same env with and without infos, side by side.

Usage::

    python benchmarks/bench_infos.py [--num-envs 64] [--env-us 20] [--rounds 3] [--seconds 2]

The env burns ``--env-us`` microseconds of CPU a step and returns either ``{}`` or 4 numeric
keys (two Python floats, a numpy float64, a numpy int64: what MuJoCo's and Atari's infos hold).
Each runtime (vecgym Async with its default workers, vecgym Async+parent, vecgym Sync) runs both
variants, interleaved for ``--rounds`` rounds so that load drifts hit both alike; the figure is
the rate with infos over the rate without (1.0: infos cost nothing; issue 13's target is >= 0.91,
i.e. at most 10% more time per step). The "single env" row is the env alone in a plain loop:
building the info dict is part of the env's own step, so its ratio is the share of the cost that
no vectoriser can remove. Steps are counted by :mod:`vecgym.cli.measure`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import numpy as np

import vecgym
from vecgym.cli.measure import measure_single_env, measure_stepper, usable_cores
from vecgym.cli.runtimes import BenchTarget, parent_share, vector_stepper
from vecgym.spaces import Box, Discrete


class InfoBurnEnv(vecgym.Env[Any, Any]):
    """Burns ``burn_s`` of CPU a step; returns 4 numeric info keys when ``infos``."""

    def __init__(self, burn_s: float, infos: bool) -> None:
        self.observation_space = Box(-1.0, 1.0, (4,), np.float32)
        self.action_space = Discrete(2)
        self.burn_s = burn_s
        self.infos = infos
        self.t = 0
        self._obs = np.zeros(4, dtype=np.float32)

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self.t = 0
        return self._obs, {}

    def step(self, action: Any) -> Any:
        end = time.perf_counter() + self.burn_s
        while time.perf_counter() < end:
            pass
        self.t += 1
        info: dict[str, Any] = (
            {
                "x_position": 0.5 * self.t,
                "reward_ctrl": -0.1,
                "x_velocity": np.float64(self.t),
                "frame_number": np.int64(4 * self.t),
            }
            if self.infos
            else {}
        )
        return self._obs, 1.0, False, self.t >= 1000, info


def _build(runtime: str, num_envs: int, burn_s: float, infos: bool) -> Any:
    from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

    fns = [lambda: InfoBurnEnv(burn_s, infos)] * num_envs
    if runtime == "vecgym Sync":
        return SyncVectorEnv(fns)
    if runtime == "vecgym Async":
        return AsyncVectorEnv(fns, copy=False)
    workers = max(1, usable_cores() - 1)
    return AsyncVectorEnv(
        fns, copy=False, num_workers=workers, parent_envs=parent_share(num_envs, workers)
    )


def _rate(runtime: str, num_envs: int, burn_s: float, infos: bool, seconds: float) -> float:
    if runtime == "single env":
        env = InfoBurnEnv(burn_s, infos)
        return measure_single_env(env, [0] * 256, seconds).steps_per_s
    stepper, actions = vector_stepper(_build(runtime, num_envs, burn_s, infos), BenchTarget("b"))
    try:
        return measure_stepper(stepper, actions, seconds).steps_per_s
    finally:
        stepper.close()


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--env-us", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args(argv)
    burn_s = args.env_us * 1e-6
    runtimes = ["single env", "vecgym Async", "vecgym Async+parent", "vecgym Sync"]
    load_start = os.getloadavg()[0]
    ratios: dict[str, list[float]] = {name: [] for name in runtimes}
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in runtimes}
    for _ in range(args.rounds):
        for name in runtimes:
            empty = _rate(name, args.num_envs, burn_s, False, args.seconds)
            full = _rate(name, args.num_envs, burn_s, True, args.seconds)
            ratios[name].append(full / empty)
            rates[name].append((empty, full))
    load_end = os.getloadavg()[0]
    print(
        f"## {args.env_us:g} us env, {args.num_envs} envs, {usable_cores()} usable cores; "
        f"load average {load_start:.2f} at start, {load_end:.2f} at end\n"
    )
    print("| runtime | steps/s, empty infos | steps/s, 4 numeric keys | ratio (median, range) |")
    print("|---|---:|---:|---:|")
    for name in runtimes:
        empty = statistics.median(e for e, _ in rates[name])
        full = statistics.median(f for _, f in rates[name])
        values = ratios[name]
        print(
            f"| {name} | {empty:,.0f} | {full:,.0f} | {statistics.median(values):.2f} "
            f"({min(values):.2f}-{max(values):.2f}) |"
        )
    return {"ratios": ratios, "rates": rates, "load": [load_start, load_end]}


if __name__ == "__main__":
    main()
