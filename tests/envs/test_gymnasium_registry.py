"""Gymnasium's registry through vecgym (vecgym.envs.gymnasium_registry), on real environments.

Every id here is one vecgym does not register: ALE (ale-py), MuJoCo, Box2D, and a third-party
plugin. The trajectories are compared step by step with ``gymnasium.make`` / ``gymnasium.make_vec``
for the same seeds and actions. Tests of a missing package skip (with the reason) where it is
not installed; "not installed" itself is produced for real by blocking the import
(``sys.modules[name] = None``), in-process or in a subprocess.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from tests.support.rollouts import assert_same_rollouts, rollout, vector_rollout
from vecgym import error
from vecgym.cli import main
from vecgym.core.interop import UNCONVERTIBLE_SPACE_MSG, GymnasiumEnv
from vecgym.core.registration import NAME_SUGGESTION_MSG
from vecgym.envs import gymnasium_registry
from vecgym.envs.gymnasium_registry import DEPENDENCY_MSG, EXTRA_HINT_MSG, extra_for
from vecgym.envs.registration import EnvSpec
from vecgym.vector import AutoresetMode
from vecgym.vector.gymnasium_vector_env import GymnasiumVectorEnv
from vecgym.wrappers import ClipReward, RenderCollection, TimeLimit

gymnasium = pytest.importorskip("gymnasium")

ATARI_IDS = ["ALE/Pong-v5", "ALE/Breakout-v5"]
MUJOCO_IDS = ["HalfCheetah-v5", "Hopper-v5"]
BOX2D_IDS = ["LunarLander-v3"]
NEEDS = {"atari": "ale_py", "mujoco": "mujoco", "box2d": "Box2D"}


def _needs(env_id: str) -> None:
    """Skip unless the package providing ``env_id`` is installed."""
    extra = extra_for(env_id)
    if extra is not None:
        pytest.importorskip(NEEDS[extra], reason=f"{env_id} needs the `{extra}` extra")
    if extra == "box2d":
        gymnasium_registry._import_box2d_quietly()  # its SWIG warnings crash under -W error


def _wrapper_names(env: Any) -> list[str]:
    """The class names of ``env``'s wrappers, outermost first (the raw env left out)."""
    names = []
    while hasattr(env, "env"):
        names.append(type(env).__name__)
        env = env.env
    return names


# --- make: same trajectories as gymnasium.make ----------------------------------------------------
@pytest.mark.parametrize("env_id", ATARI_IDS + MUJOCO_IDS + BOX2D_IDS)
def test_make_matches_gymnasium_make_seed_for_seed(env_id: str) -> None:
    _needs(env_id)
    env = vecgym.make(env_id)
    assert isinstance(env, vecgym.Env)
    assert isinstance(env.unwrapped, GymnasiumEnv)
    assert isinstance(env.observation_space, vecgym.spaces.Box)
    reference = gymnasium.make(env_id)
    assert _wrapper_names(env) == _wrapper_names(reference)
    assert str(env) == repr(env) == str(reference)  # <...<LunarLander<LunarLander-v3>>...>
    assert_same_rollouts(rollout(env, 123, 60), rollout(reference, 123, 60))


def test_make_kwargs_max_episode_steps_and_render_mode_behave_as_in_gymnasium() -> None:
    _needs("LunarLander-v3")
    env = vecgym.make(
        "LunarLander-v3", max_episode_steps=3, continuous=True, render_mode="rgb_array"
    )
    reference = gymnasium.make(
        "LunarLander-v3", max_episode_steps=3, continuous=True, render_mode="rgb_array"
    )
    assert isinstance(env, TimeLimit)
    assert env.spec is not None
    assert env.spec.max_episode_steps == 3
    assert env.spec.kwargs == reference.spec.kwargs
    assert env.action_space == vecgym.spaces.Box(-1, 1, (2,), np.float32)
    env.reset(seed=5)
    reference.reset(seed=5)
    assert np.array_equal(env.render(), reference.render())
    truncations = [env.step(np.zeros(2, np.float32))[3] for _ in range(3)]
    assert truncations == [False, False, True]
    env.close()
    reference.close()

    listed = vecgym.make("LunarLander-v3", render_mode="rgb_array_list")
    assert isinstance(listed, RenderCollection)
    listed.close()
    unlimited = vecgym.make("LunarLander-v3", max_episode_steps=-1)
    assert not isinstance(unlimited, TimeLimit)
    unlimited.close()


