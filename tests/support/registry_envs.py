"""Test doubles for the registry, ``make`` / ``make_vec`` and the wrappers ``make`` applies.

* :class:`ArgEnv`: a tiny env recording its constructor arguments, rendering ``rgb_array`` frames
  (a 2x2 image filled with the step count) or ``ansi`` text;
* :class:`NoMetadataRenderEnv`: an env class whose metadata lacks ``render_modes``;
* :class:`ScaleReward`: a wrapper that records its constructor arguments (rebuildable by make);
* :class:`UnrecordedWrapper`: a wrapper that does not (make cannot rebuild it);
* :func:`make_prewrapped`: an entry point that returns an :class:`ArgEnv` already wrapped;
* :func:`not_an_env`: an entry point that returns something that is not an env;
* :class:`ArgVectorEnv`: a minimal stand-in for a native vector env (``vector_entry_point``).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np

from vecgym.core.env import Env, Wrapper
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.core.spaces import Box, Discrete

__all__ = [
    "ArgEnv",
    "ArgVectorEnv",
    "NoMetadataRenderEnv",
    "ScaleReward",
    "UnrecordedWrapper",
    "make_prewrapped",
    "not_an_env",
]


class ArgEnv(Env[np.ndarray, Any]):
    """Observation = the step count (float32, shape (1,)); reward 1.0; never ends by itself."""

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(
        self,
        render_mode: str | None = None,
        arg1: Any = None,
        arg2: Any = None,
        arg3: Any = None,
    ) -> None:
        self.render_mode = render_mode
        self.arg1, self.arg2, self.arg3 = arg1, arg2, arg3
        self.observation_space = Box(0.0, np.inf, shape=(1,), dtype=np.float32)
        self.action_space = Discrete(2)
        self.count = 0
        self.closed = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.count = 0
        return np.array([self.count], dtype=np.float32), {}

    def step(self, action: int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        self.count += 1
        return np.array([self.count], dtype=np.float32), 1.0, False, False, {}

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            return np.full((2, 2, 3), self.count, dtype=np.uint8)
        if self.render_mode == "ansi":
            return f"count={self.count}"
        return None

    def close(self) -> None:
        self.closed += 1


class NoMetadataRenderEnv(ArgEnv):
    """An :class:`ArgEnv` whose class metadata has no ``render_modes`` key."""

    metadata: dict[str, Any] = {"render_fps": 4}


class ScaleReward(Wrapper[np.ndarray, Any, np.ndarray, Any], RecordConstructorArgs):
    """Multiply the reward by ``scale``; records ``scale`` so that ``make`` can rebuild it."""

    def __init__(self, env: Env[np.ndarray, Any], scale: float = 1.0) -> None:
        RecordConstructorArgs.__init__(self, scale=scale)
        Wrapper.__init__(self, env)
        self.scale = scale

    def step(self, action: int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, float(reward) * self.scale, terminated, truncated, info


class UnrecordedWrapper(Wrapper[np.ndarray, Any, np.ndarray, Any]):
    """A wrapper without recorded constructor arguments."""


def make_prewrapped(**kwargs: Any) -> Env[np.ndarray, Any]:
    """Entry point returning ``ScaleReward(ArgEnv(**kwargs), scale=2.0)``."""
    return ScaleReward(ArgEnv(**kwargs), scale=2.0)


def not_an_env(**kwargs: Any) -> object:
    """Entry point returning an object that is not an env."""
    return object()


class ArgVectorEnv:
    """A minimal native vector env: records ``num_envs`` and its keyword arguments.

    ``metadata`` is passed in, so tests can give it (or not) an ``autoreset_mode``.
    """

    def __init__(
        self, num_envs: int = 1, metadata: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        self.num_envs = num_envs
        self.kwargs = kwargs
        self.metadata: dict[str, Any] = {} if metadata is None else metadata
        self.spec: Any = None

    @property
    def unwrapped(self) -> ArgVectorEnv:
        return self

    def close(self) -> None:
        pass
