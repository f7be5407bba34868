"""LegacyGymCompatibility and register_legacy_env: old OpenAI Gym envs as vecgym envs."""

from __future__ import annotations

import functools
import sys
import types
import uuid
from collections.abc import Callable, Iterator
from typing import Any, cast

import numpy as np
import pytest

import vecgym
from tests.support import legacy_env as old
from tests.support.legacy_env import LegacyCountingEnv
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Tuple
from vecgym.utils.env_checker import check_env
from vecgym.utils.step_api_compatibility import STEP_LENGTH_MSG
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv
from vecgym.wrappers.legacy import (
    ALREADY_NEW_API_MSG,
    ENV_CREATOR_TYPE_MSG,
    GYM_NOT_INSTALLED_MSG,
    LEGACY_ENTRY_POINT,
    MAKE_KWARGS_TYPE_MSG,
    MAKE_KWARGS_WITH_ENV_MSG,
    NO_RENDER_MODE_MSG,
    NO_SEED_METHOD_MSG,
    NO_SOURCE_MSG,
    OPTIONS_IGNORED_MSG,
    SPACE_CONVERSION_MSG,
    STEP_INFO_TYPE_MSG,
    LegacyGymCompatibility,
    convert_legacy_space,
    register_legacy_env,
)

CREATOR = "tests.support.legacy_env:LegacyCountingEnv"


def _wrap(max_steps: int = 5, **kwargs: Any) -> LegacyGymCompatibility:
    return LegacyGymCompatibility(LegacyCountingEnv(max_steps=max_steps), **kwargs)


def _raw(env: LegacyGymCompatibility) -> LegacyCountingEnv:
    """The old env inside ``env``."""
    return cast(LegacyCountingEnv, env.gym_env)


@pytest.fixture
def env_id() -> Iterator[str]:
    """A fresh id, removed from the registry after the test."""
    new_id = f"LegacyCounting{uuid.uuid4().hex[:8]}-v0"
    yield new_id
    vecgym.registry.pop(new_id, None)


# --- the done -> terminated / truncated split -----------------------------------------------------
def test_time_limit_done_becomes_truncated() -> None:
    env = _wrap(max_steps=3)
    env.reset(seed=0)
    flags = []
    for _ in range(3):
        _, reward, terminated, truncated, info = env.step(0)
        flags.append((terminated, truncated))
    assert flags == [(False, False), (False, False), (False, True)]
    assert reward == pytest.approx(0.3)
    assert info == {"t": 3}  # the key is consumed by the split; other keys stay
    assert all(type(flag) is bool for pair in flags for flag in pair)


def test_done_without_key_is_terminated() -> None:
    env = _wrap(max_steps=3)
    env.reset(seed=0)
    _, _, terminated, truncated, info = env.step(1)
    assert (terminated, truncated) == (True, False)
    assert "TimeLimit.truncated" not in info


def test_terminal_step_at_the_limit_is_terminated_not_truncated() -> None:
    env = _wrap(max_steps=2)
    env.reset(seed=0)
    env.step(0)
    _, _, terminated, truncated, info = env.step(1)  # old TimeLimit set the key to False
    assert (terminated, truncated) == (True, False)
    assert "TimeLimit.truncated" not in info


def test_step_matches_the_step_api_converter() -> None:
    from vecgym.utils.step_api_compatibility import convert_to_terminated_truncated_step_api

    wrapped, raw = _wrap(max_steps=2), LegacyCountingEnv(max_steps=2)
    wrapped.reset(seed=3)
    raw.seed(3)
    raw.reset()
    for action in (0, 0):
        ours = wrapped.step(action)
        expected = convert_to_terminated_truncated_step_api(raw.step(action))
        np.testing.assert_array_equal(ours[0], expected[0])
        assert ours[1:] == expected[1:]


def test_new_api_step_result_passes_through() -> None:
    raw = LegacyCountingEnv()
    setattr(raw, "step", lambda action: (raw._obs(), 0.0, False, True, {}))  # noqa: B010
    env = LegacyGymCompatibility(raw)
    env.reset()
    assert env.step(0)[2:] == (False, True, {})


def test_bad_step_results_are_refused() -> None:
    raw = LegacyCountingEnv()
    env = LegacyGymCompatibility(raw)
    env.reset()
    setattr(raw, "step", lambda action: (raw._obs(), 0.0, False, ["not", "a", "dict"]))  # noqa: B010
    with pytest.raises(TypeError, match=message_pattern(STEP_INFO_TYPE_MSG)):
        env.step(0)
    setattr(raw, "step", lambda action: (raw._obs(), 0.0, False))  # noqa: B010
    with pytest.raises(ValueError, match=message_pattern(STEP_LENGTH_MSG)):
        env.step(0)


