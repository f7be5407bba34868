"""Drive a ``play`` loop (vecgym's or Gymnasium's) with real pygame events, deterministically.

Both loops call ``env.render()`` once to size the window and then once per turn, just before they
read pygame's event queue. :func:`scripted` wraps an environment so that its ``render`` posts the
events a script lists for the turn (``{turn: [event, ...]}``, turns counted from 1) and a
``QUIT`` from the turn ``quit_on`` on, so every loop ends after a known number of turns. Events
posted on turn ``n`` are read on turn ``n``: a key pressed then acts on the step of turn ``n + 1``.

:func:`run_play` runs one ``play`` function on one environment inside the ``pygame_window``
fixture's record and returns what happened (:class:`PlayRun`): the transitions handed to the
callback, the arrays handed to pygame, the clock's frame rates and the window's pixels at each
callback. :func:`run_differences` lists how two runs differ.
"""

from __future__ import annotations

import copy
import importlib
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests.support.headless_pygame import PygameRecord
from vecgym.utils.env_checker import data_equivalence

__all__ = [
    "PlayRun",
    "down",
    "echo_env",
    "escape",
    "gymnasium_play",
    "library",
    "resized",
    "run_differences",
    "run_play",
    "scripted",
    "up",
]

Script = dict[int, list[Callable[[ModuleType], Any]]]


# --- events ---------------------------------------------------------------------------------------
def _key(key: str | int) -> int:
    return ord(key) if isinstance(key, str) else key


def down(key: str | int) -> Callable[[ModuleType], Any]:
    """A script entry: the key is pressed."""
    return lambda pygame: pygame.event.Event(pygame.KEYDOWN, key=_key(key))


def up(key: str | int) -> Callable[[ModuleType], Any]:
    """A script entry: the key is released."""
    return lambda pygame: pygame.event.Event(pygame.KEYUP, key=_key(key))


def escape() -> Callable[[ModuleType], Any]:
    """A script entry: Escape is pressed."""
    return lambda pygame: pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)


def resized(width: int, height: int) -> Callable[[ModuleType], Any]:
    """A script entry: the window was resized to ``width`` x ``height``."""
    return lambda pygame: pygame.event.Event(pygame.WINDOWRESIZED, x=width, y=height)


# --- the libraries --------------------------------------------------------------------------------
def library(name: str) -> ModuleType:
    """``vecgym`` or ``gymnasium`` (the test is skipped where Gymnasium is missing)."""
    if name == "gymnasium":
        return pytest.importorskip("gymnasium")
    return importlib.import_module(name)


def gymnasium_play() -> ModuleType:
    """Gymnasium's ``gymnasium.utils.play``, imported without leaving matplotlib on TkAgg.

    Importing it asks matplotlib for the TkAgg backend, which cannot open without a display.
    When ``matplotlib.pyplot`` is already imported, the switch fails at once and the module
    warns and sets its ``matplotlib`` and ``plt`` to ``None``; otherwise the failure would come
    at the first figure. The backend is set back to Agg, and the module is given the real
    ``matplotlib.pyplot`` where it gave up on it. Without matplotlib installed, the module is
    returned as it imported.
    """
    pytest.importorskip("gymnasium")
    pytest.importorskip("pygame")
    try:
        matplotlib: ModuleType | None = importlib.import_module("matplotlib")
    except ImportError:  # Gymnasium's play warns and runs without it (its PlayPlot then raises)
        matplotlib = None
    already = "gymnasium.utils.play" in sys.modules
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = importlib.import_module("gymnasium.utils.play")
    if matplotlib is not None:
        if not already:
            matplotlib.use("Agg")
        if module.plt is None:
            module.matplotlib = matplotlib
            module.plt = importlib.import_module("matplotlib.pyplot")
    return module


# --- environments ---------------------------------------------------------------------------------
def echo_env(lib: ModuleType, **kwargs: Any) -> Any:
    """A small environment of ``lib`` whose observations and frames show what was played.

    The observation is ``[start, t, last action]`` (``start`` drawn from the seeded generator at
    every reset); the reward is the action; an episode terminates after ``episode_length`` steps
    (4). Frames are 6 x 10 (height x width): red holds ``start``, green ``20 * t``, and the first
    ``last action + 1`` columns are blue. Keyword arguments: ``render_mode`` (``"rgb_array"``),
    ``episode_length``, ``render_fps`` (the metadata's; ``None`` leaves it out), ``keys`` (a
    mapping that ``get_keys_to_action`` returns; ``None`` for no such method).
    """
    return _echo_class(lib, kwargs.pop("keys", None))(**kwargs)


