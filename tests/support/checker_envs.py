"""Small environments for the env-checker tests, each behaviour injected as a function.

:class:`CheckerEnvMixin` holds the behaviour and does not depend on a particular ``Env`` base, so
the same environment can be built on ``vecgym.Env`` (:class:`CheckerEnv`) and, for differential
tests, on ``gymnasium.Env`` (see :func:`env_class_for`). By default the environment is correct:
``reset`` seeds the base class and draws the observation from ``np_random``; ``step`` draws the
next observation and the reward from ``np_random``, never ends the episode and returns fresh
objects every call. Tests replace ``reset``/``step``/``render`` with the functions below (or their
own) to produce one kind of API violation at a time.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

import vecgym

ResetFn = Callable[..., Any]
StepFn = Callable[..., Any]
RenderFn = Callable[..., Any]


def seeded_reset(
    self: Any, *, seed: int | None = None, options: dict[str, Any] | None = None
) -> Any:
    """A correct reset: seed through the base class, sample the observation from ``np_random``."""
    self.seed_base(seed)
    return self.sample_obs(), {}


def random_step(self: Any, action: Any) -> Any:
    """A correct step: observation and reward drawn from ``np_random``, the episode never ends."""
    return self.sample_obs(), float(self.np_random.random()), False, False, {}


def no_render(self: Any) -> None:
    """A render that draws nothing (fits ``render_mode=None`` and ``"human"``)."""
    return None


# ---- broken resets ---------------------------------------------------------------------------
def reset_without_seed(self: Any, options: dict[str, Any] | None = None) -> Any:
    """``reset`` that cannot be passed ``seed``."""
    return self.sample_obs(), {}


def reset_without_options(self: Any, seed: int | None = None) -> Any:
    """``reset`` that cannot be passed ``options``."""
    self.seed_base(seed)
    return self.sample_obs(), {}


def reset_ignoring_seed(self: Any, seed: int | None = None, options: Any = None) -> Any:
    """``reset`` that never calls the base ``reset``, so no generator is ever seeded."""
    return self.observation_space.sample(), {}


def reset_own_generator(self: Any, seed: int | None = None, options: Any = None) -> Any:
    """``reset`` that advances ``np_random`` without seeding it (same seed, different state)."""
    self.np_random.random()
    return self.sample_obs(), {}


def reset_fixed_seed(self: Any, seed: int | None = None, options: Any = None) -> Any:
    """``reset`` that always seeds with 1 whatever it is given."""
    self.seed_base(1)
    return self.sample_obs(), {}


def reset_default_seed(self: Any, seed: int | None = 23, options: Any = None) -> Any:
    """A working ``reset`` whose ``seed`` defaults to 23 instead of ``None``."""
    self.seed_base(seed)
    return self.sample_obs(), {}


def reset_var_keyword(self: Any, **kw: Any) -> Any:
    """A working ``reset`` taking everything as ``**kw`` (named other than ``kwargs``)."""
    self.seed_base(kw.get("seed"))
    return self.sample_obs(), {}


def reset_with_return_info(
    self: Any, seed: Any = None, options: Any = None, return_info: bool = False
) -> Any:
    """A working ``reset`` that still has the removed ``return_info`` parameter."""
    self.seed_base(seed)
    return self.sample_obs(), {}


def reset_returning(value: Any) -> ResetFn:
    """A ``reset`` (that seeds correctly) returning ``value`` whatever it is called with."""

    def reset(self: Any, *, seed: int | None = None, options: Any = None) -> Any:
        self.seed_base(seed)
        return value(self) if callable(value) else value

    return reset


# ---- broken steps ----------------------------------------------------------------------------
def step_returning(value: Callable[[Any], Any]) -> StepFn:
    """A ``step`` returning ``value(self)``."""

    def step(self: Any, action: Any) -> Any:
        return value(self)

    return step


def step_unseeded_obs(self: Any, action: Any) -> Any:
    """A ``step`` whose observation comes from numpy's global generator (not reproducible)."""
    obs = np.random.uniform(0.0, 1.0, size=self.observation_space.shape)
    return obs.astype(self.observation_space.dtype), 0.0, False, False, {}


def step_unseeded_reward(self: Any, action: Any) -> Any:
    """A ``step`` whose reward comes from numpy's global generator."""
    return self.sample_obs(), float(np.random.normal()), False, False, {}


def step_unseeded_info(self: Any, action: Any) -> Any:
    """A ``step`` whose info holds a value from numpy's global generator."""
    return self.sample_obs(), 0.0, False, False, {"value": np.random.normal()}


class CheckerEnvMixin:
    """The behaviour of the checker test environment; combine with an ``Env`` base class.

    Args:
        observation_space: the observation space (a Box, or a space whose ``sample`` the
            environment reseeds from ``np_random``).
        action_space: the action space.
        reset: replaces ``reset`` (bound to the instance).
        step: replaces ``step``.
        render: replaces ``render``.
        metadata: the instance's metadata (default ``{"render_modes": []}``).
        render_mode: the render mode.
        spec: the environment's spec.
    """

    observation_space: Any
    action_space: Any
    metadata: dict[str, Any]

    def __init__(
        self,
        observation_space: Any,
        action_space: Any,
        reset: ResetFn | None = seeded_reset,
        step: StepFn | None = random_step,
        render: RenderFn | None = no_render,
        metadata: dict[str, Any] | None = None,
        render_mode: str | None = None,
        spec: Any = None,
    ) -> None:
        self.metadata = {"render_modes": []} if metadata is None else metadata
        self.render_mode = render_mode
        self.spec = spec
        if observation_space is not None:
            self.observation_space = observation_space
        if action_space is not None:
            self.action_space = action_space
        if reset is not None:
            self.reset = types.MethodType(reset, self)  # type: ignore[method-assign]
        if step is not None:
            self.step = types.MethodType(step, self)  # type: ignore[method-assign]
        if render is not None:
            self.render = types.MethodType(render, self)  # type: ignore[method-assign]

    def seed_base(self, seed: int | None) -> None:
        """Run the base class's ``reset``, which seeds ``np_random``."""
        super().reset(seed=seed)  # type: ignore[misc]

    def sample_obs(self) -> Any:
        """A fresh observation drawn from ``np_random`` (reproducible given the seed)."""
        space = self.observation_space
        space.seed(int(self.np_random.integers(2**31)))  # type: ignore[attr-defined]
        return space.sample()


class CheckerEnv(CheckerEnvMixin, vecgym.Env):  # type: ignore[misc]
    """The checker test environment on ``vecgym.Env``."""


_CLASSES: dict[Any, type] = {vecgym.Env: CheckerEnv}


def env_class_for(env_base: type) -> type:
    """The checker test environment class on ``env_base`` (e.g. ``gymnasium.Env``)."""
    if env_base not in _CLASSES:
        _CLASSES[env_base] = type("CheckerEnv", (CheckerEnvMixin, env_base), {})
    return _CLASSES[env_base]
