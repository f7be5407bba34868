"""The wrappers ``vecgym.make`` applies to every environment it builds.

* :class:`PassiveEnvChecker` checks, without changing anything, that the environment follows the
  API on its first ``reset``, ``step`` and ``render``;
* :class:`OrderEnforcing` refuses ``step`` (and ``render``) before the first ``reset``;
* :class:`TimeLimit` truncates an episode after a number of steps.

``make`` stacks them in that order, innermost first. Two more wrappers users add themselves:

* :class:`Autoreset` resets the environment on the ``step`` after an episode ends;
* :class:`RecordEpisodeStatistics` reports each finished episode's return, length and duration.

Each records its constructor arguments
(:class:`~vecgym.utils.RecordConstructorArgs`) and reports itself in ``env.spec`` through the
spec field it stands for (``disable_env_checker``, ``order_enforce``, ``max_episode_steps``), so
``make(env.spec)`` rebuilds the same stack.
"""

from __future__ import annotations

import copy
import numbers
import time
from collections import deque
from typing import TYPE_CHECKING, Any, SupportsFloat

from vecgym import error, logger
from vecgym.core.env import ActType, Env, ObsType, RenderFrame, Wrapper
from vecgym.core.passive_env_checker import (
    check_action_space,
    check_observation_space,
    env_data_reuse_passive_checker,
    env_render_passive_checker,
    env_reset_passive_checker,
    env_step_passive_checker,
)
from vecgym.core.record_constructor import RecordConstructorArgs

if TYPE_CHECKING:
    from vecgym.core.registration import EnvSpec

__all__ = [
    "Autoreset",
    "OrderEnforcing",
    "PassiveEnvChecker",
    "RecordEpisodeStatistics",
    "TimeLimit",
]

MAX_STEPS_TYPE_MSG = "`max_episode_steps` must be an int, got {type}"
MAX_STEPS_VALUE_MSG = "`max_episode_steps` must be at least 1, got {value}"
STEP_BEFORE_RESET_MSG = "step() needs an episode: call env.reset() before the first step"
RENDER_BEFORE_RESET_MSG = (
    "render() needs an episode: call env.reset() first, or build OrderEnforcing with "
    "disable_render_order_enforcing=True to render before a reset"
)
NOT_AN_ENV_MSG = (
    "PassiveEnvChecker checks vecgym environments only: {type} is not a subclass of vecgym.Env"
)
OLD_GYM_ENV_MSG = (
    "The environment subclasses OpenAI Gym's gym.Env, whose old API vecgym does not run: subclass "
    "vecgym.Env instead, or wrap the old env with vecgym.wrappers.legacy.LegacyGymCompatibility"
)
NO_ACTION_SPACE_MSG = (
    "The environment has no `action_space` attribute; every environment must define one"
)
NO_OBSERVATION_SPACE_MSG = (
    "The environment has no `observation_space` attribute; every environment must define one"
)
CLOSE_AGAIN_FAILED_MSG = (
    "Closing an environment twice must be harmless, but env.close() raised on the already closed "
    "environment (the exception follows)"
)
BUFFER_LENGTH_MSG = "Expected `buffer_length` to be a non-negative integer or None, got {value!r}"
STATS_KEY_TAKEN_MSG = (
    "The info of the step that ends an episode already has the key {key!r}; "
    "RecordEpisodeStatistics must be given a `stats_key` the environment does not use"
)
SPEC_COPY_FAILED_MSG = (
    "The wrapper reports no spec: copying the environment's spec {spec} failed with {error}"
)


def _spec_with(wrapper: Wrapper[Any, Any, Any, Any], **changes: Any) -> EnvSpec | None:
    """``wrapper.env.spec`` deep-copied with ``changes`` applied, cached on the wrapper.

    Returns ``None`` when the inner env has no spec, or (with a warning) when it cannot be copied.
    """
    cached: EnvSpec | None = wrapper._cached_spec
    if cached is not None:
        return cached
    env_spec = wrapper.env.spec
    if env_spec is None:
        return None
    try:
        env_spec = copy.deepcopy(env_spec)
        for field_name, value in changes.items():
            setattr(env_spec, field_name, value)
    except Exception as exc:
        logger.warn(SPEC_COPY_FAILED_MSG.format(error=exc, spec=env_spec))
        return None
    wrapper._cached_spec = env_spec
    return env_spec


