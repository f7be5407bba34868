"""Steps per second of vecgym's numpy-vectorised classic-control and toy-text envs.

For every env with a ``vector_entry_point``: the vectorised env against vecgym's
``SyncVectorEnv`` of the single env (target: at least 5x), both at ``--num-envs`` envs; and
vectorised ``CartPole-v1`` against Gymnasium's ``CartPoleVectorEnv`` (target: at least as fast),
side by side in one run.

Counting is honest: a ``NEXT_STEP`` reset step (the step after an episode ended, which resets
the env instead of stepping it) is not an env step. Actions are generated before timing. Each
case is timed ``--repeats`` times, the cases interleaved, and the best run is reported.

Usage::

    python benchmarks/bench_vector_envs.py [--num-envs 64] [--seconds 0.5] [--json FILE]
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
#: Pre-generated action batches per case (cycled when a run needs more).
ACTION_BATCHES = 2048


def make_actions(envs: Any, count: int, seed: int) -> list[Any]:
    """``count`` action batches sampled from the env's batched action space."""
    envs.action_space.seed(seed)
    return [envs.action_space.sample() for _ in range(count)]


def time_case(envs: Any, actions: list[Any], seconds: float) -> tuple[float, int]:
    """Step ``envs`` for about ``seconds``; return ``(elapsed, env_steps)``.

    An env whose previous step ended its episode is reset (not stepped) by this step, so it is
    not counted.
    """
    envs.reset(seed=0)
    num_envs = envs.num_envs
    steps = 0
    pending = 0
    count = len(actions)
    i = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(64):
            _, _, terminated, truncated, _ = envs.step(actions[i % count])
            steps += num_envs - pending
            pending = int(np.count_nonzero(terminated | truncated))
            i += 1
        now = time.perf_counter()
        if now >= deadline:
            return now - start, steps


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
    envs = [factory() for _, _, factory in cases]
    actions = [make_actions(env, ACTION_BATCHES, seed=i) for i, env in enumerate(envs)]
    best: list[float] = [0.0] * len(cases)
    for _ in range(repeats):
        for k, env in enumerate(envs):
            elapsed, steps = time_case(env, actions[k], seconds)
            best[k] = max(best[k], steps / elapsed)
    for env in envs:
        env.close()
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
