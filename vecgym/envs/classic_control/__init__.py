"""The classic-control environments: CartPole, MountainCar (discrete and continuous), Pendulum and
Acrobot, identical to Gymnasium 1.4's step for step and seed for seed, drawn with numpy only."""

from __future__ import annotations

from vecgym.envs.classic_control.acrobot import AcrobotEnv as AcrobotEnv
from vecgym.envs.classic_control.cartpole import CartPoleEnv as CartPoleEnv
from vecgym.envs.classic_control.continuous_mountain_car import (
    Continuous_MountainCarEnv as Continuous_MountainCarEnv,
)
from vecgym.envs.classic_control.mountain_car import MountainCarEnv as MountainCarEnv
from vecgym.envs.classic_control.pendulum import PendulumEnv as PendulumEnv

__all__ = [
    "AcrobotEnv",
    "CartPoleEnv",
    "Continuous_MountainCarEnv",
    "MountainCarEnv",
    "PendulumEnv",
]
