"""Infos in shared memory: numeric info keys travel in buffers learned from what the envs return.

Most environments return the same few numeric keys on every step (MuJoCo's ``x_position`` /
``reward_ctrl``, Atari's ``lives`` / ``frame_number``). Pickling those per env and merging them in
the parent env by env costs more than the step of a fast env, so they get shared buffers:

* A **signature** (:func:`info_signature`) describes an info dict whose keys are strings not
  starting with ``_`` and whose values are Python ``int`` / ``float`` / ``bool``, numpy number
  scalars or numeric numpy arrays: its keys in order, each with a **tag**, the exact type of the
  value (or ``(dtype.str, shape)`` for an array). A non-empty nested dict of such values
  (``RecordEpisodeStatistics``' ``episode``) adds its values under their paths
  (:mod:`vecgym.vector._async.nested`). Anything else (``final_obs``, strings, ``np.bool_``,
  objects, empty dicts) has no signature.
* The parent's :class:`InfoRegistry` numbers the signatures the workers propose (schema ids from
  1) and gives every ``(key, tag)`` a **slot**, an array of shape ``(num_envs, *shape)`` in a
  shared info block. When a new signature appears, the block is re-created with the new slots
  (a new **generation**) and handed to each worker with its next ``STEP`` or ``RESET`` (the
  generation word in the main block tells the worker that an :class:`InfoLayout` and the block's
  descriptor follow on the pipe). A restarted worker starts at generation 0 and is handed the
  current one.
* A worker (:class:`InfoWriter`) writes an info whose signature has a schema id into the slots and
  the id into ``info_schema[env]`` (0: empty, or sent pickled); an info without a known schema is
  pickled as before, its signature proposed in the reply. Reset infos take the same path (the
  reset that replaces a restarted worker's envs sends its infos pickled, and a partial reset's
  untouched envs count as empty).
* The parent assembles a step's (or reset's) infos with one numpy operation per key and schema
  (:meth:`InfoRegistry.assemble`): the slot copied with its rows outside the mask zeroed, the
  mask ``info_schema == id``. Where a key has several tags in one step (a value that widens), or
  some env's info came pickled, the values are rebuilt with their exact types and batched by
  :meth:`VectorEnv._merge_infos`, so the result is always what :meth:`VectorEnv._add_info`
  would give env by env, Gymnasium's layout.
* ``SAME_STEP``'s ``final_obs`` / ``final_info`` have rows and slots of their own
  (:mod:`vecgym.vector._async.finals`).
"""

from __future__ import annotations

import contextlib
import math
import mmap
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vecgym.vector._async.batch import fold_replies, select_info
from vecgym.vector._async.finals import (
    FINAL_PREFIX,
    final_parts,
    final_signature,
    final_states,
    fold_finals,
    with_ended,
    with_finals,
)
from vecgym.vector._async.nested import (
    NESTED_SEP,
    flat_values,
    has_nested,
    nest_batch,
    nest_columns,
    nest_info,
    nest_plan,
)
from vecgym.vector._async.protocol import create_block, map_block
from vecgym.vector._info_merge import repeated_values, same_key_columns

__all__ = [
    "HeldInfos",
    "InfoLayout",
    "InfoRegistry",
    "InfoWriter",
    "contiguous_rows",
    "info_signature",
]

MAX_SCHEMAS = 64
"""Signatures learned at most; later ones stay on the pickled path."""
MAX_ROW_BYTES = 1 << 16
"""Bytes of all slots per env at most; keys that would exceed it stay on the pickled path."""
MAX_CACHED_SHAPES = 1024
"""Key / type combinations a worker remembers (it forgets them all when there are more)."""
_ALIGN = 64
_SCALAR_TYPES = (int, float, bool)
_NUMERIC_KINDS = frozenset("biufc")

Tag = Any  # a scalar type, or ``(dtype.str, shape)`` of an array
Signature = tuple[tuple[str, Tag], ...]
MergeInfos = Callable[[list[tuple[int, dict[str, Any]]]], dict[str, Any]]


