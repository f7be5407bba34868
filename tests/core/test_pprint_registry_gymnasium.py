"""pprint_registry beside Gymnasium 1.4's, for every kind of entry point."""

from __future__ import annotations

from typing import Any

import pytest

import vecgym
from vecgym.envs.classic_control import CartPoleEnv

gymnasium = pytest.importorskip("gymnasium")

STRING_ENTRY_POINTS = {
    "OneModule-v0": "mymodule:MyEnv",
    "TwoParts-v0": "pkg.module:MyEnv",
    "Deep-v0": "pkg.envs.family.module:MyEnv",
    "Deeper-v1": "pkg.envs.family:MyEnv",
    "ns/Named-v0": "pkg.envs.family.module:MyEnv",
}


def _registry(lib: Any, extra: dict[str, dict[str, Any]]) -> dict[str, Any]:
    specs = [
        lib.envs.registration.EnvSpec(env_id, entry_point=entry_point)
        for env_id, entry_point in STRING_ENTRY_POINTS.items()
    ]
    specs += [lib.envs.registration.EnvSpec(env_id, **kwargs) for env_id, kwargs in extra.items()]
    return {spec.id: spec for spec in specs}


@pytest.mark.parametrize("num_cols", [1, 2, 3])
def test_string_entry_points_print_as_in_gymnasium(num_cols: int) -> None:
    ours = vecgym.pprint_registry(_registry(vecgym, {}), num_cols=num_cols, disable_print=True)
    theirs = gymnasium.pprint_registry(
        _registry(gymnasium, {}), num_cols=num_cols, disable_print=True
    )
    assert ours == theirs
    excluded = {"exclude_namespaces": ["family", "ns"], "disable_print": True}
    assert vecgym.pprint_registry(_registry(vecgym, {}), **excluded) == gymnasium.pprint_registry(
        _registry(gymnasium, {}), **excluded
    )


def test_default_namespace_without_string_entry_point_is_listed_under_its_name() -> None:
    # differs from Gymnasium 1.4 on purpose: it lists the ids of the default namespace whose
    # entry point is a callable (or missing) under a heading "===== None ====="
    extra = {
        "Callable-v0": {"entry_point": CartPoleEnv},
        "VectorOnly-v0": {"vector_entry_point": "pkg.module:MyVectorEnv"},
    }
    theirs = gymnasium.pprint_registry(_registry(gymnasium, extra), disable_print=True)
    assert "===== None =====" in theirs
    ours = vecgym.pprint_registry(_registry(vecgym, extra), disable_print=True)
    assert ours is not None
    assert "None" not in ours
    assert "===== Callable =====\nCallable-v0" in ours
    assert "===== VectorOnly =====\nVectorOnly-v0" in ours
