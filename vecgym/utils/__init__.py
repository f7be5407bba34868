"""Utilities with Gymnasium's public paths (``vecgym.utils.seeding``, ``.env_checker``, ...).

Like ``gymnasium.utils``, the package exports :func:`colorize`, :class:`EzPickle` and
:class:`RecordConstructorArgs`. The light :mod:`vecgym.utils.seeding` is imported with it (after
``import gymnasium``, ``gymnasium.utils.seeding`` is reachable too); the heavier submodules (the env
checkers, the performance helpers, the step-API converters, :mod:`~vecgym.utils.play` and
:mod:`~vecgym.utils.env_match`) are imported on first attribute access, so
``vecgym.utils.env_checker`` works without importing it first.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from vecgym.utils import seeding as seeding
from vecgym.utils.colorize import colorize as colorize
from vecgym.utils.ezpickle import EzPickle as EzPickle
from vecgym.utils.record_constructor import RecordConstructorArgs as RecordConstructorArgs

__all__ = ["EzPickle", "RecordConstructorArgs", "colorize"]

_LAZY_SUBMODULES = frozenset(
    {
        "env_checker",
        "env_match",
        "passive_env_checker",
        "performance",
        "play",
        "save_video",
        "step_api_compatibility",
    }
)


def __getattr__(name: str) -> ModuleType:
    if name not in _LAZY_SUBMODULES:
        raise AttributeError(f"module 'vecgym.utils' has no attribute {name!r}")
    module = importlib.import_module(f"vecgym.utils.{name}")
    globals()[name] = module
    return module
