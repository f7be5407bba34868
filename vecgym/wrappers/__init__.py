"""Wrappers that change part of an environment's behaviour, under Gymnasium's names.

A wrapper takes an environment and is itself an environment, so wrappers stack::

    >>> import vecgym
    >>> from vecgym.wrappers import ClipReward, RecordEpisodeStatistics
    >>> env = RecordEpisodeStatistics(ClipReward(vecgym.make("CartPole-v1"), 0.0, 0.5))
    >>> env
    <RecordEpisodeStatistics<ClipReward<TimeLimit<OrderEnforcing<PassiveEnvChecker<CartPoleEnv<CartPole-v1>>>>>>>

``__all__`` lists the same names as Gymnasium 1.4's ``gymnasium.wrappers``. The array
conversion wrappers (``ArrayConversion``, ``JaxToNumpy``, ``JaxToTorch``, ``NumpyToTorch``) and
the :mod:`vecgym.wrappers.vector` subpackage are loaded on first access, so importing this
package never imports jax or torch. Old wrapper names (``AutoResetWrapper``, ``FrameStack``, ...)
raise :class:`vecgym.error.RenamedWrapper` (an ``AttributeError``, as in Gymnasium) naming their
replacement.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from vecgym.core.env_checker import install_wrapper_lookup
from vecgym.wrappers import _deprecated
from vecgym.wrappers.atari_preprocessing import AtariPreprocessing
from vecgym.wrappers.common import (
    Autoreset,
    OrderEnforcing,
    PassiveEnvChecker,
    RecordEpisodeStatistics,
    TimeLimit,
)
from vecgym.wrappers.legacy import LegacyGymCompatibility as LegacyGymCompatibility
from vecgym.wrappers.rendering import (
    AddWhiteNoise,
    HumanRendering,
    ObstructView,
    RecordVideo,
    RenderCollection,
)
from vecgym.wrappers.stateful_action import RepeatAction, StickyAction
from vecgym.wrappers.stateful_observation import (
    DelayObservation,
    FrameStackObservation,
    MaxAndSkipObservation,
    NormalizeObservation,
    TimeAwareObservation,
)
from vecgym.wrappers.stateful_reward import NormalizeReward
from vecgym.wrappers.transform_action import (
    ClipAction,
    DiscretizeAction,
    RescaleAction,
    TransformAction,
)
from vecgym.wrappers.transform_observation import (
    AddRenderObservation,
    DiscretizeObservation,
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleObservation,
    ReshapeObservation,
    ResizeObservation,
    TransformObservation,
)
from vecgym.wrappers.transform_reward import ClipReward, TransformReward

# The names of Gymnasium 1.4's ``gymnasium.wrappers.__all__``.
__all__ = [
    "AddRenderObservation",
    "AddWhiteNoise",
    "ArrayConversion",
    "AtariPreprocessing",
    "Autoreset",
    "ClipAction",
    "ClipReward",
    "DelayObservation",
    "DiscretizeAction",
    "DiscretizeObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "FrameStackObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "JaxToNumpy",
    "JaxToTorch",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToTorch",
    "ObstructView",
    "OrderEnforcing",
    "PassiveEnvChecker",
    "RecordEpisodeStatistics",
    "RecordVideo",
    "RenderCollection",
    "RepeatAction",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "StickyAction",
    "TimeAwareObservation",
    "TimeLimit",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "vector",
]

# Names whose modules are imported on first access: the module of each, relative to this package.
_LAZY_MODULES: dict[str, str] = {
    "ArrayConversion": "array_conversion",
    "JaxToNumpy": "jax_to_numpy",
    "JaxToTorch": "jax_to_torch",
    "NumpyToTorch": "numpy_to_torch",
}
_SUBPACKAGES = frozenset({"vector"})

NO_ATTRIBUTE_MSG = "module {module!r} has no attribute {name!r}"


def _wrapper_named(name: str) -> Any:
    """The wrapper called ``name`` (loading a lazy one): the lookup the env checker uses."""
    return getattr(sys.modules[__name__], name)


# Hand the env checker (core layer) its way to the to-numpy wrappers.
install_wrapper_lookup(_wrapper_named)


def __getattr__(name: str) -> Any:
    """Load a lazily imported wrapper or subpackage, or explain an old wrapper name.

    Raises:
        RenamedWrapper: ``name`` is an old wrapper name; the message names its replacement (an
            ``AttributeError``, so ``hasattr`` is ``False`` as with Gymnasium).
        AttributeError: ``name`` is not a wrapper of this package.
    """
    if name in _LAZY_MODULES:
        module = importlib.import_module(f"{__name__}.{_LAZY_MODULES[name]}")
        return getattr(module, name)
    if name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")
    old_name_error = _deprecated.deprecated_wrapper_error(name)
    if old_name_error is not None:
        raise old_name_error
    raise AttributeError(NO_ATTRIBUTE_MSG.format(module=__name__, name=name))


def __dir__() -> list[str]:
    """The package's attributes, including the names loaded on first access."""
    return sorted(set(globals()) | set(__all__))