# --- reset and seeding ----------------------------------------------------------------------------
def test_reset_returns_obs_and_empty_info() -> None:
    env = _wrap()
    obs, info = env.reset()
    assert info == {}
    assert obs in env.observation_space
    assert _raw(env).seeds == []  # no seed given: the old seed() is not called


def test_reset_seed_calls_old_seed_first() -> None:
    env = _wrap()
    calls: list[str] = []
    raw = _raw(env)
    original_seed, original_reset = raw.seed, raw.reset

    def seed(seed: int | None = None) -> list[int | None]:
        calls.append(f"seed({seed})")
        return original_seed(seed)

    def reset() -> np.ndarray:
        calls.append("reset()")
        return original_reset()

    setattr(raw, "seed", seed)  # noqa: B010
    setattr(raw, "reset", reset)  # noqa: B010
    env.reset(seed=7)
    env.reset()
    assert calls == ["seed(7)", "reset()", "reset()"]
    assert env.np_random_seed == 7


def test_seeding_is_deterministic() -> None:
    def rollout(seed: int) -> list[np.ndarray]:
        env = _wrap(max_steps=10)
        observations = [env.reset(seed=seed)[0]]
        observations += [env.step(0)[0] for _ in range(3)]
        observations.append(env.reset()[0])
        return observations

    first, second, other = rollout(11), rollout(11), rollout(12)
    for a, b in zip(first, second, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], other[0])

    # the same numbers as seeding the old env by hand
    raw = LegacyCountingEnv(max_steps=10)
    raw.seed(11)
    np.testing.assert_array_equal(raw.reset(), first[0])


def test_bad_seed_is_refused_before_the_old_env_is_touched() -> None:
    env = _wrap()
    with pytest.raises(error.Error):
        env.reset(seed=-1)
    assert _raw(env).seeds == []


def test_old_env_without_seed_method_warns() -> None:
    class NoSeed(LegacyCountingEnv):
        seed = None  # type: ignore[assignment]

    env = LegacyGymCompatibility(NoSeed())
    with pytest.warns(UserWarning, match=message_pattern(NO_SEED_METHOD_MSG)):
        env.reset(seed=1)


def test_reset_options_are_ignored_with_a_warning() -> None:
    env = _wrap()
    env.reset(options={})  # empty: nothing to ignore
    with pytest.warns(UserWarning, match=message_pattern(OPTIONS_IGNORED_MSG)):
        env.reset(options={"level": 2})


def test_reset_returning_obs_and_info_is_recognised() -> None:
    raw = LegacyCountingEnv()
    original_reset = raw.reset
    setattr(raw, "reset", lambda: (original_reset(), {"from": "env"}))  # noqa: B010
    env = LegacyGymCompatibility(raw)
    obs, info = env.reset()
    assert info == {"from": "env"}
    assert obs in env.observation_space


# --- rendering and metadata -----------------------------------------------------------------------
def test_metadata_gets_new_keys_and_keeps_old_ones() -> None:
    env = _wrap()
    assert env.metadata["render_modes"] == ["human", "rgb_array", "ansi"]
    assert env.metadata["render.modes"] == ["human", "rgb_array", "ansi"]
    assert env.metadata["render_fps"] == 15
    assert LegacyCountingEnv.metadata == {
        "render.modes": ["human", "rgb_array", "ansi"],
        "video.frames_per_second": 15,
    }  # the old class's metadata is not changed


def test_metadata_defaults_without_old_metadata() -> None:
    class Bare(LegacyCountingEnv):
        metadata = None  # type: ignore[assignment]

    env = LegacyGymCompatibility(Bare(), render_mode="ansi")  # no declared modes: any is accepted
    assert env.metadata == {"render_modes": []}


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("rgb_array", np.full((*old.RENDER_SIZE, 3), 1, dtype=np.uint8)), ("ansi", "t=1")],
)
def test_render_passes_the_construction_mode(mode: str, expected: Any) -> None:
    env = _wrap(render_mode=mode)
    assert env.render_mode == mode
    env.reset(seed=0)
    env.step(0)
    np.testing.assert_array_equal(env.render(), expected)


def test_human_mode_renders_after_reset_and_step() -> None:
    env = _wrap(render_mode="human")
    env.reset(seed=0)
    env.step(0)
    env.step(0)
    assert _raw(env).human_renders == 3
    assert env.render() is None
    assert _raw(env).human_renders == 4


