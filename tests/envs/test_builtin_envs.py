"""Every registered built-in environment: made without Gymnasium, and passing ``check_env``."""

from __future__ import annotations

import re
import warnings

import pytest

import vecgym
from tests.support.messages import message_pattern
from tests.support.processes import python_stdout
from vecgym.core.env_checker import (
    MSG_BOX_ACTION_NOT_NORMALISED,
    MSG_BOX_HIGH_INFINITE,
    MSG_BOX_LOW_INFINITE,
)
from vecgym.core.registration import OUT_OF_DATE_MSG
from vecgym.utils.env_checker import check_env

OUT_OF_DATE = message_pattern(OUT_OF_DATE_MSG)
BUILTIN_IDS = sorted(
    env_id
    for env_id, spec in vecgym.registry.items()
    if str(spec.entry_point).startswith("vecgym.")
)


def test_builtin_envs_are_registered() -> None:
    expected = {
        "CartPole-v0",
        "CartPole-v1",
        "MountainCar-v0",
        "MountainCarContinuous-v0",
        "Pendulum-v1",
        "Acrobot-v1",
    }
    assert expected <= set(BUILTIN_IDS)


def test_every_env_runs_without_gymnasium_and_pygame() -> None:
    # Where Gymnasium is installed, vecgym's envs are Gymnasium's classes too (vecgym.core.flavour);
    # without it they need nothing of it.
    code = (
        "import sys\nsys.modules['gymnasium'] = None\nimport vecgym\n"
        "ids = [i for i, s in vecgym.registry.own_specs().items()\n"
        "       if str(s.entry_point).startswith('vecgym.')]\n"
        "for env_id in ids:\n"
        "    env = vecgym.make(env_id, render_mode='rgb_array')\n"
        "    env.reset(seed=0)\n"
        "    env.step(env.action_space.sample())\n"
        "    env.render()\n"
        "    env.close()\n"
        "print(len(ids))\n"
        "print(sorted(m for m, module in sys.modules.items()\n"
        "             if module is not None and m.split('.')[0] in ('gymnasium', 'pygame')))\n"
    )
    out = python_stdout(code, timeout=300)
    count, loaded = out.splitlines()
    assert int(count) == len(BUILTIN_IDS)
    assert loaded == "[]"


# Advice check_env gives (as Gymnasium's does for the same envs) that is not a failure.
ADVISORY = (
    message_pattern(MSG_BOX_LOW_INFINITE, space_type="observation"),
    message_pattern(MSG_BOX_HIGH_INFINITE, space_type="observation"),
    message_pattern(MSG_BOX_ACTION_NOT_NORMALISED),
)


@pytest.mark.parametrize("env_id", BUILTIN_IDS)
def test_check_env_passes_for_every_registered_env(env_id: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = vecgym.make(env_id, disable_env_checker=True).unwrapped
        # "human" rendering needs an optional extra; the render modes have their own tests
        check_env(env, skip_render_check=True)
    env.close()
    problems = [
        str(w.message)
        for w in caught
        if not any(re.search(pattern, str(w.message)) for pattern in ADVISORY)
        and not (
            issubclass(w.category, DeprecationWarning) and re.search(OUT_OF_DATE, str(w.message))
        )
    ]
    assert problems == []
