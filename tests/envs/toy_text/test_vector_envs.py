"""The numpy-vectorised toy-text envs: env ``i`` is ``make(id)`` seeded with ``seed + i`` and fed
the same actions, and the whole vector env returns what ``SyncVectorEnv`` over single envs
returns (observations, rewards, terminations, truncations and infos), in every autoreset mode."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from tests.support.vector_reference import NextStepReference
from vecgym import error
from vecgym.core.registration import vector_entry_point_of
from vecgym.envs._render_base import UNSUPPORTED_RENDER_MODE_MSG
from vecgym.envs.toy_text._vector_base import ToyTextVectorEnv, draws_for
from vecgym.envs.toy_text.blackjack import BlackjackVectorEnv
from vecgym.envs.toy_text.cliffwalking import CliffWalkingVectorEnv
from vecgym.envs.toy_text.frozen_lake import FrozenLakeVectorEnv
from vecgym.envs.toy_text.taxi import TaxiVectorEnv
from vecgym.vector import AutoresetMode, SyncVectorEnv
from vecgym.vector.numpy_vector_env import ACTIONS_SHAPE_MSG
from vecgym.vector.numpy_vector_env import NO_RENDER_MODE_MSG as VECTOR_NO_RENDER_MODE_MSG

MODES = list(AutoresetMode)
NUM_ENVS = 4

#: (id, kwargs, vector class) of every variant tested.
CASES: list[tuple[str, dict[str, Any], type[ToyTextVectorEnv]]] = [
    ("FrozenLake-v1", {}, FrozenLakeVectorEnv),
    ("FrozenLake-v1", {"is_slippery": False}, FrozenLakeVectorEnv),
    ("FrozenLake8x8-v1", {"success_rate": 0.5, "reward_schedule": (2, -1, 0)}, FrozenLakeVectorEnv),
    ("Taxi-v4", {}, TaxiVectorEnv),
    ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True}, TaxiVectorEnv),
    ("CliffWalking-v1", {}, CliffWalkingVectorEnv),
    ("CliffWalkingSlippery-v1", {}, CliffWalkingVectorEnv),
    ("Blackjack-v1", {}, BlackjackVectorEnv),
    ("Blackjack-v1", {"sab": False, "natural": True}, BlackjackVectorEnv),
]
CASE_IDS = [f"{env_id}-{'-'.join(f'{k}={v}' for k, v in kw.items())}" for env_id, kw, _ in CASES]


def policy_for(env_id: str, seed: int) -> Callable[[Any, dict[str, Any]], np.ndarray]:
    """Actions that end episodes often enough: Taxi drives to the passenger then the destination,
    CliffWalking walks along the cliff, Blackjack hits below 17; random actions mixed in."""
    rng = np.random.default_rng(seed)

    def act(obs: Any, infos: dict[str, Any]) -> np.ndarray:
        if env_id.startswith("Blackjack"):
            player = np.asarray(obs[0])
            return np.where(rng.random(len(player)) < 0.2, rng.integers(0, 2, len(player)),
                            (player < 17).astype(np.int64))  # fmt: skip
        n = len(obs)
        if env_id.startswith("Taxi"):
            return np.array([taxi_action(int(o), rng) for o in obs])
        if env_id.startswith("CliffWalking"):
            row, col = np.divmod(np.asarray(obs), 12)
            # Up, along the row (the top one when slippery), down at the end.
            far = row > 0 if "Slippery" in env_id else row == 3
            path = np.where(col == 11, 2, np.where(far, 0, 1))
            return np.where(rng.random(n) < 0.15, rng.integers(0, 4, n), path)
        return rng.integers(0, 4, n)

    return act


TAXI_STANDS = [(0, 0), (0, 4), (4, 0), (4, 3)]


def taxi_action(state: int, rng: np.random.Generator) -> int:
    """Head for the passenger, then for the destination (random moves 30% of the time)."""
    state, dest = divmod(state, 4)
    state, passenger = divmod(state, 5)
    row, col = divmod(state, 5)
    target = TAXI_STANDS[dest if passenger == 4 else passenger]
    if (row, col) == target:
        return 5 if passenger == 4 else 4
    if rng.random() < 0.3:
        return int(rng.integers(0, 4))
    if col != target[1] and rng.random() < 0.5:
        return 2 if target[1] > col else 3
    if row != target[0]:
        return 0 if target[0] > row else 1
    return 2 if target[1] > col else 3


def assert_same_infos(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """Equal keys, and equal values of the same dtype (``final_obs`` element by element)."""
    assert ours.keys() == theirs.keys()
    for key, value in theirs.items():
        if isinstance(value, dict):
            assert_same_infos(ours[key], value)
        elif key == "final_obs":
            assert ours[key].dtype == value.dtype == object
            for mine, other in zip(ours[key], value, strict=True):
                assert type(mine) is type(other)
                assert mine == other
        else:
            np.testing.assert_array_equal(ours[key], value, strict=True)


def assert_same_obs(ours: Any, theirs: Any) -> None:
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple)
        assert len(ours) == len(theirs)
        for mine, other in zip(ours, theirs, strict=True):
            np.testing.assert_array_equal(mine, other, strict=True)
    else:
        np.testing.assert_array_equal(ours, theirs, strict=True)


def env_obs(obs: Any, i: int) -> Any:
    """Env ``i``'s observation as the single env gives it."""
    if isinstance(obs, tuple):
        return tuple(int(part[i]) for part in obs)
    return int(obs[i])


