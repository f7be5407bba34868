"""The one autoreset state machine of vecgym.

Every vectoriser steps its sub-environments through :class:`AutoresetEnv`: :class:`SyncVectorEnv`
in its loop, the async worker in its process, so the three autoreset modes behave the same
everywhere. Numpy-vectorised environments, which step all their copies at once, use the mask form
of the same rules, :func:`next_autoreset_mask`.

The three modes (:class:`~vecgym.vector.vector_env.AutoresetMode`), for one sub-environment:

``NEXT_STEP`` (the default)
    A step that ends the episode (``terminated or truncated``) returns as usual and leaves a reset
    pending. The next ``step`` ignores its action, resets the environment and returns
    ``(reset_obs, 0.0, False, False, reset_info)``.

``SAME_STEP``
    A step that ends the episode resets at once and returns
    ``(reset_obs, reward, terminated, truncated, info)`` with
    ``info = {"final_obs": <copy of the last obs>, "final_info": <step info>, **reset_info}``.

``DISABLED``
    Nothing is reset automatically. Stepping an environment whose episode has ended raises
    :class:`vecgym.error.ResetNeeded`: reset it first, for a vector env with
    ``reset(options={"reset_mask": mask})``.

A manual :meth:`AutoresetEnv.reset` always clears a pending reset.
"""

from __future__ import annotations

import copy
from typing import Any, Generic, SupportsFloat

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.env import ActType, Env, ObsType
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["AutoresetEnv", "next_autoreset_mask"]

STEP_AFTER_END_MSG = (
    "sub-environment {index}'s episode has ended and autoreset_mode is DISABLED: it must be reset "
    "before it is stepped again, e.g. with `envs.reset(options={{'reset_mask': mask}})` where "
    "`mask[{index}]` is True"
)
UNKNOWN_MODE_MSG = "autoreset mode must be an AutoresetMode, got {!r}"

StepResult = tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]


class AutoresetEnv(Generic[ObsType, ActType]):
    """One sub-environment of a vector env together with its autoreset state.

    Args:
        env: the environment stepped.
        mode: the autoreset mode (see the module docstring for the rules of each).
        index: the environment's index in its vector env, only used in error messages.

    Attributes:
        env: the environment stepped.
        mode: the autoreset mode.
        needs_reset: ``NEXT_STEP``: the next :meth:`step` resets instead of stepping; ``DISABLED``:
            the episode has ended and :meth:`step` raises until :meth:`reset` is called. Always
            ``False`` in ``SAME_STEP`` mode.

    Example:
        >>> from vecgym.vector.vector_env import AutoresetMode
        >>> from vecgym.envs.classic_control.cartpole import CartPoleEnv
        >>> auto = AutoresetEnv(CartPoleEnv(), AutoresetMode.NEXT_STEP)
        >>> _ = auto.reset(seed=0)
        >>> while not auto.needs_reset:
        ...     _ = auto.step(1)
        >>> obs, reward, terminated, truncated, info = auto.step(1)  # the reset step
        >>> reward, terminated, truncated
        (0.0, False, False)
    """

    __slots__ = ("env", "index", "mode", "needs_reset")

    def __init__(self, env: Env[ObsType, ActType], mode: AutoresetMode, *, index: int = 0) -> None:
        if not isinstance(mode, AutoresetMode):
            raise TypeError(UNKNOWN_MODE_MSG.format(mode))
        self.env = env
        self.mode = mode
        self.index = index
        self.needs_reset = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment (a manual reset), clearing any pending autoreset.

        Args:
            seed: passed to ``env.reset``.
            options: passed to ``env.reset``.

        Returns:
            ``env.reset``'s ``(obs, info)``.
        """
        obs, info = self.env.reset(seed=seed, options=options)
        self.needs_reset = False
        return obs, info

    def step(self, action: ActType) -> StepResult:
        """Step the environment, autoresetting according to :attr:`mode`.

        Args:
            action: the action; ignored by a ``NEXT_STEP`` reset step.

        Returns:
            ``(obs, reward, terminated, truncated, info)``, see the module docstring for what each
            mode returns when an episode ends.

        Raises:
            ResetNeeded: ``DISABLED`` mode and the episode has ended (reset the env first).
        """
        if self.needs_reset:
            if self.mode is AutoresetMode.NEXT_STEP:
                obs, info = self.env.reset()
                self.needs_reset = False
                return obs, 0.0, False, False, info
            raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=self.index))
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            if self.mode is AutoresetMode.SAME_STEP:
                # Copy before resetting: the env may write its next observation into the same array.
                final_obs = copy.deepcopy(obs)
                obs, reset_info = self.env.reset()
                info = {"final_obs": final_obs, "final_info": info, **reset_info}
            else:
                self.needs_reset = True
        return obs, reward, terminated, truncated, info

    def __repr__(self) -> str:
        return f"AutoresetEnv({self.env}, {self.mode}, needs_reset={self.needs_reset})"


def next_autoreset_mask(
    mode: AutoresetMode,
    terminated: npt.NDArray[np.bool_],
    truncated: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """The envs that a numpy-vectorised env must treat as "needs reset" after a step.

    The vectorised form of :attr:`AutoresetEnv.needs_reset`: ``terminated | truncated`` in
    ``NEXT_STEP`` mode (those envs reset on the next step) and in ``DISABLED`` mode (those envs must
    be reset by the user), all ``False`` in ``SAME_STEP`` mode (those envs were reset already).

    Args:
        mode: the autoreset mode.
        terminated: the step's terminations, shape ``(num_envs,)``.
        truncated: the step's truncations, shape ``(num_envs,)``.

    Returns:
        A new boolean array of shape ``(num_envs,)``.
    """
    if mode is AutoresetMode.SAME_STEP:
        return np.zeros(np.shape(terminated), dtype=np.bool_)
    if not isinstance(mode, AutoresetMode):
        raise TypeError(UNKNOWN_MODE_MSG.format(mode))
    return np.logical_or(terminated, truncated)
