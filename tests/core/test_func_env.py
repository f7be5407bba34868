"""``FuncEnv.transform``: every functional method transformed, and the methods that one of them
calls on ``self`` are the ones below the transform (no second mapping)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from vecgym.experimental.functional import FuncEnv


def over_rows(method: Callable[..., Any]) -> Callable[..., Any]:
    """A stand-in for ``jax.vmap`` over lists: ``method`` once per row of its arguments."""

    @functools.wraps(method)
    def mapped(*args: Any) -> list[Any]:
        return [method(*row) for row in zip(*args, strict=True)]

    return mapped


class Walk(FuncEnv):  # type: ignore[type-arg]
    """A counter whose transition info is its state info, as Gymnasium's own examples write it."""

    def initial(self, rng: Any, params: Any = None) -> int:
        return rng

    def transition(self, state: int, action: int, rng: Any, params: Any = None) -> int:
        return state + action

    def observation(self, state: int, rng: Any, params: Any = None) -> int:
        return 10 * state

    def reward(self, state: int, action: int, next_state: int, rng: Any, params: Any = None) -> int:
        return next_state - state

    def terminal(self, state: int, rng: Any, params: Any = None) -> bool:
        return state >= 3

    def state_info(self, state: int, params: Any = None) -> dict[str, int]:
        return {"position": state}

    def transition_info(
        self, state: int, action: int, next_state: int, params: Any = None
    ) -> dict[str, int]:
        return {**self.state_info(next_state), "moved": self.reward(state, action, next_state, 0)}


def test_every_functional_method_is_transformed() -> None:
    env = Walk()
    env.transform(over_rows)
    states = env.initial([0, 2])
    assert states == [0, 2]
    next_states = env.transition(states, [1, 1], [None, None])
    assert next_states == [1, 3]
    assert env.observation(next_states, [None, None]) == [10, 30]
    assert env.reward(states, [1, 1], next_states, [None, None]) == [1, 1]
    assert env.terminal(next_states, [None, None]) == [False, True]
    assert env.state_info(next_states) == [{"position": 1}, {"position": 3}]
    assert env.step_info is env.transition_info


def test_methods_called_inside_a_transformed_one_are_not_mapped_again() -> None:
    """transition_info calls state_info and reward on one row's values: the methods below the
    transform run there (the transformed ones would map a single int and fail)."""
    env = Walk()
    env.transform(over_rows)
    infos = env.transition_info([0, 2], [1, 1], [1, 3])
    assert infos == [{"position": 1, "moved": 1}, {"position": 3, "moved": 1}]
    # and the transformed methods are back on the env afterwards
    assert env.state_info([5]) == [{"position": 5}]


def test_two_transforms_nest() -> None:
    """A second transform (``jax.vmap`` then ``jax.jit``) wraps the first: each level calls the
    methods of the level below it."""
    calls: list[str] = []

    def traced(method: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any) -> Any:
            calls.append(method.__name__)
            return method(*args)

        wrapper.__name__ = method.__name__
        return wrapper

    env = Walk()
    env.transform(over_rows)
    env.transform(traced)
    assert env.transition_info([0], [2], [2]) == [{"position": 2, "moved": 2}]
    assert calls == ["transition_info"]  # state_info and reward ran below both transforms
    assert env.terminal([3], [None]) == [True]


def test_a_failing_method_still_puts_the_transformed_methods_back() -> None:
    env = Walk()
    env.transform(over_rows)
    transformed = env.state_info
    with pytest.raises(TypeError):
        env.transition_info([0], [1], [None])  # None - int inside reward
    assert env.state_info is transformed
