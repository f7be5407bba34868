"""Worker placement: AsyncVectorEnv with and without ``pin_workers``; the cost of ``check_actions``.

Usage::

    python benchmarks/bench_placement.py [--seconds 2] [--repeats 3] [--json out.json]

Workloads: CartPole-v1 (through ``make``) with 64 envs, and a pure-Python env that burns ~500 us
of CPU per step with 4 envs. Each case runs ``--repeats`` times, cases interleaved so that drifts of
the (shared) machine's load hit all of them alike; the best run counts. Actions are generated
before timing and NEXT_STEP reset steps are not counted as env steps. Every case keeps the default
``worker_threads=1`` (BLAS / OpenMP pools of one thread in the workers).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import vecgym
from vecgym.spaces import Box, Discrete
from vecgym.vector import AsyncVectorEnv


class BurnEnv(vecgym.Env[Any, Any]):
    """Burns ~500 us of CPU per step (a pure-Python simulator stand-in)."""

    def __init__(self, seconds: float = 500e-6) -> None:
        self.observation_space = Box(-1.0, 1.0, shape=(4,), dtype=np.float32)
        self.action_space = Discrete(2)
        self.seconds = seconds

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        return np.zeros(4, dtype=np.float32), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        end = time.perf_counter() + self.seconds
        while time.perf_counter() < end:
            pass
        return np.zeros(4, dtype=np.float32), 1.0, False, False, {}


def _factory(workload: str) -> Callable[[], Any]:
    if workload == "cartpole":
        return lambda: vecgym.make("CartPole-v1")
    return BurnEnv


def _rate(envs: AsyncVectorEnv, seconds: float) -> float:
    """Env steps per second over ``seconds`` (NEXT_STEP reset steps not counted)."""
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 2, size=(256, envs.num_envs))
    envs.reset(seed=0)
    resetting = np.zeros(envs.num_envs, dtype=np.bool_)
    for i in range(20):  # warm up
        _, _, terminated, truncated, _ = envs.step(actions[i])
        resetting = terminated | truncated
    steps, i = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, truncated, _ = envs.step(actions[i & 255])
        steps += envs.num_envs - int(resetting.sum())
        resetting = terminated | truncated
        i += 1
    return steps / (time.perf_counter() - start)


CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("cartpole", 64, {"pin_workers": False}),
    ("cartpole", 64, {"pin_workers": True}),
    ("cartpole", 64, {"check_actions": False}),
    ("burn500us", 4, {"pin_workers": False}),
    ("burn500us", 4, {"pin_workers": True}),
]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=None, help="write the results to this JSON file")
    args = parser.parse_args(argv)
    best: dict[int, float] = {}
    loads = [os.getloadavg()]
    for _ in range(args.repeats):
        for index, (workload, num_envs, kwargs) in enumerate(CASES):
            envs = AsyncVectorEnv([_factory(workload)] * num_envs, context="fork", **kwargs)
            try:
                best[index] = max(best.get(index, 0.0), _rate(envs, args.seconds))
            finally:
                envs.close()
        loads.append(os.getloadavg())
    rows = []
    print("| workload | envs | option | steps/s (best) | vs default |")
    print("|---|---:|---|---:|---:|")
    for index, (workload, num_envs, kwargs) in enumerate(CASES):
        baseline = next(
            best[j]
            for j, (w, n, kw) in enumerate(CASES)
            if w == workload and n == num_envs and kw == {"pin_workers": False}
        )
        option = ", ".join(f"{key}={value}" for key, value in kwargs.items())
        ratio = best[index] / baseline
        print(f"| {workload} | {num_envs} | {option} | {best[index]:,.0f} | {ratio:.3f}x |")
        rows.append(
            {
                "workload": workload,
                "num_envs": num_envs,
                "options": kwargs,
                "steps_per_s": round(best[index]),
                "vs_default": round(ratio, 4),
            }
        )
    shown = [tuple(round(x, 2) for x in load) for load in loads]
    print(f"load averages (1, 5, 15 min) after each round: {shown}")
    result = {
        "rows": rows,
        "seconds": args.seconds,
        "repeats": args.repeats,
        "machine": {
            "cpus": os.cpu_count(),
            "affinity": sorted(os.sched_getaffinity(0))
            if hasattr(os, "sched_getaffinity")
            else None,
            "python": platform.python_version(),
            "numpy": np.__version__,
            "load_averages": loads,
        },
    }
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=2)
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
