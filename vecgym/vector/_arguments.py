"""Normalisers of the arguments every vector env accepts (seeds, reset masks, env indices), the
predicates their constructors share (an int that is not a bool, in a range; a positive number),
and the messages several vector envs raise alike (a closed env, a pending ``*_async`` call, an
``observation_mode``, a batch of actions or ``set_attr`` values of the wrong length).

Shared by :class:`~vecgym.vector.SyncVectorEnv`, :class:`~vecgym.vector.AsyncVectorEnv`,
:class:`~vecgym.vector.RayVectorEnv` and the numpy vector envs, so that sibling modules never
import each other for them (the error types and checks are Gymnasium's; each message is defined
once, here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "ACTIONS_LENGTH_MSG",
    "CLOSED_MSG",
    "CLOSE_PENDING_MSG",
    "INDICES_RANGE_MSG",
    "INDICES_TYPE_MSG",
    "NOTHING_IN_FLIGHT_MSG",
    "NO_ASYNC_MSG",
    "OBS_MODE_MSG",
    "OBS_MODE_SPACES_MSG",
    "PENDING_MSG",
    "POOL_BUSY_MSG",
    "RESET_MASK_DTYPE_MSG",
    "RESET_MASK_EMPTY_MSG",
    "RESET_MASK_SHAPE_MSG",
    "RESET_MASK_TYPE_MSG",
    "SEED_LENGTH_MSG",
    "SEED_TYPE_MSG",
    "SET_ATTR_LENGTH_MSG",
    "check_reset_mask",
    "int_in",
    "is_int",
    "is_positive_number",
    "normalize_indices",
    "normalize_seeds",
    "split_reset_options",
]

SEED_LENGTH_MSG = "a list of seeds must hold one seed per env (num_envs={}), got {} seeds"
SEED_TYPE_MSG = "seed must be None, an int or a list of int / None (one per env), got {}"
RESET_MASK_TYPE_MSG = "the reset option 'reset_mask' must be a numpy.ndarray, got {}"
RESET_MASK_SHAPE_MSG = (
    "the reset option 'reset_mask' must hold one flag per env, shape ({},), got {}"
)
RESET_MASK_DTYPE_MSG = "the reset option 'reset_mask' must have dtype bool, got {}"
RESET_MASK_EMPTY_MSG = (
    "the reset option 'reset_mask' must select at least one env (a True flag), got {}"
)
INDICES_RANGE_MSG = "indices must be env indices in [0, {}), got {}"
INDICES_TYPE_MSG = "indices must be None, an int or a sequence of ints, got {!r}"
OBS_MODE_MSG = (
    "observation_mode must be 'same', 'different' or a tuple (batched observation space, single "
    "observation space), got {}"
)
OBS_MODE_SPACES_MSG = (
    "an observation_mode tuple must hold two Space instances (batched, single), got {} and {}"
)
ACTIONS_LENGTH_MSG = "expected a batch of {} actions (one per env), got an array of shape {}"
SET_ATTR_LENGTH_MSG = (
    "set_attr values must be a list or tuple with one value per selected env: got {} values for "
    "{} envs"
)
CLOSED_MSG = "this {} has been closed and can no longer be used"
PENDING_MSG = (
    "`{method}` cannot start while a `{pending}` call is pending: finish it with "
    "`{pending}_wait` first"
)
NO_ASYNC_MSG = "`{method}` has no pending `{partner}` call to wait for: call `{partner}` first"
CLOSE_PENDING_MSG = "closing with a `{}` call still pending: its results are discarded"
NOTHING_IN_FLIGHT_MSG = "`recv` found no environment in flight: call `send` first"
POOL_BUSY_MSG = (
    "`{}` cannot run while environments sent with `send` are in flight: `recv` them first"
)


def is_int(value: Any) -> bool:
    """Whether ``value`` is an int (numpy ints too), never a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def int_in(value: Any, low: int, high: int | None = None) -> bool:
    """Whether ``value`` is an int (see :func:`is_int`) in ``[low, high]``."""
    return is_int(value) and low <= value and (high is None or value <= high)


