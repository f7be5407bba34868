"""Tests of vecgym.wrappers.vector: names, spaces, differential checks against Gymnasium, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
import vecgym.wrappers.vector as vw
from tests.support.counting_env import CountingEnv
from tests.support.messages import WILDCARD, message_pattern
from vecgym import error
from vecgym.core.spaces.box import BOUND_PRECISION_MSG
from vecgym.spaces import Box, Dict
from vecgym.vector import AutoresetMode, SyncVectorEnv
from vecgym.vector.vector_env import OBS_WRAPPER_MODE_MSG, WRAPPER_ENV_TYPE_MSG
from vecgym.wrappers.rendering import HUMAN_RENDER_MODE_MSG, VIDEO_RENDER_MODE_MSG
from vecgym.wrappers.stateful_observation import NO_SHAPE_MSG
from vecgym.wrappers.vector.stateful_observation import (
    DELAY_TYPE_MSG,
    DELAY_VALUE_MSG,
    MAX_STEPS_MSG,
    PADDING_MSG,
    STACK_SIZE_TYPE_MSG,
    STACK_SIZE_VALUE_MSG,
    TIME_KEY_EXISTS_MSG,
)
from vecgym.wrappers.vector.stateful_observation import EPSILON_MSG as OBS_EPSILON_MSG
from vecgym.wrappers.vector.stateful_reward import EPSILON_MSG as REWARD_EPSILON_MSG
from vecgym.wrappers.vector.stateful_reward import GAMMA_MSG as REWARD_GAMMA_MSG

gymnasium = pytest.importorskip("gymnasium")
gvw = pytest.importorskip("gymnasium.wrappers.vector")

NUM_ENVS = 3
#: A ``filterwarnings`` spec ignoring vecgym's Box warning about bounds cast to a less precise dtype
VECGYM_PRECISION_FILTER = "ignore:.*" + message_pattern(BOUND_PRECISION_MSG).replace(WILDCARD, ".*")


def _pair(env_id: str = "CartPole-v1", **kwargs: Any) -> tuple[Any, Any]:
    ours = vecgym.make_vec(env_id, num_envs=NUM_ENVS, vectorization_mode="sync", **kwargs)
    theirs = gymnasium.make_vec(env_id, num_envs=NUM_ENVS, vectorization_mode="sync", **kwargs)
    return ours, theirs


def _assert_tree_equal(a: Any, b: Any, *, skip: tuple[str, ...] = ()) -> None:
    if isinstance(a, dict):
        assert set(a) == set(b)
        for key in a:
            if key not in skip:
                _assert_tree_equal(a[key], b[key], skip=skip)
    elif isinstance(a, list | tuple) or (isinstance(a, np.ndarray) and a.dtype == object):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _assert_tree_equal(x, y, skip=skip)
    elif a is None:
        assert b is None
    else:
        np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), 1e-6)


def _run_pair(ours: Any, theirs: Any, steps: int = 60, skip: tuple[str, ...] = ()) -> None:
    try:
        _assert_tree_equal(ours.reset(seed=7), theirs.reset(seed=7), skip=skip)
        rng = np.random.default_rng(0)
        for _ in range(steps):
            actions = rng.integers(0, 2, size=NUM_ENVS)
            _assert_tree_equal(ours.step(actions), theirs.step(actions), skip=skip)
    finally:
        ours.close()
        theirs.close()


def test_all_names_match_gymnasium() -> None:
    assert sorted(vw.__all__) == sorted(gvw.__all__)
    assert len(vw.__all__) == 26
    for name in vw.__all__:
        if name not in ("JaxToNumpy", "JaxToTorch", "NumpyToTorch"):
            assert isinstance(getattr(vw, name), type)
    for extra in ("FrameStackObservation", "TimeAwareObservation", "DelayObservation"):
        assert isinstance(getattr(vw, extra), type)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        vw.Nope  # noqa: B018


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("RecordEpisodeStatistics", {}),
        ("NormalizeObservation", {}),
        ("DtypeObservation", {"dtype": np.float64}),
        ("ReshapeObservation", {"shape": (2, 2)}),
        ("FlattenObservation", {}),
        ("ClipReward", {"min_reward": 0.0, "max_reward": 0.5}),
        ("TransformReward", {"func": lambda r: r * 3}),
        ("TransformObservation", {"func": lambda o: o + 1}),
        ("DictInfoToList", {}),
    ],
)
def test_differential_cartpole(name: str, kwargs: dict[str, Any]) -> None:
    ours, theirs = _pair()
    ours_w = getattr(vw, name)(ours, **kwargs)
    theirs_w = getattr(gvw, name)(theirs, **kwargs)
    assert str(ours_w.single_observation_space) == str(theirs_w.single_observation_space)
    _run_pair(ours_w, theirs_w, skip=("t",))


def test_differential_record_episode_statistics_queues() -> None:
    ours, theirs = _pair()
    ours, theirs = vw.RecordEpisodeStatistics(ours), gvw.RecordEpisodeStatistics(theirs)
    _run_pair(ours, theirs, steps=120, skip=("t",))
    for mine, other in [
        (ours.return_queue, theirs.return_queue),
        (ours.length_queue, theirs.length_queue),
    ]:
        assert list(mine) == list(other)
        assert [type(x) for x in mine] == [type(x) for x in other]  # np.float64, np.int64
    assert [type(x) for x in ours.time_queue] == [type(x) for x in theirs.time_queue]
    assert ours.episode_count == theirs.episode_count > 0


def test_differential_normalize_reward() -> None:
    """Same as Gymnasium in SAME_STEP mode, and in NEXT_STEP mode until an episode ends.

    (Gymnasium carries a NEXT_STEP episode's return into the next episode; vecgym restarts it.)
    """
    mode = {"autoreset_mode": AutoresetMode.SAME_STEP}
    gmode = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}
    ours = vecgym.make_vec("CartPole-v1", NUM_ENVS, vectorization_mode="sync", vector_kwargs=mode)
    theirs = gymnasium.make_vec(
        "CartPole-v1", NUM_ENVS, vectorization_mode="sync", vector_kwargs=gmode
    )
    _run_pair(vw.NormalizeReward(ours, gamma=0.9), gvw.NormalizeReward(theirs, gamma=0.9))
    ours, theirs = _pair()
    ours, theirs = vw.NormalizeReward(ours), gvw.NormalizeReward(theirs)
    _assert_tree_equal(ours.reset(seed=7), theirs.reset(seed=7))
    for _ in range(100):
        actions = np.ones(NUM_ENVS, dtype=np.int64)
        step_ours, step_theirs = ours.step(actions), theirs.step(actions)
        _assert_tree_equal(step_ours, step_theirs)
        if step_ours[2].any() or step_ours[3].any():
            break
    else:
        pytest.fail("no episode ended")
    ours.close()
    theirs.close()


@pytest.mark.filterwarnings("ignore:.*precision lowered")  # Gymnasium's Box warning
@pytest.mark.filterwarnings(VECGYM_PRECISION_FILTER)
def test_differential_actions() -> None:
    ours = vecgym.make_vec("MountainCarContinuous-v0", num_envs=2, vectorization_mode="sync")
    theirs = gymnasium.make_vec("MountainCarContinuous-v0", num_envs=2, vectorization_mode="sync")
    for wrap_ours, wrap_theirs in [
        (vw.ClipAction(ours), gvw.ClipAction(theirs)),
        (vw.RescaleAction(ours, -2.0, 2.0), gvw.RescaleAction(theirs, -2.0, 2.0)),
        (vw.TransformAction(ours, lambda a: a / 2), gvw.TransformAction(theirs, lambda a: a / 2)),
    ]:
        _assert_tree_equal(wrap_ours.reset(seed=3), wrap_theirs.reset(seed=3))
        for value in (-3.0, 0.5, 1.7):
            actions = np.full((2, 1), value, dtype=np.float32)
            _assert_tree_equal(wrap_ours.step(actions), wrap_theirs.step(actions))
        assert str(wrap_ours.single_action_space) == str(wrap_theirs.single_action_space)
    ours.close()
    theirs.close()


def test_dict_info_to_list_layout_matches_gymnasium_same_step() -> None:
    mode = {"autoreset_mode": AutoresetMode.SAME_STEP}
    gmode = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}
    ours = vecgym.make_vec("CartPole-v1", NUM_ENVS, vectorization_mode="sync", vector_kwargs=mode)
    theirs = gymnasium.make_vec(
        "CartPole-v1", NUM_ENVS, vectorization_mode="sync", vector_kwargs=gmode
    )
    ours = vw.DictInfoToList(vw.RecordEpisodeStatistics(ours))
    theirs = gvw.DictInfoToList(gvw.RecordEpisodeStatistics(theirs))
    try:
        ours.reset(seed=1)
        theirs.reset(seed=1)
        seen_final = False
        for _ in range(80):
            actions = np.ones(NUM_ENVS, dtype=np.int64)
            o_infos, t_infos = ours.step(actions)[-1], theirs.step(actions)[-1]
            assert [sorted(i) for i in o_infos] == [sorted(i) for i in t_infos]
            _assert_tree_equal(o_infos, t_infos, skip=("t",))
            seen_final |= any("final_obs" in i for i in o_infos)
        assert seen_final
    finally:
        ours.close()
        theirs.close()


def test_vectorize_transform_observation_same_step_transforms_final_obs() -> None:
    envs = SyncVectorEnv(
        [lambda: CountingEnv(terminate_at=2) for _ in range(2)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    from vecgym.wrappers import TransformObservation as SingleTransform

    wrapped = vw.VectorizeTransformObservation(
        envs, SingleTransform, func=lambda o: o * 10, observation_space=None
    )
    wrapped.reset(seed=0)
    wrapped.step(np.zeros(2, dtype=np.int64))
    obs, _, terminated, _, infos = wrapped.step(np.zeros(2, dtype=np.int64))
    assert terminated.all()
    assert obs.ravel().tolist() == [0.0, 0.0]
    assert [float(f[0]) for f in infos["final_obs"]] == [20.0, 20.0]
    wrapped.close()


@pytest.mark.filterwarnings("ignore:.*precision lowered")  # Gymnasium's Box warning
@pytest.mark.filterwarnings(VECGYM_PRECISION_FILTER)
def test_rescale_observation_maps_bounds() -> None:
    envs = SyncVectorEnv([lambda: CountingEnv(max_count=10) for _ in range(2)])
    wrapped = vw.RescaleObservation(envs, -1.0, 1.0)
    assert wrapped.single_observation_space.low.tolist() == [-1.0]
    assert wrapped.single_observation_space.high.tolist() == [1.0]
    obs, _ = wrapped.reset(seed=0)
    assert obs.ravel().tolist() == [-1.0, -1.0]
    obs = wrapped.step(np.zeros(2, dtype=np.int64))[0]
    np.testing.assert_allclose(obs.ravel(), [-0.8, -0.8], rtol=1e-6)
    envs.close()


def test_observation_transform_spaces() -> None:
    envs = vecgym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
    reshaped = vw.ReshapeObservation(envs, (2, 2))
    assert reshaped.single_observation_space.shape == (2, 2)
    assert reshaped.observation_space.shape == (2, 2, 2)
    obs, _ = reshaped.reset(seed=0)
    assert obs.shape == (2, 2, 2)
    dtype = vw.DtypeObservation(envs, np.float64)
    assert dtype.reset(seed=0)[0].dtype == np.float64
    envs.close()


def test_box_only_wrappers_refuse_discrete_spaces() -> None:
    envs = SyncVectorEnv([lambda: CountingEnv(obs_type="discrete") for _ in range(2)])
    with pytest.raises((TypeError, ValueError, error.Error)):
        vw.RescaleObservation(envs, -1.0, 1.0)
    with pytest.raises((TypeError, ValueError, error.Error)):
        vw.ResizeObservation(envs, (2, 2))
    envs.close()


@pytest.mark.parametrize("env_id", ["FrozenLake-v1", "Taxi-v4"])
def test_normalize_observation_of_discrete_spaces_matches_gymnasium(env_id: str) -> None:
    """Gymnasium's vector NormalizeObservation takes any space with a shape (a Discrete one
    normalises the state index), as vecgym's single-env wrapper does."""
    gymnasium = pytest.importorskip("gymnasium")

    def run(lib: Any) -> tuple[Any, Any, Any]:
        envs = lib.wrappers.vector.NormalizeObservation(
            lib.make_vec(env_id, 3, vectorization_mode="sync")
        )
        observations = [envs.reset(seed=0)[0]]
        envs.action_space.seed(1)
        observations += [envs.step(envs.action_space.sample())[0] for _ in range(60)]
        envs.close()
        return np.array(observations), envs.obs_rms, envs.single_observation_space

    ours, our_rms, our_space = run(vecgym)
    theirs, their_rms, their_space = run(gymnasium)
    np.testing.assert_array_equal(ours, theirs)
    assert ours.dtype == theirs.dtype == np.float32
    assert (
        (our_space.shape, our_space.dtype)
        == (their_space.shape, their_space.dtype)
        == ((), np.float32)
    )
    assert our_rms.count == their_rms.count
    np.testing.assert_allclose(
        [our_rms.mean, our_rms.var], [their_rms.mean, their_rms.var], rtol=1e-12
    )