def test_vecgym_ids_win_over_gymnasium_ids() -> None:
    env = vecgym.make("CartPole-v1")
    assert not isinstance(env.unwrapped, GymnasiumEnv)
    assert env.spec is not None
    assert env.spec.entry_point == vecgym.spec("CartPole-v1").entry_point
    assert str(env.spec.entry_point).startswith("vecgym.")
    env.close()
    # A version vecgym does not have, of a name it has, is vecgym's error (not Gymnasium's env).
    with pytest.raises(error.VersionNotFound):
        vecgym.make("CartPole-v9")


# --- third-party registrations, "module:Env-v0" ids, additional wrappers --------------------------
@pytest.fixture
def gymnasium_plugin() -> Iterator[str]:
    sys.modules.pop("tests.support.gymnasium_plugin", None)
    yield "tests.support.gymnasium_plugin"
    sys.modules.pop("tests.support.gymnasium_plugin", None)
    gymnasium.registry.pop("GymPlugin/Clipped-v0", None)


def test_module_prefixed_id_of_a_third_party_gymnasium_registration(gymnasium_plugin: str) -> None:
    env = vecgym.make(f"{gymnasium_plugin}:GymPlugin/Clipped-v0")
    plugin = sys.modules[gymnasium_plugin]
    assert isinstance(env, ClipReward)  # Gymnasium's ClipReward became vecgym's
    assert env.spec is not None
    assert env.spec.additional_wrappers[0].entry_point.startswith("vecgym.wrappers")
    assert env.spec.additional_wrappers[0].kwargs == plugin.CLIP_KWARGS
    assert env.unwrapped.get_wrapper_attr("g") == 9.0
    reference = gymnasium.make("GymPlugin/Clipped-v0")
    ours = rollout(env, 3, 40)
    assert_same_rollouts(ours, rollout(reference, 3, 40))
    rewards = [step[1] for step in ours[1:] if len(step) == 5]
    assert max(rewards) <= 0.25
    assert min(rewards) == -0.25
    # make(env.spec) rebuilds the same stack from the recorded spec.
    rebuilt = vecgym.make(env.spec)
    assert str(rebuilt) == str(env)
    rebuilt.close()


def test_register_envs_ale_py_then_make() -> None:
    ale_py = pytest.importorskip("ale_py", reason="ALE ids need the `atari` extra")
    gymnasium.register_envs(ale_py)
    env = vecgym.make("ALE/Breakout-v5", frameskip=1)
    assert env.spec is not None
    assert env.spec.kwargs["frameskip"] == 1
    assert env.spec.kwargs["game"] == "breakout"
    env.close()


# --- make_vec -------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_sync_and_async_match_gymnasium(mode: str) -> None:
    _needs("Hopper-v5")
    envs = vecgym.make_vec("Hopper-v5", num_envs=2, vectorization_mode=mode)
    reference = gymnasium.make_vec("Hopper-v5", num_envs=2, vectorization_mode="sync")
    assert envs.single_observation_space == vecgym.spaces.Box(-np.inf, np.inf, (11,), np.float64)
    assert envs.spec is not None
    assert envs.spec.kwargs["vectorization_mode"] == mode
    assert_same_rollouts(vector_rollout(envs, 11, 30), vector_rollout(reference, 11, 30))


def test_make_vec_uses_gymnasium_vector_entry_point() -> None:
    _needs("ALE/Pong-v5")
    envs = vecgym.make_vec("ALE/Pong-v5", num_envs=2)  # ale-py registers a vector_entry_point
    assert isinstance(envs, GymnasiumVectorEnv)
    assert type(envs.gymnasium_env).__name__ == "AtariVectorEnv"
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.spec is not None
    assert envs.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    assert isinstance(envs.single_action_space, vecgym.spaces.Discrete)
    reference = gymnasium.make_vec("ALE/Pong-v5", num_envs=2)
    assert_same_rollouts(vector_rollout(envs, 5, 20), vector_rollout(reference, 5, 20))


def test_gymnasium_vector_env_carries_autoreset_mode_over() -> None:
    gym_envs = gymnasium.make_vec(
        "CartPole-v1",
        num_envs=2,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP},
    )
    envs = GymnasiumVectorEnv(gym_envs)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert gym_envs.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    assert envs.single_action_space == vecgym.spaces.Discrete(2)
    assert envs.action_space == vecgym.spaces.MultiDiscrete([2, 2])
    assert envs.get_attr("gravity") == (9.8, 9.8)
    envs.close()
    assert envs.closed
    assert gym_envs.closed


