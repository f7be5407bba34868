"""Nested info dicts in shared memory: flat path keys in the slots, nested dicts outside.

``RecordEpisodeStatistics`` (and SB3's ``Monitor``) put an ``episode`` dict of numbers into the
info at each episode end. In a signature (:func:`vecgym.vector._async.infos.info_signature`) a
nested dict's values are items of their own, each named by its path joined with
:data:`NESTED_SEP` (``"episode\\x1fr"``); no key of an info may contain the separator, so a path
can never be read as another key. The worker writes the values by path (:func:`flat_values`); the
parent rebuilds an env's dict (:func:`nest_info`) or a batch in Gymnasium's nested layout
(:func:`nest_batch`): the nested dict at the place of its first value, followed by its mask (the
envs whose info had it), and inside it each value followed by its own mask.
"""

from __future__ import annotations

import functools
from typing import Any, Union

import numpy as np

__all__ = [
    "NESTED_SEP",
    "flat_values",
    "has_nested",
    "nest_batch",
    "nest_columns",
    "nest_info",
    "nest_plan",
]

NESTED_SEP = "\x1f"
"""Joins the keys of a nested info value's path (ASCII unit separator)."""


def has_nested(keys: Any) -> bool:
    """Whether some of the (flat) ``keys`` is a path into a nested dict."""
    return NESTED_SEP in "".join(keys)  # one scan at C speed (this runs on every step)


def flat_values(info: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """The values of ``info`` by flat key (nested dicts' values by path).

    Example:
        >>> flat_values({"a": 1, "episode": {"r": 2.0}}) == {"a": 1, "episode\\x1fr": 2.0}
        True
    """
    out: dict[str, Any] = {}
    for key, value in info.items():
        if type(value) is dict:
            out.update(flat_values(value, f"{prefix}{key}{NESTED_SEP}"))
        else:
            out[prefix + key] = value
    return out


def nest_info(flat: dict[str, Any]) -> dict[str, Any]:
    """One env's info with its path keys made nested dicts again (:func:`flat_values` undone)."""
    out: dict[str, Any] = {}
    for key, value in flat.items():
        *parents, leaf = key.split(NESTED_SEP)
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out


def nest_batch(infos: dict[str, Any]) -> dict[str, Any] | None:
    """Batched infos of flat keys (each followed by its ``_`` mask) in Gymnasium's nested layout,
    or ``None`` when a name is both a value and a nested dict among them (envs disagreeing on
    it: the caller batches those infos env by env instead)."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        masked = key[:1] == "_" and key[1:] in infos  # (SAME_STEP's final keys start with "_")
        *parents, leaf = (key[1:] if masked else key).split(NESTED_SEP)
        node = out
        for part in parents:
            child = node.get(part)
            if child is None:
                child = node[part] = {}
                node["_" + part] = None  # the nested dict's mask, filled in below
            elif type(child) is not dict:
                return None
            node = child
        name = "_" + leaf if masked else leaf
        if name in node:
            return None
        node[name] = value
    _fill_masks(out)
    return out


def _fill_masks(node: dict[str, Any]) -> None:
    """Give each nested dict of ``node`` (at any depth) its mask."""
    for key, value in node.items():
        if type(value) is dict:
            node["_" + key] = _union_mask(value)  # an existing key: its place is kept


def _union_mask(node: dict[str, Any]) -> np.ndarray:
    """The envs that have some value in nested dict ``node`` (its masks filled in first)."""
    _fill_masks(node)
    masks = [value for key, value in node.items() if key[:1] == "_" and key[1:] in node]
    union: np.ndarray = masks[0].copy()
    for mask in masks[1:]:
        union |= mask
    return union


Plan = list[tuple[str, Union[str, "Plan"]]]
"""Where the values of one signature go in the nested layout: ``(name, flat key)`` for a value,
``(name, plan)`` for a nested dict, in the layout's order."""


@functools.lru_cache(maxsize=256)
def nest_plan(keys: tuple[str, ...]) -> Plan | None:
    """The :data:`Plan` of the flat ``keys`` of one signature; ``None`` when none is a path.
    (The keys of one info never make a name both a value and a nested dict.)

    Example:
        >>> nest_plan(("x", "episode\\x1fr", "episode\\x1fl"))
        [('x', 'x'), ('episode', [('r', 'episode\\x1fr'), ('l', 'episode\\x1fl')])]
    """
    if not has_nested(keys):
        return None
    return _as_plan(nest_info({key: key for key in keys}))  # each leaf holds its flat key


def _as_plan(node: dict[str, Any]) -> Plan:
    return [(name, item if type(item) is str else _as_plan(item)) for name, item in node.items()]


def nest_columns(plan: Plan, columns: dict[str, Any], mask: np.ndarray) -> dict[str, Any]:
    """The batch of one signature in the nested layout of ``plan``: each value from ``columns``
    (by flat key) and each nested dict, each followed by a copy of ``mask`` (every value of one
    signature, and so every nested dict, is present in the same envs). What :func:`nest_batch`
    gives for those columns each followed by ``mask``, without its search for the layout."""
    out: dict[str, Any] = {}
    for name, item in plan:
        out[name] = columns[item] if isinstance(item, str) else nest_columns(item, columns, mask)
        out["_" + name] = mask.copy()
    return out
