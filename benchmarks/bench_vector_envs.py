"""Steps per second of vecgym's numpy-vectorised classic-control and toy-text envs.

For every env with a ``vector_entry_point``: the vectorised env against vecgym's
``SyncVectorEnv`` of the single env (target: at least 5x), both at ``--num-envs`` envs; and
vectorised ``CartPole-v1`` against Gymnasium's ``CartPoleVectorEnv`` (target: at least as fast),
side by side in one run.

Steps are counted by :mod:`vecgym.cli.measure`, exactly as ``vecgym bench`` counts them: a
``NEXT_STEP`` reset step (the step after an episode ended, which resets the env instead of
stepping it) is not an env step, actions are generated before timing, and each run follows a
short warm-up. Each case is timed ``--repeats`` times, the cases interleaved, and the best run
is reported.

Usage::

    python benchmarks/bench_vector_envs.py [--num-envs 64] [--seconds 0.5] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import vecgym
from vecgym.cli.measure import Stepper, measure_stepper
from vecgym.cli.runtimes import BenchTarget, vector_stepper

ENV_IDS = [
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "Taxi-v4",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Blackjack-v1",
]


def measure_case(stepper: Stepper, actions: list[Any], seconds: float) -> float:
    """Env steps per second of one timed run of ``stepper``, counted by
    :func:`vecgym.cli.measure.measure_stepper` (as ``vecgym bench`` counts them)."""
    return measure_stepper(stepper, actions, seconds).steps_per_s


def _vector_factory(env_id: str, num_envs: int, mode: str) -> Callable[[], Any]:
    def factory() -> Any:
        return vecgym.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode)

    return factory


def build_cases(num_envs: int) -> list[tuple[str, str, Callable[[], Any]]]:
    """``(env id, implementation, factory)`` for every case measured."""
    cases: list[tuple[str, str, Callable[[], Any]]] = []
    for env_id in ENV_IDS:
        cases.append(
            (env_id, "vecgym vector", _vector_factory(env_id, num_envs, "vector_entry_point"))
        )
        cases.append((env_id, "vecgym sync", _vector_factory(env_id, num_envs, "sync")))
    try:
        from gymnasium.envs.classic_control.cartpole import CartPoleVectorEnv
    except ImportError:  # pragma: no cover - gymnasium is optional here
        print("gymnasium not installed: no Gymnasium comparison", file=sys.stderr)
    else:
        cases.append(
            ("CartPole-v1", "gymnasium vector", lambda: CartPoleVectorEnv(num_envs=num_envs))
        )
    return cases


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    info: dict[str, Any] = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
    }
    if hasattr(os, "getloadavg"):
        info["load_average"] = os.getloadavg()
    try:
        import gymnasium

        info["gymnasium"] = gymnasium.__version__
    except ImportError:  # pragma: no cover
        pass
    return info


def run(num_envs: int, seconds: float, repeats: int) -> dict[str, Any]:
    """Measure every case; return the results as a JSON-able dict."""
    cases = build_cases(num_envs)
    steppers = [
        vector_stepper(factory(), BenchTarget(env_id, seed=i))
        for i, (env_id, _, factory) in enumerate(cases)
    ]
    best: list[float] = [0.0] * len(cases)
    for _ in range(repeats):
        for k, (stepper, actions) in enumerate(steppers):
            best[k] = max(best[k], measure_case(stepper, actions, seconds))
    for stepper, _ in steppers:
        stepper.close()
    rates = {(env_id, impl): rate for (env_id, impl, _), rate in zip(cases, best, strict=True)}
    rows = []
    for env_id in ENV_IDS:
        vector = rates[(env_id, "vecgym vector")]
        sync = rates[(env_id, "vecgym sync")]
        row: dict[str, Any] = {
            "env_id": env_id,
            "vector_steps_per_s": vector,
            "sync_steps_per_s": sync,
            "vector_over_sync": vector / sync,
        }
        gym_rate = rates.get((env_id, "gymnasium vector"))
        if gym_rate is not None:
            row["gymnasium_vector_steps_per_s"] = gym_rate
            row["vector_over_gymnasium"] = vector / gym_rate
        rows.append(row)
    return {
        "num_envs": num_envs,
        "seconds_per_run": seconds,
        "repeats": repeats,
        "machine": machine(),
        "results": rows,
    }


def print_table(report: dict[str, Any]) -> None:
    """The results as a plain-text table."""
    header = (
        f"{'env':<26}{'vector steps/s':>16}{'sync steps/s':>15}{'vec/sync':>10}"
        f"{'gymnasium vec':>16}{'vec/gym':>9}"
    )
    print(f"num_envs={report['num_envs']}  machine={report['machine']}")
    print(header)
    print("-" * len(header))
    for row in report["results"]:
        gym_rate = row.get("gymnasium_vector_steps_per_s")
        gym_cols = (
            f"{gym_rate:>16,.0f}{row['vector_over_gymnasium']:>8.2f}x"
            if gym_rate is not None
            else f"{'-':>16}{'-':>9}"
        )
        print(
            f"{row['env_id']:<26}{row['vector_steps_per_s']:>16,.0f}"
            f"{row['sync_steps_per_s']:>15,.0f}{row['vector_over_sync']:>9.1f}x{gym_cols}"
        )


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments, run the benchmark, print the table and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per case (best is kept)")
    parser.add_argument("--json", metavar="FILE", help="write the results to FILE as JSON")
    args = parser.parse_args(argv)
    report = run(args.num_envs, args.seconds, args.repeats)
    print_table(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)


if __name__ == "__main__":
    main()