def test_gymnasium_vector_env_rejects_other_objects() -> None:
    from vecgym.vector.gymnasium_vector_env import NOT_GYMNASIUM_VECTOR_ENV_MSG

    with pytest.raises(TypeError, match=NOT_GYMNASIUM_VECTOR_ENV_MSG.format(type=int)):
        GymnasiumVectorEnv(3)


# --- spec, pprint_registry, CLI -------------------------------------------------------------------
def test_spec_of_a_gymnasium_id_is_a_vecgym_spec() -> None:
    _needs("ALE/Pong-v5")
    env_spec = vecgym.spec("ALE/Pong-v5")
    assert isinstance(env_spec, EnvSpec)
    reference = gymnasium.spec("ALE/Pong-v5")
    assert (env_spec.id, env_spec.entry_point, env_spec.kwargs) == (
        reference.id,
        reference.entry_point,
        reference.kwargs,
    )
    assert env_spec.vector_entry_point == reference.vector_entry_point
    assert vecgym.spec("Hopper-v5").max_episode_steps == 1000
    assert "ALE/Pong-v5" not in vecgym.registry.own_specs()  # vecgym's own ids are unchanged
    assert "ALE/Pong-v5" in vecgym.registry  # read through, as Gymnasium's registry lists it
    with pytest.raises(
        error.NameNotFound, match=message_pattern(NAME_SUGGESTION_MSG, suggestion="Hopper")
    ):
        vecgym.spec("Hoper-v5")


def test_pprint_registry_lists_gymnasium_ids_too() -> None:
    text = vecgym.pprint_registry(disable_print=True)
    assert text is not None
    for env_id in ("CartPole-v1", "HalfCheetah-v5", "LunarLander-v3", "Blackjack-v1"):
        assert env_id in text


def test_the_registry_reads_as_gymnasium_s_with_vecgym_s_own_specs() -> None:
    """``env_id in registry``, ``registry[env_id]``, ``keys()`` and the rest see the ids of
    Gymnasium's registry too, in its order (code such as RL-Zoo's check of an id against
    ``gym.envs.registry.keys()`` keeps working); vecgym's own ids keep vecgym's specs."""
    ours, theirs = vecgym.envs.registry, gymnasium.envs.registry
    assert list(ours) == list(theirs)
    assert list(ours.keys()) == list(theirs.keys())
    assert len(ours) == len(theirs)
    assert "LunarLander-v3" in ours
    assert ours["LunarLander-v3"].id == "LunarLander-v3"
    assert ours.get("HalfCheetah-v5") is ours["HalfCheetah-v5"]
    assert ours.get("NoSuchEnv-v0") is None
    assert "NoSuchEnv-v0" not in ours
    with pytest.raises(KeyError):
        ours["NoSuchEnv-v0"]
    own = ours.own_specs()
    assert set(own) < set(ours)
    assert all(str(spec.entry_point).startswith("vecgym.") for spec in own.values())
    for env_id, spec in ours.items():
        assert spec is (own[env_id] if env_id in own else ours[env_id])
    assert str(ours["CartPole-v1"].entry_point).startswith("vecgym.envs.classic_control")
    assert dict(ours).keys() == ours.copy().keys()
    vecgym.register("VgTest/Late-v0", entry_point="tests.support.registry_envs:Nope")
    try:  # an id registered later comes after Gymnasium's, as in Gymnasium's registry
        assert list(ours)[-1] == "VgTest/Late-v0"
    finally:
        del ours["VgTest/Late-v0"]
    assert list(ours) == list(theirs)


def test_pprint_registry_lists_the_groups_in_gymnasium_s_order() -> None:
    """Classic control first, as Gymnasium prints it (vecgym's own ids used to come last). The
    ids with a callable entry point are listed under their own names on purpose (Gymnasium: one
    "None" heading); every other heading comes in Gymnasium's order."""

    def headings(text: str | None) -> list[str]:
        assert text is not None
        return [line.strip("= ") for line in text.splitlines() if line.startswith("=====")]

    callable_names = {
        s.name for s in gymnasium.envs.registration.registry.values() if callable(s.entry_point)
    }
    ours = [
        h for h in headings(vecgym.pprint_registry(disable_print=True)) if h not in callable_names
    ]
    theirs = [h for h in headings(gymnasium.pprint_registry(disable_print=True)) if h != "None"]
    assert ours == theirs
    assert ours[0] == "classic_control"


