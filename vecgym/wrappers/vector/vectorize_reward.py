"""Reward transforms for vector envs: a batched function, or a single-env wrapper per env."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from vecgym.core.env import ActType, Env, ObsType
from vecgym.vector.vector_env import ArrayType, VectorEnv, VectorRewardWrapper
from vecgym.wrappers import transform_reward

__all__ = ["ClipReward", "TransformReward", "VectorizeTransformReward"]


class TransformReward(VectorRewardWrapper[ObsType, ActType, ArrayType]):
    """Transforms each batch of rewards with ``func``.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = TransformReward(envs, lambda rewards: 2 * rewards)
        >>> _ = envs.reset(seed=0)
        >>> envs.step(envs.action_space.sample())[1].tolist()
        [2.0, 2.0]
        >>> envs.close()
    """

    def __init__(
        self, env: VectorEnv[ObsType, ActType, ArrayType], func: Callable[[ArrayType], ArrayType]
    ) -> None:
        """Wrap ``env``; ``func`` maps a reward array to a reward array."""
        super().__init__(env)
        self.func = func

    def rewards(self, rewards: ArrayType) -> ArrayType:
        """``func(rewards)``."""
        return self.func(rewards)


class VectorizeTransformReward(VectorRewardWrapper[ObsType, ActType, ArrayType]):
    """Applies a single-env reward wrapper's ``reward`` to each env's reward.

    The results are written into a new float64 array (the wrapped env's array is not modified).

    Example:
        >>> import vecgym as gym
        >>> from vecgym.wrappers import TransformReward as SingleTransform
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = VectorizeTransformReward(envs, SingleTransform, func=lambda r: -r)
        >>> _ = envs.reset(seed=0)
        >>> envs.step(envs.action_space.sample())[1].tolist()
        [-1.0, -1.0]
        >>> envs.close()
    """

    def __init__(
        self, env: VectorEnv[ObsType, ActType, ArrayType], wrapper: type[Any], **kwargs: Any
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            wrapper: the single-env reward wrapper class (its ``reward`` method is used).
            **kwargs: the wrapper's constructor arguments.
        """
        super().__init__(env)
        self.wrapper = wrapper(Env(), **kwargs)

    def rewards(self, rewards: ArrayType) -> ArrayType:
        """Each env's reward through the single-env wrapper, in a new array."""
        values = np.asarray(rewards)
        out = np.empty(values.shape, dtype=np.result_type(values.dtype, np.float64))
        for index, reward in enumerate(values):
            out[index] = self.wrapper.reward(reward)
        return out  # type: ignore[return-value]


class ClipReward(VectorizeTransformReward[ObsType, ActType, ArrayType]):
    """Clips each reward to ``[min_reward, max_reward]`` (either bound may be ``None``)."""

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        min_reward: float | np.ndarray | None = None,
        max_reward: float | np.ndarray | None = None,
    ) -> None:
        """Wrap ``env``.

        Raises:
            InvalidBound: both bounds are ``None``, or ``min_reward > max_reward``.
        """
        super().__init__(
            env, transform_reward.ClipReward, min_reward=min_reward, max_reward=max_reward
        )
