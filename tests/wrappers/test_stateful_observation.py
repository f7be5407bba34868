"""Tests for vecgym.wrappers.stateful_observation, with Gymnasium side by side where practical."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.generic_env import GenericTestEnv
from tests.support.messages import message_pattern
from vecgym.error import InvalidBound
from vecgym.spaces import Box, Dict, Discrete, Text, Tuple
from vecgym.wrappers.common import TimeLimit
from vecgym.wrappers.stateful_observation import (
    DELAY_TYPE_MSG,
    DELAY_VALUE_MSG,
    EPSILON_MSG,
    NO_SHAPE_MSG,
    NO_TIME_LIMIT_MSG,
    PADDING_STR_MSG,
    PADDING_VALUE_MSG,
    SKIP_TYPE_MSG,
    SKIP_VALUE_MSG,
    STACK_TYPE_MSG,
    STACK_VALUE_MSG,
    TIME_KEY_EXISTS_MSG,
    DelayObservation,
    FrameStackObservation,
    MaxAndSkipObservation,
    NormalizeObservation,
    TimeAwareObservation,
)

gymnasium = pytest.importorskip("gymnasium")
gym_wrappers = pytest.importorskip("gymnasium.wrappers")


def _run(env: Any, seed: int = 7, steps: int = 6, action: Any = None) -> list[Any]:
    out = [env.reset(seed=seed)[0]]
    env.action_space.seed(seed)
    for _ in range(steps):
        act = env.action_space.sample() if action is None else action
        obs, _, terminated, truncated, _ = env.step(act)
        out.append(obs)
        if terminated or truncated:
            out.append(env.reset()[0])
    return out


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


def _round_trip(env: Any) -> Any:
    rebuilt = vecgym.make(env.spec)
    assert type(rebuilt) is type(env)
    last, expected = rebuilt.spec.additional_wrappers[-1], env.spec.additional_wrappers[-1]
    assert (last.name, last.entry_point) == (expected.name, expected.entry_point)
    assert last.kwargs.keys() == expected.kwargs.keys()
    for key, value in last.kwargs.items():
        np.testing.assert_array_equal(value, expected.kwargs[key])
    assert rebuilt.observation_space == env.observation_space
    return rebuilt


def _counting_env(space: Any = None, **kwargs: Any) -> GenericTestEnv:
    """A GenericTestEnv whose observation is ``full(space.shape, step count)``."""
    space = space if space is not None else Box(0, 100, (2,))

    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        self.count = 0
        return np.full(space.shape, 0, dtype=space.dtype), {}

    def step(self: Any, action: Any) -> Any:
        self.count += 1
        done = self.count >= kwargs.get("terminate_at", 10**9)
        return np.full(space.shape, self.count, dtype=space.dtype), 1.0, done, False, {}

    return GenericTestEnv(observation_space=space, reset_func=reset, step_func=step)


# --------------------------------------------------------------------------------------------
# DelayObservation


@pytest.mark.parametrize("delay", [0, 1, 3])
def test_delay_matches_gymnasium(delay: int) -> None:
    ours = DelayObservation(vecgym.make("CartPole-v1"), delay=delay)
    theirs = gym_wrappers.DelayObservation(gymnasium.make("CartPole-v1"), delay=delay)
    observations = _run(ours, steps=30)
    _assert_same(observations, _run(theirs, steps=30))
    np.testing.assert_array_equal(observations[0], np.zeros(4) if delay else observations[0])


def test_delay_semantics_and_reset_clears() -> None:
    env = DelayObservation(_counting_env(), delay=2)
    assert env.reset()[0].tolist() == [0, 0]
    assert [env.step(0)[0][0] for _ in range(3)] == [0, 0, 1]
    assert env.reset()[0].tolist() == [0, 0]
    assert len(env.observation_queue) == 1


def test_delay_zero_value_respects_bounds() -> None:
    env = DelayObservation(_counting_env(Box(5, 10, (2,))), delay=1)
    np.testing.assert_array_equal(env.reset()[0], [5, 5])


def test_delay_round_trip_and_errors() -> None:
    env = DelayObservation(vecgym.make("CartPole-v1"), delay=2)
    _assert_same(_run(_round_trip(env)), _run(env))
    with pytest.raises(TypeError, match=message_pattern(DELAY_TYPE_MSG, type=float)):
        DelayObservation(vecgym.make("CartPole-v1"), delay=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message_pattern(DELAY_VALUE_MSG)):
        DelayObservation(vecgym.make("CartPole-v1"), delay=-1)


# --------------------------------------------------------------------------------------------
# TimeAwareObservation


@pytest.mark.parametrize("flatten", [True, False])
@pytest.mark.parametrize("normalize_time", [True, False])
def test_time_aware_matches_gymnasium(flatten: bool, normalize_time: bool) -> None:
    ours = TimeAwareObservation(vecgym.make("CartPole-v1"), flatten, normalize_time)
    theirs = gym_wrappers.TimeAwareObservation(
        gymnasium.make("CartPole-v1"), flatten, normalize_time
    )
    assert str(ours.observation_space) == str(theirs.observation_space)
    observations = _run(ours, steps=15)
    _assert_same(observations, _run(theirs, steps=15))
    assert all(obs in ours.observation_space for obs in observations)


def test_time_aware_dict_and_tuple_spaces() -> None:
    space = Dict(a=Box(0, 1, (2,)), b=Discrete(3))
    env = TimeAwareObservation(_counting_env(space=Box(0, 1, (1,))), flatten=False)
    assert set(env.observation_space.spaces) == {"obs", "time"}
    dict_env = TimeAwareObservation(
        GenericTestEnv(observation_space=space), flatten=False, dict_time_key="t"
    )
    assert list(dict_env.observation_space.spaces) == ["a", "b", "t"]
    obs, _ = dict_env.reset(seed=0)
    assert obs["t"].tolist() == [0]
    assert dict_env.step(0)[0]["t"].tolist() == [1]
    tuple_env = TimeAwareObservation(
        GenericTestEnv(observation_space=Tuple((Discrete(2),))), flatten=False
    )
    assert tuple_env.observation_space == Tuple((Discrete(2), Box(0, 100, (1,), np.int32)))
    obs, _ = tuple_env.reset(seed=0)
    assert len(obs) == 2
    assert obs in tuple_env.observation_space


def test_time_aware_finds_time_limit_in_stack() -> None:
    env = TimeLimit(GenericTestEnv(spec=None), max_episode_steps=7)
    wrapped = TimeAwareObservation(env, normalize_time=True)
    assert wrapped.max_timesteps == 7
    wrapped.reset(seed=0)
    assert wrapped.step(0)[0][-1] == np.float32(1 / 7)


def test_time_aware_round_trip_and_errors() -> None:
    env = TimeAwareObservation(vecgym.make("CartPole-v1"), flatten=False, dict_time_key="t")
    _assert_same(_run(_round_trip(env)), _run(env))
    with pytest.raises(ValueError, match=message_pattern(NO_TIME_LIMIT_MSG)):
        TimeAwareObservation(GenericTestEnv(spec=None))
    with pytest.raises(ValueError, match=message_pattern(TIME_KEY_EXISTS_MSG, key="time")):
        TimeAwareObservation(GenericTestEnv(observation_space=Dict(time=Discrete(2))))


# --------------------------------------------------------------------------------------------
# FrameStackObservation


@pytest.mark.parametrize("padding_type", ["reset", "zero"])
@pytest.mark.parametrize("stack_size", [1, 3])
def test_frame_stack_matches_gymnasium(padding_type: str, stack_size: int) -> None:
    ours = FrameStackObservation(vecgym.make("CartPole-v1"), stack_size, padding_type=padding_type)
    theirs = gym_wrappers.FrameStackObservation(
        gymnasium.make("CartPole-v1"), stack_size, padding_type=padding_type
    )
    assert str(ours.observation_space) == str(theirs.observation_space)
    observations = _run(ours, steps=30)
    _assert_same(observations, _run(theirs, steps=30))
    assert all(obs in ours.observation_space for obs in observations)


def test_frame_stack_semantics_and_copies() -> None:
    env = FrameStackObservation(_counting_env(), 3, padding_type=np.array([9.0, 9.0], np.float32))
    assert env.padding_type == "_custom"
    first = env.reset()[0]
    assert first[:, 0].tolist() == [9, 9, 0]
    second = env.step(0)[0]
    assert second[:, 0].tolist() == [9, 0, 1]
    assert env.step(0)[0][:, 0].tolist() == [0, 1, 2]
    assert first[:, 0].tolist() == [9, 9, 0]  # earlier results are not overwritten
    assert second is not env.stacked_obs


def test_frame_stack_composite_space() -> None:
    space = Dict(a=Box(0, 1, (2,)), b=Discrete(3))
    env = FrameStackObservation(GenericTestEnv(observation_space=space), 2, padding_type="zero")
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    assert obs["b"][0] == 0


def test_frame_stack_round_trip() -> None:
    env = FrameStackObservation(
        vecgym.make("CartPole-v1"), 4, padding_type=np.zeros(4, dtype=np.float32)
    )
    _assert_same(_run(_round_trip(env)), _run(env))


@pytest.mark.parametrize(
    ("stack_size", "padding", "error", "match"),
    [
        (2.0, "reset", TypeError, message_pattern(STACK_TYPE_MSG, type=float)),
        (0, "reset", ValueError, message_pattern(STACK_VALUE_MSG, value=0)),
        (-2, "reset", ValueError, message_pattern(STACK_VALUE_MSG, value=-2)),
        (2, "resett", ValueError, message_pattern(PADDING_STR_MSG, value="resett")),
        (2, np.array([5.0, 5.0]), ValueError, message_pattern(PADDING_VALUE_MSG)),
    ],
)
def test_frame_stack_errors(stack_size: Any, padding: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        FrameStackObservation(_counting_env(Box(0, 1, (2,))), stack_size, padding_type=padding)


def test_frame_stack_text_padding_may_be_a_member() -> None:
    env = FrameStackObservation(
        GenericTestEnv(observation_space=Text(3, charset="ab")), 2, padding_type="ab"
    )
    assert env.padding_type == "_custom"


# --------------------------------------------------------------------------------------------
# NormalizeObservation


def test_normalize_matches_gymnasium() -> None:
    ours = NormalizeObservation(vecgym.make("CartPole-v1"))
    theirs = gym_wrappers.NormalizeObservation(gymnasium.make("CartPole-v1"))
    assert str(ours.observation_space) == str(theirs.observation_space)
    _assert_same(_run(ours, steps=40), _run(theirs, steps=40))
    np.testing.assert_array_equal(ours.obs_rms.mean, theirs.obs_rms.mean)
    np.testing.assert_array_equal(ours.obs_rms.var, theirs.obs_rms.var)


def test_normalize_freeze_statistics() -> None:
    env = NormalizeObservation(_counting_env())
    env.reset()
    for _ in range(5):
        env.step(0)
    env.update_running_mean = False
    assert env.update_running_mean is False
    mean, count = env.obs_rms.mean.copy(), env.obs_rms.count
    obs = env.step(0)[0]
    np.testing.assert_array_equal(env.obs_rms.mean, mean)
    assert env.obs_rms.count == count
    expected = (6 - mean) / np.sqrt(env.obs_rms.var + env.epsilon)
    np.testing.assert_allclose(obs, expected, rtol=1e-6)
    assert obs.dtype == np.float32


def test_normalize_round_trip_and_errors() -> None:
    env = NormalizeObservation(vecgym.make("CartPole-v1"), epsilon=1e-6)
    _assert_same(
        _run(_round_trip(env)), _run(NormalizeObservation(vecgym.make("CartPole-v1"), 1e-6))
    )
    with pytest.raises(InvalidBound, match=message_pattern(EPSILON_MSG, value=0.0)):
        NormalizeObservation(vecgym.make("CartPole-v1"), epsilon=0.0)
    with pytest.raises(ValueError, match=message_pattern(NO_SHAPE_MSG)):
        NormalizeObservation(GenericTestEnv(observation_space=Text(3)))


# --------------------------------------------------------------------------------------------
# MaxAndSkipObservation


@pytest.mark.parametrize("skip", [2, 4])
def test_max_and_skip_matches_gymnasium_without_early_end(skip: int) -> None:
    ours = MaxAndSkipObservation(vecgym.make("Pendulum-v1"), skip=skip)
    theirs = gym_wrappers.MaxAndSkipObservation(gymnasium.make("Pendulum-v1"), skip=skip)
    ours_obs, theirs_obs = _run(ours, steps=10), _run(theirs, steps=10)
    _assert_same(ours_obs, theirs_obs)


def test_max_and_skip_semantics() -> None:
    env = MaxAndSkipObservation(_counting_env(), skip=3)
    assert env.reset()[0].tolist() == [0, 0]
    obs, reward, terminated, truncated, _ = env.step(0)
    assert obs.tolist() == [3, 3]
    assert reward == 3.0
    assert not terminated
    assert not truncated


def test_max_and_skip_early_end_returns_final_frame() -> None:
    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        self.count = 0
        return np.array([50.0], np.float32), {}

    def step(self: Any, action: Any) -> Any:
        self.count += 1
        return np.array([10.0 * self.count], np.float32), 1.0, self.count == 5, False, {}

    env = MaxAndSkipObservation(
        GenericTestEnv(observation_space=Box(0, 100, (1,)), reset_func=reset, step_func=step),
        skip=4,
    )
    env.reset()
    assert env.step(0)[0].tolist() == [40.0]  # max(30, 40)
    obs, reward, terminated, _, _ = env.step(0)  # ends on its first frame (count 5)
    assert terminated
    assert reward == 1.0
    assert obs.tolist() == [50.0]  # max(40, 50): the final frame is included


def test_max_and_skip_round_trip_and_errors() -> None:
    env = MaxAndSkipObservation(vecgym.make("Pendulum-v1"), skip=3)
    _assert_same(_run(_round_trip(env)), _run(env))
    with pytest.raises(TypeError, match=message_pattern(SKIP_TYPE_MSG, type=float)):
        MaxAndSkipObservation(vecgym.make("Pendulum-v1"), skip=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message_pattern(SKIP_VALUE_MSG)):
        MaxAndSkipObservation(vecgym.make("Pendulum-v1"), skip=1)
    with pytest.raises(
        ValueError, match=message_pattern(NO_SHAPE_MSG, wrapper="MaxAndSkipObservation")
    ):
        MaxAndSkipObservation(GenericTestEnv(observation_space=Text(3)))
