"""Acrobot: a two-link pendulum, actuated at the middle joint, must swing its tip above a line.

Sutton's acrobot task (Sutton 1996; Sutton and Barto 1998), step for step and seed for seed the
same as Gymnasium 1.4's ``Acrobot-v1`` (which follows RLPy's implementation).
:class:`AcrobotVectorEnv` steps many copies at once with numpy, each copy bit-identical to an
:class:`AcrobotEnv` with a time limit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.discrete import Discrete
from vecgym.envs.classic_control._base import ClassicControlEnv, rotate, vector_metadata
from vecgym.envs.classic_control.pendulum import scalar_square
from vecgym.envs.classic_control.utils import maybe_parse_reset_bounds
from vecgym.envs.rendering import raster
from vecgym.vector.numpy_vector_env import NumpyVectorEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["AcrobotEnv", "AcrobotVectorEnv", "bound", "rk4", "wrap"]

RESET_NEEDED_MSG = "call reset() before step()"

_PI = float(np.pi)

_LINK_COLOR = (0, 204, 204)
_JOINT_COLOR = (204, 204, 0)
_LINE_COLOR = (0, 0, 0)


class AcrobotEnv(ClassicControlEnv[np.ndarray, "np.integer[Any]"]):
    """Two links hanging from a fixed joint; a torque at the joint between them swings them up.

    **Actions** (``Discrete(3)``): torque ``-1``, ``0`` or ``+1`` at the actuated joint.

    **Observation** (``Box(6,)``, ``float32``): ``cos`` and ``sin`` of both joint angles
    (``theta1`` measured from hanging straight down, ``theta2`` relative to the first link),
    then the two angular velocities, bounded by ``±4 pi`` and ``±9 pi``.

    **Reward**: ``-1`` per step that does not reach the goal, ``0`` on the step that does.

    **Start**: the four state variables uniform in ``[-0.1, 0.1)``;
    ``reset(options={"low": ..., "high": ...})`` changes those bounds.

    **End**: terminated when the free end rises more than one link length above the fixed
    joint, ``-cos(theta1) - cos(theta1 + theta2) > 1``; truncated after 500 steps by the
    ``TimeLimit`` that ``make`` adds.

    The equations of motion are integrated over ``dt = 0.2`` seconds with one classic
    fourth-order Runge-Kutta step (:func:`rk4`). The class attribute ``book_or_nips`` selects the
    dynamics: ``"book"`` (default; Sutton and Barto's book and the Java implementation) or
    ``"nips"`` (the NIPS 1996 paper, which drops a Coriolis term from the second joint's
    acceleration). ``torque_noise_max > 0`` adds uniform noise to the torque, drawn from
    ``np_random``.

    Args:
        render_mode: ``None``, ``"rgb_array"`` (500x500 frames) or ``"human"``.

    Example:
        >>> env = AcrobotEnv()
        >>> obs, info = env.reset(seed=0)
        >>> obs.shape, obs.dtype
        ((6,), dtype('float32'))
        >>> env.step(1)[1:]
        (-1.0, False, False, {})
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": 15}

    dt = 0.2  #: integration time step in seconds
    LINK_LENGTH_1 = 1.0  #: length of link 1 [m]
    LINK_LENGTH_2 = 1.0  #: length of link 2 [m]
    LINK_MASS_1 = 1.0  #: mass of link 1 [kg]
    LINK_MASS_2 = 1.0  #: mass of link 2 [kg]
    LINK_COM_POS_1 = 0.5  #: distance from joint 1 to link 1's centre of mass [m]
    LINK_COM_POS_2 = 0.5  #: distance from joint 2 to link 2's centre of mass [m]
    LINK_MOI = 1.0  #: moment of inertia of either link
    MAX_VEL_1 = 4 * np.pi
    MAX_VEL_2 = 9 * np.pi
    AVAIL_TORQUE: list[float] = [-1.0, 0.0, +1]
    torque_noise_max = 0.0
    SCREEN_DIM = 500
    #: ``"book"`` or ``"nips"``: which published equations of motion to use.
    book_or_nips = "book"
    action_arrow = None
    domain_fig = None
    actions_num = 3

    def __init__(self, render_mode: str | None = None) -> None:
        self.screen: Any = None
        self.clock: Any = None
        self._init_rendering(render_mode, self.SCREEN_DIM, self.SCREEN_DIM)
        high = np.array([1.0, 1.0, 1.0, 1.0, self.MAX_VEL_1, self.MAX_VEL_2], dtype=np.float32)
        self.observation_space = Box(low=-high, high=high, dtype=np.float32)
        self.action_space = Discrete(3)
        self.state: Any = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Draw the four state variables uniformly from ``[low, high)`` (default ``±0.1``).

        Args:
            seed: reseeds ``np_random`` when given.
            options: optional ``"low"`` and ``"high"`` bounds of the initial state.

        Raises:
            ValueError: a bound is not a number, or ``low > high``.
        """
        super().reset(seed=seed)
        low, high = maybe_parse_reset_bounds(options, -0.1, 0.1)
        self.state = self.np_random.uniform(low=low, high=high, size=(4,)).astype(np.float32)
        if self.render_mode == "human":
            self.render()
        return self._get_ob(), {}

    def step(
        self, a: int | np.integer[Any] | np.ndarray
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply torque ``AVAIL_TORQUE[a]`` for ``dt`` seconds.

        Raises:
            InvalidAction: ``a`` is not ``0``, ``1`` or ``2``.
            ResetNeeded: ``reset`` was never called.
        """
        self._check_discrete_action(a)
        if self.state is None:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        torque = self.AVAIL_TORQUE[int(a)]
        if self.torque_noise_max > 0:
            torque += self.np_random.uniform(-self.torque_noise_max, self.torque_noise_max)

        # The torque rides along as a fifth state variable whose derivative is zero.
        s_augmented = np.append(self.state, torque)
        ns = rk4(self._dsdt, s_augmented, [0, self.dt])
        ns[0] = wrap(ns[0], -np.pi, np.pi)
        ns[1] = wrap(ns[1], -np.pi, np.pi)
        ns[2] = bound(ns[2], -self.MAX_VEL_1, self.MAX_VEL_1)
        ns[3] = bound(ns[3], -self.MAX_VEL_2, self.MAX_VEL_2)
        self.state = ns

        terminated = self._terminal()
        reward = 0.0 if terminated else -1.0
        if self.render_mode == "human":
            self.render()
        # Truncation is the TimeLimit wrapper's job.
        return self._get_ob(), reward, terminated, False, {}

    def _get_ob(self) -> np.ndarray:
        s = self.state
        if s is None:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        # Per-element numpy calls keep the state's dtype (float32 right after reset).
        return np.array(
            [np.cos(s[0]), np.sin(s[0]), np.cos(s[1]), np.sin(s[1]), s[2], s[3]],
            dtype=np.float32,
        )

    def _terminal(self) -> bool:
        s = self.state
        if s is None:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        return bool(-np.cos(s[0]) - np.cos(s[1] + s[0]) > 1.0)

    def _dsdt(self, s_augmented: npt.NDArray[np.float64]) -> tuple[float, ...]:
        """Time derivative of ``(theta1, theta2, dtheta1, dtheta2, torque)``.

        Evaluated with Python floats, which round exactly as numpy float64 scalars do; the
        trigonometric functions still go through numpy so they match Gymnasium bit for bit.
        """
        m1, m2 = self.LINK_MASS_1, self.LINK_MASS_2
        l1 = self.LINK_LENGTH_1
        lc1, lc2 = self.LINK_COM_POS_1, self.LINK_COM_POS_2
        I1 = I2 = self.LINK_MOI
        g = 9.8
        theta1, theta2, dtheta1, dtheta2, a = s_augmented.tolist()
        cos_theta2 = float(np.cos(theta2))
        sin_theta2 = float(np.sin(theta2))

        d1 = m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * cos_theta2) + I1 + I2
        d2 = m2 * (lc2**2 + l1 * lc2 * cos_theta2) + I2
        phi2 = m2 * lc2 * g * float(np.cos(theta1 + theta2 - _PI / 2.0))
        phi1 = (
            -m2 * l1 * lc2 * dtheta2**2 * sin_theta2
            - 2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin_theta2
            + (m1 * lc1 + m2 * l1) * g * float(np.cos(theta1 - _PI / 2))
            + phi2
        )
        if self.book_or_nips == "nips":
            ddtheta2 = (a + d2 / d1 * phi1 - phi2) / (m2 * lc2**2 + I2 - d2**2 / d1)
        else:
            coriolis = m2 * l1 * lc2 * dtheta1**2 * sin_theta2
            ddtheta2 = (a + d2 / d1 * phi1 - coriolis - phi2) / (m2 * lc2**2 + I2 - d2**2 / d1)
        ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
        return dtheta1, dtheta2, ddtheta1, ddtheta2, 0.0

    def _draw_frame(self) -> npt.NDArray[np.uint8] | None:
        if self.state is None:
            return None
        theta1, theta2 = (float(v) for v in self.state[:2])
        return draw_acrobot(theta1, theta2, self.LINK_LENGTH_1, self.LINK_LENGTH_2, self.SCREEN_DIM)