def info_signature(info: dict[str, Any], prefix: str = "") -> Signature | None:
    """The signature of ``info`` (see the module docstring), or ``None`` when it has none.

    A nested dict (``RecordEpisodeStatistics``' ``episode``) contributes its own items, each key
    its path joined by :data:`NESTED_SEP`: ``info["episode"]["r"]`` is ``"episode\\x1fr"``. It
    must not be empty, and no key at any level may contain the separator."""
    items: list[tuple[str, Tag]] = []
    for key, value in info.items():
        if type(key) is not str or key[:1] == "_" or NESTED_SEP in key or key == "final_obs":
            return None  # (the batch of "final_obs", at any depth, is an object array)
        kind = type(value)
        if kind is dict:
            nested = info_signature(value, f"{prefix}{key}{NESTED_SEP}") if value else None
            if nested is None:
                return None
            items.extend(nested)
            continue
        key = prefix + key
        if kind is np.ndarray:
            dtype = value.dtype
            if dtype.kind not in _NUMERIC_KINDS or dtype.fields is not None:
                return None
            items.append((key, (dtype.str, value.shape)))
        elif kind in _SCALAR_TYPES or (issubclass(kind, np.number) and kind.__module__ == "numpy"):
            # numpy's own scalar types only: a tag travels to the parent, which must unpickle it
            items.append((key, kind))
        else:
            return None
    return tuple(items)


def _slot_shape_dtype(tag: Tag) -> tuple[tuple[int, ...], np.dtype[Any]]:
    if isinstance(tag, tuple):
        return tuple(tag[1]), np.dtype(tag[0])
    return (), np.dtype(tag)


def contiguous_rows(rows: list[int]) -> Any:
    """``rows`` (ascending, distinct env indices) as a slice when they are contiguous (a worker's
    whole slice or batch: basic indexing, a fraction of an index array's cost), else as an index
    array."""
    first, last = rows[0], rows[-1]
    if last - first + 1 == len(rows):
        return slice(first, last + 1)
    return np.asarray(rows, dtype=np.intp)


def _value_of(tag: Tag, row: Any) -> Any:
    """The value a slot row stands for, with the exact type the env returned."""
    if isinstance(tag, tuple):
        return np.array(row, copy=True)
    return tag(row)


@dataclass
class InfoLayout:
    """One generation of the info block: the schemas and where each slot lives.

    Attributes:
        generation: counts the layouts (1 for the first).
        num_envs: the number of envs.
        schemas: the signatures; schema id ``s`` is ``schemas[s - 1]``.
        slots: ``(key, tag) -> (byte offset, shape, dtype string)``.
        size: the block's size in bytes.
    """

    generation: int
    num_envs: int
    schemas: list[Signature] = field(default_factory=list)
    slots: dict[tuple[str, Tag], tuple[int, tuple[int, ...], str]] = field(default_factory=dict)
    size: int = _ALIGN

    def views(self, buffer: Any) -> dict[tuple[str, Tag], np.ndarray]:
        """Each slot as a ``(num_envs, *shape)`` array over ``buffer``."""
        out: dict[tuple[str, Tag], np.ndarray] = {}
        for slot, (offset, shape, dtype) in self.slots.items():
            count = self.num_envs * math.prod(shape)
            out[slot] = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).reshape(
                (self.num_envs, *shape)
            )
        return out


