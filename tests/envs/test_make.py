"""``vecgym.make`` and ``vecgym.make_vec``: lookup, kwargs, the wrapper stack, specs, rendering."""

from __future__ import annotations

import inspect
import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from tests.support.registry_envs import (
    ArgEnv,
    ArgVectorEnv,
    NoMetadataRenderEnv,
    ScaleReward,
    UnrecordedWrapper,
)
from vecgym import error
from vecgym.core.registration import (
    NAME_SUGGESTION_MSG,
    UNVERSIONED_MSG,
    EnvSpec,
    Registry,
    VectorizeMode,
    WrapperSpec,
    registry,
)
from vecgym.envs.registration import (
    BAD_ID_TYPE_MSG,
    BAD_VEC_ID_TYPE_MSG,
    CREATOR_FAILED_MSG,
    HUMAN_RENDERING_APPLIED_MSG,
    METADATA_NO_RENDER_MODES_MSG,
    METADATA_TYPE_MSG,
    NO_ENTRY_POINT_MSG,
    NOT_AN_ENV_MSG,
    PRIOR_WRAPPER_MISMATCH_MSG,
    UNSUPPORTED_RENDER_MODE_MSG,
    VEC_ADDITIONAL_WRAPPERS_WITH_ENTRY_POINT_MSG,
    VEC_BAD_AUTORESET_MSG,
    VEC_INVALID_MODE_MSG,
    VEC_KWARGS_WITH_ENTRY_POINT_MSG,
    VEC_MISSING_AUTORESET_MSG,
    VEC_NO_ENTRY_POINT_MSG,
    VEC_NO_VECTOR_ENTRY_POINT_MSG,
    VEC_WRAPPERS_WITH_ENTRY_POINT_MSG,
    WRAPPER_NOT_RECORDED_MSG,
    make,
    make_vec,
    register,
)
from vecgym.wrappers import OrderEnforcing, RenderCollection, TimeLimit

ENTRY = "tests.support.registry_envs:ArgEnv"
VEC_ENTRY = "tests.support.registry_envs:ArgVectorEnv"


@pytest.fixture(autouse=True)
def restore_registry() -> Iterator[Registry]:
    """Every test may register into the global registry; its content is restored afterwards."""
    saved = registry.own_specs()
    yield registry
    registry.clear()
    registry.update(saved)


def _layers(env: Any) -> list[str]:
    names = []
    while True:
        names.append(type(env).__name__)
        if not hasattr(env, "env"):
            return names
        env = env.env


# --- lookup and entry points ----------------------------------------------------------------------
def test_make_string_and_callable_entry_points() -> None:
    register("MakeStr-v0", entry_point=ENTRY)
    register("MakeCall-v0", entry_point=ArgEnv)
    for env_id in ("MakeStr-v0", "MakeCall-v0"):
        env = make(env_id)
        assert isinstance(env.unwrapped, ArgEnv)
        assert _layers(env) == ["OrderEnforcing", "PassiveEnvChecker", "ArgEnv"]
        assert str(env) == f"<OrderEnforcing<PassiveEnvChecker<ArgEnv<{env_id}>>>>"
        env.close()


def test_make_module_prefix_imports_the_module() -> None:
    import sys

    sys.modules.pop("tests.support.registry_plugin", None)
    env = make("tests.support.registry_plugin:RegistryPlugin-v0")
    assert env.unwrapped.arg1 == "plugin"  # type: ignore[attr-defined]
    sys.modules.pop("tests.support.registry_plugin", None)


def test_make_unknown_id_suggests() -> None:
    register("MakeSuggest-v0", entry_point=ENTRY)
    with pytest.raises(
        error.NameNotFound, match=message_pattern(NAME_SUGGESTION_MSG, suggestion="MakeSuggest")
    ):
        make("MakeSugest-v0")
    with pytest.raises(error.VersionNotFound):
        make("MakeSuggest-v4")


