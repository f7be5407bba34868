"""vecgym.utils.save_video: cutting frames into videos, the schedule and the encoder hook.

The encoder is replaced by a recorder (through ``save_video_module.load_video_encoder``) except in
the tests that encode for real with imageio-ffmpeg, among them the differential tests against
Gymnasium's own save_video and its encoder, moviepy (each skipped where its package is missing).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.support.messages import message_pattern
from tests.support.videos import assert_as_moviepy_wrote, decode_mp4
from vecgym import error
from vecgym.utils import save_video as save_video_module
from vecgym.utils.save_video import (
    DURATIONS_VALUE_MSG,
    EMPTY_CLIP_MSG,
    FPS_BOTH_MSG,
    FPS_MISSING_MSG,
    FPS_VALUE_MSG,
    FRAMES_NOT_LIST_MSG,
    SAVE_VIDEO_LENGTH_MSG,
    VIDEO_EXTRA_MSG,
    VIDEO_FRAME_MSG,
    capped_cubic_video_schedule,
    save_video,
)


def _frames(count: int) -> list[np.ndarray]:
    """``count`` 4x6 frames whose pixels hold the frame's index."""
    return [np.full((4, 6, 3), index, dtype=np.uint8) for index in range(count)]


class FakeEncoder:
    """Records each video it is asked to write (by file name: frame indices, fps, quiet)."""

    def __init__(self) -> None:
        self.videos: dict[str, list[int]] = {}
        self.calls: list[tuple[str, float, bool]] = []

    def __call__(self, frames: Sequence[np.ndarray], path: str, fps: float, quiet: bool) -> None:
        name = os.path.basename(path)
        self.videos[name] = [int(frame[0, 0, 0]) for frame in frames]
        self.calls.append((name, fps, quiet))
        Path(path).touch()


@pytest.fixture
def encoder(monkeypatch: pytest.MonkeyPatch) -> FakeEncoder:
    fake = FakeEncoder()
    monkeypatch.setattr(save_video_module, "load_video_encoder", lambda: fake)
    return fake


# --- schedule and module layout -------------------------------------------------------------------
def test_capped_cubic_schedule() -> None:
    fired = [i for i in range(5001) if capped_cubic_video_schedule(i)]
    assert fired == [0, 1, 8, 27, 64, 125, 216, 343, 512, 729, 1000, 2000, 3000, 4000, 5000]


def test_rendering_wrappers_use_this_home() -> None:
    rendering = importlib.import_module("vecgym.wrappers.rendering")
    assert rendering.capped_cubic_video_schedule is capped_cubic_video_schedule
    assert rendering.load_video_encoder is save_video_module.load_video_encoder
    assert capped_cubic_video_schedule.__module__ == "vecgym.utils.save_video"


# --- which clips are written ----------------------------------------------------------------------
def test_default_trigger_saves_scheduled_episodes(tmp_path: Path, encoder: FakeEncoder) -> None:
    for episode in range(3):
        save_video(_frames(3), str(tmp_path), fps=10, episode_index=episode)
    assert encoder.videos == {
        "rl-video-episode-0.mp4": [0, 1, 2],
        "rl-video-episode-1.mp4": [0, 1, 2],
    }
    assert sorted(os.listdir(tmp_path)) == ["rl-video-episode-0.mp4", "rl-video-episode-1.mp4"]


def test_episode_video_length_and_prefix(tmp_path: Path, encoder: FakeEncoder) -> None:
    save_video(
        _frames(6),
        str(tmp_path / "new" / "folder"),
        episode_trigger=lambda ep: True,
        video_length=4,
        name_prefix="cp",
        episode_index=7,
        fps=10,
    )
    assert encoder.videos == {"cp-episode-7.mp4": [0, 1, 2, 3]}
    assert (tmp_path / "new" / "folder" / "cp-episode-7.mp4").exists()


def test_step_trigger_skips_the_reset_frame(tmp_path: Path, encoder: FakeEncoder) -> None:
    # frames[k] follows the step with index step_starting_index + k - 1
    save_video(
        _frames(6),
        str(tmp_path),
        step_trigger=lambda step: step in (10, 13),
        step_starting_index=10,
        fps=10,
    )
    assert encoder.videos == {
        "rl-video-step-10.mp4": [1, 2, 3, 4, 5],
        "rl-video-step-13.mp4": [4, 5],
    }