class InfoWriter:
    """The worker's side: writes infos with a known schema into the slots.

    Attributes:
        generation: the layout generation this worker has mapped (0: none yet).
    """

    def __init__(self) -> None:
        self.generation = 0
        self._ids: dict[Signature, int] = {}
        self._writers: dict[int, list[tuple[str, np.ndarray]]] = {}
        self._proposed: set[Signature] = set()
        self._by_types: dict[tuple[tuple[Any, ...], tuple[type, ...]], int] = {}
        self._final_by_types: dict[tuple[tuple[Any, ...], tuple[type, ...]], int] = {}
        self._block: mmap.mmap | None = None
        # The last batch write_batch wrote column by column (for _write_repeat): its schema id,
        # and its infos' keys and value types in a row, info after info.
        self._last_batch: tuple[int, list[Any], list[type]] | None = None

    def attach(self, layout: InfoLayout, fd: int) -> None:
        """Map the info block of ``layout`` (received as ``fd``) and learn its schemas."""
        block = map_block(fd, layout.size)
        views = layout.views(block)
        self._ids = {sig: i + 1 for i, sig in enumerate(layout.schemas)}
        self._writers = {  # (the key in the info, its slot): final keys lose their prefix
            i + 1: [(key.removeprefix(FINAL_PREFIX), views[(key, tag)]) for key, tag in sig]
            for i, sig in enumerate(layout.schemas)
        }
        self._block = block  # the old mapping goes with its views
        self.generation = layout.generation
        self._proposed = set()  # a proposal lost with a timed-out reply is made again
        self._by_types = {}
        self._final_by_types = {}
        self._last_batch = None

    def write(
        self, index: int, info: dict[str, Any], proposals: list[Signature], final: bool = False
    ) -> int:
        """Write ``info`` of env ``index`` into the slots; its schema id, or 0 when it must be
        pickled (its signature is then appended to ``proposals`` once). ``final``: ``info`` is
        the final info of a ``SAME_STEP`` episode end, written into slots of its own (its
        signature's keys prefixed with :data:`FINAL_PREFIX`)."""
        # Keys and value types, found at C speed, name the schema unless an array is among them
        # (its dtype and shape count too).
        shape_key = (tuple(info), tuple(map(type, info.values())))
        cache = self._final_by_types if final else self._by_types
        schema = cache.get(shape_key)
        nested = False  # only shapes without nested dicts are cached
        if schema is None:
            if len(cache) >= MAX_CACHED_SHAPES:  # infos whose keys keep changing
                cache.clear()
            nested = dict in shape_key[1]  # the nested keys count too: never cached
            signature = info_signature(info)
            if signature is None:
                if not nested:
                    cache[shape_key] = 0
                return 0
            if final:
                signature = final_signature(signature)
            schema = self._ids.get(signature, 0)
            if np.ndarray not in shape_key[1] and not nested:
                cache[shape_key] = schema
            if not schema and signature not in self._proposed:
                self._proposed.add(signature)
                proposals.append(signature)
        if schema:
            values = flat_values(info) if nested else info
            try:
                for key, view in self._writers[schema]:
                    view[index] = values[key]
            except (OverflowError, TypeError, ValueError):  # e.g. an int beyond int64
                return 0
        return schema

    def write_batch(
        self, indices: list[int], infos: list[dict[str, Any]], proposals: list[Signature]
    ) -> list[int]:
        """:meth:`write` for the infos of several envs (``indices[k]`` returned ``infos[k]``): the
        schema id of each. When they all have the same keys in the same order (a schema names its
        keys in order, and an info rebuilt from the slots has that order), each key's values of
        one type and a known schema, each slot is written once for all of them (one numpy
        assignment per key instead of one per key and env); anything else goes env by env. A
        batch that repeats the last one written so (the per-step infos of MuJoCo and Atari envs)
        is checked in two passes over all its keys and value types (:meth:`_write_repeat`)."""
        count = len(infos)
        if count > 1:
            repeated = self._write_repeat(indices, infos)
            if repeated:
                return [repeated] * count
            found = same_key_columns(infos, ordered=True)
            if found is not None:
                keys, columns = found
                kinds = [set(map(type, column)) for column in columns]
                if all(len(kind) == 1 for kind in kinds):
                    shape_key = (tuple(keys), tuple(kind.pop() for kind in kinds))
                    schema = self._by_types.get(shape_key)  # never cached with arrays among them
                    if schema == 0:
                        return [0] * count
                    if schema is not None and self._write_columns(schema, indices, columns):
                        keys_in_row, kinds_in_row = list(shape_key[0]), list(shape_key[1])
                        self._last_batch = (schema, keys_in_row * count, kinds_in_row * count)
                        return [schema] * count
        return [self.write(i, info, proposals) for i, info in zip(indices, infos, strict=True)]

    def _write_repeat(self, indices: list[int], infos: list[dict[str, Any]]) -> int:
        """Write ``infos`` column by column when they repeat the last batch written so
        (``_last_batch``, checked by :func:`~vecgym.vector._info_merge.repeated_values`): the
        schema id, or 0 (nothing written) when they do not repeat it or a value does not fit."""
        if self._last_batch is None:
            return 0
        schema, keys, kinds = self._last_batch
        values = repeated_values(infos, keys, kinds)
        if values is None:
            return 0
        width = len(keys) // len(infos)
        columns = [values[j::width] for j in range(width)]
        return schema if self._write_columns(schema, indices, columns) else 0

    def _write_columns(self, schema: int, indices: list[int], columns: list[Any]) -> bool:
        """Write one column of scalars of one type per slot of ``schema``; ``False`` when a value
        does not fit (e.g. an int beyond int64: those infos then go env by env)."""
        rows = contiguous_rows(indices)
        try:
            for (_, view), column in zip(self._writers[schema], columns, strict=True):
                view[rows] = column
        except (OverflowError, TypeError, ValueError):
            return False
        return True


