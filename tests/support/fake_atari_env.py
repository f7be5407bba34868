"""`FakeAtariEnv`: a stand-in for an ALE Atari env, for testing AtariPreprocessing without ale_py.

The screen is a deterministic function of the frame counter (frame ``k`` is filled with
``(k * 7) % 256``, with a gradient across columns), so tests can predict every captured screen.
It exposes what AtariPreprocessing reads: ``ale`` (``lives``, ``getScreenGrayscale``,
``getScreenRGB``), ``_frameskip`` and ``get_action_meanings``. Each step gives reward 1; the
episode terminates after ``episode_length`` frames and a life is lost every ``life_every`` frames.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import vecgym
from vecgym.spaces import Box, Discrete

__all__ = ["FakeAle", "FakeAtariEnv"]

SCREEN_HEIGHT = 210
SCREEN_WIDTH = 160


class FakeAle:
    """The subset of ``ale_py.ALEInterface`` that AtariPreprocessing uses."""

    def __init__(self, env: FakeAtariEnv) -> None:
        self._env = env

    def lives(self) -> int:
        """Lives left."""
        return self._env.lives_left

    def getScreenRGB(self, out: np.ndarray) -> None:
        """Write the RGB screen into ``out``."""
        out[...] = self._env.rgb_screen()

    def getScreenGrayscale(self, out: np.ndarray) -> None:
        """Write the grayscale screen into ``out``."""
        out[...] = self._env.gray_screen()


class FakeAtariEnv(vecgym.Env[np.ndarray, int]):
    """A predictable Atari-like env: frame counter drives the screen, lives and termination."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        frameskip: int = 1,
        episode_length: int = 1000,
        life_every: int = 0,
        action_meanings: tuple[str, ...] = ("NOOP", "FIRE", "LEFT"),
    ) -> None:
        self._frameskip = frameskip
        self.episode_length = episode_length
        self.life_every = life_every
        self.action_meanings = list(action_meanings)
        self.observation_space = Box(0, 255, (SCREEN_HEIGHT, SCREEN_WIDTH, 3), np.uint8)
        self.action_space = Discrete(len(action_meanings))
        self.ale = FakeAle(self)
        self.frame = 0
        self.lives_left = 3
        self.actions: list[int] = []

    def get_action_meanings(self) -> list[str]:
        """The ALE action names."""
        return list(self.action_meanings)

    def gray_screen(self) -> np.ndarray:
        """The grayscale screen of the current frame."""
        base = (self.frame * 7) % 256
        cols = np.arange(SCREEN_WIDTH) // 40
        row = np.clip(base + cols, 0, 255).astype(np.uint8)
        return np.tile(row, (SCREEN_HEIGHT, 1))

    def rgb_screen(self) -> np.ndarray:
        """The RGB screen of the current frame (the gray screen in all channels)."""
        return np.repeat(self.gray_screen()[..., None], 3, axis=-1)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.frame = 0
        self.lives_left = 3
        self.actions = []
        return self.rgb_screen(), {"frame": self.frame}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.frame += 1
        self.actions.append(int(action))
        if self.life_every and self.frame % self.life_every == 0:
            self.lives_left -= 1
        terminated = self.frame >= self.episode_length
        return self.rgb_screen(), 1.0, terminated, False, {"frame": self.frame}
