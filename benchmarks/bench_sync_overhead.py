"""Per-env-step overhead of SyncVectorEnv: vecgym's and Gymnasium's against a bare Python loop.

Usage::

    python benchmarks/bench_sync_overhead.py [--num-envs 16] [--steps 2000] [--rounds 3]
        [--env-ids VecgymBench/Trivial-v0 HalfCheetah-v5 CartPole-v1] [--alternate ROUNDS]

Workloads built with ``gymnasium.make`` and stepped with the same pre-generated actions: by
default a trivial env (a copy of a 17-float observation, HalfCheetah's four numeric info keys)
that shows the vectorisers' own cost, HalfCheetah-v5 and CartPole-v1 (Gymnasium's). Each
runtime's figure is process CPU time per env step (microseconds, the best of ``--rounds``), so
that load from other processes does not count. "raw loop" is ``for i, env in enumerate(envs):
env.step(actions[i])`` (with a reset where an episode ended): what no vectoriser can undercut;
"single env" is one env in such a loop (the bound's per-core rate). The ceiling on ``vecgym Sync
/ Gymnasium Sync`` is Gymnasium's time per env step over the raw loop's. "with no merge" is vecgym's
SyncVectorEnv with the batching of the infos replaced by nothing (its infos are wrong): how far a
free info merge would take the ratio. ``--alternate ROUNDS`` instead builds vecgym's and
Gymnasium's SyncVectorEnv, the one with no merge and a raw loop storing the rewards once, steps
them in turns in one process and reports the medians of the per-round ratios (the steadier
figure for small changes).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

TRIVIAL_ID = "VecgymBench/Trivial-v0"


def _register_trivial() -> None:
    import gymnasium
    from gymnasium import spaces

    class Trivial(gymnasium.Env[np.ndarray, np.ndarray]):
        observation_space = spaces.Box(-np.inf, np.inf, (17,), np.float64)
        action_space = spaces.Box(-1.0, 1.0, (6,), np.float32)

        def __init__(self) -> None:
            self._obs = np.zeros(17)

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            super().reset(seed=seed)
            return self._obs.copy(), {}

        def step(self, action: Any) -> Any:
            info = {
                "x_position": np.float64(1.0),
                "x_velocity": np.float64(2.0),
                "reward_forward": np.float64(3.0),
                "reward_ctrl": np.float32(-0.1),
            }
            return self._obs.copy(), 1.0, False, False, info

    if TRIVIAL_ID not in gymnasium.registry:
        gymnasium.register(TRIVIAL_ID, entry_point=Trivial, max_episode_steps=1000)


def _cpu_per_step(step: Callable[[np.ndarray], Any], actions: list[np.ndarray], n: int) -> float:
    for a in actions[:50]:
        step(a)
    start = time.process_time()
    for a in actions:
        step(a)
    return (time.process_time() - start) / (len(actions) * n) * 1e6


def _workload(env_id: str, num_envs: int, steps: int) -> tuple[list[Any], list[np.ndarray]]:
    """``num_envs`` env functions for ``env_id`` and ``steps`` pre-generated action batches."""
    import gymnasium

    fns = [lambda: gymnasium.make(env_id)] * num_envs
    space = gymnasium.vector.utils.batch_space(fns[0]().action_space, num_envs)
    space.seed(0)
    return fns, [space.sample() for _ in range(steps)]


def _raw_loop(raw: list[Any], rewards: np.ndarray | None = None) -> Callable[[np.ndarray], None]:
    """The plain loop over the envs ``raw`` (reset where an episode ended); with ``rewards``,
    storing each env's reward there, as a vectoriser stores its outputs."""
    for i, env in enumerate(raw):
        env.reset(seed=i)

    def raw_step(batch: np.ndarray) -> None:
        for i, env in enumerate(raw):
            _, reward, terminated, truncated, _ = env.step(batch[i])
            if rewards is not None:
                rewards[i] = reward
            if terminated or truncated:
                env.reset()

    return raw_step


def _unmerged(env_fns: list[Callable[[], Any]]) -> Any:
    """vecgym's SyncVectorEnv with its infos dropped instead of batched: an upper bound, not a
    runtime."""
    from vecgym.vector import SyncVectorEnv

    envs = SyncVectorEnv(env_fns)
    envs._step_infos = lambda step_infos: {}
    return envs


