"""Observation wrappers that keep state between steps.

* :class:`DelayObservation` - returns observations a fixed number of steps late;
* :class:`TimeAwareObservation` - adds the step count within the episode;
* :class:`FrameStackObservation` - stacks the last ``N`` observations;
* :class:`NormalizeObservation` - normalises with a running mean and variance;
* :class:`MaxAndSkipObservation` - repeats an action for ``skip`` frames and max-pools the last
  two.

Each records its constructor arguments, so ``make(env.spec)`` rebuilds it.
"""

from __future__ import annotations

import copy
import warnings
from collections import deque
from typing import Any, Final, SupportsFloat

import numpy as np

from vecgym.core.env import (
    ActType,
    Env,
    ObservationWrapper,
    ObsType,
    Wrapper,
    WrapperActType,
)
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.core.spaces.space import Space
from vecgym.error import InvalidBound
from vecgym.spaces import Box, Dict, Tuple
from vecgym.spaces.utils import flatten, flatten_space
from vecgym.vector.utils import batch_space, concatenate, create_empty_array
from vecgym.wrappers.common import TimeLimit
from vecgym.wrappers.utils import RunningMeanStd, create_zero_array

__all__ = [
    "DelayObservation",
    "FrameStackObservation",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "TimeAwareObservation",
]

DELAY_TYPE_MSG = "`delay` must be an integer, got {type}"
DELAY_VALUE_MSG = "`delay` must be 0 or more, got {value}"
NO_TIME_LIMIT_MSG = (
    "TimeAwareObservation needs the episode step limit: the env must have a TimeLimit wrapper or a "
    "spec with `max_episode_steps`"
)
TIME_KEY_EXISTS_MSG = (
    "`dict_time_key` {key!r} is already a key of the observation space; choose another name"
)
STACK_TYPE_MSG = "`stack_size` must be an integer, got {type}"
STACK_VALUE_MSG = "`stack_size` must be at least 1, got {value}"
PADDING_STR_MSG = (
    "`padding_type` must be 'reset', 'zero' or an observation to pad with, got {value!r}"
)
PADDING_VALUE_MSG = (
    "`padding_type` must be 'reset', 'zero' or an element of the observation space {space}, got "
    "{value!r}"
)
EPSILON_MSG = "`epsilon` must be greater than 0, got {value}"
NO_SHAPE_MSG = "{wrapper} needs an observation space with an array shape, but its shape is None"
SKIP_TYPE_MSG = "`skip` must be an integer, got {type}"
SKIP_VALUE_MSG = "`skip` must be at least 2, got {value}"


def _is_integer(value: Any) -> bool:
    """Whether ``value`` is a Python or numpy integer (``bool`` excluded)."""
    return not isinstance(value, (bool, np.bool_)) and np.issubdtype(type(value), np.integer)


