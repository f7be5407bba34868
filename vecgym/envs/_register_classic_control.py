"""Registers the classic-control environments under Gymnasium 1.4's ids.

Imported once by :mod:`vecgym.envs`; entry points name vecgym's own modules.
"""

from __future__ import annotations

from vecgym.core.registration import add_numpy_vectorised, register

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
    max_episode_steps=200,
    reward_threshold=-110.0,
)
register(
    id="MountainCarContinuous-v0",
    entry_point=f"{_PACKAGE}.continuous_mountain_car:Continuous_MountainCarEnv",
    max_episode_steps=999,
    reward_threshold=90.0,
)
register(
    id="Pendulum-v1",
    entry_point=f"{_PACKAGE}.pendulum:PendulumEnv",
    max_episode_steps=200,
)
register(
    id="Acrobot-v1",
    entry_point=f"{_PACKAGE}.acrobot:AcrobotEnv",
    reward_threshold=-100.0,
    max_episode_steps=500,
)

# vecgym vectorises these envs too; Gymnasium does not, so they stay out of the specs (make_vec
# builds them with vectorization_mode="vector_entry_point" only).
add_numpy_vectorised(
    _PACKAGE,
    {
        "mountain_car": "MountainCar",
        "continuous_mountain_car": "Continuous_MountainCar",
        "pendulum": "Pendulum",
        "acrobot": "Acrobot",
    },
)
