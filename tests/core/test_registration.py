"""The registry data layer: ids, EnvSpec, Registry, register/spec/namespace, version rules."""

from __future__ import annotations

import json
import re
import sys
import types
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core import registration
from vecgym.core.registration import (
    BAD_ENTRY_POINT_MSG,
    BAD_ENV_SPEC_JSON_MSG,
    BAD_WRAPPER_SPEC_JSON_MSG,
    CALLABLE_NOT_SERIALISABLE_MSG,
    DEFAULT_VERSION_HINT_MSG,
    DEPRECATED_VERSION_MSG,
    ID_TYPE_MSG,
    MALFORMED_ID_MSG,
    MODULE_IMPORT_FAILED_MSG,
    NAME_NOT_FOUND_MSG,
    NAME_SUGGESTION_MSG,
    NAMESPACE_INSTALL_HINT_MSG,
    NAMESPACE_NOT_FOUND_MSG,
    NAMESPACE_OVERRIDDEN_MSG,
    NAMESPACE_SUGGESTION_MSG,
    NO_ENTRY_POINT_MSG,
    NOT_REGISTERED_MSG,
    OUT_OF_DATE_MSG,
    OVERRIDING_MSG,
    UNVERSIONED_BESIDE_VERSIONED_MSG,
    UNVERSIONED_MSG,
    VERSION_NOT_FOUND_MSG,
    VERSIONED_BESIDE_UNVERSIONED_MSG,
    VERSIONS_HINT_MSG,
    EnvSpec,
    Registry,
    VectorizeMode,
    WrapperSpec,
    get_env_id,
    load_env_creator,
    parse_env_id,
    pprint_registry,
    register,
    register_envs,
    registry,
    spec,
)

ENTRY = "tests.support.registry_envs:ArgEnv"


@pytest.fixture
def global_registry() -> Iterator[Registry]:
    """The global registry, restored to its previous content after the test."""
    saved = registry.own_specs()
    saved_namespace = registry.current_namespace
    yield registry
    registry.clear()
    registry.update(saved)
    registry.current_namespace = saved_namespace


def _callable_entry(**kwargs: Any) -> Any:
    """A callable entry point (never called)."""
    return None


def _registry(*ids: str) -> Registry:
    reg = Registry()
    for env_id in ids:
        reg.register(env_id, entry_point=ENTRY)
    return reg


# --- ids ------------------------------------------------------------------------------------------
ID_CASES = [
    ("CartPole-v1", (None, "CartPole", 1)),
    ("ALE/Pong-v5", ("ALE", "Pong", 5)),
    ("Blackjack", (None, "Blackjack", None)),
    ("my-env_1.2", (None, "my-env_1.2", None)),
    ("ns:sub/Env-v0", ("ns:sub", "Env", 0)),
    ("module:Env-v3", (None, "module:Env", 3)),
    ("Env-v", (None, "Env-v", None)),
    ("Env-v1-v2", (None, "Env-v1", 2)),
    ("a-b/c.d-v10", ("a-b", "c.d", 10)),
]
MALFORMED_IDS = ["", "a/b/c-v0", "Env v0", "Env-v0/", "/Env-v0", "Env-v0\n", "ns/"]


@pytest.mark.parametrize(("env_id", "expected"), ID_CASES)
def test_parse_env_id(env_id: str, expected: tuple[str | None, str, int | None]) -> None:
    assert parse_env_id(env_id) == expected


@pytest.mark.parametrize(("env_id", "expected"), ID_CASES)
def test_get_env_id_inverts_parse(
    env_id: str, expected: tuple[str | None, str, int | None]
) -> None:
    assert get_env_id(*expected) == env_id


@pytest.mark.parametrize("env_id", MALFORMED_IDS)
def test_malformed_id_raises(env_id: str) -> None:
    with pytest.raises(error.Error, match=message_pattern(MALFORMED_ID_MSG)):
        parse_env_id(env_id)


def test_parse_matches_gymnasium() -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    gym_error = pytest.importorskip("gymnasium.error")
    for env_id, _ in ID_CASES:
        assert parse_env_id(env_id) == gym_registration.parse_env_id(env_id)
    for env_id in MALFORMED_IDS:
        # the same exception type (vecgym's own text is checked in test_malformed_id_raises)
        with pytest.raises(gym_error.Error):
            gym_registration.parse_env_id(env_id)


