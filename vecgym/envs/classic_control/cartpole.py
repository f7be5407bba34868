"""CartPole: balance a pole hinged on a cart that is pushed left or right.

The cart-pole task of Barto, Sutton and Anderson (1983), step for step and seed for seed the same
as Gymnasium 1.4's ``CartPole-v0`` / ``CartPole-v1``. :class:`CartPoleVectorEnv` steps many
copies at once with numpy, each copy bit-identical to a :class:`CartPoleEnv` with a time limit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error, logger
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.discrete import Discrete
from vecgym.envs.classic_control._base import (
    ClassicControlEnv,
    rotate,
    vector_metadata,
)
from vecgym.envs.classic_control.utils import maybe_parse_reset_bounds
from vecgym.envs.rendering import raster
from vecgym.vector.numpy_vector_env import BoolArray, NumpyVectorEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["CartPoleEnv", "CartPoleVectorEnv"]

RESET_NEEDED_MSG = "call reset() before step()"
STEP_AFTER_TERMINATED_MSG = (
    "step() was called after the episode terminated, which gives undefined results; call reset() "
    "to start a new episode"
)

_CART_COLOR = (0, 0, 0)
_POLE_COLOR = (202, 152, 101)
_AXLE_COLOR = (129, 132, 203)
_TRACK_COLOR = (0, 0, 0)


class CartPoleEnv(ClassicControlEnv[np.ndarray, "np.integer[Any]"]):
    """A pole balanced upright on a cart that moves along a frictionless track.

    **Actions** (``Discrete(2)``): ``0`` pushes the cart left, ``1`` pushes it right, with a force
    of ``force_mag`` newtons.

    **Observation** (``Box(4,)``, ``float32``): cart position (bounded by ``±4.8``), cart
    velocity, pole angle in radians (bounded by ``±0.418``, i.e. 24 degrees) and pole angular
    velocity.

    **Reward**: ``+1`` for every step, the terminating one included. With
    ``sutton_barto_reward=True`` every non-terminating step gives ``0`` and the terminating step
    ``-1``. Steps taken after termination (without a reset) give ``0`` (``-1`` in the Sutton-Barto
    variant) and warn once.

    **Start**: each of the four state variables is drawn uniformly from ``[-0.05, 0.05)``;
    ``reset(options={"low": ..., "high": ...})`` changes those bounds.

    **End**: terminated when the pole leans more than 12 degrees or the cart leaves
    ``[-2.4, 2.4]``; ``CartPole-v0`` is truncated after 200 steps and ``CartPole-v1`` after 500
    by the ``TimeLimit`` that ``make`` adds.

    The dynamics are integrated with explicit Euler steps of ``tau`` seconds
    (``kinematics_integrator = "euler"``); any other value of that attribute selects
    semi-implicit Euler.

    Args:
        sutton_barto_reward: use the reward of the original formulation (see above).
        render_mode: ``None``, ``"rgb_array"`` (400x600 frames) or ``"human"``.

    Example:
        >>> env = CartPoleEnv()
        >>> obs, info = env.reset(seed=123, options={"low": -0.1, "high": 0.1})
        >>> obs
        array([ 0.03647037, -0.0892358 , -0.05592803, -0.06312564], dtype=float32)
        >>> env.step(1)[1:]
        (1.0, False, False, {})
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": 50}

    def __init__(self, sutton_barto_reward: bool = False, render_mode: str | None = None) -> None:
        self._sutton_barto_reward = sutton_barto_reward

        self.gravity = 9.8
        self.masscart = 1.0
        self.masspole = 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5  # half of the pole's length
        self.polemass_length = self.masspole * self.length
        self.force_mag = 10.0
        self.tau = 0.02  # seconds per step
        self.kinematics_integrator = "euler"

        # Failure limits; the observation bounds are twice as wide so that the terminating
        # observation still lies inside the space.
        self.theta_threshold_radians = 12 * 2 * math.pi / 360
        self.x_threshold = 2.4
        high = np.array(
            [self.x_threshold * 2, np.inf, self.theta_threshold_radians * 2, np.inf],
            dtype=np.float32,
        )
        self.action_space = Discrete(2)
        self.observation_space = Box(-high, high, dtype=np.float32)

        self.screen_width = 600
        self.screen_height = 400
        self.screen: Any = None
        self.clock: Any = None
        self._init_rendering(render_mode, self.screen_width, self.screen_height)

        self.state: np.ndarray | None = None
        self.steps_beyond_terminated: int | None = None

    def step(
        self, action: int | np.integer[Any] | np.ndarray
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Push the cart for one time step of ``tau`` seconds.

        Raises:
            InvalidAction: ``action`` is not ``0`` or ``1``.
            ResetNeeded: ``reset`` was never called.
        """
        self._check_discrete_action(action)
        if self.state is None:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        x, x_dot, theta, theta_dot = np.asarray(self.state, dtype=np.float64).tolist()
        force = self.force_mag if action == 1 else -self.force_mag
        # Python floats give the same IEEE-754 results as the numpy float64 scalars Gymnasium
        # uses, a few times faster; cos/sin still go through numpy so they match bit for bit.
        costheta = float(np.cos(theta))
        sintheta = float(np.sin(theta))

        # Equations from Florian (2007), "Correct equations for the dynamics of the cart-pole".
        temp = (force + self.polemass_length * (theta_dot * theta_dot) * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * (costheta * costheta) / self.total_mass)
        )
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass

        if self.kinematics_integrator == "euler":
            x = x + self.tau * x_dot
            x_dot = x_dot + self.tau * xacc
            theta = theta + self.tau * theta_dot
            theta_dot = theta_dot + self.tau * thetaacc
        else:  # semi-implicit Euler: velocities first, then positions from the new velocities
            x_dot = x_dot + self.tau * xacc
            x = x + self.tau * x_dot
            theta_dot = theta_dot + self.tau * thetaacc
            theta = theta + self.tau * theta_dot

        self.state = np.array((x, x_dot, theta, theta_dot), dtype=np.float64)

        terminated = (
            x < -self.x_threshold
            or x > self.x_threshold
            or theta < -self.theta_threshold_radians
            or theta > self.theta_threshold_radians
        )
        reward = self._reward(terminated)

        if self.render_mode == "human":
            self.render()
        # Truncation is the TimeLimit wrapper's job.
        return np.array(self.state, dtype=np.float32), reward, terminated, False, {}

    def _reward(self, terminated: bool) -> float:
        """The reward of a step; counts (and warns once about) steps taken after termination."""
        if not terminated:
            return 0.0 if self._sutton_barto_reward else 1.0
        if self.steps_beyond_terminated is None:
            self.steps_beyond_terminated = 0  # the step on which the pole fell
            return -1.0 if self._sutton_barto_reward else 1.0
        if self.steps_beyond_terminated == 0:
            logger.warn(STEP_AFTER_TERMINATED_MSG)
        self.steps_beyond_terminated += 1
        return -1.0 if self._sutton_barto_reward else 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw a new initial state uniformly from ``[low, high)`` (default ``±0.05``).

        Args:
            seed: reseeds ``np_random`` when given.
            options: optional ``"low"`` and ``"high"`` bounds of the initial state; bounds outside
                the defaults may start the episode out of the observation space.

        Raises:
            ValueError: a bound is not a number, or ``low > high``.
        """
        super().reset(seed=seed)
        low, high = maybe_parse_reset_bounds(options, -0.05, 0.05)
        self.state = self.np_random.uniform(low=low, high=high, size=(4,))
        self.steps_beyond_terminated = None
        if self.render_mode == "human":
            self.render()
        return np.array(self.state, dtype=np.float32), {}

    def _draw_frame(self) -> npt.NDArray[np.uint8] | None:
        if self.state is None:
            return None
        return draw_cartpole(
            self.state, self.screen_width, self.screen_height, self.x_threshold, self.length
        )


def draw_cartpole(
    state: npt.ArrayLike, width: int, height: int, x_threshold: float, half_length: float
) -> npt.NDArray[np.uint8]:
    """Draw a cart-pole frame: track, cart, pole and axle, the track 100 pixels above the bottom.

    Args:
        state: ``(x, x_dot, theta, theta_dot)``.
        width: frame width in pixels (the track spans ``±2 * x_threshold`` across it).
        height: frame height in pixels.
        x_threshold: the cart position limit.
        half_length: half the pole's length.

    Returns:
        A ``(height, width, 3)`` ``uint8`` frame.
    """
    x, _, theta, _ = np.asarray(state, dtype=np.float64).tolist()
    scale = width / (x_threshold * 2)
    pole_width, pole_len = 10.0, scale * (2 * half_length)
    cart_width, cart_height = 50.0, 30.0
    axle_offset = cart_height / 4.0
    cart_x, cart_y = x * scale + width / 2.0, 100.0  # centre of the cart, height of its top

    canvas = raster.new_canvas(height, width)
    half_w, half_h = cart_width / 2, cart_height / 2
    raster.fill_rect(
        canvas, cart_x - half_w, cart_y - half_h, cart_x + half_w, cart_y + half_h, _CART_COLOR
    )
    left, right = -pole_width / 2, pole_width / 2
    top, bottom = pole_len - pole_width / 2, -pole_width / 2
    pole = rotate([(left, bottom), (left, top), (right, top), (right, bottom)], -theta)
    pole += (cart_x, cart_y + axle_offset)
    raster.fill_polygon(canvas, pole, _POLE_COLOR)
    raster.fill_circle(canvas, cart_x, cart_y + axle_offset, pole_width / 2, _AXLE_COLOR)
    raster.draw_line(canvas, (0.0, cart_y), (float(width), cart_y), _TRACK_COLOR)
    return raster.flip_vertical(canvas)


class CartPoleVectorEnv(NumpyVectorEnv):
    """``num_envs`` cart-poles stepped together with numpy, each one a :class:`CartPoleEnv` with a
    time limit, bit for bit.

    Sub-environment ``i`` has its own random generator: after ``reset(seed=s)`` its trajectory
    (observations, rewards, terminations, truncations) equals that of ``make("CartPole-v1")``
    reset with ``seed=s + i`` and fed the same actions, with the autoresets a
    :class:`~vecgym.vector.SyncVectorEnv` would do (an autoreset draws the new state as
    ``reset()`` without options would). This differs on purpose from Gymnasium's
    ``CartPoleVectorEnv``, which draws every sub-environment's state from one shared generator
    (so its envs match no single env) and reuses the last ``reset`` options' bounds for
    autoresets.

    Episodes that end are handled by ``autoreset_mode`` as :mod:`vecgym.vector.autoreset` states
    (``metadata["autoreset_mode"]`` holds the chosen one): ``NEXT_STEP`` resets them on the next
    ``step`` (ignoring their action; reward ``0``, not terminated, not truncated), ``SAME_STEP``
    within the step that ended them (the last observation in ``infos["final_obs"]``), and
    ``DISABLED`` requires ``reset(options={"reset_mask": mask})`` before they are stepped again.
    The seeding, reset, autoreset and rendering plumbing is
    :class:`~vecgym.vector.numpy_vector_env.NumpyVectorEnv`'s.

    Rewards are ``float32`` arrays, as Gymnasium's ``CartPoleVectorEnv`` returns them; every
    array returned is new (nothing aliases the internal state).

    Args:
        num_envs: the number of cart-poles.
        max_episode_steps: truncate an episode after this many steps (``None``: never).
        render_mode: ``None`` or ``"rgb_array"`` (:meth:`render` returns one frame per env).
        sutton_barto_reward: the reward of :class:`CartPoleEnv` with that flag.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = CartPoleVectorEnv(num_envs=3)
        >>> obs, infos = envs.reset(seed=123)
        >>> obs.shape, obs.dtype
        ((3, 4), dtype('float32'))
        >>> single = CartPoleEnv()
        >>> bool((single.reset(seed=124)[0] == obs[1]).all())
        True
        >>> obs, rewards, terminations, truncations, infos = envs.step(np.array([1, 0, 1]))
        >>> rewards, terminations
        (array([1., 1., 1.], dtype=float32), array([False, False, False]))
    """

    metadata: dict[str, Any] = vector_metadata(render_fps=50)

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 500,
        render_mode: str | None = None,
        sutton_barto_reward: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self._sutton_barto_reward = sutton_barto_reward

        # The same physical constants (and attribute names) as CartPoleEnv.
        self.gravity = 9.8
        self.masscart = 1.0
        self.masspole = 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5
        self.polemass_length = self.masspole * self.length
        self.force_mag = 10.0
        self.tau = 0.02
        self.kinematics_integrator = "euler"
        self.theta_threshold_radians = 12 * 2 * math.pi / 360
        self.x_threshold = 2.4
        high = np.array(
            [self.x_threshold * 2, np.inf, self.theta_threshold_radians * 2, np.inf],
            dtype=np.float32,
        )
        self.single_action_space = Discrete(2)
        self.single_observation_space = Box(-high, high, dtype=np.float32)
        self._batch_spaces()

        self.screen_width = 600
        self.screen_height = 400

        #: ``(4, num_envs)`` float64: row ``k`` holds state variable ``k`` of every env.
        self.state = np.zeros((4, self.num_envs), dtype=np.float64)

    def step(
        self, action: npt.ArrayLike
    ) -> tuple[np.ndarray, np.ndarray, BoolArray, BoolArray, dict[str, Any]]:
        """:meth:`NumpyVectorEnv.step <vecgym.vector.numpy_vector_env.NumpyVectorEnv.step>`,
        with its argument named ``action`` as in Gymnasium's ``CartPoleVectorEnv.step`` (so a
        call by keyword binds the same)."""
        return super().step(action)

    def _parse_reset_options(self, options: dict[str, Any] | None) -> tuple[float, float]:
        """The ``(low, high)`` bounds of the initial state, as :meth:`CartPoleEnv.reset` reads
        them from ``options``."""
        return maybe_parse_reset_bounds(options, -0.05, 0.05)

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: tuple[float, float]) -> None:
        low, high = params
        state, rng = self.state, self._rng
        for i in indices.tolist():
            state[:, i] = rng(i).uniform(low, high, 4)

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]]:
        """Advance every env's state by one step; return the rewards and terminations.

        The same operations, in the same order, as :meth:`CartPoleEnv.step`, on whole rows, so
        each element rounds exactly as the single env's scalar arithmetic does.
        """
        x, x_dot, theta, theta_dot = self.state
        force = np.array([-self.force_mag, self.force_mag])[actions]
        costheta = np.cos(theta)
        sintheta = np.sin(theta)
        temp = (force + self.polemass_length * (theta_dot * theta_dot) * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * (costheta * costheta) / self.total_mass)
        )
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass
        if self.kinematics_integrator == "euler":
            # Row k of the new state is ``state[k] + tau * rate[k]``, as each of the single env's
            # four scalar updates, done in two array operations.
            rates = np.stack((x_dot, xacc, theta_dot, thetaacc))
            self.state = self.state + self.tau * rates
        else:
            x_dot = x_dot + self.tau * xacc
            x = x + self.tau * x_dot
            theta_dot = theta_dot + self.tau * thetaacc
            theta = theta + self.tau * theta_dot
            self.state = np.stack((x, x_dot, theta, theta_dot))
        # ``x < -t or x > t`` is ``|x| > t`` (negation is exact; NaN fails both).
        terminated = (np.abs(self.state[0]) > self.x_threshold) | (
            np.abs(self.state[2]) > self.theta_threshold_radians
        )
        if self._sutton_barto_reward:
            rewards = np.where(terminated, np.float32(-1.0), np.float32(0.0))
        else:
            rewards = np.ones(self.num_envs, dtype=np.float32)
        return rewards, terminated

    def _observations(self) -> np.ndarray:
        return self.state.T.astype(np.float32, order="C")

    def _render_env(self, i: int) -> npt.NDArray[np.uint8]:
        return draw_cartpole(
            self.state[:, i], self.screen_width, self.screen_height, self.x_threshold, self.length
        )