def is_positive_number(value: Any) -> bool:
    """Whether ``value`` is an int or float (never a bool) above 0, as timeouts must be."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and value > 0


def normalize_seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    """One seed per env from a vector env's ``reset(seed=...)`` argument.

    Args:
        seed: ``None`` (all ``None``), an ``int`` ``s`` (``[s, s + 1, ..., s + num_envs - 1]``) or
            a sequence of ``num_envs`` seeds.
        num_envs: the number of envs.

    Returns:
        The list of seeds.

    Raises:
        ValueError: a sequence of the wrong length.
        TypeError: something else.
    """
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(num_envs)]
    if isinstance(seed, (str, bytes)) or not isinstance(seed, (Sequence, np.ndarray)):
        raise TypeError(SEED_TYPE_MSG.format(seed))
    if len(seed) != num_envs:
        raise ValueError(SEED_LENGTH_MSG.format(num_envs, len(seed)))
    return list(seed)


def check_reset_mask(reset_mask: Any, num_envs: int) -> npt.NDArray[np.bool_]:
    """Validate ``options["reset_mask"]`` (Gymnasium's checks and error types) and return it.

    Raises:
        TypeError: not a numpy array, or its dtype is not ``bool``.
        ValueError: its shape is not ``(num_envs,)`` or it has no ``True``.
    """
    if not isinstance(reset_mask, np.ndarray):
        raise TypeError(RESET_MASK_TYPE_MSG.format(type(reset_mask)))
    if reset_mask.shape != (num_envs,):
        raise ValueError(RESET_MASK_SHAPE_MSG.format(num_envs, reset_mask.shape))
    if reset_mask.dtype != np.bool_:
        raise TypeError(RESET_MASK_DTYPE_MSG.format(reset_mask.dtype))
    if not reset_mask.any():
        raise ValueError(RESET_MASK_EMPTY_MSG.format(reset_mask))
    return reset_mask


def split_reset_options(
    options: dict[str, Any] | None, num_envs: int
) -> tuple[npt.NDArray[np.bool_] | None, dict[str, Any] | None]:
    """Separate a vector env's reset options into ``(reset_mask, options for each env)``.

    The caller's dict is never modified: when it holds ``"reset_mask"`` (validated with
    :func:`check_reset_mask`) the envs get a new dict without that key, else the dict itself.
    """
    if options is None or "reset_mask" not in options:
        return None, options
    reset_mask = check_reset_mask(options["reset_mask"], num_envs)
    return reset_mask, {key: value for key, value in options.items() if key != "reset_mask"}


def normalize_indices(indices: int | Sequence[int] | None, num_envs: int) -> list[int]:
    """The env indices selected by a ``call`` / ``get_attr`` / ``set_attr`` ``indices`` argument.

    Args:
        indices: ``None`` (every env), an index, or a sequence (or integer array) of indices;
            negative indices count from the end, as in Python.
        num_envs: the number of envs.

    Returns:
        The selected indices as non-negative ints, in the given order.

    Raises:
        TypeError: ``indices`` is none of those.
        IndexError: an index outside ``[-num_envs, num_envs)``.
    """
    if indices is None:
        return list(range(num_envs))
    if isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        selected = [int(indices)]
    elif isinstance(indices, (Sequence, np.ndarray)) and not isinstance(indices, (str, bytes)):
        selected = []
        for index in indices:
            if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
                raise TypeError(INDICES_TYPE_MSG.format(indices))
            selected.append(int(index))
    else:
        raise TypeError(INDICES_TYPE_MSG.format(indices))
    for index in selected:
        if not -num_envs <= index < num_envs:
            raise IndexError(INDICES_RANGE_MSG.format(num_envs, indices))
    return [index % num_envs for index in selected]
