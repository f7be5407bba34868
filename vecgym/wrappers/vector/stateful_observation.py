"""Vector observation wrappers with per-env state.

* :class:`NormalizeObservation` normalises observations with running statistics (freezable,
  savable);
* :class:`FrameStackObservation`, :class:`TimeAwareObservation` and :class:`DelayObservation` are
  vector versions of the single-env wrappers of the same names (Gymnasium has none).

All of them follow the wrapped env's autoreset mode (see :mod:`vecgym.wrappers.vector._episodes`)
and partial resets: an env's state restarts when that env starts a new episode, never when another
env does. In ``SAME_STEP`` mode they transform ``infos["final_obs"]`` too (in a new infos dict),
with the state of the episode that ended.
"""

from __future__ import annotations

import copy
from collections import deque
from typing import Any, Final

import numpy as np

from vecgym.core.env import ActType, ObsType
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.tuple import Tuple
from vecgym.error import InvalidBound
from vecgym.spaces.utils import flatten, flatten_space
from vecgym.vector.utils import batch_space, concatenate, create_empty_array, iterate
from vecgym.vector.vector_env import (
    ArrayType,
    AutoresetMode,
    VectorEnv,
    VectorObservationWrapper,
    VectorWrapper,
)
from vecgym.wrappers.stateful_observation import NO_SHAPE_MSG
from vecgym.wrappers.utils import RunningMeanStd, create_zero_array
from vecgym.wrappers.vector._episodes import (
    EpisodeTracker,
    StepEpisodes,
    autoreset_mode_of,
    reset_mask_of,
)
from vecgym.wrappers.vector._statistics import RunningStatisticsMixin

__all__ = [
    "DelayObservation",
    "FrameStackObservation",
    "NormalizeObservation",
    "TimeAwareObservation",
]

EPSILON_MSG = "`epsilon` must be greater than 0, got {}"
STACK_SIZE_TYPE_MSG = "`stack_size` must be an integer, got {}"
STACK_SIZE_VALUE_MSG = "`stack_size` must be at least 1, got {}"
PADDING_MSG = (
    "`padding_type` must be 'reset', 'zero' or an element of the single observation space {space}, "
    "got {value!r}"
)
DELAY_TYPE_MSG = "`delay` must be an integer, got {}"
DELAY_VALUE_MSG = "`delay` must be 0 or more, got {}"
MAX_STEPS_MSG = (
    "TimeAwareObservation needs the episode step limit: pass `max_episode_steps` (a positive "
    "integer) or wrap an env whose spec has `max_episode_steps`, got {}"
)
TIME_KEY_EXISTS_MSG = (
    "`dict_time_key` {!r} is already a key of the observation space; choose another name"
)


