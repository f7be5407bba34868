"""Tests for vecgym.wrappers.atari_preprocessing.AtariPreprocessing, on a fake ALE env."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.fake_atari_env import SCREEN_HEIGHT, SCREEN_WIDTH, FakeAtariEnv
from tests.support.messages import message_pattern
from vecgym.core.registration import EnvSpec
from vecgym.wrappers.atari_preprocessing import (
    ENV_FRAMESKIP_MSG,
    FRAME_SKIP_MSG,
    FRAME_SKIP_TYPE_MSG,
    NOOP_MAX_MSG,
    NOOP_MAX_TYPE_MSG,
    SCREEN_SIZE_MSG,
    AtariPreprocessing,
)
from vecgym.wrappers.utils import resize_image

ENTRY_POINT = "tests.support.fake_atari_env:FakeAtariEnv"


def _screen(frame: int) -> np.ndarray:
    env = FakeAtariEnv()
    env.frame = frame
    return env.gray_screen()


@pytest.mark.parametrize(
    ("kwargs", "shape", "dtype"),
    [
        ({}, (84, 84), np.uint8),
        ({"screen_size": (64, 48)}, (48, 64), np.uint8),
        ({"grayscale_newaxis": True}, (84, 84, 1), np.uint8),
        ({"grayscale_obs": False}, (84, 84, 3), np.uint8),
        ({"scale_obs": True}, (84, 84), np.float32),
    ],
)
def test_observation_space_and_values(kwargs: dict, shape: tuple, dtype: Any) -> None:
    env = AtariPreprocessing(FakeAtariEnv(), noop_max=0, **kwargs)
    assert env.observation_space.shape == shape
    assert env.observation_space.dtype == dtype
    high = 1 if kwargs.get("scale_obs") else 255
    assert np.all(env.observation_space.high == high)
    obs, _ = env.reset(seed=0)
    assert obs.shape == shape
    assert obs.dtype == dtype
    assert obs in env.observation_space
    obs, *_ = env.step(1)
    assert obs in env.observation_space


def test_frame_skip_max_pool_and_resize() -> None:
    env = AtariPreprocessing(FakeAtariEnv(), noop_max=0, frame_skip=4)
    obs, _ = env.reset(seed=0)
    np.testing.assert_array_equal(obs, resize_image(_screen(0), (84, 84)))
    obs, reward, terminated, truncated, _ = env.step(2)
    assert reward == 4.0
    assert not terminated
    assert not truncated
    assert env.unwrapped.actions == [2, 2, 2, 2]
    pooled = np.maximum(_screen(3), _screen(4))
    np.testing.assert_array_equal(obs, resize_image(pooled, (84, 84)))


def test_noop_reset_draws_from_env_rng() -> None:
    env = AtariPreprocessing(FakeAtariEnv(), noop_max=30)
    _, info = env.reset(seed=5)
    expected = int(np.random.default_rng(5).integers(1, 31))
    assert env.unwrapped.actions == [0] * expected
    assert info["frame"] == expected


def test_early_termination_returns_final_screen() -> None:
    env = AtariPreprocessing(FakeAtariEnv(episode_length=6), noop_max=0, frame_skip=4)
    env.reset(seed=0)
    env.step(1)  # frames 1..4
    obs, reward, terminated, _, _ = env.step(1)  # frames 5, 6 (ends)
    assert terminated
    assert reward == 2.0
    np.testing.assert_array_equal(obs, resize_image(np.maximum(_screen(5), _screen(6)), (84, 84)))
    env.reset(seed=0)
    env.step(1)
    env.unwrapped.episode_length = 5
    obs, *_ = env.step(1)  # ends on its first frame: only frame 5 was captured
    np.testing.assert_array_equal(obs, resize_image(_screen(5), (84, 84)))


def test_terminal_on_life_loss() -> None:
    env = AtariPreprocessing(
        FakeAtariEnv(life_every=6), noop_max=0, frame_skip=4, terminal_on_life_loss=True
    )
    env.reset(seed=0)
    assert env.lives == 3
    assert env.step(0)[2] is False
    _, reward, terminated, _, _ = env.step(0)
    assert terminated
    assert reward == 2.0
    assert env.lives == 2
    assert env.game_over


def test_spec_round_trip() -> None:
    spec = EnvSpec("FakeAtari-v0", ENTRY_POINT, max_episode_steps=100)
    env = AtariPreprocessing(
        vecgym.make(spec, disable_env_checker=True), noop_max=5, screen_size=(40, 30)
    )
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, AtariPreprocessing)
    assert rebuilt.spec.additional_wrappers == env.spec.additional_wrappers
    assert rebuilt.observation_space == env.observation_space
    np.testing.assert_array_equal(rebuilt.reset(seed=3)[0], env.reset(seed=3)[0])


@pytest.mark.parametrize(
    ("env_kwargs", "kwargs", "error", "match"),
    [
        ({}, {"frame_skip": 0}, ValueError, message_pattern(FRAME_SKIP_MSG)),
        ({}, {"frame_skip": 2.0}, TypeError, message_pattern(FRAME_SKIP_TYPE_MSG)),
        ({}, {"screen_size": 0}, ValueError, message_pattern(SCREEN_SIZE_MSG)),
        ({}, {"screen_size": (84,)}, ValueError, message_pattern(SCREEN_SIZE_MSG)),
        ({}, {"screen_size": (84, -1)}, ValueError, message_pattern(SCREEN_SIZE_MSG)),
        ({"frameskip": 4}, {}, ValueError, message_pattern(ENV_FRAMESKIP_MSG)),
        ({}, {"noop_max": -1}, ValueError, message_pattern(NOOP_MAX_MSG)),
        ({}, {"noop_max": 1.5}, TypeError, message_pattern(NOOP_MAX_TYPE_MSG)),
        ({"action_meanings": ("FIRE", "NOOP")}, {}, ValueError, "'NOOP'"),
    ],
)
def test_errors(env_kwargs: dict, kwargs: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        AtariPreprocessing(FakeAtariEnv(**env_kwargs), **kwargs)


def test_frameskip_one_env_allowed_with_frame_skip_one() -> None:
    env = AtariPreprocessing(FakeAtariEnv(frameskip=4), noop_max=0, frame_skip=1)
    env.reset(seed=0)
    obs, *_ = env.step(1)
    np.testing.assert_array_equal(obs, resize_image(_screen(1), (84, 84)))
    assert env.obs_buffer[0].shape == (SCREEN_HEIGHT, SCREEN_WIDTH)
