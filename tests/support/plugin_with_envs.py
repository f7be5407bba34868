"""A module whose import registers an env of its own, in Gymnasium's registry and in vecgym's,
as a third-party package does (``ale_py`` registers its ids when it is imported).

``REGISTERED`` holds the spec objects this import put in each registry: a process that imported
the module finds these very objects there, not copies.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

import vecgym

GYM_ID = "PluginOwn-v0"
VECGYM_ID = "PluginOwnVec-v0"


class PluginEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Counts its steps; never ends on its own (the registered time limits end it)."""

    observation_space = gymnasium.spaces.Box(0, 1000, (1,), np.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self.count = 0
        return np.zeros(1, np.float32), {}

    def step(self, action: Any) -> Any:
        self.count += 1
        return np.full(1, self.count, np.float32), 1.0, False, False, {}


gymnasium.register(GYM_ID, entry_point=f"{__name__}:PluginEnv", max_episode_steps=3)
vecgym.register(VECGYM_ID, entry_point=f"{__name__}:PluginEnv", max_episode_steps=4)
REGISTERED = (
    gymnasium.envs.registration.registry[GYM_ID],
    vecgym.envs.registration.registry[VECGYM_ID],
)
