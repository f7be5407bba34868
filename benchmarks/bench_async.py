"""Env steps per second of vecgym's and Gymnasium's vector envs, side by side in one run.

Usage::

    python benchmarks/bench_async.py [--quick] [--json out.json]

Three workloads: CartPole-v1 (through ``make``), a pure-Python env that burns ~500 us of CPU per
step, and an env returning 84x84x4 uint8 frames. For each, vecgym's SyncVectorEnv and
AsyncVectorEnv run beside Gymnasium's SyncVectorEnv and AsyncVectorEnv with the same number of
envs (and ``vecgym-async+parent``: ``parent_envs``, the parent stepping an equal share of the
envs beside one worker fewer). Steps are timed and counted by :mod:`vecgym.cli.measure`, as
``vecgym bench`` does: actions are generated before timing, a warm-up precedes each run, and only
real env steps count (a NEXT_STEP reset step, the step after an episode ended, which only resets,
is not an env step).
The physical bound is the single-env step rate (one env, stepped in a plain loop) times the
usable physical cores (:func:`vecgym.cli.measure.usable_cores`).
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
import psutil

from vecgym.cli.measure import measure_single_env, measure_stepper, usable_cores
from vecgym.cli.runtimes import BenchTarget, parent_share, vector_stepper

BURN_S = 500e-6
FRAME_SHAPE = (84, 84, 4)


def _env_classes(lib: Any) -> tuple[type, type]:
    """A CPU-burning env and a frame env written against ``lib`` (vecgym or gymnasium)."""

    class BurnEnv(lib.Env):
        def __init__(self) -> None:
            self.observation_space = lib.spaces.Box(-1, 1, (4,), np.float32)
            self.action_space = lib.spaces.Discrete(2)
            self._obs = np.zeros(4, dtype=np.float32)

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            super().reset(seed=seed)
            return self._obs.copy(), {}

        def step(self, action: Any) -> Any:
            end = time.perf_counter() + BURN_S
            while time.perf_counter() < end:
                pass
            return self._obs.copy(), 1.0, False, False, {}

    class FrameEnv(lib.Env):
        def __init__(self) -> None:
            self.observation_space = lib.spaces.Box(0, 255, FRAME_SHAPE, np.uint8)
            self.action_space = lib.spaces.Discrete(4)
            self._frame = np.random.default_rng(0).integers(0, 255, FRAME_SHAPE, dtype=np.uint8)
            self.t = 0

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            super().reset(seed=seed)
            self.t = 0
            return self._frame, {}

        def step(self, action: Any) -> Any:
            self.t += 1
            self._frame[0, 0, 0] = self.t % 255
            return self._frame, 1.0, False, self.t >= 1000, {}

    return BurnEnv, FrameEnv


def _factories(lib: Any, workload: str) -> Callable[[], Any]:
    burn, frame = _env_classes(lib)
    if workload == "cartpole":
        return lambda: lib.make("CartPole-v1")
    return burn if workload == "burn500us" else frame


def _time_vector(envs: Any, workload: str, seconds: float) -> float:
    """Env steps per second of ``envs``, counted by :func:`vecgym.cli.measure.measure_stepper`
    (as ``vecgym bench`` counts them: ``NEXT_STEP`` reset steps are not env steps)."""
    stepper, actions = vector_stepper(envs, BenchTarget(workload))
    return measure_stepper(stepper, actions, seconds).steps_per_s


def _single_rate(lib: Any, workload: str, seconds: float) -> float:
    """Steps per second of one env in a plain loop, via :func:`measure_single_env`."""
    env = _factories(lib, workload)()
    try:
        actions = np.random.default_rng(0).integers(0, int(env.action_space.n), 4096).tolist()
        return measure_single_env(env, actions, seconds).steps_per_s
    finally:
        env.close()


def _make(impl: str, workload: str, num_envs: int, workers: int | None) -> Any:
    import gymnasium

    import vecgym
    from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

    lib = gymnasium if impl.startswith("gymnasium") else vecgym
    fns = [_factories(lib, workload) for _ in range(num_envs)]
    if impl == "vecgym-sync":
        return SyncVectorEnv(fns)
    if impl == "vecgym-async":
        return AsyncVectorEnv(fns, num_workers=workers, copy=False)
    if impl == "vecgym-async+parent":  # one worker fewer; the parent steps an equal share
        processes = max(1, usable_cores() - 1)
        parent = parent_share(num_envs, processes)
        return AsyncVectorEnv(fns, num_workers=processes, copy=False, parent_envs=parent)
    if impl == "gymnasium-sync":
        return gymnasium.vector.SyncVectorEnv(fns)
    return gymnasium.vector.AsyncVectorEnv(fns, copy=False)


def _plan(quick: bool) -> list[tuple[str, int, list[int | None]]]:
    cartpole = [1, 8, 64] if quick else [1, 2, 8, 16, 64, 128, 256]
    default: list[int | None] = [None]
    swept: list[int | None] = [None, 1, 4]
    return [
        *(("cartpole", n, default if n != 64 else swept) for n in cartpole),
        *(("burn500us", n, default) for n in ([4] if quick else [2, 4, 8])),
        *(("frames84x84x4", n, default) for n in ([16] if quick else [4, 16, 64])),
    ]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes, shorter runs")
    parser.add_argument("--seconds", type=float, default=None, help="time per measurement")
    parser.add_argument("--json", default=None, help="write the results to this JSON file")
    parser.add_argument(
        "--max-gym-async",
        type=int,
        default=64,
        help="largest num_envs for Gymnasium's AsyncVectorEnv (one process per env)",
    )
    args = parser.parse_args(argv)
    import gymnasium

    import vecgym

    seconds = args.seconds or (1.0 if args.quick else 2.0)
    cores = usable_cores()
    machine = {
        "cores_usable": cores,
        "cpu_count_logical": psutil.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "gymnasium": gymnasium.__version__,
        "platform": platform.platform(),
        "load_avg_start": os.getloadavg(),
    }
    singles = {
        w: _single_rate(vecgym, w, seconds) for w in ("cartpole", "burn500us", "frames84x84x4")
    }
    rows: list[dict[str, Any]] = []
    header = (
        f"{'workload':<15}{'envs':>5}{'wk':>4} {'impl':<20}{'steps/s':>11}{'%bound':>8}"
        f"{'x gym-async':>12}{'x gym-sync':>11}"
    )
    print(header)
    print("-" * len(header))
    for workload, num_envs, worker_options in _plan(args.quick):
        bound = singles[workload] * min(cores, num_envs)
        results: dict[str, float] = {}
        impls = ["gymnasium-sync", "gymnasium-async", "vecgym-sync"]
        if num_envs > args.max_gym_async:
            impls.remove("gymnasium-async")
        for impl in impls:
            envs = _make(impl, workload, num_envs, None)
            try:
                results[impl] = _time_vector(envs, workload, seconds)
            finally:
                envs.close()
        for workers in worker_options:
            envs = _make("vecgym-async", workload, num_envs, workers)
            key = "vecgym-async" if workers is None else f"vecgym-async/w{workers}"
            try:
                results[key] = _time_vector(envs, workload, seconds)
            finally:
                envs.close()
        if num_envs >= 2:
            envs = _make("vecgym-async+parent", workload, num_envs, None)
            try:
                results["vecgym-async+parent"] = _time_vector(envs, workload, seconds)
            finally:
                envs.close()
        for impl, rate in results.items():
            ga, gs = results.get("gymnasium-async"), results.get("gymnasium-sync")
            row = {
                "workload": workload,
                "num_envs": num_envs,
                "impl": impl,
                "steps_per_s": rate,
                "bound": bound,
                "pct_bound": 100 * rate / bound,
                "x_gym_async": rate / ga if ga else None,
                "x_gym_sync": rate / gs if gs else None,
            }
            rows.append(row)
            wk = impl.split("/w")[1] if "/w" in impl else ""
            x_async = f"{rate / ga:.1f}x" if ga else "-"
            x_sync = f"{rate / gs:.2f}x" if gs else "-"
            name = impl.split("/")[0]
            print(
                f"{workload:<15}{num_envs:>5}{wk:>4} {name:<20}{rate:>11,.0f}"
                f"{row['pct_bound']:>7.0f}%{x_async:>12}{x_sync:>11}",
                flush=True,
            )
    machine["load_avg_end"] = os.getloadavg()
    report = {"machine": machine, "single_env_steps_per_s": singles, "rows": rows}
    print(
        f"\nsingle-env steps/s: { {k: round(v) for k, v in singles.items()} }; usable cores {cores}"
    )
    print(f"load average start {machine['load_avg_start']} end {machine['load_avg_end']}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(report, handle, indent=2)
    return report


if __name__ == "__main__":
    main()
    sys.exit(0)
