"""Tests for vecgym.wrappers.transform_observation, with Gymnasium side by side where practical."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.generic_env import GenericTestEnv
from tests.support.messages import message_pattern
from vecgym.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Text, Tuple
from vecgym.wrappers.transform_observation import (
    DISCRETIZE_BINS_LEN_MSG,
    DISCRETIZE_BINS_VALUE_MSG,
    DISCRETIZE_FINITE_MSG,
    DISCRETIZE_SPACE_MSG,
    DTYPE_SPACE_MSG,
    FILTER_DICT_KEYS_MSG,
    FILTER_DUPLICATE_MSG,
    FILTER_EMPTY_MSG,
    FILTER_INDEX_MSG,
    FILTER_KEYS_TYPE_MSG,
    FILTER_MISSING_KEYS_MSG,
    FILTER_SPACE_MSG,
    FILTER_TUPLE_KEYS_MSG,
    GRAYSCALE_BOUNDS_MSG,
    GRAYSCALE_SHAPE_MSG,
    RENDER_KEY_EXISTS_MSG,
    RENDER_MODE_MSG,
    RENDER_TYPE_MSG,
    RESHAPE_INT_MSG,
    RESHAPE_SIZE_MSG,
    RESHAPE_TYPE_MSG,
    RESHAPE_VALUE_MSG,
    RESIZE_BOUNDS_MSG,
    RESIZE_DTYPE_MSG,
    RESIZE_NDIM_MSG,
    RESIZE_SHAPE_INT_MSG,
    RESIZE_SHAPE_LEN_MSG,
    RESIZE_SHAPE_TYPE_MSG,
    RESIZE_SHAPE_VALUE_MSG,
    AddRenderObservation,
    DiscretizeObservation,
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleObservation,
    ReshapeObservation,
    ResizeObservation,
    TransformObservation,
)
from vecgym.wrappers.utils import REQUIRES_BOX_MSG, RESCALE_ORDER_MSG

gymnasium = pytest.importorskip("gymnasium")
gym_wrappers = pytest.importorskip("gymnasium.wrappers")

IMAGE_SHAPE = (24, 32, 3)


def _image(seed: int | None, count: int, shape: tuple[int, ...]) -> np.ndarray:
    rng = np.random.default_rng([seed or 0, count])
    return rng.integers(0, 256, shape, dtype=np.uint8)


def _image_env(lib: Any, shape: tuple[int, ...] = IMAGE_SHAPE) -> Any:
    """An env of ``lib`` (vecgym or gymnasium) whose observations are seeded random images."""

    class ImageEnv(lib.Env):
        def __init__(self) -> None:
            self.observation_space = lib.spaces.Box(0, 255, shape, np.uint8)
            self.action_space = lib.spaces.Discrete(2)
            self._seed: int | None = None
            self._count = 0

        def reset(self, *, seed: int | None = None, options: dict | None = None) -> Any:
            super().reset(seed=seed)
            self._seed, self._count = seed, 0
            return _image(seed, 0, shape), {}

        def step(self, action: Any) -> Any:
            self._count += 1
            return _image(self._seed, self._count, shape), 0.0, False, False, {}

    return ImageEnv()


def _run(env: Any, seed: int = 7, steps: int = 3) -> list[Any]:
    obs = [env.reset(seed=seed)[0]]
    env.action_space.seed(seed)
    for _ in range(steps):
        obs.append(env.step(env.action_space.sample())[0])
    return obs


def _assert_same(ours: list[Any], theirs: list[Any]) -> None:
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(a, dict):
            assert list(a) == list(b)
            _assert_same(list(a.values()), list(b.values()))
        elif isinstance(a, tuple):
            _assert_same(list(a), list(b))
        else:
            np.testing.assert_array_equal(a, b)
            assert np.asarray(a).dtype == np.asarray(b).dtype


def _assert_spaces_equal(ours: Any, theirs: Any) -> None:
    assert str(ours) == str(theirs)
    if hasattr(theirs, "low"):
        np.testing.assert_array_equal(ours.low, theirs.low)
        np.testing.assert_array_equal(ours.high, theirs.high)
        assert ours.dtype == theirs.dtype


def _round_trip(env: Any) -> Any:
    """``vecgym.make(env.spec)`` and check its last wrapper matches ``env``'s."""
    rebuilt = vecgym.make(env.spec)
    assert type(rebuilt) is type(env)
    for ours, theirs in zip(
        rebuilt.spec.additional_wrappers, env.spec.additional_wrappers, strict=True
    ):
        assert (ours.name, ours.entry_point) == (theirs.name, theirs.entry_point)
        assert ours.kwargs.keys() == theirs.kwargs.keys()
        for key, value in ours.kwargs.items():
            np.testing.assert_array_equal(value, theirs.kwargs[key])
    assert rebuilt.observation_space == env.observation_space
    return rebuilt