def _is_member(value: Any, space: Space[Any]) -> bool:
    """Whether ``value`` belongs to ``space``, without the space's casting warnings.

    A padding that is not even the right type (a misspelt ``"reset"`` for a Box space) is simply
    not a member; the caller raises a clear error for it.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return bool(value in space)
        except (TypeError, ValueError):
            return False


class DelayObservation(ObservationWrapper[ObsType, ActType, ObsType], RecordConstructorArgs):
    """Returns each observation ``delay`` steps after the env produced it.

    Until ``delay`` observations have been produced in the episode, the wrapper returns the
    space's zero value (:func:`~vecgym.wrappers.utils.create_zero_array`). ``reset`` empties the
    queue, so the reset observation is itself delayed.

    Example:
        >>> import vecgym
        >>> env = DelayObservation(vecgym.make("CartPole-v1"), delay=1)
        >>> env.reset(seed=123)[0]
        array([0., 0., 0., 0.], dtype=float32)
        >>> env.step(0)[0]
        array([ 0.01823519, -0.0446179 , -0.02796401, -0.03156282], dtype=float32)
    """

    def __init__(self, env: Env[ObsType, ActType], delay: int) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            delay: how many steps late observations arrive (0 disables the delay).

        Raises:
            TypeError: ``delay`` is not an integer.
            ValueError: ``delay`` is negative.
        """
        if not _is_integer(delay):
            raise TypeError(DELAY_TYPE_MSG.format(type=type(delay)))
        if delay < 0:
            raise ValueError(DELAY_VALUE_MSG.format(value=delay))
        RecordConstructorArgs.__init__(self, delay=delay)
        ObservationWrapper.__init__(self, env)
        self.delay: Final[int] = int(delay)
        self.observation_queue: Final[deque[Any]] = deque()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Empty the queue, then reset the env (its observation enters the queue)."""
        self.observation_queue.clear()
        return super().reset(seed=seed, options=options)

    def observation(self, observation: ObsType) -> ObsType:
        """Queue ``observation``; return the one from ``delay`` steps ago, or the zero value."""
        self.observation_queue.append(observation)
        if len(self.observation_queue) > self.delay:
            return self.observation_queue.popleft()
        return create_zero_array(self.observation_space)


def _find_max_steps(env: Env[Any, Any]) -> int:
    """The episode step limit from ``env.spec`` or a :class:`TimeLimit` in the stack."""
    if env.spec is not None and env.spec.max_episode_steps is not None:
        return int(env.spec.max_episode_steps)
    layer: Env[Any, Any] = env
    while isinstance(layer, Wrapper):
        if isinstance(layer, TimeLimit):
            return int(layer._max_episode_steps)
        layer = layer.env
    raise ValueError(NO_TIME_LIMIT_MSG)


class TimeAwareObservation(ObservationWrapper[Any, ActType, ObsType], RecordConstructorArgs):
    """Adds the number of steps taken in the episode to the observation.

    The time is ``array([t], int32)`` in ``Box(0, max_steps, (1,), int32)``, or with
    ``normalize_time`` ``array([t / max_steps], float32)`` in ``Box(0, 1, (1,), float32)``;
    ``max_steps`` comes from ``env.spec.max_episode_steps`` or a :class:`TimeLimit` in the stack.
    A ``Dict`` observation gains the key ``dict_time_key`` (placed first), a ``Tuple`` gains a
    last element, and anything else becomes ``{"obs": obs, "time": time}``. With ``flatten``
    (the default) the result is flattened into one ``Box``.

    Example:
        >>> import vecgym
        >>> env = TimeAwareObservation(vecgym.make("CartPole-v1"), flatten=False)
        >>> env.reset(seed=42)[0]["time"]
        array([0], dtype=int32)
        >>> env.step(0)[0]["time"]
        array([1], dtype=int32)
    """

    max_timesteps: int

    def __init__(
        self,
        env: Env[ObsType, ActType],
        flatten: bool = True,
        normalize_time: bool = False,
        *,
        dict_time_key: str = "time",
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; it needs a step limit (spec or TimeLimit).
            flatten: flatten the observation into a 1-D Box.
            normalize_time: report ``t / max_steps`` in [0, 1] instead of the integer ``t``.
            dict_time_key: the time's key when the observation space is a Dict.

        Raises:
            ValueError: no step limit is known, or ``dict_time_key`` is already a key.
        """
        RecordConstructorArgs.__init__(
            self, flatten=flatten, normalize_time=normalize_time, dict_time_key=dict_time_key
        )
        ObservationWrapper.__init__(self, env)
        self.flatten: Final[bool] = flatten
        self.normalize_time: Final[bool] = normalize_time
        self.max_timesteps = _find_max_steps(env)
        self.timesteps: int = 0

        time_space = Box(0.0, 1.0) if normalize_time else Box(0, self.max_timesteps, dtype=np.int32)

        inner = env.observation_space
        combined: Space[Any]
        if isinstance(inner, Dict):
            if dict_time_key in inner.spaces:
                raise ValueError(TIME_KEY_EXISTS_MSG.format(key=dict_time_key))
            combined = Dict({dict_time_key: time_space, **inner.spaces}, sort_keys=inner.sort_keys)
        elif isinstance(inner, Tuple):
            combined = Tuple((*inner.spaces, time_space))
        else:
            combined = Dict(obs=inner, time=time_space)
        self._combined_space = combined
        self._dict_time_key = dict_time_key
        self.observation_space = flatten_space(combined) if flatten else combined

    def _time_value(self) -> np.ndarray:
        if self.normalize_time:
            return np.array([self.timesteps / self.max_timesteps], dtype=np.float32)
        return np.array([self.timesteps], dtype=np.int32)

    def observation(self, observation: ObsType) -> Any:
        """``observation`` with the current step count added (and flattened if asked)."""
        time = self._time_value()
        inner = self.env.observation_space
        combined: Any
        if isinstance(inner, Dict):
            combined = {self._dict_time_key: time, **observation}  # type: ignore[dict-item]
        elif isinstance(inner, Tuple):
            combined = (*observation, time)  # type: ignore[misc]
        else:
            combined = {"obs": observation, "time": time}
        if self.flatten:
            return flatten(self._combined_space, combined)
        return combined

    def step(self, action: ActType) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Count the step, then step the env; the observation carries the new count."""
        self.timesteps += 1
        return super().step(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Set the count to 0, then reset the env."""
        self.timesteps = 0
        return super().reset(seed=seed, options=options)


