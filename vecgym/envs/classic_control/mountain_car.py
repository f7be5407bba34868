"""MountainCar: drive an under-powered car out of a valley by rocking it (discrete actions).

Andrew Moore's mountain-car task (1990), step for step and seed for seed the same as Gymnasium
1.4's ``MountainCar-v0``. :class:`MountainCarVectorEnv` steps many copies at once with numpy, each
copy bit-identical to a :class:`MountainCarEnv` with a time limit.
"""

from __future__ import annotations

import math
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.discrete import Discrete
from vecgym.envs.classic_control._base import ClassicControlEnv, rotate, vector_metadata
from vecgym.envs.classic_control.utils import maybe_parse_reset_bounds
from vecgym.envs.rendering import raster
from vecgym.vector.numpy_vector_env import NumpyVectorEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["MountainCarEnv", "MountainCarVectorEnv", "draw_mountain_car", "hill_height"]

ActT = TypeVar("ActT")

RESET_NEEDED_MSG = "call reset() before step()"

_CURVE_COLOR = (0, 0, 0)
_CAR_COLOR = (0, 0, 0)
_WHEEL_COLOR = (128, 128, 128)
_POLE_COLOR = (0, 0, 0)
_FLAG_COLOR = (204, 204, 0)


class _MountainCarScene:
    """The track and the frame drawing shared by the four mountain-car envs (single and vector)."""

    state: Any

    def _init_track(self, goal_position: float, goal_velocity: float) -> None:
        """Set the track's limits, the goal and the frame size (600x400)."""
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = goal_position
        self.goal_velocity = goal_velocity
        self.screen_width = 600
        self.screen_height = 400

    def _draw_car_at(self, position: float) -> npt.NDArray[np.uint8]:
        """This env's scene with the car at ``position``."""
        return draw_mountain_car(
            position,
            self.min_position,
            self.max_position,
            self.goal_position,
            self.screen_width,
            self.screen_height,
        )


class _SingleMountainCar(_MountainCarScene, ClassicControlEnv[np.ndarray, ActT], Generic[ActT]):
    """What both single mountain-car envs share: the start state, the hill and the frame."""

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
        return self._draw_car_at(float(self.state[0]))


class _MountainCarVectorScene(_MountainCarScene):
    """The reset options and per-env frames shared by both mountain-car vector envs, whose
    ``state`` is ``(2, num_envs)``: positions, then velocities."""

    def _parse_reset_options(self, options: dict[str, Any] | None) -> tuple[float, float]:
        """The ``(low, high)`` bounds of the initial position, as the single env's ``reset``
        reads them."""
        return maybe_parse_reset_bounds(options, -0.6, -0.4)

    def _render_env(self, i: int) -> npt.NDArray[np.uint8]:
        return self._draw_car_at(float(self.state[0, i]))


