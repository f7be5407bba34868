"""A2C (synchronous advantage actor-critic) on CartPole-v1 with numpy only, through AsyncVectorEnv.

Advantage actor-critic (Mnih et al., 2016, in its synchronous form): every ``num_steps`` vector
steps, one gradient step on ``-A * log pi(a) + vf_coef * 0.5 * (V - R)^2 - ent_coef * H`` over the
whole short rollout, with GAE advantages (``gae_lambda = 1`` would be plain n-step returns), global
gradient-norm clipping and Adam. Networks and optimiser come from ``_nn.py``; rollouts, GAE and
the autoreset treatment (NEXT_STEP reset steps masked, truncation bootstrapped from the final
observation's value, termination not) from ``_rl.py``, shared with ``ppo.py``.

A2C has no trust region, so a single noisy update can undo a good policy. The settings below
(16-step rollouts over 8 envs, lambda 0.95, advantages normalised per update, Adam at 1e-3 annealed
to zero over the budget, no entropy bonus) were checked on the development machine (2 cores,
shared) over seeds 1-10: all reached the target, after 47k-157k env steps (seed 1: 51,328 steps,
about 2 s of training); their greedy evaluation reached 450 for 9 of the 10 (seed 5: 373).

Run::

    python examples/a2c.py                        # seed 1: solves CartPole-v1, exit status 0
    python examples/a2c.py --eval                 # ... and evaluates the greedy policy
    python examples/a2c.py --total-steps 2000 --target 0   # a smoke run

Exit status and step counting are as in ``ppo.py``: 0 when the mean return of the last 20
training episodes reached the target (450 by default; with ``--eval`` the greedy mean over 10
episodes must reach it too), 1 when not; ``--target 0`` disables the target.
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
from _nn import Adam, Array, clip_by_global_norm, log_softmax, policy_logits_grad
from _rl import ActorCritic, Rollout, common_arguments, train, valid_transitions

DEFAULT_TOTAL_STEPS = 500_000
DEFAULT_NUM_ENVS = 8


@dataclass(frozen=True)
class A2CConfig:
    """A2C's hyperparameters for CartPole-v1."""

    num_steps: int = 16
    """Vector steps per update."""
    learning_rate: float = 1e-3
    anneal_lr: bool = True
    gamma: float = 0.99
    gae_lambda: float = 0.95
    normalize_advantages: bool = True
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5


def a2c_gradients(
    agent: ActorCritic, rollout: Rollout, config: A2CConfig
) -> tuple[list[Array], dict[str, float]]:
    """Gradients of the A2C loss over the rollout's valid transitions (actor's, then critic's)."""
    batch = valid_transitions(rollout, config.gamma, config.gae_lambda)
    obs, actions, adv, targets = batch.obs, batch.actions, batch.advantages, batch.returns
    if config.normalize_advantages and len(adv) > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    size = len(actions)

    logits, actor_cache = agent.actor.forward(obs)
    logp = log_softmax(logits)
    d_logits = policy_logits_grad(
        logp, actions, -adv / size, np.full(size, -config.ent_coef / size)
    )
    actor_grads = agent.actor.backward(actor_cache, d_logits)

    values, critic_cache = agent.critic.forward(obs)
    error = values[:, 0] - targets
    critic_grads = agent.critic.backward(critic_cache, (config.vf_coef * error / size)[:, None])
    stats = {
        "policy_loss": float(-(adv * logp[np.arange(size), actions]).mean()),
        "value_loss": float(0.5 * np.mean(error**2)),
    }
    return actor_grads + critic_grads, stats


def main(argv: list[str] | None = None) -> int:
    """Train A2C on CartPole-v1; return the exit status."""
    parser = common_arguments(__doc__.splitlines()[0], DEFAULT_TOTAL_STEPS, DEFAULT_NUM_ENVS)
    args = parser.parse_args(argv)
    config = A2CConfig()

    def a2c_update(
        agent: ActorCritic, optimizer: Adam, rollout: Rollout, rng: np.random.Generator
    ) -> None:
        grads, _ = a2c_gradients(agent, rollout, config)
        grads, _ = clip_by_global_norm(grads, config.max_grad_norm)
        optimizer.step(grads)

    return train("a2c", args, config.num_steps, config.learning_rate, config.anneal_lr, a2c_update)


if __name__ == "__main__":
    sys.exit(main())
