"""CPU per env step inside a vector step against the same envs in a plain loop, interleaved.

Usage::

    python benchmarks/bench_slice_cost.py [--env-id HalfCheetah-v5] [--num-envs 16]
        [--rounds 8] [--steps 300]

``AsyncVectorEnv(num_workers=1, parent_envs=num_envs // 2)`` steps half the envs in the parent
(the parent's slice). The parent's thread CPU time of ``step_async`` (which runs the slice, after
writing the actions and waking the worker) is divided by the slice's envs: what one env step
costs in the parent *inside* a vector step. In the same process, between those rounds, a plain
loop steps the same number of envs made by the same ``gymnasium.make`` (a reset where an episode
ended): what the env's own step costs there. Rounds alternate, so drifts in the machine's speed
hit both alike; the figures are medians over the rounds.

The difference is the whole price of a step inside the vector env: vecgym's per-env work (reading
the action, writing observation, reward, flags and infos into shared memory: about 0.5 us on
CartPole), its per-step work spread over the slice, and whatever the surrounding vector step does
to the env's own speed (caches, the other process). It is the figure behind the MuJoCo rows of
``RESULTS.md``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="HalfCheetah-v5")
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args(argv)

    import gymnasium

    from vecgym.vector import AsyncVectorEnv

    def make() -> Any:
        return gymnasium.make(args.env_id)

    n, slice_envs = args.num_envs, args.num_envs // 2
    envs = AsyncVectorEnv([make] * n, num_workers=1, parent_envs=slice_envs)
    plain = [make() for _ in range(slice_envs)]
    try:
        envs.reset(seed=0)
        for i, env in enumerate(plain):
            env.reset(seed=i)
        space = envs.action_space
        space.seed(0)
        actions = [space.sample() for _ in range(min(args.steps, 200))]
        for batch in actions:  # warm-up
            envs.step(batch)
        inside: list[float] = []
        alone: list[float] = []
        for _ in range(args.rounds):
            cpu = 0.0
            for t in range(args.steps):
                start = time.thread_time()
                envs.step_async(actions[t % len(actions)])
                cpu += time.thread_time() - start
                envs.step_wait()
            inside.append(cpu / (args.steps * slice_envs) * 1e6)
            start = time.thread_time()
            for t in range(args.steps):
                batch = actions[t % len(actions)]
                for k, env in enumerate(plain):
                    _, _, terminated, truncated, _ = env.step(batch[k])
                    if terminated or truncated:
                        env.reset()
            alone.append((time.thread_time() - start) / (args.steps * slice_envs) * 1e6)
    finally:
        envs.close()
        for env in plain:
            env.close()
    med_inside, med_alone = statistics.median(inside), statistics.median(alone)
    print(f"## {args.env_id}: {slice_envs} envs in the parent's slice of {n}, {args.rounds} rounds")
    print()
    print("| where | CPU per env step (median) | range |")
    print("|---|---:|---:|")
    print(f"| plain loop | {med_alone:.1f} us | {min(alone):.1f}-{max(alone):.1f} us |")
    print(
        f"| inside the vector step | {med_inside:.1f} us | {min(inside):.1f}-{max(inside):.1f} us |"
    )
    print()
    print(f"inside / plain: {med_inside / med_alone:.2f}x; np {np.__version__}")


if __name__ == "__main__":
    main()
