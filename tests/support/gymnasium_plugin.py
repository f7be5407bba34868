"""A third-party module whose import registers an env in *Gymnasium's* registry.

Used to test ``vecgym.make("tests.support.gymnasium_plugin:GymPlugin/Clipped-v0")``: the module is
imported first, registers with ``gymnasium.register`` (as a third-party package does), and vecgym
finds the id through Gymnasium's registry. The spec carries a Gymnasium wrapper in its
``additional_wrappers``, which vecgym replaces by its own wrapper of the same name.
"""

from __future__ import annotations

import gymnasium
from gymnasium.envs.registration import WrapperSpec

PLUGIN_ENV_ID = "GymPlugin/Clipped-v0"
CLIP_KWARGS = {"min_reward": -0.25, "max_reward": 0.25}

gymnasium.register(
    PLUGIN_ENV_ID,
    entry_point="gymnasium.envs.classic_control.pendulum:PendulumEnv",
    max_episode_steps=30,
    kwargs={"g": 9.0},
    additional_wrappers=(
        WrapperSpec("ClipReward", "gymnasium.wrappers.transform_reward:ClipReward", CLIP_KWARGS),
    ),
)
