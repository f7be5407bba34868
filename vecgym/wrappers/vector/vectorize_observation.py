"""Observation transforms for vector envs: a batched function, or a single-env wrapper per env.

:class:`TransformObservation` applies one function to the whole batch.
:class:`VectorizeTransformObservation` applies a single-env observation wrapper (e.g.
:class:`vecgym.wrappers.FlattenObservation`) to each env's observation and batches the results;
the named wrappers below are that for Gymnasium's single-env transforms.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from vecgym import logger
from vecgym.core.env import ActType, Env, ObsType, WrapperObsType
from vecgym.core.spaces.space import Space
from vecgym.vector.utils import batch_space, concatenate, create_empty_array, iterate
from vecgym.vector.vector_env import (
    ArrayType,
    AutoresetMode,
    VectorEnv,
    VectorObservationWrapper,
    VectorWrapper,
)
from vecgym.wrappers import transform_observation
from vecgym.wrappers.vector._episodes import autoreset_mode_of

__all__ = [
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformObservation",
    "VectorizeTransformObservation",
]

SPACE_MISMATCH_MSG = (
    "{env}: the wrapper's observation_space {space} differs from its single_observation_space "
    "batched over the sub-environments ({batched}); give spaces that agree"
)


class TransformObservation(VectorObservationWrapper[WrapperObsType, ActType, ObsType, ArrayType]):
    """Transforms each batch of observations with ``func``.

    ``func`` receives and returns whole batches, so it can be vectorised; to transform one env's
    observation at a time use :class:`VectorizeTransformObservation`. As for every
    :class:`~vecgym.vector.VectorObservationWrapper`, the wrapped env must use ``NEXT_STEP`` or
    ``DISABLED`` autoreset (a batch function cannot transform ``SAME_STEP``'s single final
    observations).

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = TransformObservation(envs, lambda obs: obs * 0 + 1)
        >>> obs, _ = envs.reset(seed=0)
        >>> obs.tolist()
        [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        func: Callable[[ObsType], WrapperObsType],
        observation_space: Space[Any] | None = None,
        single_observation_space: Space[Any] | None = None,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            func: the function applied to every batch of observations.
            observation_space: the batched space of the results; by default the batch of
                ``single_observation_space``, or the wrapped env's space when neither is given.
            single_observation_space: one env's space of the results; by default the wrapped
                env's.

        Raises:
            ValueError: the wrapped env uses ``SAME_STEP`` autoreset.
        """
        super().__init__(env)
        if single_observation_space is not None:
            self.single_observation_space = single_observation_space
        if observation_space is not None:
            self.observation_space = observation_space
        elif single_observation_space is not None:
            self.observation_space = batch_space(single_observation_space, self.num_envs)
        batched = batch_space(self.single_observation_space, self.num_envs)
        if self.observation_space != batched:
            logger.warn(
                SPACE_MISMATCH_MSG.format(env=env, space=self.observation_space, batched=batched)
            )
        self.func = func

    def observations(self, observations: ObsType) -> WrapperObsType:
        """``func(observations)``."""
        return self.func(observations)


class _SingleEnv(Env[Any, Any]):
    """A stand-in env with only an observation space, for building single-env wrappers on."""

    def __init__(self, observation_space: Space[Any]) -> None:
        self.observation_space = observation_space


class VectorizeTransformObservation(
    VectorObservationWrapper[WrapperObsType, ActType, ObsType, ArrayType]
):
    """Applies a single-env observation wrapper to each sub-environment's observation.

    The wrapper class is built on a stand-in env that has the wrapped env's single observation
    space, and its ``observation`` method is applied to every env's observation; the results are
    batched into a new array on every call. With ``SAME_STEP`` autoreset the final observations in
    ``infos["final_obs"]`` are transformed too (in a new infos dict).

    Gymnasium refuses ``SAME_STEP`` envs here (the check of its base class runs before its own
    final-observation handling); vecgym accepts them.

    Example:
        >>> import vecgym as gym
        >>> from vecgym.wrappers import TransformObservation as SingleTransform
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = VectorizeTransformObservation(
        ...     envs, SingleTransform, func=lambda obs: obs, observation_space=None
        ... )
        >>> obs, _ = envs.reset(seed=0)
        >>> obs.shape
        (2, 4)
        >>> envs.close()
    """

    _SingleEnv = _SingleEnv

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        wrapper: type[Any],
        **kwargs: Any,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            wrapper: the single-env observation wrapper class (its ``observation`` is used).
            **kwargs: the wrapper's constructor arguments.

        Raises:
            TypeError: ``env.metadata["autoreset_mode"]`` is not an ``AutoresetMode``.
            Exception: whatever ``wrapper`` raises for these arguments and the single space.
        """
        # The base class's refusal of SAME_STEP is skipped: final observations are handled below.
        VectorWrapper.__init__(self, env)
        self.autoreset_mode = autoreset_mode_of(env, type(self).__name__)
        self.wrapper = wrapper(_SingleEnv(env.single_observation_space), **kwargs)
        self.single_observation_space = self.wrapper.observation_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

    def step(
        self, actions: ActType
    ) -> tuple[WrapperObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the wrapped env and transform the observations (and ``SAME_STEP`` final ones)."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        if self.autoreset_mode is AutoresetMode.SAME_STEP and "final_obs" in infos:
            infos = transform_final_obs(infos, self.wrapper.observation)
        return self.observations(observations), rewards, terminations, truncations, infos

    def observations(self, observations: ObsType) -> WrapperObsType:
        """Transform each env's observation with the single-env wrapper and batch the results."""
        transformed = [
            self.wrapper.observation(obs)
            for obs in iterate(self.env.observation_space, observations)
        ]
        out = create_empty_array(self.single_observation_space, self.num_envs)
        return concatenate(self.single_observation_space, transformed, out)


def transform_final_obs(infos: dict[str, Any], func: Callable[[Any], Any]) -> dict[str, Any]:
    """A copy of ``infos`` whose marked final observations went through ``func``.

    The caller's infos and final-observation array are left as they are.
    """
    final_obs = np.array(infos["final_obs"], dtype=object, copy=True)
    mask = infos.get("_final_obs", np.ones(len(final_obs), dtype=np.bool_))
    for index in np.flatnonzero(mask):
        final_obs[index] = func(final_obs[index])
    return {**infos, "final_obs": final_obs}


class FilterObservation(VectorizeTransformObservation[WrapperObsType, ActType, ObsType, ArrayType]):
    """Keeps only some keys (``Dict``) or indices (``Tuple``) of each observation.

    See :class:`vecgym.wrappers.FilterObservation`.
    """

    def __init__(
        self, env: VectorEnv[ObsType, ActType, ArrayType], filter_keys: Sequence[str | int]
    ) -> None:
        """Wrap ``env``, keeping the subspaces named by ``filter_keys``."""
        super().__init__(env, transform_observation.FilterObservation, filter_keys=filter_keys)


class FlattenObservation(
    VectorizeTransformObservation[WrapperObsType, ActType, ObsType, ArrayType]
):
    """Flattens each observation into a 1-d array (see :func:`vecgym.spaces.utils.flatten`)."""

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType]) -> None:
        """Wrap ``env``."""
        super().__init__(env, transform_observation.FlattenObservation)


