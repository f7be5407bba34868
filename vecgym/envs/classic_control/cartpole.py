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
from vecgym.core import seeding
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.discrete import Discrete
from vecgym.envs.classic_control._base import (
    UNSUPPORTED_RENDER_MODE_MSG,
    ClassicControlEnv,
    rotate,
)
from vecgym.envs.classic_control.utils import maybe_parse_reset_bounds
from vecgym.envs.rendering import raster
from vecgym.vector.autoreset import STEP_AFTER_END_MSG, next_autoreset_mask
from vecgym.vector.sync_vector_env import normalize_seeds, split_reset_options
from vecgym.vector.utils import batch_space
from vecgym.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["CartPoleEnv", "CartPoleVectorEnv"]

RESET_NEEDED_MSG = "call reset() before step()"
VECTOR_ACTIONS_SHAPE_MSG = "expected a batch of {} actions (one per env), got an array of shape {}"
VECTOR_ACTIONS_VALUE_MSG = "actions must be integers in {{0, 1}} (an element of {}), got {!r}"
VECTOR_RESET_NEEDED_MSG = "call reset() before step()"
VECTOR_CLOSED_MSG = "Trying to operate on `{}`, after a call to `close()`."
VECTOR_NO_RENDER_MODE_MSG = (
    "You are calling render method without specifying any render mode. "
    "You can specify the render_mode at initialization, "
    'e.g. gym.make_vec("{}", render_mode="rgb_array")'
)
MAX_STEPS_MSG = "max_episode_steps must be a positive integer or None, got {!r}"
NUM_ENVS_MSG = "num_envs must be a positive integer, got {!r}"
#: Gymnasium's wording, kept so that warning filters written for it keep matching.
STEP_AFTER_TERMINATED_MSG = (
    "You are calling 'step()' even though this environment has already returned terminated = "
    "True. You should always call 'reset()' once you receive 'terminated = True' -- any further "
    "steps are undefined behavior."
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


class CartPoleVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
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

    metadata: dict[str, Any] = {
        "render_modes": ["rgb_array"],
        "render_fps": 50,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 500,
        render_mode: str | None = None,
        sutton_barto_reward: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        if (
            isinstance(num_envs, bool)
            or not isinstance(num_envs, (int, np.integer))
            or num_envs < 1
        ):
            raise ValueError(NUM_ENVS_MSG.format(num_envs))
        if max_episode_steps is not None and (
            isinstance(max_episode_steps, bool)
            or not isinstance(max_episode_steps, (int, np.integer))
            or max_episode_steps < 1
        ):
            raise ValueError(MAX_STEPS_MSG.format(max_episode_steps))
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise error.UnsupportedMode(UNSUPPORTED_RENDER_MODE_MSG.format(modes, render_mode))
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}

        self.num_envs = int(num_envs)
        self.max_episode_steps = max_episode_steps
        self.render_mode = render_mode
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
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = Box(-high, high, dtype=np.float32)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

        self.screen_width = 600
        self.screen_height = 400

        #: ``(4, num_envs)`` float64: row ``k`` holds state variable ``k`` of every env.
        self.state: np.ndarray | None = None
        #: Steps taken in each env's current episode.
        self.steps = np.zeros(self.num_envs, dtype=np.int64)
        #: Envs whose episode ended and that have not been reset since.
        self.needs_reset = np.zeros(self.num_envs, dtype=np.bool_)
        self._rngs: list[np.random.Generator | None] = [None] * self.num_envs
        self._rng_seeds: list[int | None] = [None] * self.num_envs

    # --- seeding ----------------------------------------------------------------------------------
    def _rng(self, i: int) -> np.random.Generator:
        """Env ``i``'s generator, created from OS entropy on first use (as ``Env.np_random``)."""
        rng = self._rngs[i]
        if rng is None:
            rng, self._rng_seeds[i] = seeding.np_random()
            self._rngs[i] = rng
        return rng

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The sub-environments' generators, one per env (created on first access)."""
        return tuple(self._rng(i) for i in range(self.num_envs))

    @property
    def np_random_seed(self) -> tuple[int | None, ...]:  # type: ignore[override]
        """The seed of each sub-environment's generator (``-1`` where unknown)."""
        for i in range(self.num_envs):
            self._rng(i)
        return tuple(self._rng_seeds)

    # --- the step API -----------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset the sub-environments (all, or those in ``options["reset_mask"]``).

        A reset clears any pending autoreset (``NEXT_STEP``) or ended episode (``DISABLED``) of
        the envs it resets.

        Args:
            seed: ``None`` (generators kept, or seeded from OS entropy on first use), an ``int``
                ``s`` (env ``i`` is seeded with ``s + i``), or a list with one ``int`` / ``None``
                per env.
            options: ``"low"`` / ``"high"`` bounds of the initial state as
                :meth:`CartPoleEnv.reset` takes them (for this reset only; autoresets use the
                defaults), and ``"reset_mask"``: a numpy bool array of shape ``(num_envs,)``
                selecting the envs to reset (the others keep their state).

        Returns:
            ``(observations, infos)``: a new ``(num_envs, 4)`` ``float32`` array and ``{}``.

        Raises:
            ValueError: bad bounds, a seed list of the wrong length, a bad ``reset_mask``.
            TypeError: a ``reset_mask`` that is not a numpy bool array; a seed of a bad type.
        """
        self._check_open()
        seeds = normalize_seeds(seed, self.num_envs)
        reset_mask, env_options = split_reset_options(options, self.num_envs)
        low, high = maybe_parse_reset_bounds(env_options, -0.05, 0.05)
        if self.state is None:
            self.state = np.zeros((4, self.num_envs), dtype=np.float64)
        indices = (
            range(self.num_envs) if reset_mask is None else np.flatnonzero(reset_mask).tolist()
        )
        for i in indices:
            if seeds[i] is not None:
                self._rngs[i], self._rng_seeds[i] = seeding.np_random(seeds[i])
            self.state[:, i] = self._rng(i).uniform(low=low, high=high, size=(4,))
            self.steps[i] = 0
            self.needs_reset[i] = False
        return self._observations(), {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Push every cart for one step and autoreset ended episodes per ``autoreset_mode``.

        Args:
            actions: ``num_envs`` actions in ``{0, 1}``.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``: new arrays of shapes
            ``(num_envs, 4)`` (``float32``), ``(num_envs,)`` (``float32``, ``bool``, ``bool``);
            ``infos`` is ``{}`` except in ``SAME_STEP`` mode when an episode ended, where it holds
            ``final_obs`` / ``final_info`` and their masks as ``SyncVectorEnv`` batches them.

        Raises:
            ValueError: not one action per env.
            InvalidAction: an action that is not ``0`` or ``1``.
            ResetNeeded: ``reset`` was never called; or ``DISABLED`` mode and an env's episode
                ended without a reset since (nothing is stepped then).
            ClosedEnvironmentError: the vector env is closed.
        """
        self._check_open()
        action = self._check_actions(actions)
        if self.state is None:
            raise error.ResetNeeded(VECTOR_RESET_NEEDED_MSG)
        pending = self.needs_reset
        if self.autoreset_mode is AutoresetMode.DISABLED and pending.any():
            raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=int(np.argmax(pending))))

        terminated = self._integrate(action)
        self.steps += 1
        if self.max_episode_steps is None:
            truncated = np.zeros(self.num_envs, dtype=np.bool_)
        else:
            truncated = self.steps >= self.max_episode_steps
        if self._sutton_barto_reward:
            rewards = np.where(terminated, np.float32(-1.0), np.float32(0.0))
        else:
            rewards = np.ones(self.num_envs, dtype=np.float32)

        infos: dict[str, Any] = {}
        if self.autoreset_mode is AutoresetMode.NEXT_STEP and pending.any():
            # These envs ended on the previous step: this step is their reset.
            self._autoreset(np.flatnonzero(pending))
            rewards[pending] = 0.0
            terminated[pending] = False
            truncated[pending] = False
        observations = self._observations()
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            ended = np.flatnonzero(terminated | truncated)
            if ended.size:
                final_observations = observations[ended].copy()
                self._autoreset(ended)
                observations[ended] = self._observations()[ended]
                for row, i in enumerate(ended.tolist()):
                    env_info = {"final_obs": final_observations[row], "final_info": {}}
                    infos = self._add_info(infos, env_info, i)
        self.needs_reset = next_autoreset_mask(self.autoreset_mode, terminated, truncated)
        return observations, rewards, terminated, truncated, infos

    def _check_actions(self, actions: npt.ArrayLike) -> np.ndarray:
        """The actions as an integer array of shape ``(num_envs,)``, validated."""
        action = np.asarray(actions)
        if action.shape != (self.num_envs,):
            raise ValueError(VECTOR_ACTIONS_SHAPE_MSG.format(self.num_envs, action.shape))
        if action.dtype.kind not in "iu" or ((action != 0) & (action != 1)).any():
            raise error.InvalidAction(VECTOR_ACTIONS_VALUE_MSG.format(self.action_space, actions))
        return action

    def _integrate(self, action: np.ndarray) -> np.ndarray:
        """Advance every env's state by one step in place; return the terminations.

        The same operations, in the same order, as :meth:`CartPoleEnv.step`, on whole rows, so
        each element rounds exactly as the single env's scalar arithmetic does.
        """
        assert self.state is not None
        x, x_dot, theta, theta_dot = self.state
        force = np.where(action == 1, self.force_mag, -self.force_mag)
        costheta = np.cos(theta)
        sintheta = np.sin(theta)
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
        else:
            x_dot = x_dot + self.tau * xacc
            x = x + self.tau * x_dot
            theta_dot = theta_dot + self.tau * thetaacc
            theta = theta + self.tau * theta_dot
        self.state = np.stack((x, x_dot, theta, theta_dot))
        return (
            (x < -self.x_threshold)
            | (x > self.x_threshold)
            | (theta < -self.theta_threshold_radians)
            | (theta > self.theta_threshold_radians)
        )

    def _autoreset(self, indices: np.ndarray) -> None:
        """Draw a new initial state for the envs ``indices``, each from its own generator."""
        assert self.state is not None
        for i in indices.tolist():
            self.state[:, i] = self._rng(i).uniform(low=-0.05, high=0.05, size=(4,))
            self.steps[i] = 0

    def _observations(self) -> np.ndarray:
        assert self.state is not None
        return self.state.T.astype(np.float32, order="C")

    def _check_open(self) -> None:
        if self.closed:
            raise error.ClosedEnvironmentError(VECTOR_CLOSED_MSG.format(type(self).__name__))

    # --- rendering --------------------------------------------------------------------------------
    def render(self) -> list[npt.NDArray[np.uint8]] | None:  # type: ignore[override]
        """One ``(400, 600, 3)`` ``uint8`` frame per env in ``"rgb_array"`` mode (a list).

        Without a render mode a warning is issued and ``None`` returned.

        Raises:
            ResetNeeded: ``reset`` was never called.
        """
        if self.render_mode is None:
            env_id = self.spec.id if self.spec is not None else type(self).__name__
            logger.warn(VECTOR_NO_RENDER_MODE_MSG.format(env_id))
            return None
        if self.state is None:
            raise error.ResetNeeded(VECTOR_RESET_NEEDED_MSG)
        return [
            draw_cartpole(
                column, self.screen_width, self.screen_height, self.x_threshold, self.length
            )
            for column in self.state.T
        ]