def _echo_class(lib: ModuleType, keys: dict[Any, Any] | None) -> type:
    class EchoEnv(lib.Env):  # type: ignore[misc,name-defined]
        def __init__(
            self,
            render_mode: str | None = "rgb_array",
            episode_length: int = 4,
            render_fps: Any = 500,
        ) -> None:
            self.render_mode = render_mode
            self.metadata = {"render_modes": ["rgb_array"]}
            if render_fps is not None:
                self.metadata["render_fps"] = render_fps
            self.episode_length = episode_length
            self.observation_space = lib.spaces.Box(0, 255, shape=(3,), dtype=np.int64)
            self.action_space = lib.spaces.Discrete(5)
            self.start = self.t = self.last_action = 0

        def _obs(self) -> np.ndarray:
            return np.array([self.start, self.t, self.last_action], dtype=np.int64)

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            super().reset(seed=seed)
            self.start = int(self.np_random.integers(0, 200))
            self.t = self.last_action = 0
            return self._obs(), {"t": 0}

        def step(self, action: Any) -> Any:
            self.t += 1
            self.last_action = int(action)
            terminated = self.t >= self.episode_length
            return self._obs(), float(action), terminated, False, {"t": self.t}

        def render(self) -> np.ndarray:
            frame = np.zeros((6, 10, 3), dtype=np.uint8)
            frame[..., 0] = self.start
            frame[..., 1] = 20 * self.t
            frame[:, : self.last_action + 1, 2] = 255
            return frame

    if keys is None:
        return EchoEnv

    class EchoEnvWithKeys(EchoEnv):
        def get_keys_to_action(self) -> dict[Any, Any]:
            return dict(keys)

    return EchoEnvWithKeys


def scripted(lib: ModuleType, env: Any, script: Script, quit_on: int) -> Any:
    """``env`` wrapped (with ``lib.Wrapper``) so that its renders post the script's events."""
    import pygame

    class Scripted(lib.Wrapper):  # type: ignore[misc,name-defined]
        def __init__(self, inner: Any) -> None:
            super().__init__(inner)
            self.renders = 0

        def render(self) -> Any:
            frame = self.env.render()
            turn = self.renders  # render 0 sizes the window; the loop's turns count from 1
            self.renders += 1
            if turn >= 1:
                for make_event in script.get(turn, []):
                    pygame.event.post(make_event(pygame))
                if turn >= quit_on:
                    pygame.event.post(pygame.event.Event(pygame.QUIT))
            return frame

    return Scripted(env)


# --- runs -----------------------------------------------------------------------------------------
@dataclass
class PlayRun:
    """What one ``play`` call did."""

    transitions: list[tuple[Any, ...]] = field(default_factory=list)
    shown: list[np.ndarray] = field(default_factory=list)
    ticks: list[float] = field(default_factory=list)
    pixels: list[np.ndarray] = field(default_factory=list)
    turns: int = 0


def run_play(
    play: Callable[..., None],
    env: Any,
    record: PygameRecord,
    **kwargs: Any,
) -> PlayRun:
    """Run ``play(env, callback=..., **kwargs)`` and record it. ``env`` is :func:`scripted`."""
    record.shown.clear()
    record.ticks.clear()
    run = PlayRun()

    def callback(*transition: Any) -> None:
        run.transitions.append(copy.deepcopy(transition))
        run.pixels.append(record.window_pixels())

    play(env, callback=callback, **kwargs)
    run.shown = list(record.shown)
    run.ticks = list(record.ticks)
    run.turns = env.renders - 1
    assert not record.window_open, "play left pygame's display open"
    return run


def without_reset_pairs(run: PlayRun) -> tuple[PlayRun, list[int]]:
    """Gymnasium's run with its reset pairs undone.

    Gymnasium's ``play`` hands the first step of every episode ``reset``'s ``(obs, info)`` pair as
    ``obs_t``; returns the run with the observation in its place, and the indices of those steps.
    """
    fixed = copy.copy(run)
    fixed.transitions = []
    indices = []
    for index, transition in enumerate(run.transitions):
        obs_t = transition[0]
        if isinstance(obs_t, tuple) and len(obs_t) == 2 and isinstance(obs_t[1], dict):
            indices.append(index)
            transition = (obs_t[0], *transition[1:])
        fixed.transitions.append(transition)
    return fixed, indices


def episode_starts(run: PlayRun) -> list[int]:
    """The indices of the transitions that start an episode (the first, and each after an end)."""
    starts = []
    episode_over = True
    for index, (_, _, _, _, terminated, truncated, _) in enumerate(run.transitions):
        if episode_over:
            starts.append(index)
        episode_over = bool(terminated or truncated)
    return starts


def run_differences(ours: PlayRun, theirs: PlayRun) -> list[str]:
    """How two runs differ (empty when they agree), one line per kind of difference."""
    found = []
    if ours.turns != theirs.turns:
        found.append(f"turns: {ours.turns} != {theirs.turns}")
    if len(ours.transitions) != len(theirs.transitions):
        found.append(f"number of steps: {len(ours.transitions)} != {len(theirs.transitions)}")
    for index, (a, b) in enumerate(zip(ours.transitions, theirs.transitions, strict=False)):
        if not data_equivalence(a, b, exact=True):
            found.append(f"transition {index}: {a!r} != {b!r}")
            break
    if len(ours.shown) != len(theirs.shown) or not all(
        np.array_equal(a, b) for a, b in zip(ours.shown, theirs.shown, strict=False)
    ):
        found.append("frames handed to pygame differ")
    if ours.ticks != theirs.ticks:
        found.append(f"clock ticks: {ours.ticks} != {theirs.ticks}")
    if len(ours.pixels) != len(theirs.pixels) or not all(
        np.array_equal(a, b) for a, b in zip(ours.pixels, theirs.pixels, strict=False)
    ):
        found.append("window pixels differ")
    return found
