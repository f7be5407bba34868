"""Vector environments: many copies of an environment stepped together, with batched results.

:class:`SyncVectorEnv` steps its envs one after another in this process; :class:`AsyncVectorEnv`
runs them in worker processes and exchanges observations through shared memory. Both autoreset
ended episodes through the one state machine in :mod:`vecgym.vector.autoreset`.
"""

from __future__ import annotations

from vecgym.vector import utils
from vecgym.vector.async_vector_env import AsyncVectorEnv
from vecgym.vector.ray_vector_env import RayVectorEnv
from vecgym.vector.sync_vector_env import SyncVectorEnv
from vecgym.vector.vector_env import (
    AutoresetMode,
    VectorActionWrapper,
    VectorEnv,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)

__all__ = [
    "AsyncVectorEnv",
    "AutoresetMode",
    "RayVectorEnv",
    "SyncVectorEnv",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
    "utils",
]
