"""RayVectorEnv on a local 2-node Ray cluster (every node on 127.0.0.1) against local baselines.

Usage::

    python benchmarks/bench_ray.py [--quick] [--json out.json]

Two envs: a pure-Python env that burns 1 ms of CPU per step, and CartPole-v1 (through ``make``).
For each, over envs per host x hosts (1 or 2, one per node, 1 CPU each) x mode:

* ``step``: one ``RayVectorEnv.step`` per batch (one actor call per host per step);
* ``send/recv``: ``send`` of the envs last received, ``recv`` of the first ``num_envs / hosts``
  ready (one host's batch), so the hosts step out of lock-step;
* ``rollout T``: ``RayVectorEnv.rollout(policy, T)`` (one actor call per host per ``T`` steps);
* ``rollout Tx2``: the same with two rollouts in flight (``rollout_async`` / ``rollout_wait``), so
  each host starts its next rollout without waiting for the driver's round trip.

Baselines in the same run: a local AsyncVectorEnv with as many envs and ``hosts`` workers, and the
ceiling ``hosts x cores per host / step time`` for the 1 ms env. The per-call overhead is the time
of one ``step`` of a 1-env-per-host RayVectorEnv with a no-op env against a bare round trip to as
many plain Ray actors (``ray.get`` of one method call on each). Env steps only are counted (a
NEXT_STEP reset step is not an env step). The machine's load average is recorded with each run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # before ray is imported: loopback only
# Ray's memory monitor would kill the hosts when other jobs on this shared machine use its memory
os.environ["RAY_memory_monitor_refresh_ms"] = "0"  # noqa: SIM112 - Ray spells it so

import numpy as np

import vecgym
from vecgym.spaces import Box, Discrete
from vecgym.vector import AsyncVectorEnv, RayVectorEnv

BURN_S = 1e-3


class BurnEnv(vecgym.Env[Any, Any]):
    """Burns ``BURN_S`` of CPU per step; never ends."""

    def __init__(self) -> None:
        self.observation_space = Box(-1, 1, (4,), np.float32)
        self.action_space = Discrete(2)
        self._obs = np.zeros(4, dtype=np.float32)

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        return self._obs.copy(), {}

    def step(self, action: Any) -> Any:
        end = time.perf_counter() + BURN_S
        while time.perf_counter() < end:
            pass
        return self._obs.copy(), 1.0, False, False, {}


class NoopEnv(BurnEnv):
    """No work per step: what is left of a step is the vector env's own cost."""

    def step(self, action: Any) -> Any:
        return self._obs, 0.0, False, False, {}


def make_burn() -> Any:
    return BurnEnv()


def make_noop() -> Any:
    return NoopEnv()


def make_cartpole() -> Any:
    return vecgym.make("CartPole-v1")


class RandomPolicy:
    """Uniform random actions for two-action envs (the rollout policy; ~5 us per call)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        return self.rng.integers(0, 2, len(obs))


ENVS = {"burn1ms": make_burn, "cartpole": make_cartpole}


def _env_steps(terminated: np.ndarray, truncated: np.ndarray, pending: np.ndarray) -> int:
    """Env steps in one batch: every env but those whose step was a NEXT_STEP reset step."""
    return int((~pending).sum())


def run_steps(envs: Any, seconds: float, rng: np.random.Generator) -> float:
    """Steps/s of ``envs.step`` for about ``seconds`` (a warm-up of a few steps first)."""
    n = envs.num_envs
    actions = rng.integers(0, 2, (256, n))
    pending = np.zeros(n, dtype=np.bool_)
    for t in range(3):
        _, _, term, trunc, _ = envs.step(actions[t])
        pending = term | trunc
    steps, t, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, term, trunc, _ = envs.step(actions[t % 256])
        steps += _env_steps(term, trunc, pending)
        pending = term | trunc
        t += 1
    return steps / (time.perf_counter() - start)


def run_send_recv(envs: RayVectorEnv, seconds: float, rng: np.random.Generator) -> float:
    n = envs.num_envs
    actions = rng.integers(0, 2, (256, n))
    pending = np.zeros(n, dtype=np.bool_)
    envs.send(actions[0])
    steps, t, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, term, trunc, _, ids = envs.recv(timeout=120)
        steps += int((~pending[ids]).sum())
        pending[ids] = term | trunc
        t += 1
        envs.send(actions[t % 256][: len(ids)], ids)
    elapsed = time.perf_counter() - start
    envs.recv(timeout=120)
    if (envs._env_state != 0).any():  # drain the other hosts
        envs.batch_size = n
        envs.recv(timeout=120)
    return steps / elapsed


def run_rollout(
    envs: RayVectorEnv, seconds: float, num_steps: int, depth: int = 1
) -> tuple[float, float]:
    """``(steps/s, busy)`` of rollouts of ``num_steps``; ``depth`` rollouts are kept in flight
    (the next one is sent before the oldest is collected, so the hosts never wait for the
    driver). ``busy``: the hosts' time inside their rollout loops over ``hosts x wall time``."""
    policy = RandomPolicy()
    envs.rollout(policy, num_steps)  # warm-up
    steps, busy, start = 0, 0.0, time.perf_counter()
    pending = np.zeros(envs.num_envs, dtype=np.bool_)
    for _ in range(depth):
        envs.rollout_async(policy, num_steps)
    while True:
        batch = envs.rollout_wait(120)
        ended = batch.terminations | batch.truncations
        # a NEXT_STEP reset step follows each end (the first row follows the previous rollout)
        previous = np.vstack([pending[None], ended[:-1]])
        steps += int((~previous).sum())
        pending = ended[-1]
        busy += float(batch.host_seconds.sum())
        if time.perf_counter() - start >= seconds:
            break
        envs.rollout_async(policy, num_steps)
    elapsed = time.perf_counter() - start
    for _ in range(depth - 1):
        envs.rollout_wait(120)
    return steps / elapsed, busy / (len(envs.hosts) * elapsed)


