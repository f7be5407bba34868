"""RecordVideo: which episodes and steps are recorded, the frames kept and the files named.

The encoder is replaced by a recorder (through ``rendering.load_video_encoder``) except in the
tests marked as real encodes, which need the ``video`` extra (imageio-ffmpeg).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from tests.support.registry_envs import ArgEnv
from tests.support.videos import assert_as_moviepy_wrote, decode_mp4
from vecgym import error
from vecgym.wrappers import RecordVideo, RenderCollection
from vecgym.wrappers import rendering as rendering_module
from vecgym.wrappers.rendering import (
    NOT_RECORDING_MSG,
    VIDEO_FOLDER_EXISTS_MSG,
    VIDEO_LENGTH_MSG,
    VIDEO_RENDER_MODE_MSG,
    capped_cubic_video_schedule,
)


class FakeEncoder:
    """Records each video it is asked to write and creates an empty file in its place."""

    def __init__(self) -> None:
        self.videos: dict[str, list[int]] = {}
        self.calls: list[tuple[str, float, bool]] = []

    def __call__(self, frames: Sequence[np.ndarray], path: str, fps: float, quiet: bool) -> None:
        name = os.path.basename(path)
        self.videos[name] = [int(frame[0, 0, 0]) for frame in frames]  # ArgEnv: the step count
        self.calls.append((name, fps, quiet))
        Path(path).touch()


@pytest.fixture
def encoder(monkeypatch: pytest.MonkeyPatch) -> FakeEncoder:
    fake = FakeEncoder()
    monkeypatch.setattr(rendering_module, "load_video_encoder", lambda: fake)
    return fake


def _episodes(env: RecordVideo, lengths: Sequence[int]) -> None:
    for episode, length in enumerate(lengths):
        env.reset(seed=episode)
        for _ in range(length):
            env.step(0)


def test_default_schedule_is_capped_cubic() -> None:
    fired = [i for i in range(5001) if capped_cubic_video_schedule(i)]
    assert fired == [0, 1, 8, 27, 64, 125, 216, 343, 512, 729, 1000, 2000, 3000, 4000, 5000]


@pytest.mark.slow
def test_default_trigger_records_whole_episodes(tmp_path: Path, encoder: FakeEncoder) -> None:
    env = RecordVideo(ArgEnv(render_mode="rgb_array"), str(tmp_path / "videos"))
    _episodes(env, [2] * 10)
    env.close()
    assert sorted(os.listdir(tmp_path / "videos")) == [
        "rl-video-episode-0.mp4",
        "rl-video-episode-1.mp4",
        "rl-video-episode-8.mp4",
    ]
    # the reset frame, then one frame per step
    assert encoder.videos["rl-video-episode-0.mp4"] == [0, 1, 2]
    assert encoder.calls[0][1:] == (4, True)  # fps from metadata["render_fps"]; quiet


def test_episode_trigger_name_prefix_and_fps(tmp_path: Path, encoder: FakeEncoder) -> None:
    env = RecordVideo(
        ArgEnv(render_mode="rgb_array"),
        str(tmp_path / "v"),
        episode_trigger=lambda episode: episode % 2 == 1,
        name_prefix="clip",
        fps=12,
        disable_logger=False,
    )
    _episodes(env, [1, 2, 3, 4])
    assert sorted(encoder.videos) == ["clip-episode-1.mp4"]  # saved at the next reset
    env.close()  # saves the recording in progress
    assert encoder.videos == {
        "clip-episode-1.mp4": [0, 1, 2],
        "clip-episode-3.mp4": [0, 1, 2, 3, 4],
    }
    assert {call[1:] for call in encoder.calls} == {(12, False)}
    assert not env.recording


@pytest.mark.slow
def test_step_trigger_with_video_length(tmp_path: Path, encoder: FakeEncoder) -> None:
    env = RecordVideo(
        ArgEnv(render_mode="rgb_array"),
        str(tmp_path / "v"),
        step_trigger=lambda step: step % 5 == 0,
        video_length=3,
    )
    _episodes(env, [7, 4])  # step ids 0..6 in episode 0, 7..10 in episode 1
    env.close()
    # a recording stops once it holds more than video_length frames, across episodes
    assert encoder.videos == {
        "rl-video-step-0.mp4": [1, 2, 3, 4],
        "rl-video-step-5.mp4": [6, 7, 0, 1],
        "rl-video-step-10.mp4": [4],
    }


def test_trigger_during_recording_starts_a_new_video(tmp_path: Path, encoder: FakeEncoder) -> None:
    env = RecordVideo(
        ArgEnv(render_mode="rgb_array"),
        str(tmp_path / "v"),
        step_trigger=lambda step: step in (0, 2),
    )
    _episodes(env, [4])
    env.reset()  # video_length=0: the reset ends the recording
    env.close()
    assert encoder.videos == {"rl-video-step-0.mp4": [1, 2], "rl-video-step-2.mp4": [3, 4]}


@pytest.mark.slow
def test_both_triggers(tmp_path: Path, encoder: FakeEncoder) -> None:
    env = RecordVideo(
        ArgEnv(render_mode="rgb_array"),
        str(tmp_path / "v"),
        episode_trigger=lambda episode: episode == 1,
        step_trigger=lambda step: step == 0,
    )
    _episodes(env, [2, 1])
    env.close()
    assert encoder.videos == {"rl-video-step-0.mp4": [1, 2], "rl-video-episode-1.mp4": [0, 1]}


def test_list_render_mode_keeps_frames_for_the_user(tmp_path: Path, encoder: FakeEncoder) -> None:
    env = RecordVideo(
        RenderCollection(ArgEnv(render_mode="rgb_array")),
        str(tmp_path / "v"),
        episode_trigger=lambda episode: True,
    )
    _episodes(env, [2])
    frames = env.render()
    assert [int(np.asarray(frame)[0, 0, 0]) for frame in frames] == [0, 1, 2]
    env.close()
    assert encoder.videos == {"rl-video-episode-0.mp4": [0, 1, 2]}


def test_existing_folder_warns(tmp_path: Path, encoder: FakeEncoder) -> None:
    with pytest.warns(UserWarning, match=message_pattern(VIDEO_FOLDER_EXISTS_MSG)):
        RecordVideo(ArgEnv(render_mode="rgb_array"), str(tmp_path))


def test_stop_recording_without_recording(tmp_path: Path, encoder: FakeEncoder) -> None:
    env = RecordVideo(ArgEnv(render_mode="rgb_array"), str(tmp_path / "v"))
    with pytest.raises(RuntimeError, match=message_pattern(NOT_RECORDING_MSG)):
        env.stop_recording()


def test_gc_trigger_receives_episode_id(tmp_path: Path, encoder: FakeEncoder) -> None:
    seen: list[int] = []
    env = RecordVideo(
        ArgEnv(render_mode="rgb_array"),
        str(tmp_path / "v"),
        episode_trigger=lambda episode: True,
        gc_trigger=lambda episode: bool(seen.append(episode)),  # type: ignore[func-returns-value]
    )
    _episodes(env, [1, 1])
    env.close()
    # episode 0's video is saved by the reset that starts episode 1, as in Gymnasium
    assert seen == [1, 1]


@pytest.mark.parametrize("mode", [None, "human", "ansi"])
def test_rejects_non_image_render_modes(tmp_path: Path, encoder: FakeEncoder, mode: Any) -> None:
    with pytest.raises(ValueError, match=message_pattern(VIDEO_RENDER_MODE_MSG)):
        RecordVideo(ArgEnv(render_mode=mode), str(tmp_path / "v"))


@pytest.mark.parametrize("bad", [-1, 1.5, "3"])
def test_rejects_bad_video_length(tmp_path: Path, encoder: FakeEncoder, bad: Any) -> None:
    with pytest.raises(ValueError, match=message_pattern(VIDEO_LENGTH_MSG)):
        RecordVideo(ArgEnv(render_mode="rgb_array"), str(tmp_path / "v"), video_length=bad)


def test_missing_extra_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    with pytest.raises(error.DependencyNotInstalled, match=r'pip install "vecgym\[video\]"'):
        RecordVideo(ArgEnv(render_mode="rgb_array"), str(tmp_path / "v"))
    assert not (tmp_path / "v").exists()  # fails before creating the folder


def test_spec_round_trip(tmp_path: Path, encoder: FakeEncoder) -> None:
    env = RecordVideo(
        vecgym.make("CartPole-v1", render_mode="rgb_array"),
        str(tmp_path / "v"),
        video_length=4,
        name_prefix="cp",
    )
    assert env.spec is not None
    (wrapper_spec,) = env.spec.additional_wrappers
    assert wrapper_spec.name == "RecordVideo"
    with pytest.warns(UserWarning, match=message_pattern(VIDEO_FOLDER_EXISTS_MSG)):
        rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, RecordVideo)
    assert (rebuilt.video_length, rebuilt.name_prefix) == (4, "cp")
    env.close()
    rebuilt.close()


# --- real encodes ---------------------------------------------------------------------------------
class _PictureEnv(ArgEnv):
    """Renders a ``size`` frame whose colour changes with the step count."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(render_mode="rgb_array")
        self.size = size

    def render(self) -> np.ndarray:
        frame = np.zeros((*self.size, 3), dtype=np.uint8)
        frame[..., 0] = 40 * self.count
        return frame