# --- EnvSpec --------------------------------------------------------------------------------------
def test_env_spec_parses_its_id() -> None:
    env_spec = EnvSpec("demo/Maze-v2", entry_point=ENTRY)
    assert (env_spec.namespace, env_spec.name, env_spec.version) == ("demo", "Maze", 2)
    assert env_spec.kwargs == {}
    assert env_spec.additional_wrappers == ()
    assert env_spec.order_enforce is True
    assert env_spec.disable_env_checker is False


def test_env_spec_fields_match_gymnasium() -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    import dataclasses

    ours = [(f.name, f.init) for f in dataclasses.fields(EnvSpec)]
    theirs = [(f.name, f.init) for f in dataclasses.fields(gym_registration.EnvSpec)]
    assert ours == theirs
    assert [f.name for f in dataclasses.fields(WrapperSpec)] == [
        f.name for f in dataclasses.fields(gym_registration.WrapperSpec)
    ]
    # Gymnasium's modes first, in its order; vecgym adds RAY (RayVectorEnv) after them
    theirs_modes = [(m.name, m.value) for m in gym_registration.VectorizeMode]
    ours_modes = [(m.name, m.value) for m in VectorizeMode]
    assert ours_modes[: len(theirs_modes)] == theirs_modes
    assert ours_modes[len(theirs_modes) :] == [("RAY", "ray")]


def _full_spec() -> EnvSpec:
    return EnvSpec(
        id="demo/Maze-v2",
        entry_point=ENTRY,
        reward_threshold=10.5,
        nondeterministic=True,
        max_episode_steps=30,
        order_enforce=False,
        disable_env_checker=True,
        kwargs={"arg1": [1, 2], "arg2": {"x": None}},
        additional_wrappers=(
            WrapperSpec("ScaleReward", "tests.support.registry_envs:ScaleReward", {"scale": 2.0}),
            WrapperSpec("Other", "pkg.mod:Other", None),
        ),
        vector_entry_point="pkg.mod:VecEnv",
    )


def test_json_round_trip() -> None:
    env_spec = _full_spec()
    text = env_spec.to_json()
    data = json.loads(text)
    assert not {"namespace", "name", "version"} & set(data)
    rebuilt = EnvSpec.from_json(text)
    assert rebuilt == env_spec
    assert isinstance(rebuilt.additional_wrappers, tuple)
    assert all(isinstance(w, WrapperSpec) for w in rebuilt.additional_wrappers)


def test_json_matches_gymnasium() -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    ours = _full_spec()
    theirs = gym_registration.EnvSpec(
        id=ours.id,
        entry_point=ours.entry_point,
        reward_threshold=ours.reward_threshold,
        nondeterministic=ours.nondeterministic,
        max_episode_steps=ours.max_episode_steps,
        order_enforce=ours.order_enforce,
        disable_env_checker=ours.disable_env_checker,
        kwargs=ours.kwargs,
        additional_wrappers=tuple(
            gym_registration.WrapperSpec(w.name, w.entry_point, w.kwargs)
            for w in ours.additional_wrappers
        ),
        vector_entry_point=ours.vector_entry_point,
    )
    assert ours.to_json() == theirs.to_json()
    assert EnvSpec.from_json(theirs.to_json()) == ours


def test_to_json_rejects_callables() -> None:
    env_spec = EnvSpec("Maze-v0", entry_point=_callable_entry)
    with pytest.raises(
        ValueError,
        match=message_pattern(
            CALLABLE_NOT_SERIALISABLE_MSG, spec_name="Maze-v0", key="entry_point"
        ),
    ):
        env_spec.to_json()


def test_from_json_bad_data() -> None:
    good = json.loads(_full_spec().to_json())
    bad_wrapper = dict(good, additional_wrappers=[{"name": "X"}])
    with pytest.raises(ValueError, match=message_pattern(BAD_WRAPPER_SPEC_JSON_MSG)):
        EnvSpec.from_json(json.dumps(bad_wrapper))
    bad_spec = dict(good, unknown_field=1)
    with pytest.raises(ValueError, match=message_pattern(BAD_ENV_SPEC_JSON_MSG)):
        EnvSpec.from_json(json.dumps(bad_spec))


