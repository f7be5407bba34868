"""Rendering with numpy only: frame sizes as Gymnasium's, frames follow the state, ``human`` mode
goes through the optional extra, and no render mode warns."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import vecgym
import vecgym.envs.classic_control as vecgym_cc
from tests.support.headless_pygame import PygameRecord
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.envs._render_base import NO_RENDER_MODE_MSG, UNSUPPORTED_RENDER_MODE_MSG
from vecgym.envs.rendering.display import HUMAN_EXTRA_MSG

#: class name -> (env id, frame shape, an action)
ENVS: dict[str, tuple[str, tuple[int, int, int], Any]] = {
    "CartPoleEnv": ("CartPole-v1", (400, 600, 3), 1),
    "MountainCarEnv": ("MountainCar-v0", (400, 600, 3), 2),
    "Continuous_MountainCarEnv": (
        "MountainCarContinuous-v0",
        (400, 600, 3),
        np.array([1.0], dtype=np.float32),
    ),
    "PendulumEnv": ("Pendulum-v1", (500, 500, 3), np.array([2.0], dtype=np.float32)),
    "AcrobotEnv": ("Acrobot-v1", (500, 500, 3), 2),
}
NAMES = list(ENVS)


@pytest.mark.parametrize("name", NAMES)
def test_rgb_array_frames_have_gymnasiums_size_and_follow_the_state(name: str) -> None:
    _, shape, action = ENVS[name]
    env = getattr(vecgym_cc, name)(render_mode="rgb_array")
    assert env.render() is None  # nothing to draw before reset
    env.reset(seed=0)
    first = env.render()
    assert isinstance(first, np.ndarray)
    assert first.shape == shape
    assert first.dtype == np.uint8
    assert first.flags.c_contiguous
    assert (first != 255).any()
    assert (first == 255).any()
    np.testing.assert_array_equal(env.render(), first)  # same state, same frame
    for _ in range(5):
        env.step(action)
    later = env.render()
    assert later.shape == shape
    assert (later != first).any()
    env.close()


@pytest.mark.parametrize("name", NAMES)
def test_frame_size_is_gymnasiums_screen_size(name: str) -> None:
    pytest.importorskip("gymnasium")
    import gymnasium.envs.classic_control as gymnasium_cc

    reference = getattr(gymnasium_cc, name)()
    if hasattr(reference, "screen_width"):
        size = (reference.screen_height, reference.screen_width)
    elif hasattr(reference, "screen_dim"):
        size = (reference.screen_dim, reference.screen_dim)
    else:
        size = (reference.SCREEN_DIM, reference.SCREEN_DIM)
    assert ENVS[name][1] == (*size, 3)


def test_cartpole_frame_shows_cart_pole_axle_and_track() -> None:
    env = vecgym_cc.CartPoleEnv(render_mode="rgb_array")
    env.reset(seed=0)
    env.state = np.array([0.0, 0.0, 0.0, 0.0])
    frame = env.render()
    track_row = 400 - 1 - 100
    assert (frame[track_row, :, :] == 0).all()  # the black track across the whole width
    assert (frame[track_row - 10, 280:290] == 0).all()  # the cart body around the centre
    assert (frame[200, 300] == (202, 152, 101)).all()  # the upright pole above the cart
    assert (frame[400 - 1 - 107, 300] == (129, 132, 203)).all()  # the axle
    env.state = np.array([1.0, 0.0, 0.0, 0.0])
    moved = env.render()
    assert (moved[track_row - 10, 280:290] == 255).all()  # the cart moved right


def test_rgb_array_list_through_make_collects_frames() -> None:
    env = vecgym.make("CartPole-v1", render_mode="rgb_array_list")
    env.reset(seed=0)
    for _ in range(3):
        env.step(0)
    frames = env.render()
    assert isinstance(frames, list)
    assert len(frames) == 4
    assert all(f.shape == (400, 600, 3) and f.dtype == np.uint8 for f in frames)
    assert (frames[0] != frames[-1]).any()
    assert env.render() == []  # collected frames are handed out once
    env.close()


@pytest.mark.parametrize("name", NAMES)
def test_render_without_mode_warns_and_returns_none(name: str) -> None:
    env_id = ENVS[name][0]
    env = vecgym.make(env_id)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match=message_pattern(NO_RENDER_MODE_MSG, env_id)):
        assert env.render() is None
    direct = getattr(vecgym_cc, name)()
    with pytest.warns(UserWarning, match=name):  # no spec: the class names the env
        assert direct.render() is None


@pytest.mark.parametrize("name", NAMES)
def test_human_mode_without_the_extra_names_it(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)  # as if pygame were not installed
    env = getattr(vecgym_cc, name)(render_mode="human")  # constructing needs no backend
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(HUMAN_EXTRA_MSG)):
        env.reset(seed=0)
    env.close()


def test_human_mode_through_make_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)
    env = vecgym.make("CartPole-v1", render_mode="human")
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(HUMAN_EXTRA_MSG)):
        env.reset(seed=0)
    env.close()


@pytest.mark.parametrize("name", NAMES)
def test_human_mode_shows_every_reset_and_step(name: str, pygame_window: PygameRecord) -> None:
    _, shape, action = ENVS[name]
    env = getattr(vecgym_cc, name)(render_mode="human")
    env.reset(seed=0)
    env.step(action)
    assert env.render() is None
    assert len(pygame_window.shown) == 3
    assert pygame_window.shown[0].shape == (shape[1], shape[0], 3)  # pygame surfaces are (x, y)
    assert pygame_window.ticks == [env.metadata["render_fps"]] * 3
    twin = getattr(vecgym_cc, name)(render_mode="rgb_array")
    twin.reset(seed=0)
    twin.step(action)
    np.testing.assert_array_equal(pygame_window.window_pixels(), twin.render())
    twin.close()
    env.close()
    assert not pygame_window.window_open
    assert not env.isopen


@pytest.mark.parametrize("name", NAMES)
def test_unsupported_render_mode_is_rejected(name: str) -> None:
    with pytest.raises(error.UnsupportedMode, match=message_pattern(UNSUPPORTED_RENDER_MODE_MSG)):
        getattr(vecgym_cc, name)(render_mode="ansi")
