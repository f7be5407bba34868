"""Pendulum: swing a frictionless pendulum up and hold it upright with a limited torque.

Step for step and seed for seed the same as Gymnasium 1.4's ``Pendulum-v1``.
:class:`PendulumVectorEnv` steps many copies at once with numpy, each copy bit-identical to a
:class:`PendulumEnv` with a time limit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.spaces.box import Box
from vecgym.envs.classic_control._base import (
    LEGACY_SCALAR_PROMOTION,
    ClassicControlEnv,
    rotate,
    vector_metadata,
)
from vecgym.envs.classic_control.utils import verify_number_and_cast
from vecgym.envs.rendering import raster
from vecgym.vector.numpy_vector_env import NumpyVectorEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = [
    "DEFAULT_X",
    "DEFAULT_Y",
    "PendulumEnv",
    "PendulumVectorEnv",
    "angle_normalize",
    "scalar_square",
]

#: Default half-width of the initial angle distribution.
DEFAULT_X = np.pi
#: Default half-width of the initial angular-velocity distribution.
DEFAULT_Y = 1.0

INVALID_ACTION_MSG = "action must be an array holding one torque, got {!r} ({})"
RESET_NEEDED_MSG = "call reset() before step()"

_ROD_COLOR = (204, 77, 77)
_AXLE_COLOR = (0, 0, 0)
_ARROW_COLOR = (0, 0, 0)


class PendulumEnv(ClassicControlEnv[np.ndarray, np.ndarray]):
    """A pendulum hanging from a fixed pivot, to be swung up and balanced upright.

    **Actions** (``Box(-2, 2, (1,))``, ``float32``): the torque at the pivot, clipped to
    ``[-2, 2]``.

    **Observation** (``Box(3,)``, ``float32``): ``cos(theta)``, ``sin(theta)`` and the angular
    velocity in ``[-8, 8]``; ``theta = 0`` is upright.

    **Reward**: ``-(theta_n ** 2 + 0.1 * theta_dot ** 2 + 0.001 * torque ** 2)`` with ``theta_n``
    the angle normalised to ``[-pi, pi)``, i.e. at most ``0``; returned as a ``numpy.float64``.

    **Start**: angle uniform in ``[-pi, pi)``, angular velocity uniform in ``[-1, 1)``;
    ``reset(options={"x_init": ..., "y_init": ...})`` sets those two half-widths.

    **End**: never terminates; truncated after 200 steps by the ``TimeLimit`` that ``make``
    adds.

    Args:
        render_mode: ``None``, ``"rgb_array"`` (500x500 frames) or ``"human"``.
        g: the acceleration of gravity.

    Example:
        >>> env = PendulumEnv()
        >>> obs, info = env.reset(seed=0)
        >>> obs.shape, obs.dtype
        ((3,), dtype('float32'))
        >>> obs, reward, terminated, truncated, info = env.step(np.array([0.5], dtype=np.float32))
        >>> bool(reward <= 0), terminated, truncated
        (True, False, False)
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    def __init__(self, render_mode: str | None = None, g: float = 10.0) -> None:
        self.max_speed = 8
        self.max_torque = 2.0
        self.dt = 0.05
        self.g = g
        self.m = 1.0
        self.l = 1.0

        self.screen_dim = 500
        self.screen: Any = None
        self.clock: Any = None
        self._init_rendering(render_mode, self.screen_dim, self.screen_dim)

        high = np.array([1.0, 1.0, self.max_speed], dtype=np.float32)
        # The default torque range is not symmetric-normalised ([-2, 2]); kept for compatibility.
        self.action_space = Box(
            low=-self.max_torque, high=self.max_torque, shape=(1,), dtype=np.float32
        )
        self.observation_space = Box(low=-high, high=high, dtype=np.float32)
        self.state: Any = None
        self.last_u: Any = None

    def step(self, u: np.ndarray) -> tuple[np.ndarray, Any, bool, bool, dict[str, Any]]:
        """Apply the torque ``u[0]`` (clipped to ``[-2, 2]``) for ``dt`` seconds.

        Raises:
            InvalidAction: ``u`` does not hold at least one torque.
            ResetNeeded: ``reset`` was never called.
        """
        clipped = np.clip(u, -self.max_torque, self.max_torque)
        if clipped.ndim == 0 or clipped.shape[0] == 0:
            raise error.InvalidAction(INVALID_ACTION_MSG.format(u, type(u).__name__))
        if self.state is None:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        th, thdot = self.state
        g, m, length, dt = self.g, self.m, self.l, self.dt
        # numpy scalars on purpose: the torque's dtype (float32) decides some roundings.
        torque = clipped[0]
        self.last_u = torque  # drawn by render()

        costs = angle_normalize(th) ** 2 + 0.1 * thdot**2 + 0.001 * (torque**2)
        newthdot = thdot + (3 * g / (2 * length) * np.sin(th) + 3.0 / (m * length**2) * torque) * dt
        newthdot = np.clip(newthdot, -self.max_speed, self.max_speed)
        newth = th + newthdot * dt
        self.state = np.array([newth, newthdot])

        if self.render_mode == "human":
            self.render()
        # Never terminates; truncation is the TimeLimit wrapper's job.
        return self._get_obs(), -costs, False, False, {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw the angle and angular velocity uniformly from ``[-x, x)`` and ``[-y, y)``.

        Args:
            seed: reseeds ``np_random`` when given.
            options: optional ``"x_init"`` (default ``pi``) and ``"y_init"`` (default ``1``)
                half-widths of the symmetric initial distributions.

        Raises:
            ValueError: a half-width is not a number.
        """
        super().reset(seed=seed)
        high = _reset_half_widths(options)
        self.state = self.np_random.uniform(low=-high, high=high)
        self.last_u = None
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), {}

    def _get_obs(self) -> np.ndarray:
        theta, thetadot = self.state
        return np.array([np.cos(theta), np.sin(theta), thetadot], dtype=np.float32)

    def _draw_frame(self) -> npt.NDArray[np.uint8] | None:
        if self.state is None:
            return None
        return draw_pendulum(float(self.state[0]), self.last_u, self.screen_dim)


def _reset_half_widths(options: dict[str, Any] | None) -> np.ndarray:
    """The half-widths ``[x, y]`` of the initial angle and angular-velocity distributions read
    from ``reset``'s ``options`` (``"x_init"``, default ``pi``; ``"y_init"``, default ``1``).

    Raises:
        ValueError: a half-width is not a number.
    """
    if options is None:
        return np.array([DEFAULT_X, DEFAULT_Y])
    x = verify_number_and_cast(options.get("x_init", DEFAULT_X))
    y = verify_number_and_cast(options.get("y_init", DEFAULT_Y))
    return np.array([x, y])


def scalar_square(values: np.ndarray) -> np.ndarray:
    """``x ** 2`` for each element ``x`` of a float array, rounded as a numpy scalar rounds it.

    A numpy ``float64`` (or Python float) scalar squares with C's ``pow``, which differs in the
    last bit from ``x * x`` (and from numpy's array ``x ** 2``, which is ``x * x``) for about one
    value in a thousand; ``numpy.float_power`` runs the same ``pow`` over an array. ``float32``
    scalars use ``powf``, which no array function reproduces, so they are squared one by one.
    Under numpy 1's promotion (:data:`LEGACY_SCALAR_PROMOTION`) a ``float32`` scalar squares
    to a ``float64``, through the ``float64`` loop of ``numpy.power``: so does this.
    """
    if values.dtype == np.float64:
        return np.float_power(values, 2.0)
    if LEGACY_SCALAR_PROMOTION and values.dtype == np.float32:
        return np.power(values.astype(np.float64), 2.0)
    return np.array([value**2 for value in values], dtype=values.dtype)


def angle_normalize(x: Any) -> Any:
    """Map an angle (or array of angles) to ``[-pi, pi)``."""
    return ((x + np.pi) % (2 * np.pi)) - np.pi


def draw_pendulum(theta: float, last_u: Any, size: int) -> npt.NDArray[np.uint8]:
    """Draw a pendulum frame: the rod, its pivot, and an arc arrow showing the last torque.

    Args:
        theta: the pendulum angle (``0`` upright).
        last_u: the last torque applied, or ``None`` for none yet.
        size: the frame's width and height in pixels.

    Returns:
        A ``(size, size, 3)`` ``uint8`` frame.
    """
    bound = 2.2
    scale = size / (bound * 2)
    offset = size // 2
    rod_length, rod_width = 1 * scale, 0.2 * scale
    angle = theta + np.pi / 2
    canvas = raster.new_canvas(size, size)

    if last_u is not None and float(last_u) != 0.0:
        _draw_torque_arrow(canvas, offset, scale, float(last_u))
    rod = rotate(
        [
            (0, -rod_width / 2),
            (0, rod_width / 2),
            (rod_length, rod_width / 2),
            (rod_length, -rod_width / 2),
        ],
        angle,
    )
    raster.fill_polygon(canvas, rod + offset, _ROD_COLOR)
    raster.fill_circle(canvas, offset, offset, rod_width / 2, _ROD_COLOR)
    end_x = rod_length * math.cos(angle) + offset
    end_y = rod_length * math.sin(angle) + offset
    raster.fill_circle(canvas, end_x, end_y, rod_width / 2, _ROD_COLOR)
    raster.fill_circle(canvas, offset, offset, 0.05 * scale, _AXLE_COLOR)
    return raster.flip_vertical(canvas)


def _draw_torque_arrow(canvas: raster.Canvas, offset: float, scale: float, torque: float) -> None:
    """An arc around the pivot whose size grows with ``|torque|``, its head in the turning sense."""
    radius = scale * abs(torque) / 4
    if radius < 2:
        return
    width = max(radius / 6, 2.0)
    sweep = 1.5 * math.pi
    start = math.pi / 4
    raster.draw_arc(canvas, offset, offset, radius, start, start + sweep, _ARROW_COLOR, width)
    # The canvas is y-up here, so positive angles turn counter-clockwise (positive torque).
    tip_angle = start + sweep if torque > 0 else start
    direction = 1.0 if torque > 0 else -1.0
    tip = np.array([math.cos(tip_angle), math.sin(tip_angle)]) * radius + offset
    tangent = np.array([-math.sin(tip_angle), math.cos(tip_angle)]) * direction
    normal = np.array([math.cos(tip_angle), math.sin(tip_angle)])
    head = 2.5 * width
    points = [tip + tangent * head, tip + normal * head, tip - normal * head]
    raster.fill_polygon(canvas, points, _ARROW_COLOR)


class PendulumVectorEnv(NumpyVectorEnv):
    """``num_envs`` pendulums stepped together with numpy, each one a :class:`PendulumEnv` with a
    time limit, bit for bit.

    After ``reset(seed=s)`` sub-environment ``i``'s trajectory equals that of
    ``make("Pendulum-v1")`` reset with ``seed=s + i`` and fed the same actions, with a
    :class:`~vecgym.vector.SyncVectorEnv`'s autoresets in the chosen ``autoreset_mode``
    (autoresets draw the state as ``reset()`` without options does). Rewards are ``float64``.

    The single env computes the torque terms in the torque's dtype (``float32`` for actions from
    the action space) under numpy 2's promotion rules, in ``float64`` under numpy 1's; this class
    does the same per element, under the installed numpy's rules. Its
    squares are numpy scalar powers, which round as C's ``pow`` / ``powf`` (not always as
    ``x * x`` or numpy's array power do), so :func:`scalar_square` computes them the same way.

    Args:
        num_envs: the number of pendulums.
        max_episode_steps: truncate an episode after this many steps (``None``: never).
        render_mode: ``None`` or ``"rgb_array"`` (:meth:`render` returns one frame per env).
        g: the acceleration of gravity.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = PendulumVectorEnv(num_envs=2)
        >>> obs, _ = envs.reset(seed=0)
        >>> bool((obs[1] == PendulumEnv().reset(seed=1)[0]).all())
        True
        >>> rewards = envs.step(np.zeros((2, 1), dtype=np.float32))[1]
        >>> rewards.dtype, bool((rewards <= 0).all())
        (dtype('float64'), True)
    """

    metadata: dict[str, Any] = vector_metadata(render_fps=30)

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 200,
        render_mode: str | None = None,
        g: float = 10.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.max_speed = 8
        self.max_torque = 2.0
        self.dt = 0.05
        self.g = g
        self.m = 1.0
        self.l = 1.0
        self.screen_dim = 500
        high = np.array([1.0, 1.0, self.max_speed], dtype=np.float32)
        self.single_action_space = Box(
            low=-self.max_torque, high=self.max_torque, shape=(1,), dtype=np.float32
        )
        self.single_observation_space = Box(low=-high, high=high, dtype=np.float32)
        self._batch_spaces()
        #: ``(2, num_envs)`` float64: angles, then angular velocities.
        self.state = np.zeros((2, self.num_envs), dtype=np.float64)
        #: The last torque applied in each env (``NaN`` after a reset: none yet), for rendering.
        self.last_u = np.full(self.num_envs, np.nan)

    def _parse_reset_options(self, options: dict[str, Any] | None) -> np.ndarray:
        """The half-widths ``[x, y]`` of the initial distribution, as :meth:`PendulumEnv.reset`
        reads them."""
        return _reset_half_widths(options)

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: np.ndarray) -> None:
        state, rng = self.state, self._rng
        for i in indices.tolist():
            state[:, i] = rng(i).uniform(low=-params, high=params)
        self.last_u[indices] = np.nan

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]]:
        """:meth:`PendulumEnv.step` on whole rows, each operation in the single env's dtype."""
        if actions.dtype.kind != "f":
            actions = actions.astype(np.float64)
        torque = np.clip(actions, -self.max_torque, self.max_torque)[:, 0]
        th, thdot = self.state
        g, m, length, dt = self.g, self.m, self.l, self.dt
        self.last_u = torque.astype(np.float64)

        torque_square = scalar_square(torque)
        if LEGACY_SCALAR_PROMOTION:
            # numpy 1: the float32 torque scalar meets Python floats, which widen it to float64
            torque = torque.astype(np.float64)
        costs = (
            scalar_square(angle_normalize(th)) + 0.1 * scalar_square(thdot) + 0.001 * torque_square
        )
        newthdot = thdot + (3 * g / (2 * length) * np.sin(th) + 3.0 / (m * length**2) * torque) * dt
        newthdot = np.clip(newthdot, -self.max_speed, self.max_speed)
        newth = th + newthdot * dt
        self.state = np.stack((newth, newthdot))
        return -costs, np.zeros(self.num_envs, dtype=np.bool_)

    def _observations(self) -> np.ndarray:
        theta, thetadot = self.state
        return np.stack((np.cos(theta), np.sin(theta), thetadot), axis=1).astype(np.float32)

    def _render_env(self, i: int) -> npt.NDArray[np.uint8]:
        last_u = None if np.isnan(self.last_u[i]) else self.last_u[i]
        return draw_pendulum(float(self.state[0, i]), last_u, self.screen_dim)
