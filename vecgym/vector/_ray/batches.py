"""The driver's batches from the hosts' replies: infos merged into global rows, the trees of a
rollout widened and filled, and queued actions concatenated."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Rollout", "concat_trees", "place_infos", "widen"]


def place_infos(
    target: dict[str, Any], source: dict[str, Any], rows: Any, num_envs: int
) -> dict[str, Any]:
    """Merge a host's batched infos (one entry per env of its rows) into the global infos."""
    for key, value in source.items():
        if isinstance(value, dict):
            target[key] = place_infos(target.get(key, {}), value, rows, num_envs)
            continue
        value = np.asarray(value)
        current = target.get(key)
        if current is None:
            fill = None if value.dtype == object else 0
            current = np.full((num_envs, *value.shape[1:]), fill, dtype=value.dtype)
        elif current.dtype != value.dtype and current.dtype != object:
            wider = object if value.dtype == object else np.result_type(current.dtype, value.dtype)
            current = current.astype(wider)
        current[rows] = value
        target[key] = current
    return target


@dataclass
class Rollout:
    """The result of :meth:`RayVectorEnv.rollout` (``T = num_steps``, ``n = num_envs``).

    Attributes:
        observations: what the policy saw at each step, ``(T, n, ...)`` (a tree for Dict / Tuple);
            for an observation space that does not batch into arrays (Text, Graph, Sequence,
            OneOf, custom spaces, or a Dict / Tuple holding one) a list of ``T`` batches, each
            what :meth:`RayVectorEnv.step` returns for such a space.
        actions: the policy's actions, ``(T, n, ...)`` (a tree for Dict / Tuple); for an action
            space that does not batch into arrays (Text, Graph, Sequence, OneOf, custom spaces,
            or a Dict / Tuple holding one) a list of ``T`` batches, each a batch
            :meth:`RayVectorEnv.step` takes (``concatenate``'s tuples of per-env actions).
        rewards: ``(T, n)`` float64.
        terminations: ``(T, n)`` bool.
        truncations: ``(T, n)`` bool.
        infos: one batched info dict per step (Gymnasium's layout, over all ``n`` envs).
        extras: what the policy returned beside its actions, stacked ``(T, n, ...)``, or ``None``.
        next_observations: the observations after the last step, ``(n, ...)``.
        restarted: ``(n,)`` bool: envs whose host was restarted during this rollout (their rows
            are a rollout of fresh envs, started from their reset observation).
        host_seconds: ``(hosts,)``: how long each host spent running the rollout (policy and env
            steps), to compare with the call's wall time (the rest is Ray and the driver).
        stepped: ``(T, n)`` bool: whether env ``i`` was stepped at step ``t``. Always ``True``
            except in the ``DISABLED`` autoreset mode, where an env is not stepped once its
            episode ended (in this rollout or before) until it is reset: its rows then hold its
            last observation, zero actions and extras, reward 0, no flags and no infos (actions
            of a space that does not batch into arrays: ``None``, or, inside a Dict / Tuple,
            ``None`` in its parts that do not batch into arrays and zeros in the others).
    """

    observations: Any
    actions: Any
    rewards: npt.NDArray[np.float64]
    terminations: npt.NDArray[np.bool_]
    truncations: npt.NDArray[np.bool_]
    infos: list[dict[str, Any]]
    extras: Any
    next_observations: Any
    restarted: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))
    host_seconds: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    stepped: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros((0, 0), dtype=np.bool_))


def widen(host_tree: Any, num_steps: int, n: int) -> Any:
    """A zeroed ``(T, n, ...)`` tree shaped like a host's ``(T, m, ...)`` tree."""
    if isinstance(host_tree, dict):
        return {key: widen(sub, num_steps, n) for key, sub in host_tree.items()}
    if isinstance(host_tree, tuple):
        return tuple(widen(sub, num_steps, n) for sub in host_tree)
    array = np.asarray(host_tree)
    return np.zeros((num_steps, n, *array.shape[2:]), dtype=array.dtype)


def concat_trees(parts: list[Any]) -> Any:
    """The batch trees ``parts`` concatenated along their first axis."""
    first = parts[0]
    if len(parts) == 1:
        return first
    if isinstance(first, dict):
        return {key: concat_trees([p[key] for p in parts]) for key in first}
    if isinstance(first, tuple):
        return tuple(concat_trees([p[j] for p in parts]) for j in range(len(first)))
    return np.concatenate([np.asarray(p) for p in parts])
