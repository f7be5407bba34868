"""`AtariPreprocessing`: the standard Atari 2600 preprocessing of Machado et al. (2018).

"Revisiting the Arcade Learning Environment: Evaluation Protocols and Open Problems for General
Agents" describes the stages this wrapper applies (frame stacking is left to
:class:`~vecgym.wrappers.FrameStackObservation`). Resizing is :func:`vecgym.wrappers.utils.
resize_image`: OpenCV's ``INTER_AREA``, as in Gymnasium, when OpenCV is installed (the ``atari``
extra), so observations equal Gymnasium's; numpy (within one grey level) otherwise.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, SupportsFloat

import numpy as np

from vecgym.core.env import Env, Wrapper, WrapperActType, WrapperObsType
from vecgym.core.interop import GymnasiumEnv, unflavoured
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.spaces import Box
from vecgym.wrappers.common import (
    OrderEnforcing,
    PassiveEnvChecker,
    RecordEpisodeStatistics,
    TimeLimit,
)
from vecgym.wrappers.utils import resize_image

__all__ = ["AtariPreprocessing"]

FRAME_SKIP_TYPE_MSG = "`frame_skip` must be an integer, got {value!r}"
FRAME_SKIP_MSG = "`frame_skip` must be at least 1, got {value}"
SCREEN_SIZE_MSG = (
    "`screen_size` must be a positive integer or a (width, height) tuple of positive integers, got "
    "{value}"
)
ENV_FRAMESKIP_MSG = (
    "AtariPreprocessing skips frames itself, so the wrapped env must play each action once: make "
    "it with frameskip=1, or pass frame_skip=1 here"
)
NOOP_MAX_TYPE_MSG = "`noop_max` must be an integer, got {value!r}"
NOOP_MAX_MSG = "`noop_max` must be 0 or more, got {value}"
NOOP_MEANING_MSG = (
    "The random no-op starts (noop_max > 0) play action 0, so the env's action 0 must mean 'NOOP'; "
    "pass noop_max=0 for this env"
)
NOT_BOX_MSG = (
    "AtariPreprocessing works on screen images: the observation space must be a Box, got {type}"
)


def _is_integer(value: Any) -> bool:
    return not isinstance(value, (bool, np.bool_)) and np.issubdtype(type(value), np.integer)


def _raw_env(env: Env[Any, Any]) -> Any:
    """The raw env (the Gymnasium one, for an ALE env built through Gymnasium's registry)."""
    raw: Any = env.unwrapped
    if isinstance(raw, GymnasiumEnv):
        raw = raw.gymnasium_env.unwrapped
    return raw


#: The observation types of ale-py's ``AtariEnv`` whose screens :class:`AtariPreprocessing` drops
#: during a repetition, and the one read instead meanwhile (the 128 bytes of RAM, not 100 KB).
_SCREEN_OBS_TYPES = frozenset({"rgb", "grayscale"})
_CHEAP_OBS_TYPE = "ram"


def _unlooked_layer(layer: Any) -> Any | None:
    """The env under ``layer`` when ``layer`` is a wrapper known to pass a step's observation up
    without reading it (once any first-step checks are done), else ``None``."""
    kind = unflavoured(type(layer))
    if kind is OrderEnforcing or kind is TimeLimit or kind is RecordEpisodeStatistics:
        return layer.env
    if kind is PassiveEnvChecker:
        return layer.env if layer.checked_step and layer.checked_data_reuse else None
    if isinstance(layer, GymnasiumEnv):
        return layer.gymnasium_env if layer._observation_converter is None else None
    theirs = sys.modules.get("gymnasium.wrappers.common")
    if theirs is None:
        return None
    if kind in (theirs.OrderEnforcing, theirs.TimeLimit, theirs.RecordEpisodeStatistics):
        return layer.env
    if kind is theirs.PassiveEnvChecker:
        return layer.env if layer.checked_step else None
    return None


def _ale_screen_source(env: Any) -> Any | None:
    """ale-py's ``AtariEnv`` under ``env``, when its per-frame observation is a screen that no
    layer between reads (see :meth:`AtariPreprocessing.step`); ``None`` otherwise."""
    layer = env
    while (below := _unlooked_layer(layer)) is not None:
        layer = below
    kind = type(layer)
    if kind.__module__ != "ale_py.env" or kind.__name__ != "AtariEnv":
        return None
    if getattr(layer, "_obs_type", None) not in _SCREEN_OBS_TYPES:
        return None
    if getattr(layer, "sound_obs", True):
        return None
    return layer


@contextlib.contextmanager
def _screens_skipped(env: Any) -> Iterator[None]:
    """While the block runs, ale-py's ``AtariEnv`` under ``env`` returns its RAM instead of a
    screen from each step, when no layer between reads it (else nothing changes)."""
    source = _ale_screen_source(env)
    if source is None:
        yield
        return
    obs_type = source._obs_type
    source._obs_type = _CHEAP_OBS_TYPE
    try:
        yield
    finally:
        source._obs_type = obs_type


def _check_screen_size(screen_size: Any) -> tuple[int, int]:
    """``screen_size`` as ``(width, height)``, or a ``ValueError``."""
    if _is_integer(screen_size) and screen_size > 0:
        return int(screen_size), int(screen_size)
    if (
        isinstance(screen_size, tuple)
        and len(screen_size) == 2
        and all(_is_integer(size) and size > 0 for size in screen_size)
    ):
        return int(screen_size[0]), int(screen_size[1])
    raise ValueError(SCREEN_SIZE_MSG.format(value=screen_size))


class AtariPreprocessing(Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Atari 2600 preprocessing (Machado et al., 2018), without frame stacking.

    The wrapped env must expose the Arcade Learning Environment as ``env.unwrapped.ale``
    (``lives()``, ``getScreenGrayscale(out)``, ``getScreenRGB(out)``), have its own frame
    skipping off (``env.unwrapped._frameskip == 1``) when ``frame_skip > 1``, and have action 0
    mean ``"NOOP"`` when ``noop_max > 0``. Stages:

    * no-op reset: after ``reset``, a random number of no-op steps in ``[1, noop_max]``, drawn
      from ``env.unwrapped.np_random`` (0 disables it);
    * frame skipping: each action is repeated ``frame_skip`` times, rewards summed;
    * max-pooling over the last two frames of the repetition;
    * optional termination on a lost life (``terminal_on_life_loss``);
    * resizing to ``screen_size`` (an int, or ``(width, height)`` as OpenCV orders it) with
      OpenCV's ``INTER_AREA`` (its numpy stand-in without OpenCV, see
      :func:`~vecgym.wrappers.utils.resize_image`);
    * grayscale (the ALE's own) by default, with an optional trailing channel axis
      (``grayscale_newaxis``);
    * optional scaling to float32 in ``[0, 1]`` (``scale_obs``).

    The observation space is ``Box(0, 255, (height, width[, channels]), uint8)``, or
    ``Box(0, 1, ..., float32)`` when scaled.

    Observations are Gymnasium's exactly (with OpenCV installed), also when an episode ends in
    the middle of a repetition: as in Gymnasium, the repetition then stops before the screen is
    read, so the observation pools screens left in the buffers by earlier frames (see
    :meth:`step`).

    A vecgym addition, with the same results: the wrapper reads the screens it needs from the ALE
    itself, so the observation each repeated frame's ``env.step`` builds is thrown away. When the
    env beneath is ale-py's ``AtariEnv`` and every layer between only passes observations up
    (``OrderEnforcing``, ``TimeLimit``, ``RecordEpisodeStatistics``, ``PassiveEnvChecker`` once
    its first steps are checked, the Gymnasium adapter of :func:`vecgym.make`, and Gymnasium's own
    four), those frames return
    the 128-byte RAM instead of a fresh screen copy: a fifth less time per step on Pong. Any
    other layer between (one that might read observations) keeps every frame's screen.

    Example:
        >>> import vecgym
        >>> env = vecgym.make("ALE/Pong-v5", frameskip=1)  # doctest: +SKIP
        >>> env = AtariPreprocessing(env, noop_max=10, screen_size=84)  # doctest: +SKIP
        >>> env.observation_space  # doctest: +SKIP
        Box(0, 255, (84, 84), uint8)
    """

    def __init__(
        self,
        env: Env[Any, Any],
        noop_max: int = 30,
        frame_skip: int = 4,
        screen_size: int | tuple[int, int] = 84,
        terminal_on_life_loss: bool = False,
        grayscale_obs: bool = True,
        grayscale_newaxis: bool = False,
        scale_obs: bool = False,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the Atari environment to wrap.
            noop_max: the most no-op steps after a reset; 0 turns no-op resets off.
            frame_skip: how many frames each action is repeated for (at least 1).
            screen_size: the output size, an int for a square or ``(width, height)``.
            terminal_on_life_loss: end the episode (``terminated=True``) when a life is lost.
            grayscale_obs: return grayscale frames instead of RGB.
            grayscale_newaxis: with ``grayscale_obs``, add a trailing channel axis of size 1.
            scale_obs: return float32 values in ``[0, 1]`` instead of uint8.

        Raises:
            TypeError: ``frame_skip`` or ``noop_max`` is not an integer, or the observation
                space is not a Box.
            ValueError: ``frame_skip`` or ``screen_size`` is not positive, ``noop_max`` is
                negative, the env skips frames itself, or action 0 is not ``"NOOP"``.
        """
        RecordConstructorArgs.__init__(
            self,
            noop_max=noop_max,
            frame_skip=frame_skip,
            screen_size=screen_size,
            terminal_on_life_loss=terminal_on_life_loss,
            grayscale_obs=grayscale_obs,
            grayscale_newaxis=grayscale_newaxis,
            scale_obs=scale_obs,
        )
        Wrapper.__init__(self, env)
        if not _is_integer(frame_skip):
            raise TypeError(FRAME_SKIP_TYPE_MSG.format(value=frame_skip))
        if frame_skip <= 0:
            raise ValueError(FRAME_SKIP_MSG.format(value=frame_skip))
        self.screen_size: tuple[int, int] = _check_screen_size(screen_size)
        if frame_skip > 1 and getattr(_raw_env(env), "_frameskip", None) != 1:
            raise ValueError(ENV_FRAMESKIP_MSG)
        if not _is_integer(noop_max):
            raise TypeError(NOOP_MAX_TYPE_MSG.format(value=noop_max))
        if noop_max < 0:
            raise ValueError(NOOP_MAX_MSG.format(value=noop_max))
        if noop_max > 0 and env.unwrapped.get_action_meanings()[0] != "NOOP":  # type: ignore[attr-defined]
            raise ValueError(NOOP_MEANING_MSG)
        space = env.observation_space
        if not isinstance(space, Box):
            raise TypeError(NOT_BOX_MSG.format(type=type(space)))

        self.noop_max = int(noop_max)
        self.frame_skip = int(frame_skip)
        self.terminal_on_life_loss = terminal_on_life_loss
        self.grayscale_obs = grayscale_obs
        self.grayscale_newaxis = grayscale_newaxis
        self.scale_obs = scale_obs
        screen_shape = space.shape[:2] if grayscale_obs else space.shape
        # obs_buffer[0] holds the newest captured screen, obs_buffer[1] the one before it.
        self.obs_buffer = [
            np.empty(screen_shape, dtype=np.uint8),
            np.empty(screen_shape, dtype=np.uint8),
        ]
        self.lives = 0
        self.game_over = False

        width, height = self.screen_size
        shape: tuple[int, ...] = (height, width, 1 if grayscale_obs else 3)
        if grayscale_obs and not grayscale_newaxis:
            shape = shape[:-1]
        if scale_obs:
            self.observation_space = Box(low=0, high=1, shape=shape, dtype=np.float32)
        else:
            self.observation_space = Box(low=0, high=255, shape=shape, dtype=np.uint8)

    @property
    def ale(self) -> Any:
        """The ALE interface of the innermost env (looked up each time, so pickling works)."""
        return self.env.unwrapped.ale  # type: ignore[attr-defined]

    def _capture(self, slot: int) -> None:
        """Read the current screen into ``obs_buffer[slot]``."""
        if self.grayscale_obs:
            self.ale.getScreenGrayscale(self.obs_buffer[slot])
        else:
            self.ale.getScreenRGB(self.obs_buffer[slot])

    def step(
        self, action: WrapperActType
    ) -> tuple[WrapperObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Repeat ``action`` for ``frame_skip`` frames and return the max-pooled last two screens.

        The screens of the last two frames are captured (the next-to-last into ``obs_buffer[1]``,
        the last into ``obs_buffer[0]``) and pooled into ``obs_buffer[0]``. As in Gymnasium, an
        episode that ends within the repeats stops them before that frame's screen is captured,
        so the observation then pools what the buffers hold (screens of earlier frames).
        """
        total_reward = 0.0
        terminated = truncated = False
        info: dict[str, Any] = {}
        with _screens_skipped(self.env):
            for t in range(self.frame_skip):
                _, reward, terminated, truncated, info = self.env.step(action)
                total_reward += float(reward)
                self.game_over = terminated
                if self.terminal_on_life_loss:
                    new_lives = self.ale.lives()
                    terminated = terminated or new_lives < self.lives
                    self.game_over = terminated
                    self.lives = new_lives
                if terminated or truncated:
                    break
                if t == self.frame_skip - 2:
                    self._capture(1)
                elif t == self.frame_skip - 1:
                    self._capture(0)
        return self._get_obs(), total_reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        """Reset the env, take the random no-op steps, and return the processed screen."""
        _, reset_info = self.env.reset(seed=seed, options=options)
        noops = 0
        if self.noop_max > 0:
            noops = int(self.env.unwrapped.np_random.integers(1, self.noop_max + 1))
        with _screens_skipped(self.env):
            for _ in range(noops):
                _, _, terminated, truncated, step_info = self.env.step(0)
                reset_info.update(step_info)
                if terminated or truncated:
                    _, reset_info = self.env.reset(seed=seed, options=options)
        self.lives = self.ale.lives()
        self._capture(0)
        self.obs_buffer[1].fill(0)
        return self._get_obs(), reset_info

    def _get_obs(self) -> Any:
        """``obs_buffer[0]`` max-pooled in place with ``obs_buffer[1]`` (when frames are skipped),
        resized and scaled."""
        if self.frame_skip > 1:
            np.maximum(self.obs_buffer[0], self.obs_buffer[1], out=self.obs_buffer[0])
        width, height = self.screen_size
        obs = resize_image(self.obs_buffer[0], (height, width))
        if self.scale_obs:
            obs = obs.astype(np.float32) / 255.0
        if self.grayscale_obs and self.grayscale_newaxis:
            obs = obs[..., np.newaxis]
        return obs
