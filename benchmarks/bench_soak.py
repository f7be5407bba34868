"""Soak test of AsyncVectorEnv's worker restart: millions of steps with injected crashes and hangs.

Usage::

    python benchmarks/bench_soak.py [--steps 10000000] [--num-envs 64] [--json out.json]

Every env is a counting env whose observation encodes ``(env index, episode tag, step, last
action)``: the episode tag is the reset seed after a seeded reset and grows by one at every
unseeded (auto)reset, so a lost, stale, duplicated or misrouted observation cannot match. Inside
the workers, each env step dies at random (``os._exit``, a real segfault, ``SIGKILL`` as an OOM
kill does, or a hang that ``step_timeout`` must catch). The vector env runs with
``on_worker_failure="restart"``; the parent checks EVERY returned observation, reward,
termination and truncation against a reference model of the documented behaviour:

* an ordinary step: ``(i, tag, step + 1, action)``, reward ``step + 1``, truncated at the episode
  length;
* a NEXT_STEP reset step (after a truncation): ``(i, tag + 1, 0, -1)``, reward 0, no flags;
* a restarted env (``infos["worker_restarted"]``): ``(i, restart_seed(last reset seed, i,
  restarts of its worker, restart_entropy), 0, -1)``, reward 0, ``truncated=True``, followed by a
  reset step.

Only ordinary steps count as env steps. The run fails (exit code 1) on any mismatch.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import random
import signal
import sys
import time
from typing import Any

import numpy as np
import psutil

import vecgym
from vecgym.spaces import Box, Discrete
from vecgym.vector import AsyncVectorEnv
from vecgym.vector.async_vector_env import restart_seed

NUM_ACTIONS = 7
DEATHS = ("exit", "segfault", "sigkill", "hang")


class SoakEnv(vecgym.Env[Any, Any]):
    """A counting env that dies at random; see the module docstring."""

    def __init__(self, index: int, length: int, crash_p: float, hang_p: float) -> None:
        self.observation_space = Box(-np.inf, np.inf, shape=(4,), dtype=np.float64)
        self.action_space = Discrete(NUM_ACTIONS)
        self.index = index
        self.length = length
        self.crash_p = crash_p
        self.hang_p = hang_p
        self.tag = -1
        self.count = 0
        self.fate = random.Random(os.urandom(16))  # not seeded: faults are truly random

    def _obs(self, action: int) -> np.ndarray:
        return np.array([self.index, self.tag, self.count, action], dtype=np.float64)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.tag = seed if seed is not None else self.tag + 1
        self.count = 0
        return self._obs(-1), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        roll = self.fate.random()
        if roll < self.crash_p + self.hang_p:
            _die("hang" if roll < self.hang_p else self.fate.choice(DEATHS[:3]))
        self.count += 1
        truncated = self.count >= self.length
        return self._obs(int(action)), float(self.count), False, truncated, {}


def _die(how: str) -> None:
    if how == "exit":
        os._exit(7)
    if how == "segfault":
        ctypes.string_at(0)
    if how == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    while True:  # hang
        time.sleep(3600)


class Reference:
    """The expected state of every env (vectorised)."""

    def __init__(self, num_envs: int, lengths: np.ndarray, seed: int, entropy: int) -> None:
        self.index = np.arange(num_envs, dtype=np.float64)
        self.lengths = lengths
        self.entropy = entropy
        self.last_seed = [seed + i for i in range(num_envs)]
        self.tag = np.array(self.last_seed, dtype=np.float64)
        self.count = np.zeros(num_envs, dtype=np.float64)
        self.pending = np.zeros(num_envs, dtype=np.bool_)
        self.restarts: dict[int, int] = {}

    def initial(self) -> np.ndarray:
        return np.stack([self.index, self.tag, self.count, np.full_like(self.index, -1)], axis=1)

    def expect(
        self, actions: np.ndarray, restarted: np.ndarray, worker_of: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """Advance the model by one step; the expected (obs, reward, term, trunc, real steps)."""
        n = len(self.index)
        ordinary = ~self.pending & ~restarted
        resetting = self.pending & ~restarted
        self.count[ordinary] += 1
        self.tag[resetting] += 1
        self.count[resetting] = 0
        last_action = np.where(ordinary, actions.astype(np.float64), -1.0)
        reward = np.where(ordinary, self.count, 0.0)
        truncated = ordinary & (self.count >= self.lengths)
        if restarted.any():
            for k in sorted({int(worker_of[i]) for i in np.flatnonzero(restarted)}):
                self.restarts[k] = self.restarts.get(k, 0) + 1
            for i in np.flatnonzero(restarted).tolist():
                restart = self.restarts[int(worker_of[i])]
                self.tag[i] = restart_seed(self.last_seed[i], i, restart, self.entropy)
                self.count[i] = 0
            truncated = truncated | restarted
        self.pending = truncated.copy()
        obs = np.stack([self.index, self.tag, self.count, last_action], axis=1)
        return obs, reward, np.zeros(n, dtype=np.bool_), truncated, int(ordinary.sum())


def _make_fns(num_envs: int, lengths: np.ndarray, crash_p: float, hang_p: float) -> list[Any]:
    return [(lambda i=i: SoakEnv(i, int(lengths[i]), crash_p, hang_p)) for i in range(num_envs)]


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = np.random.default_rng(args.seed)
    n = args.num_envs
    lengths = rng.integers(20, 200, size=n)
    envs = AsyncVectorEnv(
        _make_fns(n, lengths, args.crash_p, args.hang_p),
        num_workers=args.num_workers,
        on_worker_failure="restart",
        step_timeout=args.step_timeout,
        context="fork",
    )
    worker_of = np.zeros(n, dtype=np.intp)
    for worker in envs.worker_health():
        worker_of[list(worker["env_indices"])] = worker["worker"]
    ref = Reference(n, lengths, args.seed, envs.restart_entropy)
    obs, _ = envs.reset(seed=args.seed)
    mismatches = int((obs != ref.initial()).any(axis=1).sum())
    examples: list[str] = []
    actions_pool = rng.integers(0, NUM_ACTIONS, size=(1024, n))
    steps = batches = restarted_envs = 0
    cpu_start = psutil.cpu_times()
    load_start = os.getloadavg()
    start = time.perf_counter()
    last_report = start
    while steps < args.steps:
        actions = actions_pool[batches % len(actions_pool)]
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        restarted = infos.get("worker_restarted", np.zeros(n, dtype=np.bool_)) & infos.get(
            "_worker_restarted", np.zeros(n, dtype=np.bool_)
        )
        restarted_envs += int(restarted.sum())
        e_obs, e_reward, e_term, e_trunc, real = ref.expect(actions, restarted, worker_of)
        bad = (
            (obs != e_obs).any(axis=1)
            | (rewards != e_reward)
            | (terminated != e_term)
            | (truncated != e_trunc)
        )
        if bad.any():
            mismatches += int(bad.sum())
            for i in np.flatnonzero(bad)[:3].tolist():
                if len(examples) < 10:
                    examples.append(
                        f"batch {batches} env {i}: got {obs[i].tolist()} r={rewards[i]} "
                        f"trunc={truncated[i]}, expected {e_obs[i].tolist()} r={e_reward[i]} "
                        f"trunc={e_trunc[i]}"
                    )
            # resynchronise the model on the observed state so that one error is counted once
            ref.tag, ref.count = obs[:, 1].copy(), obs[:, 2].copy()
            ref.pending = truncated.copy()
        steps += real
        batches += 1
        now = time.perf_counter()
        if args.progress and now - last_report > 10:
            last_report = now
            print(
                f"  {steps / 1e6:.2f}M steps, {envs.restart_count} restarts, "
                f"{mismatches} mismatches, {steps / (now - start):,.0f} steps/s",
                flush=True,
            )
    elapsed = time.perf_counter() - start
    health = envs.worker_health()
    envs.close()
    cpu_end = psutil.cpu_times()
    busy = sum(cpu_end) - cpu_end.idle - (sum(cpu_start) - cpu_start.idle)
    return {
        "env_steps": steps,
        "batches": batches,
        "num_envs": n,
        "num_workers": envs.num_workers,
        "seconds": round(elapsed, 1),
        "steps_per_s": round(steps / elapsed),
        "restarts": envs.restart_count,
        "restarted_env_reports": restarted_envs,
        "mismatches": mismatches,
        "mismatch_examples": examples,
        "crash_p": args.crash_p,
        "hang_p": args.hang_p,
        "step_timeout": args.step_timeout,
        "final_worker_health": health,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "load_avg_start": load_start,
            "load_avg_end": os.getloadavg(),
            "machine_cpu_busy_s": round(busy, 1),
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10_000_000, help="env steps to run")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--num-workers", type=int, default=None)
    parser.add_argument("--crash-p", type=float, default=1e-5, help="crash chance per env step")
    parser.add_argument("--hang-p", type=float, default=2e-6, help="hang chance per env step")
    parser.add_argument("--step-timeout", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--json", default=None, help="write the results to this JSON file")
    args = parser.parse_args(argv)
    result = run(args)
    print("| env steps | seconds | steps/s | restarts | restarted env reports | mismatches |")
    print("|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {result['env_steps']:,} | {result['seconds']} | {result['steps_per_s']:,} | "
        f"{result['restarts']} | {result['restarted_env_reports']} | {result['mismatches']} |"
    )
    print(
        f"load average start {result['machine']['load_avg_start']}, "
        f"end {result['machine']['load_avg_end']}"
    )
    for line in result["mismatch_examples"]:
        print("  mismatch:", line)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(result, handle, indent=2, default=str)
    return 1 if result["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