def test_render_without_mode_warns() -> None:
    env = _wrap()
    env.reset()
    with pytest.warns(UserWarning, match=message_pattern(NO_RENDER_MODE_MSG)):
        assert env.render() is None


def test_unknown_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match=r"render_mode must be None or one of .*'rgb_array_list'"):
        _wrap(render_mode="rgb_array_list")


# --- spaces ---------------------------------------------------------------------------------------
def test_gym_like_spaces_are_converted() -> None:
    env = LegacyGymCompatibility(LegacyCountingEnv(max_steps=4, gym_like_spaces=True))
    assert env.observation_space == Box(0.0, 4.0, (2,), np.float32)
    assert env.action_space == Discrete(2)
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space


@pytest.mark.parametrize(
    ("gym_space", "expected"),
    [
        (old.Box(-1.0, 2.0, (3,), np.float64), Box(-1.0, 2.0, (3,), np.float64)),
        (old.SubclassedBox(0, 255, (2, 2), np.uint8), Box(0, 255, (2, 2), np.uint8)),
        (old.Discrete(4), Discrete(4)),
        (old.MultiDiscrete([2, 3]), MultiDiscrete([2, 3])),
        (old.MultiBinary(5), MultiBinary(5)),
        (
            old.Tuple((old.Discrete(2), old.Box(0.0, 1.0, (1,), np.float32))),
            Tuple((Discrete(2), Box(0.0, 1.0, (1,), np.float32))),
        ),
        (
            old.Dict({"b": old.MultiBinary(2), "a": old.Tuple((old.Discrete(3),))}),
            Dict({"b": MultiBinary(2), "a": Tuple((Discrete(3),))}),
        ),
    ],
)
def test_convert_legacy_space(gym_space: Any, expected: Any) -> None:
    converted = convert_legacy_space(gym_space)
    assert converted == expected
    assert type(converted) is type(expected)
    if isinstance(expected, Dict):
        assert list(cast(Dict, converted).keys()) == ["b", "a"]  # the old key order is kept


def test_discrete_start_is_kept() -> None:
    space = old.Discrete(3)
    space.start = 2  # type: ignore[attr-defined]
    assert convert_legacy_space(space) == Discrete(3, start=2)


def test_vecgym_spaces_pass_through() -> None:
    space = Box(0.0, 1.0, (2,), np.float32)
    assert convert_legacy_space(space) is space


def test_unknown_space_is_refused() -> None:
    with pytest.raises(TypeError, match=message_pattern(SPACE_CONVERSION_MSG)):
        convert_legacy_space(object())


# --- construction ---------------------------------------------------------------------------------
def test_reward_range_and_recorded_arguments() -> None:
    env = LegacyGymCompatibility(env_creator=CREATOR, make_kwargs={"max_steps": 4})
    assert env.reward_range == (0.0, 10.0)
    assert _raw(env).max_steps == 4
    assert env._saved_kwargs == {
        "env": None,
        "render_mode": None,
        "env_creator": CREATOR,
        "env_id": None,
        "make_kwargs": {"max_steps": 4},
    }
    assert str(env).startswith("<LegacyGymCompatibility<tests.support.legacy_env.")


def test_default_reward_range() -> None:
    class Plain:
        metadata: dict[str, Any] = {}
        observation_space = Discrete(2)
        action_space = Discrete(2)

        def reset(self) -> int:
            return 0

        def step(self, action: Any) -> tuple[int, float, bool, dict[str, Any]]:
            return 0, 0.0, False, {}

        def render(self, mode: str = "human") -> None:
            return None

        def close(self) -> None:
            pass

    assert LegacyGymCompatibility(Plain()).reward_range == (-float("inf"), float("inf"))


def test_env_creator_callable() -> None:
    env = LegacyGymCompatibility(
        env_creator=old.make_legacy_counting_env, make_kwargs={"max_steps": 2}
    )
    assert _raw(env).max_steps == 2


