"""Every registered toy-text environment passes ``check_env``, render modes included."""

from __future__ import annotations

import warnings

import pytest

import vecgym
from tests.support.headless_pygame import PygameRecord
from vecgym.utils.env_checker import check_env

ENV_IDS = [
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Taxi-v4",
    "Blackjack-v1",
]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_check_env_passes(env_id: str, pygame_window: PygameRecord) -> None:
    # "human" mode is checked too, in a headless pygame window (pygame is an extra).
    env = vecgym.make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()
