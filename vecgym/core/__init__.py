"""The core layer: the environment API (:mod:`vecgym.core.env`), spaces, seeding and registry data.

``vecgym.core`` also stands in for ``gymnasium.core``: it exports :class:`Env`, the wrapper base
classes and the type variables under the same names. Importing it never loads the upper layers
(``vecgym.vector``, ``vecgym.wrappers``, ``vecgym.envs``).
"""

from __future__ import annotations

from vecgym.core.env import (
    ActionWrapper,
    ActType,
    Env,
    ObservationWrapper,
    ObsType,
    RenderFrame,
    RewardWrapper,
    Wrapper,
    WrapperActType,
    WrapperObsType,
)

__all__ = [
    "ActType",
    "ActionWrapper",
    "Env",
    "ObsType",
    "ObservationWrapper",
    "RenderFrame",
    "RewardWrapper",
    "Wrapper",
    "WrapperActType",
    "WrapperObsType",
]
