"""A functional (stateless) environment template, Gymnasium's ``FuncEnv``.

A functional env keeps no episode state: every method receives the state and returns a new one, so
the same definition can be jitted, vmapped or stepped with numpy arrays. The class holds only
constants (set from ``options``) and default parameters.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import numpy as np

from vecgym.core.spaces.space import Space

__all__ = ["FuncEnv"]

StateType = TypeVar("StateType")
ActType = TypeVar("ActType")
ObsType = TypeVar("ObsType")
RewardType = TypeVar("RewardType")
TerminalType = TypeVar("TerminalType")
RenderStateType = TypeVar("RenderStateType")
Params = TypeVar("Params")


#: The methods :meth:`FuncEnv.transform` transforms.
_FUNCTIONAL_METHODS = (
    "initial",
    "transition",
    "observation",
    "reward",
    "terminal",
    "state_info",
    "transition_info",
)


def _calling_below(
    env: Any, method: Callable[..., Any], below: dict[str, Callable[..., Any]]
) -> Callable[..., Any]:
    """``method``, run with ``env``'s functional methods set to ``below`` (put back after)."""

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        current = {name: vars(env)[name] for name in below if name in vars(env)}
        vars(env).update(below)
        try:
            return method(*args, **kwargs)
        finally:
            for name in below:
                if name in current:
                    vars(env)[name] = current[name]
                else:
                    del vars(env)[name]

    return call


class FuncEnv(
    Generic[StateType, ObsType, ActType, RewardType, TerminalType, RenderStateType, Params]
):
    """Base class of functional environments.

    Subclasses implement :meth:`initial`, :meth:`transition`, :meth:`observation`, :meth:`reward`
    and :meth:`terminal`; :meth:`state_info` and :meth:`transition_info` are optional. The
    ``rng`` argument is whatever random source the backend uses (a numpy Generator, a jax key).

    Args:
        options: constants stored as attributes of the instance (overriding class attributes).

    Example:
        >>> class Counter(FuncEnv):
        ...     def initial(self, rng, params=None):
        ...         return 0
        ...     def transition(self, state, action, rng, params=None):
        ...         return state + action
        >>> env = Counter()
        >>> env.transition(env.initial(None), 2, None)
        2
    """

    observation_space: Space[Any]
    action_space: Space[Any]

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        for key, value in (options or {}).items():
            setattr(self, key, value)
        self.default_params = self.get_default_params()

    def initial(self, rng: Any, params: Params | None = None) -> StateType:
        """Return an initial state drawn with ``rng``."""
        raise NotImplementedError

    def transition(
        self, state: StateType, action: ActType, rng: Any, params: Params | None = None
    ) -> StateType:
        """Return the state that follows ``state`` under ``action``."""
        raise NotImplementedError

    def observation(self, state: StateType, rng: Any, params: Params | None = None) -> ObsType:
        """Return the observation of ``state``."""
        raise NotImplementedError

    def reward(
        self,
        state: StateType,
        action: ActType,
        next_state: StateType,
        rng: Any,
        params: Params | None = None,
    ) -> RewardType:
        """Return the reward of the transition ``state --action--> next_state``."""
        raise NotImplementedError

    def terminal(self, state: StateType, rng: Any, params: Params | None = None) -> TerminalType:
        """Return whether ``state`` is terminal."""
        raise NotImplementedError

    def state_info(self, state: StateType, params: Params | None = None) -> dict[str, Any]:
        """Return an info dict describing ``state`` (empty by default)."""
        return {}

    def transition_info(
        self,
        state: StateType,
        action: ActType,
        next_state: StateType,
        params: Params | None = None,
    ) -> dict[str, Any]:
        """Return an info dict describing a transition (empty by default)."""
        return {}

    def transform(self, func: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
        """Replace every functional method by ``func(method)`` (e.g. ``jax.jit``, ``jax.vmap``).

        While a transformed method runs, the functional methods it calls on ``self`` are the ones
        below this transform: a ``transition_info`` that returns ``self.state_info(next_state)``
        calls ``state_info`` on the same single state it was given, under ``jax.vmap`` as under
        ``jax.jit``, instead of mapping it a second time.

        Gymnasium stores the transformed ``transition_info`` under the name ``step_info`` and leaves
        ``transition_info`` untransformed, so Gymnasium's functional jax vector env calls it with
        the whole batch (a per-env ``transition_info`` returns wrong values there); here
        ``transition_info`` itself is transformed (and ``step_info`` is kept as an alias for code
        written against Gymnasium). With ``state_info`` called as above, the infos of such an env
        have Gymnasium's shapes.
        """
        below = {name: getattr(self, name) for name in _FUNCTIONAL_METHODS}
        for name, method in below.items():
            setattr(self, name, func(_calling_below(self, method, below)))
        self.step_info = self.transition_info

    def render_image(
        self, state: StateType, render_state: RenderStateType, params: Params | None = None
    ) -> tuple[RenderStateType, np.ndarray]:
        """Return the updated render state and an RGB frame of ``state``."""
        raise NotImplementedError

    def render_init(self, params: Params | None = None, **kwargs: Any) -> RenderStateType:
        """Create the render state."""
        raise NotImplementedError

    def render_close(self, render_state: RenderStateType, params: Params | None = None) -> None:
        """Release the render state."""
        raise NotImplementedError

    def get_default_params(self, **kwargs: Any) -> Params | None:
        """Return the default parameters (``None`` unless overridden)."""
        return None
