"""Gymnasium's public path ``gymnasium.utils.passive_env_checker``: re-exports.

The code lives in :mod:`vecgym.core.passive_env_checker`; the names here are the same objects.
"""

from __future__ import annotations

from vecgym.core.passive_env_checker import check_action_space as check_action_space
from vecgym.core.passive_env_checker import check_obs as check_obs
from vecgym.core.passive_env_checker import check_observation_space as check_observation_space
from vecgym.core.passive_env_checker import check_space as check_space
from vecgym.core.passive_env_checker import data_shares_objects as data_shares_objects
from vecgym.core.passive_env_checker import (
    env_data_reuse_passive_checker as env_data_reuse_passive_checker,
)
from vecgym.core.passive_env_checker import (
    env_render_passive_checker as env_render_passive_checker,
)
from vecgym.core.passive_env_checker import env_reset_passive_checker as env_reset_passive_checker
from vecgym.core.passive_env_checker import env_step_passive_checker as env_step_passive_checker

__all__ = [
    "check_action_space",
    "check_observation_space",
    "env_render_passive_checker",
    "env_reset_passive_checker",
    "env_step_passive_checker",
]
