"""The vector :class:`ArrayConversion`: drive a vector env of one array framework with another."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from vecgym.core.env import RenderFrame
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.vector.vector_env import VectorEnv, VectorWrapper
from vecgym.wrappers.array_conversion import ArrayConverterMixin, Device

__all__ = ["ArrayConversion"]


class ArrayConversion(
    ArrayConverterMixin, VectorWrapper[Any, Any, Any, Any, Any], RecordConstructorArgs
):
    """Converts a vector env's inputs to ``env_xp`` arrays and its outputs to ``target_xp`` arrays.

    Actions and (non-empty) reset options go to ``env_xp`` on ``env_device``; observations,
    rewards, terminations, truncations and infos come back as ``target_xp`` arrays on
    ``target_device`` (see :func:`vecgym.wrappers.array_conversion.array_conversion`). The
    frameworks are passed as modules (``numpy``, ``torch``, ``jax.numpy``); pickling stores their
    names. The vector version of :class:`vecgym.wrappers.ArrayConversion`.

    Example:
        >>> import numpy as np
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = ArrayConversion(envs, env_xp=np, target_xp=np)
        >>> obs, _ = envs.reset(seed=0)
        >>> type(obs).__name__
        'ndarray'
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[Any, Any, Any],
        env_xp: ModuleType,
        target_xp: ModuleType,
        env_device: Device | None = None,
        target_device: Device | None = None,
    ) -> None:
        """Wrap ``env``.

        Raises:
            ValueError: ``env_xp`` or ``target_xp`` is not an array module.
        """
        RecordConstructorArgs.__init__(self, _disable_deepcopy=True)
        VectorWrapper.__init__(self, env)
        self._init_conversion(env_xp, target_xp, env_device, target_device)

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step with the actions converted for the env; every output converted to the target."""
        obs, rewards, terminations, truncations, infos = self.env.step(self._to_env(actions))
        return (
            self._to_target(obs),
            self._to_target(rewards),
            self._to_target(terminations),
            self._to_target(truncations),
            self._to_target(infos),
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset (non-empty ``options`` converted for the env); outputs converted to the target."""
        obs, infos = self.env.reset(seed=seed, options=self._env_options(options))
        return self._to_target(obs), self._to_target(infos)

    def render(self) -> tuple[RenderFrame, ...] | None:
        """The wrapped env's frames (not converted, as in Gymnasium)."""
        return self.env.render()
