"""Write rendered frames to mp4 files: Gymnasium's ``gymnasium.utils.save_video`` module.

* :func:`save_video` cuts a list of frames (typically one episode of an ``"rgb_array_list"``
  environment) into videos chosen by an episode and/or a step trigger;
* :func:`capped_cubic_video_schedule` is the default episode trigger, here and in
  :class:`vecgym.wrappers.RecordVideo`;
* :func:`load_video_encoder` imports the optional ``video`` extra (imageio-ffmpeg) and returns the
  function that writes an mp4 file. It is the single hook through which both :func:`save_video`
  and the ``RecordVideo`` wrappers get their encoder, so tests can swap it for a fake.

Gymnasium encodes with moviepy; vecgym encodes with imageio-ffmpeg (which ships its own ffmpeg
binary), so the extra keyword arguments of :func:`save_video` are the two moviepy clip arguments
that set the frame rate (``fps`` or ``durations``) rather than every moviepy option. Every video
holds every frame of its clip: moviepy's ``ImageSequenceClip`` adds up the frame durations in
floating point and, for some lengths and frame rates, drops the last frame (8 frames at 10 fps,
6 at 30; moviepy issue #2507), so Gymnasium's videos can be one frame short. vecgym's are not.
"""

from __future__ import annotations

import functools
import numbers
import os
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from vecgym import logger
from vecgym._extras import import_extra

__all__ = ["capped_cubic_video_schedule", "load_video_encoder", "save_video"]

VIDEO_EXTRA_MSG = (
    "encoding videos needs imageio-ffmpeg, which vecgym does not depend on; "
    'install it with `pip install "vecgym[video]"`'
)
VIDEO_FRAME_MSG = (
    "a video frame must be a uint8 array of shape (height, width), (height, width, 3) or "
    "(height, width, 4) with the size of the first frame {size}, got {dtype} of shape {shape}"
)
FRAMES_NOT_LIST_MSG = "save_video expects the frames as a list, got {type}"
EMPTY_CLIP_MSG = "{path} was not written: the clip has no frames"
SAVE_VIDEO_LENGTH_MSG = "video_length must be None or a positive integer, got {value!r}"
FPS_MISSING_MSG = "save_video must be given the frame rate: pass either `fps` or `durations`"
FPS_BOTH_MSG = "save_video takes either `fps` or `durations`, not both"
FPS_VALUE_MSG = "fps must be a positive number, got {value!r}"
DURATIONS_VALUE_MSG = (
    "durations must be a non-empty list of equal, positive per-frame durations (seconds), got "
    "{value!r}; videos with a variable frame rate are not supported"
)
UNKNOWN_KWARGS_MSG = (
    "save_video got unexpected keyword arguments {names}; the accepted extras are `fps` and "
    "`durations`"
)

#: The episode from which the default schedule records every thousandth episode, not the cubes.
_CUBIC_SCHEDULE_CAP = 1000

VideoEncoder = Callable[[Sequence[np.ndarray], str, float, bool], None]
"""``encode(frames, path, fps, quiet)``: write ``frames`` to the mp4 file ``path``."""


# --- schedule and encoder -------------------------------------------------------------------------
def capped_cubic_video_schedule(episode_id: int) -> bool:
    """The default episode trigger of :func:`save_video` and ``RecordVideo``.

    Below episode 1000 it fires on the perfect cubes (0, 1, 8, 27, ..., 729); from 1000 on, on
    every multiple of 1000.

    Args:
        episode_id: the episode's index, counted from 0.

    Returns:
        Whether the episode is recorded.

    Example:
        >>> [i for i in range(3000) if capped_cubic_video_schedule(i)]
        [0, 1, 8, 27, 64, 125, 216, 343, 512, 729, 1000, 2000]
    """
    if episode_id < _CUBIC_SCHEDULE_CAP:
        return bool(round(episode_id ** (1.0 / 3)) ** 3 == episode_id)
    return episode_id % _CUBIC_SCHEDULE_CAP == 0


def load_video_encoder() -> VideoEncoder:
    """Import the ``video`` extra and return the function that writes mp4 files.

    This is the one place the video writers get their encoder from, so tests can replace it.

    Raises:
        DependencyNotInstalled: imageio-ffmpeg is missing; the message names the ``video`` extra.
    """
    return functools.partial(_write_mp4, import_extra("imageio_ffmpeg", VIDEO_EXTRA_MSG))


