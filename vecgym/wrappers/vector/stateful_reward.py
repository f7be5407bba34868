"""The vector :class:`NormalizeReward`: rewards scaled by the spread of the discounted return."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.core.env import ActType, ObsType
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.error import InvalidBound
from vecgym.vector.vector_env import VectorEnv, VectorWrapper
from vecgym.wrappers.utils import RunningMeanStd
from vecgym.wrappers.vector._episodes import EpisodeTracker, autoreset_mode_of, reset_mask_of
from vecgym.wrappers.vector._statistics import RunningStatisticsMixin

__all__ = ["NormalizeReward"]

GAMMA_MSG = "`gamma` must be a number with 0 <= gamma <= 1, got {}"
EPSILON_MSG = "`epsilon` must be greater than 0, got {}"


class NormalizeReward(
    VectorWrapper[ObsType, ActType, ObsType, ActType, np.ndarray],
    RunningStatisticsMixin,
    RecordConstructorArgs,
):
    """Scales rewards so that each env's discounted return has roughly unit variance.

    Each env keeps a discounted return ``G <- G * gamma * (1 - terminated) + reward`` over the
    steps of its episode; :attr:`return_rms` is updated with the returns of the envs that made an
    episode step, and every reward is returned divided by ``sqrt(return_rms.var + epsilon)``.

    As in Gymnasium 1.4, a return is not restarted when an episode ends under ``NEXT_STEP``
    (or ``DISABLED``): the reset step is skipped (it is not an episode step and does not update
    the statistics) and the next episode's return starts from the last one (the last reward
    after a termination, the whole return after a truncation), so that N envs end with the
    ``return_rms`` of N single envs under ``Autoreset(NormalizeReward(env))``. Under
    ``SAME_STEP`` the return restarts at 0 right after an episode end. A reset restarts the
    returns of the envs it resets; Gymnasium 1.4 restarts every env's return even on a partial
    reset (``options["reset_mask"]``), vecgym only those of the envs in the mask (on purpose).

    The statistics can be frozen (``update_running_mean = False``), read and replaced
    (``state_dict()`` / ``load_state_dict()``) and saved to / loaded from ``.npz`` files
    (``save(path)`` / ``load(path)``); see :mod:`vecgym.wrappers.vector._statistics`.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = NormalizeReward(envs, gamma=0.99)
        >>> _ = envs.reset(seed=0)
        >>> rewards = envs.step(envs.action_space.sample())[1]
        >>> rewards.shape
        (2,)
        >>> import os, tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     path = os.path.join(folder, "reward-stats.npz")
        ...     envs.save(path)
        ...     envs.load(path)
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, np.ndarray],
        gamma: float = 0.99,
        epsilon: float = 1e-8,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            gamma: the discount factor of the return, in ``[0, 1]``.
            epsilon: added to the variance before the square root, strictly positive.

        Raises:
            InvalidBound: ``gamma`` outside ``[0, 1]`` or ``epsilon`` not strictly positive.
        """
        if not 0 <= gamma <= 1:
            raise InvalidBound(GAMMA_MSG.format(gamma))
        if not epsilon > 0:
            raise InvalidBound(EPSILON_MSG.format(epsilon))
        RecordConstructorArgs.__init__(self, gamma=gamma, epsilon=epsilon)
        VectorWrapper.__init__(self, env)
        self._autoreset_mode = autoreset_mode_of(env, type(self).__name__)
        self._episodes = EpisodeTracker(self._autoreset_mode, self.num_envs)
        self.return_rms = RunningMeanStd(shape=())
        self.accumulated_reward: npt.NDArray[np.float32] = np.zeros(self.num_envs, dtype=np.float32)
        self.gamma = gamma
        self.epsilon = epsilon
        self._update_running_mean = True

    def _statistics(self) -> RunningMeanStd:
        return self.return_rms

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the wrapped env; the returns of the envs reset (all, or ``reset_mask``) restart."""
        mask = reset_mask_of(options, self.num_envs)
        result = self.env.reset(seed=seed, options=options)
        self.accumulated_reward[self._episodes.reset(mask)] = 0.0
        return result

    def normalize(self, reward: float | np.floating[Any] | np.integer[Any]) -> np.float64:
        """``reward`` scaled by the return statistics, as :meth:`step` scales rewards (Gymnasium's
        public helper; :meth:`step` does not call it).

        While the statistics are updated (``update_running_mean``), every env's current
        discounted return is first folded into :attr:`return_rms`, as Gymnasium's does.
        """
        if self._update_running_mean:
            self.return_rms.update(self.accumulated_reward)
        return np.float64(reward / np.sqrt(self.return_rms.var + self.epsilon))

    def step(
        self, actions: ActType
    ) -> tuple[
        ObsType,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Step the wrapped env, update the return statistics and scale the rewards."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        episodes = self._episodes.step(terminations, truncations)
        counted = episodes.counted
        rewards_array = np.asarray(rewards)
        not_terminated = 1 - np.asarray(terminations)[counted]
        self.accumulated_reward[counted] = (
            self.accumulated_reward[counted] * self.gamma * not_terminated + rewards_array[counted]
        )
        if self._update_running_mean and counted.any():
            self.return_rms.update(self.accumulated_reward[counted])
        self.accumulated_reward[episodes.restarted_after] = 0.0
        scaled = rewards_array / np.sqrt(self.return_rms.var + self.epsilon)
        return observations, scaled, terminations, truncations, infos
