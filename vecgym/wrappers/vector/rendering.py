"""Rendering vector envs: :class:`RecordVideo` (mp4 files) and :class:`HumanRendering` (a window).

Both tile the sub-environments' frames into one image. Video encoding uses the ``video`` extra
(via :func:`vecgym.wrappers.rendering.load_video_encoder`) and the window the ``human`` extra
(pygame); each is imported only when needed and raises
:class:`vecgym.error.DependencyNotInstalled` naming the extra when missing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from vecgym import logger
from vecgym.core.env import ActType, ObsType
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.vector.vector_env import ArrayType, AutoresetMode, VectorEnv, VectorWrapper
from vecgym.wrappers.rendering import (
    VIDEO_FOLDER_EXISTS_MSG,
    VIDEO_LENGTH_MSG,
    VIDEO_RENDER_MODE_MSG,
    HumanWindowMixin,
    VideoRecorderMixin,
    capped_cubic_video_schedule,
    import_pygame,
    load_video_encoder,
)
from vecgym.wrappers.utils import resize_image
from vecgym.wrappers.vector._episodes import autoreset_mode_of

__all__ = ["HumanRendering", "RecordVideo"]

FRAMES_MSG = "Expected env.render() to return one numpy frame per sub-environment ({n}), got {got}"
SAME_STEP_VIDEO_MSG = (
    "The vector env's autoreset mode is SAME_STEP: recorded episodes will not contain their last "
    "frame."
)


def _frames(envs: VectorEnv[Any, Any, Any], frames: Any) -> list[np.ndarray]:
    """``frames`` (one per sub-env) as a list of arrays, checked."""
    if not isinstance(frames, Sequence) or len(frames) != envs.num_envs:
        raise ValueError(FRAMES_MSG.format(n=envs.num_envs, got=type(frames)))
    arrays = [np.asarray(frame) for frame in frames]
    if not all(isinstance(frame, np.ndarray) for frame in frames):
        raise ValueError(FRAMES_MSG.format(n=envs.num_envs, got=[type(f) for f in frames]))
    return arrays


def tile_frames(frames: Sequence[np.ndarray], rows: int, cols: int) -> np.ndarray:
    """Place equally sized frames on a ``rows x cols`` grid, row by row (blank cells are zero)."""
    height, width = frames[0].shape[:2]
    grid = np.zeros((rows * height, cols * width, *frames[0].shape[2:]), dtype=frames[0].dtype)
    for index, frame in enumerate(frames):
        row, col = divmod(index, cols)
        grid[row * height : (row + 1) * height, col * width : (col + 1) * width] = frame
    return grid


def grid_for_aspect(
    n_frames: int, height: int, width: int, aspect: tuple[int, int]
) -> tuple[int, int]:
    """The ``(rows, cols)`` grid of ``n_frames`` frames whose image is closest to ``aspect``."""
    target = aspect[0] / aspect[1]
    best, best_diff = (1, n_frames), np.inf
    for rows in range(1, int(n_frames**0.5) + 1):
        if n_frames % rows == 0:
            cols = n_frames // rows
            diff = abs(cols * width / (rows * height) - target)
            if diff < best_diff:
                best, best_diff = (rows, cols), diff
    return best


class RecordVideo(
    VideoRecorderMixin,
    VectorWrapper[ObsType, ActType, ObsType, ActType, ArrayType],
    RecordConstructorArgs,
):
    """Records videos of a vector env, every sub-environment's frame tiled into one image.

    Episodes are counted on sub-environment 0 (its autoreset marks a new episode), and recording
    starts when ``episode_trigger(episode_id)`` or ``step_trigger(step_id)`` is true (by default
    :func:`vecgym.wrappers.rendering.capped_cubic_video_schedule` on episodes). A recording stops
    after ``video_length`` frames, or at the end of the episode when ``video_length`` is 0. The
    frames are tiled on the grid closest to ``video_aspect_ratio`` (only env 0 with
    ``record_first_only``). With ``SAME_STEP`` autoreset the last frame of each episode is lost.

    Raises:
        ValueError: the env's render mode does not return images, or ``video_length`` is negative.
        DependencyNotInstalled: the ``video`` extra is missing.
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        video_folder: str,
        video_aspect_ratio: tuple[int, int] = (1, 1),
        record_first_only: bool = False,
        episode_trigger: Callable[[int], bool] | None = None,
        step_trigger: Callable[[int], bool] | None = None,
        video_length: int = 0,
        name_prefix: str = "rl-video",
        fps: int | None = None,
        disable_logger: bool = True,
        gc_trigger: Callable[[int], bool] | None = lambda episode: True,
    ) -> None:
        """Wrap ``env``; the arguments are those of Gymnasium's vector ``RecordVideo``."""
        VectorWrapper.__init__(self, env)
        RecordConstructorArgs.__init__(
            self,
            video_folder=video_folder,
            episode_trigger=episode_trigger,
            step_trigger=step_trigger,
            video_length=video_length,
            name_prefix=name_prefix,
            disable_logger=disable_logger,
        )
        if env.render_mode in (None, "human", "ansi"):
            raise ValueError(VIDEO_RENDER_MODE_MSG.format(render_mode=env.render_mode))
        if isinstance(video_length, bool) or not isinstance(video_length, int) or video_length < 0:
            raise ValueError(VIDEO_LENGTH_MSG.format(value=video_length))
        load_video_encoder()  # fail now, not when the first video is saved
        if episode_trigger is None and step_trigger is None:
            episode_trigger = capped_cubic_video_schedule
        self.autoreset_mode = autoreset_mode_of(env, type(self).__name__)
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            logger.warn(SAME_STEP_VIDEO_MSG)
        self.episode_trigger = episode_trigger
        self.step_trigger = step_trigger
        self.gc_trigger = gc_trigger
        self.disable_logger = disable_logger
        self.record_first_only = record_first_only
        self.video_aspect_ratio = video_aspect_ratio
        self.video_folder = os.path.abspath(video_folder)
        if os.path.isdir(self.video_folder):
            logger.warn(VIDEO_FOLDER_EXISTS_MSG.format(folder=self.video_folder))
        os.makedirs(self.video_folder, exist_ok=True)
        self.frames_per_sec = fps if fps is not None else self.metadata.get("render_fps", 30)
        self.name_prefix = name_prefix
        self.video_length: float = video_length if video_length != 0 else float("inf")
        self.recording = False
        self.recorded_frames: list[np.ndarray] = []
        self._video_name: str | None = None
        self._grid: tuple[int, int] | None = None
        self.has_autoreset = False
        self.step_id = -1
        self.episode_id = -1

    def _capture_frame(self) -> None:
        frames = _frames(self, self.env.render())
        if self.record_first_only:
            frames = frames[:1]
        if self._grid is None:
            height, width = frames[0].shape[:2]
            self._grid = grid_for_aspect(len(frames), height, width, self.video_aspect_ratio)
        self.recorded_frames.append(tile_frames(frames, *self._grid))
        if len(self.recorded_frames) > self.video_length:
            self.stop_recording()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the env; a reset of env 0 starts a new episode (and maybe a recording)."""
        if options is None or "reset_mask" not in options or options["reset_mask"][0]:
            self._new_episode()
        result = self.env.reset(seed=seed, options=options)
        if self.recording:
            self._capture_frame()
        self.has_autoreset = False
        return result

    def step(
        self, actions: ActType
    ) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the env, recording the frame when a recording is on."""
        obs, rewards, terminations, truncations, infos = self.env.step(actions)
        self.step_id += 1
        first_done = bool(np.asarray(terminations)[0] or np.asarray(truncations)[0])
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            if self.has_autoreset:
                self._new_episode()
            self.has_autoreset = first_done
        elif self.autoreset_mode is AutoresetMode.SAME_STEP and first_done:
            self._new_episode()
        if self.step_trigger is not None and self.step_trigger(self.step_id):
            self.start_recording(f"{self.name_prefix}-step-{self.step_id}")
        if self.recording:
            self._capture_frame()
        return obs, rewards, terminations, truncations, infos

    def close(self, **kwargs: Any) -> None:
        """Close the env, then save the recording in progress."""
        self.env.close(**kwargs)
        if self.recording:
            self.stop_recording()