def test_make_unversioned_uses_latest() -> None:
    register("MakeLatest-v0", entry_point=ENTRY)
    register("MakeLatest-v1", entry_point=ENTRY, kwargs={"arg1": "v1"})
    with pytest.warns(
        UserWarning, match=message_pattern(UNVERSIONED_MSG, latest_id="MakeLatest-v1")
    ):
        env = make("MakeLatest")
    assert env.spec is not None
    assert env.spec.id == "MakeLatest-v1"


def test_make_bad_id_type() -> None:
    with pytest.raises(TypeError, match=message_pattern(BAD_ID_TYPE_MSG)):
        make(3)  # type: ignore[arg-type]


def test_make_without_entry_point() -> None:
    register("MakeVecOnly-v0", vector_entry_point=VEC_ENTRY)
    with pytest.raises(error.Error, match=message_pattern(NO_ENTRY_POINT_MSG)):
        make("MakeVecOnly-v0")


def test_make_rejects_non_env() -> None:
    register("MakeNotEnv-v0", entry_point="tests.support.registry_envs:not_an_env")
    with pytest.raises(TypeError, match=message_pattern(NOT_AN_ENV_MSG)):
        make("MakeNotEnv-v0")


def test_make_reports_creator_type_errors() -> None:
    register("MakeBadKwarg-v0", entry_point=ENTRY)
    with pytest.raises(
        TypeError, match=message_pattern(CREATOR_FAILED_MSG, env_id="MakeBadKwarg-v0")
    ):
        make("MakeBadKwarg-v0", unknown=1)


# --- kwargs and specs -----------------------------------------------------------------------------
def test_make_kwargs_override_spec_kwargs() -> None:
    register("MakeKwargs-v0", entry_point=ENTRY, kwargs={"arg1": 1, "arg2": [2]})
    env = make("MakeKwargs-v0", arg2=3, arg3="c")
    base = env.unwrapped
    assert (base.arg1, base.arg2, base.arg3) == (1, 3, "c")  # type: ignore[attr-defined]
    assert env.spec is not None
    assert env.spec.kwargs == {"arg1": 1, "arg2": 3, "arg3": "c"}
    assert registry["MakeKwargs-v0"].kwargs == {"arg1": 1, "arg2": [2]}
    # the registered kwargs are deep-copied into the env
    env2 = make("MakeKwargs-v0")
    assert env2.unwrapped.arg2 is not registry["MakeKwargs-v0"].kwargs["arg2"]  # type: ignore[attr-defined]


def test_make_sets_specs() -> None:
    register(
        "MakeSpec-v0",
        entry_point=ENTRY,
        reward_threshold=9.0,
        nondeterministic=True,
        max_episode_steps=5,
        vector_entry_point=VEC_ENTRY,
        kwargs={"arg1": 1},
    )
    env = make("MakeSpec-v0", arg2=2)
    expected_base = EnvSpec(
        id="MakeSpec-v0",
        entry_point=ENTRY,
        reward_threshold=9.0,
        nondeterministic=True,
        max_episode_steps=None,
        order_enforce=False,
        disable_env_checker=True,
        kwargs={"arg1": 1, "arg2": 2},
        vector_entry_point=VEC_ENTRY,
    )
    assert env.unwrapped.spec == expected_base
    expected_outer = EnvSpec(
        id="MakeSpec-v0",
        entry_point=ENTRY,
        reward_threshold=9.0,
        nondeterministic=True,
        max_episode_steps=5,
        order_enforce=True,
        disable_env_checker=False,
        kwargs={"arg1": 1, "arg2": 2},
        vector_entry_point=VEC_ENTRY,
    )
    assert env.spec == expected_outer


def test_env_spec_make() -> None:
    register("MakeFromSpec-v0", entry_point=ENTRY, kwargs={"arg1": 1})
    env = registry["MakeFromSpec-v0"].make(arg1=7)
    assert env.unwrapped.arg1 == 7  # type: ignore[attr-defined]