class FrameStackObservation(Wrapper[Any, ActType, ObsType, ActType], RecordConstructorArgs):
    """Returns the last ``stack_size`` observations stacked along a new first axis.

    The observation space is ``batch_space(env.observation_space, stack_size)``, oldest first.
    After ``reset`` the slots before the reset observation hold padding:

    * ``"reset"`` (default): copies of the reset observation;
    * ``"zero"``: the space's zero value (:func:`~vecgym.wrappers.utils.create_zero_array`);
    * a member of the observation space: that value.

    Each returned stack is a fresh copy; it never aliases the wrapper's buffer.

    Example:
        >>> import vecgym
        >>> env = FrameStackObservation(vecgym.make("CartPole-v1"), 3, padding_type="zero")
        >>> env.reset(seed=123)[0]
        array([[ 0.        ,  0.        ,  0.        ,  0.        ],
               [ 0.        ,  0.        ,  0.        ,  0.        ],
               [ 0.01823519, -0.0446179 , -0.02796401, -0.03156282]],
              dtype=float32)
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        stack_size: int,
        *,
        padding_type: str | ObsType = "reset",
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            stack_size: how many observations to stack (at least 1).
            padding_type: ``"reset"``, ``"zero"`` or an observation to pad with.

        Raises:
            TypeError: ``stack_size`` is not an integer.
            ValueError: ``stack_size`` is below 1, or ``padding_type`` is none of the above.
        """
        if not _is_integer(stack_size):
            raise TypeError(STACK_TYPE_MSG.format(type=type(stack_size)))
        if stack_size < 1:
            raise ValueError(STACK_VALUE_MSG.format(value=stack_size))
        RecordConstructorArgs.__init__(self, stack_size=stack_size, padding_type=padding_type)
        Wrapper.__init__(self, env)

        space = env.observation_space
        if isinstance(padding_type, str) and padding_type in ("reset", "zero"):
            self.padding_value: Any = create_zero_array(space)
            mode = padding_type
        elif _is_member(padding_type, space):
            self.padding_value = padding_type
            mode = "_custom"
        elif isinstance(padding_type, str):
            raise ValueError(PADDING_STR_MSG.format(value=padding_type))
        else:
            raise ValueError(PADDING_VALUE_MSG.format(value=padding_type, space=space))

        self.observation_space = batch_space(space, n=stack_size)
        self.stack_size: Final[int] = int(stack_size)
        self.padding_type: Final[str] = mode
        self.obs_queue: deque[Any] = deque(
            [self.padding_value] * self.stack_size, maxlen=self.stack_size
        )
        self.stacked_obs = create_empty_array(space, n=self.stack_size)

    def _stacked(self) -> Any:
        stacked = concatenate(self.env.observation_space, list(self.obs_queue), self.stacked_obs)
        return copy.deepcopy(stacked)

    def step(self, action: ActType) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the env and push its observation onto the stack (dropping the oldest)."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.obs_queue.append(obs)
        return self._stacked(), reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the env; the stack becomes ``stack_size - 1`` paddings then its observation."""
        obs, info = self.env.reset(seed=seed, options=options)
        if self.padding_type == "reset":
            self.padding_value = obs
        for _ in range(self.stack_size - 1):
            self.obs_queue.append(self.padding_value)
        self.obs_queue.append(obs)
        return self._stacked(), info


class NormalizeObservation(ObservationWrapper[Any, ActType, ObsType], RecordConstructorArgs):
    """Normalises observations to zero mean and unit variance with running statistics.

    Each observation first updates the running statistics (unless :attr:`update_running_mean`
    is ``False``), then is returned as ``float32((obs - mean) / sqrt(var + epsilon))``. The space
    becomes ``Box(-inf, inf, shape, float32)``. Statistics live in :attr:`obs_rms`
    (a :class:`~vecgym.wrappers.utils.RunningMeanStd` in float32).

    Example:
        >>> import vecgym
        >>> env = NormalizeObservation(vecgym.make("CartPole-v1"))
        >>> env.observation_space
        Box(-inf, inf, (4,), float32)
        >>> env.reset(seed=123)[0]
        array([ 0.00018232, -0.00044585, -0.00027947, -0.00031538], dtype=float32)
    """

    def __init__(self, env: Env[ObsType, ActType], epsilon: float = 1e-8) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; its observation space needs a shape.
            epsilon: added to the variance before the square root; must be positive.

        Raises:
            InvalidBound: ``epsilon`` is not strictly positive.
            ValueError: the observation space has no shape.
        """
        if not epsilon > 0:
            raise InvalidBound(EPSILON_MSG.format(value=epsilon))
        RecordConstructorArgs.__init__(self, epsilon=epsilon)
        ObservationWrapper.__init__(self, env)
        shape = env.observation_space.shape
        if shape is None:
            raise ValueError(NO_SHAPE_MSG.format(wrapper="NormalizeObservation"))
        self.observation_space = Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32)
        self.obs_rms = RunningMeanStd(shape=shape, dtype=np.float32)
        self.epsilon = epsilon
        self._update_running_mean = True

    @property
    def update_running_mean(self) -> bool:
        """Whether observations still update the statistics (set ``False`` to freeze them)."""
        return self._update_running_mean

    @update_running_mean.setter
    def update_running_mean(self, setting: bool) -> None:
        self._update_running_mean = setting

    def observation(self, observation: ObsType) -> Any:
        """Update the statistics (unless frozen) and return the normalised observation."""
        if self._update_running_mean:
            self.obs_rms.update(np.array([observation]))
        scaled = (observation - self.obs_rms.mean) / np.sqrt(self.obs_rms.var + self.epsilon)
        return np.float32(scaled)


