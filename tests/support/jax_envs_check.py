"""Run as a script (``python -m tests.support.jax_envs_check``), never imported by the tests: jax
starts threads and warns at every later ``fork``, so it stays out of the pytest process.

Gymnasium's jax environments through vecgym, against Gymnasium itself:

* ``vecgym.make(id)`` and ``gymnasium.make(id)`` for every id of the ``phys2d`` and ``tabular``
  namespaces give the same observations (jax arrays both), rewards, flags and infos, seed for
  seed, over several episodes;
* ``make_vec(id, n)`` (Gymnasium's jax vector env where the spec has one) and ``make_vec(id, n,
  vectorization_mode="sync")`` match Gymnasium's, step by step through its autoresets;
* vecgym's ``AsyncVectorEnv`` over the same envs matches the sync one (Gymnasium's own
  ``AsyncVectorEnv`` forks after jax started its threads and hangs, so it is not a reference);
* ``vecgym.envs.phys2d``, ``vecgym.envs.tabular`` and ``vecgym.envs.functional_jax_env`` give
  Gymnasium's objects, and ``FunctionalJaxEnv`` runs a ``FuncEnv`` written against vecgym.

Prints ``ok``; an ``AssertionError`` says where they differ.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np

import vecgym
from tests.support.space_values import assert_same_value
from vecgym.spaces import Box, Discrete

JAX_IDS = [env_id for env_id in gymnasium.registry if env_id.startswith(("phys2d/", "tabular/"))]


def actions_for(count: int, space: Any) -> list[Any]:
    """``count`` actions of Gymnasium's ``space``, drawn with a fixed seed."""
    space.seed(7)
    return [space.sample() for _ in range(count)]


def made(make: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[type[Warning]]]:
    """``make(*args, **kwargs)`` and the categories of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        return make(*args, **kwargs), [w.category for w in caught]


def check_single(env_id: str) -> None:
    (ours, ours_warned), (theirs, theirs_warned) = (
        made(vecgym.make, env_id),
        made(gymnasium.make, env_id),
    )
    assert ours_warned == theirs_warned, (env_id, ours_warned, theirs_warned)
    assert ours.spec is not None
    assert theirs.spec is not None
    assert ours.spec.max_episode_steps == theirs.spec.max_episode_steps, env_id
    actions = actions_for(300, theirs.action_space)
    for seed in (0, 1):
        assert_same_value(ours.reset(seed=seed), theirs.reset(seed=seed), f"{env_id} reset({seed})")
        for t, action in enumerate(actions):
            out, ref = ours.step(action), theirs.step(action)
            assert_same_value(out, ref, f"{env_id} seed {seed} step {t}")
            if ref[2] or ref[3]:
                assert_same_value(ours.reset(), theirs.reset(), f"{env_id} reset after step {t}")
    ours.close()
    theirs.close()


def check_vector(env_id: str, mode: str | None) -> None:
    kwargs = {} if mode is None else {"vectorization_mode": mode}
    (ours, ours_warned), (theirs, theirs_warned) = (
        made(vecgym.make_vec, env_id, 3, **kwargs),
        made(gymnasium.make_vec, env_id, 3, **kwargs),
    )
    where = f"{env_id} make_vec({mode})"
    assert len(ours_warned) == len(theirs_warned), (where, ours_warned, theirs_warned)
    assert type(ours.unwrapped).__name__ in {type(theirs).__name__, "GymnasiumVectorEnv"}, where
    # past Pendulum's truncation at 200 steps; Blackjack's and CliffWalking's steps are slow in
    # jax, and 60 of them cover many episode ends
    actions = actions_for(60 if env_id.startswith("tabular/") else 210, theirs.action_space)
    assert_same_value(ours.reset(seed=5), theirs.reset(seed=5), f"{where} reset")
    for t, action in enumerate(actions):
        assert_same_value(ours.step(action), theirs.step(action), f"{where} step {t}")
    ours.close()
    theirs.close()


def check_async(env_id: str) -> None:
    """vecgym's AsyncVectorEnv (two workers) against vecgym's SyncVectorEnv."""
    fns = [lambda: gymnasium.make(env_id) for _ in range(4)]
    sync = vecgym.vector.SyncVectorEnv(fns)
    env = vecgym.vector.AsyncVectorEnv(fns, num_workers=2)
    try:
        actions = actions_for(200, sync.action_space)
        assert_same_value(env.reset(seed=11), sync.reset(seed=11), f"{env_id} async reset")
        for t, action in enumerate(actions):
            assert_same_value(env.step(action), sync.step(action), f"{env_id} async step {t}")
    finally:
        env.close()
        sync.close()


def check_modules() -> None:
    def both(name: str) -> tuple[Any, Any]:
        """``vecgym.envs.<name>`` and ``gymnasium.envs.<name>``, imported."""
        return importlib.import_module(f"vecgym.envs.{name}"), importlib.import_module(
            f"gymnasium.envs.{name}"
        )

    for name in ("phys2d.cartpole", "phys2d.pendulum", "tabular.blackjack", "tabular.cliffwalking"):
        ours, theirs = both(name)
        assert ours is theirs, name  # the module itself
    for name in ("phys2d", "tabular", "functional_jax_env"):
        ours, theirs = both(name)
        assert ours.__all__ == getattr(theirs, "__all__", ours.__all__), name
        for attr in ours.__all__:
            assert getattr(ours, attr) is getattr(theirs, attr), (name, attr)
    jax_env = importlib.import_module("vecgym.envs.functional_jax_env")
    assert jax_env.__all__ == ["FunctionalJaxEnv", "FunctionalJaxVectorEnv"]


class Drift(vecgym.experimental.functional.FuncEnv):  # type: ignore[type-arg]
    """A FuncEnv written against vecgym: the state drifts by the action; ends past 3."""

    observation_space = Box(-10.0, 10.0, (1,), np.float32)
    action_space = Discrete(2)

    def initial(self, rng: Any, params: Any = None) -> Any:
        return jax.random.uniform(rng, (1,), minval=-1.0, maxval=1.0)

    def transition(self, state: Any, action: Any, rng: Any, params: Any = None) -> Any:
        return state + jnp.where(action == 1, 1.0, -1.0)

    def observation(self, state: Any, rng: Any, params: Any = None) -> Any:
        return state.astype(jnp.float32)

    def reward(self, state: Any, action: Any, next_state: Any, rng: Any, params: Any = None) -> Any:
        return jnp.float32(1.0)

    def terminal(self, state: Any, rng: Any, params: Any = None) -> Any:
        return jnp.abs(state[0]) > 3.0


def param_env(base: type, spaces: Any) -> Any:
    """The same FuncEnv on ``base`` (vecgym's or Gymnasium's ``FuncEnv``) with ``spaces``'s Box:
    its transition info is its state info, as Gymnasium's own tests write it."""

    class Param(base):  # type: ignore[valid-type, misc]
        observation_space = spaces.Box(-np.inf, np.inf, shape=(1,), dtype=np.float32)
        action_space = spaces.Box(-1.0, 1.0, shape=(1,), dtype=np.float32)

        def initial(self, rng: Any, params: Any = None) -> Any:
            return jax.random.uniform(rng, (1,), minval=-1.0, maxval=1.0)

        def transition(self, state: Any, action: Any, rng: Any, params: Any = None) -> Any:
            return state + 2.0 * action

        def observation(self, state: Any, rng: Any, params: Any = None) -> Any:
            return (state + 2.0).astype(jnp.float32)

        def reward(
            self, state: Any, action: Any, next_state: Any, rng: Any, params: Any = None
        ) -> Any:
            return jnp.asarray(next_state[0] - state[0], dtype=jnp.float32)

        def terminal(self, state: Any, rng: Any, params: Any = None) -> Any:
            return jnp.abs(state[0]) > 4.0

        def state_info(self, state: Any, params: Any = None) -> Any:
            return {"position": state[0]}

        def transition_info(
            self, state: Any, action: Any, next_state: Any, params: Any = None
        ) -> Any:
            return self.state_info(next_state)

    return Param()