# --- the wrapper stack ----------------------------------------------------------------------------
def test_make_max_episode_steps() -> None:
    register("MakeNoLimit-v0", entry_point=ENTRY)
    register("MakeLimit-v0", entry_point=ENTRY, max_episode_steps=5)

    assert "TimeLimit" not in _layers(make("MakeNoLimit-v0"))
    env = make("MakeLimit-v0")
    assert _layers(env) == ["TimeLimit", "OrderEnforcing", "PassiveEnvChecker", "ArgEnv"]
    assert env.spec is not None
    assert env.spec.max_episode_steps == 5

    env = make("MakeLimit-v0", max_episode_steps=2)
    assert env.spec is not None
    assert env.spec.max_episode_steps == 2
    env.reset(seed=0)
    assert env.step(0)[3] is False
    assert env.step(0)[3] is True

    env = make("MakeNoLimit-v0", max_episode_steps=3)
    assert isinstance(env, TimeLimit)

    env = make("MakeLimit-v0", max_episode_steps=-1)
    assert "TimeLimit" not in _layers(env)
    assert env.spec is not None
    assert env.spec.max_episode_steps is None


def test_make_env_checker_and_order_enforcing_switches() -> None:
    register("MakeChecked-v0", entry_point=ENTRY)
    register("MakeUnchecked-v0", entry_point=ENTRY, disable_env_checker=True, order_enforce=False)

    assert _layers(make("MakeChecked-v0", disable_env_checker=True)) == ["OrderEnforcing", "ArgEnv"]
    assert _layers(make("MakeUnchecked-v0")) == ["ArgEnv"]
    env = make("MakeUnchecked-v0", disable_env_checker=False)
    assert _layers(env) == ["PassiveEnvChecker", "ArgEnv"]
    assert env.spec is not None
    assert env.spec.disable_env_checker is False
    assert env.spec.order_enforce is False


def test_make_additional_wrappers() -> None:
    register(
        "MakeExtra-v0",
        entry_point=ENTRY,
        max_episode_steps=4,
        additional_wrappers=(ScaleReward.wrapper_spec(scale=3.0),),
    )
    env = make("MakeExtra-v0")
    assert _layers(env) == [
        "ScaleReward",
        "TimeLimit",
        "OrderEnforcing",
        "PassiveEnvChecker",
        "ArgEnv",
    ]
    env.reset(seed=0)
    assert env.step(0)[1] == 3.0
    assert env.spec is not None
    assert env.spec.additional_wrappers == (
        WrapperSpec("ScaleReward", "tests.support.registry_envs:ScaleReward", {"scale": 3.0}),
    )


def test_make_from_env_spec_rebuilds_the_stack() -> None:
    register("MakeRebuild-v0", entry_point=ENTRY, kwargs={"arg1": 1})
    env = ScaleReward(make("MakeRebuild-v0", max_episode_steps=3, arg2=2), scale=0.5)
    assert env.spec is not None
    rebuilt = make(env.spec)
    assert str(rebuilt) == str(env)
    assert _layers(rebuilt) == _layers(env)
    assert rebuilt.spec == env.spec
    assert rebuilt.unwrapped.spec == env.unwrapped.spec
    rebuilt.reset(seed=0)
    assert rebuilt.step(0)[1] == 0.5

    # through JSON as well
    again = make(EnvSpec.from_json(env.spec.to_json()))
    assert again.spec == env.spec


def test_make_from_spec_with_unrecorded_wrapper_fails() -> None:
    register("MakeUnrecorded-v0", entry_point=ENTRY)
    env = UnrecordedWrapper(make("MakeUnrecorded-v0"))
    assert env.spec is not None
    with pytest.raises(ValueError, match=message_pattern(WRAPPER_NOT_RECORDED_MSG)):
        make(env.spec)


def test_make_with_prewrapping_entry_point() -> None:
    scale_spec = WrapperSpec(
        "ScaleReward", "tests.support.registry_envs:ScaleReward", {"scale": 2.0}
    )
    register(
        "MakePrewrapped-v0",
        entry_point="tests.support.registry_envs:make_prewrapped",
        additional_wrappers=(scale_spec,),
    )
    env = make("MakePrewrapped-v0")
    assert _layers(env) == ["OrderEnforcing", "PassiveEnvChecker", "ScaleReward", "ArgEnv"]

    other = ScaleReward.wrapper_spec(scale=5.0)
    register(
        "MakePrewrappedBad-v0",
        entry_point="tests.support.registry_envs:make_prewrapped",
        additional_wrappers=(other,),
    )
    with pytest.raises(ValueError, match=message_pattern(PRIOR_WRAPPER_MISMATCH_MSG)):
        make("MakePrewrappedBad-v0")


