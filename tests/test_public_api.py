"""Every name that Gymnasium code imports (the ``SURFACE`` table below) exists under ``vecgym``.

Every public name must resolve, and must be the very object defined in its home module (one home
per symbol; public paths are re-exports), and that home must be vecgym's own code.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

SURFACE: dict[str, list[str]] = {
    "vecgym": [
        "make",
        "Env",
        "make_vec",
        "register",
        "registry",
        "spec",
        "VectorizeMode",
        "Space",
        "ObservationWrapper",
        "Wrapper",
        "ActionWrapper",
        "RewardWrapper",
        "pprint_registry",
        "register_envs",
        "__version__",
    ],
    "vecgym.core": [
        "Env",
        "Wrapper",
        "ObservationWrapper",
        "ActionWrapper",
        "RewardWrapper",
        "ObsType",
        "ActType",
        "WrapperObsType",
        "WrapperActType",
        "RenderFrame",
    ],
    "vecgym.envs": ["registry", "spec", "make", "make_vec", "register", "pprint_registry"],
    "vecgym.envs.registration": [
        "EnvSpec",
        "WrapperSpec",
        "namespace",
        "registry",
        "register",
        "spec",
        "make",
        "make_vec",
        "pprint_registry",
        "register_envs",
        "VectorizeMode",
    ],
    "vecgym.error": [
        "Error",
        "InvalidBound",
        "DependencyNotInstalled",
        "CustomSpaceError",
        "DeprecatedEnv",
        "UnregisteredEnv",
        "AlreadyPendingCallError",
        "ClosedEnvironmentError",
        "InvalidProbability",
        "MissingArgument",
        "NameNotFound",
        "NoAsyncCallError",
        "RegistrationError",
        "VersionNotFound",
        "NamespaceNotFound",
        "ResetNeeded",
        "InvalidAction",
        "UnsupportedMode",
        "InvalidMetadata",
        "DeprecatedWrapper",
    ],
    "vecgym.experimental.functional": ["FuncEnv"],
    "vecgym.logger": ["warn", "deprecation", "error"],
    "vecgym.spaces": [
        "Box",
        "Discrete",
        "Dict",
        "Tuple",
        "MultiDiscrete",
        "MultiBinary",
        "Space",
        "Graph",
        "Sequence",
        "Text",
        "OneOf",
        "GraphInstance",
        "flatten",
        "flatten_space",
        "unflatten",
        "flatdim",
    ],
    "vecgym.spaces.utils": [
        "flatdim",
        "flatten",
        "flatten_space",
        "unflatten",
        "is_space_dtype_shape_equiv",
    ],
    "vecgym.utils": ["RecordConstructorArgs", "EzPickle"],
    "vecgym.utils.env_checker": [
        "data_equivalence",
        "check_env",
        "check_reset_options",
        "check_reset_return_info_deprecation",
        "check_reset_return_type",
        "check_reset_seed_determinism",
        "check_seed_deprecation",
        "check_step_determinism",
    ],
    "vecgym.utils.passive_env_checker": [
        "check_action_space",
        "check_obs",
        "check_observation_space",
        "env_render_passive_checker",
        "env_reset_passive_checker",
        "env_step_passive_checker",
    ],
    "vecgym.utils.performance": [
        "benchmark_init",
        "benchmark_render",
        "benchmark_step",
        "benchmark_vector_step",
        "time",
    ],
    "vecgym.utils.seeding": ["np_random", "RandomNumberGenerator"],
    "vecgym.utils.step_api_compatibility": [
        "convert_to_done_step_api",
        "convert_to_terminated_truncated_step_api",
    ],
    "vecgym.utils.save_video": ["save_video", "capped_cubic_video_schedule"],
    "vecgym.utils.play": [
        "MissingKeysToAction",
        "PlayableGame",
        "PlayPlot",
        "display_arr",
        "play",
    ],
    "vecgym.utils.env_match": ["check_environments_match"],
    "vecgym.wrappers": [
        "NormalizeReward",
        "TimeAwareObservation",
        "TimeLimit",
        "Autoreset",
        "FlattenObservation",
        "RecordEpisodeStatistics",
        "TransformObservation",
        "ClipReward",
        "DiscretizeAction",
        "GrayscaleObservation",
        "NormalizeObservation",
        "OrderEnforcing",
        "PassiveEnvChecker",
        "RenderCollection",
        "TransformAction",
        "__all__",
        "AddRenderObservation",
        "ClipAction",
        "DelayObservation",
        "DiscretizeObservation",
        "DtypeObservation",
        "FilterObservation",
        "FrameStackObservation",
        "HumanRendering",
        "JaxToNumpy",
        "MaxAndSkipObservation",
        "RecordVideo",
        "RescaleAction",
        "RescaleObservation",
        "ReshapeObservation",
        "StickyAction",
        "TransformReward",
        "LegacyGymCompatibility",
    ],
    "vecgym.wrappers.legacy": ["LegacyGymCompatibility", "register_legacy_env"],
    "vecgym.wrappers.stateful_action": ["RepeatAction"],
    "vecgym.wrappers.utils": ["create_zero_array"],
    "vecgym.wrappers.vector": [
        "DictInfoToList",
        "NormalizeObservation",
        "NormalizeReward",
        "RecordEpisodeStatistics",
        "RecordVideo",
        "TransformAction",
        "TransformObservation",
        "VectorizeTransformAction",
    ],
    "vecgym.vector": [
        "SyncVectorEnv",
        "AsyncVectorEnv",
        "AutoresetMode",
        "VectorEnv",
        "VectorWrapper",
    ],
    "vecgym.vector.utils": [
        "batch_space",
        "iterate",
        "batch_differing_spaces",
        "create_shared_memory",
        "read_from_shared_memory",
        "write_to_shared_memory",
        "concatenate",
        "create_empty_array",
        "CloudpickleWrapper",
        "clear_mpi_env_vars",
    ],
    "vecgym.vector.vector_env": ["AutoresetMode"],
    "vecgym.envs.classic_control": ["CartPoleEnv"],
    "vecgym.envs.classic_control.cartpole": ["CartPoleEnv", "CartPoleVectorEnv"],
    "vecgym.envs.classic_control.pendulum": ["PendulumEnv"],
    "vecgym.envs.toy_text.taxi": ["TaxiEnv"],
}


# Names that are, by design, aliases of a third-party object (as in Gymnasium).
THIRD_PARTY_ALIASES = {("vecgym.utils.seeding", "RandomNumberGenerator"): "numpy.random"}


def _cases() -> list[tuple[str, str]]:
    return [(module, name) for module, names in SURFACE.items() for name in names]


def _home_of(obj: Any) -> tuple[str, str] | None:
    """(module, qualname) where a class or function is defined, else None."""
    if inspect.isclass(obj) or inspect.isfunction(obj):
        return obj.__module__, obj.__qualname__
    return None


@pytest.mark.parametrize(("module", "name"), _cases())
def test_public_name_resolves_to_its_home(module: str, name: str) -> None:
    mod = importlib.import_module(module)
    assert hasattr(mod, name), f"{module}.{name} is missing"
    obj = getattr(mod, name)
    home = _home_of(obj)
    if home is None:
        return
    home_module, qualname = home
    if (module, name) in THIRD_PARTY_ALIASES:
        assert home_module.startswith(THIRD_PARTY_ALIASES[module, name])
        return
    assert home_module.startswith("vecgym"), f"{module}.{name} comes from {home_module}"
    owner: Any = importlib.import_module(home_module)
    for part in qualname.split("."):
        owner = getattr(owner, part)
    assert owner is obj, f"{module}.{name} is not the object defined in {home_module}"


def test_top_level_registry_is_the_core_registry() -> None:
    import vecgym
    from vecgym.core import registration

    assert vecgym.registry is registration.registry
    assert vecgym.envs.registration.registry is registration.registry


def test_top_level_dir_lists_lazy_names() -> None:
    import vecgym

    assert {"make", "vector", "wrappers", "envs"} <= set(dir(vecgym))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = vecgym.nope
