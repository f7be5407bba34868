"""Registers the classic-control environments under Gymnasium 1.4's ids.

Imported once by :mod:`vecgym.envs`; entry points name vecgym's own modules.
"""

from __future__ import annotations

from vecgym.core.registration import register

_PACKAGE = "vecgym.envs.classic_control"

register(
    id="CartPole-v0",
    entry_point=f"{_PACKAGE}.cartpole:CartPoleEnv",
    vector_entry_point=f"{_PACKAGE}.cartpole:CartPoleVectorEnv",
    max_episode_steps=200,
    reward_threshold=195.0,
)
register(
    id="CartPole-v1",
    entry_point=f"{_PACKAGE}.cartpole:CartPoleEnv",
    vector_entry_point=f"{_PACKAGE}.cartpole:CartPoleVectorEnv",
    max_episode_steps=500,
    reward_threshold=475.0,
)
register(
    id="MountainCar-v0",
    entry_point=f"{_PACKAGE}.mountain_car:MountainCarEnv",
    vector_entry_point=f"{_PACKAGE}.mountain_car:MountainCarVectorEnv",
    max_episode_steps=200,
    reward_threshold=-110.0,
)
register(
    id="MountainCarContinuous-v0",
    entry_point=f"{_PACKAGE}.continuous_mountain_car:Continuous_MountainCarEnv",
    vector_entry_point=f"{_PACKAGE}.continuous_mountain_car:Continuous_MountainCarVectorEnv",
    max_episode_steps=999,
    reward_threshold=90.0,
)
register(
    id="Pendulum-v1",
    entry_point=f"{_PACKAGE}.pendulum:PendulumEnv",
    vector_entry_point=f"{_PACKAGE}.pendulum:PendulumVectorEnv",
    max_episode_steps=200,
)
register(
    id="Acrobot-v1",
    entry_point=f"{_PACKAGE}.acrobot:AcrobotEnv",
    vector_entry_point=f"{_PACKAGE}.acrobot:AcrobotVectorEnv",
    reward_threshold=-100.0,
    max_episode_steps=500,
)