def measure(env_id: str, num_envs: int, steps: int) -> dict[str, float]:
    """CPU microseconds per env step of each runtime on ``env_id`` (one round)."""
    import gymnasium

    from vecgym.vector import SyncVectorEnv

    fns, actions = _workload(env_id, num_envs, steps)
    raw = [fn() for fn in fns]
    raw_step = _raw_loop(raw)
    one = raw[0]
    out = {"single env": _cpu_per_step(lambda batch: raw_step_one(one, batch), actions, 1)}
    out["raw loop"] = _cpu_per_step(raw_step, actions, num_envs)
    for env in raw:
        env.close()

    for name, build in (
        ("vecgym Sync", SyncVectorEnv),
        ("vecgym Sync, no merge", _unmerged),
        ("Gymnasium Sync", gymnasium.vector.SyncVectorEnv),
    ):
        envs: Any = build(fns)
        envs.reset(seed=0)
        try:
            out[name] = _cpu_per_step(envs.step, actions, num_envs)
        finally:
            envs.close()
    return out


def alternate(
    env_id: str, num_envs: int, steps: int, rounds: int
) -> dict[str, tuple[float, float]]:
    """The runtimes built once in one process and stepped in turns, ``rounds`` rounds of
    ``steps`` steps each: for each, the median CPU microseconds per env step and the median of
    the per-round ratios Gymnasium Sync / it. Turns within one process share the machine's state
    from round to round, so the ratios are steadier than those of separate rounds."""
    import statistics

    import gymnasium

    from vecgym.vector import SyncVectorEnv

    fns, actions = _workload(env_id, num_envs, steps)
    raw = [fn() for fn in fns]
    vector_envs = [SyncVectorEnv(fns), _unmerged(fns), gymnasium.vector.SyncVectorEnv(fns)]
    for envs in vector_envs:
        envs.reset(seed=0)
    steppers = {
        "raw loop storing rewards": _raw_loop(raw, np.zeros(num_envs)),
        "vecgym Sync": vector_envs[0].step,
        "vecgym Sync, no merge (bound)": vector_envs[1].step,
        "Gymnasium Sync": vector_envs[2].step,
    }
    times: dict[str, list[float]] = {name: [] for name in steppers}
    try:
        for _ in range(rounds):
            for name, step in steppers.items():
                times[name].append(_cpu_per_step(step, actions, num_envs))
    finally:
        for closable in (*vector_envs, *raw):
            closable.close()
    theirs = times["Gymnasium Sync"]
    return {
        name: (
            statistics.median(own),
            statistics.median(t / o for t, o in zip(theirs, own, strict=True)),
        )
        for name, own in times.items()
    }


def raw_step_one(env: Any, batch: np.ndarray) -> None:
    """One env in a plain loop (the first action of each batch)."""
    _, _, terminated, truncated, _ = env.step(batch[0])
    if terminated or truncated:
        env.reset()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--env-ids", nargs="+", default=[TRIVIAL_ID, "HalfCheetah-v5", "CartPole-v1"]
    )
    parser.add_argument(
        "--alternate",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="instead: the runtimes in turns in one process, this many rounds of --steps steps",
    )
    args = parser.parse_args(argv)
    _register_trivial()
    if args.alternate:
        print("| workload | runtime | us per env step (median) | Gymnasium Sync / it (median) |")
        print("|---|---|---:|---:|")
        for env_id in args.env_ids:
            result = alternate(env_id, args.num_envs, args.steps, args.alternate)
            for name, (us, ratio) in result.items():
                print(f"| {env_id} | {name} | {us:.2f} | {ratio:.3f}x |")
        return
    print("| workload | single env | raw loop | vecgym Sync | Gymnasium Sync | vecgym x Gymnasium "
          "| with no merge (bound) | ceiling (Gymnasium / raw loop) |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for env_id in args.env_ids:
        rounds = [measure(env_id, args.num_envs, args.steps) for _ in range(args.rounds)]
        best = {key: min(r[key] for r in rounds) for key in rounds[0]}
        raw, ours, theirs = best["raw loop"], best["vecgym Sync"], best["Gymnasium Sync"]
        unmerged = best["vecgym Sync, no merge"]
        print(
            f"| {env_id} | {best['single env']:.2f} us | {raw:.2f} us | {ours:.2f} us "
            f"| {theirs:.2f} us | {theirs / ours:.2f}x | {theirs / unmerged:.2f}x "
            f"| {theirs / raw:.2f}x |"
        )


if __name__ == "__main__":
    main()