class MountainCarEnv(_SingleMountainCar["np.integer[Any]"]):
    """A car at the bottom of a sinusoidal valley that must reach the flag on the right hill.

    **Actions** (``Discrete(3)``): ``0`` accelerates left, ``1`` does nothing, ``2`` accelerates
    right.

    **Observation** (``Box(2,)``, ``float32``): position in ``[-1.2, 0.6]`` and velocity in
    ``[-0.07, 0.07]``.

    **Dynamics**: ``velocity += (action - 1) * 0.001 - 0.0025 * cos(3 * position)``, clipped to
    ``±0.07``; ``position += velocity``, clipped to ``[-1.2, 0.6]``; hitting the left wall stops
    the car.

    **Reward**: ``-1`` per step.

    **Start**: position uniform in ``[-0.6, -0.4)``, velocity ``0``;
    ``reset(options={"low": ..., "high": ...})`` changes the position bounds.

    **End**: terminated once ``position >= 0.5`` and ``velocity >= goal_velocity``; truncated after
    200 steps by the ``TimeLimit`` that ``make`` adds.

    Args:
        render_mode: ``None``, ``"rgb_array"`` (400x600 frames) or ``"human"``.
        goal_velocity: the least velocity at the goal that ends the episode.

    Example:
        >>> env = MountainCarEnv()
        >>> env.reset(seed=123, options={"low": -0.7, "high": 0.5})
        (array([0.11882224, 0.        ], dtype=float32), {})
        >>> env.step(2)
        (array([ 0.1174794 , -0.00134284], dtype=float32), -1.0, False, False, {})
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        self._init_track(0.5, goal_velocity)

        self.force = 0.001
        self.gravity = 0.0025

        self.low = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.action_space = Discrete(3)
        self.observation_space = Box(self.low, self.high, dtype=np.float32)

        self.screen: Any = None
        self.clock: Any = None
        self._init_rendering(render_mode, self.screen_width, self.screen_height)
        self.state: Any = None

    def step(
        self, action: int | np.integer[Any] | np.ndarray
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Accelerate for one time step.

        Raises:
            InvalidAction: ``action`` is not ``0``, ``1`` or ``2``.
            ResetNeeded: ``reset`` was never called.
        """
        self._check_discrete_action(action)
        if self.state is None:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        # Python floats give the same IEEE-754 results as numpy float64 scalars, faster.
        position, velocity = (float(v) for v in self.state)
        velocity += (int(action) - 1) * self.force + math.cos(3 * position) * (-self.gravity)
        velocity = min(max(velocity, -self.max_speed), self.max_speed)
        position += velocity
        position = min(max(position, self.min_position), self.max_position)
        if position == self.min_position and velocity < 0:
            velocity = 0.0  # an inelastic collision with the left wall

        terminated = bool(position >= self.goal_position and velocity >= self.goal_velocity)
        self.state = (position, velocity)

        if self.render_mode == "human":
            self.render()
        # Truncation is the TimeLimit wrapper's job.
        return np.array(self.state, dtype=np.float32), -1.0, terminated, False, {}

    def get_keys_to_action(self) -> dict[tuple[int, ...], int]:
        """Keyboard mapping for interactive play: the left/right arrow keys accelerate."""
        left, right = 276, 275
        return {(): 1, (left,): 0, (right,): 2, (right, left): 1}


def hill_height(xs: Any) -> Any:
    """The valley's profile, ``0.45 * sin(3 x) + 0.55``, for a position or array of positions."""
    return np.sin(3 * xs) * 0.45 + 0.55


_BACKGROUNDS: dict[tuple[float, float, float, int, int], npt.NDArray[np.uint8]] = {}


def _background(
    min_position: float, max_position: float, goal_position: float, width: int, height: int
) -> npt.NDArray[np.uint8]:
    """The static part of the scene (hill and flag), drawn y-up, cached per geometry."""
    key = (min_position, max_position, goal_position, width, height)
    cached = _BACKGROUNDS.get(key)
    if cached is not None:
        return cached
    scale = width / (max_position - min_position)
    canvas = raster.new_canvas(height, width)
    xs = np.linspace(min_position, max_position, 100)
    curve = np.stack([(xs - min_position) * scale, hill_height(xs) * scale], axis=1)
    raster.draw_polyline(canvas, curve, _CURVE_COLOR)
    flag_x = int((goal_position - min_position) * scale)
    flag_y1 = int(hill_height(goal_position) * scale)
    flag_y2 = flag_y1 + 50
    raster.draw_line(canvas, (flag_x + 0.5, flag_y1), (flag_x + 0.5, flag_y2), _POLE_COLOR)
    flag = [(flag_x, flag_y2), (flag_x, flag_y2 - 10), (flag_x + 25, flag_y2 - 5)]
    raster.fill_polygon(canvas, flag, _FLAG_COLOR)
    canvas.setflags(write=False)
    _BACKGROUNDS[key] = canvas
    return canvas