# --------------------------------------------------------------------------------------------
# TransformObservation


def test_transform_observation_applies_func_and_space() -> None:
    space = Box(-10, 10, (4,))
    env = TransformObservation(vecgym.make("CartPole-v1"), lambda obs: obs + 1, space)
    base = vecgym.make("CartPole-v1")
    np.testing.assert_array_equal(env.reset(seed=3)[0], base.reset(seed=3)[0] + 1)
    np.testing.assert_array_equal(env.step(1)[0], base.step(1)[0] + 1)
    assert env.observation_space is space
    kept = TransformObservation(vecgym.make("CartPole-v1"), lambda obs: obs, None)
    assert kept.observation_space == base.observation_space


def test_transform_observation_spec_round_trip() -> None:
    env = TransformObservation(vecgym.make("CartPole-v1"), np.negative, None)
    assert env.spec.additional_wrappers[-1].kwargs == {
        "func": np.negative,
        "observation_space": None,
    }
    rebuilt = _round_trip(env)
    np.testing.assert_array_equal(rebuilt.reset(seed=1)[0], env.reset(seed=1)[0])


# --------------------------------------------------------------------------------------------
# FilterObservation

DICT_SPACE = Dict(a=Box(0, 1, (2,)), b=Discrete(3), c=MultiBinary(2))
TUPLE_SPACE = Tuple((Box(0, 1, (2,)), Discrete(3), MultiBinary(2)))


def test_filter_observation_dict() -> None:
    env = FilterObservation(GenericTestEnv(observation_space=DICT_SPACE), ["c", "a"])
    assert env.observation_space == Dict(a=DICT_SPACE["a"], c=DICT_SPACE["c"])
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"a", "c"}
    assert obs in env.observation_space
    assert env.filter_keys == ["c", "a"]


def test_filter_observation_tuple_keeps_order() -> None:
    env = FilterObservation(GenericTestEnv(observation_space=TUPLE_SPACE), [2, 0])
    assert env.observation_space == Tuple((TUPLE_SPACE[2], TUPLE_SPACE[0]))
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    negative = FilterObservation(GenericTestEnv(observation_space=TUPLE_SPACE), [-1])
    assert negative.observation_space == Tuple((TUPLE_SPACE[2],))


