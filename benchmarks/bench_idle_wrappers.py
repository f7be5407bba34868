"""Stepping past idle wrappers against stepping through the whole chain, in one process.

Usage::

    python benchmarks/bench_idle_wrappers.py [--workload cartpole] [--num-envs 64]
        [--runtime async] [--block 1000] [--rounds 40]

The vector envs step each env with ``AutoresetEnv.env_step``, which steps past ``make``'s
``OrderEnforcing`` and ``PassiveEnvChecker`` once they are idle and applies ``TimeLimit``'s count
itself (``vecgym.vector.autoreset``, "Steps past idle wrappers"). This script measures what that
saves inside a vector env. One vector env (``--runtime async``: ``AsyncVectorEnv(num_workers=1,
parent_envs=num_envs // 2, copy=False)``, forked, so that its worker shares the switch below;
``sync``: ``SyncVectorEnv(copy=False)``) is stepped in rounds; in each round ``--block`` steps
each way, in turns. The way is a flag in shared memory that every ``AutoresetEnv``, the parent's
and the worker's, reads at each episode start (this script replaces
``AutoresetEnv.episode_started`` for that): set, it steps past the idle wrappers; clear, through
``env.step``. A fifth of a block is stepped before the timed part, for the envs to reach an
episode start. It prints the medians of the rounds' step times each way, the median of their
differences and the rounds in which stepping past was faster.

``--runtime single`` times one env in a plain loop instead (a reset where an episode ends, as the
bound's single env), stepped with ``env.step`` and with ``direct_step(env)`` (asked again after
every reset) in turns: what a bound whose single env also stepped past the idle wrappers would
gain.

Workloads as ``bench_interleaved.py``'s: ``cartpole``, ``halfcheetah``, ``pong``. The switch
takes effect at episode starts, so it measures short episodes (CartPole-v1 with random actions:
about 20 steps) well; HalfCheetah-v5's episodes last 1,000 steps, longer than a block, and Pong's
wrappers sit above the ``TimeLimit``, so neither is stepped past inside a round (and the
difference there is about 0.4 us of a 45 us or 230 us env step anyway).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_interleaved

from vecgym.vector import AsyncVectorEnv, SyncVectorEnv, autoreset


def _switched(flag: Any) -> None:
    """Make every ``AutoresetEnv`` choose its way at each episode start from ``flag``."""

    def episode_started(self: autoreset.AutoresetEnv[Any, Any]) -> None:
        if flag.value:
            self.env_step, _ = autoreset.direct_step(self.env)
        else:
            self.env_step = self.env.step
        self.settled = False  # ask again at every episode start

    autoreset.AutoresetEnv.episode_started = episode_started  # type: ignore[method-assign]


def _timed(envs: Any, actions: list[Any], steps: int) -> float:
    """Microseconds per vector step over ``steps`` steps."""
    start = time.perf_counter_ns()
    for i in range(steps):
        envs.step(actions[i % len(actions)])
    return (time.perf_counter_ns() - start) / steps / 1000


def _single(make: Any, steps: int, rounds: int) -> dict[int, list[float]]:
    """Microseconds per step of one env in a plain loop, each way, ``rounds`` times."""
    env = make()
    env.reset(seed=0)
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(512)]
    times: dict[int, list[float]] = {0: [], 1: []}
    for r in range(rounds):
        for way in (1, 0) if r % 2 else (0, 1):
            pick = (lambda: autoreset.direct_step(env)[0]) if way else (lambda: env.step)
            step = pick()
            start = time.perf_counter_ns()
            for i in range(steps):
                _, _, terminated, truncated, _ = step(actions[i % 512])
                if terminated or truncated:
                    env.reset()
                    step = pick()
            times[way].append((time.perf_counter_ns() - start) / steps / 1000)
    env.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workload", choices=["cartpole", "halfcheetah", "pong"], default="cartpole"
    )
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--runtime", choices=["async", "sync", "single"], default="async")
    parser.add_argument("--block", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()

    if args.runtime == "single":
        times = _single(bench_interleaved._maker(args.workload), args.block * 10, args.rounds)
        _report(args, times)
        return
    flag = multiprocessing.get_context("fork").RawValue("b", 1)
    _switched(flag)
    fns = [bench_interleaved._maker(args.workload)] * args.num_envs
    if args.runtime == "sync":
        envs: Any = SyncVectorEnv(fns, copy=False)
    else:
        envs = AsyncVectorEnv(
            fns, num_workers=1, parent_envs=args.num_envs // 2, copy=False, context="fork"
        )
    try:
        envs.reset(seed=0)
        envs.action_space.seed(0)
        actions = [envs.action_space.sample() for _ in range(512)]
        _timed(envs, actions, 500)
        times: dict[int, list[float]] = {0: [], 1: []}
        for r in range(args.rounds):
            for way in (1, 0) if r % 2 else (0, 1):
                flag.value = way
                _timed(envs, actions, max(1, args.block // 5))
                times[way].append(_timed(envs, actions, args.block))
    finally:
        envs.close()
    _report(args, times)


def _report(args: argparse.Namespace, times: dict[int, list[float]]) -> None:
    whole, past = times[0], times[1]
    envs = "1 env" if args.runtime == "single" else f"{args.num_envs} envs"
    differences = [b - a for a, b in zip(whole, past, strict=True)]
    faster = sum(d < 0 for d in differences)
    print(
        f"{args.workload}, {envs}, {args.runtime}: through the whole chain "
        f"{statistics.median(whole):.2f} us, past the idle wrappers {statistics.median(past):.2f}"
        f" us; difference {statistics.median(differences):+.2f} us (median of {args.rounds} "
        f"rounds), past the idle wrappers faster in {faster} of {args.rounds}"
    )


if __name__ == "__main__":
    main()
