"""The vector :class:`RecordEpisodeStatistics`: each finished episode's return, length and time."""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.core.env import ActType, ObsType
from vecgym.vector.vector_env import VectorEnv, VectorWrapper
from vecgym.wrappers.vector._episodes import EpisodeTracker, autoreset_mode_of, reset_mask_of

__all__ = ["RecordEpisodeStatistics"]

STATS_KEY_EXISTS_MSG = (
    "RecordEpisodeStatistics cannot report under the key '{key}': the info has it already (keys: "
    "{keys}); pass another `stats_key`"
)
BUFFER_LENGTH_MSG = "buffer_length must be a non-negative integer, got {!r}"


class RecordEpisodeStatistics(VectorWrapper[ObsType, ActType, ObsType, ActType, np.ndarray]):
    """Reports the return, length and duration of every episode that ends in a sub-environment.

    On a step where some envs end their episode, ``infos[stats_key]`` is a dict of arrays of
    shape ``(num_envs,)``: ``"r"`` (return, float64), ``"l"`` (length, int) and ``"t"`` (seconds
    since the episode started, rounded to microseconds), zero for the envs still running, and
    ``infos["_" + stats_key]`` marks the envs that ended. The last ``buffer_length`` episodes are
    also kept in :attr:`return_queue`, :attr:`length_queue` and :attr:`time_queue`.

    Episode boundaries follow the wrapped env's autoreset mode: with ``NEXT_STEP`` the reset step
    after an episode ends is not counted in either episode; with ``SAME_STEP`` the new episode
    starts right after the step that ended the last one; and a reset, partial (``reset_mask``) or
    not, restarts the statistics of exactly the envs it resets.

    Attributes:
        episode_count: the number of episodes ended so far.
        episode_returns: the running return of each env's episode.
        episode_lengths: the running length of each env's episode.
        episode_start_times: when each env's episode started (``time.perf_counter()``).
        return_queue: the returns of the last ``buffer_length`` episodes.
        length_queue: their lengths.
        time_queue: their durations.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = RecordEpisodeStatistics(envs)
        >>> _ = envs.reset(seed=1)
        >>> while "episode" not in (infos := envs.step(envs.action_space.sample())[-1]):
        ...     pass
        >>> sorted(infos["episode"])
        ['l', 'r', 't']
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, np.ndarray],
        buffer_length: int = 100,
        stats_key: str = "episode",
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the vector environment.
            buffer_length: how many episodes :attr:`return_queue` and the others keep.
            stats_key: the info key of the statistics.

        Raises:
            TypeError: ``env.metadata["autoreset_mode"]`` is not an ``AutoresetMode``.
            TypeError: ``buffer_length`` is not an integer (as in Gymnasium).
            ValueError: ``buffer_length`` is negative.
        """
        super().__init__(env)
        if isinstance(buffer_length, bool) or not isinstance(buffer_length, (int, np.integer)):
            raise TypeError(BUFFER_LENGTH_MSG.format(buffer_length))
        if buffer_length < 0:
            raise ValueError(BUFFER_LENGTH_MSG.format(buffer_length))
        self._stats_key = stats_key
        self._autoreset_mode = autoreset_mode_of(env, type(self).__name__)
        self._episodes = EpisodeTracker(self._autoreset_mode, self.num_envs)
        self.episode_count = 0
        self.episode_start_times: npt.NDArray[np.float64] = np.zeros(self.num_envs)
        self.episode_returns: npt.NDArray[np.float64] = np.zeros(self.num_envs)
        self.episode_lengths: npt.NDArray[np.int_] = np.zeros(self.num_envs, dtype=int)
        # numpy scalars (``np.float64``, ``np.int64``), as in Gymnasium's vector wrapper
        self.time_queue: deque[np.float64] = deque(maxlen=buffer_length)
        self.return_queue: deque[np.float64] = deque(maxlen=buffer_length)
        self.length_queue: deque[np.int_] = deque(maxlen=buffer_length)

    @property
    def prev_dones(self) -> npt.NDArray[np.bool_]:
        """Which envs ended their episode on the last step and have not been reset since."""
        return self._episodes.prev_dones

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the wrapped env and restart the statistics of the envs reset.

        ``seed`` and ``options`` may be passed by position, as with Gymnasium's wrapper. With
        ``options["reset_mask"]`` only the marked envs' statistics restart; the others keep
        counting their running episodes. The caller's ``options`` are not modified.
        """
        mask = reset_mask_of(options, self.num_envs)
        obs, infos = self.env.reset(seed=seed, options=options)
        self._restart(self._episodes.reset(mask))
        return obs, infos

    def step(
        self, actions: ActType
    ) -> tuple[
        ObsType,
        npt.NDArray[Any],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Step the wrapped env, adding ``infos[stats_key]`` when some episode ends.

        Raises:
            ValueError: the infos already hold ``stats_key`` on a step that ends an episode.
        """
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        episodes = self._episodes.step(terminations, truncations)
        self._restart(episodes.started)
        counted = episodes.counted
        self.episode_returns[counted] += np.asarray(rewards)[counted]
        self.episode_lengths[counted] += 1
        dones = episodes.ended
        if dones.any():
            self._report(infos, dones)
            self._restart(episodes.restarted_after)
        return observations, rewards, terminations, truncations, infos

    def _restart(self, envs: npt.NDArray[np.bool_]) -> None:
        """Start new episodes in the envs marked by ``envs``."""
        if envs.any():
            self.episode_returns[envs] = 0.0
            self.episode_lengths[envs] = 0
            self.episode_start_times[envs] = time.perf_counter()

    def _report(self, infos: dict[str, Any], dones: npt.NDArray[np.bool_]) -> None:
        """Add the statistics of the episodes that ended (``dones``) to ``infos`` and the queues."""
        key = self._stats_key
        if key in infos or f"_{key}" in infos:
            raise ValueError(STATS_KEY_EXISTS_MSG.format(key=key, keys=list(infos)))
        durations = np.round(time.perf_counter() - self.episode_start_times, 6)
        infos[key] = {
            "r": np.where(dones, self.episode_returns, 0.0),
            "l": np.where(dones, self.episode_lengths, 0),
            "t": np.where(dones, durations, 0.0),
        }
        infos[f"_{key}"] = dones
        self.episode_count += int(dones.sum())
        self.time_queue.extend(durations[dones])
        self.return_queue.extend(self.episode_returns[dones])
        self.length_queue.extend(self.episode_lengths[dones])
