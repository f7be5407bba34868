"""TimeLimit, OrderEnforcing and PassiveEnvChecker."""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np
import pytest

from tests.support.messages import message_pattern
from tests.support.registry_envs import ArgEnv
from vecgym import error
from vecgym.core.passive_env_checker import MSG_DATA_REUSE_OBS, MSG_OBS_OUTSIDE, MSG_OBS_PREFIX
from vecgym.core.registration import EnvSpec
from vecgym.core.spaces import Discrete
from vecgym.wrappers import OrderEnforcing, PassiveEnvChecker, TimeLimit
from vecgym.wrappers.common import (
    CLOSE_AGAIN_FAILED_MSG,
    MAX_STEPS_TYPE_MSG,
    MAX_STEPS_VALUE_MSG,
    NOT_AN_ENV_MSG,
    RENDER_BEFORE_RESET_MSG,
    SPEC_COPY_FAILED_MSG,
    STEP_BEFORE_RESET_MSG,
)

ENTRY = "tests.support.registry_envs:ArgEnv"


def _with_spec(env: ArgEnv) -> ArgEnv:
    env.spec = EnvSpec("WrapTest-v0", entry_point=ENTRY)
    return env


class TerminatingEnv(ArgEnv):
    """Terminates on step 2."""

    def step(self, action: int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, _, truncated, info = super().step(action)
        return obs, reward, self.count == 2, truncated, info


# --- TimeLimit ------------------------------------------------------------------------------------
def test_time_limit_truncates_and_resets_count() -> None:
    env = TimeLimit(ArgEnv(), max_episode_steps=3)
    env.reset(seed=0)
    assert [env.step(0)[3] for _ in range(3)] == [False, False, True]
    assert env.step(0)[3] is True  # past the limit stays truncated
    env.reset()
    assert env.step(0)[3] is False


def test_time_limit_passes_terminated_through() -> None:
    env = TimeLimit(TerminatingEnv(), max_episode_steps=2)
    env.reset(seed=0)
    assert env.step(0)[2:4] == (False, False)
    assert env.step(0)[2:4] == (True, True)


@pytest.mark.parametrize("bad", [0, -3])
def test_time_limit_rejects_non_positive(bad: int) -> None:
    with pytest.raises(ValueError, match=message_pattern(MAX_STEPS_VALUE_MSG)):
        TimeLimit(ArgEnv(), max_episode_steps=bad)


@pytest.mark.parametrize("bad", ["5", 2.0, None])
def test_time_limit_rejects_non_integers(bad: Any) -> None:
    with pytest.raises(TypeError, match=message_pattern(MAX_STEPS_TYPE_MSG)):
        TimeLimit(ArgEnv(), max_episode_steps=bad)


def test_time_limit_accepts_numpy_integers() -> None:
    env = TimeLimit(ArgEnv(), max_episode_steps=np.int64(2))
    env.reset(seed=0)
    assert [env.step(0)[3] for _ in range(2)] == [False, True]


def test_time_limit_step_before_reset() -> None:
    base = ArgEnv()
    env = TimeLimit(base, max_episode_steps=2)
    with pytest.raises(error.ResetNeeded, match=message_pattern(STEP_BEFORE_RESET_MSG)):
        env.step(0)
    assert base.count == 0  # the inner env was not stepped


def test_time_limit_spec_and_recorded_args() -> None:
    env = TimeLimit(_with_spec(ArgEnv()), max_episode_steps=7)
    assert env._saved_kwargs == {"max_episode_steps": 7}
    assert env.spec is not None
    assert env.spec.max_episode_steps == 7
    assert env.spec.additional_wrappers == ()
    assert env.spec is env.spec  # cached
    assert env.unwrapped.spec is not None
    assert env.unwrapped.spec.max_episode_steps is None  # the inner spec is not modified
    assert TimeLimit(ArgEnv(), max_episode_steps=7).spec is None


# --- OrderEnforcing -------------------------------------------------------------------------------
def test_order_enforcing() -> None:
    env = OrderEnforcing(ArgEnv(render_mode="ansi"))
    assert env.has_reset is False
    with pytest.raises(error.ResetNeeded, match=message_pattern(STEP_BEFORE_RESET_MSG)):
        env.step(0)
    with pytest.raises(error.ResetNeeded, match=message_pattern(RENDER_BEFORE_RESET_MSG)):
        env.render()
    env.reset(seed=0)
    assert env.has_reset is True
    env.step(0)
    assert env.render() == "count=1"


def test_order_enforcing_render_allowed_when_disabled() -> None:
    env = OrderEnforcing(ArgEnv(render_mode="ansi"), disable_render_order_enforcing=True)
    assert env.render() == "count=0"
    with pytest.raises(error.ResetNeeded):
        env.step(0)
    assert env._saved_kwargs == {"disable_render_order_enforcing": True}


def test_order_enforcing_spec() -> None:
    base = _with_spec(ArgEnv())
    assert base.spec is not None
    base.spec.order_enforce = False
    env = OrderEnforcing(base)
    assert env.spec is not None
    assert env.spec.order_enforce is True
    assert env.spec.additional_wrappers == ()
    assert base.spec.order_enforce is False


# --- PassiveEnvChecker ----------------------------------------------------------------------------
class OutOfSpaceEnv(ArgEnv):
    """Returns observations outside its observation space (negative counts)."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        return np.array([-1.0], dtype=np.float32), {}


class ReusingEnv(ArgEnv):
    """Returns the same observation array from every call."""

    def __init__(self) -> None:
        super().__init__()
        self.buffer = np.zeros(1, dtype=np.float32)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        return self.buffer, {}

    def step(self, action: int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        self.buffer[0] += 1
        return self.buffer, 1.0, False, False, {}


class FailingCloseEnv(ArgEnv):
    def close(self) -> None:
        self.closed += 1
        if self.closed > 1:
            raise RuntimeError("already closed")


def test_checker_passes_a_good_env_silently() -> None:
    env = PassiveEnvChecker(ArgEnv(render_mode="rgb_array"))
    env.reset(seed=0)
    env.step(0)
    env.step(1)
    assert env.render().shape == (2, 2, 3)  # type: ignore[union-attr]
    assert (env.checked_reset, env.checked_step, env.checked_render) == (True, True, True)
    assert env.checked_data_reuse is True
    assert env._saved_kwargs == {}


def test_checker_checks_the_first_reset_only() -> None:
    env = PassiveEnvChecker(OutOfSpaceEnv())
    outside = message_pattern(MSG_OBS_OUTSIDE, pre=MSG_OBS_PREFIX.format(method_name="reset"))
    with pytest.warns(UserWarning, match=outside):
        env.reset(seed=0)
    env.reset(seed=0)  # no second warning (warnings are errors here)


REUSED_STEP_STEP = message_pattern(MSG_DATA_REUSE_OBS, previous_source="step", source="step")


def test_checker_warns_about_reused_data() -> None:
    env = PassiveEnvChecker(ReusingEnv())
    env.reset(seed=0)
    with pytest.warns(
        UserWarning,
        match=message_pattern(MSG_DATA_REUSE_OBS, previous_source="reset", source="step"),
    ):
        env.step(0)
    with pytest.warns(UserWarning, match=REUSED_STEP_STEP):
        env.step(0)
    env.step(0)  # checked only twice


def test_checker_step_without_reset_does_not_crash() -> None:
    env = PassiveEnvChecker(ReusingEnv())
    env.step(0)
    with pytest.warns(UserWarning, match=REUSED_STEP_STEP):
        env.step(0)


def test_checker_checks_spaces_on_construction() -> None:
    env = ArgEnv()
    env.action_space = "not a space"  # type: ignore[assignment]
    with pytest.raises(TypeError, match="action space"):
        PassiveEnvChecker(env)
    env = ArgEnv()
    env.observation_space = Discrete(3)  # type: ignore[assignment]
    env.action_space = Discrete(2)
    PassiveEnvChecker(env)


def test_checker_rejects_non_envs() -> None:
    with pytest.raises(TypeError, match=message_pattern(NOT_AN_ENV_MSG)):
        PassiveEnvChecker(object())  # type: ignore[arg-type]


def test_checker_close_twice() -> None:
    env = PassiveEnvChecker(ArgEnv())
    env.close()
    env.close()
    failing = PassiveEnvChecker(FailingCloseEnv())
    failing.close()
    with (
        pytest.warns(UserWarning, match=message_pattern(CLOSE_AGAIN_FAILED_MSG)),
        pytest.raises(RuntimeError, match="already closed"),
    ):
        failing.close()


def test_checker_spec() -> None:
    base = _with_spec(ArgEnv())
    assert base.spec is not None
    base.spec.disable_env_checker = True
    env = PassiveEnvChecker(base)
    assert env.spec is not None
    assert env.spec.disable_env_checker is False
    assert env.spec.additional_wrappers == ()
    assert PassiveEnvChecker(ArgEnv()).spec is None


def test_uncopyable_spec_warns_and_gives_none() -> None:
    base = _with_spec(ArgEnv())
    assert base.spec is not None
    base.spec.kwargs = {"lock": __import__("threading").Lock()}
    with pytest.warns(UserWarning, match=message_pattern(SPEC_COPY_FAILED_MSG)):
        assert TimeLimit(base, max_episode_steps=2).spec is None


def test_matches_gymnasium_wrapper_args() -> None:
    """Constructor parameters and recorded kwargs are Gymnasium's."""
    gym_wrappers = pytest.importorskip("gymnasium.wrappers")
    import inspect

    for name in ("TimeLimit", "OrderEnforcing", "PassiveEnvChecker"):
        ours = inspect.signature(globals()[name].__init__)
        theirs = inspect.signature(getattr(gym_wrappers, name).__init__)
        assert [(p.name, p.default) for p in ours.parameters.values()] == [
            (p.name, p.default) for p in theirs.parameters.values()
        ], name