PPRINT_OPTIONS = [
    {},
    {"include_entry_points": True},
    {"print_all": True},
    {"print_all": True, "include_entry_points": True},
]


@pytest.mark.parametrize("options", PPRINT_OPTIONS)
def test_env_spec_pprint_matches_gymnasium(options: dict[str, bool]) -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    for ours in (_full_spec(), EnvSpec("Plain-v0", entry_point=ENTRY)):
        theirs = gym_registration.EnvSpec.from_json(ours.to_json())
        assert ours.pprint(disable_print=True, **options) == theirs.pprint(
            disable_print=True, **options
        )


def test_env_spec_pprint_text(capsys: pytest.CaptureFixture[str]) -> None:
    env_spec = EnvSpec(
        "Maze-v0",
        entry_point=ENTRY,
        max_episode_steps=5,
        additional_wrappers=(WrapperSpec("W", "m:W", {"a": 1}),),
    )
    assert env_spec.pprint() is None
    printed = capsys.readouterr().out
    assert printed == (
        "id=Maze-v0\nmax_episode_steps=5\nadditional_wrappers=[\n\tname=W, kwargs={'a': 1}\n]\n"
    )
    assert EnvSpec("Maze-v0", entry_point=ENTRY).pprint(disable_print=True) == "id=Maze-v0"
    text = EnvSpec("Maze-v0", entry_point=ENTRY).pprint(disable_print=True, print_all=True)
    assert text is not None
    assert text.endswith("additional_wrappers=[]")


# --- register -------------------------------------------------------------------------------------
def test_registry_is_a_dict_of_specs() -> None:
    reg = _registry("Maze-v0", "demo/Maze-v1")
    assert isinstance(reg, dict)
    assert "Maze-v0" in reg
    assert isinstance(reg["Maze-v0"], EnvSpec)
    assert list(reg) == ["Maze-v0", "demo/Maze-v1"]
    assert list(reg.keys()) == ["Maze-v0", "demo/Maze-v1"]
    assert reg.get("Nope-v0") is None
    assert isinstance(registry, Registry)


def test_register_stores_a_spec() -> None:
    reg = Registry()
    wrapper = WrapperSpec("W", "m:W", {})
    reg.register(
        "Maze-v0",
        entry_point=ENTRY,
        reward_threshold=1.0,
        nondeterministic=True,
        max_episode_steps=7,
        order_enforce=False,
        disable_env_checker=True,
        additional_wrappers=(wrapper,),
        vector_entry_point="m:Vec",
        kwargs={"arg1": 3},
    )
    stored = reg["Maze-v0"]
    assert stored == EnvSpec(
        "Maze-v0",
        entry_point=ENTRY,
        reward_threshold=1.0,
        nondeterministic=True,
        max_episode_steps=7,
        order_enforce=False,
        disable_env_checker=True,
        kwargs={"arg1": 3},
        additional_wrappers=(wrapper,),
        vector_entry_point="m:Vec",
    )


def test_register_needs_an_entry_point() -> None:
    with pytest.raises(ValueError, match=message_pattern(NO_ENTRY_POINT_MSG)):
        Registry().register("Maze-v0")
    reg = Registry()
    reg.register("Maze-v0", vector_entry_point="m:Vec")
    assert reg["Maze-v0"].entry_point is None


def test_register_malformed_id() -> None:
    with pytest.raises(error.Error, match=message_pattern(MALFORMED_ID_MSG)):
        Registry().register("bad id", entry_point=ENTRY)


def test_register_versioned_beside_unversioned() -> None:
    reg = _registry("Maze")
    with pytest.raises(
        error.RegistrationError, match=message_pattern(VERSIONED_BESIDE_UNVERSIONED_MSG)
    ):
        reg.register("Maze-v0", entry_point=ENTRY)
    reg = _registry("Maze-v0", "Maze-v3")
    with pytest.raises(
        error.RegistrationError,
        match=message_pattern(UNVERSIONED_BESIDE_VERSIONED_MSG, env_id="Maze", other_id="Maze-v3"),
    ):
        reg.register("Maze", entry_point=ENTRY)
    # other namespaces are independent
    reg.register("demo/Maze", entry_point=ENTRY)