# --- rendering ------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["rgb_array", "ansi"])
def test_make_list_render_mode_uses_render_collection(mode: str) -> None:
    register("MakeRender-v0", entry_point=ENTRY)
    env = make("MakeRender-v0", render_mode=f"{mode}_list")
    assert isinstance(env, RenderCollection)
    assert env.render_mode == f"{mode}_list"
    assert env.unwrapped.render_mode == mode
    assert env.spec is not None
    assert env.spec.kwargs["render_mode"] == mode
    env.reset(seed=0)
    env.step(0)
    assert len(env.render()) == 2


def test_make_native_render_mode_has_no_render_wrapper() -> None:
    register("MakeRenderNative-v0", entry_point=ENTRY)
    env = make("MakeRenderNative-v0", render_mode="rgb_array")
    assert isinstance(env, OrderEnforcing)
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray)


def test_make_unsupported_render_mode_warns() -> None:
    register("MakeRenderBad-v0", entry_point=ENTRY)
    with pytest.warns(
        UserWarning, match=message_pattern(UNSUPPORTED_RENDER_MODE_MSG, render_mode="depth")
    ):
        env = make("MakeRenderBad-v0", render_mode="depth", disable_env_checker=True)
    assert env.unwrapped.render_mode == "depth"


def test_make_warns_about_metadata_without_render_modes() -> None:
    register("MakeNoModes-v0", entry_point=NoMetadataRenderEnv)
    with pytest.warns(UserWarning, match=message_pattern(METADATA_NO_RENDER_MODES_MSG)):
        make("MakeNoModes-v0", disable_env_checker=True)


def test_make_rejects_non_dict_metadata() -> None:
    class BadMetadataEnv(ArgEnv):
        metadata = ["render_modes"]  # type: ignore[assignment]

    register("MakeBadMetadata-v0", entry_point=BadMetadataEnv)
    with pytest.raises(error.InvalidMetadata, match=message_pattern(METADATA_TYPE_MSG)):
        make("MakeBadMetadata-v0")


def test_make_human_mode_emulated_when_available() -> None:
    register("MakeHuman-v0", entry_point=ENTRY)
    with pytest.warns(UserWarning, match=message_pattern(HUMAN_RENDERING_APPLIED_MSG)):
        env = make("MakeHuman-v0", render_mode="human")
    assert type(env).__name__ == "HumanRendering"
    assert env.unwrapped.render_mode == "rgb_array"
    env.close()


# --- signatures -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["make", "make_vec", "register", "spec", "pprint_registry"])
def test_signatures_match_gymnasium(name: str) -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    ours = inspect.signature(getattr(vecgym.envs.registration, name))
    theirs = inspect.signature(getattr(gym_registration, name))
    assert [(p.name, p.kind) for p in ours.parameters.values()] == [
        (p.name, p.kind) for p in theirs.parameters.values()
    ]
    for param in ours.parameters.values():
        default = theirs.parameters[param.name].default
        if isinstance(default, dict):  # the registry itself
            continue
        assert param.default == default, param.name


# --- make_vec -------------------------------------------------------------------------------------
def test_make_vec_vector_entry_point() -> None:
    register(
        "VecEntry-v0",
        entry_point=ENTRY,
        vector_entry_point=VEC_ENTRY,
        max_episode_steps=9,
        kwargs={"arg1": 1},
    )
    with pytest.warns(UserWarning, match=message_pattern(VEC_MISSING_AUTORESET_MSG)):
        env = make_vec("VecEntry-v0", num_envs=3, arg2=2)
    assert isinstance(env, ArgVectorEnv)
    assert env.num_envs == 3
    assert env.kwargs == {"arg1": 1, "arg2": 2, "max_episode_steps": 9}
    assert env.spec.kwargs == {
        "arg1": 1,
        "arg2": 2,
        "max_episode_steps": 9,
        "num_envs": 3,
        "vectorization_mode": "vector_entry_point",
    }
    assert env.spec.id == "VecEntry-v0"
    assert registry["VecEntry-v0"].kwargs == {"arg1": 1}

    # the recorded spec rebuilds the same vector env
    with pytest.warns(UserWarning, match=message_pattern(VEC_MISSING_AUTORESET_MSG)):
        again = make_vec(env.spec)
    assert again.num_envs == 3
    assert again.kwargs == env.kwargs


