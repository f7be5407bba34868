"""HumanRendering (in a headless window of the real pygame), AddWhiteNoise and ObstructView."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.headless_pygame import PygameRecord
from tests.support.messages import message_pattern
from tests.support.registry_envs import ArgEnv, NoMetadataRenderEnv
from vecgym import error
from vecgym.core.spaces import Discrete
from vecgym.wrappers import AddWhiteNoise, HumanRendering, ObstructView, RenderCollection
from vecgym.wrappers.rendering import (
    HUMAN_EXTRA_MSG,
    HUMAN_FRAME_SHAPE_MSG,
    HUMAN_RENDER_MODE_MSG,
    NO_RENDER_FPS_MSG,
    NOISE_PROBABILITY_MSG,
    OBSTRUCTED_RATIO_MSG,
    OBSTRUCTION_WIDTH_MSG,
    OBSTRUCTION_WIDTH_TYPE_MSG,
)


# --- HumanRendering -------------------------------------------------------------------------------
class _WideEnv(ArgEnv):
    """Renders a (2, 3) frame whose pixel (row, col) holds ``10 * row + col + count``."""

    def render(self) -> np.ndarray:
        rows, cols = np.indices((2, 3))
        frame = (10 * rows + cols + self.count).astype(np.uint8)
        return np.repeat(frame[..., None], 3, axis=2)


def test_human_rendering_shows_each_frame(pygame_window: PygameRecord) -> None:
    env = HumanRendering(_WideEnv(render_mode="rgb_array"))
    assert env.render_mode == "human"
    assert "human" in env.metadata["render_modes"]
    assert "human" not in env.env.metadata["render_modes"]  # the env's metadata is not changed
    env.reset(seed=0)
    env.step(0)
    env.render()  # returns nothing: frames are shown by reset and step
    assert len(pygame_window.shown) == 2
    # surfaces are column-major: shown[i][x, y] is the frame's pixel (row y, column x)
    expected = np.asarray(env.env.render()).transpose(1, 0, 2)
    np.testing.assert_array_equal(pygame_window.shown[-1], expected)
    assert pygame_window.ticks == [4, 4]  # metadata["render_fps"]
    np.testing.assert_array_equal(pygame_window.window_pixels(), env.env.render())
    env.close()
    assert not pygame_window.window_open


def test_human_rendering_list_mode_shows_last_frame(pygame_window: PygameRecord) -> None:
    inner = RenderCollection(ArgEnv(render_mode="rgb_array"))
    env = HumanRendering(inner)
    env.reset(seed=0)
    env.step(0)
    env.step(0)
    assert [int(frame[0, 0, 0]) for frame in pygame_window.shown] == [0, 1, 2]
    assert inner.render() == []  # the wrapper emptied the collection
    env.close()


def test_human_rendering_without_pygame(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)
    env = HumanRendering(ArgEnv(render_mode="rgb_array"))
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(HUMAN_EXTRA_MSG)):
        env.reset(seed=0)
    env.close()


@pytest.mark.parametrize("mode", [None, "human", "ansi"])
def test_human_rendering_rejects_render_modes(mode: Any) -> None:
    with pytest.raises(ValueError, match=message_pattern(HUMAN_RENDER_MODE_MSG)):
        HumanRendering(ArgEnv(render_mode=mode))


def test_human_rendering_needs_render_fps() -> None:
    env = ArgEnv(render_mode="rgb_array")
    env.metadata = {"render_modes": ["rgb_array"]}
    with pytest.raises(ValueError, match=message_pattern(NO_RENDER_FPS_MSG)):
        HumanRendering(env)


def test_human_rendering_without_render_modes_metadata(pygame_window: PygameRecord) -> None:
    env = HumanRendering(NoMetadataRenderEnv(render_mode="rgb_array"))
    assert env.metadata["render_modes"] == ["human"]


def test_human_rendering_frame_size_must_not_change(pygame_window: PygameRecord) -> None:
    base = ArgEnv(render_mode="rgb_array")
    env = HumanRendering(base)
    env.reset(seed=0)
    base.render = lambda: np.zeros((3, 3, 3), dtype=np.uint8)  # type: ignore[method-assign]
    with pytest.raises(ValueError, match=message_pattern(HUMAN_FRAME_SHAPE_MSG)):
        env.step(0)
    env.close()


# --- AddWhiteNoise / ObstructView -----------------------------------------------------------------
FRAME = np.full((12, 16, 3), 7, dtype=np.uint8)


class _FrameEnv(vecgym.Env[Any, Any]):
    """Renders the constant ``FRAME``."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self) -> None:
        self.render_mode = "rgb_array"
        self.observation_space = Discrete(2)
        self.action_space = Discrete(2)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        return 0, {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return 0, 0.0, False, False, {}

    def render(self) -> np.ndarray:
        return FRAME.copy()


def _gymnasium_frame_env(gymnasium: Any) -> Any:
    class GymFrameEnv(gymnasium.Env):
        metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

        def __init__(self) -> None:
            self.render_mode = "rgb_array"
            self.observation_space = gymnasium.spaces.Discrete(2)
            self.action_space = gymnasium.spaces.Discrete(2)

        def reset(self, *, seed: Any = None, options: Any = None) -> Any:
            super().reset(seed=seed)
            return 0, {}

        def render(self) -> np.ndarray:
            return FRAME.copy()

    return GymFrameEnv()


@pytest.mark.parametrize("grayscale", [False, True])
def test_white_noise_matches_gymnasium(grayscale: bool) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    ours = AddWhiteNoise(_FrameEnv(), 0.4, is_noise_grayscale=grayscale)
    theirs = gymnasium.wrappers.AddWhiteNoise(_gymnasium_frame_env(gymnasium), 0.4, grayscale)
    ours.reset(seed=11)
    theirs.reset(seed=11)
    for _ in range(3):
        mine, ref = ours.render(), theirs.render()
        assert mine.dtype == np.uint8
        assert mine.shape == FRAME.shape
        np.testing.assert_array_equal(mine, ref)  # the same values (theirs is uint64 in gray)


def test_white_noise_effect() -> None:
    env = AddWhiteNoise(_FrameEnv(), 0.5, is_noise_grayscale=True)
    env.reset(seed=0)
    frame = env.render()
    changed = (frame != FRAME).any(axis=-1)
    assert 0.3 < changed.mean() < 0.7
    gray = frame[changed]
    assert (gray == gray[:, :1]).all()  # grayscale noise: the three channels are equal
    env.reset(seed=0)
    np.testing.assert_array_equal(env.render(), frame)  # the same seed, the same noise


def test_white_noise_probability_zero_keeps_the_frame() -> None:
    env = AddWhiteNoise(_FrameEnv(), 0.0)
    env.reset(seed=0)
    np.testing.assert_array_equal(env.render(), FRAME)


@pytest.mark.parametrize("bad", [-0.1, 1.0, 2])
def test_white_noise_rejects_bad_probability(bad: float) -> None:
    with pytest.raises(
        error.InvalidProbability, match=message_pattern(NOISE_PROBABILITY_MSG, value=bad)
    ):
        AddWhiteNoise(_FrameEnv(), bad)


@pytest.mark.parametrize("grayscale", [False, True])
def test_obstruct_view_matches_gymnasium(grayscale: bool) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    ours = ObstructView(_FrameEnv(), 0.5, 3, is_noise_grayscale=grayscale)
    theirs = gymnasium.wrappers.ObstructView(_gymnasium_frame_env(gymnasium), 0.5, 3, grayscale)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    for _ in range(3):
        mine, ref = ours.render(), theirs.render()
        assert mine.dtype == np.uint8
        np.testing.assert_array_equal(mine, ref)


def test_obstruct_view_effect() -> None:
    env = ObstructView(_FrameEnv(), obstructed_pixels_ratio=0.25, obstruction_width=4)
    env.reset(seed=0)
    frame = env.render()
    covered = (frame != FRAME).any(axis=-1).mean()
    assert 0 < covered <= 0.25  # patches may overlap or be clipped, never cover more
    env.reset(seed=0)
    np.testing.assert_array_equal(env.render(), frame)


def test_obstruct_view_ratio_zero_keeps_the_frame() -> None:
    env = ObstructView(_FrameEnv(), 0.0, 5)
    env.reset(seed=0)
    np.testing.assert_array_equal(env.render(), FRAME)


def test_obstruct_view_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match=message_pattern(OBSTRUCTED_RATIO_MSG, value=1.0)):
        ObstructView(_FrameEnv(), 1.0, 2)
    with pytest.raises(ValueError, match=message_pattern(OBSTRUCTION_WIDTH_MSG)):
        ObstructView(_FrameEnv(), 0.5, 0)
    with pytest.raises(TypeError, match=message_pattern(OBSTRUCTION_WIDTH_TYPE_MSG)):
        ObstructView(_FrameEnv(), 0.5, 2.5)  # type: ignore[arg-type]


def test_noise_wrappers_spec_round_trip() -> None:
    env = ObstructView(
        AddWhiteNoise(vecgym.make("CartPole-v1", render_mode="rgb_array"), 0.1, True), 0.2, 8
    )
    assert env.spec is not None
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, ObstructView)
    assert isinstance(rebuilt.env, AddWhiteNoise)
    assert rebuilt.obstruction_width == 8
    assert rebuilt.env.probability_of_noise_per_pixel == 0.1
    assert rebuilt.env.is_noise_grayscale is True
