"""Stateless wrappers that change the reward returned by ``step``.

* :class:`TransformReward` applies any function to the reward;
* :class:`ClipReward` clips the reward into ``[min_reward, max_reward]`` (either bound optional).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.env import ActType, Env, ObsType, RewardWrapper
from vecgym.core.record_constructor import RecordConstructorArgs

__all__ = ["ClipReward", "TransformReward"]

# --- message templates ----------------------------------------------------------------------------
FUNC_NOT_CALLABLE_MSG = "TransformReward func must be callable, got {type}"
CLIP_NO_BOUND_MSG = (
    "ClipReward needs at least one bound: `min_reward` and `max_reward` are both None"
)
CLIP_ORDER_MSG = (
    "ClipReward min_reward must be smaller than or equal to max_reward, "
    "got min_reward={low}, max_reward={high}"
)


class TransformReward(RewardWrapper[ObsType, ActType], RecordConstructorArgs):
    """Return ``func(reward)`` in place of each reward of the wrapped environment.

    Example:
        >>> from tests.support.generic_env import GenericTestEnv
        >>> def one(self, action):
        ...     return self.observation_space.sample(), 1.0, False, False, {}
        >>> env = TransformReward(GenericTestEnv(step_func=one), lambda r: 2 * r + 1)
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[1]
        3.0
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        func: Callable[[SupportsFloat], SupportsFloat],
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            func: maps the environment's reward to the reward the wrapper returns.

        Raises:
            TypeError: ``func`` is not callable.
        """
        if not callable(func):
            raise TypeError(FUNC_NOT_CALLABLE_MSG.format(type=type(func)))
        RecordConstructorArgs.__init__(self, func=func)
        RewardWrapper.__init__(self, env)
        self.func = func

    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        """Return ``func(reward)``."""
        return self.func(reward)


Bound = float | int | npt.NDArray[Any] | None


class ClipReward(TransformReward[ObsType, ActType], RecordConstructorArgs):
    """Clip each reward into ``[min_reward, max_reward]``; a ``None`` bound leaves that side open.

    The clipped reward is what ``numpy.clip`` returns (a numpy scalar for a scalar reward).

    Example:
        >>> from tests.support.generic_env import GenericTestEnv
        >>> def one(self, action):
        ...     return self.observation_space.sample(), 1.0, False, False, {}
        >>> env = ClipReward(GenericTestEnv(step_func=one), 0, 0.5)
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[1]
        np.float64(0.5)
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        min_reward: Bound = None,
        max_reward: Bound = None,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            min_reward: the lower bound, or ``None`` for none.
            max_reward: the upper bound, or ``None`` for none.

        Raises:
            vecgym.error.InvalidBound: both bounds are ``None``, or ``min_reward > max_reward``
                somewhere (also a ``ValueError``).
        """
        if min_reward is None and max_reward is None:
            raise error.InvalidBound(CLIP_NO_BOUND_MSG)
        if (
            min_reward is not None
            and max_reward is not None
            and np.any(np.asarray(max_reward) < np.asarray(min_reward))
        ):
            raise error.InvalidBound(CLIP_ORDER_MSG.format(low=min_reward, high=max_reward))
        RecordConstructorArgs.__init__(self, min_reward=min_reward, max_reward=max_reward)
        TransformReward.__init__(self, env=env, func=self._clip)
        self.min_reward = min_reward
        self.max_reward = max_reward

    def _clip(self, reward: SupportsFloat) -> SupportsFloat:
        """``reward`` clipped into the bounds."""
        return np.clip(reward, self.min_reward, self.max_reward)  # type: ignore[call-overload]