def _is_int(value: Any) -> bool:
    """Whether ``value`` is an integer (numpy integers included, bools excluded)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


class _PerEnvObservationWrapper(VectorObservationWrapper[Any, ActType, ObsType, ArrayType]):
    """Base of the wrappers that transform each env's observation with per-env state.

    Subclasses implement :meth:`_start` (a new episode starts in env ``index`` with observation
    ``obs``; return the transformed observation) and :meth:`_advance` (env ``index`` made a step of
    its episode and observes ``obs``; return the transformed observation).
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType]) -> None:
        # The base class's refusal of SAME_STEP is skipped: final observations are handled here.
        VectorWrapper.__init__(self, env)
        self._autoreset_mode = autoreset_mode_of(env, type(self).__name__)
        self._episodes = EpisodeTracker(self._autoreset_mode, env.num_envs)

    def _start(self, index: int, obs: Any) -> Any:
        raise NotImplementedError

    def _advance(self, index: int, obs: Any) -> Any:
        raise NotImplementedError

    def _singles(self, observations: Any) -> list[Any]:
        """Each env's observation, copied (the wrapped env may reuse its buffers)."""
        return [copy.deepcopy(obs) for obs in iterate(self.env.observation_space, observations)]

    def _batch(self, transformed: list[Any]) -> Any:
        """The transformed observations as a new batch."""
        out = create_empty_array(self.single_observation_space, self.num_envs)
        return concatenate(self.single_observation_space, transformed, out)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the wrapped env; the envs reset (all, or those in ``reset_mask``) start afresh.

        The envs a partial reset leaves running keep their state; their current transformed
        observation is returned again, unchanged.
        """
        mask = reset_mask_of(options, self.num_envs)
        observations, infos = self.env.reset(seed=seed, options=options)
        reset = self._episodes.reset(mask)
        singles = self._singles(observations)
        transformed = [
            self._start(i, obs) if reset[i] else self._current(i) for i, obs in enumerate(singles)
        ]
        return self._batch(transformed), infos

    def step(self, actions: ActType) -> tuple[Any, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the wrapped env and transform each env's observation with its state.

        ``NEXT_STEP``: an env's reset step starts its new episode. ``SAME_STEP``: for an env whose
        episode ended, its final observation is transformed with the old episode's state and its
        (reset) observation starts the new episode.
        """
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        episodes = self._episodes.step(terminations, truncations)
        singles = self._singles(observations)
        finals: dict[int, Any] = {}
        if episodes.restarted_after.any() and "final_obs" in infos:
            finals = self._final_observations(infos, episodes)
        transformed = []
        for i, obs in enumerate(singles):
            if episodes.started[i] or i in finals:
                transformed.append(self._start(i, obs))
            else:
                transformed.append(self._advance(i, obs))
        if finals:
            final_obs = np.array(infos["final_obs"], dtype=object, copy=True)
            for i, value in finals.items():
                final_obs[i] = value
            infos = {**infos, "final_obs": final_obs}
        return self._batch(transformed), rewards, terminations, truncations, infos

    def _final_observations(self, infos: dict[str, Any], episodes: StepEpisodes) -> dict[int, Any]:
        """The transformed ``SAME_STEP`` final observations, by env index."""
        mask = infos.get("_final_obs", episodes.restarted_after)
        return {
            int(i): self._advance(int(i), copy.deepcopy(infos["final_obs"][i]))
            for i in np.flatnonzero(np.logical_and(mask, episodes.restarted_after))
        }

    def _current(self, index: int) -> Any:
        """Env ``index``'s current transformed observation (for envs a partial reset skips)."""
        raise NotImplementedError

    def observations(self, observations: ObsType) -> Any:
        """Not used: the per-env state needs to know which envs start episodes (see ``step``)."""
        raise NotImplementedError