def test_step_trigger_with_video_length(tmp_path: Path, encoder: FakeEncoder) -> None:
    save_video(_frames(6), str(tmp_path), step_trigger=lambda s: s % 2 == 0, video_length=2, fps=5)
    assert encoder.videos == {
        "rl-video-step-0.mp4": [1, 2],
        "rl-video-step-2.mp4": [3, 4],
        "rl-video-step-4.mp4": [5],
    }


def test_both_triggers(tmp_path: Path, encoder: FakeEncoder) -> None:
    save_video(
        _frames(3),
        str(tmp_path),
        episode_trigger=lambda ep: ep == 1,
        step_trigger=lambda s: s == 0,
        episode_index=1,
        fps=5,
    )
    assert encoder.videos == {"rl-video-episode-1.mp4": [0, 1, 2], "rl-video-step-0.mp4": [1, 2]}


def test_frame_rate_and_logger(tmp_path: Path, encoder: FakeEncoder) -> None:
    save_video(_frames(2), str(tmp_path), fps=24)
    save_video(_frames(2), str(tmp_path), durations=[0.25, 0.25], episode_index=1)
    save_video(_frames(2), str(tmp_path), fps=24, episode_index=8, save_logger="bar")
    assert encoder.calls == [
        ("rl-video-episode-0.mp4", 24.0, True),
        ("rl-video-episode-1.mp4", 4.0, True),
        ("rl-video-episode-8.mp4", 24.0, False),
    ]


def test_empty_clip_is_skipped_with_a_warning(tmp_path: Path, encoder: FakeEncoder) -> None:
    with pytest.warns(UserWarning, match=message_pattern(EMPTY_CLIP_MSG)):
        save_video([], str(tmp_path), fps=10)
    assert encoder.videos == {}


def test_frames_not_a_list_reports_an_error(tmp_path: Path, encoder: FakeEncoder) -> None:
    with pytest.warns(UserWarning, match=message_pattern(FRAMES_NOT_LIST_MSG)):
        save_video(tuple(_frames(2)), str(tmp_path), fps=10)  # type: ignore[arg-type]
    assert encoder.videos == {"rl-video-episode-0.mp4": [0, 1]}


# --- bad arguments --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({}, ValueError, message_pattern(FPS_MISSING_MSG)),
        ({"fps": 10, "durations": [0.1]}, ValueError, message_pattern(FPS_BOTH_MSG)),
        ({"fps": 0}, ValueError, message_pattern(FPS_VALUE_MSG)),
        ({"fps": True}, ValueError, message_pattern(FPS_VALUE_MSG)),
        ({"durations": [0.1, 0.2]}, ValueError, message_pattern(DURATIONS_VALUE_MSG)),
        ({"durations": []}, ValueError, message_pattern(DURATIONS_VALUE_MSG)),
        ({"fps": 10, "codec": "x"}, TypeError, r"unexpected keyword arguments \['codec'\]"),
    ],
)
def test_bad_frame_rate_arguments(
    tmp_path: Path, encoder: FakeEncoder, kwargs: dict[str, Any], exc: type, match: str
) -> None:
    with pytest.raises(exc, match=match):
        save_video(_frames(2), str(tmp_path), **kwargs)
    assert encoder.videos == {}


def test_frame_rate_is_only_needed_when_a_video_is_due(
    tmp_path: Path, encoder: FakeEncoder
) -> None:
    save_video(_frames(2), str(tmp_path), episode_index=2)  # not scheduled: nothing to encode
    assert encoder.videos == {}


@pytest.mark.parametrize("video_length", [0, -1, 2.5, True])
def test_bad_video_length(tmp_path: Path, encoder: FakeEncoder, video_length: Any) -> None:
    with pytest.raises(ValueError, match=message_pattern(SAVE_VIDEO_LENGTH_MSG)):
        save_video(_frames(2), str(tmp_path), video_length=video_length, fps=10)


def test_missing_extra_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(VIDEO_EXTRA_MSG)):
        save_video(_frames(2), str(tmp_path), fps=10)


