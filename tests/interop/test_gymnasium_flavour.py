"""vecgym env stacks over a Gymnasium env are ``gymnasium.Env`` instances (the flavour twins).

A ``GymnasiumEnv`` adapter, and every vecgym wrapper stacked over a ``gymnasium.Env``, is an
instance of a twin of its class that also derives from ``gymnasium.Env``, so Gymnasium's own
wrappers (and libraries built on them, like SB3's Atari wrappers) accept it; vecgym's wrappers and
vector envs accept those Gymnasium wrappers in turn. vecgym's own envs are left as they are.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from functools import partial
from typing import Any

import cloudpickle
import numpy as np
import pytest

import vecgym
from vecgym.core.interop import GymnasiumEnv, as_vecgym_env, gymnasium_flavoured
from vecgym.interop import to_gymnasium
from vecgym.utils.env_checker import data_equivalence
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

gymnasium = pytest.importorskip("gymnasium")


def _bridged() -> Any:
    """A vecgym wrapper stack over a Gymnasium env."""
    return vecgym.wrappers.RecordEpisodeStatistics(
        vecgym.wrappers.TimeLimit(gymnasium.make("CartPole-v1"), max_episode_steps=50)
    )


def _trajectory(env: Any, seed: int = 3, steps: int = 80) -> list[Any]:
    record: list[Any] = [env.reset(seed=seed)]
    for i in range(steps):
        obs, reward, terminated, truncated, info = env.step(i % 2)
        info.pop("episode", None)  # its wall time differs between runs
        record.append((obs, reward, terminated, truncated, info))
        if terminated or truncated:
            record.append(env.reset())
    return record


def test_vecgym_envs_of_their_own_are_not_gymnasium_envs() -> None:
    env = vecgym.wrappers.RecordEpisodeStatistics(vecgym.make("CartPole-v1"))
    assert not isinstance(env, gymnasium.Env)
    assert type(env) is vecgym.wrappers.RecordEpisodeStatistics


def test_adapter_and_wrappers_over_it_are_gymnasium_envs() -> None:
    adapter = GymnasiumEnv(gymnasium.make("CartPole-v1"))
    assert isinstance(adapter, gymnasium.Env)
    assert isinstance(adapter, vecgym.Env)
    env = _bridged()
    assert isinstance(env, gymnasium.Env)
    assert isinstance(env, vecgym.wrappers.RecordEpisodeStatistics)
    # The twin is invisible otherwise: same name, module, methods, vecgym spaces.
    assert type(env).__name__ == "RecordEpisodeStatistics"
    assert type(env).__module__ == vecgym.wrappers.RecordEpisodeStatistics.__module__
    assert type(env).step is vecgym.wrappers.RecordEpisodeStatistics.step
    assert isinstance(env.observation_space, vecgym.spaces.Box)
    assert str(env).startswith("<RecordEpisodeStatistics<TimeLimit<GymnasiumEnv<")
    # vecgym's make of a Gymnasium-registered id builds such a stack.
    assert isinstance(vecgym.make("Acrobot-v1", disable_env_checker=True), vecgym.Env)


def test_twins_are_built_once_and_twins_of_twins_are_themselves() -> None:
    twin = gymnasium_flavoured(vecgym.wrappers.ClipReward)
    assert gymnasium_flavoured(vecgym.wrappers.ClipReward) is twin
    assert gymnasium_flavoured(twin) is twin
    assert issubclass(twin, vecgym.wrappers.ClipReward)
    assert issubclass(twin, gymnasium.Env)


@pytest.mark.parametrize(
    "dumps",
    [pickle.dumps, cloudpickle.dumps, partial(pickle.dumps, protocol=0)],
    ids=["pickle", "cloudpickle", "pickle-protocol-0"],
)
def test_twins_pickle_and_continue_identically(dumps: Callable[[Any], bytes]) -> None:
    env = _bridged()
    env.reset(seed=5)
    clone = pickle.loads(dumps(env))
    assert type(clone) is type(env)
    assert isinstance(clone, gymnasium.Env)
    assert data_equivalence(_trajectory(clone), _trajectory(env))


def test_twins_deep_copy() -> None:
    env = _bridged()
    env.reset(seed=5)
    clone = copy.deepcopy(env)
    assert type(clone) is type(env)
    assert clone.env is not env.env
    assert data_equivalence(_trajectory(clone), _trajectory(env))


def test_gymnasium_wrappers_and_vecgym_wrappers_stack_both_ways() -> None:
    # vecgym over Gymnasium over vecgym over Gymnasium: same steps as Gymnasium's own stack.
    ours = vecgym.wrappers.ClipReward(
        gymnasium.wrappers.TransformReward(_bridged(), lambda r: 2.0 * r), -1.5, 1.5
    )
    theirs = gymnasium.wrappers.ClipReward(
        gymnasium.wrappers.TransformReward(
            gymnasium.wrappers.RecordEpisodeStatistics(
                gymnasium.wrappers.TimeLimit(gymnasium.make("CartPole-v1"), 50)
            ),
            lambda r: 2.0 * r,
        ),
        -1.5,
        1.5,
    )
    assert isinstance(ours, gymnasium.Env)
    assert isinstance(ours.env, GymnasiumEnv)  # the Gymnasium wrapper, adapted once
    assert ours.unwrapped.get_wrapper_attr("gravity") == theirs.unwrapped.gravity
    assert data_equivalence(_trajectory(ours), _trajectory(theirs))


def test_a_to_gymnasium_adapter_is_unwrapped_not_adapted_again() -> None:
    inner = vecgym.make("CartPole-v1")
    adapter = to_gymnasium(inner)
    assert as_vecgym_env(adapter) is inner
    assert vecgym.wrappers.ClipReward(adapter, -1, 1).env is inner
    envs = SyncVectorEnv([lambda: to_gymnasium(vecgym.make("CartPole-v1"))])
    assert type(envs.envs[0]).__name__ == "TimeLimit"
    envs.close()


@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv])
def test_vector_envs_run_gymnasium_wrappers_over_vecgym_wrappers(vector: Any) -> None:
    def env_fn() -> Any:
        return gymnasium.wrappers.TransformReward(_bridged(), lambda r: 3.0 * r)

    envs = vector([env_fn, env_fn])
    envs.reset(seed=1)
    rewards = [envs.step(np.array([0, 1]))[1] for _ in range(5)]
    envs.close()
    assert np.array_equal(np.stack(rewards), np.full((5, 2), 3.0))


def test_sb3_monitor_and_gymnasium_wrappers_take_a_stack_over_a_gymnasium_env() -> None:
    monitor = pytest.importorskip("stable_baselines3.common.monitor")
    env = gymnasium.wrappers.TimeLimit(monitor.Monitor(_bridged()), max_episode_steps=5)
    env.reset(seed=0)
    for _ in range(5):
        *_, truncated, _info = env.step(0)
    assert truncated
    assert env.get_wrapper_attr("get_episode_rewards")() == []  # the episode was cut by TimeLimit
    # Wrappers that check space classes want Gymnasium spaces: those need to_gymnasium.
    with pytest.raises(TypeError):
        gymnasium.wrappers.GrayscaleObservation(_bridged())
    env.close()