class GrayscaleObservation(
    VectorizeTransformObservation[WrapperObsType, ActType, ObsType, ArrayType]
):
    """Converts RGB image observations to grayscale (as the single-env wrapper of that name)."""

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType], keep_dim: bool = False) -> None:
        """Wrap ``env``; ``keep_dim`` keeps a channel axis of size 1."""
        super().__init__(env, transform_observation.GrayscaleObservation, keep_dim=keep_dim)


class ResizeObservation(VectorizeTransformObservation[WrapperObsType, ActType, ObsType, ArrayType]):
    """Resizes image observations to ``shape`` (see :class:`vecgym.wrappers.ResizeObservation`)."""

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType], shape: tuple[int, ...]) -> None:
        """Wrap ``env``; ``shape`` is the new ``(height, width)``."""
        super().__init__(env, transform_observation.ResizeObservation, shape=shape)


class ReshapeObservation(
    VectorizeTransformObservation[WrapperObsType, ActType, ObsType, ArrayType]
):
    """Reshapes each array observation to ``shape`` (same number of elements)."""

    def __init__(
        self, env: VectorEnv[ObsType, ActType, ArrayType], shape: int | tuple[int, ...]
    ) -> None:
        """Wrap ``env``; ``shape`` is one env's new observation shape."""
        super().__init__(env, transform_observation.ReshapeObservation, shape=shape)


class RescaleObservation(
    VectorizeTransformObservation[WrapperObsType, ActType, ObsType, ArrayType]
):
    """Affinely maps ``Box`` observations onto the bounds ``[min_obs, max_obs]``."""

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        min_obs: float | np.floating[Any] | np.integer[Any] | np.ndarray,
        max_obs: float | np.floating[Any] | np.integer[Any] | np.ndarray,
    ) -> None:
        """Wrap ``env``; the bounds are scalars or arrays of one observation's shape."""
        super().__init__(
            env, transform_observation.RescaleObservation, min_obs=min_obs, max_obs=max_obs
        )


class DtypeObservation(VectorizeTransformObservation[WrapperObsType, ActType, ObsType, ArrayType]):
    """Casts each observation to ``dtype``."""

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType], dtype: Any) -> None:
        """Wrap ``env``; ``dtype`` is the new numpy dtype."""
        super().__init__(env, transform_observation.DtypeObservation, dtype=dtype)
