"""vecgym: Gymnasium's environment API with a fast shared-memory vector runtime.

``import vecgym as gym`` gives the names ``import gymnasium as gym`` gives. The core layer (``Env``,
the wrapper base classes, ``Space``, ``vecgym.spaces``) is imported at once; the upper layers
(``vecgym.vector``, ``vecgym.wrappers``, ``vecgym.envs`` and with it ``make`` and the registry of
built-in environments) are imported on first use, so ``import vecgym.core`` stays light and never
loads them.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from vecgym import error, logger, spaces
from vecgym.core.env import ActionWrapper, Env, ObservationWrapper, RewardWrapper, Wrapper
from vecgym.core.spaces.space import Space

if TYPE_CHECKING:  # pragma: no cover - names resolved lazily below
    from vecgym import envs, experimental, utils, vector, wrappers
    from vecgym.envs.registration import (
        VectorizeMode,
        make,
        make_vec,
        pprint_registry,
        register,
        register_envs,
        registry,
        spec,
    )

__version__ = "0.1.0"

# As ``import gymnasium`` does: pygame (the ``human`` extra's display, Gymnasium's Box2D envs)
# prints a banner on import unless this is set; a value the user set is kept.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "hide")

# Names served by ``vecgym.envs.registration``: importing it also registers the built-in envs.
_REGISTRATION_NAMES = frozenset(
    {
        "make",
        "make_vec",
        "spec",
        "register",
        "registry",
        "pprint_registry",
        "VectorizeMode",
        "register_envs",
    }
)
_LAZY_SUBMODULES = frozenset({"envs", "experimental", "utils", "vector", "wrappers"})

__all__ = [
    "ActionWrapper",
    "Env",
    "ObservationWrapper",
    "RewardWrapper",
    "Space",
    "VectorizeMode",
    "Wrapper",
    "__version__",
    "envs",
    "error",
    "experimental",
    "logger",
    "make",
    "make_vec",
    "pprint_registry",
    "register",
    "register_envs",
    "registry",
    "spaces",
    "spec",
    "utils",
    "vector",
    "wrappers",
]


def __getattr__(name: str) -> Any:
    if name in _REGISTRATION_NAMES:
        value = getattr(importlib.import_module("vecgym.envs.registration"), name)
    elif name in _LAZY_SUBMODULES:
        value = importlib.import_module(f"vecgym.{name}")
    else:
        raise AttributeError(f"module 'vecgym' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