def test_register_override_warns() -> None:
    reg = _registry("Maze-v0")
    with pytest.warns(UserWarning, match=message_pattern(OVERRIDING_MSG, env_id="Maze-v0")):
        reg.register("Maze-v0", entry_point=ENTRY, max_episode_steps=3)
    assert reg["Maze-v0"].max_episode_steps == 3


def test_module_register_and_spec_use_the_global_registry(global_registry: Registry) -> None:
    register("RegTestMaze-v0", entry_point=ENTRY, kwargs={"arg1": 1})
    assert "RegTestMaze-v0" in global_registry
    assert spec("RegTestMaze-v0") is global_registry["RegTestMaze-v0"]
    assert registration.find_highest_version(None, "RegTestMaze") == 0


def test_global_registry_is_shared_by_envs_registration() -> None:
    from vecgym.envs import registration as envs_registration

    assert envs_registration.registry is registry
    for name in registration.__all__:
        assert getattr(envs_registration, name) is getattr(registration, name), name


# --- namespace ------------------------------------------------------------------------------------
def test_namespace_context() -> None:
    reg = Registry()
    with reg.namespace("demo"):
        assert reg.current_namespace == "demo"
        reg.register("Maze-v0", entry_point=ENTRY)
        reg.register("other/Room-v1", entry_point=ENTRY)  # the current namespace wins
        with reg.namespace("inner"):
            reg.register("Hall", entry_point=ENTRY)
        assert reg.current_namespace == "demo"
    assert reg.current_namespace is None
    assert list(reg) == ["demo/Maze-v0", "demo/Room-v1", "inner/Hall"]
    assert reg["demo/Maze-v0"].namespace == "demo"


def test_namespace_restored_after_an_error() -> None:
    reg = Registry()
    with pytest.raises(RuntimeError), reg.namespace("demo"):
        raise RuntimeError("boom")
    assert reg.current_namespace is None


def test_namespace_kwarg_override_warns() -> None:
    reg = Registry()
    with (
        reg.namespace("demo"),
        pytest.warns(UserWarning, match=message_pattern(NAMESPACE_OVERRIDDEN_MSG, custom="mine")),
    ):
        reg.register("Maze-v0", entry_point=ENTRY, kwargs={"namespace": "mine"})
    assert "demo/Maze-v0" in reg


def test_module_namespace_and_current_namespace(global_registry: Registry) -> None:
    from vecgym.envs import registration as envs_registration

    assert registration.current_namespace is None
    with registration.namespace("regtest"):
        assert registration.current_namespace == "regtest"
        assert envs_registration.current_namespace == "regtest"
        register("Maze-v0", entry_point=ENTRY)
    assert registration.current_namespace is None
    assert "regtest/Maze-v0" in global_registry
    with pytest.raises(AttributeError):
        _ = registration.not_a_name


# --- version rules --------------------------------------------------------------------------------
def test_find_spec_exact() -> None:
    reg = _registry("Maze-v0", "Maze-v1")
    assert reg.find_spec("Maze-v1") is reg["Maze-v1"]


def test_find_spec_unversioned_uses_latest() -> None:
    reg = _registry("Maze-v0", "Maze-v2")
    with pytest.warns(UserWarning, match=message_pattern(UNVERSIONED_MSG, latest_id="Maze-v2")):
        assert reg.find_spec("Maze") is reg["Maze-v2"]


def test_find_spec_old_version_warns_deprecation() -> None:
    reg = _registry("Maze-v0", "Maze-v2")
    with pytest.warns(
        DeprecationWarning, match=message_pattern(OUT_OF_DATE_MSG, env_id="Maze-v0", latest=2)
    ):
        assert reg.find_spec("Maze-v0") is reg["Maze-v0"]


def test_find_spec_unregistered_old_version_is_deprecated() -> None:
    reg = _registry("Maze-v0", "Maze-v2")
    with (
        pytest.warns(DeprecationWarning, match=message_pattern(OUT_OF_DATE_MSG)),
        pytest.raises(
            error.DeprecatedEnv,
            match=message_pattern(
                DEPRECATED_VERSION_MSG, version="1", env_id="Maze", latest_id="Maze-v2"
            ),
        ),
    ):
        reg.find_spec("Maze-v1")


