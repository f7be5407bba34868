"""``vecgym.envs.mujoco``, ``box2d``, ``phys2d``, ``tabular`` and ``functional_jax_env``:
Gymnasium's env modules at its module paths, and Gymnasium's jax envs through vecgym.

Code written for Gymnasium imports the MuJoCo, Box2D and jax env modules (a custom MuJoCo env
derives from ``MujocoEnv``; ``lunar_lander.heuristic`` drives LunarLander; ``FunctionalJaxEnv``
runs a jax ``FuncEnv``). Under ``vecgym.envs`` the same lines give Gymnasium's own objects, an env
built from them runs through ``vecgym.make`` seed for seed as Gymnasium's, and a missing extra is
a ``DependencyNotInstalled`` that names it (also a ``ModuleNotFoundError`` where Gymnasium raises
one).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.processes import installed, run_jax_script
from vecgym.utils.env_checker import data_equivalence

gymnasium = pytest.importorskip("gymnasium")

MODULES = {
    "mujoco": ("mujoco", ["mujoco_env", "half_cheetah_v5", "hopper_v4", "mujoco_rendering"]),
    "box2d": ("Box2D", ["lunar_lander", "bipedal_walker", "car_racing", "car_dynamics"]),
}


@pytest.mark.parametrize("package", sorted(MODULES))
def test_every_module_is_gymnasium_s_own(package: str) -> None:
    needs, modules = MODULES[package]
    pytest.importorskip(needs, reason=f"vecgym.envs.{package} needs the `{package}` extra")
    ours = importlib.import_module(f"vecgym.envs.{package}")
    theirs = importlib.import_module(f"gymnasium.envs.{package}")
    assert ours.__all__ == theirs.__all__
    for name in ours.__all__:
        assert getattr(ours, name) is getattr(theirs, name)
    for module in modules:
        alias = importlib.import_module(f"vecgym.envs.{package}.{module}")
        assert alias is importlib.import_module(f"gymnasium.envs.{package}.{module}")
        assert alias.__spec__.name == f"gymnasium.envs.{package}.{module}"  # left as it was
        assert getattr(ours, module) is alias
    with pytest.raises(ModuleNotFoundError, match=r"vecgym\.envs\.") as info:
        importlib.import_module(f"vecgym.envs.{package}.no_such_module")
    assert info.value.name == f"vecgym.envs.{package}.no_such_module"


def _trajectory(env: Any, steps: int = 30) -> list[Any]:
    out = [env.reset(seed=5)]
    env.action_space.seed(5)
    for _ in range(steps):
        out.append(env.step(env.action_space.sample()))
    env.close()
    return out


def test_a_custom_mujoco_env_from_vecgym_s_path_runs_through_vecgym_make() -> None:
    pytest.importorskip("mujoco", reason="needs the `mujoco` extra")
    from vecgym.envs.mujoco.half_cheetah_v5 import HalfCheetahEnv

    from vecgym.envs.mujoco import MujocoEnv

    class DoubledReward(HalfCheetahEnv):  # the usual custom env: a change to the reward
        def step(self, action: Any) -> Any:
            obs, reward, terminated, truncated, info = super().step(action)
            return obs, 2.0 * reward, terminated, truncated, info

    env_id = "VgTest/DoubledCheetah-v0"
    vecgym.register(env_id, entry_point=DoubledReward, max_episode_steps=1000)
    try:
        env = vecgym.make(env_id)
        assert isinstance(env.unwrapped.gymnasium_env.unwrapped, MujocoEnv)
        ours = _trajectory(env)
    finally:
        vecgym.registry.pop(env_id, None)
    reference = _trajectory(gymnasium.wrappers.TimeLimit(DoubledReward(), 1000))
    assert data_equivalence(ours, reference)
    plain = _trajectory(vecgym.make("HalfCheetah-v5"))
    np.testing.assert_allclose([s[1] for s in ours[1:]], [2 * s[1] for s in plain[1:]])


def test_lunar_lander_s_heuristic_from_vecgym_s_path_lands_as_gymnasium_s() -> None:
    pytest.importorskip("Box2D", reason="needs the `box2d` extra")
    from vecgym.envs.box2d.lunar_lander import heuristic

    def landing(env: Any) -> list[Any]:
        obs, _ = env.reset(seed=3)
        out = []
        for _ in range(200):
            obs, reward, terminated, truncated, _ = env.step(heuristic(env.unwrapped, obs))
            out.append((obs, reward))
            if terminated or truncated:
                break
        env.close()
        return out

    ours = landing(vecgym.make("LunarLander-v3"))
    assert data_equivalence(ours, landing(gymnasium.make("LunarLander-v3")))


@pytest.mark.parametrize(
    ("package", "blocked", "extra"),
    [
        ("mujoco", "mujoco", "mujoco"),
        ("box2d", "Box2D", "box2d"),
        ("phys2d", "flax", "jax"),
        ("tabular", "jax", "jax"),
        ("functional_jax_env", "jax", "jax"),
    ],
)
def test_a_missing_extra_names_it(package: str, blocked: str, extra: str) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        sys.modules[{blocked!r}] = None  # as if the package were not installed
        import vecgym
        try:
            import vecgym.envs.{package}
        except vecgym.error.DependencyNotInstalled as exc:
            print("raised:", exc)
            name = getattr(exc, "name", None)
            print("ModuleNotFoundError:", isinstance(exc, ModuleNotFoundError), name)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    assert f'pip install "vecgym[{extra}]"' in out
    assert out.startswith(f"raised: vecgym.envs.{package} is Gymnasium's gymnasium.envs.{package}")
    # Gymnasium's jax modules fail to import with ModuleNotFoundError: so does vecgym's error
    # (Gymnasium's jax modules import jax before flax: where jax is not installed, it is missing)
    jax_module = extra == "jax"
    name = (blocked if installed("jax") else "jax") if jax_module else None
    assert out.splitlines()[-1] == f"ModuleNotFoundError: {jax_module} {name}"


@pytest.mark.slow
def test_gymnasium_s_jax_envs_through_vecgym_match_gymnasium() -> None:
    """Every ``phys2d/`` and ``tabular/`` id: ``make`` and ``make_vec`` (Gymnasium's jax vector env,
    and sync) seed for seed as Gymnasium's, vecgym's AsyncVectorEnv as its SyncVectorEnv, the
    modules Gymnasium's own, and ``FunctionalJaxEnv`` over a vecgym ``FuncEnv`` (in a fresh
    interpreter: tests/support/jax_envs_check.py)."""
    run_jax_script("jax_envs_check", needs=("flax",))


@pytest.mark.parametrize("env_id", ["phys2d/CartPole-v1", "tabular/Blackjack-v0"])
def test_a_jax_id_without_jax_names_the_extra(env_id: str) -> None:
    """The pytest process runs without jax (tests/conftest.py): Gymnasium raises the import's
    ModuleNotFoundError, vecgym an error that is that and a DependencyNotInstalled naming the
    extra, for ``make`` and every ``make_vec`` mode."""
    with pytest.raises(ModuleNotFoundError):
        gymnasium.make(env_id)
    makers = [
        lambda: vecgym.make(env_id),
        lambda: vecgym.make_vec(env_id, 2),
        lambda: vecgym.make_vec(env_id, 2, vectorization_mode="sync"),
    ]
    for make in makers:
        with pytest.raises(vecgym.error.DependencyModuleNotFound) as caught:
            make()
        assert isinstance(caught.value, ModuleNotFoundError)
        assert isinstance(caught.value, vecgym.error.DependencyNotInstalled)
        assert caught.value.name == "jax"
        assert str(caught.value).startswith(f"{env_id} needs the `jax` extra")
        assert 'pip install "vecgym[jax]"' in str(caught.value)
