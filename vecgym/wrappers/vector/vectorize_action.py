"""Action transforms for vector envs: a batched function, or a single-env wrapper per env."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from vecgym import logger
from vecgym.core.env import ActType, Env, ObsType, WrapperActType
from vecgym.core.spaces.space import Space
from vecgym.vector.utils import batch_space, concatenate, create_empty_array, iterate
from vecgym.vector.vector_env import ArrayType, VectorActionWrapper, VectorEnv
from vecgym.wrappers import transform_action

__all__ = ["ClipAction", "RescaleAction", "TransformAction", "VectorizeTransformAction"]

SPACE_MISMATCH_MSG = (
    "{env}: the wrapper's action_space {space} differs from its single_action_space batched over "
    "the sub-environments ({batched}); give spaces that agree"
)


class TransformAction(VectorActionWrapper[ObsType, WrapperActType, ActType, ArrayType]):
    """Transforms each batch of actions with ``func`` before the wrapped env steps.

    Example:
        >>> import numpy as np
        >>> import vecgym as gym
        >>> envs = gym.make_vec("MountainCarContinuous-v0", num_envs=2, vectorization_mode="sync")
        >>> envs = TransformAction(envs, lambda actions: np.clip(actions, -0.5, 0.5))
        >>> _ = envs.reset(seed=0)
        >>> _ = envs.step(np.full((2, 1), 3.0, dtype=np.float32))
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        func: Callable[[WrapperActType], ActType],
        action_space: Space[Any] | None = None,
        single_action_space: Space[Any] | None = None,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            func: the function applied to every batch of actions.
            action_space: the batched space of the actions accepted; by default the batch of
                ``single_action_space``, or the wrapped env's when neither is given.
            single_action_space: one env's space of the actions accepted.
        """
        super().__init__(env)
        if single_action_space is not None:
            self.single_action_space = single_action_space
        if action_space is not None:
            self.action_space = action_space
        elif single_action_space is not None:
            self.action_space = batch_space(single_action_space, self.num_envs)
        batched = batch_space(self.single_action_space, self.num_envs)
        if self.action_space != batched:
            logger.warn(
                SPACE_MISMATCH_MSG.format(env=env, space=self.action_space, batched=batched)
            )
        self.func = func

    def actions(self, actions: WrapperActType) -> ActType:
        """``func(actions)``."""
        return self.func(actions)


class _SingleEnv(Env[Any, Any]):
    """A stand-in env with only an action space, for building single-env wrappers on."""

    def __init__(self, action_space: Space[Any]) -> None:
        self.action_space = action_space


class VectorizeTransformAction(VectorActionWrapper[ObsType, WrapperActType, ActType, ArrayType]):
    """Applies a single-env action wrapper to each sub-environment's action.

    The wrapper class is built on a stand-in env with the wrapped env's single action space; its
    ``action`` method maps each env's action, and the results are batched into a new array.

    Example:
        >>> import numpy as np
        >>> import vecgym as gym
        >>> from vecgym.wrappers import TransformAction as SingleTransform
        >>> envs = gym.make_vec("MountainCarContinuous-v0", num_envs=2, vectorization_mode="sync")
        >>> envs = VectorizeTransformAction(envs, SingleTransform, func=abs, action_space=None)
        >>> _ = envs.reset(seed=0)
        >>> _ = envs.step(np.full((2, 1), -1.0, dtype=np.float32))
        >>> envs.close()
    """

    _SingleEnv = _SingleEnv

    def __init__(
        self, env: VectorEnv[ObsType, ActType, ArrayType], wrapper: type[Any], **kwargs: Any
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            wrapper: the single-env action wrapper class (its ``action`` method is used).
            **kwargs: the wrapper's constructor arguments.
        """
        super().__init__(env)
        self.wrapper = wrapper(_SingleEnv(env.single_action_space), **kwargs)
        self.single_action_space = self.wrapper.action_space
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def actions(self, actions: WrapperActType) -> ActType:
        """Map each env's action through the single-env wrapper and batch the results."""
        mapped = [self.wrapper.action(action) for action in iterate(self.action_space, actions)]
        inner_space = self.env.single_action_space
        out = create_empty_array(inner_space, self.num_envs)
        return concatenate(inner_space, mapped, out)


class ClipAction(VectorizeTransformAction[ObsType, WrapperActType, ActType, ArrayType]):
    """Clips each ``Box`` action to the action space's bounds (the wrapper accepts any reals)."""

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType]) -> None:
        """Wrap ``env``."""
        super().__init__(env, transform_action.ClipAction)


class RescaleAction(VectorizeTransformAction[ObsType, WrapperActType, ActType, ArrayType]):
    """Accepts ``Box`` actions in ``[min_action, max_action]``, mapped affinely onto the env's."""

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        min_action: float | int | np.ndarray,
        max_action: float | int | np.ndarray,
    ) -> None:
        """Wrap ``env``; the bounds are scalars or arrays of one action's shape."""
        super().__init__(
            env, transform_action.RescaleAction, min_action=min_action, max_action=max_action
        )
