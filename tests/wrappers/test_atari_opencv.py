"""vecgym's image wrappers on real Atari frames give Gymnasium's pixels exactly (OpenCV resizing).

``resize_image`` is ``cv2.resize(..., INTER_AREA)`` when OpenCV is installed; the numpy fallback
stays within one grey level of it. On real ALE games, vecgym's ``AtariPreprocessing`` and
``ResizeObservation`` give the observations of Gymnasium's wrappers for the same seed and actions.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.rollouts import assert_same_rollouts, rollout
from vecgym import error
from vecgym.wrappers import AtariPreprocessing, ResizeObservation
from vecgym.wrappers import utils as wrapper_utils
from vecgym.wrappers.utils import OPENCV_MISSING_MSG, opencv_available, resize_image

cv2 = pytest.importorskip("cv2", reason="OpenCV resizing needs the `atari` extra")

SHAPES = [
    ((210, 160), (84, 84)),
    ((210, 160, 3), (84, 84)),
    ((210, 160, 1), (64, 48)),
    ((7, 5), (20, 13)),
    ((100, 37), (33, 81)),
    ((10, 37), (33, 8)),
]


@pytest.mark.parametrize(("shape_in", "shape_out"), SHAPES)
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_resize_image_is_opencv_inter_area(
    shape_in: tuple[int, ...], shape_out: tuple[int, int], dtype: Any
) -> None:
    image = np.random.default_rng(1).integers(0, 256, shape_in).astype(dtype)
    expected = cv2.resize(image, shape_out[::-1], interpolation=cv2.INTER_AREA)
    out = resize_image(image, shape_out)
    assert opencv_available()
    assert out.shape == shape_out + shape_in[2:]
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.reshape(expected.shape), expected)


@pytest.mark.parametrize(("shape_in", "shape_out"), SHAPES)
def test_numpy_fallback_is_within_one_grey_level_of_opencv(
    shape_in: tuple[int, ...], shape_out: tuple[int, int]
) -> None:
    image = np.random.default_rng(2).integers(0, 256, shape_in, dtype=np.uint8)
    fallback = resize_image(image, shape_out, use_opencv=False).astype(int)
    opencv = resize_image(image, shape_out, use_opencv=True).astype(int)
    assert np.abs(fallback - opencv).max() <= 1


@pytest.fixture
def without_opencv(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    wrapper_utils._opencv.cache_clear()
    monkeypatch.setitem(sys.modules, "cv2", None)  # importing cv2 now fails
    yield
    wrapper_utils._opencv.cache_clear()


@pytest.mark.usefixtures("without_opencv")
def test_without_opencv_numpy_is_used_and_forcing_opencv_names_the_extra() -> None:
    assert not opencv_available()
    image = np.random.default_rng(3).integers(0, 256, (210, 160), dtype=np.uint8)
    np.testing.assert_array_equal(
        resize_image(image, (84, 84)), resize_image(image, (84, 84), use_opencv=False)
    )
    with pytest.raises(error.DependencyNotInstalled, match=re.escape(OPENCV_MISSING_MSG)):
        resize_image(image, (84, 84), use_opencv=True)


# --- real ALE frames ------------------------------------------------------------------------------
gymnasium = pytest.importorskip("gymnasium")
ale_py = pytest.importorskip("ale_py", reason="Atari envs need the `atari` extra")
gymnasium.register_envs(ale_py)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"grayscale_obs": False, "screen_size": (64, 48)},
        {"terminal_on_life_loss": True, "grayscale_newaxis": True, "scale_obs": True},
        {"frame_skip": 1, "noop_max": 0},
    ],
)
def test_atari_preprocessing_matches_gymnasium_on_real_ale(options: dict[str, Any]) -> None:
    env_id = "ALE/Breakout-v5"
    ours = AtariPreprocessing(vecgym.make(env_id, frameskip=1), **options)
    theirs = gymnasium.wrappers.AtariPreprocessing(gymnasium.make(env_id, frameskip=1), **options)
    assert ours.observation_space == vecgym.core.interop.as_vecgym_space(theirs.observation_space)
    assert_same_rollouts(rollout(ours, 17, 120), rollout(theirs, 17, 120))


def test_resize_observation_matches_gymnasium_on_real_ale() -> None:
    env_id = "ALE/Pong-v5"
    ours = ResizeObservation(vecgym.make(env_id), (84, 64))
    theirs = gymnasium.wrappers.ResizeObservation(gymnasium.make(env_id), (84, 64))
    assert_same_rollouts(rollout(ours, 4, 60), rollout(theirs, 4, 60))
