"""Validation of :class:`~vecgym.vector.AsyncVectorEnv`'s constructor arguments.

Every check runs before a process starts, in the order the arguments are documented, and raises
Gymnasium's error type for the same input. The "an int, not a bool, in a range" rule that several
arguments share lives in one helper, :func:`vecgym.vector._arguments.int_in`.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vecgym import error
from vecgym.core.spaces.space import Space
from vecgym.vector._arguments import OBS_MODE_MSG as OBS_MODE_MSG
from vecgym.vector._arguments import OBS_MODE_SPACES_MSG as OBS_MODE_SPACES_MSG
from vecgym.vector._arguments import int_in, is_int, is_positive_number
from vecgym.vector._async.placement import default_start_method, usable_cores
from vecgym.vector._boundary import CHECK_ACTIONS_MSG, find_custom_space
from vecgym.vector.utils import batch_space
from vecgym.vector.vector_env import AutoresetMode

__all__ = [
    "AsyncOptions",
    "check_observation_mode",
    "check_shared_memory_space",
    "validate",
]

ON_FAILURE_MSG = "on_worker_failure must be 'raise' or 'restart', got {!r}"
MAX_CONCURRENCY_TYPE_MSG = "max_concurrency must be None or an int, got {}"
MAX_CONCURRENCY_VALUE_MSG = "max_concurrency must be None or an int >= 1, got {}"
STEP_TIMEOUT_MSG = "step_timeout must be None or a positive number of seconds, got {!r}"
WORKER_THREADS_MSG = "worker_threads must be None or an int >= 1, got {!r}"
NUM_WORKERS_MSG = "num_workers must be an int >= 1 or None, got {!r}"
PARENT_ENVS_MSG = (
    "parent_envs must be an int in [0, num_envs - 1] = [0, {}] (at least one env is left to the "
    "worker processes; use SyncVectorEnv to step them all in this process), got {!r}"
)
BATCH_SIZE_MSG = "batch_size must be an int in [1, num_envs={}] or None, got {!r}"
ENV_FNS_MSG = "env_fns must be a non-empty sequence of callables, got {!r}"
CONTEXT_MSG = "context must be None or one of {}, got {!r}"
CUSTOM_SPACE_SHARED_MSG = (
    "AsyncVectorEnv(..., shared_memory=True) cannot hold observations of the custom space {} in "
    "shared memory; pass shared_memory=False to send them through the pipes instead"
)


@dataclass(frozen=True)
class AsyncOptions:
    """The validated, normalised constructor arguments."""

    num_envs: int
    num_workers: int
    """Worker processes (the parent's own slice not counted)."""
    batch_size: int
    max_concurrency: int | None
    on_worker_failure: str
    step_timeout: float | None
    check_actions: bool | str
    pin_workers: bool
    worker_threads: int | None
    context: str
    autoreset_mode: AutoresetMode
    parent_envs: int = 0
    """Envs of the last slice, stepped by the parent itself."""


def validate(
    env_fns: Any,
    *,
    observation_mode: Any,
    autoreset_mode: str | AutoresetMode,
    max_concurrency: Any,
    num_workers: Any,
    batch_size: Any,
    check_actions: Any,
    on_worker_failure: Any,
    step_timeout: Any,
    pin_workers: bool,
    worker_threads: Any,
    context: Any,
    parent_envs: Any = 0,
) -> AsyncOptions:
    """Check every argument and return them normalised (ints as ``int``, defaults resolved)."""
    if max_concurrency is not None and not is_int(max_concurrency):
        raise ValueError(MAX_CONCURRENCY_TYPE_MSG.format(type(max_concurrency)))
    if max_concurrency is not None and max_concurrency < 1:
        raise ValueError(MAX_CONCURRENCY_VALUE_MSG.format(max_concurrency))
    if on_worker_failure not in ("raise", "restart"):
        raise ValueError(ON_FAILURE_MSG.format(on_worker_failure))
    if step_timeout is not None and not is_positive_number(step_timeout):
        raise ValueError(STEP_TIMEOUT_MSG.format(step_timeout))
    if worker_threads is not None and not int_in(worker_threads, 1):
        raise ValueError(WORKER_THREADS_MSG.format(worker_threads))
    if not (check_actions is True or check_actions is False or check_actions == "strict"):
        raise ValueError(CHECK_ACTIONS_MSG.format(check_actions))
    if (
        not isinstance(env_fns, Sequence)
        or len(env_fns) == 0
        or not all(callable(fn) for fn in env_fns)
    ):
        if isinstance(env_fns, Sequence) and len(env_fns) == 0:
            raise error.NoEnvironments(ENV_FNS_MSG.format(env_fns))
        raise TypeError(ENV_FNS_MSG.format(env_fns))
    mode = (
        autoreset_mode
        if isinstance(autoreset_mode, AutoresetMode)
        else AutoresetMode(autoreset_mode)
    )
    check_observation_mode(observation_mode)
    num_envs = len(env_fns)
    if not int_in(parent_envs, 0, num_envs - 1):
        raise ValueError(PARENT_ENVS_MSG.format(num_envs - 1, parent_envs))
    remote_envs = num_envs - int(parent_envs)
    if num_workers is None:  # the parent's slice takes a core of its own
        num_workers = min(max(1, usable_cores() - (1 if parent_envs else 0)), remote_envs)
    elif not int_in(num_workers, 1):
        raise ValueError(NUM_WORKERS_MSG.format(num_workers))
    if batch_size is None:
        batch_size = num_envs
    if not int_in(batch_size, 1, num_envs):
        raise ValueError(BATCH_SIZE_MSG.format(num_envs, batch_size))
    methods = multiprocessing.get_all_start_methods()
    if context is not None and context not in methods:
        raise ValueError(CONTEXT_MSG.format(methods, context))
    return AsyncOptions(
        num_envs=num_envs,
        num_workers=min(int(num_workers), remote_envs),
        batch_size=int(batch_size),
        max_concurrency=None if max_concurrency is None else int(max_concurrency),
        on_worker_failure=on_worker_failure,
        step_timeout=None if step_timeout is None else float(step_timeout),
        check_actions=check_actions,
        pin_workers=bool(pin_workers),
        worker_threads=None if worker_threads is None else int(worker_threads),
        context=context if context is not None else default_start_method(),
        autoreset_mode=mode,
        parent_envs=int(parent_envs),
    )


def check_observation_mode(observation_mode: Any) -> None:
    """Gymnasium's checks of ``observation_mode`` (``"same"``, ``"different"`` or two spaces)."""
    if isinstance(observation_mode, tuple) and len(observation_mode) == 2:
        if not all(isinstance(space, Space) for space in observation_mode):
            raise TypeError(
                OBS_MODE_SPACES_MSG.format(type(observation_mode[0]), type(observation_mode[1]))
            )
    elif observation_mode not in ("same", "different"):
        raise ValueError(OBS_MODE_MSG.format(observation_mode))


def observation_spaces(
    observation_mode: Any, first_space: Space[Any], num_envs: int
) -> tuple[Space[Any], Space[Any]]:
    """``(single, batched)`` observation spaces from the mode and the first env's space (for
    ``"different"`` provisional: the vector env replaces them by all envs' spaces once attached)."""
    if isinstance(observation_mode, tuple):
        return observation_mode[1], observation_mode[0]
    return first_space, batch_space(first_space, num_envs)


def check_shared_memory_space(space: Space[Any], shared_memory: bool) -> None:
    """Refuse, as Gymnasium does, ``shared_memory=True`` for observations of a custom space.

    Raises:
        ValueError: ``space`` is or contains a space of a type that is not vecgym's own.
    """
    custom = find_custom_space(space) if shared_memory else None
    if custom is not None:
        raise ValueError(CUSTOM_SPACE_SHARED_MSG.format(type(custom).__name__))
