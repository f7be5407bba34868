"""An environment written against the old OpenAI Gym API (gym < 0.26), and gym-like spaces.

:class:`LegacyCountingEnv` is *not* a vecgym Env: ``seed(seed)`` returns ``[seed]``, ``reset()``
returns only the observation, ``step`` returns ``(obs, reward, done, info)``, ``render`` takes the
mode as an argument and the metadata uses the old ``"render.modes"`` key.

Dynamics: the observation is ``[t, noise]`` (float32), ``t`` the step count and ``noise`` a draw
from the env's seeded generator. Action 1 ends the episode (a real termination); reaching
``max_steps`` ends it as old Gym's ``TimeLimit`` did, with ``info["TimeLimit.truncated"] = True``
(or ``False`` when action 1 ended it on that same step). The reward is ``t`` / 10.

The classes ``Box``, ``Discrete``, ... below are attribute-only stand-ins for ``gym.spaces``
(which is not installed): they carry the attributes old Gym spaces had, nothing else.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecgym.spaces import Box as VecgymBox
from vecgym.spaces import Discrete as VecgymDiscrete

RENDER_SIZE = (6, 8)
NOISE_HIGH = 1.0


# --- gym-like spaces (attributes only) ------------------------------------------------------------
class GymLikeSpace:
    """Base of the stand-ins, as ``gym.spaces.Space`` was: a shape and a dtype."""

    def __init__(self, shape: tuple[int, ...] | None = None, dtype: Any = None) -> None:
        self.shape = shape
        self.dtype = None if dtype is None else np.dtype(dtype)


class Box(GymLikeSpace):
    """Stand-in for ``gym.spaces.Box``."""

    def __init__(self, low: Any, high: Any, shape: tuple[int, ...], dtype: Any) -> None:
        super().__init__(shape, dtype)
        self.low = np.full(shape, low, dtype=dtype)
        self.high = np.full(shape, high, dtype=dtype)


class Discrete(GymLikeSpace):
    """Stand-in for ``gym.spaces.Discrete`` of gym < 0.24 (no ``start``)."""

    def __init__(self, n: int) -> None:
        super().__init__((), np.int64)
        self.n = n


class MultiDiscrete(GymLikeSpace):
    """Stand-in for ``gym.spaces.MultiDiscrete``."""

    def __init__(self, nvec: list[int]) -> None:
        super().__init__((len(nvec),), np.int64)
        self.nvec = np.asarray(nvec, dtype=np.int64)


class MultiBinary(GymLikeSpace):
    """Stand-in for ``gym.spaces.MultiBinary``."""

    def __init__(self, n: int) -> None:
        super().__init__((n,), np.int8)
        self.n = n


class Tuple(GymLikeSpace):
    """Stand-in for ``gym.spaces.Tuple``."""

    def __init__(self, spaces: tuple[Any, ...]) -> None:
        super().__init__()
        self.spaces = spaces


class Dict(GymLikeSpace):
    """Stand-in for ``gym.spaces.Dict``."""

    def __init__(self, spaces: dict[str, Any]) -> None:
        super().__init__()
        self.spaces = spaces


class SubclassedBox(Box):
    """A user subclass of a gym Box: still recognised as a Box."""


# --- the old-style env ----------------------------------------------------------------------------
class LegacyCountingEnv:
    """A counting environment with the old Gym API; see the module docstring.

    Attributes:
        seeds: every seed passed to :meth:`seed`.
        human_renders: how many times ``render(mode="human")`` was called.
        close_calls: how many times :meth:`close` was called.
    """

    metadata: dict[str, Any] = {
        "render.modes": ["human", "rgb_array", "ansi"],
        "video.frames_per_second": 15,
    }
    reward_range = (0.0, 10.0)

    def __init__(self, max_steps: int = 5, gym_like_spaces: bool = False) -> None:
        self.max_steps = max_steps
        if gym_like_spaces:
            self.observation_space: Any = Box(0.0, max(max_steps, 1), (2,), np.float32)
            self.action_space: Any = Discrete(2)
        else:
            self.observation_space = VecgymBox(0.0, max(max_steps, 1), (2,), np.float32)
            self.action_space = VecgymDiscrete(2)
        self.rng = np.random.default_rng()
        self.t = 0
        self.seeds: list[int | None] = []
        self.human_renders = 0
        self.close_calls = 0

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Reseed the generator, the old way; return the list of seeds used."""
        self.rng = np.random.default_rng(seed)
        self.seeds.append(seed)
        return [seed]

    def reset(self) -> np.ndarray:
        """Start an episode; return only the observation."""
        self.t = 0
        return self._obs()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, dict[str, Any]]:
        """Advance one step: ``(obs, reward, done, info)``."""
        self.t += 1
        terminal = int(action) == 1
        info: dict[str, Any] = {"t": self.t}
        done = terminal
        if self.t >= self.max_steps:
            info["TimeLimit.truncated"] = not terminal
            done = True
        return self._obs(), self.t / 10, done, info

    def render(self, mode: str = "human") -> Any:
        """Render in ``mode``: an image, a text line, or (human) nothing."""
        if mode == "rgb_array":
            return np.full((*RENDER_SIZE, 3), self.t, dtype=np.uint8)
        if mode == "ansi":
            return f"t={self.t}"
        if mode == "human":
            self.human_renders += 1
            return None
        raise NotImplementedError(mode)

    def close(self) -> None:
        """Count the calls (the test checks the wrapper forwards only the first)."""
        self.close_calls += 1

    def _obs(self) -> np.ndarray:
        noise = self.rng.uniform(0.0, NOISE_HIGH)
        return np.array([self.t, noise], dtype=np.float32)


def make_legacy_counting_env(max_steps: int = 5) -> LegacyCountingEnv:
    """A factory, to register by ``"tests.support.legacy_env:make_legacy_counting_env"``."""
    return LegacyCountingEnv(max_steps=max_steps)
