"""A2C on CartPole-v1, rollouts collected by RayVectorEnv (one Ray call per host per update).

The learner is ``a2c.py``'s (same agent, loss, GAE and NEXT_STEP treatment from ``_rl.py``); only
collection differs: instead of stepping a local vector env ``num_steps`` times, each update sends
the current policy to every host once (``RayVectorEnv.rollout``) and each host runs the
``num_steps`` steps on its node, sampling actions with the policy there and returning the stacked
observations, actions, log-probabilities and values. The driver then computes the update from the
``(T, n, ...)`` arrays. This is the pattern that amortises Ray's ~1-3 ms round trip.

Ray: with Ray already initialised (``ray.init(address=...)``) the hosts go to that cluster, one per
node; ``--address`` connects to a cluster; otherwise a local single-node Ray is started and shut
down at the end (run with ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` to keep it on 127.0.0.1). Never
expose a Ray cluster to an untrusted network: pickled env functions and policies run code on it
(``docs/ray.md``).

Run::

    python examples/ray_a2c.py                        # solves CartPole-v1 (exit status 0)
    python examples/ray_a2c.py --total-steps 2048 --target 0   # a smoke run
"""

from __future__ import annotations

import os
import sys
import zlib
from collections import deque
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np
from _nn import Adam, clip_by_global_norm, log_softmax, sample_categorical
from _rl import ActorCritic, Rollout, common_arguments
from a2c import A2CConfig, a2c_gradients

import vecgym
from vecgym.vector import RayVectorEnv

ENV_ID = "CartPole-v1"
DEFAULT_TOTAL_STEPS = 500_000
DEFAULT_NUM_ENVS = 8
RETURN_WINDOW = 20


def make_env() -> Any:
    return vecgym.make(ENV_ID)


class SamplingPolicy:
    """The actor-critic's current weights, run on each host: ``obs -> (actions, extras)``.

    Each host gets its own copy; its sampling generator is seeded from the update's seed and the
    host's first observations, so hosts draw different, reproducible actions.
    """

    def __init__(self, agent: ActorCritic, seed: int) -> None:
        self.agent = agent
        self.seed = seed
        self.rng: np.random.Generator | None = None

    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        obs = np.asarray(obs, dtype=np.float64)
        if self.rng is None:
            self.rng = np.random.default_rng([self.seed, zlib.crc32(obs.tobytes())])
        logp_all = log_softmax(self.agent.actor(obs))
        actions = sample_categorical(logp_all, self.rng)
        logp = logp_all[np.arange(len(actions)), actions]
        return actions, {"logp": logp, "value": self.agent.value(obs)}


class EpisodeReturns:
    """Returns of finished episodes, from the rollouts' rewards and ends (NEXT_STEP layout)."""

    def __init__(self, num_envs: int) -> None:
        self.running = np.zeros(num_envs)
        self.finished: deque[float] = deque(maxlen=RETURN_WINDOW)
        self.count = 0

    def add(self, rewards: np.ndarray, ended: np.ndarray) -> None:
        for t in range(len(rewards)):
            self.running += rewards[t]
            for i in np.flatnonzero(ended[t]).tolist():
                self.finished.append(float(self.running[i]))
                self.running[i] = 0.0
                self.count += 1

    def mean(self) -> float:
        return float(np.mean(self.finished)) if self.finished else float("nan")


def to_rollout(batch: Any, prev_done: np.ndarray, agent: ActorCritic) -> Rollout:
    """``RayVectorEnv.rollout``'s result in ``_rl.Rollout``'s layout (with the reset-step flags)."""
    ended = batch.terminations | batch.truncations
    reset_step = np.vstack([prev_done[None], ended[:-1]])
    return Rollout(
        obs=np.asarray(batch.observations, dtype=np.float64),
        actions=np.asarray(batch.actions, dtype=np.int64),
        logp=batch.extras["logp"],
        values=batch.extras["value"],
        rewards=batch.rewards,
        terminated=batch.terminations,
        truncated=batch.truncations,
        reset_step=reset_step,
        last_values=agent.value(np.asarray(batch.next_observations, dtype=np.float64)),
    )


def ship_helper_modules() -> None:
    """Pickle this example's helper modules by value: Ray's workers cannot import them (they are
    not installed, only next to this script)."""
    import _nn
    import _rl
    from ray import cloudpickle

    modules = [_nn, _rl] + ([] if __name__ == "__main__" else [sys.modules[__name__]])
    for module in modules:
        cloudpickle.register_pickle_by_value(module)


def main(argv: list[str] | None = None) -> int:
    """Train A2C on CartPole-v1 with RayVectorEnv rollouts; return the exit status."""
    parser = common_arguments(__doc__.splitlines()[0], DEFAULT_TOTAL_STEPS, DEFAULT_NUM_ENVS)
    parser.add_argument("--address", default=None, help="the Ray cluster to connect to")
    parser.add_argument("--num-hosts", type=int, default=None, help="default: one per node")
    args = parser.parse_args(argv)
    config = A2CConfig()
    rng = np.random.default_rng(args.seed)
    ship_helper_modules()
    envs = RayVectorEnv([make_env] * args.num_envs, num_hosts=args.num_hosts, address=args.address)
    try:
        obs, _ = envs.reset(seed=args.seed)
        agent = ActorCritic(int(np.prod(obs.shape[1:])), 2, rng)
        optimizer = Adam(agent.params, lr=config.learning_rate)
        steps_per_update = config.num_steps * args.num_envs
        num_updates = max(1, args.total_steps // steps_per_update)
        returns = EpisodeReturns(args.num_envs)
        prev_done = np.zeros(args.num_envs, dtype=np.bool_)
        print(f"ray_a2c: {ENV_ID}, {args.num_envs} envs on {len(envs.hosts)} host(s)", flush=True)
        steps = 0
        for update in range(num_updates):
            if config.anneal_lr:
                optimizer.lr = config.learning_rate * (1.0 - update / num_updates)
            batch = envs.rollout(
                SamplingPolicy(agent, args.seed * 100_003 + update), config.num_steps
            )
            rollout = to_rollout(batch, prev_done, agent)
            ended = batch.terminations | batch.truncations
            prev_done = ended[-1]
            returns.add(batch.rewards, ended)
            grads, _ = a2c_gradients(agent, rollout, config)
            grads, _ = clip_by_global_norm(grads, config.max_grad_norm)
            optimizer.step(grads)
            steps += steps_per_update
            if steps % args.log_every < steps_per_update:
                print(
                    f"steps={steps:>8d}  episodes={returns.count:>5d}  "
                    f"mean_return(last {RETURN_WINDOW})={returns.mean():>6.1f}",
                    flush=True,
                )
            full = len(returns.finished) == RETURN_WINDOW
            if args.target > 0 and full and returns.mean() >= args.target:
                break
    finally:
        envs.close()
    solved = args.target <= 0 or (
        len(returns.finished) == RETURN_WINDOW and returns.mean() >= args.target
    )
    print(f"ray_a2c: {'done' if solved else 'target not reached'}: {steps} env steps", flush=True)
    return 0 if solved else 1


if __name__ == "__main__":
    sys.exit(main())