@pytest.mark.parametrize("size", [(32, 48), (15, 21)])
def test_real_encode_writes_an_mp4(tmp_path: Path, size: tuple[int, int]) -> None:
    pytest.importorskip("imageio_ffmpeg")
    env = RecordVideo(_PictureEnv(size), str(tmp_path / "v"), episode_trigger=lambda ep: ep == 0)
    _episodes(env, [5])
    env.close()
    video = tmp_path / "v" / "rl-video-episode-0.mp4"
    assert video.stat().st_size > 0
    assert video.read_bytes()[4:8] == b"ftyp"  # an MP4 container


def test_real_encoder_rejects_non_image_frames(tmp_path: Path) -> None:
    pytest.importorskip("imageio_ffmpeg")
    encode = rendering_module.load_video_encoder()
    with pytest.raises(ValueError, match="a video frame must be a uint8 array"):
        encode([np.zeros((4, 4, 3), dtype=np.float32)], str(tmp_path / "x.mp4"), 30, True)


# --- differential: the same videos as Gymnasium's RecordVideo -------------------------------------
def _gray_counter_env(library: Any) -> Any:
    """An env of ``library`` (gymnasium or vecgym) whose frame ``t`` (counted over its whole life,
    resets included) is a flat 16x24 gray of ``30 * (t % 9)``; episodes last 7 steps (8 frames)."""

    class GrayCounter(library.Env):  # type: ignore[name-defined, misc]
        metadata = {"render_modes": ["rgb_array"], "render_fps": 10}
        observation_space = library.spaces.Discrete(8)
        action_space = library.spaces.Discrete(2)

        def __init__(self, render_mode: str | None = None) -> None:
            self.render_mode = render_mode
            self.frames = -1
            self.steps = 0

        def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[int, dict]:
            super().reset(seed=seed)
            self.frames, self.steps = self.frames + 1, 0
            return 0, {}

        def step(self, action: int) -> tuple[int, float, bool, bool, dict]:
            self.frames, self.steps = self.frames + 1, self.steps + 1
            return self.steps, 1.0, self.steps == 7, False, {}

        def render(self) -> np.ndarray:
            return np.full((16, 24, 3), 30 * (self.frames % 9), dtype=np.uint8)

    return GrayCounter(render_mode="rgb_array")