class InfoRegistry:
    """The parent's side: the schemas, the info block of each generation, and the assembly.

    Args:
        num_envs: the number of envs.
    """

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs
        self.layout = InfoLayout(0, num_envs)
        self.fd: int | None = None
        self._views: dict[int, dict[tuple[str, Tag], np.ndarray]] = {0: {}}
        self._mappings: list[mmap.mmap] = []
        self._uniform_ids: dict[int, bytes] = {}
        # usual_infos' plan: the schema ids' bytes it is for, and (key, mask key, slot) to copy,
        # () for empty infos or None for the general assembly. Forgotten by a new generation.
        self._usual: tuple[bytes, tuple[tuple[str, str, np.ndarray], ...] | None] | None = None

    @property
    def generation(self) -> int:
        """The current layout generation (0 before anything was learned)."""
        return self.layout.generation

    def views(self, generation: int) -> dict[tuple[str, Tag], np.ndarray]:
        """The slots of ``generation`` (workers still on an older one write there)."""
        return self._views[generation]

    def learn(self, proposals: list[Signature]) -> bool:
        """Register the new signatures of ``proposals``; whether a new generation was made."""
        layout = self.layout
        schemas = list(layout.schemas)
        slots = dict(layout.slots)
        row_bytes = sum(
            math.prod(shape) * np.dtype(dtype).itemsize for _, shape, dtype in slots.values()
        )
        added = False
        for signature in proposals:
            if signature in schemas or len(schemas) >= MAX_SCHEMAS:
                continue
            new = [slot for slot in signature if slot not in slots]
            extra = 0
            for slot in new:
                shape, dtype = _slot_shape_dtype(slot[1])
                extra += math.prod(shape) * dtype.itemsize
            if row_bytes + extra > MAX_ROW_BYTES:
                continue
            for slot in new:
                slot_shape, slot_dtype = _slot_shape_dtype(slot[1])
                slots[slot] = (0, slot_shape, slot_dtype.str)
            row_bytes += extra
            schemas.append(signature)
            added = True
        if not added:
            return False
        offset = 0
        for slot, (_, slot_shape, dtype_str) in slots.items():
            offset = (offset + _ALIGN - 1) // _ALIGN * _ALIGN
            slots[slot] = (offset, slot_shape, dtype_str)
            offset += max(1, self.num_envs * math.prod(slot_shape) * np.dtype(dtype_str).itemsize)
        size = max(_ALIGN, (offset + _ALIGN - 1) // _ALIGN * _ALIGN)
        new_layout = InfoLayout(layout.generation + 1, self.num_envs, schemas, slots, size)
        fd, block = create_block(size)
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
        self.fd = fd
        self._mappings.append(block)
        self._views[new_layout.generation] = new_layout.views(block)
        self.layout = new_layout
        self._usual = None
        return True

    def usual_infos(self, schema_ids: np.ndarray) -> dict[str, Any] | None:
        """The batched infos of the usual step (:mod:`vecgym.vector._async.usual`): every env
        stepped, every worker writing with the current generation, no reply, no ``SAME_STEP``
        final left in shared memory. What :func:`step_infos` assembles then, when every env's
        ``schema_ids`` entry is the same flat signature (or 0: ``{}``), in fewer calls: the plan
        for these ids is kept from step to step, and the masks are the rows of one block. ``None``
        for any other ids: :func:`step_infos` then.

        Args:
            schema_ids: each env's schema id this step (the shared ``info_schema``, read only).
        """
        key = schema_ids.tobytes()
        usual = self._usual
        if usual is None or usual[0] != key:
            usual = self._usual = (key, self._usual_plan(schema_ids))
        plan = usual[1]
        if plan is None:
            return None
        if not plan:
            return {}
        infos: dict[str, Any] = {}
        masks = np.ones((len(plan), self.num_envs), dtype=np.bool_)
        for (name, mask_name, slot), mask in zip(plan, masks, strict=True):
            infos[name] = slot.copy()
            infos[mask_name] = mask
        return infos

    def _usual_plan(self, schema_ids: np.ndarray) -> tuple[tuple[str, str, np.ndarray], ...] | None:
        """The columns of :meth:`usual_infos` for ``schema_ids``: ``()`` when all are 0, the
        signature's ``(key, "_" + key, slot)`` when all are one flat signature, else ``None``."""
        first = int(schema_ids[0])
        if (schema_ids != first).any():
            return None
        if first == 0:
            return ()
        signature = self.layout.schemas[first - 1]
        if has_nested([key for key, _ in signature]):
            return None
        slots = self._views[self.layout.generation]
        return tuple((key, f"_{key}", slots[(key, tag)]) for key, tag in signature)

    def close(self) -> None:
        """Close the descriptor of the current block (the mappings go with the registry)."""
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None

    def _uniform(self, schema: int, schema_ids: np.ndarray) -> bytes:
        """The bytes of ``schema_ids`` when every env has schema id ``schema``: one ``bytes``
        comparison tests a step for it, a fraction of an element-wise test's cost on the cold
        caches a step of real envs leaves."""
        uniform = self._uniform_ids.get(schema)
        if uniform is None:
            uniform = np.full(len(schema_ids), schema, dtype=schema_ids.dtype).tobytes()
            self._uniform_ids[schema] = uniform
        return uniform

    def materialize(self, generation: int, index: int, schema: int) -> dict[str, Any]:
        """The info dict env ``index`` returned, rebuilt from the slots of ``generation``."""
        views = self._views[generation]
        signature = self.layout.schemas[schema - 1]
        info = {key: _value_of(tag, views[(key, tag)][index]) for key, tag in signature}
        return nest_info(info) if has_nested(info) else info

    def assemble(
        self,
        schema_ids: np.ndarray,
        generation: int,
        pickled: list[tuple[int, dict[str, Any]]],
        merge: MergeInfos,
    ) -> dict[str, Any]:
        """The batched infos of a step of every env.

        Args:
            schema_ids: each env's schema id this step (0: empty or in ``pickled``).
            generation: the layout generation the workers wrote with.
            pickled: the pickled infos, ``(env_index, info)`` in env order.
            merge: :meth:`VectorEnv._merge_infos`, for what is not a plain slot copy.
        """
        first_id = int(schema_ids[0])
        slots = self._views[generation]
        if first_id and not pickled and schema_ids.tobytes() == self._uniform(first_id, schema_ids):
            # The usual step: every env returned the same keys with the same types.
            return one_schema_infos(self.layout.schemas[first_id - 1], slots, None, self.num_envs)
        in_shm = np.flatnonzero(schema_ids)
        if in_shm.size == 0:
            return merge(pickled) if pickled else {}
        ids = schema_ids[in_shm]
        first_id = int(ids[0])
        if not pickled and (ids == first_id).all():
            # A step where some envs returned one signature and the others nothing (episode ends
            # with RecordEpisodeStatistics): the general path below, without its grouping.
            return some_envs_infos(self.layout.schemas[first_id - 1], slots, in_shm, self.num_envs)
        if pickled:
            rebuilt = self._rebuilt(generation, schema_ids, in_shm)
            entries = sorted([*pickled, *rebuilt], key=lambda entry: entry[0])
            return merge(entries)
        views = slots
        schemas = self.layout.schemas  # (two schemas at least from here on)
        ids, first = np.unique(ids, return_index=True)
        order = ids[np.argsort(first)].tolist()
        uses: dict[str, list[tuple[Tag, int]]] = {}
        for schema in order:
            for key, tag in schemas[schema - 1]:
                uses.setdefault(key, []).append((tag, schema))
        infos = {}
        num_envs = self.num_envs
        for key, key_uses in uses.items():
            mask = np.isin(schema_ids, [schema for _, schema in key_uses])
            tags = {tag for tag, _ in key_uses}
            if len(tags) > 1:  # the value's type changes between envs: rebuild and merge
                column = []
                for i in np.flatnonzero(mask).tolist():
                    env_tag = tag_of(schemas[int(schema_ids[i]) - 1], key)
                    column.append((i, {key: _value_of(env_tag, views[(key, env_tag)][i])}))
                infos.update(merge(column))
                continue
            tag = key_uses[0][0]
            slot = views[(key, tag)]
            if mask.all():
                array = slot.copy()
            else:
                shape, dtype = _slot_shape_dtype(tag)
                array = np.zeros((num_envs, *shape), dtype=dtype)
                array[mask] = slot[mask]
            infos[key] = array
            infos[f"_{key}"] = mask
        if not has_nested(uses):
            return infos
        nested = nest_batch(infos)
        if nested is None:  # a name both a value and a nested dict: batched env by env
            return merge(self._rebuilt(generation, schema_ids, in_shm))
        return nested

    def _rebuilt(
        self, generation: int, schema_ids: np.ndarray, envs: np.ndarray
    ) -> list[tuple[int, dict[str, Any]]]:
        """``(env, info)`` of each env of ``envs``, rebuilt from the slots of ``generation``
        (:meth:`materialize`)."""
        return [(i, self.materialize(generation, i, int(schema_ids[i]))) for i in envs.tolist()]


class HeldInfos:
    """Numeric infos of envs stepped through ``send`` / ``recv``, held between the moment their
    worker finished and the ``recv`` that returns them; assembled per batch.

    They are held where the worker wrote them, in the shared slots of the layout generation it
    wrote with: only their schema ids and that generation are noted when the worker finishes, and
    the values are read (copied) when a ``recv`` takes them. Nothing can overwrite them meanwhile.
    A worker writes an env's rows only when it steps or resets that env, and each way to that
    forgets the env's held info first: a ``send`` of it (see ``Scheduler.send``), a ``step`` or
    ``reset`` of every env, or the replacement of its worker. The blocks of older generations stay
    mapped for the registry's life, so a generation learned meanwhile changes nothing either.

    Args:
        registry: the parent's registry.
    """

    def __init__(self, registry: InfoRegistry) -> None:
        self.registry = registry
        num_envs = registry.num_envs
        self.schema = np.zeros(num_envs, dtype=np.int64)
        """Each env's held schema id (0: nothing held in this form)."""
        self.generation = np.zeros(num_envs, dtype=np.int64)
        self.finals: dict[int, tuple[Any, dict[str, Any]]] = {}
        """``SAME_STEP`` episode ends: env -> its final observation and final info."""

    def hold(self, generation: int, rows: list[int], schema_ids: np.ndarray) -> None:
        """Hold the infos the worker just wrote for ``rows`` into the slots of ``generation``:
        note their schema ids (``schema_ids``, indexed by env) and the generation."""
        if not rows or not self.registry.layout.schemas:
            return  # nothing can be in the slots before a schema is learned (envs with empty infos)
        envs: Any = contiguous_rows(rows)
        self.schema[envs] = schema_ids[envs]
        self.generation[envs] = generation

    def hold_finals(self, generation: int, rows: list[int], views: Any) -> None:
        """Copy out the final observations and final infos that ``SAME_STEP`` episode ends of
        ``rows`` left in shared memory (``views.final_state``, slots of ``generation``)."""
        if views.final_observations is None or not rows:
            return
        codes = views.final_state[contiguous_rows(rows)]
        if not codes.any():
            return
        for i, code in zip(rows, codes.tolist(), strict=True):
            if code:
                self.finals[i] = final_parts(
                    self.registry, views.final_observations, i, code, generation
                )

    def forget(self, rows: Any) -> None:
        """Drop what is held for ``rows`` (sent again, replaced, or discarded)."""
        self.schema[rows] = 0
        if self.finals:
            if isinstance(rows, slice):
                self.finals.clear()  # only ever slice(None)
            else:
                for i in np.asarray(rows, dtype=np.intp).tolist():
                    self.finals.pop(i, None)

    def _with_finals(
        self, take: list[int], pickled: list[tuple[int, dict[str, Any]]]
    ) -> list[tuple[int, dict[str, Any]]]:
        """``pickled`` with the whole info of every env of ``take`` whose episode end is held
        (:func:`~vecgym.vector._async.finals.with_ended`: its regular info pickled or held, and
        then forgotten)."""
        ended = [(i, parts) for i in take if (parts := self.finals.pop(i, None)) is not None]
        return with_ended(pickled, ended, self._take_one)

    def _take_one(self, i: int) -> dict[str, Any] | None:
        """Env ``i``'s held info (``None``: none held), forgotten once taken."""
        schema = int(self.schema[i])
        if not schema:
            return None
        self.schema[i] = 0
        return self.registry.materialize(int(self.generation[i]), i, schema)

    def take(
        self, take: list[int], pickled: list[tuple[int, dict[str, Any]]], merge: MergeInfos
    ) -> dict[str, Any]:
        """The batched infos of the envs ``take`` (ascending), one row per env of ``take``: the
        held ones assembled per key (:meth:`InfoRegistry.assemble`), merged with ``pickled``
        (``(env, info)`` in env order) where there are both, as ``merge`` batches them for
        every env, then the rows of ``take`` (:func:`~vecgym.vector._async.batch.select_info`).
        A batch held with one schema takes a shorter way to the same result. What is taken is
        forgotten."""
        if not take:
            return {}
        if self.finals:
            pickled = self._with_finals(take, pickled)
        if not pickled and not self.registry.layout.schemas:  # no schema learned: none held
            return {}
        rows: Any = contiguous_rows(take)
        ids = self.schema[rows]
        first = int(ids[0])
        if not first and not pickled and not ids.any():
            return {}  # nothing held (envs with empty infos), nothing pickled
        if first and not pickled and (ids == first).all():
            generations = self.generation[rows]
            generation = int(generations[0])
            if (generations == generation).all():
                # The usual batch: every env held with one schema. Its rows straight from the
                # slots, as the general path below would select them.
                self.schema[rows] = 0
                signature = self.registry.layout.schemas[first - 1]
                return one_schema_infos(signature, self.registry.views(generation), rows, len(take))
        envs = np.asarray(take, dtype=np.intp)
        return select_info(self._take_every_env(envs, pickled, merge), envs)

    def _take_every_env(
        self,
        envs: np.ndarray,
        pickled: list[tuple[int, dict[str, Any]]],
        merge: MergeInfos,
    ) -> dict[str, Any]:
        """:meth:`take`'s infos at every env's width (before the batch's rows are selected)."""
        ids = self.schema[envs]
        held = envs[ids != 0]
        self.schema[envs] = 0
        if held.size == 0:
            return merge(pickled) if pickled else {}
        generations = set(self.generation[held].tolist())
        schema_ids = np.zeros(self.registry.num_envs, dtype=np.int64)
        schema_ids[envs] = ids
        if len(generations) == 1:
            generation = generations.pop()
            return self.registry.assemble(schema_ids, generation, pickled, merge)
        rebuilt = [
            (i, self.registry.materialize(gen, i, int(schema_ids[i])))
            for i, gen in zip(held.tolist(), self.generation[held].tolist(), strict=True)
        ]
        return merge(sorted([*pickled, *rebuilt], key=lambda entry: entry[0]))


def one_schema_infos(
    signature: Signature,
    slots: dict[tuple[str, Tag], np.ndarray],
    rows: Any,
    count: int,
) -> dict[str, Any]:
    """The batched infos of ``count`` envs that all returned the keys and types of
    ``signature``: each key's values, rows ``rows`` of its slot (``None``: the whole slot; else
    a slice or an index array), in a new array, and a mask of its own, all ``True``."""
    copy = not isinstance(rows, np.ndarray)  # (an index array's rows are a new array already)
    columns = {}
    for key, tag in signature:
        slot = slots[(key, tag)]
        column = slot if rows is None else slot[rows]
        columns[key] = column.copy() if copy else column  # never a view
    return _with_masks(columns, np.ones(count, dtype=np.bool_))


def some_envs_infos(
    signature: Signature,
    slots: dict[tuple[str, Tag], np.ndarray],
    rows: np.ndarray,
    num_envs: int,
) -> dict[str, Any]:
    """The batched infos of a step of every env where only the envs ``rows`` returned an info,
    all with the keys and types of ``signature`` (episode ends with ``RecordEpisodeStatistics``):
    each key's array holds their rows and zeros elsewhere, its mask is ``True`` at ``rows``."""
    columns = {}
    for key, tag in signature:
        slot = slots[(key, tag)]
        column = np.zeros_like(slot)
        column[rows] = slot[rows]
        columns[key] = column
    mask = np.zeros(num_envs, dtype=np.bool_)
    mask[rows] = True
    return _with_masks(columns, mask)


def _with_masks(columns: dict[str, np.ndarray], mask: np.ndarray) -> dict[str, Any]:
    """The columns of one signature, each followed by its own copy of ``mask``, in the nested
    layout where the signature has paths (:func:`~vecgym.vector._async.nested.nest_plan`)."""
    plan = nest_plan(tuple(columns))
    if plan is not None:
        return nest_columns(plan, columns, mask)
    infos: dict[str, Any] = {}
    for key, column in columns.items():
        infos[key] = column
        infos[f"_{key}"] = mask.copy()  # each key owns its mask; a copy beats np.ones
    return infos


def tag_of(signature: Signature, key: str) -> Tag:
    """The tag of ``key`` in ``signature``."""
    for name, tag in signature:
        if name == key:
            return tag
    raise KeyError(key)


def step_infos(
    registry: InfoRegistry,
    pool: Any,
    replies: list[tuple[int, Any]],
    restarted: list[int],
    last_obs: list[Any],
    merge: MergeInfos,
    rows: np.ndarray | None = None,
) -> tuple[dict[str, Any], bool]:
    """The batched infos of a ``step`` (or ``reset``) of every env (:meth:`InfoRegistry.assemble`),
    with the replies' observations folded into ``last_obs`` and their proposals learned
    afterwards. ``SAME_STEP`` episode ends left in shared memory (``final_state``) add their
    ``final_obs`` / ``final_info`` keys (:func:`with_finals`).

    Args:
        registry: the parent's registry.
        pool: the worker pool (its slices, views and the generation handed to each worker).
        replies: ``(worker, reply)`` in worker order.
        restarted: the workers replaced during this step (their envs' infos are in the replies).
        last_obs: observations by env, for spaces outside shared memory.
        merge: :meth:`VectorEnv._merge_infos`.
        rows: the envs this command ran on (a reset's mask); the other envs' schema ids are
            left from an earlier command and count as empty. ``None``: every env.

    Returns:
        ``(infos, changed)``: ``changed`` when some reply carried observations.
    """
    finals = final_states(pool.views, rows)
    if finals is None and not replies and not registry.layout.schemas:
        return {}, False  # the usual step of envs with empty infos
    pickled, changed = fold_replies(replies, last_obs)
    proposals = [sig for _, reply in replies for sig in reply.info_schemas or ()]
    if not registry.layout.schemas and (finals is None or not (pickled or restarted)):
        # nothing learned yet (e.g. empty infos): all came pickled, or (CartPole's SAME_STEP
        # episode ends) the final observations alone are in shared memory
        if proposals:
            registry.learn(proposals)
        if finals is not None:
            return with_finals(registry, {}, None, finals, 0, pool.views, merge), changed
        return (merge(pickled) if pickled else {}), changed
    schema_ids = pool.views.info_schema.copy()
    if rows is not None:
        schema_ids[~rows] = 0
    generations = set(pool.info_sent)
    if restarted or len(generations) > 1:
        # Only the workers whose rows hold schema ids this time count.
        generations = set()
        for k, (a, b) in enumerate(pool.slices):
            if k in restarted:  # rows of a worker that died mid-step; its reset is pickled
                schema_ids[a:b] = 0
                if finals is not None:
                    finals[a:b] = 0
            elif schema_ids[a:b].any() or (finals is not None and finals[a:b].any()):
                generations.add(pool.info_sent[k])
        if finals is not None and not finals.any():
            finals = None  # the episode ends were all in the restarted workers' rows
    if finals is not None and (pickled or len(generations) > 1):
        # The rare mix: each ended env's whole info rebuilt as AutoresetEnv.end_episode builds
        # it, among the pickled ones (its regular keys no longer counted from the slots).
        pickled = fold_finals(registry, pool, schema_ids, finals, pickled)
        finals = None
    if len(generations) <= 1:
        generation = generations.pop() if generations else 0
        infos = registry.assemble(schema_ids, generation, pickled, merge)
        if finals is not None:
            infos = with_finals(registry, infos, schema_ids, finals, generation, pool.views, merge)
    else:  # workers on different layouts (one was handed a new one late): rebuild each env
        rebuilt = [
            (i, registry.materialize(pool.info_sent[k], i, int(schema_ids[i])))
            for k, (a, b) in enumerate(pool.slices)
            for i in range(a, b)
            if schema_ids[i]
        ]
        entries = sorted([*pickled, *rebuilt], key=lambda entry: entry[0])
        infos = merge(entries) if entries else {}
    if proposals:
        registry.learn(proposals)
    return infos, changed
