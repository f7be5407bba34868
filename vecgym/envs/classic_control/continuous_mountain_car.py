"""MountainCarContinuous: the mountain-car task with a continuous engine force.

Step for step and seed for seed the same as Gymnasium 1.4's ``MountainCarContinuous-v0``.
:class:`Continuous_MountainCarVectorEnv` steps many copies at once with numpy, each copy
bit-identical to a :class:`Continuous_MountainCarEnv` with a time limit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.spaces.box import Box
from vecgym.envs.classic_control._base import LEGACY_SCALAR_PROMOTION, vector_metadata
from vecgym.envs.classic_control.mountain_car import (
    _MountainCarVectorScene,
    _SingleMountainCar,
)
from vecgym.vector.numpy_vector_env import NumpyVectorEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["Continuous_MountainCarEnv", "Continuous_MountainCarVectorEnv"]

INVALID_ACTION_MSG = "action must be a sequence or array holding one force, got {!r} ({})"
RESET_NEEDED_MSG = "call reset() before step()"


class Continuous_MountainCarEnv(_SingleMountainCar[np.ndarray]):  # noqa: N801
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
        self._init_track(0.45, goal_velocity)  # the goal as in A. de Broissia's version
        self.power = 0.0015

        self.low_state = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high_state = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.action_space = Box(
            low=self.min_action, high=self.max_action, shape=(1,), dtype=np.float32
        )
        self.observation_space = Box(low=self.low_state, high=self.high_state, dtype=np.float32)

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


_F32 = np.float32


def _compare(values: np.ndarray, is32: np.ndarray, op: Any, constant: float) -> np.ndarray:
    """``op(value, constant)`` per element, as a numpy scalar of the element's dtype compares it.

    ``values`` holds float64 numbers; where ``is32`` they stand for ``float32`` scalars, which
    compare with a Python float after rounding it to ``float32``.
    """
    return np.where(is32, op(values, float(_F32(constant))), op(values, constant))


class Continuous_MountainCarVectorEnv(_MountainCarVectorScene, NumpyVectorEnv):  # noqa: N801
    """``num_envs`` continuous mountain cars stepped together with numpy, each one a
    :class:`Continuous_MountainCarEnv` with a time limit, bit for bit.

    After ``reset(seed=s)`` sub-environment ``i``'s trajectory equals that of
    ``make("MountainCarContinuous-v0")`` reset with ``seed=s + i`` and fed the same actions,
    with a :class:`~vecgym.vector.SyncVectorEnv`'s autoresets in the chosen ``autoreset_mode``.

    The single env's arithmetic mixes ``float32`` and ``float64`` numpy scalars and Python
    floats (the state is ``float64`` after ``reset`` and ``float32`` after a step; an in-range
    ``float32`` force is multiplied in ``float32``, a clipped one is a Python float). This class
    tracks, per env, which of those each intermediate value is and rounds exactly as the scalar
    code does, under numpy's (NEP 50) promotion rules of numpy 2; with numpy 1.x's value-based
    casting of scalars the single env rounds differently in the last bits. ``float32`` and
    ``float64`` actions are followed exactly; other dtypes are converted to ``float64``.

    Args:
        num_envs: the number of cars.
        max_episode_steps: truncate an episode after this many steps (``None``: never).
        render_mode: ``None`` or ``"rgb_array"`` (:meth:`render` returns one frame per env).
        goal_velocity: as for :class:`Continuous_MountainCarEnv`.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = Continuous_MountainCarVectorEnv(num_envs=2)
        >>> obs, _ = envs.reset(seed=123)
        >>> bool((obs[1] == Continuous_MountainCarEnv().reset(seed=124)[0]).all())
        True
        >>> envs.step(np.array([[1.0], [-0.5]], dtype=np.float32))[1].round(3)
        array([-0.1  , -0.025])
    """

    metadata: dict[str, Any] = vector_metadata(render_fps=30)

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = 999,
        render_mode: str | None = None,
        goal_velocity: float = 0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self.min_action = -1.0
        self.max_action = 1.0
        self._init_track(0.45, goal_velocity)
        self.power = 0.0015
        self.low_state = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high_state = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.single_action_space = Box(
            low=self.min_action, high=self.max_action, shape=(1,), dtype=np.float32
        )
        self.single_observation_space = Box(self.low_state, self.high_state, dtype=np.float32)
        self._batch_spaces()
        #: ``(2, num_envs)``: positions, then velocities; ``float32`` after a step, ``float64``
        #: after a reset (as the single env's state).
        self.state: np.ndarray = np.zeros((2, self.num_envs), dtype=np.float64)
        #: Envs not stepped since their reset, whose state is still ``float64``.
        self.fresh = np.ones(self.num_envs, dtype=np.bool_)
        # The all-float32 fast path compares velocities with the goal in float32.
        self._fast_goal = float(_F32(goal_velocity)) == goal_velocity

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: tuple[float, float]) -> None:
        low, high = params
        if self.state.dtype != np.float64:  # a fresh state is float64
            self.state = self.state.astype(np.float64)
        state, rng = self.state, self._rng
        for i in indices.tolist():
            state[0, i] = rng(i).uniform(low=low, high=high)
            state[1, i] = 0.0
        self.fresh[indices] = True

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]]:
        """:meth:`Continuous_MountainCarEnv.step` on whole rows, rounding as its scalars do."""
        fast = self._fast_goal and not LEGACY_SCALAR_PROMOTION
        if fast and actions.dtype == np.float32 and not self.fresh.any():
            result = self._step_float32(actions[:, 0])
            if result is not None:
                return result
        position, velocity = self.state.astype(np.float64)
        # position and velocity are float32 scalars in the single env; under numpy 1's rules
        # (LEGACY_SCALAR_PROMOTION) the first Python float they meet widens them to float64,
        # and the whole step runs in float64
        state32 = ~self.fresh & (not LEGACY_SCALAR_PROMOTION)
        requested = actions[:, 0]
        actions32 = requested.dtype == np.float32
        requested64 = requested.astype(np.float64)
        # min(max(r, -1.0), 1.0) yields the Python float bound where r is out of range.
        clipped = (requested64 < self.min_action) | (requested64 > self.max_action)
        force64 = np.minimum(np.maximum(requested64, self.min_action), self.max_action)

        scaled_position = np.where(
            state32, (position.astype(_F32) * 3).astype(np.float64), 3 * position
        )
        pull = 0.0025 * np.cos(scaled_position)  # a Python float in the single env
        term64 = force64 * self.power - pull
        # The term is float32 where a float32 force was in range, a Python float where the force
        # was clipped, and a float64 scalar where a float64 force was in range.
        term_is32 = (
            ~clipped
            if actions32 and not LEGACY_SCALAR_PROMOTION
            else np.zeros(self.num_envs, dtype=np.bool_)
        )
        term_is_np64 = ~clipped & ~term_is32
        term32 = (requested.astype(_F32) * self.power - pull.astype(_F32)).astype(np.float64)
        term = np.where(term_is32, term32, term64)

        velocity32 = state32 & ~term_is_np64
        sum32 = (velocity.astype(_F32) + term.astype(_F32)).astype(np.float64)
        velocity = np.where(velocity32, sum32, velocity + term)
        too_fast = _compare(velocity, velocity32, np.greater, self.max_speed)
        velocity = np.where(too_fast, self.max_speed, velocity)
        velocity32 &= ~too_fast
        too_slow = _compare(velocity, velocity32, np.less, -self.max_speed)
        velocity = np.where(too_slow, -self.max_speed, velocity)
        velocity32 &= ~too_slow
        velocity_is_py = too_fast | too_slow

        position32 = state32 & (velocity32 | velocity_is_py)
        sum32 = (position.astype(_F32) + velocity.astype(_F32)).astype(np.float64)
        position = np.where(position32, sum32, position + velocity)
        too_far = _compare(position, position32, np.greater, self.max_position)
        position = np.where(too_far, self.max_position, position)
        position32 &= ~too_far
        too_low = _compare(position, position32, np.less, self.min_position)
        position = np.where(too_low, self.min_position, position)
        position32 &= ~too_low
        at_wall = _compare(position, position32, np.equal, self.min_position) & (velocity < 0)
        velocity = np.where(at_wall, 0.0, velocity)
        velocity32 &= ~at_wall

        terminated = _compare(position, position32, np.greater_equal, self.goal_position) & (
            _compare(velocity, velocity32, np.greater_equal, self.goal_velocity)
        )
        if actions32:  # the square of a float32 value is exact in float64, as math.pow's is
            squares = requested64 * requested64
        else:
            squares = np.array([math.pow(r, 2) for r in requested64.tolist()])
        rewards = np.where(terminated, 100.0, 0.0) - squares * 0.1
        self.state = np.stack((position, velocity)).astype(_F32)
        self.fresh[:] = False
        return rewards, terminated

    def _step_float32(
        self, requested: np.ndarray
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]] | None:
        """The common case, all in ``float32``: every state ``float32`` (no env fresh from a
        reset), ``float32`` forces, none clipped, no velocity clipped (else ``None``).

        Where the single env would turn a value into a Python-float bound (position clipping),
        the bound's ``float32`` rounding gives the same comparisons and stored state here
        (``goal_velocity`` must be a ``float32`` value, see ``_fast_goal``).
        """
        # |r| > 1 is "r < -1 or r > 1"; the same for the speed limit (NaN passes, as there).
        if np.abs(requested).max() > self.max_action:
            return None
        assert self.state.dtype == _F32  # every env has been stepped since its reset
        position, velocity = self.state
        pull = np.multiply(0.0025, np.cos(position * 3, dtype=np.float64), dtype=np.float64)
        velocity = velocity + (requested * self.power - pull.astype(_F32))
        if np.abs(velocity).max() > self.max_speed:
            return None
        position = position + velocity
        np.minimum(position, _F32(self.max_position), out=position)
        np.maximum(position, _F32(self.min_position), out=position)
        at_wall = position == self.min_position
        if at_wall.any():
            velocity[at_wall & (velocity < 0)] = 0.0
        terminated = (position >= self.goal_position) & (velocity >= self.goal_velocity)
        requested64 = requested.astype(np.float64)
        penalties = requested64 * requested64 * 0.1
        rewards = np.subtract(0.0, penalties)  # the single env's ``0 - p``: never -0.0
        if terminated.any():
            rewards[terminated] = 100.0 - penalties[terminated]
        self.state = np.stack((position, velocity))
        return rewards, terminated

    def _observations(self) -> np.ndarray:
        return self.state.T.astype(np.float32, order="C")