def wrap(x: Any, m: float, M: float) -> Any:
    """Shift ``x`` by whole multiples of ``M - m`` into ``[m, M]`` (not modulo: ``M`` stays ``M``).

    Args:
        x: the value to wrap.
        m: the lower end.
        M: the upper end.
    """
    period = M - m
    while x > M:
        x = x - period
    while x < m:
        x = x + period
    return x


def bound(x: Any, m: Any, M: Any = None) -> Any:
    """Clip ``x`` to ``[m, M]``; with ``M`` omitted, ``m`` is the pair ``(low, high)``.

    Args:
        x: the value to clip.
        m: the lower bound, or a ``(low, high)`` pair when ``M`` is ``None``.
        M: the upper bound.
    """
    if M is None:
        m, M = m[0], m[1]
    return min(max(x, m), M)


def rk4(
    derivs: Callable[[np.ndarray], Any], y0: Any, t: Sequence[float] | np.ndarray
) -> np.ndarray:
    """Integrate ``dy/dt = derivs(y)`` with classic fourth-order Runge-Kutta over the times ``t``.

    One Runge-Kutta step is taken between each pair of consecutive times.

    Args:
        derivs: returns the derivative of the state (a sequence as long as the state).
        y0: the initial state, a sequence of floats (or a single float).
        t: the times; ``t[0]`` is the time of ``y0``.

    Returns:
        The state at ``t[-1]``, cut to its first four components (the acrobot's state without
        the torque riding along), as a ``float64`` array that is a view into the trajectory.

    Example:
        >>> rk4(lambda y: -y, np.ones(5), [0.0, 0.1])
        array([0.9048375, 0.9048375, 0.9048375, 0.9048375])
    """
    try:
        shape: tuple[int, ...] = (len(t), len(y0))
    except TypeError:
        shape = (len(t),)
    yout = np.zeros(shape, dtype=np.float64)
    yout[0] = y0
    for i in range(len(t) - 1):
        dt = t[i + 1] - t[i]
        dt2 = dt / 2.0
        y = yout[i]
        k1 = np.asarray(derivs(y))
        k2 = np.asarray(derivs(y + dt2 * k1))
        k3 = np.asarray(derivs(y + dt2 * k2))
        k4 = np.asarray(derivs(y + dt * k3))
        yout[i + 1] = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    return yout[-1][:4]


