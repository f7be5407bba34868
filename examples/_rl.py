"""What the PPO and A2C examples share: the agent, rollout collection, GAE, evaluation, the CLI.

Autoreset and what is trained on
--------------------------------
vecgym's vector envs default to ``AutoresetMode.NEXT_STEP`` (as Gymnasium 1.x does): the step on
which an episode ends returns that episode's *final* observation, and the *next* call to ``step``
for that env ignores its action, resets it, and returns the first observation of the new episode
with reward 0 and ``terminated = truncated = False``. Two consequences for learning:

1. **The reset step is not a transition.** Its "action" was never applied, so a row of the
   rollout whose previous step ended the episode (``reset_step``) is masked: it gets no
   advantage, no gradient, and the GAE recursion never runs across it (the step before it is a
   ``done``, which cuts the recursion anyway).
2. **Truncation bootstraps, termination does not.** When CartPole hits its 500-step time limit
   (``truncated``) the pole has not fallen: the return of that state did not end, so the target is
   ``r + gamma * V(s_final)``. When it falls (``terminated``) the target is just ``r``. With
   ``NEXT_STEP`` the final observation is exactly the observation stored in the *next* row of the
   rollout (the one whose step is the reset step), so ``V(s_final)`` is already computed as that
   row's value estimate: :func:`compute_gae` uses ``values[t + 1]`` (or ``last_values`` at the end
   of the rollout) for bootstrapping and zeroes it only on termination.

(With ``AutoresetMode.SAME_STEP`` one would instead read ``infos["final_obs"]`` on the ending step
and evaluate ``V`` on it separately; NEXT_STEP needs no extra forward pass.)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from _nn import MLP, Adam, Array, log_softmax, sample_categorical

import vecgym
from vecgym.spaces import Box, Discrete
from vecgym.vector import AsyncVectorEnv
from vecgym.wrappers.vector import RecordEpisodeStatistics

ENV_ID = "CartPole-v1"
TARGET_RETURN = 450.0
RETURN_WINDOW = 20
EVAL_EPISODES = 10
EVAL_SEED_OFFSET = 10_000
SPACES_MSG = "the examples need a Box observation space and a Discrete action space, got {} and {}"

__all__ = [
    "ActorCritic",
    "Progress",
    "Rollout",
    "collect",
    "common_arguments",
    "compute_gae",
    "evaluate",
    "finish",
    "make_envs",
    "space_sizes",
    "train",
]


class ActorCritic:
    """Separate policy and value MLPs (64-64 ``tanh``) for a discrete action space.

    Args:
        obs_dim: length of the (flat) observation.
        num_actions: number of discrete actions.
        rng: generator for the initial weights.
        hidden: hidden layer widths.
    """

    def __init__(
        self, obs_dim: int, num_actions: int, rng: np.random.Generator, hidden: int = 64
    ) -> None:
        self.actor = MLP((obs_dim, hidden, hidden, num_actions), rng, output_gain=0.01)
        self.critic = MLP((obs_dim, hidden, hidden, 1), rng, output_gain=1.0)

    @property
    def params(self) -> list[Array]:
        """The actor's parameters followed by the critic's."""
        return self.actor.params + self.critic.params

    def value(self, obs: npt.ArrayLike) -> Array:
        """State values, shape ``(batch,)``."""
        return self.critic(obs)[:, 0]

    def act(
        self, obs: npt.ArrayLike, rng: np.random.Generator
    ) -> tuple[npt.NDArray[np.int64], Array, Array]:
        """Sample actions; return them with their log-probabilities and the state values."""
        logp = log_softmax(self.actor(obs))
        actions = sample_categorical(logp, rng)
        return actions, logp[np.arange(len(actions)), actions], self.value(obs)

    def greedy(self, obs: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """The most probable action of each row (for evaluation)."""
        return np.argmax(self.actor(obs), axis=-1).astype(np.int64)


@dataclass
class Rollout:
    """``num_steps`` vector steps of ``num_envs`` envs, time-major (``[t, env]``)."""

    obs: Array
    actions: npt.NDArray[np.int64]
    logp: Array
    values: Array
    rewards: Array
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    reset_step: npt.NDArray[np.bool_]
    last_values: Array = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def empty(cls, num_steps: int, num_envs: int, obs_dim: int) -> Rollout:
        """Preallocated, zeroed storage."""
        shape = (num_steps, num_envs)
        return cls(
            obs=np.zeros((*shape, obs_dim)),
            actions=np.zeros(shape, dtype=np.int64),
            logp=np.zeros(shape),
            values=np.zeros(shape),
            rewards=np.zeros(shape),
            terminated=np.zeros(shape, dtype=bool),
            truncated=np.zeros(shape, dtype=bool),
            reset_step=np.zeros(shape, dtype=bool),
        )


@dataclass
class Batch:
    """The flattened, valid (non-reset-step) transitions of one rollout, with their GAE
    advantages and return targets."""

    obs: Array
    actions: npt.NDArray[np.int64]
    logp: Array
    advantages: Array
    returns: Array


def valid_transitions(rollout: Rollout, gamma: float, gae_lambda: float) -> Batch:
    """GAE over the rollout, then flatten it and drop the NEXT_STEP reset steps."""
    advantages, returns = compute_gae(
        rollout.rewards,
        rollout.values,
        rollout.last_values,
        rollout.terminated,
        rollout.truncated,
        rollout.reset_step,
        gamma,
        gae_lambda,
    )
    valid = ~rollout.reset_step.reshape(-1)
    return Batch(
        obs=rollout.obs.reshape(-1, rollout.obs.shape[-1])[valid],
        actions=rollout.actions.reshape(-1)[valid],
        logp=rollout.logp.reshape(-1)[valid],
        advantages=advantages.reshape(-1)[valid],
        returns=returns.reshape(-1)[valid],
    )


@dataclass
class CollectorState:
    """What carries over from one rollout to the next: the current observation and which envs
    ended their episode on the last step (so that their next step is a reset step)."""

    obs: Array
    prev_done: npt.NDArray[np.bool_]


def collect(
    envs: RecordEpisodeStatistics,
    agent: ActorCritic,
    state: CollectorState,
    rollout: Rollout,
    rng: np.random.Generator,
) -> None:
    """Fill ``rollout`` with one rollout from ``envs``, advancing ``state`` in place."""
    for t in range(rollout.obs.shape[0]):
        actions, logp, values = agent.act(state.obs, rng)
        rollout.obs[t] = state.obs
        rollout.actions[t] = actions
        rollout.logp[t] = logp
        rollout.values[t] = values
        rollout.reset_step[t] = state.prev_done
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        rollout.rewards[t] = rewards
        rollout.terminated[t] = terminated
        rollout.truncated[t] = truncated
        state.obs = np.asarray(obs, dtype=np.float64)
        state.prev_done = np.logical_or(terminated, truncated)
    rollout.last_values = agent.value(state.obs)


def compute_gae(
    rewards: Array,
    values: Array,
    last_values: Array,
    terminated: npt.NDArray[np.bool_],
    truncated: npt.NDArray[np.bool_],
    reset_step: npt.NDArray[np.bool_],
    gamma: float,
    lam: float,
) -> tuple[Array, Array]:
    """Generalised advantage estimates and value targets for a NEXT_STEP-autoreset rollout.

    For each step ``t`` (arrays are ``[t, env]``)::

        next_value = values[t + 1]  (last_values for the last step)  # V(s_{t+1}), the final
                                                                       # observation on a done
        delta_t = r_t + gamma * next_value * (1 - terminated_t) - values[t]
        A_t     = delta_t + gamma * lam * (1 - (terminated_t or truncated_t)) * A_{t+1}

    and ``A_t = 0`` on reset steps, which are not transitions (see the module docstring). A
    truncated step bootstraps from the value of its final observation but does not let the
    advantage of the next episode leak into it. ``lam = 1`` gives n-step returns.

    Returns:
        ``(advantages, returns)`` with ``returns = advantages + values``.
    """
    num_steps = rewards.shape[0]
    advantages = np.zeros_like(rewards)
    running = np.zeros_like(last_values)
    for t in reversed(range(num_steps)):
        # On a step that ended an episode, the next row's observation is that episode's final
        # observation (NEXT_STEP), so next_values is V(s_final): exactly the bootstrap a
        # truncated step needs. A terminated step has no future: its bootstrap is zeroed.
        next_values = values[t + 1] if t + 1 < num_steps else last_values
        delta = rewards[t] + gamma * next_values * (1.0 - terminated[t]) - values[t]
        # Either kind of end stops the advantage of the next episode flowing back into this one.
        carry = 1.0 - np.logical_or(terminated[t], truncated[t])
        running = delta + gamma * lam * carry * running
        # A reset step is no transition: no advantage (its row is dropped from the losses).
        running = np.where(reset_step[t], 0.0, running)
        advantages[t] = running
    return advantages, advantages + values


def make_envs(
    num_envs: int, num_workers: int | None, window: int
) -> tuple[RecordEpisodeStatistics, AsyncVectorEnv]:
    """``num_envs`` CartPole-v1 envs in worker processes, with episode statistics.

    Returns the wrapped envs and the :class:`AsyncVectorEnv` inside them.
    """
    pool = AsyncVectorEnv(
        [lambda: vecgym.make(ENV_ID) for _ in range(num_envs)], num_workers=num_workers
    )
    return RecordEpisodeStatistics(pool, buffer_length=window), pool


def space_sizes(envs: RecordEpisodeStatistics) -> tuple[int, int]:
    """``(observation length, number of actions)`` of a Box-observation, Discrete-action env."""
    obs_space, action_space = envs.single_observation_space, envs.single_action_space
    if not isinstance(obs_space, Box) or not isinstance(action_space, Discrete):
        raise TypeError(SPACES_MSG.format(obs_space, action_space))
    return int(np.prod(obs_space.shape)), int(action_space.n)


def train(
    name: str,
    args: argparse.Namespace,
    num_steps: int,
    learning_rate: float,
    anneal_lr: bool,
    update: Callable[[ActorCritic, Adam, Rollout, np.random.Generator], None],
) -> int:
    """The loop both examples run: collect ``num_steps`` vector steps, ``update``, repeat.

    Stops when the target is reached or the budget (``args.total_steps``) is spent, prints the
    summary and returns the exit status (see :func:`finish`).
    """
    rng = np.random.default_rng(args.seed)
    envs, pool = make_envs(args.num_envs, args.num_workers, window=RETURN_WINDOW)
    try:
        obs, _ = envs.reset(seed=args.seed)
        obs_dim, num_actions = space_sizes(envs)
        agent = ActorCritic(obs_dim, num_actions, rng)
        optimizer = Adam(agent.params, lr=learning_rate)
        state = CollectorState(np.asarray(obs, np.float64), np.zeros(args.num_envs, bool))
        rollout = Rollout.empty(num_steps, args.num_envs, obs_dim)
        steps_per_update = num_steps * args.num_envs
        num_updates = max(1, args.total_steps // steps_per_update)
        print(
            f"{name}: {ENV_ID}, {args.num_envs} envs on {pool.num_workers} workers, "
            f"seed {args.seed}, budget {num_updates * steps_per_update} env steps",
            flush=True,
        )
        progress = Progress(envs, args.log_every)
        for update_index in range(num_updates):
            if anneal_lr:
                optimizer.lr = learning_rate * (1.0 - update_index / num_updates)
            collect(envs, agent, state, rollout, rng)
            progress.add(steps_per_update)
            update(agent, optimizer, rollout, rng)
            if progress.solved(args.target):
                break
        return finish(name, progress, agent, args)
    finally:
        envs.close()


def evaluate(agent: ActorCritic, episodes: int, seed: int) -> list[float]:
    """Returns of ``episodes`` greedy episodes on fresh envs seeded ``seed + k``."""
    env = vecgym.make(ENV_ID)
    returns = []
    try:
        for k in range(episodes):
            obs, _ = env.reset(seed=seed + k)
            total, done = 0.0, False
            while not done:
                action = int(agent.greedy(np.asarray(obs, dtype=np.float64)[None])[0])
                obs, reward, terminated, truncated, _ = env.step(action)
                total += float(reward)
                done = terminated or truncated
            returns.append(total)
    finally:
        env.close()
    return returns


def common_arguments(description: str, total_steps: int, num_envs: int) -> argparse.ArgumentParser:
    """The options both examples take."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=1, help="seeds envs, init and sampling")
    parser.add_argument(
        "--total-steps",
        type=int,
        default=total_steps,
        help="env-step budget (vector steps x num_envs); training stops early at the target",
    )
    parser.add_argument("--num-envs", type=int, default=num_envs)
    parser.add_argument(
        "--num-workers", type=int, default=None, help="worker processes (default: usable cores)"
    )
    parser.add_argument(
        "--eval",
        action="store_true",
        help=f"after training, run {EVAL_EPISODES} greedy episodes; success then also needs "
        "their mean return >= target",
    )
    parser.add_argument(
        "--target",
        type=float,
        default=TARGET_RETURN,
        help=f"mean return over the last {RETURN_WINDOW} training episodes that counts as solved; "
        "0 or less: no target (run the whole budget, exit 0; for smoke tests)",
    )
    parser.add_argument(
        "--log-every", type=int, default=20_000, help="print a progress line every N env steps"
    )
    return parser