class NormalizeObservation(
    VectorObservationWrapper[np.ndarray, ActType, np.ndarray, ArrayType],
    RunningStatisticsMixin,
    RecordConstructorArgs,
):
    """Normalises observations to zero mean and unit variance with running statistics.

    Each observation is returned as ``(obs - mean) / sqrt(var + epsilon)`` (float32), with
    :attr:`obs_rms` updated first from every new observation: all rows of a step, only the reset
    rows of a partial reset (the others were counted when they were observed) and, with
    ``SAME_STEP`` autoreset, the final observations in ``infos["final_obs"]`` as well, which are
    normalised too. Gymnasium refuses ``SAME_STEP`` and partial resets here; vecgym supports both.

    The statistics can be frozen (``update_running_mean = False``), read and replaced
    (``state_dict()`` / ``load_state_dict()``) and saved to / loaded from ``.npz`` files
    (``save(path)`` / ``load(path)``); see :mod:`vecgym.wrappers.vector._statistics`.

    The statistics are kept in the observation dtype for floating-point spaces (as Gymnasium
    does) and in float64 for integer spaces.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = NormalizeObservation(envs)
        >>> _ = envs.reset(seed=0)
        >>> for _ in range(10):
        ...     obs, *_ = envs.step(envs.action_space.sample())
        >>> envs.update_running_mean = False  # evaluate with frozen statistics
        >>> sorted(envs.state_dict())
        ['count', 'mean', 'var']
        >>> envs.close()
    """

    def __init__(
        self, env: VectorEnv[np.ndarray, ActType, ArrayType], epsilon: float = 1e-8
    ) -> None:
        """Wrap ``env``.

        Args:
            env: a vector env whose single observation space has a shape (a ``Box``, or a
                ``Discrete``, ``MultiDiscrete`` or ``MultiBinary`` one, as with Gymnasium).
            epsilon: added to the variance before the square root.

        Raises:
            InvalidBound: ``epsilon`` is not strictly positive.
            ValueError: the single observation space has no shape (``Dict``, ``Tuple``, ...).
        """
        if not epsilon > 0:
            raise InvalidBound(EPSILON_MSG.format(epsilon))
        RecordConstructorArgs.__init__(self, epsilon=epsilon)
        VectorWrapper.__init__(self, env)
        space = env.single_observation_space
        if space.shape is None:
            raise ValueError(NO_SHAPE_MSG.format(wrapper="NormalizeObservation"))
        self._autoreset_mode = autoreset_mode_of(env, type(self).__name__)
        self.single_observation_space = Box(-np.inf, np.inf, shape=space.shape, dtype=np.float32)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        floating = space.dtype is not None and np.issubdtype(space.dtype, np.floating)
        stats_dtype = space.dtype if floating else np.float64
        self.obs_rms = RunningMeanStd(shape=space.shape, dtype=stats_dtype)
        self.epsilon = epsilon
        self._update_running_mean = True

    def _statistics(self) -> RunningMeanStd:
        return self.obs_rms

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset the wrapped env, update the statistics with the reset rows, normalise all rows."""
        mask = reset_mask_of(options, self.num_envs)
        observations, infos = self.env.reset(seed=seed, options=options)
        batch = np.asarray(observations)
        self._update(batch if mask is None else batch[mask])
        return self.observations(batch), infos

    def step(
        self, actions: ActType
    ) -> tuple[np.ndarray, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the wrapped env, update the statistics and normalise (``SAME_STEP`` finals too)."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        batch = np.asarray(observations)
        final_rows: np.ndarray = np.zeros(0, dtype=np.intp)
        if self._autoreset_mode is AutoresetMode.SAME_STEP and "final_obs" in infos:
            final_rows = np.flatnonzero(infos.get("_final_obs", np.zeros(0, dtype=np.bool_)))
        if final_rows.size:
            finals = np.stack([np.asarray(infos["final_obs"][i]) for i in final_rows])
            self._update(np.concatenate([batch, finals.astype(batch.dtype, copy=False)]))
            final_obs = np.array(infos["final_obs"], dtype=object, copy=True)
            for row, i in enumerate(final_rows):
                final_obs[i] = self._normalize(finals[row])
            infos = {**infos, "final_obs": final_obs}
        else:
            self._update(batch)
        return self.observations(batch), rewards, terminations, truncations, infos

    def _update(self, rows: np.ndarray) -> None:
        if self._update_running_mean and len(rows):
            self.obs_rms.update(rows)

    def _normalize(self, obs: np.ndarray) -> np.ndarray:
        return np.asarray(
            (obs - self.obs_rms.mean) / np.sqrt(self.obs_rms.var + self.epsilon), dtype=np.float32
        )

    def observations(self, observations: np.ndarray) -> np.ndarray:
        """Normalise a batch with the current statistics (without updating them)."""
        return self._normalize(np.asarray(observations))


class FrameStackObservation(
    _PerEnvObservationWrapper[ActType, ObsType, ArrayType], RecordConstructorArgs
):
    """Each env's observation is the stack of its last ``stack_size`` observations.

    The single observation space is ``batch_space(single_space, stack_size)`` (the oldest
    observation first). When an episode starts the stack is filled with padding and the first
    observation: ``padding_type="reset"`` repeats that observation, ``"zero"`` uses
    :func:`vecgym.wrappers.utils.create_zero_array`, and an observation of the single space is
    used as given. A partial reset restarts only the stacks of the envs it resets.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = FrameStackObservation(envs, 3, padding_type="zero")
        >>> obs, _ = envs.reset(seed=0)
        >>> obs.shape
        (2, 3, 4)
        >>> bool((obs[:, :2] == 0).all())
        True
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        stack_size: int,
        *,
        padding_type: str | Any = "reset",
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            stack_size: how many observations each stack holds (a positive integer).
            padding_type: ``"reset"``, ``"zero"`` or an observation of the single space.

        Raises:
            TypeError: ``stack_size`` is not an integer.
            ValueError: ``stack_size`` is not positive, or ``padding_type`` is not one of the
                above.
        """
        if not _is_int(stack_size):
            raise TypeError(STACK_SIZE_TYPE_MSG.format(type(stack_size)))
        if stack_size <= 0:
            raise ValueError(STACK_SIZE_VALUE_MSG.format(stack_size))
        RecordConstructorArgs.__init__(self, stack_size=stack_size, padding_type=padding_type)
        super().__init__(env)
        space = env.single_observation_space
        if isinstance(padding_type, str) and padding_type in ("reset", "zero"):
            self.padding_value: Any = create_zero_array(space)
        elif not isinstance(padding_type, str) and _contains(space, padding_type):
            self.padding_value = padding_type
            padding_type = "_custom"
        else:
            raise ValueError(PADDING_MSG.format(space=space, value=padding_type))
        self.stack_size: Final[int] = int(stack_size)
        self.padding_type: Final[str] = padding_type
        self.single_observation_space = batch_space(space, self.stack_size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._stacks = [self._new_stack(self.padding_value) for _ in range(self.num_envs)]

    def _new_stack(self, obs: Any) -> deque[Any]:
        padding = obs if self.padding_type == "reset" else self.padding_value
        items = [padding] * (self.stack_size - 1) + [obs]
        return deque(items, maxlen=self.stack_size)

    def _stacked(self, index: int) -> Any:
        space = self.env.single_observation_space
        out = create_empty_array(space, self.stack_size)
        return concatenate(space, list(self._stacks[index]), out)

    def _start(self, index: int, obs: Any) -> Any:
        self._stacks[index] = self._new_stack(obs)
        return self._stacked(index)

    def _advance(self, index: int, obs: Any) -> Any:
        self._stacks[index].append(obs)
        return self._stacked(index)

    def _current(self, index: int) -> Any:
        return self._stacked(index)


def _contains(space: Space[Any], value: Any) -> bool:
    """``value in space``, ``False`` where the check itself fails on a foreign value."""
    try:
        return bool(space.contains(value))
    except (TypeError, ValueError):
        return False


class DelayObservation(
    _PerEnvObservationWrapper[ActType, ObsType, ArrayType], RecordConstructorArgs
):
    """Each env's observation is the one it observed ``delay`` steps earlier in its episode.

    For the first ``delay`` observations of an episode (the reset observation included) the
    observation is :func:`vecgym.wrappers.utils.create_zero_array` of the space. ``delay=0``
    changes nothing. A partial reset restarts only the queues of the envs it resets.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = DelayObservation(envs, delay=1)
        >>> obs, _ = envs.reset(seed=0)
        >>> bool((obs == 0).all())
        True
        >>> envs.close()
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType], delay: int) -> None:
        """Wrap ``env``.

        Raises:
            TypeError: ``delay`` is not an integer.
            ValueError: ``delay`` is negative.
        """
        if not _is_int(delay):
            raise TypeError(DELAY_TYPE_MSG.format(type(delay)))
        if delay < 0:
            raise ValueError(DELAY_VALUE_MSG.format(delay))
        RecordConstructorArgs.__init__(self, delay=delay)
        super().__init__(env)
        self.delay: Final[int] = int(delay)
        self._queues: list[deque[Any]] = [deque() for _ in range(self.num_envs)]
        self._outputs: list[Any] = [self._zero() for _ in range(self.num_envs)]

    def _zero(self) -> Any:
        return create_zero_array(self.env.single_observation_space)

    def _start(self, index: int, obs: Any) -> Any:
        self._queues[index].clear()
        return self._advance(index, obs)

    def _advance(self, index: int, obs: Any) -> Any:
        queue = self._queues[index]
        queue.append(obs)
        output = queue.popleft() if len(queue) > self.delay else self._zero()
        self._outputs[index] = output
        return output

    def _current(self, index: int) -> Any:
        return self._outputs[index]


