"""The built-in environments and the functions that build registered environments.

Importing this package registers vecgym's built-in environments (classic control and toy text)
under Gymnasium 1.4's ids, in :data:`vecgym.envs.registration.registry`, and makes every other id
resolve through Gymnasium's registry (:mod:`vecgym.envs.gymnasium_registry`).
"""

from __future__ import annotations

from vecgym.envs.registration import (
    make,
    make_vec,
    pprint_registry,
    register,
    register_envs,
    registry,
    spec,
)

__all__ = ["make", "make_vec", "pprint_registry", "register", "register_envs", "registry", "spec"]

# Registering the built-in environments is the import's side effect.
from vecgym.envs import _register_classic_control, _register_toy_text  # noqa: F401
from vecgym.envs import gymnasium_registry as _gymnasium_registry

# Ids vecgym does not register resolve through Gymnasium's registry (when it is installed).
_gymnasium_registry.install(registry)
