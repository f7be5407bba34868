"""PPO on MuJoCo in the style of CleanRL's ``ppo_continuous_action.py``, on vecgym.

The environment code is CleanRL's, written for Gymnasium 1.x; the only change is the import line:
``import vecgym as gym`` instead of ``import gymnasium as gym``. ``gym.make("Hopper-v5")``
resolves through Gymnasium's registry (vecgym does not register MuJoCo envs itself), and the
wrappers and vector env are vecgym's. ``--async`` swaps ``gym.vector.SyncVectorEnv`` for
``gym.vector.AsyncVectorEnv``, vecgym's shared-memory runtime.

Needs ``pip install "vecgym[mujoco]" torch``. Run::

    python examples/cleanrl_ppo_continuous.py --env-id Hopper-v5 --total-timesteps 100000

It prints one line per finished episode (``global_step=..., episodic_return=...``) and, per
iteration, the steps per second.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.distributions.normal import Normal

import vecgym as gym  # the one line changed from CleanRL's `import gymnasium as gym`


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (CleanRL's names and defaults, except a smaller default budget)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env-id", default="Hopper-v5")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-timesteps", type=int, default=100_000)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--num-envs", type=int, default=1)
    parser.add_argument("--num-steps", type=int, default=2048)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--num-minibatches", type=int, default=32)
    parser.add_argument("--update-epochs", type=int, default=10)
    parser.add_argument("--clip-coef", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.0)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--async", dest="use_async", action="store_true", help="AsyncVectorEnv")
    parser.add_argument("--torch-threads", type=int, default=1)
    args = parser.parse_args(argv)
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = max(1, args.batch_size // args.num_minibatches)
    args.num_iterations = max(1, args.total_timesteps // args.batch_size)
    return args


def make_env(env_id: str, gamma: float) -> Callable[[], Any]:
    """CleanRL's env thunk: normalised, clipped observations and rewards, clipped actions."""

    def thunk() -> Any:
        env = gym.make(env_id)
        env = gym.wrappers.FlattenObservation(env)
        env = gym.wrappers.RecordEpisodeStatistics(env)
        env = gym.wrappers.ClipAction(env)
        env = gym.wrappers.NormalizeObservation(env)
        env = gym.wrappers.TransformObservation(
            env, lambda obs: np.clip(obs, -10, 10), env.observation_space
        )
        env = gym.wrappers.NormalizeReward(env, gamma=gamma)
        env = gym.wrappers.TransformReward(env, lambda reward: np.clip(reward, -10, 10))
        return env

    return thunk


def layer_init(layer: nn.Linear, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Linear:
    """Orthogonal weights, constant bias."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    """Separate tanh MLPs for the value and the Gaussian policy's mean; state-free log-std."""

    def __init__(self, obs_dim: int, act_dim: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 1), std=1.0),
        )
        self.actor_mean = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, 64)),
            nn.Tanh(),
            layer_init(nn.Linear(64, act_dim), std=0.01),
        )
        self.actor_logstd = nn.Parameter(torch.zeros(1, act_dim))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(
        self, x: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        mean = self.actor_mean(x)
        dist = Normal(mean, self.actor_logstd.expand_as(mean).exp())
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action).sum(1), dist.entropy().sum(1), self.critic(x)


