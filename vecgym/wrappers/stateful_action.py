"""Action wrappers that keep state between steps.

* :class:`StickyAction` sometimes replays the previous action instead of the one given
  (Machado et al., 2018, "Revisiting the Arcade Learning Environment", section 5.2), optionally
  for several steps in a row;
* :class:`RepeatAction` steps the environment several times with each action and sums the rewards.
"""

from __future__ import annotations

import numbers
from typing import Any, SupportsFloat

import numpy as np

from vecgym import error
from vecgym.core.env import ActionWrapper, ActType, Env, ObsType, Wrapper
from vecgym.core.record_constructor import RecordConstructorArgs

__all__ = ["RepeatAction", "StickyAction"]

# --- message templates ----------------------------------------------------------------------------
STICKY_PROBABILITY_MSG = "`repeat_action_probability` must be at least 0 and below 1, got {value!r}"
STICKY_PROBABILITY_TYPE_MSG = (
    "`repeat_action_probability` must be a real number, at least 0 and below 1, got {value!r} of "
    "type {type}"
)
STICKY_DURATION_TYPE_MSG = (
    "`repeat_action_duration` must be a Python int (a fixed count) or a (low, high) tuple of "
    "integers, got {value!r}"
)
STICKY_DURATION_ORDER_MSG = (
    "`repeat_action_duration` (low, high) must have low <= high, got {value!r}"
)
STICKY_DURATION_VALUE_MSG = "`repeat_action_duration` must be at least 1, got {value!r}"
REPEAT_TYPE_MSG = "`num_repeats` must be an integer, got {type}"
REPEAT_VALUE_MSG = "`num_repeats` must be at least 1, got {value}"