def _rgb_frame(frame: Any, size: tuple[int, int] | None) -> np.ndarray:
    """``frame`` as a contiguous ``(height, width, 3)`` uint8 array (gray expanded, alpha dropped).

    Raises:
        ValueError: the frame is not a uint8 image, or (given ``size``) not of that size.
    """
    array = np.asarray(frame)
    if array.ndim == 3 and array.shape[2] == 1:
        array = array[..., 0]
    good_channels = array.ndim == 2 or (array.ndim == 3 and array.shape[2] in (3, 4))
    good_size = size is None or array.shape[:2] == size
    if array.dtype != np.uint8 or not good_channels or not good_size:
        raise ValueError(VIDEO_FRAME_MSG.format(size=size, dtype=array.dtype, shape=array.shape))
    if array.ndim == 2:
        array = np.repeat(array[..., None], 3, axis=2)
    return np.ascontiguousarray(array[..., :3])


def _write_mp4(
    backend: ModuleType, frames: Sequence[Any], path: str, fps: float, quiet: bool
) -> None:
    """Encode ``frames`` as an H.264 mp4 file at ``path`` with imageio-ffmpeg (``backend``).

    The frames keep their size (no resizing to macro blocks); sizes with an odd side are encoded
    in 4:4:4 chroma, since 4:2:0 needs even sides.
    """
    first = _rgb_frame(frames[0], None)
    height, width = first.shape[:2]
    writer = backend.write_frames(
        path,
        (width, height),
        fps=fps,
        codec="libx264",
        pix_fmt_in="rgb24",
        pix_fmt_out="yuv420p" if height % 2 == 0 and width % 2 == 0 else "yuv444p",
        macro_block_size=1,
        ffmpeg_log_level="error" if quiet else "info",
    )
    writer.send(None)  # start ffmpeg
    try:
        for frame in frames:
            writer.send(_rgb_frame(frame, (height, width)))
    finally:
        writer.close()