def test_newer_version_not_found() -> None:
    reg = _registry("Maze-v0", "Maze-v2")
    message = message_pattern(
        VERSION_NOT_FOUND_MSG + VERSIONS_HINT_MSG,
        version=5,
        env_id="Maze",
        versions="`v0`, `v2`",
    )
    with pytest.raises(error.VersionNotFound, match=message):
        reg.find_spec("Maze-v5")
    with pytest.raises(error.VersionNotFound, match=message):
        reg.spec("Maze-v5")


def test_only_default_version() -> None:
    reg = _registry("Maze")
    with pytest.raises(
        error.DeprecatedEnv, match=message_pattern(DEFAULT_VERSION_HINT_MSG, default_id="Maze")
    ):
        reg.find_spec("Maze-v1")
    assert reg.find_spec("Maze") is reg["Maze"]


def test_name_not_found_suggests() -> None:
    reg = _registry("CartPole-v1", "MountainCar-v0")
    suggestion = NAME_SUGGESTION_MSG.format(suggestion="CartPole")
    with pytest.raises(
        error.NameNotFound,
        match=message_pattern(
            NAME_NOT_FOUND_MSG, name="Cartpole", in_namespace="", hint=suggestion
        ),
    ):
        reg.find_spec("Cartpole-v1")
    unknown = message_pattern(NAME_NOT_FOUND_MSG, name="Zebra", in_namespace="", hint="")
    with pytest.raises(error.NameNotFound, match=f"^{unknown}$"):
        reg.find_spec("Zebra-v0")


def test_namespace_not_found_suggests() -> None:
    reg = _registry("demo/Maze-v0")
    with pytest.raises(
        error.NamespaceNotFound,
        match=message_pattern(
            NAMESPACE_NOT_FOUND_MSG,
            ns="dem",
            hint=NAMESPACE_SUGGESTION_MSG.format(suggestion="demo"),
        ),
    ):
        reg.find_spec("dem/Maze-v0")
    with pytest.raises(
        error.NamespaceNotFound, match=message_pattern(NAMESPACE_INSTALL_HINT_MSG, ns="zzzzzz")
    ):
        reg.find_spec("zzzzzz/Maze-v0")
    reg.register("demo2/Other-v0", entry_point=ENTRY)
    with pytest.raises(
        error.NameNotFound,
        match=message_pattern(NAME_NOT_FOUND_MSG, name="Maze", in_namespace=" in namespace demo2"),
    ):
        reg.find_spec("demo2/Maze-v0")


def test_spec_is_exact() -> None:
    reg = _registry("Maze-v0")
    assert reg.spec("Maze-v0") is reg["Maze-v0"]
    with pytest.raises(error.Error, match=message_pattern(NOT_REGISTERED_MSG, env_id="Maze")):
        reg.spec("Maze")  # no version resolution in spec()


def test_errors_are_unregistered_env() -> None:
    assert issubclass(error.NameNotFound, error.UnregisteredEnv)
    assert issubclass(error.NamespaceNotFound, error.UnregisteredEnv)
    assert issubclass(error.VersionNotFound, error.UnregisteredEnv)


def test_find_spec_wrong_type() -> None:
    with pytest.raises(TypeError, match=message_pattern(ID_TYPE_MSG, type=int)):
        Registry().find_spec(3)  # type: ignore[arg-type]


def test_find_highest_version() -> None:
    reg = _registry("Maze-v0", "Maze-v10", "Maze-v2", "demo/Maze-v20", "Room")
    assert reg.find_highest_version(None, "Maze") == 10
    assert reg.find_highest_version("demo", "Maze") == 20
    assert reg.find_highest_version(None, "Room") is None
    assert reg.find_highest_version(None, "Nope") is None


LOOKUPS = [
    "Maze-v2",
    "Maze-v0",
    "Maze-v1",
    "Maze-v9",
    "Maze",
    "Maz-v2",
    "Zebra-v0",
    "demo/Room-v0",
    "dem/Room-v0",
    "qqqq/Room-v0",
    "demo/Rom-v0",
    "Plain",
    "Plain-v3",
]