def test_close_is_forwarded_once() -> None:
    env = _wrap()
    env.close()
    env.close()
    assert _raw(env).close_calls == 1


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({}, error.MissingArgument, message_pattern(NO_SOURCE_MSG)),
        (
            {"env": LegacyCountingEnv(), "env_creator": CREATOR},
            ValueError,
            r"exactly one of .*\['env', 'env_creator'\]",
        ),
        (
            {"env": LegacyCountingEnv(), "make_kwargs": {"a": 1}},
            ValueError,
            message_pattern(MAKE_KWARGS_WITH_ENV_MSG),
        ),
        (
            {"env_creator": CREATOR, "make_kwargs": [1]},
            TypeError,
            message_pattern(MAKE_KWARGS_TYPE_MSG),
        ),
        ({"env_creator": 3}, TypeError, message_pattern(ENV_CREATOR_TYPE_MSG)),
        ({"env": object()}, TypeError, r"lacks \['reset', 'step', 'render', 'close'"),
    ],
)
def test_bad_construction_arguments(kwargs: dict[str, Any], exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        LegacyGymCompatibility(**kwargs)


def test_new_api_env_is_refused() -> None:
    with pytest.raises(TypeError, match=message_pattern(ALREADY_NEW_API_MSG)):
        LegacyGymCompatibility(vecgym.make("CartPole-v1").unwrapped)  # type: ignore[arg-type]


def test_env_id_without_gym_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gym", None)
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(GYM_NOT_INSTALLED_MSG)):
        LegacyGymCompatibility(env_id="CartPole-v0")


def test_env_id_uses_the_old_gym_make(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, dict[str, Any]]] = []

    def fake_make(env_id: str, **kwargs: Any) -> LegacyCountingEnv:
        made.append((env_id, kwargs))
        return LegacyCountingEnv(**kwargs)

    fake_gym = types.ModuleType("gym")
    fake_gym.make = fake_make  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gym", fake_gym)
    env = LegacyGymCompatibility(env_id="Counting-v0", make_kwargs={"max_steps": 3})
    assert made == [("Counting-v0", {"max_steps": 3})]
    assert _raw(env).max_steps == 3


def test_old_env_compatibility_name_points_here() -> None:
    with pytest.raises(AttributeError, match="LegacyGymCompatibility"):
        vecgym.wrappers.EnvCompatibility  # noqa: B018


# --- registry and make ----------------------------------------------------------------------------
def test_register_legacy_env_and_make(env_id: str) -> None:
    register_legacy_env(env_id, CREATOR, make_kwargs={"max_steps": 3}, max_episode_steps=50)
    spec = vecgym.spec(env_id)
    assert spec.entry_point == LEGACY_ENTRY_POINT
    assert spec.kwargs == {"env_creator": CREATOR, "make_kwargs": {"max_steps": 3}}

    env = vecgym.make(env_id, render_mode="ansi")
    assert isinstance(env.unwrapped, LegacyGymCompatibility)
    assert env.render_mode == "ansi"
    assert env.spec is not None
    assert env.spec.max_episode_steps == 50
    obs, info = env.reset(seed=5)
    assert obs in env.observation_space
    assert info == {}
    results = [env.step(0) for _ in range(3)]
    assert [r[2:4] for r in results] == [(False, False), (False, False), (False, True)]
    assert env.render() == "t=3"
    env.close()

    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt.unwrapped, LegacyGymCompatibility)
    assert rebuilt.render_mode == "ansi"
    rebuilt.close()


def test_plain_register_with_the_entry_point(env_id: str) -> None:
    vecgym.register(
        env_id,
        entry_point=LEGACY_ENTRY_POINT,
        kwargs={"env_creator": "tests.support.legacy_env:make_legacy_counting_env"},
    )
    env = vecgym.make(env_id, max_episode_steps=2)  # vecgym's TimeLimit on top
    env.reset(seed=0)
    assert env.step(0)[2:4] == (False, False)
    assert env.step(0)[2:4] == (False, True)
    env.close()


def test_spec_is_serialisable(env_id: str) -> None:
    register_legacy_env(env_id, CREATOR)
    env = vecgym.make(env_id)
    assert env.spec is not None
    assert vecgym.envs.registration.EnvSpec.from_json(env.spec.to_json()) == env.spec
    env.close()


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((3,), {}, message_pattern(ENV_CREATOR_TYPE_MSG)),
        ((CREATOR,), {"make_kwargs": 1}, message_pattern(MAKE_KWARGS_TYPE_MSG)),
        ((CREATOR,), {"entry_point": "x:y"}, r"sets \['entry_point'\] itself"),
        ((CREATOR,), {"kwargs": {}}, r"sets \['kwargs'\] itself"),
    ],
)
def test_register_legacy_env_bad_arguments(
    env_id: str, args: tuple[Any, ...], kwargs: dict[str, Any], match: str
) -> None:
    with pytest.raises(TypeError, match=match):
        register_legacy_env(env_id, *args, **kwargs)
    assert env_id not in vecgym.registry