@pytest.mark.parametrize(
    ("space", "keys", "error", "match"),
    [
        (DICT_SPACE, "ab", TypeError, "not the str 'ab'"),
        (DICT_SPACE, "a", ValueError, "not the str 'a'"),
        (TUPLE_SPACE, "a", TypeError, "not the str 'a'"),
        (DICT_SPACE, {"a"}, TypeError, message_pattern(FILTER_KEYS_TYPE_MSG, type=set)),
        (DICT_SPACE, [0], TypeError, message_pattern(FILTER_DICT_KEYS_MSG, keys=[0])),
        (
            DICT_SPACE,
            ["a", "z"],
            ValueError,
            message_pattern(FILTER_MISSING_KEYS_MSG, missing=["z"], keys=["a", "z"]),
        ),
        (DICT_SPACE, [], ValueError, message_pattern(FILTER_EMPTY_MSG)),
        (TUPLE_SPACE, ["a"], TypeError, message_pattern(FILTER_TUPLE_KEYS_MSG)),
        (TUPLE_SPACE, [0, 0], ValueError, message_pattern(FILTER_DUPLICATE_MSG)),
        (TUPLE_SPACE, [3], ValueError, message_pattern(FILTER_INDEX_MSG, missing=[3], keys=[3])),
        (TUPLE_SPACE, [-4], ValueError, message_pattern(FILTER_INDEX_MSG)),
        (TUPLE_SPACE, [], ValueError, message_pattern(FILTER_EMPTY_MSG)),
        (Box(0, 1, (2,)), [0], ValueError, message_pattern(FILTER_SPACE_MSG)),
    ],
)
def test_filter_observation_errors(space: Any, keys: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        FilterObservation(GenericTestEnv(observation_space=space), keys)


def test_filter_observation_matches_gymnasium() -> None:
    ours = FilterObservation(_time_aware(vecgym.make("CartPole-v1")), ["time"])
    theirs = gym_wrappers.FilterObservation(
        gym_wrappers.TimeAwareObservation(gymnasium.make("CartPole-v1"), flatten=False), ["time"]
    )
    _assert_spaces_equal(ours.observation_space, theirs.observation_space)
    _assert_same(_run(ours), _run(theirs))


def _time_aware(env: Any) -> Any:
    from vecgym.wrappers.stateful_observation import TimeAwareObservation

    return TimeAwareObservation(env, flatten=False)


def test_filter_observation_spec_round_trip() -> None:
    env = FilterObservation(_time_aware(vecgym.make("CartPole-v1")), ["obs"])
    rebuilt = _round_trip(env)
    _assert_same(_run(rebuilt), _run(env))


# --------------------------------------------------------------------------------------------
# FlattenObservation


def test_flatten_observation() -> None:
    env = FlattenObservation(GenericTestEnv(observation_space=DICT_SPACE))
    assert env.observation_space == Box(0, 1, (7,), np.float64)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (7,)
    assert obs in env.observation_space
    assert env.spec.additional_wrappers[-1].kwargs == {}


def test_flatten_observation_matches_gymnasium_and_round_trips() -> None:
    ours = FlattenObservation(_time_aware(vecgym.make("CartPole-v1")))
    theirs = gym_wrappers.FlattenObservation(
        gym_wrappers.TimeAwareObservation(gymnasium.make("CartPole-v1"), flatten=False)
    )
    _assert_spaces_equal(ours.observation_space, theirs.observation_space)
    _assert_same(_run(ours), _run(theirs))
    _assert_same(_run(_round_trip(ours)), _run(ours))


# --------------------------------------------------------------------------------------------
# GrayscaleObservation


@pytest.mark.parametrize("keep_dim", [False, True])
def test_grayscale_matches_gymnasium(keep_dim: bool) -> None:
    ours = GrayscaleObservation(_image_env(vecgym), keep_dim=keep_dim)
    theirs = gym_wrappers.GrayscaleObservation(_image_env(gymnasium), keep_dim=keep_dim)
    _assert_spaces_equal(ours.observation_space, theirs.observation_space)
    expected_shape = IMAGE_SHAPE[:2] + ((1,) if keep_dim else ())
    assert ours.observation_space.shape == expected_shape
    observations = _run(ours)
    _assert_same(observations, _run(theirs))
    assert all(obs in ours.observation_space for obs in observations)


def test_grayscale_weights() -> None:
    pixel = np.array([[[100, 50, 200]]], dtype=np.uint8)
    env = GrayscaleObservation(GenericTestEnv(observation_space=Box(0, 255, (1, 1, 3), np.uint8)))
    assert env.observation(pixel)[0, 0] == int(100 * 0.2125 + 50 * 0.7154 + 200 * 0.0721)


@pytest.mark.parametrize(
    ("space", "error", "match"),
    [
        (
            Discrete(3),
            TypeError,
            message_pattern(REQUIRES_BOX_MSG, wrapper="GrayscaleObservation", kind="observation"),
        ),
        (Box(0, 255, (4, 4), np.uint8), ValueError, message_pattern(GRAYSCALE_SHAPE_MSG)),
        (Box(0, 255, (4, 4, 4), np.uint8), ValueError, message_pattern(GRAYSCALE_SHAPE_MSG)),
        (Box(0, 1, (4, 4, 3), np.float32), ValueError, message_pattern(GRAYSCALE_BOUNDS_MSG)),
    ],
)
def test_grayscale_errors(space: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        GrayscaleObservation(GenericTestEnv(observation_space=space))


# --------------------------------------------------------------------------------------------
# ResizeObservation


@pytest.mark.parametrize("image_shape", [(24, 32, 3), (24, 32, 1), (24, 32)])
@pytest.mark.parametrize("shape", [(12, 8), (48, 40), (24, 32)])
def test_resize_observation_space_and_values(
    image_shape: tuple[int, ...], shape: tuple[int, int]
) -> None:
    env = ResizeObservation(_image_env(vecgym, image_shape), shape)
    assert env.observation_space == Box(0, 255, shape + image_shape[2:], np.uint8)
    for obs in _run(env):
        assert obs.shape == shape + image_shape[2:]
        assert obs.dtype == np.uint8
        assert obs in env.observation_space


def test_resize_observation_constant_and_gradient() -> None:
    env = ResizeObservation(
        GenericTestEnv(observation_space=Box(0, 255, (60, 80, 3), np.uint8)), (16, 120)
    )
    np.testing.assert_array_equal(env.observation(np.full((60, 80, 3), 9, np.uint8)), 9)
    gradient = np.broadcast_to(np.arange(80, dtype=np.uint8)[None, :, None] * 3, (60, 80, 3))
    out = env.observation(gradient).astype(int)
    assert np.all(np.diff(out, axis=1) >= 0)
    assert np.all(out == out[:1])


def test_resize_observation_spec_round_trip() -> None:
    env = ResizeObservation(
        AddRenderObservation(vecgym.make("CartPole-v1", render_mode="rgb_array")), (40, 60)
    )
    assert env.spec.additional_wrappers[-1].kwargs == {"shape": (40, 60)}
    rebuilt = _round_trip(env)
    _assert_same(_run(rebuilt, steps=1), _run(env, steps=1))


@pytest.mark.parametrize(
    ("space", "shape", "error", "match"),
    [
        (
            Discrete(3),
            (2, 2),
            TypeError,
            message_pattern(REQUIRES_BOX_MSG, wrapper="ResizeObservation", kind="observation"),
        ),
        (Box(0, 255, (4,), np.uint8), (2, 2), ValueError, message_pattern(RESIZE_NDIM_MSG)),
        (Box(0, 1, (4, 4), np.uint8), (2, 2), ValueError, message_pattern(RESIZE_BOUNDS_MSG)),
        (
            Box(0, 255, (4, 4), np.float32),
            (2, 2),
            ValueError,
            message_pattern(RESIZE_DTYPE_MSG, dtype=np.dtype(np.float32)),
        ),
        (
            Box(0, 255, (4, 4), np.uint8),
            [2, 2],
            TypeError,
            message_pattern(RESIZE_SHAPE_TYPE_MSG, type=list),
        ),
        (
            Box(0, 255, (4, 4), np.uint8),
            (2, 2, 2),
            ValueError,
            message_pattern(RESIZE_SHAPE_LEN_MSG),
        ),
        (
            Box(0, 255, (4, 4), np.uint8),
            (2.0, 2),
            TypeError,
            message_pattern(RESIZE_SHAPE_INT_MSG, shape=(2.0, 2)),
        ),
        (
            Box(0, 255, (4, 4), np.uint8),
            (0, 2),
            ValueError,
            message_pattern(RESIZE_SHAPE_VALUE_MSG, shape=(0, 2)),
        ),
        (
            Box(0, 255, (4, 4), np.uint8),
            (-3, 2),
            ValueError,
            message_pattern(RESIZE_SHAPE_VALUE_MSG, shape=(-3, 2)),
        ),
    ],
)
def test_resize_observation_errors(space: Any, shape: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        ResizeObservation(GenericTestEnv(observation_space=space), shape)


# --------------------------------------------------------------------------------------------
# ReshapeObservation


def test_reshape_matches_gymnasium() -> None:
    ours = ReshapeObservation(vecgym.make("CartPole-v1"), (2, 2))
    theirs = gym_wrappers.ReshapeObservation(gymnasium.make("CartPole-v1"), (2, 2))
    _assert_spaces_equal(ours.observation_space, theirs.observation_space)
    _assert_same(_run(ours), _run(theirs))
    _assert_same(_run(_round_trip(ours)), _run(ours))


def test_reshape_with_minus_one() -> None:
    env = ReshapeObservation(GenericTestEnv(observation_space=Box(0, 1, (6, 4))), (3, -1))
    assert env.observation_space == Box(0, 1, (3, 8))
    assert env.reset(seed=0)[0].shape == (3, 8)
    assert env.shape == (3, -1)


@pytest.mark.parametrize(
    ("space", "shape", "error", "match"),
    [
        (
            Discrete(3),
            (1,),
            TypeError,
            message_pattern(REQUIRES_BOX_MSG, wrapper="ReshapeObservation", kind="observation"),
        ),
        (Box(0, 1, (6,)), 6, TypeError, message_pattern(RESHAPE_TYPE_MSG, type=int)),
        (Box(0, 1, (6,)), (2.0, 3), TypeError, message_pattern(RESHAPE_INT_MSG, shape=(2.0, 3))),
        (Box(0, 1, (6,)), (4, 2), ValueError, message_pattern(RESHAPE_SIZE_MSG, new=(4, 2))),
        (Box(0, 1, (6,)), (0, 6), ValueError, message_pattern(RESHAPE_VALUE_MSG)),
        (Box(0, 1, (6,)), (-1, -1, 6), ValueError, message_pattern(RESHAPE_VALUE_MSG)),
        (Box(0, 1, (6,)), (-1, 4), ValueError, message_pattern(RESHAPE_SIZE_MSG, new=(-1, 4))),
    ],
)
def test_reshape_errors(space: Any, shape: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        ReshapeObservation(GenericTestEnv(observation_space=space), shape)


# --------------------------------------------------------------------------------------------
# RescaleObservation


def test_rescale_matches_gymnasium_and_round_trips() -> None:
    low = np.array([-2, -1, -10], dtype=np.float32)
    high = np.array([1, 0, 1], dtype=np.float32)
    ours = RescaleObservation(vecgym.make("Pendulum-v1"), low, high)
    theirs = gym_wrappers.RescaleObservation(gymnasium.make("Pendulum-v1"), low, high)
    _assert_spaces_equal(ours.observation_space, theirs.observation_space)
    observations = _run(ours, steps=5)
    _assert_same(observations, _run(theirs, steps=5))
    assert all(obs in ours.observation_space for obs in observations)
    _assert_same(_run(_round_trip(ours)), _run(ours))


def test_rescale_errors() -> None:
    with pytest.raises(
        TypeError,
        match=message_pattern(REQUIRES_BOX_MSG, wrapper="RescaleObservation", kind="observation"),
    ):
        RescaleObservation(GenericTestEnv(observation_space=Discrete(2)), 0, 1)
    with pytest.raises(ValueError, match=message_pattern(RESCALE_ORDER_MSG)):
        RescaleObservation(vecgym.make("Pendulum-v1"), np.float32(1), np.float32(0))


# --------------------------------------------------------------------------------------------
# DtypeObservation


@pytest.mark.parametrize(
    ("space", "expected"),
    [
        (Box(0, 10, (2,), np.int64), Box(0, 10, (2,), np.float32)),
        (Discrete(5, start=2), Box(2, 6, (), np.float32)),
        (MultiDiscrete([3, 4]), MultiDiscrete([3, 4], dtype=np.int32)),
        (MultiBinary(3), Box(0, 1, (3,), np.float32)),
    ],
)
def test_dtype_observation_spaces(space: Any, expected: Any) -> None:
    env = DtypeObservation(GenericTestEnv(observation_space=space), expected.dtype)
    assert env.observation_space == expected
    obs, _ = env.reset(seed=0)
    assert np.asarray(obs).dtype == expected.dtype
    assert np.asarray(obs) in env.observation_space


def test_dtype_observation_matches_gymnasium_and_round_trips() -> None:
    ours = DtypeObservation(vecgym.make("CartPole-v1"), np.float64)
    theirs = gym_wrappers.DtypeObservation(gymnasium.make("CartPole-v1"), np.float64)
    _assert_spaces_equal(ours.observation_space, theirs.observation_space)
    _assert_same(_run(ours), _run(theirs))
    _assert_same(_run(_round_trip(ours)), _run(ours))


def test_dtype_observation_error() -> None:
    with pytest.raises(TypeError, match=message_pattern(DTYPE_SPACE_MSG)):
        DtypeObservation(GenericTestEnv(observation_space=Text(4)), np.float32)


# --------------------------------------------------------------------------------------------
# AddRenderObservation


def test_add_render_observation_render_only() -> None:
    env = AddRenderObservation(vecgym.make("CartPole-v1", render_mode="rgb_array"))
    assert env.observation_space == Box(0, 255, (400, 600, 3), np.uint8)
    obs, _ = env.reset(seed=123)
    np.testing.assert_array_equal(obs, env.render())
    obs, *_ = env.step(0)
    np.testing.assert_array_equal(obs, env.render())


def _rendering_env(lib: Any) -> Any:
    """An image env of ``lib`` that renders a frame derived from its step count."""
    env = _image_env(lib, (5,))
    env.render_mode = "rgb_array"
    env.render = lambda: np.full((6, 8, 3), env._count, dtype=np.uint8)
    return env


def test_add_render_observation_with_state_matches_gymnasium() -> None:
    ours = AddRenderObservation(_rendering_env(vecgym), render_only=False)
    theirs = gym_wrappers.AddRenderObservation(_rendering_env(gymnasium), render_only=False)
    _assert_spaces_equal(ours.observation_space, theirs.observation_space)
    observations = _run(ours)
    _assert_same(observations, _run(theirs))
    assert list(observations[0]) == ["state", "pixels"]
    np.testing.assert_array_equal(observations[-1]["pixels"], 3)


def test_add_render_observation_dict_space_and_round_trip() -> None:
    base = _time_aware(vecgym.make("CartPole-v1", render_mode="rgb_array"))
    env = AddRenderObservation(base, render_only=False, render_key="img")
    assert set(env.observation_space.spaces) == {"img", "obs", "time"}
    obs, _ = env.reset(seed=1)
    assert set(obs) == {"img", "obs", "time"}
    rebuilt = _round_trip(env)
    assert rebuilt.spec.additional_wrappers[-1].kwargs == {
        "render_only": False,
        "render_key": "img",
        "obs_key": "state",
    }


def test_add_render_observation_errors() -> None:
    with pytest.raises(ValueError, match=message_pattern(RENDER_MODE_MSG)):
        AddRenderObservation(vecgym.make("CartPole-v1"))
    with pytest.raises(TypeError, match=message_pattern(RENDER_TYPE_MSG)):
        AddRenderObservation(GenericTestEnv(render_mode="rgb_array"))
    base = _time_aware(vecgym.make("CartPole-v1", render_mode="rgb_array"))
    with pytest.raises(ValueError, match=message_pattern(RENDER_KEY_EXISTS_MSG, key="time")):
        AddRenderObservation(base, render_only=False, render_key="time")


# --------------------------------------------------------------------------------------------
# DiscretizeObservation


@pytest.mark.parametrize(("bins", "multidiscrete"), [(3, False), ((2, 5, 4), True), (4, True)])
def test_discretize_matches_gymnasium(bins: Any, multidiscrete: bool) -> None:
    ours = DiscretizeObservation(vecgym.make("Pendulum-v1"), bins, multidiscrete)
    theirs = gym_wrappers.DiscretizeObservation(gymnasium.make("Pendulum-v1"), bins, multidiscrete)
    _assert_spaces_equal(ours.observation_space, theirs.observation_space)
    ours_obs, theirs_obs = _run(ours, steps=20), _run(theirs, steps=20)
    _assert_same(ours_obs, theirs_obs)
    assert all(obs in ours.observation_space for obs in ours_obs)
    for obs in ours_obs:
        low, high = ours.revert_observation(obs)
        gym_low, gym_high = theirs.revert_observation(obs)
        np.testing.assert_array_equal(low, gym_low)
        np.testing.assert_array_equal(high, gym_high)


def test_discretize_edges_and_clipping() -> None:
    env = DiscretizeObservation(GenericTestEnv(observation_space=Box(0, 1, (2,))), bins=(2, 5))
    assert env.observation_space == Discrete(10)
    assert env.observation(np.array([0.75, 0.5], np.float32)) == 7
    assert env.observation(np.array([0.0, 0.0], np.float32)) == 0
    assert env.observation(np.array([1.0, 1.0], np.float32)) == 9
    assert env.observation(np.array([5.0, -5.0], np.float32)) == 5
    low, high = env.revert_observation(7)
    np.testing.assert_allclose(low, [0.5, 0.4])
    np.testing.assert_allclose(high, [1.0, 0.6])


def test_discretize_round_trip() -> None:
    env = DiscretizeObservation(vecgym.make("Pendulum-v1"), bins=(2, 3, 4), multidiscrete=True)
    assert env.spec.additional_wrappers[-1].kwargs == {"bins": (2, 3, 4), "multidiscrete": True}
    _assert_same(_run(_round_trip(env)), _run(env))


@pytest.mark.parametrize(
    ("space", "bins", "error", "match"),
    [
        (Discrete(3), 2, TypeError, message_pattern(DISCRETIZE_SPACE_MSG)),
        (Box(-np.inf, 1, (2,)), 2, ValueError, message_pattern(DISCRETIZE_FINITE_MSG)),
        (
            Box(0, 1, (2,)),
            (2, 2, 2),
            ValueError,
            message_pattern(DISCRETIZE_BINS_LEN_MSG, expected=2, actual=3),
        ),
        (Box(0, 1, (2,)), 0, ValueError, message_pattern(DISCRETIZE_BINS_VALUE_MSG)),
        (Box(0, 1, (2,)), (2, -1), ValueError, message_pattern(DISCRETIZE_BINS_VALUE_MSG)),
        (Box(0, 1, (2,)), 2.5, TypeError, message_pattern(DISCRETIZE_BINS_VALUE_MSG)),
    ],
)
def test_discretize_errors(space: Any, bins: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        DiscretizeObservation(GenericTestEnv(observation_space=space), bins)
