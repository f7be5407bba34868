"""The share of the bound that AsyncVectorEnv reaches, measured in interleaved rounds.

Usage::

    python benchmarks/bench_interleaved.py [--workload halfcheetah] [--num-envs 64]
        [--rounds 8] [--seconds 3]

``bench_mujoco.py`` and ``bench_atari.py`` measure the single env (the bound) once and then each
runtime one after another, so a drift of the machine's speed between those measurements moves the
share of the bound, by up to a few percent either way on the shared 2-vCPU VM. Here one process
holds the single env and ``AsyncVectorEnv(num_workers=cores - 1, parent_envs=...)`` (the equal
share of the parent slice, as the other scripts' ``Async+parent`` rows) side by side and times
them in turns: in each round, ``--seconds`` of the single env in a plain loop, then ``--seconds``
of the vector env. The round's share of the bound is the vector env's rate over the same round's
single-env rate times the cores; the median and the range over the rounds are printed.

Workloads: ``halfcheetah`` (``gymnasium.make("HalfCheetah-v5")``, as ``bench_mujoco.py``),
``pong`` (``ALE/Pong-v5`` with vecgym's ``AtariPreprocessing`` and ``FrameStackObservation(4)``,
as ``bench_atari.py --vecgym-wrappers``) and ``cartpole`` (``vecgym.make("CartPole-v1")``, as
``vecgym bench``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _maker(workload: str) -> Callable[[], Any]:
    if workload == "halfcheetah":
        import bench_mujoco

        return bench_mujoco.make_env
    if workload == "pong":
        import bench_atari

        return bench_atari.make_vecgym_env
    import vecgym

    return lambda: vecgym.make("CartPole-v1")


def main() -> None:
    from vecgym.cli.measure import measure_single_env, measure_stepper, usable_cores
    from vecgym.cli.runtimes import BenchTarget, parent_share, vector_stepper
    from vecgym.vector import AsyncVectorEnv

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=["halfcheetah", "pong", "cartpole"])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    workload = args.workload or "halfcheetah"
    make = _maker(workload)
    cores = usable_cores()
    workers = max(1, cores - 1)

    single = make()
    single.action_space.seed(0)
    single_actions = [single.action_space.sample() for _ in range(512)]
    envs = AsyncVectorEnv(
        [make] * args.num_envs,
        copy=False,  # as in the other scripts' rows
        num_workers=workers,
        parent_envs=parent_share(args.num_envs, workers),
    )
    stepper, actions = vector_stepper(envs, BenchTarget(env_id=workload))
    shares: list[float] = []
    try:
        print(f"{workload}, {args.num_envs} envs, {cores} usable cores")
        print("| round | single env | AsyncVectorEnv (parent slice) | % of bound |")
        print("|---:|---:|---:|---:|")
        for r in range(args.rounds):
            rate = measure_single_env(single, single_actions, args.seconds).steps_per_s
            vector = measure_stepper(stepper, actions, args.seconds).steps_per_s
            shares.append(vector / (rate * min(cores, args.num_envs)))
            print(f"| {r} | {rate:,.0f} | {vector:,.0f} | {100 * shares[-1]:.1f}% |", flush=True)
    finally:
        stepper.close()
        single.close()
    print(
        f"median {100 * statistics.median(shares):.1f}% of the bound "
        f"(range {100 * min(shares):.1f}-{100 * max(shares):.1f}%)"
    )


if __name__ == "__main__":
    main()