def test_normalize_observation_needs_a_shaped_space() -> None:
    envs = SyncVectorEnv([lambda: CountingEnv(obs_type="discrete") for _ in range(2)])
    single = Dict({"count": envs.single_observation_space})
    dict_envs = vw.TransformObservation(
        envs,
        lambda obs: {"count": obs},
        Dict({"count": envs.observation_space}),
        single_observation_space=single,
    )
    with pytest.raises(
        ValueError, match=message_pattern(NO_SHAPE_MSG, wrapper="NormalizeObservation")
    ):
        vw.NormalizeObservation(dict_envs)
    envs.close()


def test_bad_arguments_at_construction() -> None:
    envs = SyncVectorEnv([lambda: CountingEnv() for _ in range(2)])
    with pytest.raises(ValueError, match=message_pattern(STACK_SIZE_VALUE_MSG)):
        vw.FrameStackObservation(envs, -1)
    with pytest.raises(ValueError, match=message_pattern(STACK_SIZE_VALUE_MSG)):
        vw.FrameStackObservation(envs, 0)
    with pytest.raises(TypeError, match=message_pattern(STACK_SIZE_TYPE_MSG, float)):
        vw.FrameStackObservation(envs, 2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message_pattern(PADDING_MSG)):
        vw.FrameStackObservation(envs, 2, padding_type="zeros")
    with pytest.raises(ValueError, match=message_pattern(DELAY_VALUE_MSG)):
        vw.DelayObservation(envs, -1)
    with pytest.raises(TypeError, match=message_pattern(DELAY_TYPE_MSG, float)):
        vw.DelayObservation(envs, 1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message_pattern(MAX_STEPS_MSG)):
        vw.TimeAwareObservation(envs)
    with pytest.raises(error.InvalidBound, match=message_pattern(REWARD_GAMMA_MSG, 1.5)):
        vw.NormalizeReward(envs, gamma=1.5)
    with pytest.raises(error.InvalidBound, match=message_pattern(REWARD_EPSILON_MSG, 0.0)):
        vw.NormalizeReward(envs, epsilon=0.0)
    with pytest.raises(error.InvalidBound, match=message_pattern(OBS_EPSILON_MSG, -1.0)):
        vw.NormalizeObservation(envs, epsilon=-1.0)
    with pytest.raises(ValueError, match="non-negative"):
        vw.RecordEpisodeStatistics(envs, buffer_length=-1)
    with pytest.raises(ValueError, match=message_pattern(OBS_WRAPPER_MODE_MSG)):
        vw.TransformObservation(
            SyncVectorEnv([CountingEnv], autoreset_mode=AutoresetMode.SAME_STEP), lambda o: o
        )
    with pytest.raises(TypeError, match=message_pattern(WRAPPER_ENV_TYPE_MSG)):
        vw.RecordEpisodeStatistics(CountingEnv())  # type: ignore[arg-type]
    envs.close()


