"""Bad input to the toy-text environments gets clear errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.support.messages import message_pattern
from vecgym import error
from vecgym.envs.toy_text import BlackjackEnv, CliffWalkingEnv, FrozenLakeEnv, TaxiEnv
from vecgym.envs.toy_text.frozen_lake import (
    DESC_MSG,
    MAP_NAME_MSG,
    MAP_P_MSG,
    MAP_SIZE_MSG,
    generate_random_map,
    is_valid,
)
from vecgym.envs.toy_text.utils import categorical_sample


@pytest.mark.parametrize("cls", [FrozenLakeEnv, TaxiEnv, CliffWalkingEnv, BlackjackEnv])
@pytest.mark.parametrize("action", [-1, 6, 2.0, "1", None])
def test_invalid_actions_raise_invalid_action(cls: type[Any], action: Any) -> None:
    env = cls()
    env.reset(seed=0)
    with pytest.raises(error.InvalidAction, match="action must be an element of Discrete"):
        env.step(action)


@pytest.mark.parametrize("cls", [FrozenLakeEnv, TaxiEnv, CliffWalkingEnv, BlackjackEnv])
def test_numpy_actions_are_accepted(cls: type[Any]) -> None:
    a, b = cls(), cls()
    a.reset(seed=3)
    b.reset(seed=3)
    for action in (1, 0, 1):
        out_np = a.step(np.array(action))
        out_int = b.step(np.int64(action))
        assert out_np[:4] == out_int[:4]


def test_frozen_lake_bad_maps() -> None:
    with pytest.raises(ValueError, match=message_pattern(MAP_NAME_MSG)):
        FrozenLakeEnv(map_name="5x5")
    with pytest.raises(ValueError, match=message_pattern(DESC_MSG)):
        FrozenLakeEnv(desc=["FFF", "FFG"])
    with pytest.raises(ValueError, match=message_pattern(DESC_MSG)):
        FrozenLakeEnv(desc=["SFF", "FG"])


def test_frozen_lake_random_map_when_no_name() -> None:
    env = FrozenLakeEnv(map_name=None)  # type: ignore[arg-type]
    assert env.desc.shape == (8, 8)
    assert env.desc[0, 0] == b"S"
    assert env.desc[-1, -1] == b"G"


def test_generate_random_map_rejects_impossible_requests() -> None:
    with pytest.raises(ValueError, match=message_pattern(MAP_SIZE_MSG)):
        generate_random_map(size=1)
    with pytest.raises(ValueError, match=message_pattern(MAP_P_MSG)):
        generate_random_map(size=4, p=0.0)


def test_generated_maps_are_valid() -> None:
    for seed in range(20):
        board = generate_random_map(size=5, p=0.6, seed=seed)
        assert board[0][0] == "S"
        assert board[-1][-1] == "G"
        assert is_valid(board, 5)
    assert not is_valid(["SH", "HG"], 2)


def test_categorical_sample_uses_one_draw() -> None:
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    picks = [int(categorical_sample([0.2, 0.3, 0.5], rng_a)) for _ in range(200)]
    draws = rng_b.random(200)
    assert picks == [int(np.argmax(np.cumsum([0.2, 0.3, 0.5]) > u)) for u in draws]