def draw_acrobot(
    theta1: float, theta2: float, length1: float, length2: float, size: int
) -> npt.NDArray[np.uint8]:
    """Draw an acrobot frame: the goal line, both links and their joints.

    Args:
        theta1: angle of the first link from hanging down.
        theta2: angle of the second link relative to the first.
        length1: length of link 1.
        length2: length of link 2.
        size: the frame's width and height in pixels.

    Returns:
        A ``(size, size, 3)`` ``uint8`` frame.
    """
    extent = length1 + length2 + 0.2
    scale = size / (extent * 2)
    offset = size / 2
    canvas = raster.new_canvas(size, size)
    # The goal line, one link length above the fixed joint.
    line_y = 1 * scale + offset
    raster.draw_line(
        canvas, (-2.2 * scale + offset, line_y), (2.2 * scale + offset, line_y), _LINE_COLOR
    )
    # Joint positions in the y-up scene: (x, y) = (sin, -cos) of the cumulative angles.
    elbow = (length1 * np.sin(theta1) * scale, -length1 * np.cos(theta1) * scale)
    joints = [(0.0, 0.0), elbow]
    angles = [theta1 - np.pi / 2, theta1 + theta2 - np.pi / 2]
    lengths = [length1 * scale, length2 * scale]
    half = 0.1 * scale
    for (jx, jy), angle, link in zip(joints, angles, lengths, strict=True):
        x, y = jx + offset, jy + offset
        corners = rotate([(0, -half), (0, half), (link, half), (link, -half)], angle)
        raster.fill_polygon(canvas, corners + np.array([x, y]), _LINK_COLOR)
        raster.fill_circle(canvas, int(x), int(y), int(half), _JOINT_COLOR)
    return raster.flip_vertical(canvas)