def test_check_env_passes(env_id: str) -> None:
    register_legacy_env(env_id, CREATOR, make_kwargs={"max_steps": 5})
    env = vecgym.make(env_id, render_mode="rgb_array")
    check_env(env.unwrapped)
    env.close()


def test_check_env_passes_without_a_spec() -> None:
    with pytest.warns(UserWarning, match="spec"):  # advisory: render modes cannot be rebuilt
        check_env(_wrap(render_mode="ansi"))


# --- vector envs ----------------------------------------------------------------------------------
ACTIONS = [np.array(a) for a in ([0, 1], [0, 0], [0, 0], [0, 0], [1, 1], [0, 0])]


def _run_vector(vec_env: Any) -> list[tuple[np.ndarray, ...]]:
    """Reset with seed 0, step through ACTIONS; return copies of every batch."""
    try:
        obs, _ = vec_env.reset(seed=0)
        batches: list[tuple[np.ndarray, ...]] = [(obs.copy(),)]
        for action in ACTIONS:
            obs, reward, terminated, truncated, _ = vec_env.step(action)
            batches.append((obs.copy(), reward.copy(), terminated.copy(), truncated.copy()))
        return batches
    finally:
        vec_env.close()


def _check_vector_run(batches: list[tuple[np.ndarray, ...]]) -> None:
    """Flags and step counts of ACTIONS with max_steps=3 under NEXT_STEP autoreset.

    Env 0: truncated by the step limit at step 3, reset at step 4, terminated at step 5. Env 1:
    terminated at step 1, reset at step 2, terminated at step 5 on the limit step (terminated,
    not truncated: the old TimeLimit key is False). Both reset at step 6.
    """
    terminated = [b[2].tolist() for b in batches[1:]]
    truncated = [b[3].tolist() for b in batches[1:]]
    assert terminated == [[0, 1], [0, 0], [0, 0], [0, 0], [1, 1], [0, 0]]
    assert truncated == [[0, 0], [0, 0], [1, 0], [0, 0], [0, 0], [0, 0]]
    # observation[0] is the step count: a NEXT_STEP reset shows 0, with reward 0
    counts = [b[0][:, 0].tolist() for b in batches]
    assert counts == [[0, 0], [1, 1], [2, 0], [3, 1], [0, 2], [1, 3], [0, 0]]
    rewards = np.array([b[1] for b in batches[1:]])
    expected_rewards = [[0.1, 0.1], [0.2, 0.0], [0.3, 0.1], [0.0, 0.2], [0.1, 0.3], [0.0, 0.0]]
    np.testing.assert_allclose(rewards, expected_rewards)


def _env_fn(spec: Any) -> Callable[[], Any]:
    return functools.partial(vecgym.make, spec)


def test_sync_vector_env(env_id: str) -> None:
    register_legacy_env(env_id, CREATOR, make_kwargs={"max_steps": 3})
    batches = _run_vector(SyncVectorEnv([lambda: vecgym.make(env_id)] * 2))
    _check_vector_run(batches)

    # reset(seed=0) seeds env i with 0 + i, through the old seed()
    for index in range(2):
        raw = LegacyCountingEnv(max_steps=3)
        raw.seed(index)
        np.testing.assert_array_equal(batches[0][0][index], raw.reset())


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_async_vector_env_matches_sync(env_id: str, context: str) -> None:
    register_legacy_env(env_id, CREATOR, make_kwargs={"max_steps": 3})
    spec = vecgym.spec(env_id)  # a spawned worker has a fresh registry: give it the spec
    sync_batches = _run_vector(SyncVectorEnv([_env_fn(spec)] * 2))
    async_env = AsyncVectorEnv([_env_fn(spec)] * 2, context=context)
    try:
        assert async_env.single_observation_space == Box(0.0, 3.0, (2,), np.float32)
    finally:
        async_batches = _run_vector(async_env)  # closes async_env
    _check_vector_run(async_batches)
    for sync_batch, async_batch in zip(sync_batches, async_batches, strict=True):
        for sync_array, async_array in zip(sync_batch, async_batch, strict=True):
            np.testing.assert_array_equal(sync_array, async_array)


def test_vector_env_reads_legacy_attributes(env_id: str) -> None:
    register_legacy_env(env_id, CREATOR)
    vec_env = SyncVectorEnv([lambda: vecgym.make(env_id)] * 2)
    try:
        assert vec_env.get_attr("reward_range") == ((0.0, 10.0), (0.0, 10.0))
        assert vec_env.metadata["render_modes"] == ["human", "rgb_array", "ansi"]
    finally:
        vec_env.close()
