"""PPO (clipped objective, GAE) on CartPole-v1 with numpy only, collecting through AsyncVectorEnv.

Proximal Policy Optimisation (Schulman et al., 2017) with the usual details: generalised
advantage estimation, advantages normalised per minibatch, a clipped surrogate objective, a value
loss and an entropy bonus, several epochs of shuffled minibatches per rollout, global gradient-norm
clipping, Adam with a linearly annealed learning rate, orthogonal initialisation, separate policy
and value networks (64-64 ``tanh``). The networks, their backward pass and Adam are hand-written in
``_nn.py``; rollouts, GAE and the treatment of autoreset (masked reset steps, bootstrapping on
truncation but not on termination) are in ``_rl.py``, shared with ``a2c.py``.

Experience comes from ``vecgym.vector.AsyncVectorEnv`` (8 CartPole-v1 envs in worker processes by
default) wrapped in ``vecgym.wrappers.vector.RecordEpisodeStatistics``, whose ``return_queue``
holds the returns of the last 20 finished episodes. Training stops as soon as their mean reaches
the target (450 by default) or the step budget runs out. ``--eval`` then plays 10 greedy episodes.

Run::

    python examples/ppo.py                        # seed 1: solves CartPole-v1, exit status 0
    python examples/ppo.py --eval                 # ... and evaluates the greedy policy
    python examples/ppo.py --total-steps 4096 --target 0   # a smoke run

Exit status 0 when the target was reached (and, with ``--eval``, the greedy mean too), 1 when not;
``--target 0`` disables the target (exit 0 after the budget). Env steps count every vector step
times ``num_envs`` (NEXT_STEP reset steps included, as most RL code counts frames).

Measured on the development machine (2 cores, shared): seed 1 reaches the target after 59,392 env
steps in about 4-5 s of training (its greedy evaluation scores 500); seeds 1-10 all reach it, after
59k-177k env steps, and all score 500 in the greedy evaluation. Runs are reproducible for a seed
on a given machine and numpy build.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

# Multi-threaded BLAS only slows these tiny matrix products down, badly so when the cores are
# busy stepping environments: one BLAS thread, unless the caller chose otherwise. It must be set
# before numpy is first imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt
from _nn import Adam, Array, clip_by_global_norm, log_softmax, policy_logits_grad
from _rl import ActorCritic, Batch, Rollout, common_arguments, train, valid_transitions

DEFAULT_TOTAL_STEPS = 300_000
DEFAULT_NUM_ENVS = 8


@dataclass(frozen=True)
class PPOConfig:
    """PPO's hyperparameters (CleanRL's CartPole settings, with a larger learning rate)."""

    num_steps: int = 128
    """Vector steps per rollout (the batch is ``num_steps * num_envs`` transitions)."""
    learning_rate: float = 1e-3
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5


def make_batch(rollout: Rollout, config: PPOConfig) -> Batch:
    """GAE over the rollout, then flatten it and drop the NEXT_STEP reset steps."""
    return valid_transitions(rollout, config.gamma, config.gae_lambda)


def ppo_gradients(
    agent: ActorCritic, batch: Batch, idx: npt.NDArray[np.intp], config: PPOConfig
) -> tuple[list[Array], dict[str, float]]:
    """Gradients of the PPO loss on the minibatch ``idx`` (actor's, then critic's) and stats.

    loss = mean(max(-A * ratio, -A * clip(ratio, 1 - eps, 1 + eps)))
           + vf_coef * 0.5 * mean((V - R)^2) - ent_coef * mean(H)
    """
    obs, actions = batch.obs[idx], batch.actions[idx]
    adv = batch.advantages[idx]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    size = len(idx)

    logits, actor_cache = agent.actor.forward(obs)
    logp = log_softmax(logits)
    logp_a = logp[np.arange(size), actions]
    ratio = np.exp(logp_a - batch.logp[idx])
    unclipped = -adv * ratio
    clipped = -adv * np.clip(ratio, 1.0 - config.clip_coef, 1.0 + config.clip_coef)
    # max(unclipped, clipped) follows the unclipped term (slope -A * ratio in log pi) exactly
    # where it is the larger one; elsewhere the clipped term is flat in log pi.
    grad_logp_a = np.where(unclipped >= clipped, -adv * ratio, 0.0) / size
    grad_entropy = np.full(size, -config.ent_coef / size)
    d_logits = policy_logits_grad(logp, actions, grad_logp_a, grad_entropy)
    actor_grads = agent.actor.backward(actor_cache, d_logits)

    values, critic_cache = agent.critic.forward(obs)
    error = values[:, 0] - batch.returns[idx]
    critic_grads = agent.critic.backward(critic_cache, (config.vf_coef * error / size)[:, None])

    stats = {
        "policy_loss": float(np.maximum(unclipped, clipped).mean()),
        "value_loss": float(0.5 * np.mean(error**2)),
        "entropy": float(-(np.exp(logp) * logp).sum(axis=-1).mean()),
        "approx_kl": float(np.mean((ratio - 1.0) - np.log(ratio))),
    }
    return actor_grads + critic_grads, stats


def update(
    agent: ActorCritic, optimizer: Adam, batch: Batch, config: PPOConfig, rng: np.random.Generator
) -> dict[str, float]:
    """``update_epochs`` passes of shuffled minibatches over ``batch``; the last stats."""
    stats: dict[str, float] = {}
    for _ in range(config.update_epochs):
        order = rng.permutation(len(batch.actions))
        for idx in np.array_split(order, config.num_minibatches):
            grads, stats = ppo_gradients(agent, batch, idx, config)
            grads, stats["grad_norm"] = clip_by_global_norm(grads, config.max_grad_norm)
            optimizer.step(grads)
    return stats


def main(argv: list[str] | None = None) -> int:
    """Train PPO on CartPole-v1; return the exit status."""
    parser = common_arguments(__doc__.splitlines()[0], DEFAULT_TOTAL_STEPS, DEFAULT_NUM_ENVS)
    args = parser.parse_args(argv)
    config = PPOConfig()

    def ppo_update(
        agent: ActorCritic, optimizer: Adam, rollout: Rollout, rng: np.random.Generator
    ) -> None:
        update(agent, optimizer, make_batch(rollout, config), config, rng)

    return train("ppo", args, config.num_steps, config.learning_rate, config.anneal_lr, ppo_update)


if __name__ == "__main__":
    sys.exit(main())