class TimeAwareObservation(
    _PerEnvObservationWrapper[ActType, ObsType, ArrayType], RecordConstructorArgs
):
    """Adds each env's number of steps into its episode to its observation.

    The observation is built as by :class:`vecgym.wrappers.TimeAwareObservation`: a ``Dict``
    space gets the key ``dict_time_key``, a ``Tuple`` a last element, any other space becomes
    ``Dict(obs=..., time=...)``; ``flatten=True`` flattens the result to a 1-d ``Box``. The time
    is an int32 step count in ``[0, max_episode_steps]``, or with ``normalize_time`` a float32 in
    ``[0, 1]``. ``NEXT_STEP`` reset steps are not counted: the first observation of an episode
    has time 0.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = TimeAwareObservation(envs)
        >>> _ = envs.reset(seed=0)
        >>> obs, *_ = envs.step(envs.action_space.sample())
        >>> obs[:, -1].tolist()
        [1.0, 1.0]
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        flatten: bool = True,
        normalize_time: bool = False,
        *,
        dict_time_key: str = "time",
        max_episode_steps: int | None = None,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            flatten: flatten the observations to a 1-d ``Box``.
            normalize_time: give the time as ``steps / max_episode_steps``.
            dict_time_key: the time's key for ``Dict`` observation spaces.
            max_episode_steps: the episode step limit (a vecgym addition); by default
                ``env.spec.max_episode_steps``.

        Raises:
            ValueError: no step limit is known, or ``dict_time_key`` is already a key of the space.
        """
        RecordConstructorArgs.__init__(
            self,
            flatten=flatten,
            normalize_time=normalize_time,
            dict_time_key=dict_time_key,
            max_episode_steps=max_episode_steps,
        )
        super().__init__(env)
        if max_episode_steps is None and env.spec is not None:
            max_episode_steps = env.spec.max_episode_steps
        if not _is_int(max_episode_steps) or max_episode_steps <= 0:  # type: ignore[operator]
            raise ValueError(MAX_STEPS_MSG.format(max_episode_steps))
        self.max_timesteps: int = int(max_episode_steps)  # type: ignore[arg-type]
        self.flatten: Final[bool] = flatten
        self.normalize_time: Final[bool] = normalize_time
        self.dict_time_key = dict_time_key
        self.timesteps = np.zeros(self.num_envs, dtype=np.int64)
        self._joined_space = self._joined(env.single_observation_space, dict_time_key)
        self.single_observation_space = (
            flatten_space(self._joined_space) if flatten else self._joined_space
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._outputs: list[Any] = [None] * self.num_envs

    def _time_space(self) -> Box:
        if self.normalize_time:
            return Box(0.0, 1.0)
        return Box(0, self.max_timesteps, dtype=np.int32)

    def _joined(self, space: Space[Any], key: str) -> Space[Any]:
        """The observation space with the time added (before flattening)."""
        time_space = self._time_space()
        if isinstance(space, Dict):
            if key in space.spaces:
                raise ValueError(TIME_KEY_EXISTS_MSG.format(key))
            return Dict({key: time_space, **space.spaces}, sort_keys=space.sort_keys)
        if isinstance(space, Tuple):
            return Tuple((*space.spaces, time_space))
        return Dict(obs=space, time=time_space)

    def _time(self, steps: int) -> np.ndarray:
        if self.normalize_time:
            return np.array([steps / self.max_timesteps], dtype=np.float32)
        return np.array([steps], dtype=np.int32)

    def _observe(self, index: int, obs: Any) -> Any:
        time = self._time(int(self.timesteps[index]))
        space = self.env.single_observation_space
        if isinstance(space, Dict):
            joined: Any = {self.dict_time_key: time, **obs}
        elif isinstance(space, Tuple):
            joined = (*obs, time)
        else:
            joined = {"obs": obs, "time": time}
        output = flatten(self._joined_space, joined) if self.flatten else joined
        self._outputs[index] = output
        return output

    def _start(self, index: int, obs: Any) -> Any:
        self.timesteps[index] = 0
        return self._observe(index, obs)

    def _advance(self, index: int, obs: Any) -> Any:
        self.timesteps[index] += 1
        return self._observe(index, obs)

    def _current(self, index: int) -> Any:
        return self._outputs[index]