def _is_int(value: Any) -> bool:
    """Whether ``value`` is a Python or numpy integer (``bool`` excluded)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_)


def _duration_range(duration: Any) -> tuple[int, int]:
    """``repeat_action_duration`` as the inclusive range ``(low, high)`` of repeat counts."""
    # a bare count must be a Python int and a range a tuple, as Gymnasium requires
    if isinstance(duration, int) and not isinstance(duration, bool):
        bounds: tuple[Any, ...] = (duration, duration)
    elif isinstance(duration, tuple):
        bounds = duration
    else:
        raise ValueError(STICKY_DURATION_TYPE_MSG.format(value=duration))
    if len(bounds) != 2 or not all(_is_int(b) for b in bounds):
        raise ValueError(STICKY_DURATION_TYPE_MSG.format(value=duration))
    low, high = int(bounds[0]), int(bounds[1])
    if low > high:
        raise error.InvalidBound(STICKY_DURATION_ORDER_MSG.format(value=duration))
    if low < 1:
        raise ValueError(STICKY_DURATION_VALUE_MSG.format(value=duration))
    return low, high


class StickyAction(ActionWrapper[ObsType, ActType, ActType], RecordConstructorArgs):
    """With probability ``repeat_action_probability``, replay the previous action instead.

    On each step after the first of an episode, a uniform draw below the probability starts a
    run of sticky steps; its length is drawn uniformly from ``repeat_action_duration`` (an integer,
    or an inclusive ``(low, high)`` pair), and during the run the agent's actions are ignored in
    favour of the action that was executed just before it. Both draws use the wrapped
    environment's ``np_random``, in the same order as Gymnasium, so seeded runs match it. No draw
    happens on the first step after a reset, nor while a run is going on.

    Example:
        >>> from tests.support.generic_env import GenericTestEnv
        >>> executed = []
        >>> def record(self, action):
        ...     executed.append(action)
        ...     return self.observation_space.sample(), 0.0, False, False, {}
        >>> env = StickyAction(GenericTestEnv(step_func=record), repeat_action_probability=0.5)
        >>> _ = env.reset(seed=1)
        >>> for a in range(6):
        ...     _ = env.step(a)
        >>> executed
        [0, 1, 2, 2, 4, 4]
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        repeat_action_probability: float,
        repeat_action_duration: int | tuple[int, int] = 1,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            repeat_action_probability: the chance, per step, that a sticky run starts.
            repeat_action_duration: the length of a run: an integer, or a ``(low, high)`` pair
                (both inclusive) to draw it from.

        Raises:
            TypeError: the probability is not a real number.
            vecgym.error.InvalidProbability: the probability is not in ``[0, 1)`` (also a
                ``ValueError``).
            ValueError: the duration is not a Python ``int`` or a tuple of two integers (a list or
                a numpy integer is refused, as in Gymnasium), or is below one.
            vecgym.error.InvalidBound: the duration pair has ``low > high``.
        """
        probability = repeat_action_probability
        if not isinstance(probability, numbers.Real):
            # Gymnasium fails comparing it with 0: a TypeError
            raise TypeError(
                STICKY_PROBABILITY_TYPE_MSG.format(value=probability, type=type(probability))
            )
        if isinstance(probability, bool | np.bool_) or not 0 <= probability < 1:
            raise error.InvalidProbability(STICKY_PROBABILITY_MSG.format(value=probability))
        duration_range = _duration_range(repeat_action_duration)

        RecordConstructorArgs.__init__(
            self,
            repeat_action_probability=repeat_action_probability,
            repeat_action_duration=repeat_action_duration,
        )
        ActionWrapper.__init__(self, env)

        self.repeat_action_probability: float = repeat_action_probability
        self.repeat_action_duration_range: tuple[int, int] = duration_range
        self.last_action: ActType | None = None
        self.is_sticky_actions: bool = False
        self.num_repeats: int = 0
        self.repeats_taken: int = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Forget the previous action and any sticky run, then reset the wrapped environment."""
        self.last_action = None
        self._end_run()
        return super().reset(seed=seed, options=options)

    def _end_run(self) -> None:
        self.is_sticky_actions = False
        self.num_repeats = 0
        self.repeats_taken = 0

    def _starts_run(self) -> bool:
        """Draw whether a sticky run starts now (only when a previous action exists)."""
        return (
            self.last_action is not None
            and self.np_random.uniform() < self.repeat_action_probability
        )

    def action(self, action: ActType) -> ActType:
        """The action to execute: ``action``, or the previous one during a sticky run."""
        if self.is_sticky_actions or self._starts_run():
            if self.num_repeats == 0:
                low, high = self.repeat_action_duration_range
                self.num_repeats = int(self.np_random.integers(low, high + 1))
            action = self.last_action  # type: ignore[assignment]
            self.is_sticky_actions = True
            self.repeats_taken += 1
            if self.repeats_taken == self.num_repeats:
                self._end_run()
        self.last_action = action
        return action


class RepeatAction(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Step the environment ``num_repeats`` times with each action, summing the rewards.

    The step returns the last observation, terminated, truncated and info, with the sum of the
    rewards as a Python float. Repetition stops early at the first step that terminates or
    truncates. Unlike :class:`StickyAction` this is deterministic and always uses the current
    action.

    Example:
        >>> from tests.support.generic_env import GenericTestEnv
        >>> def one(self, action):
        ...     return self.observation_space.sample(), 1, False, False, {}
        >>> env = RepeatAction(GenericTestEnv(step_func=one), num_repeats=4)
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[1]
        4.0
    """

    def __init__(self, env: Env[ObsType, ActType], num_repeats: int) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            num_repeats: how many times each action is executed (at least one).

        Raises:
            TypeError: ``num_repeats`` is not an integer.
            ValueError: ``num_repeats`` is below one.
        """
        if not _is_int(num_repeats):
            raise TypeError(REPEAT_TYPE_MSG.format(type=type(num_repeats)))
        if num_repeats < 1:
            raise ValueError(REPEAT_VALUE_MSG.format(value=num_repeats))
        RecordConstructorArgs.__init__(self, num_repeats=num_repeats)
        Wrapper.__init__(self, env)
        self.num_repeats = num_repeats

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Execute ``action`` up to ``num_repeats`` times (see the class docstring)."""
        total = 0.0
        for _ in range(self.num_repeats):
            obs, reward, terminated, truncated, info = self.env.step(action)
            total += float(reward)
            if terminated or truncated:
                break
        return obs, total, terminated, truncated, info
