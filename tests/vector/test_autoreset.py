"""The autoreset state machine, mode by mode, on one env."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.counting_env import CountingEnv
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.vector import AutoresetMode
from vecgym.vector.autoreset import UNKNOWN_MODE_MSG, AutoresetEnv, next_autoreset_mask


def _counts(auto: AutoresetEnv, steps: int) -> list[tuple[float, float, bool, bool, dict]]:
    results = []
    for _ in range(steps):
        obs, reward, terminated, truncated, info = auto.step(1)
        results.append((float(np.asarray(obs).item()), reward, terminated, truncated, info))
    return results


def test_next_step() -> None:
    auto = AutoresetEnv(CountingEnv(terminate_at=2, info_every=0), AutoresetMode.NEXT_STEP)
    auto.reset(seed=0)
    assert not auto.needs_reset
    assert _counts(auto, 4) == [
        (1.0, 1.0, False, False, {}),
        (2.0, 1.0, True, False, {}),
        (0.0, 0.0, False, False, {}),  # the reset step ignores its action
        (1.0, 1.0, False, False, {}),
    ]
    assert auto.env.reset_count == 2


def test_next_step_truncation_and_reset_info() -> None:
    env = CountingEnv(terminate_at=None, truncate_at=1, info_every=1)
    auto = AutoresetEnv(env, AutoresetMode.NEXT_STEP)
    auto.reset()
    _, _, terminated, truncated, info = auto.step(2)
    assert (terminated, truncated, info) == (False, True, {"count": 1})
    assert auto.needs_reset
    obs, reward, terminated, truncated, info = auto.step(2)
    assert (obs[0], reward, terminated, truncated, info) == (0, 0.0, False, False, {"count": 0})
    assert env.last_action == 2  # the reset step did not step


def test_manual_reset_clears_pending_autoreset() -> None:
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED):
        auto = AutoresetEnv(CountingEnv(terminate_at=1, info_every=0), mode)
        auto.reset()
        auto.step(1)
        assert auto.needs_reset
        auto.reset(options={"start": 10})
        assert not auto.needs_reset
        obs, reward, *_ = auto.step(1)
        assert (obs[0], reward) == (11.0, 1.0)


def test_same_step() -> None:
    env = CountingEnv(terminate_at=2, info_every=2)
    auto = AutoresetEnv(env, AutoresetMode.SAME_STEP)
    auto.reset()
    auto.step(1)
    obs, reward, terminated, truncated, info = auto.step(1)
    assert (obs[0], reward, terminated, truncated) == (0.0, 1.0, True, False)
    assert not auto.needs_reset
    assert list(info) == ["final_obs", "final_info", "count"]
    assert info["final_info"] == {"count": 2}
    assert info["count"] == 0  # the reset info
    np.testing.assert_array_equal(info["final_obs"], [2.0])
    # The env writes its observations into one array: final_obs must be a copy of it.
    assert info["final_obs"] is not obs
    auto.step(1)
    np.testing.assert_array_equal(info["final_obs"], [2.0])


def test_disabled() -> None:
    auto = AutoresetEnv(CountingEnv(terminate_at=1), AutoresetMode.DISABLED, index=3)
    auto.reset()
    _, _, terminated, _, _ = auto.step(1)
    assert terminated
    assert auto.needs_reset
    with pytest.raises(error.ResetNeeded, match=r"sub-environment 3.*reset_mask"):
        auto.step(1)


def test_bad_mode() -> None:
    with pytest.raises(TypeError, match=message_pattern(UNKNOWN_MODE_MSG)):
        AutoresetEnv(CountingEnv(), "NextStep")  # type: ignore[arg-type]


def test_next_autoreset_mask() -> None:
    terminated = np.array([True, False, False])
    truncated = np.array([False, False, True])
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED):
        np.testing.assert_array_equal(
            next_autoreset_mask(mode, terminated, truncated), [True, False, True]
        )
    np.testing.assert_array_equal(
        next_autoreset_mask(AutoresetMode.SAME_STEP, terminated, truncated), [False] * 3
    )


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_env_step_then_end_episode_is_step(mode: AutoresetMode) -> None:
    """The vectorisers' loops call ``auto.env.step`` while no reset is pending and hand an
    ending step to ``end_episode``: results and state are those of ``auto.step``."""
    by_step = AutoresetEnv(CountingEnv(terminate_at=3, info_every=1), mode)
    inlined = AutoresetEnv(CountingEnv(terminate_at=3, info_every=1), mode)
    for auto in (by_step, inlined):
        auto.reset(seed=0)
    for _ in range(8):
        if mode is AutoresetMode.DISABLED and by_step.needs_reset:
            for auto in (by_step, inlined):
                auto.reset()
        expected = by_step.step(1)
        if inlined.needs_reset:
            got = inlined.step(1)
        else:
            got = inlined.env.step(1)
            if got[2] or got[3]:
                got = inlined.end_episode(*got)
        assert repr(got) == repr(expected)
        assert inlined.needs_reset == by_step.needs_reset