#: vecgym's message for each lookup of LOOKUPS that raises (``"Maze"``: from ``spec()`` only).
LOOKUP_MESSAGES = {
    "Maze-v1": message_pattern(
        DEPRECATED_VERSION_MSG, version=1, env_id="Maze", latest_id="Maze-v2"
    ),
    "Maze-v9": message_pattern(
        VERSION_NOT_FOUND_MSG + VERSIONS_HINT_MSG,
        version=9,
        env_id="Maze",
        versions="`v0`, `v2`",
    ),
    "Maze": message_pattern(NOT_REGISTERED_MSG, env_id="Maze"),
    "Maz-v2": message_pattern(
        NAME_NOT_FOUND_MSG,
        name="Maz",
        in_namespace="",
        hint=NAME_SUGGESTION_MSG.format(suggestion="Maze"),
    ),
    "Zebra-v0": message_pattern(NAME_NOT_FOUND_MSG, name="Zebra", in_namespace="", hint=""),
    "dem/Room-v0": message_pattern(
        NAMESPACE_NOT_FOUND_MSG, ns="dem", hint=NAMESPACE_SUGGESTION_MSG.format(suggestion="demo")
    ),
    "qqqq/Room-v0": message_pattern(
        NAMESPACE_NOT_FOUND_MSG, ns="qqqq", hint=NAMESPACE_INSTALL_HINT_MSG.format(ns="qqqq")
    ),
    "demo/Rom-v0": message_pattern(
        NAME_NOT_FOUND_MSG,
        name="Rom",
        in_namespace=" in namespace demo",
        hint=NAME_SUGGESTION_MSG.format(suggestion="Room"),
    ),
    "Plain-v3": message_pattern(
        VERSION_NOT_FOUND_MSG + DEFAULT_VERSION_HINT_MSG,
        version=3,
        env_id="Plain",
        default_id="Plain",
    ),
}


@pytest.mark.parametrize("env_id", LOOKUPS)
def test_lookup_errors_match_gymnasium(env_id: str) -> None:
    """The same registry content gives the same exception type (and warning categories) as
    Gymnasium; the message is vecgym's own (:data:`LOOKUP_MESSAGES`)."""
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    ids = ["Maze-v0", "Maze-v2", "demo/Room-v0", "Plain"]
    ours = _registry(*ids)
    saved = dict(gym_registration.registry)
    gym_registration.registry.clear()
    try:
        for i in ids:
            gym_registration.register(i, entry_point=ENTRY)

        def outcome(func: Callable[[str], Any]) -> tuple[str, str, list[str]]:
            """(exception type name or "ok", message or id, warning categories)."""
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    result = ("ok", func(env_id).id)
                except Exception as exc:
                    result = (type(exc).__name__, str(exc))
            return (*result, [w.category.__name__ for w in caught])

        for ours_lookup, theirs_lookup in (
            (ours.find_spec, gym_registration._find_spec),
            (ours.spec, gym_registration.spec),
        ):
            kind, text, categories = outcome(ours_lookup)
            their_kind, their_text, their_categories = outcome(theirs_lookup)
            assert (kind, categories) == (their_kind, their_categories)
            if kind == "ok":
                assert text == their_text
            else:
                assert re.fullmatch(LOOKUP_MESSAGES[env_id], text), text
    finally:
        gym_registration.registry.clear()
        gym_registration.registry.update(saved)


# --- "module:Env-v0" ids and entry points ---------------------------------------------------------
def test_module_prefix_imports_the_module(global_registry: Registry) -> None:
    sys.modules.pop("tests.support.registry_plugin", None)
    env_spec = global_registry.find_spec("tests.support.registry_plugin:RegistryPlugin-v0")
    assert env_spec.id == "RegistryPlugin-v0"
    assert env_spec.kwargs == {"arg1": "plugin"}
    sys.modules.pop("tests.support.registry_plugin", None)


def test_module_prefix_missing_module() -> None:
    with pytest.raises(ModuleNotFoundError, match=message_pattern(MODULE_IMPORT_FAILED_MSG)):
        Registry().find_spec("no_such_module_xyz:Env-v0")


def test_registered_id_with_colon_is_found_directly() -> None:
    reg = _registry("ns:x/Env-v0")
    assert reg.find_spec("ns:x/Env-v0") is reg["ns:x/Env-v0"]


