"""Stepping past idle wrappers: :func:`vecgym.vector.autoreset.direct_step` and the
:class:`AutoresetEnv` that steps with it give exactly what ``env.step`` gives."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.vector.helpers import assert_same_batch
from vecgym import error
from vecgym.envs.classic_control.cartpole import CartPoleEnv
from vecgym.vector import AsyncVectorEnv, AutoresetMode
from vecgym.vector.autoreset import (
    IDLE_WRAPPERS,
    TIME_LIMITS,
    AutoresetEnv,
    direct_step,
    step_parts,
)
from vecgym.wrappers import OrderEnforcing, PassiveEnvChecker, RecordEpisodeStatistics, TimeLimit


def _warm(env: Any, seed: int = 0, steps: int = 2) -> None:
    """Reset, then the steps after which the env checker has done its checks."""
    env.reset(seed=seed)
    for _ in range(steps):
        env.step(0)


def _assert_same_steps(reference: Any, env: Any, step: Any, steps: int) -> int:
    """Step ``reference`` with ``reference.step`` and ``env`` with ``step``, the same actions,
    resetting both (same seed) where an episode ends; every result equal. Returns the ends."""
    ends = 0
    actions = np.random.default_rng(5).integers(0, 2, size=steps)
    for t, action in enumerate(actions.tolist()):
        expected = reference.step(action)
        assert_same_batch(step(action), expected, f"step {t}")
        if expected[2] or expected[3]:
            ends += 1
            assert_same_batch(env.reset(seed=t), reference.reset(seed=t), f"reset {t}")
            step, final = direct_step(env)
            assert final
    return ends


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def test_the_named_classes_are_the_wrappers() -> None:
    """The vector layer names the classes it steps past (it imports no wrapper): the names are
    those of vecgym's and Gymnasium's classes."""
    gymnasium = pytest.importorskip("gymnasium")
    ours = (TimeLimit, OrderEnforcing, PassiveEnvChecker)
    theirs = (
        gymnasium.wrappers.TimeLimit,
        gymnasium.wrappers.OrderEnforcing,
        gymnasium.wrappers.PassiveEnvChecker,
    )
    assert set(TIME_LIMITS) == {_name(ours[0]), _name(theirs[0])}
    assert set(IDLE_WRAPPERS) == {_name(cls) for cls in (*ours[1:], *theirs[1:])}


def test_stepped_past_in_a_process_that_never_imported_vecgyms_wrappers() -> None:
    """A spawned worker stepping ``gymnasium.make`` envs imports vecgym's vector layer only."""
    pytest.importorskip("gymnasium")
    code = (
        "import sys, gymnasium\n"
        "from vecgym.vector.autoreset import direct_step\n"
        "env = gymnasium.make('CartPole-v1')\n"
        "env.reset(seed=0)\n"
        "env.step(0)\n"
        "env.step(0)\n"
        "step, final = direct_step(env)\n"
        "print('vecgym.wrappers' in sys.modules, step != env.step, final)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.split() == ["False", "True", "True"]


def test_a_chain_never_reset_is_stepped_whole() -> None:
    env = vecgym.make("CartPole-v1")
    step, final = direct_step(env)
    assert step == env.step
    assert not final
    with pytest.raises(error.ResetNeeded):
        step(0)


def test_the_checker_keeps_its_first_steps() -> None:
    env = vecgym.make("CartPole-v1")
    env.reset(seed=0)
    checker = env.env.env
    assert isinstance(checker, PassiveEnvChecker)
    step, final = direct_step(env)
    assert not final  # the checker has its first two steps to check
    assert step != env.step  # OrderEnforcing is idle already
    step(0)
    assert checker.checked_step
    assert not checker.checked_data_reuse
    assert not direct_step(env)[1]  # the second step is still checked (data reuse)
    step(0)
    assert checker.checked_data_reuse
    assert env.get_wrapper_attr("_elapsed_steps") == 2
    assert direct_step(env)[1]


@pytest.mark.parametrize("max_episode_steps", [7, 500])
@pytest.mark.parametrize("disable_env_checker", [False, True])
def test_idle_wrappers_stepped_past_seed_for_seed(
    max_episode_steps: int, disable_env_checker: bool
) -> None:
    kwargs = {"max_episode_steps": max_episode_steps, "disable_env_checker": disable_env_checker}
    reference, env = vecgym.make("CartPole-v1", **kwargs), vecgym.make("CartPole-v1", **kwargs)
    _warm(reference)
    _warm(env)
    step, final = direct_step(env)
    assert final
    assert step != env.step
    ends = _assert_same_steps(reference, env, step, 300)
    assert ends >= 5
    assert env.get_wrapper_attr("_elapsed_steps") == reference.get_wrapper_attr("_elapsed_steps")


def test_truncation_by_the_stepped_past_limit() -> None:
    env = vecgym.make("CartPole-v1", max_episode_steps=4)
    env.reset(seed=1)
    step, _ = direct_step(env)
    flags = [step(0)[2:4] for _ in range(2)]
    step, final = direct_step(env)
    assert final
    flags += [step(i % 2)[2:4] for i in range(2)]
    assert flags == [(False, False)] * 3 + [(False, True)]
    assert env.get_wrapper_attr("_elapsed_steps") == 4


def test_no_time_limit_steps_the_innermost_env() -> None:
    base = CartPoleEnv()
    env = OrderEnforcing(PassiveEnvChecker(base))
    _warm(env)
    step, final = direct_step(env)
    assert final
    assert step == base.step


class _OwnOrder(OrderEnforcing):  # type: ignore[type-arg]
    """A subclass: it may step otherwise, so it is never stepped past."""


def _subclass_chain() -> Any:
    return TimeLimit(_OwnOrder(PassiveEnvChecker(CartPoleEnv())), 50)


def _own_step_chain() -> Any:
    env = vecgym.make("CartPole-v1")
    env.env.step = env.env.step  # an instance attribute: the object steps its own way
    return env


def _outer_wrapper_chain() -> Any:
    return RecordEpisodeStatistics(vecgym.make("CartPole-v1"))


@pytest.mark.parametrize("build", [_subclass_chain, _own_step_chain, _outer_wrapper_chain])
def test_what_is_not_stepped_past(build: Any) -> None:
    env = build()
    _warm(env)
    step, final = direct_step(env)
    assert step == env.step
    assert final


def _counted_by_hand(env: Any) -> Any:
    """``env``'s step as the vector loops take it: :func:`step_parts`' step, then ``TimeLimit``'s
    count on its ``limit``, written out here as the loops write it."""

    def step(action: Any) -> Any:
        inner, limit, _ = step_parts(env)
        obs, reward, terminated, truncated, info = inner(action)
        if limit is not None:
            limit._elapsed_steps += 1
            if limit._elapsed_steps >= limit._max_episode_steps:
                truncated = True
        return obs, reward, terminated, truncated, info

    return step


def _limit_over_the_env() -> Any:
    return TimeLimit(CartPoleEnv(), 9)


def _made(max_episode_steps: int | None = 9) -> Any:
    return vecgym.make("CartPole-v1", max_episode_steps=max_episode_steps)


def _made_without_limit() -> Any:
    return OrderEnforcing(PassiveEnvChecker(CartPoleEnv()))


def _gymnasium_made() -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    return gymnasium.make("CartPole-v1", max_episode_steps=9)


@pytest.mark.parametrize(
    "build", [_made, _limit_over_the_env, _made_without_limit, _gymnasium_made, _subclass_chain]
)
def test_step_parts_and_the_count_step_as_env_step(build: Any) -> None:
    """Each call asks again, so the chain is stepped past whatever is idle at that moment, from
    the first reset on (the checker's first steps included)."""
    reference, env = build(), build()
    assert_same_batch(env.reset(seed=3), reference.reset(seed=3))
    ends = _assert_same_steps(reference, env, _counted_by_hand(env), 100)
    assert ends >= (5 if build is not _made_without_limit else 1)
    _, limit, final = step_parts(env)
    assert final
    if build is _made_without_limit:
        assert limit is None
    else:
        assert limit is env
        assert limit._elapsed_steps == reference.get_wrapper_attr("_elapsed_steps")


def test_step_parts_of_a_limit_over_the_env() -> None:
    base = CartPoleEnv()
    env = TimeLimit(base, 9)
    step, limit, final = step_parts(env)
    assert (step, limit, final) == (env.step, None, False)  # never reset
    env.reset(seed=0)
    step, limit, final = step_parts(env)
    assert (step, limit, final) == (base.step, env, True)
    assert direct_step(env) == (env.step, True)  # TimeLimit's own step is as short
    auto = AutoresetEnv(TimeLimit(CartPoleEnv(), 9), AutoresetMode.NEXT_STEP)
    auto.reset(seed=0)
    assert (auto.inner_step, auto.limit) == (auto.env.env.step, auto.env)
    assert auto.env_step == auto.env.step  # the same joining as direct_step's


def test_the_autoreset_env_keeps_its_parts_and_env_step_together() -> None:
    auto = AutoresetEnv(_made(), AutoresetMode.NEXT_STEP)
    assert (auto.inner_step, auto.limit) == (auto.env.step, None)
    assert auto.env_step == auto.env.step
    auto.reset(seed=0)
    for _ in range(12):
        auto.step(0)
    assert auto.settled
    assert auto.limit is auto.env
    assert auto.inner_step == auto.env.unwrapped.step
    assert auto.env_step != auto.inner_step  # the count closed over the limit


def test_gymnasiums_wrappers_are_stepped_past_too() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    reference = gymnasium.make("CartPole-v1", max_episode_steps=9)
    env = gymnasium.make("CartPole-v1", max_episode_steps=9)
    _warm(reference)
    _warm(env)
    step, final = direct_step(env)
    assert final
    assert step != env.step
    assert _assert_same_steps(reference, env, step, 120) >= 5
    assert env.get_wrapper_attr("_elapsed_steps") == reference.get_wrapper_attr("_elapsed_steps")


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_autoreset_env_steps_past_from_its_first_episode_end(mode: AutoresetMode) -> None:
    auto = AutoresetEnv(vecgym.make("CartPole-v1", max_episode_steps=6), mode)
    whole = AutoresetEnv(vecgym.make("CartPole-v1", max_episode_steps=6), mode)
    assert_same_batch(auto.reset(seed=2), whole.reset(seed=2))
    assert not auto.settled
    for t in range(60):
        if mode is AutoresetMode.DISABLED and whole.needs_reset:
            assert_same_batch(auto.reset(seed=t), whole.reset(seed=t), f"reset {t}")
        # ``whole`` is stepped through every wrapper, every time
        whole.env_step, whole.settled = whole.env.step, True
        assert_same_batch(auto.step(t % 2), whole.step(t % 2), f"step {t}")
    assert auto.settled
    assert auto.env_step != auto.env.step


def test_the_parent_slice_steps_past_after_same_step_ends() -> None:
    """The parent's slice runs the worker's handler, whose SAME_STEP end resets the env itself."""
    fns = [lambda: vecgym.make("CartPole-v1", max_episode_steps=5)] * 4
    envs = AsyncVectorEnv(fns, num_workers=1, parent_envs=2, autoreset_mode=AutoresetMode.SAME_STEP)
    try:
        envs.reset(seed=0)
        for _ in range(12):
            envs.step(np.zeros(4, dtype=np.int64))
        autoenvs = envs._pool.local._state.autoenvs
        assert [auto.settled for auto in autoenvs] == [True, True]
        counts = envs.call("get_wrapper_attr", "_elapsed_steps")
        assert list(counts) == [2] * 4  # 12 steps: episodes of 5, reset on the 5th and 10th
    finally:
        envs.close()


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copy_steps_its_own_wrappers(how: str) -> None:
    auto = AutoresetEnv(vecgym.make("CartPole-v1", max_episode_steps=7), AutoresetMode.NEXT_STEP)
    auto.reset(seed=0)
    for _ in range(9):  # past the first episode's end: stepping past the wrappers
        auto.step(0)
    assert auto.settled
    twin = copy.deepcopy(auto) if how == "deepcopy" else pickle.loads(pickle.dumps(auto))
    assert (twin.mode, twin.index, twin.needs_reset) == (auto.mode, auto.index, auto.needs_reset)
    assert twin.settled
    count = auto.env.get_wrapper_attr("_elapsed_steps")
    for _ in range(3):
        assert_same_batch(twin.step(1), auto.step(1))
    assert twin.env.get_wrapper_attr("_elapsed_steps") == count + 3
    assert auto.env.get_wrapper_attr("_elapsed_steps") == count + 3
