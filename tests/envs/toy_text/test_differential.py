"""vecgym's toy-text environments against Gymnasium 1.4's, step by step, seed for seed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from vecgym.envs.toy_text import BlackjackEnv, CliffWalkingEnv, FrozenLakeEnv, TaxiEnv
from vecgym.envs.toy_text.frozen_lake import generate_random_map

gymnasium = pytest.importorskip("gymnasium")
gym_toy_text = pytest.importorskip("gymnasium.envs.toy_text")
gym_frozen_lake = pytest.importorskip("gymnasium.envs.toy_text.frozen_lake")

SEEDS = (0, 1, 7, 123)
STEPS = 400

CASES: list[tuple[type[Any], str, dict[str, Any]]] = [
    (FrozenLakeEnv, "FrozenLakeEnv", {}),
    (FrozenLakeEnv, "FrozenLakeEnv", {"is_slippery": False}),
    (FrozenLakeEnv, "FrozenLakeEnv", {"map_name": "8x8", "success_rate": 0.6}),
    (FrozenLakeEnv, "FrozenLakeEnv", {"reward_schedule": (10, -5, -0.5)}),
    (
        FrozenLakeEnv,
        "FrozenLakeEnv",
        {"desc": ["SFFH", "FHSF", "FFFH", "HFGG"], "success_rate": 0.8},
    ),
    (TaxiEnv, "TaxiEnv", {}),
    (TaxiEnv, "TaxiEnv", {"is_rainy": True}),
    (TaxiEnv, "TaxiEnv", {"fickle_passenger": True, "fickle_probability": 0.9}),
    (
        TaxiEnv,
        "TaxiEnv",
        {"is_rainy": True, "fickle_passenger": True, "rainy_probability": 0.6},
    ),
    (CliffWalkingEnv, "CliffWalkingEnv", {}),
    (CliffWalkingEnv, "CliffWalkingEnv", {"is_slippery": True}),
    (BlackjackEnv, "BlackjackEnv", {}),
    (BlackjackEnv, "BlackjackEnv", {"sab": True}),
    (BlackjackEnv, "BlackjackEnv", {"natural": True}),
]


def assert_same(ours: Any, theirs: Any, what: str) -> None:
    """Equal values of the same types (recursively through tuples, lists, dicts and arrays)."""
    assert type(ours) is type(theirs), f"{what}: {type(ours)} != {type(theirs)}"
    if isinstance(theirs, np.ndarray):
        assert ours.dtype == theirs.dtype, what
        assert ours.shape == theirs.shape, what
        np.testing.assert_array_equal(ours, theirs, err_msg=what)
    elif isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs), what
        for k, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(a, b, f"{what}[{k}]")
    elif isinstance(theirs, dict):
        assert ours.keys() == theirs.keys(), what
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{what}[{key!r}]")
    else:
        assert ours == theirs, f"{what}: {ours!r} != {theirs!r}"


def run_side_by_side(
    ours: Any, theirs: Any, seed: int, steps: int, ansi: bool = False, episode_cap: int = 60
) -> int:
    """Step both envs with the same seeded random actions; return the number of episodes.

    Episodes are also restarted (with an unseeded reset) after ``episode_cap`` steps, so that
    every run covers many resets. Where the info has an action mask, half the actions are drawn
    among the unmasked ones (so that taxis do deliver passengers).
    """
    actions = np.random.default_rng(seed + 1000)
    n_actions = int(theirs.action_space.n)
    _, info = ours.reset(seed=seed)
    assert_same((_, info), theirs.reset(seed=seed), "reset")
    episodes, length = 1, 0
    for t in range(steps):
        mask = info.get("action_mask")
        if mask is not None and mask.any() and actions.random() < 0.5:
            action = int(actions.choice(np.flatnonzero(mask)))
        else:
            action = int(actions.integers(n_actions))
        out_ours, out_theirs = ours.step(action), theirs.step(action)
        assert_same(out_ours, out_theirs, f"seed {seed} step {t} action {action}")
        info = out_ours[4]
        length += 1
        if ansi:
            assert ours.render() == theirs.render(), f"ansi at step {t}"
        if out_theirs[2] or out_theirs[3] or length >= episode_cap:
            reset_ours = ours.reset()
            assert_same(reset_ours, theirs.reset(), f"reset after step {t}")
            info = reset_ours[1]
            episodes, length = episodes + 1, 0
    return episodes


@pytest.mark.parametrize(("cls", "name", "kwargs"), CASES, ids=lambda v: str(v))
def test_steps_match_gymnasium(cls: type[Any], name: str, kwargs: dict[str, Any]) -> None:
    episodes = 0
    for seed in SEEDS:
        ours = cls(**kwargs)
        theirs = getattr(gym_toy_text, name)(**kwargs)
        episodes += run_side_by_side(ours, theirs, seed, STEPS)
    assert episodes >= len(SEEDS) * 6  # many episodes per seed, not one long walk


@pytest.mark.parametrize(
    ("cls", "name", "kwargs"),
    [case for case in CASES if case[0] is not BlackjackEnv],
    ids=lambda v: str(v),
)
def test_transition_tables_match_gymnasium(
    cls: type[Any], name: str, kwargs: dict[str, Any]
) -> None:
    ours, theirs = cls(**kwargs), getattr(gym_toy_text, name)(**kwargs)
    assert ours.P.keys() == theirs.P.keys()
    for state, by_action in theirs.P.items():
        assert ours.P[state].keys() == by_action.keys()
        for action, outcomes in by_action.items():
            assert_same(ours.P[state][action], outcomes, f"P[{state}][{action}]")
    np.testing.assert_array_equal(ours.initial_state_distrib, theirs.initial_state_distrib)
    assert ours.observation_space == theirs.observation_space.n or (
        int(ours.observation_space.n) == int(theirs.observation_space.n)
    )
    assert int(ours.action_space.n) == int(theirs.action_space.n)


@pytest.mark.parametrize(
    ("cls", "name", "kwargs"),
    [case for case in CASES if case[0] is not BlackjackEnv],
    ids=lambda v: str(v),
)
def test_ansi_matches_gymnasium(cls: type[Any], name: str, kwargs: dict[str, Any]) -> None:
    ours = cls(render_mode="ansi", **kwargs)
    theirs = getattr(gym_toy_text, name)(render_mode="ansi", **kwargs)
    run_side_by_side(ours, theirs, seed=5, steps=60, ansi=True)


def test_metadata_matches_gymnasium() -> None:
    for name in ("FrozenLakeEnv", "TaxiEnv", "CliffWalkingEnv", "BlackjackEnv"):
        ours = getattr(vecgym.envs.toy_text, name).metadata
        assert ours == getattr(gym_toy_text, name).metadata, name


def test_blackjack_card_faces_match_gymnasium() -> None:
    ours, theirs = BlackjackEnv(), gym_toy_text.BlackjackEnv()
    for seed in range(60):
        ours.reset(seed=seed)
        theirs.reset(seed=seed)
        assert ours.dealer_top_card_suit == theirs.dealer_top_card_suit
        assert ours.dealer_top_card_value_str == theirs.dealer_top_card_value_str
        assert ours.dealer == theirs.dealer
        assert ours.player == theirs.player


def test_taxi_encode_decode_match_gymnasium() -> None:
    ours, theirs = TaxiEnv(), gym_toy_text.TaxiEnv()
    for state in range(500):
        assert_same(ours.decode(state), theirs.decode(state), f"decode({state})")
        assert ours.encode(*ours.decode(state)) == state
        assert_same(ours.action_mask(state), theirs.action_mask(state), f"mask({state})")


@pytest.mark.parametrize(
    ("size", "p"), [(2, 0.5), (3, 0.4), (4, 0.8), (8, 0.8), (12, 0.9), (5, 1.0), (6, 1.5)]
)
def test_generate_random_map_matches_gymnasium(size: int, p: float) -> None:
    for seed in range(10):
        ours = generate_random_map(size=size, p=p, seed=seed)
        assert ours == gym_frozen_lake.generate_random_map(size=size, p=p, seed=seed)


def test_random_map_env_matches_gymnasium() -> None:
    desc = generate_random_map(size=6, seed=3)
    ours, theirs = FrozenLakeEnv(desc=desc), gym_toy_text.FrozenLakeEnv(desc=desc)
    run_side_by_side(ours, theirs, seed=3, steps=300)


ENV_IDS = [
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Taxi-v4",
    "Blackjack-v1",
]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_registration_matches_gymnasium(env_id: str) -> None:
    ours, theirs = vecgym.spec(env_id), gymnasium.spec(env_id)
    assert ours.entry_point == theirs.entry_point.replace("gymnasium.", "vecgym.", 1)
    assert ours.kwargs == theirs.kwargs
    assert ours.max_episode_steps == theirs.max_episode_steps
    assert ours.reward_threshold == theirs.reward_threshold
    assert ours.nondeterministic == theirs.nondeterministic


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_make_matches_gymnasium(env_id: str) -> None:
    """Through ``make`` (TimeLimit included): truncation happens on the same step."""
    truncations = 0
    for seed in (0, 3):
        ours, theirs = vecgym.make(env_id), gymnasium.make(env_id)
        actions = np.random.default_rng(seed)
        # Bias towards a no-op-ish action so that some episodes run into the time limit.
        n_actions = int(theirs.action_space.n)
        assert_same(ours.reset(seed=seed), theirs.reset(seed=seed), "reset")
        for t in range(600):
            action = int(actions.integers(n_actions)) if actions.random() < 0.5 else 0
            out_ours, out_theirs = ours.step(action), theirs.step(action)
            assert_same(out_ours, out_theirs, f"{env_id} seed {seed} step {t}")
            if out_theirs[3]:
                truncations += 1
            if out_theirs[2] or out_theirs[3]:
                assert_same(ours.reset(), theirs.reset(), "reset")
        ours.close()
        theirs.close()
    if env_id == "Taxi-v4":
        assert truncations > 0


@pytest.mark.parametrize(
    ("env_id", "kwargs", "action", "limit"),
    [
        ("FrozenLake-v1", {"is_slippery": False}, 0, 100),
        ("FrozenLake8x8-v1", {"is_slippery": False}, 3, 200),
        ("Taxi-v4", {}, 4, 200),
        ("CliffWalking-v1", {}, 3, None),
    ],
)
def test_make_truncates_like_gymnasium(
    env_id: str, kwargs: dict[str, Any], action: int, limit: int | None
) -> None:
    """An action that never ends the episode: truncated exactly at max_episode_steps."""
    ours, theirs = vecgym.make(env_id, **kwargs), gymnasium.make(env_id, **kwargs)
    assert_same(ours.reset(seed=2), theirs.reset(seed=2), "reset")
    for t in range(1, 251):
        out_ours, out_theirs = ours.step(action), theirs.step(action)
        assert_same(out_ours, out_theirs, f"step {t}")
        assert out_ours[3] is (t == limit)
        if out_ours[3]:
            break
    assert limit is None or t == limit