def test_cli_check_and_bench_gymnasium_ids(capsys: pytest.CaptureFixture[str]) -> None:
    _needs("HalfCheetah-v5")
    _needs("ALE/Pong-v5")
    assert main(["check", "HalfCheetah-v5"]) == 0
    out, _ = capsys.readouterr()
    assert "HalfCheetah-v5: 11 passed, 1 warned, 0 failed" in out
    bench = ["bench", "ALE/Pong-v5", "--seconds", "0.05", "--num-envs", "2", "--workers", "1"]
    assert main(bench) == 0
    out, _ = capsys.readouterr()
    assert "ALE/Pong-v5: env steps/s" in out
    for runtime in ("sync", "async", "vector"):
        assert runtime in out


# --- missing packages -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("env_id", "error_type"),
    [
        ("ALE/Pong-v5", error.NamespaceNotFound),
        ("HalfCheetah-v5", error.NameNotFound),
        ("LunarLander-v3", error.NameNotFound),
    ],
)
def test_without_gymnasium_the_error_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, env_id: str, error_type: type[Exception]
) -> None:
    monkeypatch.setitem(sys.modules, "gymnasium", None)  # an import of gymnasium now fails
    hint = EXTRA_HINT_MSG.format(env_id=env_id, extra=extra_for(env_id))
    with pytest.raises(error_type) as info:
        vecgym.make(env_id)
    assert str(info.value).endswith(hint)
    with pytest.raises(error_type):
        vecgym.spec(env_id)
    with pytest.raises(error.NameNotFound) as unknown:
        vecgym.make("NoSuchEnvAnywhere-v0")
    assert "extra" not in str(unknown.value)


def _run_blocked(blocked: str, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter where importing ``blocked`` fails."""
    program = f"import sys\nsys.modules[{blocked!r}] = None\n" + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize(
    ("blocked", "env_id"), [("mujoco", "Hopper-v5"), ("Box2D", "LunarLander-v3")]
)
def test_missing_package_raises_dependency_not_installed_naming_the_extra(
    blocked: str, env_id: str
) -> None:
    result = _run_blocked(
        blocked,
        f"""
        import vecgym
        from vecgym import error
        try:
            vecgym.make({env_id!r})
        except error.DependencyNotInstalled as exc:
            print("RAISED", exc)
        """,
    )
    assert result.returncode == 0, result.stderr
    extra = extra_for(env_id)
    prefix = DEPENDENCY_MSG.format(env_id=env_id, extra=extra, cause="").split("(")[0]
    assert f"RAISED {prefix}" in result.stdout


def test_missing_ale_py_names_the_atari_extra() -> None:
    result = _run_blocked(
        "ale_py",
        """
        import vecgym
        from vecgym import error
        try:
            vecgym.make("ALE/Pong-v5")
        except error.NamespaceNotFound as exc:
            print("RAISED", exc)
        """,
    )
    assert result.returncode == 0, result.stderr
    assert EXTRA_HINT_MSG.format(env_id="ALE/Pong-v5", extra="atari") in result.stdout


# --- spaces without a vecgym counterpart ---------------------------------------------------------
class NotASpaceEnv(gymnasium.Env):  # type: ignore[misc]
    """A Gymnasium env whose observation space is not a space at all."""

    observation_space = "pixels"
    action_space = gymnasium.spaces.Discrete(2)


class NotASpaceVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc]
    """A Gymnasium vector env whose single action space is not a space at all."""

    num_envs = 2
    single_observation_space = gymnasium.spaces.Discrete(2)
    observation_space = gymnasium.spaces.MultiDiscrete([2, 2])
    single_action_space = None
    action_space = gymnasium.spaces.MultiDiscrete([2, 2])


def test_unconvertible_spaces_are_named_in_a_clear_error() -> None:
    message = UNCONVERTIBLE_SPACE_MSG.format(
        owner="NotASpaceEnv", name="observation_space", space="pixels", type=str
    )
    with pytest.raises(TypeError, match=re.escape(message)):
        GymnasiumEnv(NotASpaceEnv())
    gymnasium.register("VgTest/NotASpace-v0", entry_point=NotASpaceEnv)
    try:
        with pytest.raises(TypeError, match=re.escape(message)):
            vecgym.make("VgTest/NotASpace-v0")
    finally:
        gymnasium.registry.pop("VgTest/NotASpace-v0")
    message = UNCONVERTIBLE_SPACE_MSG.format(
        owner="NotASpaceVectorEnv", name="single_action_space", space=None, type=type(None)
    )
    with pytest.raises(TypeError, match=re.escape(message)):
        GymnasiumVectorEnv(NotASpaceVectorEnv())