def advantages_and_returns(
    rewards: torch.Tensor,
    values: torch.Tensor,
    dones: torch.Tensor,
    next_value: torch.Tensor,
    next_done: torch.Tensor,
    gamma: float,
    gae_lambda: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalised advantage estimates over a rollout of ``len(rewards)`` steps."""
    advantages = torch.zeros_like(rewards)
    last = torch.zeros_like(next_value)
    for t in reversed(range(len(rewards))):
        not_done = 1.0 - (next_done if t == len(rewards) - 1 else dones[t + 1])
        following = next_value if t == len(rewards) - 1 else values[t + 1]
        delta = rewards[t] + gamma * following * not_done - values[t]
        last = delta + gamma * gae_lambda * not_done * last
        advantages[t] = last
    return advantages, advantages + values


def main(argv: list[str] | None = None) -> list[float]:
    """Train; returns the episodic returns seen (in order)."""
    args = parse_args(argv)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    # Networks this small run fastest on one thread; more threads spin against the env workers.
    torch.set_num_threads(args.torch_threads)

    vector = gym.vector.AsyncVectorEnv if args.use_async else gym.vector.SyncVectorEnv
    envs = vector([make_env(args.env_id, args.gamma) for _ in range(args.num_envs)])
    assert isinstance(envs.single_action_space, gym.spaces.Box), "continuous actions only"
    obs_dim = int(np.prod(envs.single_observation_space.shape))
    act_shape = envs.single_action_space.shape
    agent = Agent(obs_dim, int(np.prod(act_shape)))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs, obs_dim))
    actions = torch.zeros((args.num_steps, args.num_envs, *act_shape))
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    dones = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))

    episodic_returns: list[float] = []
    global_step = 0
    start = time.time()
    next_obs_np, _ = envs.reset(seed=args.seed)
    next_obs = torch.tensor(next_obs_np, dtype=torch.float32)
    next_done = torch.zeros(args.num_envs)
    for iteration in range(1, args.num_iterations + 1):
        optimizer.param_groups[0]["lr"] = (
            1.0 - (iteration - 1.0) / args.num_iterations
        ) * args.learning_rate
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            next_obs_np, reward, terminations, truncations, infos = envs.step(action.numpy())
            rewards[step] = torch.tensor(reward, dtype=torch.float32)
            next_obs = torch.tensor(next_obs_np, dtype=torch.float32)
            next_done = torch.tensor(np.logical_or(terminations, truncations), dtype=torch.float32)
            if "episode" in infos:
                for i in np.flatnonzero(infos["_episode"]):
                    episodic_return = float(infos["episode"]["r"][i])
                    episodic_returns.append(episodic_return)
                    print(f"global_step={global_step}, episodic_return={episodic_return:.2f}")

        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)[0]
            advantages, returns = advantages_and_returns(
                rewards, values, dones, next_value, next_done, args.gamma, args.gae_lambda
            )
        update(agent, optimizer, args, obs, actions, logprobs, advantages, returns)
        print(f"iteration={iteration} SPS={int(global_step / (time.time() - start))}")
    envs.close()
    return episodic_returns


def update(
    agent: Agent,
    optimizer: torch.optim.Optimizer,
    args: argparse.Namespace,
    obs: torch.Tensor,
    actions: torch.Tensor,
    logprobs: torch.Tensor,
    advantages: torch.Tensor,
    returns: torch.Tensor,
) -> None:
    """The clipped-surrogate PPO update over shuffled minibatches of the rollout."""
    b_obs = obs.reshape(args.batch_size, -1)
    b_actions = actions.reshape(args.batch_size, -1)
    b_logprobs, b_advantages, b_returns = (t.reshape(-1) for t in (logprobs, advantages, returns))
    order = np.arange(args.batch_size)
    for _ in range(args.update_epochs):
        np.random.shuffle(order)
        for begin in range(0, args.batch_size, args.minibatch_size):
            mb = order[begin : begin + args.minibatch_size]
            _, new_logprob, entropy, new_value = agent.get_action_and_value(
                b_obs[mb], b_actions[mb]
            )
            ratio = (new_logprob - b_logprobs[mb]).exp()
            mb_adv = b_advantages[mb]
            mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std(unbiased=False) + 1e-8)
            pg_loss = torch.max(
                -mb_adv * ratio,
                -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef),
            ).mean()
            v_loss = 0.5 * ((new_value.view(-1) - b_returns[mb]) ** 2).mean()
            loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            optimizer.step()


if __name__ == "__main__":
    main()