class MaxAndSkipObservation(Wrapper[Any, ActType, ObsType, ActType], RecordConstructorArgs):
    """Repeats each action for ``skip`` frames; returns the element-wise max of the last two.

    Rewards of the repeated frames are summed; the episode flags and info are the last frame's.
    Repetition stops early when the episode ends. The max-pooled pair is always the two most
    recent frames the wrapper saw (the reset observation counts as one), so an episode that ends
    early still returns its final frame. (Gymnasium's buffer is only written at the last two
    repetitions, so an early end returned frames left over from an earlier step.)

    Example:
        >>> import numpy as np
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1")
        >>> _ = env.reset(seed=123)
        >>> frames = [env.step(1)[0] for _ in range(4)]
        >>> wrapped = MaxAndSkipObservation(vecgym.make("CartPole-v1"), skip=4)
        >>> _ = wrapped.reset(seed=123)
        >>> bool(np.all(wrapped.step(1)[0] == np.maximum(frames[2], frames[3])))
        True
    """

    def __init__(self, env: Env[ObsType, ActType], skip: int = 4) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; its observation space needs a shape.
            skip: how many frames each action is repeated for (at least 2).

        Raises:
            TypeError: ``skip`` is not an integer.
            ValueError: ``skip`` is below 2, or the observation space has no shape.
        """
        if not _is_integer(skip):
            raise TypeError(SKIP_TYPE_MSG.format(type=type(skip)))
        if skip < 2:
            raise ValueError(SKIP_VALUE_MSG.format(value=skip))
        RecordConstructorArgs.__init__(self, skip=skip)
        Wrapper.__init__(self, env)
        space = env.observation_space
        if space.shape is None:
            raise ValueError(NO_SHAPE_MSG.format(wrapper="MaxAndSkipObservation"))
        self._skip = int(skip)
        self._obs_buffer = np.zeros((2, *space.shape), dtype=space.dtype)

    def _push(self, obs: Any) -> None:
        """Keep ``obs`` as the newest frame; the previous newest becomes the older one."""
        self._obs_buffer[0] = self._obs_buffer[1]
        self._obs_buffer[1] = obs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the env and return its observation unchanged (it becomes the newest frame)."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._obs_buffer[:] = obs
        return obs, info

    def step(self, action: WrapperActType) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Repeat ``action`` up to ``skip`` times; sum rewards, max-pool the last two frames."""
        total_reward = 0.0
        terminated = truncated = False
        info: dict[str, Any] = {}
        for _ in range(self._skip):
            obs, reward, terminated, truncated, info = self.env.step(action)  # type: ignore[arg-type]
            self._push(obs)
            total_reward += float(reward)
            if terminated or truncated:
                break
        pooled = np.max(self._obs_buffer, axis=0)
        return pooled, total_reward, terminated, truncated, info