def check_functional_vector_env() -> None:
    """Gymnasium's FunctionalJaxEnv / FunctionalJaxVectorEnv over a FuncEnv written on vecgym give
    what they give over the same FuncEnv written on Gymnasium (values, types, shapes, infos)."""
    from gymnasium.experimental.functional import FuncEnv as GymnasiumFuncEnv

    from vecgym.envs.functional_jax_env import FunctionalJaxEnv, FunctionalJaxVectorEnv

    ours_env = param_env(vecgym.experimental.functional.FuncEnv, vecgym.spaces)
    theirs_env = param_env(GymnasiumFuncEnv, gymnasium.spaces)
    ours = FunctionalJaxVectorEnv(ours_env, num_envs=3, max_episode_steps=7)
    theirs = FunctionalJaxVectorEnv(theirs_env, num_envs=3, max_episode_steps=7)
    assert ours.single_observation_space is ours_env.observation_space
    assert isinstance(ours.observation_space, vecgym.spaces.Box)
    assert ours.observation_space.shape == theirs.observation_space.shape == (3, 1)
    actions = [jnp.full((3, 1), 0.25 * (k % 5 - 2), dtype=jnp.float32) for k in range(40)]
    assert_same_value(ours.reset(seed=3), theirs.reset(seed=3), "FunctionalJaxVectorEnv reset")
    for t, action in enumerate(actions):
        assert_same_value(
            ours.step(action), theirs.step(action), f"FunctionalJaxVectorEnv step {t}"
        )
    single = [
        FunctionalJaxEnv(param_env(base, spaces))
        for base, spaces in (
            (vecgym.experimental.functional.FuncEnv, vecgym.spaces),
            (GymnasiumFuncEnv, gymnasium.spaces),
        )
    ]
    assert_same_value(single[0].reset(seed=1), single[1].reset(seed=1), "FunctionalJaxEnv reset")
    for t, action in enumerate(actions):
        assert_same_value(
            single[0].step(action[0]), single[1].step(action[0]), f"FunctionalJaxEnv step {t}"
        )


def check_functional_env() -> None:
    from vecgym.envs.functional_jax_env import FunctionalJaxEnv

    env = vecgym.wrappers.TimeLimit(FunctionalJaxEnv(Drift()), 10)
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, jax.Array), obs
    assert obs.shape == (1,), obs
    steps, terminated = 0, False
    while not terminated:
        obs, reward, terminated, truncated, _ = env.step(1)
        steps += 1
        assert float(reward) == 1.0, reward
        assert not truncated, steps
        assert steps <= 5, (steps, obs)
    assert float(obs[0]) > 3.0


def main() -> None:
    warnings.simplefilter("error")
    assert {"phys2d/CartPole-v1", "phys2d/Pendulum-v0", "tabular/Blackjack-v0"} <= set(JAX_IDS)
    for env_id in JAX_IDS:
        check_single(env_id)
        for mode in (None, "sync"):
            check_vector(env_id, mode)
    check_async("phys2d/CartPole-v1")
    check_modules()
    check_functional_env()
    check_functional_vector_env()
    print("ok")


if __name__ == "__main__":
    main()