def draw_mountain_car(
    position: float,
    min_position: float,
    max_position: float,
    goal_position: float,
    width: int,
    height: int,
) -> npt.NDArray[np.uint8]:
    """Draw a mountain-car frame: the hill, the flag at the goal and the car tilted with the slope.

    Returns:
        A ``(height, width, 3)`` ``uint8`` frame.
    """
    scale = width / (max_position - min_position)
    car_width, car_height, clearance = 40.0, 20.0, 10.0
    canvas = _background(min_position, max_position, goal_position, width, height).copy()
    angle = math.cos(3 * position)
    origin = np.array(
        [(position - min_position) * scale, clearance + float(hill_height(position)) * scale]
    )
    half = car_width / 2
    body = rotate([(-half, 0.0), (-half, car_height), (half, car_height), (half, 0.0)], angle)
    raster.fill_polygon(canvas, body + origin, _CAR_COLOR)
    wheels = rotate([(car_width / 4, 0.0), (-car_width / 4, 0.0)], angle) + origin
    for wx, wy in wheels.tolist():
        raster.fill_circle(canvas, wx, wy, car_height / 2.5, _WHEEL_COLOR)
    return raster.flip_vertical(canvas)


class MountainCarVectorEnv(_MountainCarVectorScene, NumpyVectorEnv):
    """``num_envs`` mountain cars stepped together with numpy, each one a :class:`MountainCarEnv`
    with a time limit, bit for bit.

    After ``reset(seed=s)`` sub-environment ``i``'s trajectory equals that of
    ``make("MountainCar-v0")`` reset with ``seed=s + i`` and fed the same actions, with the
    autoresets of a :class:`~vecgym.vector.SyncVectorEnv` in the chosen ``autoreset_mode``
    (autoresets draw the position as ``reset()`` without options does). Seeding, ``reset_mask``,
    truncation and the autoreset modes are
    :class:`~vecgym.vector.numpy_vector_env.NumpyVectorEnv`'s. Rewards are ``float64`` arrays.

    Args:
        num_envs: the number of cars.
        max_episode_steps: truncate an episode after this many steps (``None``: never).
        render_mode: ``None`` or ``"rgb_array"`` (:meth:`render` returns one frame per env).
        goal_velocity: as for :class:`MountainCarEnv`.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = MountainCarVectorEnv(num_envs=2)
        >>> obs, _ = envs.reset(seed=123)
        >>> bool((obs[1] == MountainCarEnv().reset(seed=124)[0]).all())
        True
        >>> envs.step(np.array([2, 0]))[1]
        array([-1., -1.])
    """

    metadata: dict[str, Any] = vector_metadata(render_fps=30)

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 200,
        render_mode: str | None = None,
        goal_velocity: float = 0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self._init_track(0.5, goal_velocity)
        self.force = 0.001
        self.gravity = 0.0025
        self.low = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.single_action_space = Discrete(3)
        self.single_observation_space = Box(self.low, self.high, dtype=np.float32)
        self._batch_spaces()
        #: ``(2, num_envs)`` float64: positions, then velocities.
        self.state = np.zeros((2, self.num_envs), dtype=np.float64)

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: tuple[float, float]) -> None:
        low, high = params
        state, rng = self.state, self._rng
        for i in indices.tolist():
            state[0, i] = rng(i).uniform(low=low, high=high)
            state[1, i] = 0.0

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]]:
        """:meth:`MountainCarEnv.step`'s float64 arithmetic, in the same order, on whole rows."""
        position, velocity = self.state
        velocity = velocity + (
            (actions.astype(np.int64) - 1) * self.force + np.cos(3 * position) * (-self.gravity)
        )
        velocity = np.minimum(np.maximum(velocity, -self.max_speed), self.max_speed)
        position = position + velocity
        position = np.minimum(np.maximum(position, self.min_position), self.max_position)
        velocity[(position == self.min_position) & (velocity < 0)] = 0.0
        terminated = (position >= self.goal_position) & (velocity >= self.goal_velocity)
        self.state = np.stack((position, velocity))
        return np.full(self.num_envs, -1.0), terminated

    def _observations(self) -> np.ndarray:
        return self.state.T.astype(np.float32, order="C")