def assert_env_info(infos: dict[str, Any], i: int, single_info: dict[str, Any]) -> None:
    """Env ``i``'s part of the batched infos holds ``single_info`` (cast to the batch dtype)."""
    assert {k for k in infos if not k.startswith("_") and infos[f"_{k}"][i]} == set(single_info)
    for key, value in single_info.items():
        expected = np.asarray(value).astype(infos[key].dtype)
        np.testing.assert_array_equal(infos[key][i], expected)


@pytest.mark.parametrize(("env_id", "kwargs", "cls"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("seed", [0, 123])
def test_matches_single_envs_with_time_limit(
    env_id: str, kwargs: dict[str, Any], cls: type[ToyTextVectorEnv], seed: int
) -> None:
    """The reference loop: ``make`` envs, reset on the step after an episode ends (NEXT_STEP)."""
    # Taxi runs with its registered limit (200), the others with a short one.
    limits = {"CliffWalkingSlippery": 80, "CliffWalking": 16, "FrozenLake": 12, "Blackjack": 2}
    limit = next((n for prefix, n in limits.items() if env_id.startswith(prefix)), None)
    extra: dict[str, Any] = {} if limit is None else {"max_episode_steps": limit}
    envs: Any = vecgym.make_vec(
        env_id, num_envs=NUM_ENVS, vectorization_mode="vector_entry_point", **extra, **kwargs
    )
    assert type(envs) is cls
    singles = [vecgym.make(env_id, **extra, **kwargs) for _ in range(NUM_ENVS)]
    obs, infos = envs.reset(seed=seed)
    for i, single in enumerate(singles):
        single_obs, single_info = single.reset(seed=seed + i)
        assert env_obs(obs, i) == single_obs
        assert_env_info(infos, i, single_info)
    reference = NextStepReference(singles)
    act = policy_for(env_id, seed)
    for _ in range(700):
        actions = act(obs, infos)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        for i, (expected_obs, reward, terminated, truncated, info) in enumerate(
            reference.step(actions)
        ):
            assert env_obs(obs, i) == expected_obs
            assert (rewards[i], terminations[i], truncations[i]) == (
                float(reward),
                terminated,
                truncated,
            )
            assert_env_info(infos, i, info)
    assert reference.terminated >= 1
    if envs.max_episode_steps is not None:
        assert reference.truncated >= 1


@pytest.mark.parametrize(("env_id", "kwargs", "cls"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("mode", MODES)
def test_matches_sync_vector_env_in_every_autoreset_mode(
    env_id: str, kwargs: dict[str, Any], cls: type[ToyTextVectorEnv], mode: AutoresetMode
) -> None:
    seed, steps, limit = 11, 300, 25
    ours: Any = vecgym.make_vec(
        env_id,
        num_envs=NUM_ENVS,
        vectorization_mode="vector_entry_point",
        autoreset_mode=mode,
        max_episode_steps=limit,
        **kwargs,
    )
    assert type(ours) is cls
    theirs = SyncVectorEnv(
        [lambda: vecgym.make(env_id, max_episode_steps=limit, **kwargs)] * NUM_ENVS,
        autoreset_mode=mode,
    )
    assert ours.metadata["autoreset_mode"] is mode
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    obs_ours, info_ours = ours.reset(seed=seed)
    obs_theirs, info_theirs = theirs.reset(seed=seed)
    assert_same_obs(obs_ours, obs_theirs)
    assert_same_infos(info_ours, info_theirs)
    act = policy_for(env_id, seed)
    mask_rng = np.random.default_rng(seed)
    ended_any = False
    for t in range(steps):
        actions = act(obs_theirs, info_theirs)
        step_ours, step_theirs = ours.step(actions), theirs.step(actions)
        obs_theirs, info_theirs = step_theirs[0], step_theirs[4]
        assert_same_obs(step_ours[0], obs_theirs)
        for mine, other in zip(step_ours[1:4], step_theirs[1:4], strict=True):
            np.testing.assert_array_equal(mine, other, strict=True)
        assert_same_infos(step_ours[4], info_theirs)
        ended = step_theirs[2] | step_theirs[3]
        if mode is AutoresetMode.DISABLED and ended.any():
            with pytest.raises(error.ResetNeeded, match="must be reset"):
                ours.step(actions)
            mask = ended.copy()
        elif t % 37 == 36:  # a manual partial reset now and then, with and without seeds
            mask = mask_rng.random(NUM_ENVS) < 0.5
            mask[t % NUM_ENVS] = True
        else:
            mask = None
        if mask is not None:
            reset_seed = t if t % 2 else None
            options = {"reset_mask": mask}
            obs_ours, info_ours = ours.reset(seed=reset_seed, options=options)
            obs_theirs, info_theirs = theirs.reset(seed=reset_seed, options=options)
            assert_same_obs(obs_ours, obs_theirs)
            assert_same_infos(info_ours, info_theirs)
        ended_any = ended_any or bool(ended.any())
    assert ended_any
    theirs.close()


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [("FrozenLake-v1", {}), ("Taxi-v4", {"is_rainy": True}), ("Blackjack-v1", {})],
)
def test_matches_gymnasium_single_envs(env_id: str, kwargs: dict[str, Any]) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    envs = vecgym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point", **kwargs)
    singles = [gymnasium.make(env_id, **kwargs) for _ in range(3)]
    obs, infos = envs.reset(seed=42)
    for i, single in enumerate(singles):
        assert env_obs(obs, i) == single.reset(seed=42 + i)[0]
    pending = [False] * 3
    act = policy_for(env_id, 3)
    for _ in range(300):
        actions = act(obs, infos)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        for i, single in enumerate(singles):
            if pending[i]:
                assert env_obs(obs, i) == single.reset()[0]
                pending[i] = False
                continue
            expected_obs, reward, terminated, truncated, info = single.step(actions[i])
            assert env_obs(obs, i) == expected_obs
            assert (rewards[i], terminations[i], truncations[i]) == (reward, terminated, truncated)
            assert_env_info(infos, i, info)
            pending[i] = terminated or truncated


def _render_case(env_id: str, kwargs: dict[str, Any], mode: str, seed: int) -> None:
    envs: Any = vecgym.make_vec(env_id, 3, "vector_entry_point", render_mode=mode, **kwargs)
    singles = [vecgym.make(env_id, render_mode=mode, **kwargs) for _ in range(3)]
    obs, infos = envs.reset(seed=seed)
    for i, single in enumerate(singles):
        single.reset(seed=seed + i)
    act = policy_for(env_id, seed)
    pending = [False] * 3
    changed = False
    previous = envs.render()
    for _ in range(12):
        actions = act(obs, infos)
        obs, _, _, _, infos = envs.step(actions)
        for i, single in enumerate(singles):
            if pending[i]:
                single.reset()
                pending[i] = False
            else:
                _, _, terminated, truncated, _ = single.step(actions[i])
                pending[i] = terminated or truncated
        drawings = envs.render()
        assert isinstance(drawings, list)
        assert len(drawings) == 3
        for drawing, single in zip(drawings, singles, strict=True):
            expected: Any = single.render()
            if mode == "ansi":
                assert drawing == expected
            else:
                assert drawing.dtype == np.uint8
                assert drawing.shape == expected.shape
                np.testing.assert_array_equal(drawing, expected)
        changed = changed or any(
            not np.array_equal(np.asarray(a), np.asarray(b))
            for a, b in zip(drawings, previous, strict=True)
        )
        previous = drawings
    assert changed


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [("FrozenLake-v1", {}), ("Taxi-v4", {}), ("CliffWalking-v1", {}), ("Blackjack-v1", {})],
)
def test_rgb_array_frames_are_the_single_envs_frames(env_id: str, kwargs: dict[str, Any]) -> None:
    _render_case(env_id, kwargs, "rgb_array", seed=4)


@pytest.mark.parametrize("env_id", ["FrozenLake-v1", "Taxi-v4", "CliffWalkingSlippery-v1"])
def test_ansi_texts_are_the_single_envs_texts(env_id: str) -> None:
    _render_case(env_id, {}, "ansi", seed=8)


def test_render_errors_and_metadata() -> None:
    with pytest.raises(error.UnsupportedMode, match=message_pattern(UNSUPPORTED_RENDER_MODE_MSG)):
        BlackjackVectorEnv(render_mode="ansi")
    envs = TaxiVectorEnv(num_envs=2)
    assert envs.metadata["render_fps"] == 4
    assert set(envs.metadata["render_modes"]) == {"rgb_array", "ansi"}
    with pytest.warns(UserWarning, match=message_pattern(VECTOR_NO_RENDER_MODE_MSG)):
        assert envs.render() is None


@pytest.mark.parametrize(("env_id", "kwargs", "cls"), CASES[::3], ids=CASE_IDS[::3])
def test_registration_seeding_and_bad_actions(
    env_id: str, kwargs: dict[str, Any], cls: type[ToyTextVectorEnv]
) -> None:
    spec = vecgym.spec(env_id)
    assert spec.vector_entry_point is None  # as Gymnasium's spec: make_vec's default is "sync"
    assert vector_entry_point_of(spec) == f"{cls.__module__}:{cls.__name__}"
    envs: Any = vecgym.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
    assert envs.max_episode_steps == spec.max_episode_steps
    with pytest.raises(error.ResetNeeded):
        envs.step(np.zeros(3, dtype=np.int64))
    envs.reset(seed=[5, None, 9])
    assert envs.np_random_seed[0] == 5
    assert envs.np_random_seed[2] == 9
    assert len(envs.np_random) == 3
    with pytest.raises(error.InvalidAction):
        envs.step(np.full(3, envs.single_action_space.n))
    with pytest.raises(ValueError, match=message_pattern(ACTIONS_SHAPE_MSG, 3)):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.close()
    with pytest.raises(error.ClosedEnvironmentError):
        envs.reset()


def test_partial_reset_before_any_full_reset_and_returned_arrays_are_new() -> None:
    envs = FrozenLakeVectorEnv(num_envs=3)
    obs, infos = envs.reset(seed=1, options={"reset_mask": np.array([False, True, False])})
    assert infos["_prob"].tolist() == [False, True, False]
    obs[:] = 99
    again, *_ = envs.step(np.array([1, 1, 1]))
    assert (again < 16).all()


def test_pickled_copy_continues_identically() -> None:
    envs = BlackjackVectorEnv(num_envs=3)
    envs.reset(seed=2)
    envs.step(np.array([1, 1, 0]))
    clone = pickle.loads(pickle.dumps(envs))
    actions = np.array([1, 0, 1])
    for mine, other in zip(envs.step(actions)[:4], clone.step(actions)[:4], strict=True):
        np.testing.assert_array_equal(np.asarray(mine), np.asarray(other))


@pytest.mark.parametrize("bound", [2, 3, 4, 13, 500, 2**31 + 5])
def test_direct_draws_equal_generator_draws(bound: int) -> None:
    ours, theirs = np.random.default_rng(bound), np.random.default_rng(bound)
    draws = draws_for(ours)
    for k in range(2000):
        assert draws.integers(bound) == int(theirs.integers(0, bound))
        if k % 3 == 0:
            assert draws.random() == theirs.random()
    assert ours.bit_generator.state == theirs.bit_generator.state
