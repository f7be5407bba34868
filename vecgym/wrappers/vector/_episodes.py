"""Which sub-environments start a new episode, for the stateful vector wrappers.

A stateful vector wrapper (episode statistics, running normalisation, frame stacks, ...) keeps
state per sub-environment that must restart exactly when that env starts a new episode, and never
when another env does. :class:`EpisodeTracker` derives this from the wrapped env's
``metadata["autoreset_mode"]``:

``NEXT_STEP``
    The step after an episode ends is the env's reset step: its row holds the reset observation,
    reward ``0`` and no termination. It starts the new episode and is not an episode step.
``SAME_STEP``
    The step that ends an episode already returns the reset observation (the last one is in
    ``infos["final_obs"]``): the new episode starts right after that step.
``DISABLED``
    Episodes start only with a (partial) reset.

A ``reset`` starts a new episode for every env it resets: all of them, or those marked by
``options["reset_mask"]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import logger
from vecgym.vector.sync_vector_env import check_reset_mask
from vecgym.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["EpisodeTracker", "StepEpisodes", "autoreset_mode_of", "reset_mask_of"]

MISSING_MODE_MSG = (
    "{wrapper}: the vector environment {env} has no `autoreset_mode` in its metadata; assuming "
    "AutoresetMode.NEXT_STEP"
)
MODE_TYPE_MSG = (
    "The vector env's metadata['autoreset_mode'] must hold an AutoresetMode (NEXT_STEP, SAME_STEP "
    "or DISABLED), got {}"
)

BoolArray = npt.NDArray[np.bool_]


def autoreset_mode_of(env: VectorEnv[Any, Any, Any], wrapper: str) -> AutoresetMode:
    """The autoreset mode of ``env`` (``NEXT_STEP``, with a warning, when its metadata lacks it).

    Raises:
        TypeError: ``metadata["autoreset_mode"]`` is not an :class:`AutoresetMode`.
    """
    if "autoreset_mode" not in env.metadata:
        logger.warn(MISSING_MODE_MSG.format(wrapper=wrapper, env=env))
        return AutoresetMode.NEXT_STEP
    mode = env.metadata["autoreset_mode"]
    if not isinstance(mode, AutoresetMode):
        raise TypeError(MODE_TYPE_MSG.format(type(mode)))
    return mode


def reset_mask_of(options: dict[str, Any] | None, num_envs: int) -> BoolArray | None:
    """The validated ``options["reset_mask"]``, or ``None`` for a reset of every env.

    Raises:
        TypeError: the mask is not a numpy bool array.
        ValueError: the mask's shape is not ``(num_envs,)`` or it has no ``True``.
    """
    if options is None or "reset_mask" not in options:
        return None
    return check_reset_mask(options["reset_mask"], num_envs)


@dataclass(frozen=True)
class StepEpisodes:
    """What one vector step means for each sub-environment's episode (boolean arrays).

    Attributes:
        started: the row is a reset step (``NEXT_STEP``): the new episode starts with this row's
            observation, which is not an episode step.
        counted: the row is a step of the running episode (``~started``).
        ended: the step ended the env's episode (``terminated | truncated``).
        restarted_after: the env's returned observation already belongs to a new episode that
            starts after this step (``SAME_STEP``: ``ended``; otherwise none).
    """

    started: BoolArray
    counted: BoolArray
    ended: BoolArray
    restarted_after: BoolArray


class EpisodeTracker:
    """Tracks, per sub-environment, the episode boundaries of a vector env's steps and resets.

    Args:
        mode: the wrapped env's autoreset mode.
        num_envs: the number of sub-environments.

    Attributes:
        mode: the autoreset mode.
        prev_dones: which envs ended their episode on the last step and have not been reset since.
    """

    def __init__(self, mode: AutoresetMode, num_envs: int) -> None:
        self.mode = mode
        self.num_envs = num_envs
        self.prev_dones: BoolArray = np.zeros(num_envs, dtype=np.bool_)

    def reset(self, mask: BoolArray | None) -> BoolArray:
        """Record a reset of the envs in ``mask`` (every env for ``None``); return the mask."""
        reset = np.ones(self.num_envs, dtype=np.bool_) if mask is None else mask.copy()
        self.prev_dones[reset] = False
        return reset

    def step(self, terminations: Any, truncations: Any) -> StepEpisodes:
        """Record a step with these termination / truncation arrays; return its meaning."""
        ended = np.logical_or(np.asarray(terminations), np.asarray(truncations)).astype(np.bool_)
        if self.mode is AutoresetMode.NEXT_STEP:
            started = self.prev_dones.copy()
        else:
            started = np.zeros(self.num_envs, dtype=np.bool_)
        if self.mode is AutoresetMode.SAME_STEP:
            restarted_after = ended.copy()
        else:
            restarted_after = np.zeros(self.num_envs, dtype=np.bool_)
        # After a SAME_STEP end the env has already been reset: nothing is pending.
        self.prev_dones = ended & ~restarted_after
        return StepEpisodes(
            started=started, counted=~started, ended=ended, restarted_after=restarted_after
        )
