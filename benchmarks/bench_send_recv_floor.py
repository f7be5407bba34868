"""How fast EnvPool-style ``send`` / ``recv`` could be with worker processes, and what costs it.

Usage::

    python benchmarks/bench_send_recv_floor.py [--env-id HalfCheetah-v5] [--workers 2]
        [--lanes 1 2] [--envs-per-worker 8] [--batch-lanes 1] [--parent-work 0 30 60 90]
        [--seconds 3] [--vecgym]

A bare collector built only for this measurement (not vecgym's): ``--workers`` processes, each
owning ``--envs-per-worker`` envs split into ``--lanes`` lanes. Every lane has a command word
and a done word in one shared block, beside the actions, observations and rewards of every env.
A worker blocks on its semaphore until some lane of its own has a new command, steps that lane's
envs (a reset where an episode ended) and publishes the lane's done word; the parent blocks on
one shared semaphore until ``--batch-lanes`` lanes are done, copies their observations and
rewards and sends them again at once. With two lanes or more, a worker has the next lane's
command while the parent is busy with the last one: the "two sub-slices per worker, a command
queue two deep" design. With one lane it is vecgym's layout (a worker's slice is one batch).

The parent does nothing but that, plus ``--parent-work`` microseconds of busy loop per batch,
which stands in for everything a real ``recv`` and ``send`` do (infos, checks, bookkeeping).
Infos are ignored and actions never change. So a row is an upper bound for any runtime with that
layout and that much parent work on this machine. ``--vecgym`` adds vecgym's own
``AsyncVectorEnv(num_workers=--workers, batch_size=--envs-per-worker)`` collected the same way,
with the parent's CPU time per batch, to place it on the curve.

Each row prints env steps per second, the share of the bound (the single env's rate, measured
first in this process, times the usable cores) and the parent's CPU per batch.
"""

from __future__ import annotations

import argparse
import mmap
import multiprocessing
import os
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _layout(lanes: int, num_envs: int, obs_dim: int, act_dim: int) -> tuple[list[Any], int]:
    """``(dtype, shape, offset)`` of the command words, done words, actions, observations and
    rewards in the shared block (each on its own cache line), and the block's size."""
    arrays = [
        (np.int64, (lanes,)),
        (np.int64, (lanes,)),
        (np.float32, (num_envs, act_dim)),
        (np.float64, (num_envs, obs_dim)),
        (np.float64, (num_envs,)),
    ]
    out, offset = [], 0
    for dtype, shape in arrays:
        out.append((dtype, shape, offset))
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        offset += (size + 63) // 64 * 64
    return out, offset


def _views(block: Any, lanes: int, num_envs: int, obs_dim: int, act_dim: int) -> list[Any]:
    """Command words, done words, actions, observations and rewards inside ``block``."""
    arrays, _ = _layout(lanes, num_envs, obs_dim, act_dim)
    return [
        np.frombuffer(block, dtype, int(np.prod(shape)), offset).reshape(shape)
        for dtype, shape, offset in arrays
    ]


def _worker(args: tuple[Any, ...]) -> None:
    env_id, block, shape, first_lane, lanes, lane_envs, wake, done = args
    import gymnasium

    command, done_word, actions, observations, rewards = _views(block, *shape)
    mine = list(range(first_lane, first_lane + lanes))
    envs = {lane: [gymnasium.make(env_id) for _ in range(lane_envs)] for lane in mine}
    for lane in mine:
        for env in envs[lane]:
            env.reset(seed=lane)
    seen = dict.fromkeys(mine, 0)
    while True:
        wake.acquire()  # one token per command
        lane = min((k for k in mine if command[k] != seen[k]), key=lambda k: int(command[k]))
        seq = int(command[lane])
        seen[lane] = seq
        if seq < 0:
            return
        base = lane * lane_envs
        for j, env in enumerate(envs[lane]):
            obs, reward, terminated, truncated, _ = env.step(actions[base + j])
            if terminated or truncated:
                obs, _ = env.reset()
            observations[base + j] = obs
            rewards[base + j] = reward
        done_word[lane] = seq
        done.release()


