"""Reward wrappers that keep state between steps: :class:`NormalizeReward`."""

from __future__ import annotations

import numbers
from typing import Any, SupportsFloat

import numpy as np

from vecgym import error
from vecgym.core.env import ActType, Env, ObsType, Wrapper
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.wrappers.utils import RunningMeanStd

__all__ = ["NormalizeReward"]

# --- message templates ----------------------------------------------------------------------------
GAMMA_MSG = "`gamma` must be a number with 0 <= gamma <= 1, got {value!r}"
EPSILON_MSG = "`epsilon` must be a number greater than 0, got {value!r}"


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


class NormalizeReward(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    r"""Scale rewards so that their discounted running sum has roughly unit variance.

    The wrapper keeps an exponentially discounted sum of the rewards,
    :math:`G_t = \gamma (1 - d_{t}) G_{t-1} + r_t` (with :math:`d_t` the step's ``terminated``),
    tracks its variance with :class:`~vecgym.wrappers.utils.RunningMeanStd`, and returns
    :math:`r_t / \sqrt{\mathrm{Var}(G) + \epsilon}`. Rewards are scaled, never shifted.

    Unlike Gymnasium 1.4, a ``terminated`` given as a numpy bool works (Gymnasium computes
    ``1 - terminated``, which numpy refuses for booleans). As in Gymnasium, only termination
    restarts the sum; a truncated episode's sum carries into
    the next one, and ``reset`` does not clear it. Set :attr:`update_running_mean` to ``False`` to
    freeze the statistics (for evaluation). Early rewards are scaled by statistics built from
    few samples.

    Example:
        >>> from tests.support.generic_env import GenericTestEnv
        >>> def one(self, action):
        ...     return self.observation_space.sample(), 1.0, False, False, {}
        >>> env = NormalizeReward(GenericTestEnv(step_func=one), gamma=0.5)
        >>> _ = env.reset(seed=0)
        >>> [round(float(env.step(0)[1]), 3) for _ in range(4)]
        [70.714, 3.996, 3.206, 2.983]
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        gamma: float = 0.99,
        epsilon: float = 1e-8,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            gamma: the discount of the running sum, in ``[0, 1]``.
            epsilon: added to the variance before the square root, strictly positive.

        Raises:
            vecgym.error.InvalidBound: ``gamma`` is outside ``[0, 1]`` or ``epsilon`` is not
                strictly positive (also a ``ValueError``).
        """
        if not _is_real(gamma) or not 0 <= gamma <= 1:
            raise error.InvalidBound(GAMMA_MSG.format(value=gamma))
        if not _is_real(epsilon) or not epsilon > 0:
            raise error.InvalidBound(EPSILON_MSG.format(value=epsilon))
        RecordConstructorArgs.__init__(self, gamma=gamma, epsilon=epsilon)
        Wrapper.__init__(self, env)

        self.return_rms = RunningMeanStd(shape=())
        self.discounted_reward: np.ndarray[Any, np.dtype[np.float64]] = np.array([0.0])
        self.gamma = gamma
        self.epsilon = epsilon
        self._update_running_mean = True

    @property
    def update_running_mean(self) -> bool:
        """Whether each step updates the reward statistics (``False`` freezes them)."""
        return self._update_running_mean

    @update_running_mean.setter
    def update_running_mean(self, setting: bool) -> None:
        self._update_running_mean = setting

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the wrapped environment and return its reward divided by the running scale."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        # `terminated` may be a numpy bool, for which `1 - terminated` raises (Gymnasium does that).
        keep = 0.0 if terminated else self.gamma
        self.discounted_reward = self.discounted_reward * keep + float(reward)
        if self._update_running_mean:
            self.return_rms.update(self.discounted_reward)
        scaled = reward / np.sqrt(self.return_rms.var + self.epsilon)
        return obs, scaled, terminated, truncated, info