@pytest.mark.parametrize(
    "kwargs",
    [
        {},  # the capped cubic schedule: episodes 0 and 1
        {"episode_trigger": lambda episode: episode in (2, 3), "name_prefix": "clip"},
        {"step_trigger": lambda step: step % 12 == 3, "video_length": 5},
        {"step_trigger": lambda step: step == 4, "episode_trigger": lambda episode: episode == 3},
    ],
)
def test_same_videos_as_gymnasiums_record_video(tmp_path: Path, kwargs: dict[str, Any]) -> None:
    """Both wrappers record the same env and encode for real (moviepy, imageio-ffmpeg);
    ``assert_as_moviepy_wrote`` says what must match (moviepy drops the last frame of some clips:
    CHANGELOG)."""
    gymnasium = pytest.importorskip("gymnasium")
    pytest.importorskip("moviepy")
    handed: dict[str, list[int]] = {}

    class NotingRecordVideo(gymnasium.wrappers.RecordVideo):  # type: ignore[misc]
        """Gymnasium's wrapper, noting the frames of each video before it encodes them."""

        def stop_recording(self) -> None:
            if self.recorded_frames:
                frames = [int(frame[0, 0, 0]) // 30 for frame in self.recorded_frames]
                handed[f"{self._video_name}.mp4"] = frames
            super().stop_recording()

    for library, wrapper in [(gymnasium, NotingRecordVideo), (vecgym, RecordVideo)]:
        env = wrapper(_gray_counter_env(library), str(tmp_path / library.__name__), **kwargs)
        env.reset(seed=3)
        for _ in range(40):
            if any(env.step(0)[2:4]):
                env.reset()
        env.close()
    theirs, ours = (
        {
            path.name: [round(float(frame.mean()) / 30) for frame in decode_mp4(path, 16, 24)]
            for path in sorted((tmp_path / name).glob("*.mp4"))
        }
        for name in ("gymnasium", "vecgym")
    )
    assert_as_moviepy_wrote(handed, theirs, ours)