class AcrobotVectorEnv(NumpyVectorEnv):
    """``num_envs`` acrobots stepped together with numpy, each one an :class:`AcrobotEnv` with a
    time limit, bit for bit.

    After ``reset(seed=s)`` sub-environment ``i``'s trajectory equals that of
    ``make("Acrobot-v1")`` reset with ``seed=s + i`` and fed the same actions, with a
    :class:`~vecgym.vector.SyncVectorEnv`'s autoresets in the chosen ``autoreset_mode``
    (autoresets draw the state as ``reset()`` without options does). Rewards are ``float64``.

    The Runge-Kutta step runs on ``(5, num_envs)`` arrays with the single env's operations in
    its order; the squares of the angular velocities go through C's ``pow`` as the single env's
    Python-float ``** 2`` does (:func:`~vecgym.envs.classic_control.pendulum.scalar_square`).
    ``book_or_nips`` and ``torque_noise_max`` are read from the class as in :class:`AcrobotEnv`.

    Args:
        num_envs: the number of acrobots.
        max_episode_steps: truncate an episode after this many steps (``None``: never).
        render_mode: ``None`` or ``"rgb_array"`` (:meth:`render` returns one frame per env).
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = AcrobotVectorEnv(num_envs=2)
        >>> obs, _ = envs.reset(seed=0)
        >>> bool((obs[1] == AcrobotEnv().reset(seed=1)[0]).all())
        True
        >>> envs.step(np.array([0, 2]))[1]
        array([-1., -1.])
    """

    metadata: dict[str, Any] = vector_metadata(render_fps=15)

    dt = AcrobotEnv.dt
    LINK_LENGTH_1 = AcrobotEnv.LINK_LENGTH_1
    LINK_LENGTH_2 = AcrobotEnv.LINK_LENGTH_2
    LINK_MASS_1 = AcrobotEnv.LINK_MASS_1
    LINK_MASS_2 = AcrobotEnv.LINK_MASS_2
    LINK_COM_POS_1 = AcrobotEnv.LINK_COM_POS_1
    LINK_COM_POS_2 = AcrobotEnv.LINK_COM_POS_2
    LINK_MOI = AcrobotEnv.LINK_MOI
    MAX_VEL_1 = AcrobotEnv.MAX_VEL_1
    MAX_VEL_2 = AcrobotEnv.MAX_VEL_2
    AVAIL_TORQUE = AcrobotEnv.AVAIL_TORQUE
    torque_noise_max = AcrobotEnv.torque_noise_max
    SCREEN_DIM = AcrobotEnv.SCREEN_DIM
    book_or_nips = AcrobotEnv.book_or_nips

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 500,
        render_mode: str | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        high = np.array([1.0, 1.0, 1.0, 1.0, self.MAX_VEL_1, self.MAX_VEL_2], dtype=np.float32)
        self.single_observation_space = Box(low=-high, high=high, dtype=np.float32)
        self.single_action_space = Discrete(3)
        self._batch_spaces()
        #: ``(4, num_envs)`` float64: both angles, then both angular velocities.
        self.state = np.zeros((4, self.num_envs), dtype=np.float64)
        #: Envs not stepped since their reset, whose state is still ``float32``.
        self.fresh = np.ones(self.num_envs, dtype=np.bool_)

    def _parse_reset_options(self, options: dict[str, Any] | None) -> tuple[float, float]:
        """The ``(low, high)`` bounds of the initial state, as :meth:`AcrobotEnv.reset` reads
        them."""
        return maybe_parse_reset_bounds(options, -0.1, 0.1)

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: tuple[float, float]) -> None:
        low, high = params
        state, rng = self.state, self._rng
        for i in indices.tolist():
            state[:, i] = rng(i).uniform(low=low, high=high, size=(4,)).astype(np.float32)
        self.fresh[indices] = True

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]]:
        """:meth:`AcrobotEnv.step` for every env: one RK4 step of the same arithmetic."""
        torque = np.asarray(self.AVAIL_TORQUE, dtype=np.float64)[actions]
        if self.torque_noise_max > 0:
            skip = set() if pending is None else set(pending.tolist())
            for i in range(self.num_envs):
                if i not in skip:  # an env reset by this step does not step, nor draw noise
                    noise = self._rng(i).uniform(-self.torque_noise_max, self.torque_noise_max)
                    torque[i] = torque[i] + noise
        ns = self._rk4(np.concatenate((self.state, torque[np.newaxis])))
        ns[0] = _wrap_rows(ns[0], -np.pi, np.pi)
        ns[1] = _wrap_rows(ns[1], -np.pi, np.pi)
        ns[2] = np.minimum(np.maximum(ns[2], -self.MAX_VEL_1), self.MAX_VEL_1)
        ns[3] = np.minimum(np.maximum(ns[3], -self.MAX_VEL_2), self.MAX_VEL_2)
        self.state = ns
        self.fresh[:] = False
        terminated = -np.cos(ns[0]) - np.cos(ns[1] + ns[0]) > 1.0
        return np.where(terminated, 0.0, -1.0), terminated

    def _rk4(self, y: np.ndarray) -> np.ndarray:
        """:func:`rk4` over ``[0, dt]`` for every column of ``y``; returns the first four rows."""
        dt = self.dt - 0
        dt2 = dt / 2.0
        k1 = self._dsdt(y)
        k2 = self._dsdt(y + dt2 * k1)
        k3 = self._dsdt(y + dt2 * k2)
        k4 = self._dsdt(y + dt * k3)
        return (y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4))[:4]

    def _dsdt(self, s_augmented: np.ndarray) -> np.ndarray:
        """:meth:`AcrobotEnv._dsdt` for every column, the same operations in the same order."""
        m1, m2 = self.LINK_MASS_1, self.LINK_MASS_2
        l1 = self.LINK_LENGTH_1
        lc1, lc2 = self.LINK_COM_POS_1, self.LINK_COM_POS_2
        I1 = I2 = self.LINK_MOI
        g = 9.8
        theta1, theta2, dtheta1, dtheta2, a = s_augmented
        cos_theta2 = np.cos(theta2)
        sin_theta2 = np.sin(theta2)

        d1 = m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * cos_theta2) + I1 + I2
        d2 = m2 * (lc2**2 + l1 * lc2 * cos_theta2) + I2
        phi2 = m2 * lc2 * g * np.cos(theta1 + theta2 - _PI / 2.0)
        phi1 = (
            -m2 * l1 * lc2 * scalar_square(dtheta2) * sin_theta2
            - 2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin_theta2
            + (m1 * lc1 + m2 * l1) * g * np.cos(theta1 - _PI / 2)
            + phi2
        )
        denominator = m2 * lc2**2 + I2 - scalar_square(d2) / d1
        if self.book_or_nips == "nips":
            ddtheta2 = (a + d2 / d1 * phi1 - phi2) / denominator
        else:
            coriolis = m2 * l1 * lc2 * scalar_square(dtheta1) * sin_theta2
            ddtheta2 = (a + d2 / d1 * phi1 - coriolis - phi2) / denominator
        ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
        return np.stack((dtheta1, dtheta2, ddtheta1, ddtheta2, np.zeros_like(a)))

    def _observations(self) -> np.ndarray:
        theta1, theta2, dtheta1, dtheta2 = self.state
        obs = np.stack(
            (np.cos(theta1), np.sin(theta1), np.cos(theta2), np.sin(theta2), dtheta1, dtheta2),
            axis=1,
        ).astype(np.float32)
        fresh = np.flatnonzero(self.fresh)
        if fresh.size:  # a state just reset is float32, and so are its sines and cosines
            angles = self.state[:2, fresh].astype(np.float32)
            obs[fresh, 0], obs[fresh, 1] = np.cos(angles[0]), np.sin(angles[0])
            obs[fresh, 2], obs[fresh, 3] = np.cos(angles[1]), np.sin(angles[1])
        return obs

    def _render_env(self, i: int) -> npt.NDArray[np.uint8]:
        theta1, theta2 = (float(v) for v in self.state[:2, i])
        return draw_acrobot(theta1, theta2, self.LINK_LENGTH_1, self.LINK_LENGTH_2, self.SCREEN_DIM)


def _wrap_rows(x: np.ndarray, m: float, M: float) -> np.ndarray:
    """:func:`wrap` applied to each element of ``x``, by the same repeated shifts."""
    period = M - m
    x = x.copy()
    while True:
        above = x > M
        if not above.any():
            break
        x[above] = x[above] - period
    while True:
        below = x < m
        if not below.any():
            break
        x[below] = x[below] + period
    return x