def test_time_aware_dict_space_and_key_clash() -> None:
    def make() -> Any:
        return vecgym.wrappers.TransformObservation(
            CountingEnv(), lambda o: {"x": o}, Dict(x=Box(0, 1000, (1,), np.float32))
        )

    envs = SyncVectorEnv([make, make])
    wrapped = vw.TimeAwareObservation(envs, flatten=False, max_episode_steps=10)
    assert set(wrapped.single_observation_space.spaces) == {"x", "time"}
    obs, _ = wrapped.reset(seed=0)
    wrapped.step(np.zeros(2, dtype=np.int64))
    obs = wrapped.step(np.zeros(2, dtype=np.int64))[0]
    assert obs["time"].ravel().tolist() == [2, 2]
    with pytest.raises(ValueError, match=message_pattern(TIME_KEY_EXISTS_MSG)):
        vw.TimeAwareObservation(envs, dict_time_key="x", max_episode_steps=10)
    envs.close()


def test_forwarding_call_get_set_attr() -> None:
    envs = vw.RecordEpisodeStatistics(SyncVectorEnv([CountingEnv, CountingEnv]))
    envs.reset(seed=0)
    envs.step(np.zeros(2, dtype=np.int64))
    assert envs.call("get_count", 1) == (2, 2)
    envs.set_attr("terminate_at", [9, 9])
    assert envs.get_attr("terminate_at") == (9, 9)
    envs.close()


def test_conversions_missing_dependency_is_clear() -> None:
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        envs = SyncVectorEnv([CountingEnv])
        with pytest.raises(error.DependencyNotInstalled, match="torch"):
            vw.NumpyToTorch(envs)
        envs.close()
    array_conv = vw.ArrayConversion(SyncVectorEnv([CountingEnv]), env_xp=np, target_xp=np)
    obs, _ = array_conv.reset(seed=0)
    assert isinstance(obs, np.ndarray)
    array_conv.close()


def test_record_video_and_human_rendering_check_render_mode() -> None:
    envs = SyncVectorEnv([CountingEnv])
    with pytest.raises(ValueError, match=message_pattern(VIDEO_RENDER_MODE_MSG, render_mode=None)):
        vw.RecordVideo(envs, "/tmp/vecgym-never")
    with pytest.raises(ValueError, match=message_pattern(HUMAN_RENDER_MODE_MSG, render_mode=None)):
        vw.HumanRendering(envs)
    envs.close()
