"""``SAME_STEP``'s final observations and final infos in shared memory.

In ``SAME_STEP`` mode an env whose episode ends is reset within the step, and its info becomes
``{"final_obs": obs, "final_info": info, **reset_info}``
(:meth:`~vecgym.vector.autoreset.AutoresetEnv.end_episode`). Pickled through the pipe, that
dict cost the parent more than a fast env's step wherever episodes are short (CartPole: one
episode end every step or two at 16 envs). So, where the observations live in shared memory:

* the worker copies the final observation into the env's rows of leaves of their own, shaped
  like the observations' (:func:`fits_rows`: arrays of the leaves' dtypes and shapes, in plain
  dicts and tuples), writes the final info (when numeric) into slots of the info block under
  keys of their own (:data:`FINAL_PREFIX`, learned like any signature: the first final info of
  each signature travels pickled), and sets the env's ``final_state``: :data:`FINAL_EMPTY` for
  an empty final info, else its schema id. Only the reset info travels as the env's info;
* the parent adds the ``final_obs`` / ``final_info`` keys and masks where the fold of the envs'
  whole infos would put them (:func:`with_finals`), or, when some info of the step came
  pickled, rebuilds each ended env's whole info and merges them all
  (:func:`fold_finals`); ``recv`` copies the parts out when the worker finishes
  (:meth:`~vecgym.vector._async.infos.HeldInfos.hold_finals`).

Where the parts cannot go into shared memory (an observation that does not fit the leaves, a
final info that is not numeric, a reset info that has a
``final_obs`` or ``final_info`` key of its own), the whole info is pickled as before
(``final_state`` 0). Either way the batch is the one :class:`~vecgym.vector.SyncVectorEnv`
returns: keys and their order, dtypes, masks and values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from vecgym.vector._async.nested import NESTED_SEP
from vecgym.vector._async.protocol import FINAL_EMPTY
from vecgym.vector.autoreset import same_step_info

if TYPE_CHECKING:
    from vecgym.vector._async.infos import InfoRegistry, MergeInfos, Signature

__all__ = [
    "FINAL_PREFIX",
    "final_parts",
    "final_signature",
    "final_states",
    "fits_rows",
    "fold_finals",
    "row_copy",
    "strip_final",
    "with_ended",
    "with_finals",
]

FINAL_PREFIX = "_final_info/"
"""Prefixes the keys of a final info's signature (``SAME_STEP``): its values get slots apart from
the reset info's keys of the same env. No key of an info's own signature starts with ``_``."""


def final_signature(signature: Signature) -> Signature:
    """``signature`` (of a ``SAME_STEP`` final info) with its keys in the final namespace."""
    return tuple((FINAL_PREFIX + key, tag) for key, tag in signature)


def strip_final(infos: dict[str, Any]) -> dict[str, Any]:
    """Batched infos of final-namespace keys (and their masks) with the prefix removed."""
    masked = "_" + FINAL_PREFIX
    out: dict[str, Any] = {}
    for key, value in infos.items():
        if key.startswith(masked):
            out["_" + key[len(masked) :]] = value
        else:
            out[key.removeprefix(FINAL_PREFIX)] = value
    return out


def final_states(views: Any, rows: np.ndarray | None) -> np.ndarray | None:
    """A copy of ``final_state`` (the rows outside ``rows`` zeroed) when some env's episode end
    left its final observation in shared memory this command; else ``None``."""
    if views.final_observations is None:
        return None  # not SAME_STEP, or observations outside shared memory
    state = views.final_state
    if not state.any():
        return None
    finals: np.ndarray = state.copy()
    if rows is None:
        return finals
    finals[~rows] = 0
    return finals if finals.any() else None


def fits_rows(obs: Any, block: Any) -> bool:
    """Whether ``obs`` has exactly the structure of one row of ``block`` (a tree of arrays):
    arrays of the leaves' dtypes and shapes, in plain dicts with the same keys in the same order
    and in plain tuples, so that :func:`row_copy` gives back an equal value of the same types."""
    if isinstance(block, np.ndarray):
        return type(obs) is np.ndarray and obs.dtype == block.dtype and obs.shape == block.shape[1:]
    if isinstance(block, dict):
        return (
            type(obs) is dict
            and list(obs) == list(block)
            and all(fits_rows(obs[key], sub) for key, sub in block.items())
        )
    return (
        type(obs) is tuple
        and len(obs) == len(block)
        and all(fits_rows(part, sub) for part, sub in zip(obs, block, strict=True))
    )


def row_copy(block: Any, index: int) -> Any:
    """Row ``index`` of a tree of arrays, copied: arrays (0-d ones too, never numpy scalars) in
    dicts and tuples."""
    if isinstance(block, np.ndarray):
        return block[index, ...].copy()
    if isinstance(block, dict):
        return {key: row_copy(sub, index) for key, sub in block.items()}
    return tuple(row_copy(sub, index) for sub in block)


def final_parts(
    registry: InfoRegistry,
    final_observations: Any,
    index: int,
    code: int,
    generation: int,
) -> tuple[Any, dict[str, Any]]:
    """The final observation (a copy of its rows) and the final info of env ``index``, whose
    ``final_state`` is ``code``, its final info read from the slots of ``generation``."""
    final_obs = row_copy(final_observations, index)
    if code == FINAL_EMPTY:
        return final_obs, {}
    return final_obs, strip_final(registry.materialize(generation, index, code))


def with_ended(
    pickled: list[tuple[int, dict[str, Any]]],
    ended: list[tuple[int, tuple[Any, dict[str, Any]]]],
    regular: Callable[[int], dict[str, Any] | None],
) -> list[tuple[int, dict[str, Any]]]:
    """``pickled`` (``(env, info)`` pairs) with the whole info of each env of ``ended`` (``(env,
    (final observation, final info))``), as :func:`~vecgym.vector.autoreset.same_step_info`
    builds it around the env's reset info: the pickled one, or else ``regular(env)`` (the one
    in the slots; ``None``: empty). Sorted by env."""
    by_env = dict(pickled)
    for i, (final_obs, final_info) in ended:
        info = by_env.pop(i, None)
        if info is None:
            info = regular(i)
        by_env[i] = same_step_info(final_obs, final_info, info or {})
    return sorted(by_env.items(), key=lambda entry: entry[0])


def fold_finals(
    registry: InfoRegistry,
    pool: Any,
    schema_ids: np.ndarray,
    finals: np.ndarray,
    pickled: list[tuple[int, dict[str, Any]]],
) -> list[tuple[int, dict[str, Any]]]:
    """``pickled`` with the whole info of every env that ``finals`` marks (:func:`with_ended`:
    its regular info from ``pickled`` or from the slots, whose schema id is then cleared)."""
    generation_of: dict[int, int] = {}
    for k, (a, b) in enumerate(pool.slices):
        for i in (np.flatnonzero(finals[a:b]) + a).tolist():
            generation_of[i] = pool.info_sent[k]
    block = pool.views.final_observations

    def regular(i: int) -> dict[str, Any] | None:
        if not schema_ids[i]:
            return None
        info = registry.materialize(generation_of[i], i, int(schema_ids[i]))
        schema_ids[i] = 0
        return info

    ended = [
        (i, final_parts(registry, block, i, int(finals[i]), generation))
        for i, generation in generation_of.items()
    ]
    return with_ended(pickled, ended, regular)


def with_finals(
    registry: InfoRegistry,
    infos: dict[str, Any],
    schema_ids: np.ndarray | None,
    finals: np.ndarray,
    generation: int,
    views: Any,
    merge: MergeInfos,
) -> dict[str, Any]:
    """``infos`` (assembled from the slots alone, schema ids ``schema_ids``) with the
    ``final_obs`` / ``final_info`` keys and masks of the envs ``finals`` marks, placed where
    :meth:`VectorEnv._add_info` folding each env's ``end_episode`` info would put them: after
    the keys of the envs before the first ended one (those keys, each followed by its mask,
    come first in ``infos``)."""
    mask = finals != 0
    ended = np.flatnonzero(mask).tolist()
    if not ended:
        return infos
    final_obs = np.full(registry.num_envs, None, dtype=object)
    block = views.final_observations
    for i in ended:
        final_obs[i] = row_copy(block, i)
    final_info: dict[str, Any] = {}
    if any(finals[i] > 0 for i in ended):  # a final info in the slots (CartPole: none)
        with_info = np.where(finals > 0, finals, 0)
        final_info = strip_final(registry.assemble(with_info, generation, [], merge))
    finals_part = {
        "final_obs": final_obs,
        "_final_obs": mask,
        "final_info": final_info,
        "_final_info": mask.copy(),
    }
    first = ended[0]
    if not infos:
        return finals_part
    if not first:
        return {**finals_part, **infos}
    assert schema_ids is not None, "infos from the slots come with their schema ids"
    earlier: set[str] = set()
    for schema in set(schema_ids[:first].tolist()):
        if schema:
            # top-level names: a nested dict's values count once, as the dict
            earlier.update(
                key.split(NESTED_SEP, 1)[0] for key, _ in registry.layout.schemas[schema - 1]
            )
    items = list(infos.items())
    place = 2 * len(earlier)  # each key is followed by its mask
    return {**dict(items[:place]), **finals_part, **dict(items[place:])}