class TimeLimit(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Truncate episodes after ``max_episode_steps`` steps.

    The step that brings the count to ``max_episode_steps`` returns ``truncated=True`` (the
    environment's own ``terminated`` is passed through unchanged); ``reset`` restarts the count.
    ``env.spec.max_episode_steps`` reports the limit.

    Example:
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1", max_episode_steps=2)
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[3], env.step(0)[3]
        (False, True)
    """

    def __init__(self, env: Env[ObsType, ActType], max_episode_steps: int) -> None:
        """Wrap ``env`` with a limit of ``max_episode_steps`` steps per episode.

        Args:
            env: the environment to wrap.
            max_episode_steps: the step count at which the episode is truncated (``>= 1``).

        Raises:
            TypeError: if ``max_episode_steps`` is not an integer.
            ValueError: if ``max_episode_steps`` is not positive.
        """
        if not isinstance(max_episode_steps, numbers.Integral):
            raise TypeError(MAX_STEPS_TYPE_MSG.format(type=type(max_episode_steps)))
        if max_episode_steps <= 0:
            raise ValueError(MAX_STEPS_VALUE_MSG.format(value=max_episode_steps))
        RecordConstructorArgs.__init__(self, max_episode_steps=max_episode_steps)
        Wrapper.__init__(self, env)
        self._max_episode_steps: int = int(max_episode_steps)
        self._elapsed_steps: int | None = None

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the environment and count the step; truncate once the limit is reached.

        Raises:
            vecgym.error.ResetNeeded: if called before the first ``reset`` (the environment is
                not stepped).
        """
        if self._elapsed_steps is None:
            raise error.ResetNeeded(STEP_BEFORE_RESET_MSG)
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._elapsed_steps += 1
        if self._elapsed_steps >= self._max_episode_steps:
            truncated = True
        return observation, reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment and the step count."""
        self._elapsed_steps = 0
        return super().reset(seed=seed, options=options)

    @property
    def spec(self) -> EnvSpec | None:  # type: ignore[override]
        """The inner spec with ``max_episode_steps`` set to this wrapper's limit."""
        return _spec_with(self, max_episode_steps=self._max_episode_steps)


class OrderEnforcing(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Raise :class:`~vecgym.error.ResetNeeded` on ``step`` or ``render`` before the first reset.

    Example:
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1")
        >>> env.step(0)
        Traceback (most recent call last):
            ...
        vecgym.error.ResetNeeded: step() needs an episode: call env.reset() before the first step
        >>> _ = env.reset(seed=0)
        >>> env.get_wrapper_attr("has_reset")
        True
    """

    def __init__(
        self, env: Env[ObsType, ActType], disable_render_order_enforcing: bool = False
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            disable_render_order_enforcing: allow ``render`` before the first ``reset``.
        """
        RecordConstructorArgs.__init__(
            self, disable_render_order_enforcing=disable_render_order_enforcing
        )
        Wrapper.__init__(self, env)
        self._has_reset: bool = False
        self._disable_render_order_enforcing: bool = disable_render_order_enforcing

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the environment; it must have been reset before."""
        if not self._has_reset:
            raise error.ResetNeeded(STEP_BEFORE_RESET_MSG)
        return super().step(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment; ``step`` and ``render`` are allowed from now on."""
        self._has_reset = True
        return super().reset(seed=seed, options=options)

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Render the environment; it must have been reset before unless render order is free."""
        if not self._disable_render_order_enforcing and not self._has_reset:
            raise error.ResetNeeded(RENDER_BEFORE_RESET_MSG)
        return super().render()

    @property
    def has_reset(self) -> bool:
        """Whether ``reset`` has been called."""
        return self._has_reset

    @property
    def spec(self) -> EnvSpec | None:  # type: ignore[override]
        """The inner spec with ``order_enforce=True``."""
        return _spec_with(self, order_enforce=True)


class PassiveEnvChecker(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Check that an environment follows the API, warning about what it gets wrong.

    The spaces are checked on construction; the first ``reset``, the first ``step`` and the first
    ``render`` go through the passive checkers of :mod:`vecgym.utils.passive_env_checker`, and
    the first reset/step/step results are checked for shared (reused) objects. The environment's
    data is never changed. ``make`` applies this wrapper unless ``disable_env_checker=True``.

    Example:
        >>> import vecgym
        >>> vecgym.make("CartPole-v1", disable_env_checker=True)
        <TimeLimit<OrderEnforcing<CartPoleEnv<CartPole-v1>>>>
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        """Wrap ``env`` and check its action and observation spaces.

        Raises:
            TypeError: if ``env`` is not a :class:`vecgym.Env`.
            AttributeError: if ``env`` has no action or observation space.
        """
        RecordConstructorArgs.__init__(self)
        if not isinstance(env, Env):
            base = str(type(env).__base__)
            if base == "<class 'gym.core.Env'>":
                raise TypeError(OLD_GYM_ENV_MSG)
            raise TypeError(NOT_AN_ENV_MSG.format(type=type(env)))
        Wrapper.__init__(self, env)

        if not hasattr(env, "action_space"):
            raise AttributeError(NO_ACTION_SPACE_MSG)
        check_action_space(env.action_space)
        if not hasattr(env, "observation_space"):
            raise AttributeError(NO_OBSERVATION_SPACE_MSG)
        check_observation_space(env.observation_space)

        self.checked_reset: bool = False
        self.checked_step: bool = False
        self.checked_render: bool = False
        self.close_called: bool = False
        # Data-reuse check: the reset result against the first step's, then first against second.
        self.checked_data_reuse: bool = False
        self._previous_data: tuple[Any, dict[str, Any]] | None = None

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the environment; the first step is checked, the second only for data reuse."""
        if not self.checked_step:
            self.checked_step = True
            result = env_step_passive_checker(self.env, action)
            data = (result[0], result[4])
            if self._previous_data is not None:
                env_data_reuse_passive_checker(self._previous_data, data, "reset", "step")
            self._previous_data = data
            return result
        result = self.env.step(action)
        if not self.checked_data_reuse:
            self.checked_data_reuse = True
            if self._previous_data is not None:
                env_data_reuse_passive_checker(
                    self._previous_data, (result[0], result[4]), "step", "step"
                )
            self._previous_data = None
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment; the first reset is checked."""
        if not self.checked_reset:
            self.checked_reset = True
            self._previous_data = env_reset_passive_checker(self.env, seed=seed, options=options)
            return self._previous_data
        return self.env.reset(seed=seed, options=options)

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Render the environment; the first render is checked."""
        if not self.checked_render:
            self.checked_render = True
            frame: RenderFrame | list[RenderFrame] | None = env_render_passive_checker(self.env)
            return frame
        return self.env.render()

    @property
    def spec(self) -> EnvSpec | None:  # type: ignore[override]
        """The inner spec with ``disable_env_checker=False``."""
        return _spec_with(self, disable_env_checker=False)

    def close(self) -> None:
        """Close the environment; closing again is allowed, and a failure then warns and raises."""
        if not self.close_called:
            self.close_called = True
            return self.env.close()
        try:
            return self.env.close()
        except Exception:
            logger.warn(CLOSE_AGAIN_FAILED_MSG)
            raise


class Autoreset(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Reset the environment on the ``step`` that follows the end of an episode.

    This is the single-environment form of the vector envs' next-step autoreset: the step that
    returns ``terminated`` or ``truncated`` is passed through unchanged, and the next ``step``
    ignores its action, resets the inner environment and returns the reset observation and info
    with a reward of ``0.0`` and ``terminated = truncated = False``. A manual ``reset`` clears a
    pending autoreset.

    Example:
        >>> import vecgym
        >>> env = Autoreset(vecgym.make("CartPole-v1", max_episode_steps=2))
        >>> _ = env.reset(seed=0)
        >>> [env.step(0)[1:4] for _ in range(3)]
        [(1.0, False, False), (1.0, False, True), (0.0, False, False)]
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
        """
        RecordConstructorArgs.__init__(self)
        Wrapper.__init__(self, env)
        self.autoreset: bool = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment; a pending autoreset is dropped."""
        self.autoreset = False
        return super().reset(seed=seed, options=options)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the environment, or reset it if the previous step ended the episode.

        When the previous step returned ``terminated`` or ``truncated``, ``action`` is not used:
        the environment is reset (without a seed or options) and this step returns
        ``(reset_obs, 0.0, False, False, reset_info)``.
        """
        if self.autoreset:
            observation, info = self.env.reset()
            reward: SupportsFloat = 0.0
            terminated, truncated = False, False
        else:
            observation, reward, terminated, truncated, info = self.env.step(action)
        self.autoreset = bool(terminated or truncated)
        return observation, reward, terminated, truncated, info


class RecordEpisodeStatistics(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Report each finished episode's return, length and duration in the ``info``.

    On the step that ends an episode (``terminated`` or ``truncated``), the info gets
    ``info[stats_key] = {"r": return, "l": length, "t": seconds}``: the sum of the episode's
    rewards, its number of steps, and the wall-clock time since the episode started (rounded to
    microseconds). The same values are appended to :attr:`return_queue`, :attr:`length_queue`
    and :attr:`time_queue`, which keep the last ``buffer_length`` episodes, and
    :attr:`episode_count` counts the episodes finished so far.

    An episode starts at ``reset``. An environment stepped on after an episode ended without a
    ``reset`` (such as one wrapped in :class:`Autoreset`, whose next step is its reset) starts a
    new episode there: that step is taken as the reset, so it adds neither to the return nor to
    the length, and the statistics start from zero. (Gymnasium 1.4 keeps adding to the finished
    episode's return and length instead, so every later episode reports the running totals of
    all episodes since the last ``reset``; vecgym reports each episode on its own.)

    Example:
        >>> import vecgym
        >>> env = RecordEpisodeStatistics(vecgym.make("CartPole-v1", max_episode_steps=3))
        >>> _ = env.reset(seed=0)
        >>> for _ in range(3):
        ...     _, _, _, _, info = env.step(0)
        >>> info["episode"]["r"], info["episode"]["l"]
        (3.0, 3)
        >>> list(env.return_queue), list(env.length_queue)
        ([3.0], [3])
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        buffer_length: int | None = 100,
        stats_key: str = "episode",
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            buffer_length: how many recent episodes the queues keep (``None``: all of them).
            stats_key: the info key under which a finished episode's statistics are reported.

        Raises:
            TypeError: if ``buffer_length`` is not an integer or ``None`` (as in Gymnasium).
            ValueError: if ``buffer_length`` is negative.
        """
        if buffer_length is not None:
            if isinstance(buffer_length, bool) or not isinstance(buffer_length, numbers.Integral):
                raise TypeError(BUFFER_LENGTH_MSG.format(value=buffer_length))
            if buffer_length < 0:
                raise ValueError(BUFFER_LENGTH_MSG.format(value=buffer_length))
        RecordConstructorArgs.__init__(self, buffer_length=buffer_length, stats_key=stats_key)
        Wrapper.__init__(self, env)

        self._stats_key: str = stats_key
        maxlen = None if buffer_length is None else int(buffer_length)

        self.episode_count: int = 0
        self.episode_start_time: float = -1.0
        self.episode_returns: float = 0.0
        self.episode_lengths: int = 0
        self._episode_ended: bool = False

        self.time_queue: deque[float] = deque(maxlen=maxlen)
        self.return_queue: deque[float] = deque(maxlen=maxlen)
        self.length_queue: deque[int] = deque(maxlen=maxlen)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the environment and add the step to the episode's statistics.

        On the step that ends the episode, the statistics are written into the returned info
        (the environment's own info dict) and appended to the queues, and a new episode starts.

        Raises:
            ValueError: if the info of an episode's last step already holds ``stats_key``.
        """
        observation, reward, terminated, truncated, info = super().step(action)
        if self._episode_ended:
            # The step after an episode's end is the (auto)reset of the next episode.
            self._episode_ended = False
            self.episode_returns = 0.0
            self.episode_lengths = 0
        else:
            self.episode_returns += reward  # type: ignore[operator]
            self.episode_lengths += 1
        if terminated or truncated:
            self._finish_episode(info)
        return observation, reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment and start a new episode's statistics."""
        result = super().reset(seed=seed, options=options)
        self._start_episode()
        return result

    def _start_episode(self) -> None:
        """Zero the running return and length and note the start time."""
        self._episode_ended = False
        self.episode_start_time = time.perf_counter()
        self.episode_returns = 0.0
        self.episode_lengths = 0

    def _finish_episode(self, info: dict[str, Any]) -> None:
        """Report the finished episode in ``info`` and the queues; the next one starts now."""
        if self._stats_key in info:
            raise ValueError(STATS_KEY_TAKEN_MSG.format(key=self._stats_key))
        seconds = round(time.perf_counter() - self.episode_start_time, 6)
        info[self._stats_key] = {
            "r": self.episode_returns,
            "l": self.episode_lengths,
            "t": seconds,
        }
        self.time_queue.append(seconds)
        self.return_queue.append(self.episode_returns)
        self.length_queue.append(self.episode_lengths)
        self.episode_count += 1
        self.episode_start_time = time.perf_counter()
        self._episode_ended = True
