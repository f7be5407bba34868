"""PPO on Atari in the style of CleanRL's ``ppo_atari.py``, on vecgym.

The environment code is CleanRL's (Gymnasium 1.x names), with Stable-Baselines3's Atari wrappers
stacked between vecgym's; the only change is the import line: ``import vecgym as gym`` instead of
``import gymnasium as gym``. ``gym.make("BreakoutNoFrameskip-v4")`` resolves through Gymnasium's
registry, so the env stack's base is a Gymnasium env and every vecgym layer over it is a
``gymnasium.Env`` too: SB3's wrappers (``gymnasium.Wrapper`` subclasses) accept it, and vecgym's
wrappers accept SB3's in turn. ``--async`` swaps ``gym.vector.SyncVectorEnv`` for
``gym.vector.AsyncVectorEnv``, vecgym's shared-memory runtime.

Needs ``pip install "vecgym[atari,sb3]" torch``. The defaults are a short smoke run; CleanRL's
own budget is ``--total-timesteps 10000000 --num-envs 8``::

    python examples/cleanrl_ppo_atari.py --env-id BreakoutNoFrameskip-v4 --async

It prints one line per finished episode (``global_step=..., episodic_return=...``) and, per
iteration, the steps per second.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import ale_py
import numpy as np
import torch
from stable_baselines3.common.atari_wrappers import (
    ClipRewardEnv,
    EpisodicLifeEnv,
    FireResetEnv,
    MaxAndSkipEnv,
    NoopResetEnv,
)
from torch import nn
from torch.distributions.categorical import Categorical

import vecgym as gym  # the one line changed from CleanRL's `import gymnasium as gym`

gym.register_envs(ale_py)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (CleanRL's names and defaults, except a much smaller default budget)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env-id", default="BreakoutNoFrameskip-v4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-timesteps", type=int, default=2048)
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--num-steps", type=int, default=128)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--num-minibatches", type=int, default=4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--clip-coef", type=float, default=0.1)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--async", dest="use_async", action="store_true", help="AsyncVectorEnv")
    parser.add_argument("--torch-threads", type=int, default=1)
    args = parser.parse_args(argv)
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = max(1, args.batch_size // args.num_minibatches)
    args.num_iterations = max(1, args.total_timesteps // args.batch_size)
    return args


def make_env(env_id: str) -> Callable[[], Any]:
    """CleanRL's Atari thunk: SB3's Atari wrappers, then 84x84 grey frames, four stacked."""

    def thunk() -> Any:
        env = gym.make(env_id)
        env = gym.wrappers.RecordEpisodeStatistics(env)
        env = NoopResetEnv(env, noop_max=30)
        env = MaxAndSkipEnv(env, skip=4)
        env = EpisodicLifeEnv(env)
        if "FIRE" in env.unwrapped.get_action_meanings():
            env = FireResetEnv(env)
        env = ClipRewardEnv(env)
        env = gym.wrappers.ResizeObservation(env, (84, 84))
        env = gym.wrappers.GrayscaleObservation(env)
        env = gym.wrappers.FrameStackObservation(env, 4)
        return env

    return thunk


def layer_init(layer: Any, std: float = float(np.sqrt(2)), bias: float = 0.0) -> Any:
    """Orthogonal weights, constant bias."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


class Agent(nn.Module):
    """The Nature-DQN convolutional torso shared by a categorical policy and a value head."""

    def __init__(self, n_actions: int) -> None:
        super().__init__()
        self.network = nn.Sequential(
            layer_init(nn.Conv2d(4, 32, 8, stride=4)),
            nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)),
            nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)),
            nn.ReLU(),
            nn.Flatten(),
            layer_init(nn.Linear(64 * 7 * 7, 512)),
            nn.ReLU(),
        )
        self.actor = layer_init(nn.Linear(512, n_actions), std=0.01)
        self.critic = layer_init(nn.Linear(512, 1), std=1.0)

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self.network(x / 255.0))

    def get_action_and_value(
        self, x: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        hidden = self.network(x / 255.0)
        dist = Categorical(logits=self.actor(hidden))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden)


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
    torch.set_num_threads(args.torch_threads)

    vector = gym.vector.AsyncVectorEnv if args.use_async else gym.vector.SyncVectorEnv
    envs = vector([make_env(args.env_id) for _ in range(args.num_envs)])
    assert isinstance(envs.single_action_space, gym.spaces.Discrete), "discrete actions only"
    obs_shape = envs.single_observation_space.shape
    agent = Agent(int(envs.single_action_space.n))
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs, *obs_shape))
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
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
                    print(f"global_step={global_step}, episodic_return={episodic_return:.1f}")

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
    b_obs = obs.reshape(args.batch_size, *obs.shape[2:])
    b_actions = actions.reshape(-1)
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