def test_make_vec_max_episode_steps_kwarg_wins() -> None:
    register("VecSteps-v0", vector_entry_point=VEC_ENTRY, max_episode_steps=9)
    with pytest.warns(UserWarning, match=message_pattern(VEC_MISSING_AUTORESET_MSG)):
        env = make_vec("VecSteps-v0", max_episode_steps=4, vectorization_mode="vector_entry_point")
    assert env.kwargs["max_episode_steps"] == 4
    assert env.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    assert "num_envs" not in env.spec.kwargs  # num_envs == 1 is not recorded


def test_make_vec_autoreset_metadata_checks() -> None:
    autoreset_mode = vecgym.vector.AutoresetMode
    register("VecMeta-v0", vector_entry_point=VEC_ENTRY)
    env = make_vec("VecMeta-v0", metadata={"autoreset_mode": autoreset_mode.NEXT_STEP})
    assert isinstance(env, ArgVectorEnv)
    with pytest.warns(UserWarning, match=message_pattern(VEC_BAD_AUTORESET_MSG)):
        make_vec("VecMeta-v0", metadata={"autoreset_mode": "next_step"})


def test_make_vec_errors() -> None:
    register("VecErr-v0", entry_point=ENTRY, vector_entry_point=VEC_ENTRY)
    register("VecErrNoVec-v0", entry_point=ENTRY)
    register("VecErrNoEntry-v0", vector_entry_point=VEC_ENTRY)
    register(
        "VecErrWrapped-v0",
        entry_point=ENTRY,
        vector_entry_point=VEC_ENTRY,
        additional_wrappers=(ScaleReward.wrapper_spec(scale=1.0),),
    )
    with pytest.raises(ValueError, match=message_pattern(VEC_INVALID_MODE_MSG, mode="threads")):
        make_vec("VecErr-v0", vectorization_mode="threads")
    with pytest.raises(error.Error, match=message_pattern(VEC_KWARGS_WITH_ENTRY_POINT_MSG)):
        make_vec("VecErr-v0", vector_kwargs={"copy": False})
    with pytest.raises(error.Error, match=message_pattern(VEC_WRAPPERS_WITH_ENTRY_POINT_MSG)):
        make_vec("VecErr-v0", wrappers=[ScaleReward])
    with pytest.raises(
        error.Error, match=message_pattern(VEC_ADDITIONAL_WRAPPERS_WITH_ENTRY_POINT_MSG)
    ):
        make_vec("VecErrWrapped-v0", vectorization_mode=VectorizeMode.VECTOR_ENTRY_POINT)
    with pytest.raises(error.Error, match=message_pattern(VEC_NO_VECTOR_ENTRY_POINT_MSG)):
        make_vec("VecErrNoVec-v0", vectorization_mode="vector_entry_point")
    with pytest.raises(error.Error, match=message_pattern(VEC_NO_ENTRY_POINT_MSG)):
        make_vec("VecErrNoEntry-v0", vectorization_mode="sync")
    with pytest.raises(error.Error, match=message_pattern(VEC_NO_ENTRY_POINT_MSG)):
        make_vec("VecErrNoEntry-v0", vectorization_mode=VectorizeMode.ASYNC)
    with pytest.raises(error.Error, match=message_pattern(BAD_VEC_ID_TYPE_MSG)):
        make_vec(3)  # type: ignore[arg-type]
    with pytest.raises(
        error.NameNotFound, match=message_pattern(NAME_SUGGESTION_MSG, suggestion="VecErr")
    ):
        make_vec("VecEr-v0")


