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

The difference is the whole price of a step inside the vector env. It is split in two:

* **the env's own step**: every env, in the slice and in the plain loop alike, is wrapped in a
  thin Gymnasium wrapper that adds up the time of the ``step`` below it (and, for a MuJoCo env,
  of ``mujoco.mj_step`` alone): how much slower the env itself runs inside the vector step
  (caches, the other process). These timers read ``perf_counter_ns``: a thread CPU clock is a
  system call of about 0.6 us here, which would add 2-3 us to every env step it measured;
* **the rest**: vecgym's work around the env steps (reading the actions, writing observations,
  rewards, flags and infos into shared memory, the autoreset layer) and the parent's per-step work
  in ``step_async`` spread over the slice. In the plain loop the rest is the loop itself.

It is the figure behind the MuJoCo rows of ``RESULTS.md``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import numpy as np

_SPENT = {"env": 0, "mj_step": 0}
"""Nanoseconds in the env's own ``step`` and in ``mujoco.mj_step`` (this process)."""


def _timed_mj_step() -> bool:
    """Have ``mujoco.mj_step`` add its time to ``_SPENT``; whether MuJoCo imports."""
    try:
        import mujoco
    except ImportError:
        return False
    real = mujoco.mj_step
    clock = time.perf_counter_ns

    def mj_step(*args: Any, **kwargs: Any) -> None:
        start = clock()
        real(*args, **kwargs)
        _SPENT["mj_step"] += clock() - start

    mujoco.mj_step = mj_step
    return True


def _taken() -> tuple[float, float]:
    """``_SPENT`` in seconds since the last call, then reset."""
    spent = (_SPENT["env"] / 1e9, _SPENT["mj_step"] / 1e9)
    _SPENT["env"] = _SPENT["mj_step"] = 0
    return spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="HalfCheetah-v5")
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args(argv)

    import gymnasium

    from vecgym.vector import AsyncVectorEnv

    class TimedStep(gymnasium.Wrapper):  # type: ignore[type-arg]
        def step(self, action: Any) -> Any:
            start = time.perf_counter_ns()
            result = self.env.step(action)
            _SPENT["env"] += time.perf_counter_ns() - start
            return result

    def make() -> Any:
        return TimedStep(gymnasium.make(args.env_id))

    with_mj = _timed_mj_step()
    n, slice_envs = args.num_envs, args.num_envs // 2
    envs = AsyncVectorEnv([make] * n, num_workers=1, parent_envs=slice_envs)
    plain = [make() for _ in range(slice_envs)]
    rows: dict[str, list[tuple[float, float, float]]] = {"plain loop": [], "vector step": []}
    try:
        envs.reset(seed=0)
        for i, env in enumerate(plain):
            env.reset(seed=i)
        space = envs.action_space
        space.seed(0)
        actions = [space.sample() for _ in range(min(args.steps, 200))]
        for batch in actions:  # warm-up
            envs.step(batch)
        per_env = 1e6 / (args.steps * slice_envs)
        for _ in range(args.rounds):
            cpu = 0.0
            _taken()
            for t in range(args.steps):
                start = time.thread_time()
                envs.step_async(actions[t % len(actions)])
                cpu += time.thread_time() - start
                envs.step_wait()
            own, mj = _taken()
            rows["vector step"].append((cpu * per_env, own * per_env, mj * per_env))
            start = time.thread_time()
            for t in range(args.steps):
                batch = actions[t % len(actions)]
                for k, env in enumerate(plain):
                    _, _, terminated, truncated, _ = env.step(batch[k])
                    if terminated or truncated:
                        env.reset()
            cpu = time.thread_time() - start
            own, mj = _taken()
            rows["plain loop"].append((cpu * per_env, own * per_env, mj * per_env))
    finally:
        envs.close()
        for env in plain:
            env.close()
    # An env that is not MuJoCo never calls mj_step: no column then.
    with_mj = with_mj and any(mj for samples in rows.values() for _, _, mj in samples)
    _report(args, rows, with_mj)


def _report(
    args: argparse.Namespace, rows: dict[str, list[tuple[float, float, float]]], with_mj: bool
) -> None:
    """Print the medians over the rounds, in us per env step of the slice."""
    slice_envs = args.num_envs // 2
    print(
        f"## {args.env_id}: {slice_envs} envs in the parent's slice of {args.num_envs}, "
        f"{args.rounds} rounds"
    )
    print()
    print(
        "Per env step of the slice, medians over the rounds: the whole step in thread CPU time "
        "(its range), the env's own step and mj_step in wall time (see the module docstring)."
    )
    print()
    print("| where | whole step | the env's own step | of which `mj_step` | the rest |")
    print("|---|---:|---:|---:|---:|")
    medians = {}
    for where, samples in rows.items():
        total, own, mj = (statistics.median(column) for column in zip(*samples, strict=True))
        rest = [t - o for t, o, _ in samples]
        medians[where] = (total, own, mj)
        spread = f"{min(t for t, _, _ in samples):.1f}-{max(t for t, _, _ in samples):.1f}"
        mj_cell = f"{mj:.1f} us" if with_mj else "-"
        print(
            f"| {where} | {total:.1f} us ({spread}) | {own:.1f} us | {mj_cell} | "
            f"{statistics.median(rest):.1f} us |"
        )
    (total_in, own_in, _), (total_out, own_out, _) = medians["vector step"], medians["plain loop"]
    print()
    print(
        f"inside / plain: whole step {total_in / total_out:.2f}x, the env's own step "
        f"{own_in / own_out:.2f}x; np {np.__version__}"
    )


if __name__ == "__main__":
    main()
