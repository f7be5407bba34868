"""Gymnasium's public path ``gymnasium.utils.env_checker``: re-exports of the invasive env checker.

The code lives in :mod:`vecgym.core.env_checker`; the names here are the same objects.
"""

from __future__ import annotations

from vecgym.core.env_checker import check_env as check_env
from vecgym.core.env_checker import check_reset_options as check_reset_options
from vecgym.core.env_checker import (
    check_reset_return_info_deprecation as check_reset_return_info_deprecation,
)
from vecgym.core.env_checker import check_reset_return_type as check_reset_return_type
from vecgym.core.env_checker import check_reset_seed_determinism as check_reset_seed_determinism
from vecgym.core.env_checker import (
    check_returned_data_not_reused as check_returned_data_not_reused,
)
from vecgym.core.env_checker import check_seed_deprecation as check_seed_deprecation
from vecgym.core.env_checker import check_space_limit as check_space_limit
from vecgym.core.env_checker import check_step_determinism as check_step_determinism
from vecgym.core.env_checker import data_equivalence as data_equivalence
from vecgym.core.passive_env_checker import check_action_space as check_action_space
from vecgym.core.passive_env_checker import check_observation_space as check_observation_space
from vecgym.core.passive_env_checker import data_shares_objects as data_shares_objects
from vecgym.core.passive_env_checker import (
    env_render_passive_checker as env_render_passive_checker,
)
from vecgym.core.passive_env_checker import env_reset_passive_checker as env_reset_passive_checker
from vecgym.core.passive_env_checker import env_step_passive_checker as env_step_passive_checker

__all__ = [
    "check_env",
    "check_reset_options",
    "check_reset_return_info_deprecation",
    "check_reset_return_type",
    "check_reset_seed_determinism",
    "check_returned_data_not_reused",
    "check_seed_deprecation",
    "check_space_limit",
    "check_step_determinism",
    "data_equivalence",
]