def test_make_vec_sync_mode() -> None:
    sync_vector_env = vecgym.vector.SyncVectorEnv
    register("VecSync-v0", entry_point=ENTRY, max_episode_steps=5, kwargs={"arg1": 1})
    env = make_vec("VecSync-v0", num_envs=2, wrappers=[lambda e: ScaleReward(e, scale=2.0)])
    try:
        assert isinstance(env, sync_vector_env)
        assert env.num_envs == 2
        obs, _ = env.reset(seed=0)
        assert obs.shape == (2, 1)
        _, rewards, _, _, _ = env.step(np.array([0, 1]))
        assert rewards.tolist() == [2.0, 2.0]
        assert env.spec.kwargs["vectorization_mode"] == "sync"
        assert env.spec.kwargs["num_envs"] == 2
        assert len(env.spec.kwargs["wrappers"]) == 1
        assert env.spec.kwargs["arg1"] == 1
    finally:
        env.close()


def test_make_vec_defaults_to_sync_without_vector_entry_point() -> None:
    sync_vector_env = vecgym.vector.SyncVectorEnv
    register("VecDefault-v0", entry_point=ENTRY)
    env = make_vec("VecDefault-v0")
    try:
        assert isinstance(env, sync_vector_env)
        assert env.num_envs == 1
        assert env.spec.kwargs == {"vectorization_mode": "sync"}
    finally:
        env.close()


BUILT_IN_IDS = [
    env_id
    for env_id, env_spec in registry.items()
    if isinstance(env_spec.entry_point, str) and env_spec.entry_point.startswith("vecgym.envs.")
]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # CartPole-v0 is an old version
@pytest.mark.parametrize("env_id", BUILT_IN_IDS)
def test_make_vec_default_builds_what_gymnasium_builds(env_id: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    ours, theirs = make_vec(env_id, num_envs=2), gymnasium.make_vec(env_id, num_envs=2)
    try:
        assert type(ours).__name__ == type(theirs).__name__
        assert (vecgym.spec(env_id).vector_entry_point is None) == (
            gymnasium.spec(env_id).vector_entry_point is None
        )
        assert ours.spec.kwargs == theirs.spec.kwargs
        if isinstance(theirs, gymnasium.vector.SyncVectorEnv):  # what code reaches through it
            assert [env.spec.id for env in ours.envs] == [env_id, env_id]
            assert ours.get_attr("spec") == (ours.envs[0].spec, ours.envs[1].spec)
            ours.reset(seed=3)
            assert ours.get_attr("np_random_seed") == (3, 4)
    finally:
        ours.close()
        theirs.close()


def test_make_vec_async_mode() -> None:
    async_vector_env = vecgym.vector.AsyncVectorEnv
    register("VecAsync-v0", entry_point=ENTRY)
    env = make_vec("VecAsync-v0", num_envs=2, vectorization_mode="async")
    try:
        assert isinstance(env, async_vector_env)
        obs, _ = env.reset(seed=0)
        assert obs.shape == (2, 1)
        assert env.spec.kwargs["vectorization_mode"] == "async"
    finally:
        env.close()


# --- differential: the built-in CartPole against Gymnasium ----------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"max_episode_steps": 10},
        {"max_episode_steps": -1},
        {"disable_env_checker": True},
        {"render_mode": "rgb_array"},
        {"render_mode": "rgb_array_list"},
    ],
)
def test_builtin_stack_and_spec_match_gymnasium(options: dict[str, Any]) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    ours = make("CartPole-v1", **options)
    theirs = gymnasium.make("CartPole-v1", **options)
    try:
        assert str(ours) == str(theirs)
        assert ours.spec is not None
        ours_spec = ours.spec.to_json().replace("vecgym.", "gymnasium.")
        assert json.loads(ours_spec) == json.loads(theirs.spec.to_json())
        assert ours.unwrapped.spec is not None
        ours_base = ours.unwrapped.spec.to_json().replace("vecgym.", "gymnasium.")
        assert json.loads(ours_base) == json.loads(theirs.unwrapped.spec.to_json())
    finally:
        ours.close()
        theirs.close()
