"""EnvPool-style asynchronous collection: ``AsyncVectorEnv.send`` / ``recv`` with ``batch_size``.

With ``step`` every call waits for the slowest env. With ``send(actions, env_ids)`` /
``recv()`` the envs run as a pool: ``recv`` returns as soon as ``batch_size`` envs have finished
(whichever they are, reported in ``env_ids``), the policy acts on just those, and ``send`` puts them
back to work while the others are still stepping. Here 8 CartPole-v1 envs run on 2 worker
processes (4 envs each) and ``recv`` returns batches of 4: each batch is one worker's envs, and
which worker comes back first varies from batch to batch, so the ``env_ids`` printed below come
back in varying order. (``AsyncVectorEnv`` schedules whole workers: with ``num_workers`` workers
the natural batch sizes are multiples of the envs per worker.)

Autoreset is ``NEXT_STEP`` as everywhere in vecgym: after an env's episode ends, the next result
for that env is its reset step (reward 0, the new episode's first observation), which is not
counted as an env step or in the episode's return.

The script collects ``--total-steps`` env steps with a simple hand-written policy (push the cart
toward the side the pole is falling to) or ``--policy random``, prints the first batches' env ids,
how often each set of ids came first, the pool's throughput, and for comparison the throughput of
plain ``step`` on all the envs. Run ``python examples/async_collect.py`` (``--total-steps 2000``
for a quick run); it exits 0.

What to expect: the pool pays off when envs take varying time per step, or when the policy's
work on one batch can overlap with the other envs stepping (a neural network, many cores). With
CartPole (microseconds per step), a one-line policy and 2 cores there is nothing to overlap, and
the pool's extra round trips (twice as many, for half the envs each) can make it slower than
``step``; ``vecgym autotune`` measures what is fastest for a given env on a given machine.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

import vecgym
from vecgym.vector import AsyncVectorEnv

ENV_ID = "CartPole-v1"
SHOW_BATCHES = 8

Policy = Callable[[npt.NDArray[np.floating]], npt.NDArray[np.int64]]


def make_policy(name: str, rng: np.random.Generator) -> Policy:
    """``"heuristic"``: push toward the side the pole falls to; ``"random"``: uniform actions."""
    if name == "random":
        return lambda obs: rng.integers(0, 2, size=len(obs), dtype=np.int64)
    # obs = (cart position, cart velocity, pole angle, pole angular velocity)
    return lambda obs: (obs[:, 2] + obs[:, 3] > 0).astype(np.int64)


class EpisodeCounter:
    """Per-env returns under NEXT_STEP autoreset, fed with ``recv`` results in any env order."""

    def __init__(self, num_envs: int) -> None:
        self.running = np.zeros(num_envs)
        self.pending_reset = np.zeros(num_envs, dtype=bool)
        self.returns: list[float] = []
        self.env_steps = 0

    def add(
        self,
        env_ids: npt.NDArray[np.intp],
        rewards: npt.NDArray[np.floating],
        terminations: npt.NDArray[np.bool_],
        truncations: npt.NDArray[np.bool_],
    ) -> None:
        """Account for one ``recv`` batch; reset steps are neither steps nor part of a return."""
        reset_step = self.pending_reset[env_ids]
        real = env_ids[~reset_step]
        self.env_steps += len(real)
        self.running[real] += rewards[~reset_step]
        done = np.logical_or(terminations, truncations) & ~reset_step
        for i in env_ids[done]:
            self.returns.append(float(self.running[i]))
            self.running[i] = 0.0
        self.pending_reset[env_ids] = done


def collect_with_pool(
    envs: AsyncVectorEnv, policy: Policy, total_steps: int, seed: int
) -> tuple[EpisodeCounter, list[tuple[int, ...]], float]:
    """Run the send/recv loop until ``total_steps`` env steps; return stats, batch ids, seconds."""
    counter = EpisodeCounter(envs.num_envs)
    obs, _ = envs.reset(seed=seed)
    batches: list[tuple[int, ...]] = []
    start = time.perf_counter()
    envs.send(policy(obs), np.arange(envs.num_envs))
    in_flight = envs.num_envs
    while counter.env_steps < total_steps:
        obs, rewards, terminations, truncations, _, env_ids = envs.recv()
        in_flight -= len(env_ids)
        batches.append(tuple(int(i) for i in env_ids))
        counter.add(env_ids, rewards, terminations, truncations)
        envs.send(policy(obs), env_ids)
        in_flight += len(env_ids)
    while in_flight:  # drain: leave no env in flight
        in_flight -= len(envs.recv()[-1])
    return counter, batches, time.perf_counter() - start


def collect_with_step(
    envs: AsyncVectorEnv, policy: Policy, total_steps: int, seed: int
) -> tuple[EpisodeCounter, float]:
    """The same collection with plain ``step`` on all envs, for comparison."""
    counter = EpisodeCounter(envs.num_envs)
    obs, _ = envs.reset(seed=seed)
    ids = np.arange(envs.num_envs)
    start = time.perf_counter()
    while counter.env_steps < total_steps:
        obs, rewards, terminations, truncations, _ = envs.step(policy(obs))
        counter.add(ids, rewards, terminations, truncations)
    return counter, time.perf_counter() - start


def summary(label: str, counter: EpisodeCounter, seconds: float) -> str:
    """``label: N env steps in S s = R steps/s; E episodes, mean return M``."""
    mean = np.mean(counter.returns) if counter.returns else float("nan")
    return (
        f"{label}: {counter.env_steps} env steps in {seconds:.2f} s = "
        f"{counter.env_steps / seconds:,.0f} steps/s; {len(counter.returns)} episodes, "
        f"mean return {mean:.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    """Collect with send/recv, then with step; print what happened. Returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--num-workers", type=int, default=2)
    parser.add_argument("--total-steps", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", choices=("heuristic", "random"), default="heuristic")
    args = parser.parse_args(argv)

    envs = AsyncVectorEnv(
        [lambda: vecgym.make(ENV_ID) for _ in range(args.num_envs)],
        num_workers=args.num_workers,
        batch_size=args.batch_size,
    )
    try:
        print(
            f"async_collect: {args.num_envs} x {ENV_ID} on {envs.num_workers} workers, "
            f"batch_size {envs.batch_size}, {args.policy} policy, seed {args.seed}",
            flush=True,
        )
        policy = make_policy(args.policy, np.random.default_rng(args.seed))
        counter, batches, seconds = collect_with_pool(envs, policy, args.total_steps, args.seed)
        shown = " ".join(str(list(b)) for b in batches[:SHOW_BATCHES])
        print(f"env ids of the first {min(SHOW_BATCHES, len(batches))} batches: {shown}")
        counts = Counter(batches)
        print(
            f"batches: {len(batches)}; each set of env ids and how often it came back: "
            + ", ".join(f"{list(ids)} x{n}" for ids, n in sorted(counts.items()))
        )
        repeats = sum(a == b for a, b in itertools.pairwise(batches))
        print(f"the same env ids came back twice in a row {repeats} times (no fixed rotation)")
        print(summary("send/recv", counter, seconds), flush=True)
        step_counter, step_seconds = collect_with_step(envs, policy, args.total_steps, args.seed)
        print(summary(f"step() on all {args.num_envs} envs", step_counter, step_seconds))
    finally:
        envs.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
