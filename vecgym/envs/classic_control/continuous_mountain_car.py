"""MountainCarContinuous: the mountain-car task with a continuous engine force.

Step for step and seed for seed the same as Gymnasium 1.4's ``MountainCarContinuous-v0``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.spaces.box import Box
from vecgym.envs.classic_control._base import ClassicControlEnv
from vecgym.envs.classic_control.mountain_car import draw_mountain_car, hill_height
from vecgym.envs.classic_control.utils import maybe_parse_reset_bounds

__all__ = ["Continuous_MountainCarEnv"]

INVALID_ACTION_MSG = "action must be a sequence or array holding one force, got {!r} ({})"
RESET_NEEDED_MSG = "call reset() before step()"


class Continuous_MountainCarEnv(ClassicControlEnv[np.ndarray, np.ndarray]):  # noqa: N801
    """A car in a valley driven by a continuous force; reaching the flag pays 100.

    **Actions** (``Box(-1, 1, (1,))``, ``float32``): the engine force, clipped to ``[-1, 1]``.

    **Observation** (``Box(2,)``, ``float32``): position in ``[-1.2, 0.6]`` and velocity in
    ``[-0.07, 0.07]``.

    **Dynamics**: ``velocity += force * 0.0015 - 0.0025 * cos(3 * position)``, clipped to
    ``±0.07``; ``position += velocity``, clipped to ``[-1.2, 0.6]``; hitting the left wall stops
    the car.

    **Reward**: ``-0.1 * action[0] ** 2`` per step (the unclipped action), plus ``100`` on the
    step that reaches the goal.

    **Start**: position uniform in ``[-0.6, -0.4)``, velocity ``0``;
    ``reset(options={"low": ..., "high": ...})`` changes the position bounds.

    **End**: terminated once ``position >= 0.45`` and ``velocity >= goal_velocity``; truncated
    after 999 steps by the ``TimeLimit`` that ``make`` adds.

    The arithmetic follows the dtype of the state and the action exactly as Gymnasium's does: the
    state is ``float64`` after ``reset`` and ``float32`` after a step, and ``step`` returns the
    state array itself (a new array each step).

    Args:
        render_mode: ``None``, ``"rgb_array"`` (400x600 frames) or ``"human"``.
        goal_velocity: the least velocity at the goal that ends the episode.

    Example:
        >>> env = Continuous_MountainCarEnv()
        >>> env.reset(seed=123, options={"low": -0.7, "high": 0.5})
        (array([0.11882224, 0.        ], dtype=float32), {})
        >>> obs, reward, terminated, truncated, info = env.step(np.array([1.0], dtype=np.float32))
        >>> round(float(reward), 3), terminated
        (-0.1, False)
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        self.min_action = -1.0
        self.max_action = 1.0
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = 0.45  # 0.45 as in Arnaud de Broissia's version of the task
        self.goal_velocity = goal_velocity
        self.power = 0.0015

        self.low_state = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high_state = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.action_space = Box(
            low=self.min_action, high=self.max_action, shape=(1,), dtype=np.float32
        )
        self.observation_space = Box(low=self.low_state, high=self.high_state, dtype=np.float32)

        self.screen_width = 600
        self.screen_height = 400
        self.screen: Any = None
        self.clock: Any = None
        self._init_rendering(render_mode, self.screen_width, self.screen_height)
        self.state: Any = None

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the force ``action[0]`` (clipped to ``[-1, 1]``) for one time step.

        Raises:
            InvalidAction: ``action`` has no first element.
            ResetNeeded: ``reset`` was never called.
        """
        try:
            requested = action[0]
        except (TypeError, IndexError, KeyError) as exc:
            raise error.InvalidAction(
                INVALID_ACTION_MSG.format(action, type(action).__name__)
            ) from exc
        if self.state is None:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        # Kept as numpy scalars on purpose: their dtype (float32 or float64) decides the rounding.
        position = self.state[0]
        velocity = self.state[1]
        force = min(max(requested, self.min_action), self.max_action)

        velocity += force * self.power - 0.0025 * math.cos(3 * position)
        if velocity > self.max_speed:
            velocity = self.max_speed
        if velocity < -self.max_speed:
            velocity = -self.max_speed
        position += velocity
        if position > self.max_position:
            position = self.max_position
        if position < self.min_position:
            position = self.min_position
        if position == self.min_position and velocity < 0:
            velocity = 0  # an inelastic collision with the left wall

        terminated = bool(position >= self.goal_position and velocity >= self.goal_velocity)
        reward: Any = 100.0 if terminated else 0
        reward -= math.pow(requested, 2) * 0.1

        self.state = np.array([position, velocity], dtype=np.float32)
        if self.render_mode == "human":
            self.render()
        # Truncation is the TimeLimit wrapper's job.
        return self.state, reward, terminated, False, {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Place the car at a uniformly drawn position (default ``[-0.6, -0.4)``), at rest.

        Args:
            seed: reseeds ``np_random`` when given.
            options: optional ``"low"`` and ``"high"`` bounds of the initial position.

        Raises:
            ValueError: a bound is not a number, or ``low > high``.
        """
        super().reset(seed=seed)
        low, high = maybe_parse_reset_bounds(options, -0.6, -0.4)
        self.state = np.array([self.np_random.uniform(low=low, high=high), 0])
        if self.render_mode == "human":
            self.render()
        return np.array(self.state, dtype=np.float32), {}

    def _height(self, xs: Any) -> Any:
        """The height of the hill at positions ``xs``."""
        return hill_height(xs)

    def _draw_frame(self) -> npt.NDArray[np.uint8] | None:
        if self.state is None:
            return None
        return draw_mountain_car(
            float(self.state[0]),
            self.min_position,
            self.max_position,
            self.goal_position,
            self.screen_width,
            self.screen_height,
        )