class HumanRendering(
    HumanWindowMixin,
    VectorWrapper[ObsType, ActType, ObsType, ActType, ArrayType],
    RecordConstructorArgs,
):
    """Shows the sub-environments' ``rgb_array`` frames, tiled, in a pygame window.

    The window is ``screen_size`` (``(width, height)``; by default one sub-env frame's size) and
    the frames are scaled to fit a grid of cells with the frames' aspect ratio. A frame is drawn
    after every ``reset`` and ``step``, at ``metadata["render_fps"]``.

    Raises:
        ValueError: the env's render mode is not an array mode, or it has no ``render_fps``.
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        screen_size: tuple[int, int] | None = None,
    ) -> None:
        """Wrap ``env``."""
        VectorWrapper.__init__(self, env)
        RecordConstructorArgs.__init__(self, screen_size=screen_size)
        self.screen_size = screen_size
        self.scaled_subenv_size: tuple[int, int] | None = None
        self.num_rows: int | None = None
        self.num_cols: int | None = None
        self.window: Any = None
        self.clock: Any = None
        self._check_renderable(env.render_mode, env.metadata)

    @property
    def render_mode(self) -> str:  # type: ignore[override]
        """Always ``"human"``."""
        return "human"

    def step(
        self, actions: ActType
    ) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, dict[str, Any]]:
        """Step the env and draw its frames."""
        result = self.env.step(actions)
        self._render_frame()
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the env and draw its frames."""
        result = self.env.reset(seed=seed, options=options)
        self._render_frame()
        return result

    def _layout(self, frame_height: int, frame_width: int) -> None:
        """Choose the grid and the scaled cell size for frames of this size."""
        assert self.screen_size is not None
        screen_width, screen_height = self.screen_size
        rows, cols = 1, 1
        while rows * cols < self.num_envs:
            row_extent, col_extent = (
                rows * frame_height / screen_height,
                cols * frame_width / screen_width,
            )
            if row_extent == col_extent:
                rows, cols = rows + 1, cols + 1
            elif row_extent > col_extent:
                cols += 1
            else:
                rows += 1
        scale = min(screen_width / (cols * frame_width), screen_height / (rows * frame_height))
        self.num_rows, self.num_cols = rows, cols
        self.scaled_subenv_size = (int(frame_width * scale), int(frame_height * scale))

    def _render_frame(self) -> None:
        pygame = import_pygame()
        frames: Any = self.env.render()
        if self.env.render_mode is not None and self.env.render_mode.endswith("_list"):
            frames = [frame_list[-1] for frame_list in frames]
        arrays = [np.asarray(f, dtype=np.uint8) for f in _frames(self, frames)]
        frame_height, frame_width = arrays[0].shape[:2]
        if self.screen_size is None:
            self.screen_size = (frame_width, frame_height)
        if self.scaled_subenv_size is None:
            self._layout(frame_height, frame_width)
        assert self.scaled_subenv_size is not None
        assert self.num_cols is not None
        cell_width, cell_height = self.scaled_subenv_size
        screen_width, screen_height = self.screen_size
        canvas = np.zeros((screen_height, screen_width, 3), dtype=np.uint8)
        for index, frame in enumerate(arrays):
            row, col = divmod(index, self.num_cols)
            scaled = resize_image(frame[..., :3], (cell_height, cell_width))
            top, left = row * cell_height, col * cell_width
            canvas[top : top + cell_height, left : left + cell_width] = scaled
        self._show_in_window(pygame, np.transpose(canvas, (1, 0, 2)))

    def close(self, **kwargs: Any) -> None:
        """Close the window, then the env."""
        self._close_window()
        self.env.close(**kwargs)
