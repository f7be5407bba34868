"""Wrappers for vector environments, under Gymnasium's names (``gymnasium.wrappers.vector``).

``__all__`` lists exactly Gymnasium 1.4's names. vecgym adds, importable from here too, the vector
versions Gymnasium lacks: :class:`FrameStackObservation`, :class:`TimeAwareObservation` and
:class:`DelayObservation`.

Every stateful wrapper (:class:`RecordEpisodeStatistics`, :class:`NormalizeObservation`,
:class:`NormalizeReward` and the three above) follows the wrapped env's
``metadata["autoreset_mode"]`` and partial resets (``reset(options={"reset_mask": mask})``): the
state of an env is restarted only when that env starts a new episode.

The array conversions (:class:`ArrayConversion`, :class:`JaxToNumpy`, :class:`JaxToTorch`,
:class:`NumpyToTorch`) need jax / torch and are imported only when first accessed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from vecgym.wrappers.vector.common import RecordEpisodeStatistics
from vecgym.wrappers.vector.dict_info_to_list import DictInfoToList
from vecgym.wrappers.vector.rendering import HumanRendering, RecordVideo
from vecgym.wrappers.vector.stateful_observation import (
    DelayObservation as DelayObservation,
)
from vecgym.wrappers.vector.stateful_observation import (
    FrameStackObservation as FrameStackObservation,
)
from vecgym.wrappers.vector.stateful_observation import (
    NormalizeObservation,
)
from vecgym.wrappers.vector.stateful_observation import (
    TimeAwareObservation as TimeAwareObservation,
)
from vecgym.wrappers.vector.stateful_reward import NormalizeReward
from vecgym.wrappers.vector.vectorize_action import (
    ClipAction,
    RescaleAction,
    TransformAction,
    VectorizeTransformAction,
)
from vecgym.wrappers.vector.vectorize_observation import (
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleObservation,
    ReshapeObservation,
    ResizeObservation,
    TransformObservation,
    VectorizeTransformObservation,
)
from vecgym.wrappers.vector.vectorize_reward import (
    ClipReward,
    TransformReward,
    VectorizeTransformReward,
)

if TYPE_CHECKING:
    from vecgym.wrappers.vector.array_conversion import ArrayConversion
    from vecgym.wrappers.vector.jax_to_numpy import JaxToNumpy
    from vecgym.wrappers.vector.jax_to_torch import JaxToTorch
    from vecgym.wrappers.vector.numpy_to_torch import NumpyToTorch

__all__ = [
    "ArrayConversion",
    "ClipAction",
    "ClipReward",
    "DictInfoToList",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "JaxToNumpy",
    "JaxToTorch",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToTorch",
    "RecordEpisodeStatistics",
    "RecordVideo",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "VectorizeTransformAction",
    "VectorizeTransformObservation",
    "VectorizeTransformReward",
]

#: The wrappers imported on first access (they need jax or torch), and their modules.
_LAZY_WRAPPERS = {
    "ArrayConversion": "array_conversion",
    "JaxToNumpy": "jax_to_numpy",
    "JaxToTorch": "jax_to_torch",
    "NumpyToTorch": "numpy_to_torch",
}

NO_ATTRIBUTE_MSG = "module {module!r} has no attribute {name!r}"


def __getattr__(name: str) -> Any:
    """Import the conversion wrappers on first access (their modules need jax or torch).

    Raises:
        AttributeError: ``name`` is not a wrapper of this module.
    """
    module_name = _LAZY_WRAPPERS.get(name)
    if module_name is None:
        raise AttributeError(NO_ATTRIBUTE_MSG.format(module=__name__, name=name))
    module = importlib.import_module(f"{__name__}.{module_name}")
    return getattr(module, name)


def __dir__() -> list[str]:
    """The module's names, the lazily imported wrappers included."""
    return sorted(set(globals()) | set(_LAZY_WRAPPERS))
