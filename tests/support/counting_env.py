"""`CountingEnv`: an environment whose observation is the number of steps taken in the episode.

A deterministic test double for vector environments: after ``reset`` the observation is ``0`` (or
the reset's ``options["start"]``), each ``step`` adds one, and the reward is the action (as a
float) so tests can tell which action reached which env. The episode terminates when the count
reaches ``terminate_at`` and is truncated when it reaches ``truncate_at``. The info carries the
count only every ``info_every`` steps, so vector infos are sometimes empty.

Observations are written into one array that the env keeps and returns every time (``in_place``,
the default), like environments that reuse their buffers: a vector env that keeps a reference
instead of copying will see it change.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import vecgym
from vecgym.spaces import Box, Discrete

__all__ = ["CountingEnv"]


class CountingEnv(vecgym.Env[Any, Any]):
    """Observation = steps taken since the last reset.

    Args:
        terminate_at: the count at which ``terminated`` is returned (``None``: never).
        truncate_at: the count at which ``truncated`` is returned (``None``: never).
        info_every: the info is ``{"count": count}`` when ``count % info_every == 0``, else ``{}``
            (``0``: always empty). Reset infos follow the same rule (count ``0``: included).
        obs_type: ``"box"`` (a ``float32`` array of shape ``(1,)``) or ``"discrete"`` (an int).
        max_count: the largest observable count (the space's bound).
        in_place: return the same observation array every time (``"box"`` only).
        action_space: defaults to ``Discrete(3)``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 30}

    def __init__(
        self,
        terminate_at: int | None = 5,
        truncate_at: int | None = None,
        info_every: int = 2,
        obs_type: str = "box",
        max_count: int = 1000,
        in_place: bool = True,
        action_space: vecgym.Space[Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.terminate_at = terminate_at
        self.truncate_at = truncate_at
        self.info_every = info_every
        self.obs_type = obs_type
        self.in_place = in_place
        self.render_mode = render_mode
        if obs_type == "box":
            self.observation_space: vecgym.Space[Any] = Box(
                0, max_count, shape=(1,), dtype=np.float32
            )
        elif obs_type == "discrete":
            self.observation_space = Discrete(max_count + 1)
        else:
            raise ValueError(f"obs_type must be 'box' or 'discrete', got {obs_type!r}")
        self.action_space = action_space if action_space is not None else Discrete(3)
        self.count = 0
        self.reset_count = 0
        self.last_action: Any = None
        self.last_options: dict[str, Any] | None = None
        self._obs = np.zeros(1, dtype=np.float32)

    def _observation(self) -> Any:
        if self.obs_type == "discrete":
            return int(self.count)
        obs = self._obs if self.in_place else np.zeros(1, dtype=np.float32)
        obs[0] = self.count
        return obs

    def _info(self) -> dict[str, Any]:
        if self.info_every and self.count % self.info_every == 0:
            return {"count": self.count}
        return {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a new episode at count ``options.get("start", 0)``."""
        super().reset(seed=seed)
        self.reset_count += 1
        self.last_options = options
        self.count = int(options.get("start", 0)) if options else 0
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Count one step; the reward is ``float(action)`` when the action is a number."""
        self.count += 1
        self.last_action = action
        reward = float(action) if np.ndim(action) == 0 else 0.0
        terminated = self.terminate_at is not None and self.count >= self.terminate_at
        truncated = self.truncate_at is not None and self.count >= self.truncate_at
        return self._observation(), reward, bool(terminated), bool(truncated), self._info()

    def render(self) -> str:
        """The count as text."""
        return f"count={self.count}"

    def get_count(self, offset: int = 0) -> int:
        """The count plus ``offset`` (a method for ``call`` tests)."""
        return self.count + offset
