"""`GenericTestEnv`: an environment assembled from injected ``reset``/``step``/``render`` functions.

Its constructor takes the keyword arguments of Gymnasium's test double of the same name, so tests
ported from Gymnasium build it the same way. Each injected function is bound to the instance as a
method, so it receives the env as ``self``. Passing ``None`` for a space or a function leaves it
unset (the class's method, which raises ``NotImplementedError``, stays in place).

Unlike Gymnasium's version, the default spaces and spec are built per instance, so seeding one
env's space never touches another env's.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import vecgym
from vecgym.core.registration import EnvSpec
from vecgym.core.spaces.space import Space

__all__ = [
    "DEFAULT",
    "GenericTestEnv",
    "basic_render_func",
    "basic_reset_func",
    "basic_step_func",
    "old_reset_func",
    "old_step_func",
]

DEFAULT_SPEC_ID = "TestingEnv-v0"
DEFAULT_ENTRY_POINT = "tests.support.generic_env:GenericTestEnv"
DEFAULT_MAX_EPISODE_STEPS = 100


class _Default:
    """Marker for "use the default" (a fresh ``Box(0, 1, (1,))`` or the testing spec)."""

    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Any = _Default()


def basic_reset_func(
    self: GenericTestEnv, *, seed: int | None = None, options: dict[str, Any] | None = None
) -> tuple[Any, dict[str, Any]]:
    """Seed the env (and its observation space from the env's seed), return a sampled observation.

    The info is ``{"options": options}``.
    """
    vecgym.Env.reset(self, seed=seed)
    self.observation_space.seed(self.np_random_seed)
    return self.observation_space.sample(), {"options": options}


def old_reset_func(self: GenericTestEnv) -> Any:
    """A reset in the pre-0.26 API: no seed argument, returns only the observation."""
    vecgym.Env.reset(self)
    return self.observation_space.sample()


def basic_step_func(self: GenericTestEnv, action: Any) -> tuple[Any, float, bool, bool, dict]:
    """A step that ignores the action: a sampled observation, reward 0, never ends, empty info."""
    return self.observation_space.sample(), 0, False, False, {}


def old_step_func(self: GenericTestEnv, action: Any) -> tuple[Any, float, bool, dict]:
    """A step in the pre-0.26 ``done`` API: a sampled observation, reward 0, not done."""
    return self.observation_space.sample(), 0, False, {}


def basic_render_func(self: GenericTestEnv) -> None:
    """A render that draws nothing."""
    return None


def _default_space() -> Space[Any]:
    from vecgym.spaces import Box

    return Box(0, 1, (1,))


def _default_spec() -> EnvSpec:
    return EnvSpec(
        DEFAULT_SPEC_ID, DEFAULT_ENTRY_POINT, max_episode_steps=DEFAULT_MAX_EPISODE_STEPS
    )


class GenericTestEnv(vecgym.Env):
    """An env whose behaviour comes from the functions given to its constructor.

    Args:
        action_space: the action space; ``None`` leaves it unset; default ``Box(0, 1, (1,))``.
        observation_space: the observation space; ``None`` leaves it unset; default as above.
        reset_func: bound as ``reset``; ``None`` keeps the raising placeholder.
        step_func: bound as ``step``; ``None`` keeps the raising placeholder.
        render_func: bound as ``render``; ``None`` keeps the raising placeholder.
        metadata: the env's metadata (default ``{"render_modes": []}``).
        render_mode: the env's render mode.
        spec: the env's spec (default ``EnvSpec("TestingEnv-v0", ..., max_episode_steps=100)``).
    """

    def __init__(
        self,
        action_space: Space[Any] | None = DEFAULT,
        observation_space: Space[Any] | None = DEFAULT,
        reset_func: Callable[..., Any] | None = basic_reset_func,
        step_func: Callable[..., Any] | None = basic_step_func,
        render_func: Callable[..., Any] | None = basic_render_func,
        metadata: dict[str, Any] | None = DEFAULT,
        render_mode: str | None = None,
        spec: EnvSpec | None = DEFAULT,
    ) -> None:
        self.metadata = {"render_modes": []} if metadata is DEFAULT else metadata  # type: ignore[assignment]
        self.render_mode = render_mode
        self.spec = _default_spec() if spec is DEFAULT else spec

        if observation_space is DEFAULT:
            observation_space = _default_space()
        if observation_space is not None:
            self.observation_space = observation_space
        if action_space is DEFAULT:
            action_space = _default_space()
        if action_space is not None:
            self.action_space = action_space

        if reset_func is not None:
            self.reset = types.MethodType(reset_func, self)  # type: ignore[method-assign]
        if step_func is not None:
            self.step = types.MethodType(step_func, self)  # type: ignore[method-assign]
        if render_func is not None:
            self.render = types.MethodType(render_func, self)  # type: ignore[method-assign]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Placeholder used when no ``reset_func`` was given."""
        raise NotImplementedError("GenericTestEnv: no reset_func was given")

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        """Placeholder used when no ``step_func`` was given."""
        raise NotImplementedError("GenericTestEnv: no step_func was given")

    def render(self) -> Any:
        """Placeholder used when no ``render_func`` was given."""
        raise NotImplementedError("GenericTestEnv: no render_func was given")
