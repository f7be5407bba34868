"""Every registered toy-text environment passes ``check_env``, render modes included."""

from __future__ import annotations

import sys
import warnings

import pytest

import vecgym
from tests.support.fake_pygame import make_fake_pygame
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
def test_check_env_passes(env_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # "human" mode is checked too, against a stand-in display backend (pygame is an extra).
    monkeypatch.setitem(sys.modules, "pygame", make_fake_pygame())
    env = vecgym.make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    env.close()