def test_load_env_creator() -> None:
    from tests.support.registry_envs import ArgEnv

    assert load_env_creator(ENTRY) is ArgEnv
    assert load_env_creator(ArgEnv) is ArgEnv
    assert load_env_creator("tests.support.registry_envs:ArgEnv.reset") is ArgEnv.reset
    with pytest.raises(ValueError, match=message_pattern(BAD_ENTRY_POINT_MSG)):
        load_env_creator("tests.support.registry_envs.ArgEnv")
    with pytest.raises(ValueError, match=message_pattern(BAD_ENTRY_POINT_MSG)):
        load_env_creator("a:b:c")
    with pytest.raises(ValueError, match=message_pattern(BAD_ENTRY_POINT_MSG)):
        load_env_creator(":ArgEnv")
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        load_env_creator("tests.support.registry_envs:Nope")
    with pytest.raises(ModuleNotFoundError):
        load_env_creator("no_such_module_xyz:Env")


def test_register_envs_is_a_no_op() -> None:
    module = types.ModuleType("plugin")
    before = dict(registry)
    assert register_envs(module) is None
    assert dict(registry) == before


# --- pprint_registry ------------------------------------------------------------------------------
def _display_registry() -> Registry:
    reg = Registry()
    for env_id, entry in [
        ("CartPole-v1", "vecgym.envs.classic_control.cartpole:CartPoleEnv"),
        ("Acrobot-v1", "vecgym.envs.classic_control.acrobot:AcrobotEnv"),
        ("Pendulum-v1", "vecgym.envs.classic_control.pendulum:PendulumEnv"),
        ("MountainCar-v0", "vecgym.envs.classic_control.mountain_car:MountainCarEnv"),
        ("Taxi-v3", "vecgym.envs.toy_text.taxi:TaxiEnv"),
        ("Shim-v0", "shimmy.atari_env:AtariEnv"),
        ("Lone-v0", "lone:LoneEnv"),
        ("ALE/Pong-v5", "ale_py.env:AtariEnv"),
        ("ALE/Breakout-v5", "ale_py.env:AtariEnv"),
    ]:
        reg.register(env_id, entry_point=entry)
    reg.register("Func-v0", entry_point=_callable_entry)
    return reg


def test_pprint_registry_text() -> None:
    text = pprint_registry(_display_registry(), disable_print=True)
    assert text == (
        "===== classic_control =====\n"
        "Acrobot-v1  CartPole-v1 MountainCar-v0\n"
        "Pendulum-v1\n"
        "===== toy_text =====\n"
        "Taxi-v3\n"
        "===== atari_env =====\n"
        "Shim-v0\n"
        "===== Lone =====\n"
        "Lone-v0\n"
        "===== ALE =====\n"
        "ALE/Breakout-v5 ALE/Pong-v5\n"
        "===== Func =====\n"
        "Func-v0"
    )


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"num_cols": 1},
        {"num_cols": 2},
        {"num_cols": 4},
        {"exclude_namespaces": ["ALE", "toy_text"]},
    ],
)
def test_pprint_registry_matches_gymnasium(options: dict[str, Any]) -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    ours = _display_registry()
    del ours["Func-v0"]  # Gymnasium heads a callable entry point's group "None" (see CHANGELOG)
    theirs = {}
    for env_id, env_spec in ours.items():
        entry = env_spec.entry_point
        theirs[env_id] = gym_registration.EnvSpec(env_id, entry_point=entry)
    assert pprint_registry(ours, disable_print=True, **options) == gym_registration.pprint_registry(
        theirs, disable_print=True, **options
    )


def test_pprint_registry_prints(capsys: pytest.CaptureFixture[str]) -> None:
    reg = _registry("Maze-v0")
    assert reg.pprint() is None
    assert capsys.readouterr().out == "===== registry_envs =====\nMaze-v0\n"
    assert reg.pprint(disable_print=True) == "===== registry_envs =====\nMaze-v0"


def test_pprint_registry_defaults_to_the_global_registry(global_registry: Registry) -> None:
    register("RegTestPrint-v0", entry_point=ENTRY)
    text = pprint_registry(disable_print=True)
    assert text is not None
    assert "RegTestPrint-v0" in text
