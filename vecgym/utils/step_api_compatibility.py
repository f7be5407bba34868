"""Convert step results between the old ``done`` API and the ``terminated``/``truncated`` API.

The old (Gym < 0.26) API returns ``(obs, reward, done, info)`` and marks a time-limit ending with
``info["TimeLimit.truncated"]``; the current API returns ``(obs, reward, terminated, truncated,
info)``. Both directions handle a single environment and a vector environment, whose infos are
either a list of per-env dicts or one dict of arrays.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, TypeAlias, cast

import numpy as np

from vecgym.core.env import ObsType

__all__ = [
    "DoneStepType",
    "TerminatedTruncatedStepType",
    "convert_to_done_step_api",
    "convert_to_terminated_truncated_step_api",
    "step_api_compatibility",
]

#: ``(observation, reward, done, info)``: the old step API.
DoneStepType: TypeAlias = tuple[
    ObsType | np.ndarray,
    SupportsFloat | np.ndarray,
    bool | np.ndarray,
    dict | list,
]

#: ``(observation, reward, terminated, truncated, info)``: the current step API.
TerminatedTruncatedStepType: TypeAlias = tuple[
    ObsType | np.ndarray,
    SupportsFloat | np.ndarray,
    bool | np.ndarray,
    bool | np.ndarray,
    dict | list,
]

#: The info key through which the old API told a time-limit truncation from a termination.
TRUNCATED_KEY = "TimeLimit.truncated"

STEP_LENGTH_MSG = (
    "step_returns must have 4 items (done API) or 5 (terminated/truncated API), got {}"
)
VECTOR_INFOS_TYPE_MSG = (
    "infos of a vector environment (is_vector_env=True) must be a list or a dict, got {}"
)


def _check_length(step_returns: tuple[Any, ...]) -> int:
    """The number of items in ``step_returns``, which must be 4 or 5."""
    length = len(step_returns)
    if length not in (4, 5):
        raise ValueError(STEP_LENGTH_MSG.format(length))
    return length


def convert_to_terminated_truncated_step_api(
    step_returns: DoneStepType[ObsType] | TerminatedTruncatedStepType[ObsType],
    is_vector_env: bool = False,
) -> TerminatedTruncatedStepType[ObsType]:
    """Return ``step_returns`` in the ``(obs, reward, terminated, truncated, info)`` form.

    A 5-tuple is returned unchanged. For a 4-tuple, ``info["TimeLimit.truncated"]`` (removed from
    the info, in place) splits ``done`` into ``terminated = done and not truncated`` and
    ``truncated = done and truncated``; a missing key means not truncated.

    Args:
        step_returns: the result of a ``step`` in either API.
        is_vector_env: whether the result comes from a vector environment (arrays of flags,
            infos as a list of dicts or a dict of arrays).

    Returns:
        The 5-tuple.

    Raises:
        ValueError: ``step_returns`` has neither 4 nor 5 items.
        TypeError: a vector environment's infos are neither a list nor a dict.

    Example:
        >>> convert_to_terminated_truncated_step_api((0, 1.0, True, {"TimeLimit.truncated": True}))
        (0, 1.0, False, True, {})
    """
    if _check_length(step_returns) == 5:
        return step_returns  # type: ignore[return-value]
    obs, reward, done, info = cast("tuple[Any, Any, Any, Any]", step_returns)

    if not is_vector_env:
        truncated = info.pop(TRUNCATED_KEY, False)
        return obs, reward, done and not truncated, done and truncated, info
    if isinstance(info, list):
        truncated = np.array([env_info.pop(TRUNCATED_KEY, False) for env_info in info])
    elif isinstance(info, dict):
        truncated = info.pop(TRUNCATED_KEY, np.zeros(len(done), dtype=np.bool_))
    else:
        raise TypeError(VECTOR_INFOS_TYPE_MSG.format(type(info)))
    return (
        obs,
        reward,
        np.logical_and(done, np.logical_not(truncated)),
        np.logical_and(done, truncated),
        info,
    )


def convert_to_done_step_api(
    step_returns: TerminatedTruncatedStepType | DoneStepType,
    is_vector_env: bool = False,
) -> DoneStepType:
    """Return ``step_returns`` in the ``(obs, reward, done, info)`` form.

    A 4-tuple is returned unchanged. For a 5-tuple, ``done = terminated or truncated``, and when an
    episode ended the info gets ``"TimeLimit.truncated"`` set (in place) to ``truncated and not
    terminated``. For a vector environment with a dict of infos, the key is set, as one array
    over all sub-environments, when any of them ended.

    Args:
        step_returns: the result of a ``step`` in either API.
        is_vector_env: whether the result comes from a vector environment.

    Returns:
        The 4-tuple.

    Raises:
        ValueError: ``step_returns`` has neither 4 nor 5 items.
        TypeError: a vector environment's infos are neither a list nor a dict.

    Example:
        >>> convert_to_done_step_api((0, 1.0, False, True, {}))
        (0, 1.0, True, {'TimeLimit.truncated': True})
    """
    if _check_length(step_returns) == 4:
        return step_returns  # type: ignore[return-value]
    obs, reward, terminated, truncated, info = cast("tuple[Any, Any, Any, Any, Any]", step_returns)

    if not is_vector_env:
        if terminated or truncated:
            info[TRUNCATED_KEY] = truncated and not terminated
        return obs, reward, terminated or truncated, info
    if isinstance(info, list):
        for env_info, env_terminated, env_truncated in zip(
            info, terminated, truncated, strict=True
        ):
            if env_terminated or env_truncated:
                env_info[TRUNCATED_KEY] = env_truncated and not env_terminated
    elif isinstance(info, dict):
        if np.any(terminated) or np.any(truncated):
            info[TRUNCATED_KEY] = np.logical_and(truncated, np.logical_not(terminated))
    else:
        raise TypeError(VECTOR_INFOS_TYPE_MSG.format(type(info)))
    return obs, reward, np.logical_or(terminated, truncated), info


def step_api_compatibility(
    step_returns: TerminatedTruncatedStepType | DoneStepType,
    output_truncation_bool: bool = True,
    is_vector_env: bool = False,
) -> TerminatedTruncatedStepType | DoneStepType:
    """Return ``step_returns`` in the API that ``output_truncation_bool`` selects.

    The input may be in either API. Useful where an old-API environment meets new-API code, or
    the reverse.

    Args:
        step_returns: the result of a ``step`` in either API.
        output_truncation_bool: ``True`` for ``(obs, reward, terminated, truncated, info)``,
            ``False`` for ``(obs, reward, done, info)``.
        is_vector_env: whether the result comes from a vector environment.

    Returns:
        The converted tuple (see :func:`convert_to_terminated_truncated_step_api` and
        :func:`convert_to_done_step_api`).

    Example:
        >>> step_api_compatibility((0, 1.0, True, False, {}), output_truncation_bool=False)
        (0, 1.0, True, {'TimeLimit.truncated': False})
    """
    if output_truncation_bool:
        return convert_to_terminated_truncated_step_api(step_returns, is_vector_env)
    return convert_to_done_step_api(step_returns, is_vector_env)