# --- save_video -----------------------------------------------------------------------------------
def _is_positive_number(value: Any) -> bool:
    """Whether ``value`` is a real, finite number above zero (``bool`` excluded)."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return False
    number = float(value)
    return bool(np.isfinite(number)) and number > 0


def _frame_rate(kwargs: dict[str, Any]) -> float:
    """The frames per second that ``save_video``'s extra keyword arguments ask for.

    Raises:
        TypeError: an argument other than ``fps`` and ``durations`` was given.
        ValueError: neither or both of them were given, or the value is not usable.
    """
    unknown = sorted(set(kwargs) - {"fps", "durations"})
    if unknown:
        raise TypeError(UNKNOWN_KWARGS_MSG.format(names=unknown))
    fps = kwargs.get("fps")
    durations = kwargs.get("durations")
    if fps is None and durations is None:
        raise ValueError(FPS_MISSING_MSG)
    if fps is not None and durations is not None:
        raise ValueError(FPS_BOTH_MSG)
    if fps is not None:
        if not _is_positive_number(fps):
            raise ValueError(FPS_VALUE_MSG.format(value=fps))
        return float(fps)
    if (
        not isinstance(durations, Sequence)
        or len(durations) == 0
        or not all(_is_positive_number(d) for d in durations)
        or not np.allclose(durations, durations[0])
    ):
        raise ValueError(DURATIONS_VALUE_MSG.format(value=durations))
    return 1.0 / float(durations[0])


def _check_video_length(video_length: int | None) -> None:
    """Raise ``ValueError`` unless ``video_length`` is ``None`` or a positive integer."""
    if video_length is None:
        return
    if (
        isinstance(video_length, bool)
        or not isinstance(video_length, numbers.Integral)
        or video_length < 1
    ):
        raise ValueError(SAVE_VIDEO_LENGTH_MSG.format(value=video_length))


def _write_clip(frames: Sequence[Any], path: str, fps: float, quiet: bool) -> None:
    """Encode one clip, or warn and skip it when it has no frames."""
    if len(frames) == 0:
        logger.warn(EMPTY_CLIP_MSG.format(path=path))
        return
    load_video_encoder()(frames, path, fps, quiet)


def save_video(
    frames: list[Any],
    video_folder: str,
    episode_trigger: Callable[[int], bool] | None = None,
    step_trigger: Callable[[int], bool] | None = None,
    video_length: int | None = None,
    name_prefix: str = "rl-video",
    episode_index: int = 0,
    step_starting_index: int = 0,
    save_logger: str | None = None,
    **kwargs: Any,
) -> None:
    """Save videos cut from the frames of one episode.

    ``frames[0]`` is taken to be the frame after ``reset`` and ``frames[k]`` the frame after the
    episode's ``k``-th step, whose step index is ``step_starting_index + k - 1``.

    * If ``episode_trigger(episode_index)`` is true, the first ``video_length`` frames (all of
      them when ``video_length`` is ``None``) are saved as
      ``{video_folder}/{name_prefix}-episode-{episode_index}.mp4``.
    * For every step whose index ``i`` makes ``step_trigger(i)`` true, the frames from that step
      on (``video_length`` of them, or all the rest) are saved as
      ``{video_folder}/{name_prefix}-step-{i}.mp4``; the reset frame never starts a step video.

    Without either trigger, :func:`capped_cubic_video_schedule` is the episode trigger. The folder
    is created if needed; existing files of the same name are overwritten. A clip with no frames
    is skipped with a warning.

    Args:
        frames: the frames, uint8 arrays of one size (``(h, w)``, ``(h, w, 3)`` or ``(h, w, 4)``).
            Another sequence type is used as it is, after an error message (as Gymnasium does).
        video_folder: the folder the videos are written to.
        episode_trigger: given the episode index, whether to save the episode's video.
        step_trigger: given a step index, whether to save a video starting at that step.
        video_length: the most frames a video holds; ``None`` for no limit.
        name_prefix: the start of each video's file name.
        episode_index: the index of the episode the frames come from.
        step_starting_index: the step index of the episode's first step (``frames[1]``).
        save_logger: ``None`` keeps the encoder quiet; anything else (Gymnasium's ``"bar"``)
            lets it report its progress.
        **kwargs: the frame rate, as moviepy's clip takes it: ``fps=`` (frames per second) or
            ``durations=`` (a list of equal per-frame durations in seconds).

    Raises:
        ValueError: ``video_length`` is not ``None`` or a positive integer; or, once a video is
            due, the frame rate is missing or unusable, or a frame is not a uint8 image of the
            first frame's size.
        TypeError: a video is due and an extra keyword argument other than ``fps`` and
            ``durations`` was given.
        DependencyNotInstalled: a video is due and the ``video`` extra is not installed.

    Example:
        >>> import vecgym
        >>> from vecgym.utils.save_video import save_video
        >>> env = vecgym.make("CartPole-v1", render_mode="rgb_array_list")
        >>> _ = env.reset(seed=0)
        >>> done = False
        >>> while not done:
        ...     _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        ...     done = terminated or truncated
        >>> save_video(env.render(), "videos", fps=env.metadata["render_fps"])  # doctest: +SKIP
        >>> env.close()
    """
    if not isinstance(frames, list):
        logger.error(FRAMES_NOT_LIST_MSG.format(type=type(frames)))
    _check_video_length(video_length)
    if episode_trigger is None and step_trigger is None:
        episode_trigger = capped_cubic_video_schedule

    video_folder = os.path.abspath(video_folder)
    os.makedirs(video_folder, exist_ok=True)
    path_prefix = os.path.join(video_folder, name_prefix)

    clips: list[tuple[Sequence[Any], str]] = []
    if episode_trigger is not None and episode_trigger(episode_index):
        clips.append((frames[:video_length], f"{path_prefix}-episode-{episode_index}.mp4"))
    if step_trigger is not None:
        for frame_index in range(1, len(frames)):
            step_index = step_starting_index + frame_index - 1
            if step_trigger(step_index):
                end = None if video_length is None else frame_index + video_length
                clips.append((frames[frame_index:end], f"{path_prefix}-step-{step_index}.mp4"))
    if not clips:
        return

    fps = _frame_rate(kwargs)  # only checked when a video is due, as Gymnasium's moviepy clip does
    for clip_frames, path in clips:
        _write_clip(clip_frames, path, fps, quiet=save_logger is None)