class Progress:
    """Counts env steps and prints progress lines every ``log_every`` steps."""

    def __init__(self, envs: RecordEpisodeStatistics, log_every: int) -> None:
        self.envs = envs
        self.log_every = max(1, log_every)
        self.steps = 0
        self.start = time.perf_counter()
        self._next_log = self.log_every

    def mean_return(self) -> float:
        """Mean return of the last ``RETURN_WINDOW`` finished episodes (nan before the first)."""
        queue = self.envs.return_queue
        return float(np.mean(queue)) if queue else float("nan")

    def elapsed(self) -> float:
        """Seconds since training started."""
        return time.perf_counter() - self.start

    def add(self, steps: int) -> None:
        """Count ``steps`` more env steps; print a line when a multiple of ``log_every`` passes."""
        self.steps += steps
        if self.steps >= self._next_log:
            self._next_log = (self.steps // self.log_every + 1) * self.log_every
            self.print_line()

    def print_line(self) -> None:
        """``steps=... sps=... episodes=... mean_return=...``."""
        print(
            f"steps={self.steps:>8d}  sps={self.steps / self.elapsed():>7.0f}  "
            f"episodes={self.envs.episode_count:>5d}  "
            f"mean_return(last {RETURN_WINDOW})={self.mean_return():>6.1f}",
            flush=True,
        )

    def solved(self, target: float) -> bool:
        """Whether a full window of episodes averages at least ``target`` (never if ``<= 0``)."""
        queue = self.envs.return_queue
        return target > 0 and len(queue) == RETURN_WINDOW and self.mean_return() >= target


def finish(
    name: str,
    progress: Progress,
    agent: ActorCritic,
    args: argparse.Namespace,
    evaluate_fn: Callable[[ActorCritic, int, int], list[float]] = evaluate,
) -> int:
    """Print the summary (and the evaluation with ``--eval``); return the exit status."""
    progress.print_line()
    solved = progress.solved(args.target)
    mean = progress.mean_return()
    if args.target <= 0:
        print(f"{name}: done: {progress.steps} env steps in {progress.elapsed():.1f} s")
    elif solved:
        print(
            f"{name}: target reached: mean return {mean:.1f} over the last {RETURN_WINDOW} "
            f"episodes after {progress.steps} env steps in {progress.elapsed():.1f} s"
        )
    else:
        print(
            f"{name}: target not reached: mean return {mean:.1f} over the last "
            f"{RETURN_WINDOW} episodes after {progress.steps} env steps (target {args.target})"
        )
    ok = solved or args.target <= 0
    if args.eval:
        returns = evaluate_fn(agent, EVAL_EPISODES, args.seed + EVAL_SEED_OFFSET)
        eval_mean = float(np.mean(returns))
        print(f"{name}: eval: mean return {eval_mean:.1f} over {EVAL_EPISODES} greedy episodes")
        ok = ok and (args.target <= 0 or eval_mean >= args.target)
    return 0 if ok else 1
