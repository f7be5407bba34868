"""A Gymnasium env that returns MuJoCo-like infos on every step, for the info-batching tests.

Each step returns four numeric keys (a Python ``float``, a ``np.float32`` scalar, a Python
``int`` and a float64 array of shape ``(2,)``), as HalfCheetah's ``x_position`` / ``reward_ctrl``
do, plus (unless ``numeric_only``) a string and a ``np.bool_`` (non-numeric: object arrays).
Keys appear late (``late`` from the fifth step of an episode, only in even-indexed envs), and
``level`` changes dtype with
the sign of ``action[0]``: an ``int`` when it is negative, a ``float`` otherwise, so a batch of
actions with mixed signs makes the batched ``level`` widen. Episodes last 3 to 8 steps, ending
by termination in even-indexed envs and by truncation in odd ones; reset infos have their own keys.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np


class InfoEnv(gymnasium.Env[np.ndarray, np.ndarray]):
    """The env described in the module docstring; ``index`` is its place in the vector env."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, index: int = 0, numeric_only: bool = False) -> None:
        self.index = index
        self.numeric_only = numeric_only
        self.observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (3,), np.float64)
        self.action_space = gymnasium.spaces.Box(-1.0, 1.0, (2,), np.float32)
        self._t = 0
        self._length = 5
        self._state = np.zeros(3)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._t = 0
        self._length = int(self.np_random.integers(3, 9))
        self._state = self.np_random.normal(size=3)
        info: dict[str, Any] = {"episode_length": self._length}
        if self.index % 3 == 0:
            info["start"] = self._state[:2].copy()
        return self._state.copy(), info

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self._t += 1
        self._state = self._state + 0.1 * self.np_random.normal(size=3)
        ctrl = np.float32(-0.1 * float(np.sum(np.square(action))))
        info: dict[str, Any] = {
            "x_position": float(self._state[0]),
            "reward_ctrl": ctrl,
            "lives": 3 - self._t // 3,
            "velocity": self._state[1:].copy(),
        }
        if not self.numeric_only:
            info["name"] = f"env{self.index}"
            info["healthy"] = np.bool_(self._state[2] > 0)
        if self._t >= 5 and self.index % 2 == 0:
            info["late"] = np.int32(self._t)
        info["level"] = self._t if action[0] < 0 else self._t / 2
        ended = self._t >= self._length
        terminated = ended and self.index % 2 == 0
        truncated = ended and self.index % 2 == 1
        return self._state.copy(), float(ctrl) + 1.0, terminated, truncated, info


def info_env_fns(num_envs: int, numeric_only: bool = False) -> list[Any]:
    """Constructors of ``num_envs`` :class:`InfoEnv` s, env ``i`` with ``index=i`` (and only
    numeric info values with ``numeric_only``)."""
    return [lambda i=i: InfoEnv(i, numeric_only) for i in range(num_envs)]