# --- differential: the same videos as Gymnasium's save_video --------------------------------------
@pytest.fixture(scope="module")
def gymnasium_save_video() -> Any:
    """Gymnasium's save_video with its own encoder, moviepy (both skipped where missing)."""
    pytest.importorskip("moviepy")
    pytest.importorskip("imageio_ffmpeg")
    return pytest.importorskip("gymnasium.utils.save_video")


def _decoded(folder: Path) -> dict[str, list[int]]:
    """Every mp4 in ``folder``: its name -> the index each frame shows (``_video_frames``)."""
    videos = {}
    for path in sorted(folder.glob("*.mp4")):
        frames = decode_mp4(path, *VIDEO_FRAME_SHAPE[:2])
        videos[path.name] = [round(float(frame.mean()) / 30) for frame in frames]
    return videos


VIDEO_FRAME_SHAPE = (16, 24, 3)


def _video_frames(count: int) -> list[np.ndarray]:
    """``count`` 16x24 frames, frame ``i`` a flat gray of ``30 * i`` (lossy encoding keeps i)."""
    return [np.full(VIDEO_FRAME_SHAPE, 30 * index, dtype=np.uint8) for index in range(count)]


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"episode_index": 8, "video_length": 3},
        {"episode_trigger": lambda ep: False, "step_trigger": lambda s: s % 3 == 1},
        {"step_trigger": lambda s: s > 5, "video_length": 2, "step_starting_index": 4},
        {"episode_trigger": lambda ep: True, "step_trigger": lambda s: s == 0, "video_length": 9},
    ],
)
def test_same_videos_as_gymnasium(
    tmp_path: Path,
    gymnasium_save_video: Any,
    kwargs: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both encode for real (moviepy, imageio-ffmpeg); ``assert_as_moviepy_wrote`` says what
    must match (moviepy drops the last frame of some clips: CHANGELOG)."""
    handed: dict[str, list[int]] = {}
    clip_type = gymnasium_save_video.ImageSequenceClip

    class NotingClip(clip_type):  # type: ignore[misc, valid-type]
        """moviepy's clip, noting the frames it was given and the file it writes them to."""

        def __init__(self, sequence: Sequence[np.ndarray], **clip_kwargs: Any) -> None:
            self.noted = [int(frame[0, 0, 0]) // 30 for frame in sequence]
            super().__init__(sequence, **clip_kwargs)

        def write_videofile(self, filename: str, *args: Any, **write_kwargs: Any) -> Any:
            handed[os.path.basename(filename)] = self.noted
            return super().write_videofile(filename, *args, **write_kwargs)

    monkeypatch.setattr(gymnasium_save_video, "ImageSequenceClip", NotingClip)
    frames = _video_frames(8)
    gymnasium_save_video.save_video(frames, str(tmp_path / "gymnasium"), fps=10, **kwargs)
    save_video(frames, str(tmp_path / "vecgym"), fps=10, **kwargs)
    assert_as_moviepy_wrote(handed, _decoded(tmp_path / "gymnasium"), _decoded(tmp_path / "vecgym"))


def test_same_schedule_as_gymnasium(gymnasium_save_video: Any) -> None:
    assert gymnasium_save_video.capped_cubic_video_schedule(343) is True
    assert [capped_cubic_video_schedule(i) for i in range(2100)] == [
        bool(gymnasium_save_video.capped_cubic_video_schedule(i)) for i in range(2100)
    ]


# --- a real encode --------------------------------------------------------------------------------
def test_real_encode_writes_mp4s(tmp_path: Path) -> None:
    pytest.importorskip("imageio_ffmpeg")
    frames = [np.full((16, 24, 3), 30 * index, dtype=np.uint8) for index in range(5)]
    save_video(frames, str(tmp_path), step_trigger=lambda s: s == 1, video_length=2, fps=10)
    video = tmp_path / "rl-video-step-1.mp4"
    assert video.stat().st_size > 0
    assert video.read_bytes()[4:8] == b"ftyp"  # an MP4 container


def test_real_encoder_rejects_mixed_frame_sizes(tmp_path: Path) -> None:
    pytest.importorskip("imageio_ffmpeg")
    frames = [np.zeros((4, 4, 3), dtype=np.uint8), np.zeros((6, 4, 3), dtype=np.uint8)]
    with pytest.raises(ValueError, match=message_pattern(VIDEO_FRAME_MSG)):
        save_video(frames, str(tmp_path), fps=10)