def bare_round_trip(ray: Any, hosts: int, seconds: float) -> float:
    """Seconds per ``ray.get`` of one call to each of ``hosts`` plain actors."""

    @ray.remote(num_cpus=0)
    class Echo:
        def echo(self, value: Any) -> Any:
            return value

    actors = [Echo.remote() for _ in range(hosts)]
    payload = np.zeros(4, dtype=np.int64)
    ray.get([a.echo.remote(payload) for a in actors])
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        ray.get([a.echo.remote(payload) for a in actors])
        calls += 1
    elapsed = (time.perf_counter() - start) / calls
    for actor in actors:
        ray.kill(actor)
    return elapsed


def per_call_overhead(ray: Any, hosts: int, seconds: float) -> dict[str, float]:
    envs = RayVectorEnv([make_noop] * hosts, num_hosts=hosts, start_timeout=120)
    try:
        envs.reset(seed=0)
        zeros = np.zeros(hosts, dtype=np.int64)
        for _ in range(5):
            envs.step(zeros)
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            envs.step(zeros)
            calls += 1
        step_s = (time.perf_counter() - start) / calls
    finally:
        envs.close()
    bare_s = bare_round_trip(ray, hosts, seconds)
    return {"hosts": hosts, "step_ms": step_s * 1e3, "bare_ms": bare_s * 1e3}


def local_async(make: Any, num_envs: int, workers: int, seconds: float) -> float:
    envs = AsyncVectorEnv([make] * num_envs, num_workers=workers)
    try:
        envs.reset(seed=0)
        return run_steps(envs, seconds, np.random.default_rng(0))
    finally:
        envs.close()


def single_env_rate(make: Any, seconds: float) -> float:
    env = make()
    env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, term, trunc, _ = env.step(0)
        steps += 1
        if term or trunc:
            env.reset()
    env.close()
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, fewer cases")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument(
        "--overhead-only", action="store_true", help="only the per-call overhead against Ray's"
    )
    args = parser.parse_args()
    seconds = args.seconds or (1.0 if args.quick else 2.5)
    per_host = [4, 16] if args.quick else [4, 16, 64]

    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    rows: list[dict[str, Any]] = []
    try:
        nodes = {n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"]}
        assert nodes == {"127.0.0.1"}, nodes
        overhead = [
            per_call_overhead(ray, hosts, seconds)
            for _ in range(3 if args.overhead_only else 1)
            for hosts in (1, 2)
        ]
        for item in overhead:
            print(
                f"per-call overhead, {item['hosts']} host(s): RayVectorEnv.step "
                f"{item['step_ms']:.2f} ms, bare actor round trip {item['bare_ms']:.2f} ms, "
                f"ratio {item['step_ms'] / item['bare_ms']:.2f}",
                flush=True,
            )
        for env_name, make in ENVS.items() if not args.overhead_only else ():
            single = single_env_rate(make, seconds)
            for hosts in (1, 2):
                for m in per_host:
                    n = m * hosts
                    if env_name == "burn1ms" and m > 16:
                        continue
                    base = local_async(make, n, hosts, seconds)
                    ceiling = hosts / BURN_S if env_name == "burn1ms" else hosts * single
                    envs = RayVectorEnv([make] * n, num_hosts=hosts, start_timeout=120)
                    try:
                        envs.reset(seed=0)
                        rng = np.random.default_rng(0)
                        results = {"step": run_steps(envs, seconds, rng)}
                        busy: dict[str, float] = {}
                        if hosts > 1:
                            envs.batch_size = m
                            results["send/recv"] = run_send_recv(envs, seconds, rng)
                            envs.batch_size = n
                        for steps in (32, 128):
                            for depth, name in ((1, f"rollout{steps}"), (2, f"rollout{steps}x2")):
                                results[name], busy[name] = run_rollout(envs, seconds, steps, depth)
                    finally:
                        envs.close()
                    load = os.getloadavg()[0]
                    for mode, rate in results.items():
                        row = {
                            "env": env_name,
                            "hosts": hosts,
                            "envs_per_host": m,
                            "mode": mode,
                            "steps_per_s": rate,
                            "local_async": base,
                            "ceiling": ceiling,
                            "single_env": single,
                            "host_busy": busy.get(mode),
                            "load1": load,
                        }
                        rows.append(row)
                        print(
                            f"{env_name:9s} hosts={hosts} envs/host={m:3d} {mode:10s} "
                            f"{rate:9.0f}/s  local async {base:9.0f}/s ({rate / base:5.2f}x)  "
                            f"ceiling {ceiling:9.0f}/s ({rate / ceiling:6.1%}; "
                            f"{rate / (hosts * single):6.1%} of hosts x one env in a loop now)  "
                            + (f"hosts busy {busy[mode]:6.1%}  " if mode in busy else "")
                            + f"load {load:.1f}",
                            flush=True,
                        )
    finally:
        ray.shutdown()
        cluster.shutdown()
    if args.json:
        meta = {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "ray": ray.__version__,
            "cores": os.cpu_count(),
            "platform": platform.platform(),
        }
        with open(args.json, "w") as handle:
            json.dump({"meta": meta, "overhead": overhead, "rows": rows}, handle, indent=2)


if __name__ == "__main__":
    main()