def floor(
    env_id: str,
    workers: int,
    lanes: int,
    lane_envs: int,
    batch_lanes: int,
    parent_work_s: float,
    seconds: float,
) -> tuple[float, float]:
    """Env steps per second of the bare collector, and the parent's CPU seconds per batch."""
    import gymnasium

    probe = gymnasium.make(env_id)
    obs_dim = int(np.prod(probe.observation_space.shape))
    act_dim = int(np.prod(probe.action_space.shape))
    probe.close()
    all_lanes = workers * lanes
    num_envs = all_lanes * lane_envs
    shape = (all_lanes, num_envs, obs_dim, act_dim)
    block = mmap.mmap(-1, _layout(*shape)[1])
    command, done_word, actions, observations, rewards = _views(block, *shape)
    actions[:] = np.random.default_rng(0).uniform(-1.0, 1.0, actions.shape)
    ctx = multiprocessing.get_context("fork")
    wakes = [ctx.Semaphore(0) for _ in range(workers)]
    done = ctx.Semaphore(0)
    processes = [
        ctx.Process(
            target=_worker,
            args=((env_id, block, shape, w * lanes, lanes, lane_envs, wakes[w], done),),
            daemon=True,
        )
        for w in range(workers)
    ]
    for process in processes:
        process.start()
    seq = 0
    posted = [0] * all_lanes

    def post(lane: int) -> None:
        nonlocal seq
        seq += 1
        command[lane] = posted[lane] = seq
        wakes[lane // lanes].release()

    try:
        for lane in range(all_lanes):
            post(lane)
        steps, batches, start, cpu = 0, 0, 0.0, 0.0
        warm_up = 100
        while True:
            got: list[int] = []
            while len(got) < batch_lanes:
                if not done.acquire(True, 30.0):
                    raise RuntimeError("a worker of the bare collector stopped answering")
                # one token per finished lane: take one lane not taken yet
                for lane in range(all_lanes):
                    if done_word[lane] == posted[lane] and lane not in got:
                        got.append(lane)
                        break
            for lane in got:
                rows = slice(lane * lane_envs, (lane + 1) * lane_envs)
                observations[rows].copy()
                rewards[rows].copy()
            if parent_work_s:
                until = time.perf_counter() + parent_work_s
                while time.perf_counter() < until:
                    pass
            for lane in got:
                post(lane)
            if warm_up:
                warm_up -= 1
                if not warm_up:
                    start, cpu = time.perf_counter(), time.process_time()
                continue
            steps += batch_lanes * lane_envs
            batches += 1
            if time.perf_counter() - start >= seconds:
                break
        elapsed = time.perf_counter() - start
        return steps / elapsed, (time.process_time() - cpu) / batches
    finally:
        for lane in range(all_lanes):
            command[lane] = -1 - lane
            wakes[lane // lanes].release()
        for process in processes:
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join()


def vecgym_send_recv(
    env_id: str, workers: int, lane_envs: int, seconds: float
) -> tuple[float, float]:
    """vecgym's ``AsyncVectorEnv`` collected as the bare collector is: rate and CPU per batch."""
    import gymnasium

    from vecgym.vector import AsyncVectorEnv

    num_envs = workers * lane_envs
    envs = AsyncVectorEnv(
        [lambda: gymnasium.make(env_id)] * num_envs,
        copy=False,
        batch_size=lane_envs,
        num_workers=workers,
    )
    try:
        envs.action_space.seed(0)
        actions = np.stack([envs.single_action_space.sample() for _ in range(num_envs)])
        envs.reset(seed=0)
        envs.send(actions)
        for _ in range(100):
            ids = envs.recv(timeout=30)[-1]
            envs.send(actions[: len(ids)], ids)
        steps, batches = 0, 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            ids = envs.recv(timeout=30)[-1]
            envs.send(actions[: len(ids)], ids)
            steps += len(ids)
            batches += 1
        elapsed = time.perf_counter() - start
        rate, per_batch = steps / elapsed, (time.process_time() - cpu) / batches
        envs.recv(timeout=30)
        return rate, per_batch
    finally:
        envs.close()


def main(argv: list[str] | None = None) -> None:
    from real_envs import _single

    from vecgym.cli.measure import usable_cores

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="HalfCheetah-v5")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--lanes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--envs-per-worker", type=int, default=8)
    parser.add_argument("--batch-lanes", type=int, default=None, help="default: --lanes")
    parser.add_argument("--parent-work", type=float, nargs="+", default=[0, 30, 60, 90])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--vecgym", action="store_true")
    args = parser.parse_args(argv)

    import gymnasium

    cores = usable_cores()
    single = _single(lambda: gymnasium.make(args.env_id), args.seconds)
    bound = single * cores
    print(f"{args.env_id}: single env {single:,.0f} steps/s, bound {bound:,.0f} ({cores} cores)")
    print("| layout | batch | parent work (us) | steps/s | share of the bound | parent CPU/batch |")
    print("|---|---:|---:|---:|---:|---:|")
    for lanes in args.lanes:
        if args.envs_per_worker % lanes:
            parser.error(f"--envs-per-worker must split into {lanes} lanes")
        lane_envs = args.envs_per_worker // lanes
        batch_lanes = args.batch_lanes or lanes
        for work in args.parent_work:
            rate, per_batch = floor(
                args.env_id,
                args.workers,
                lanes,
                lane_envs,
                batch_lanes,
                work * 1e-6,
                args.seconds,
            )
            print(
                f"| bare, {args.workers} x {lanes} lanes of {lane_envs} | {batch_lanes * lane_envs}"
                f" | {work:.0f} | {rate:,.0f} | {rate / bound:.0%} | {per_batch * 1e6:.0f} us |"
            )
    if args.vecgym:
        rate, per_batch = vecgym_send_recv(
            args.env_id, args.workers, args.envs_per_worker, args.seconds
        )
        print(
            f"| vecgym AsyncVectorEnv, {args.workers} workers | {args.envs_per_worker} | - "
            f"| {rate:,.0f} | {rate / bound:.0%} | {per_batch * 1e6:.0f} us |"
        )


if __name__ == "__main__":
    main()
