"""The typed protocol between :class:`~vecgym.vector.AsyncVectorEnv` and its worker processes.

Two channels connect the parent with worker ``k``:

* a **shared block** (one memory mapping, see :class:`SharedLayout`) holding the per-worker command
  word, done word and info-layout generation word, the per-env step mask, rewards, terminations,
  truncations, info schema ids (:mod:`vecgym.vector._async.infos`) and final states
  (:mod:`vecgym.vector._async.finals`) and, for
  fixed-size spaces, every leaf of the batched observations and actions (and, in ``SAME_STEP``
  mode, a second set of observation leaves for the observation each env's episode ended on);
* a **pipe** carrying the (rare) pickled messages: :class:`Request` from parent to worker and
  :class:`Reply` from worker to parent.

A command is posted by writing ``pack_command(seq, command)`` into the worker's command word and
releasing its wake-up semaphore; when :attr:`Command.STEP` needs no arguments beyond the shared
block, nothing else is sent, otherwise a :class:`Request` follows on the pipe (after the wake-up, so
that a large request can never fill the pipe while the worker sleeps). A worker reports completion
by writing ``pack_done(seq, has_reply)`` into its done word and releasing the parent's semaphore;
when ``has_reply`` is set, one :class:`Reply` (with the same ``seq``) follows on the pipe. Every
command carries a sequence number, so a reply that arrives after its ``*_wait`` timed out is
recognised and discarded rather than taken for the answer to the next command.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import math
import mmap
import os
import pickle
import tempfile
import traceback
from dataclasses import dataclass, field
from multiprocessing.reduction import ForkingPickler
from typing import Any

import numpy as np

__all__ = [
    "FINAL_EMPTY",
    "Command",
    "Hello",
    "LocalEnd",
    "RemoteError",
    "Reply",
    "Request",
    "SharedLayout",
    "SharedViews",
    "is_done",
    "leaf_tree",
    "local_pipe",
    "pack_command",
    "pack_done",
    "pickle_for_pipe",
    "unpack_command",
    "unpack_done",
    "yield_cpu",
]

_SEQ_SHIFT = 8
_COMMAND_MASK = (1 << _SEQ_SHIFT) - 1
_DONE_SHIFT = 2
HAS_REPLY = 1
FINAL_EMPTY = -1
"""``final_state`` of an env whose ``SAME_STEP`` episode end left its final observation in shared
memory and whose final info was empty."""
_ALIGN = 64  # one cache line: each array starts on its own line


class Command(enum.IntEnum):
    """What a worker is asked to do; the value is stored in its shared command word."""

    STEP = 1
    """Step the envs whose ``step_mask`` entry is set (actions in shared memory or the request)."""
    RESET = 2
    """Reset the envs of the request's mask with its seeds and options."""
    CALL = 3
    """Call (or read) an attribute of each env of the request's indices."""
    SET_ATTR = 4
    """Set an attribute of each env of the request's indices."""
    ATTACH = 5
    """Map the shared block whose file descriptor follows on the pipe."""
    CLOSE = 6
    """Close the envs and exit."""


def _yield_cpu() -> None:
    """Offer the CPU to another runnable process (``sched_yield``), where the platform has it."""
    os.sched_yield()


#: Called on every turn of a spin-wait: a spinner that yields lets a runnable worker or parent
#: have its core at once, so spinning never starves the processes it waits for, even when there
#: are more of them than cores (a pure busy-wait does: ~1k CartPole steps/s in the prototype).
yield_cpu = _yield_cpu if hasattr(os, "sched_yield") else (lambda: None)


class LocalEnd:
    """One end of an in-process pipe (:func:`local_pipe`): the channel between the parent and
    the envs it steps itself (``AsyncVectorEnv(parent_envs=...)``). Messages are passed by
    reference, never pickled; a file descriptor is passed as a duplicate, as ``send_handle``
    would."""

    __slots__ = ("_inbox", "_outbox", "closed")

    def __init__(self, inbox: collections.deque[Any], outbox: collections.deque[Any]) -> None:
        self._inbox = inbox
        self._outbox = outbox
        self.closed = False

    def send(self, message: Any) -> None:
        """Queue ``message`` for the other end."""
        self._outbox.append(message)

    def recv(self) -> Any:
        """The oldest message from the other end (``EOFError`` when there is none)."""
        if not self._inbox:
            raise EOFError("nothing was sent on this in-process channel")
        return self._inbox.popleft()

    def poll(self, timeout: float | None = 0.0) -> bool:
        """Whether a message is waiting (never blocks: the other end runs in this thread)."""
        return bool(self._inbox)

    def send_fd(self, fd: int) -> None:
        """Pass a duplicate of ``fd`` (the receiver owns and closes it)."""
        self._outbox.append(os.dup(fd))

    def close(self) -> None:
        """Drop what is queued (closing a descriptor never received); closing twice is
        harmless."""
        self.closed = True
        while self._inbox:
            message = self._inbox.popleft()
            if type(message) is int:  # a duplicate from send_fd
                with contextlib.suppress(OSError):
                    os.close(message)


def local_pipe() -> tuple[LocalEnd, LocalEnd]:
    """Two connected :class:`LocalEnd` objects: ``(parent's end, slice's end)``."""
    to_slice: collections.deque[Any] = collections.deque()
    to_parent: collections.deque[Any] = collections.deque()
    return LocalEnd(to_parent, to_slice), LocalEnd(to_slice, to_parent)


def pack_command(seq: int, command: Command) -> int:
    """The shared command word of command ``command`` with sequence number ``seq``."""
    return (seq << _SEQ_SHIFT) | int(command)


def unpack_command(word: int) -> tuple[int, Command]:
    """Inverse of :func:`pack_command`."""
    return word >> _SEQ_SHIFT, Command(word & _COMMAND_MASK)


def pack_done(seq: int, has_reply: bool) -> int:
    """The shared done word saying that command ``seq`` finished (and whether a reply follows)."""
    return (seq << _DONE_SHIFT) | (HAS_REPLY if has_reply else 0)


def unpack_done(word: int) -> tuple[int, bool]:
    """Inverse of :func:`pack_done`."""
    return word >> _DONE_SHIFT, bool(word & HAS_REPLY)


def is_done(word: int, seq: int) -> bool:
    """Whether the done word ``word`` says that command ``seq`` finished."""
    return word >> _DONE_SHIFT == seq


# --- messages -----------------------------------------------------------------------------------
@dataclass
class Request:
    """A command's arguments that do not live in shared memory.

    Attributes:
        seq: the command's sequence number.
        command: the command.
        payload: per-command arguments (see the worker's handlers).
    """

    seq: int
    command: Command
    payload: Any = None


@dataclass
class RemoteError:
    """An exception raised inside a worker, packed for the trip to the parent.

    Attributes:
        env_index: the index (in the vector env) of the env that raised, or ``None``.
        type_name: the qualified name of the exception's type.
        message: ``str(exception)``.
        traceback_text: the formatted remote traceback.
        pickled: the pickled exception, or ``None`` where it could not be pickled and unpickled.
    """

    env_index: int | None
    type_name: str
    message: str
    traceback_text: str
    pickled: bytes | None = None

    @classmethod
    def capture(cls, exc: BaseException, env_index: int | None) -> RemoteError:
        """Pack ``exc`` (call inside the ``except`` block that caught it)."""
        exc_type = type(exc)
        type_name = f"{exc_type.__module__}.{exc_type.__qualname__}"
        text = "".join(traceback.format_exception(exc_type, exc, exc.__traceback__))
        pickled: bytes | None
        try:
            pickled = pickle.dumps(exc)
            pickle.loads(pickled)  # some exceptions pickle but cannot be rebuilt
        except Exception:
            pickled = None
        return cls(env_index, type_name, str(exc), text, pickled)


def pickle_for_pipe(message: Any, context: str) -> memoryview:
    """``message`` pickled as ``Connection.send`` pickles it, for ``Connection.send_bytes``.

    Pickling before anything is posted keeps the two ends in step: a message that cannot be
    pickled (a lock, a generator, a local class) raises here, before the other end was told to
    expect it, as an exception of the type pickling raised (``TypeError`` where that type takes
    other arguments), its message followed by ``context``."""
    try:
        return ForkingPickler.dumps(message)  # a view of its buffer: not copied again
    except Exception as exc:
        text = f"{exc} ({context})"
        try:
            wrapped = type(exc)(text)
        except Exception:
            wrapped = TypeError(text)
        raise wrapped from exc


@dataclass
class Reply:
    """A worker's answer to one command, sent only when it has something to say.

    Attributes:
        seq: the sequence number of the command answered.
        infos: ``(env_index, info)`` for each env whose info is non-empty, in env order.
        observations: ``(env_index, obs)`` pairs when observations do not live in shared memory.
        results: per-env results of a ``CALL``.
        error: the exception that stopped the command, if any.
        info_schemas: signatures of infos that had no shared-memory schema yet (see
            :mod:`vecgym.vector._async.infos`), proposed to the parent.
    """

    seq: int
    infos: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    observations: list[tuple[int, Any]] | None = None
    results: list[Any] | None = None
    error: RemoteError | None = None
    info_schemas: list[Any] | None = None


@dataclass
class Hello:
    """Worker 0's first message: what the parent needs to know before it allocates shared memory.

    Attributes:
        observation_space: the first env's observation space.
        action_space: the first env's action space.
        metadata: the first env's metadata.
        render_mode: the first env's render mode.
        error: set instead when the worker could not build its envs.
    """

    observation_space: Any = None
    action_space: Any = None
    metadata: dict[str, Any] = field(default_factory=dict)
    render_mode: str | None = None
    error: RemoteError | None = None


# --- shared memory layout -----------------------------------------------------------------------
Leaf = tuple[tuple[int, ...], str]
"""A fixed-size leaf of a space: its (unbatched) shape and numpy dtype string."""


def leaf_tree(space: Any) -> Any:
    """The fixed-size structure of ``space``, or ``None`` where it is not fixed-size.

    Box, Discrete, MultiDiscrete and MultiBinary are leaves (``(shape, dtype)``); Tuple and Dict of
    those are tuples and dicts of leaves. Anything else (Text, Sequence, Graph, OneOf, custom
    spaces) has values whose size varies, so it cannot live in a preallocated buffer.
    """
    from vecgym.core.spaces.box import Box
    from vecgym.core.spaces.dict import Dict
    from vecgym.core.spaces.discrete import Discrete
    from vecgym.core.spaces.multi_binary import MultiBinary
    from vecgym.core.spaces.multi_discrete import MultiDiscrete
    from vecgym.core.spaces.tuple import Tuple

    if isinstance(space, (Box, MultiDiscrete, MultiBinary)):
        return (tuple(space.shape), np.dtype(space.dtype).str)
    if isinstance(space, Discrete):
        return ((), np.dtype(space.dtype).str)
    if isinstance(space, Tuple):
        children = tuple(leaf_tree(sub) for sub in space.spaces)
        return None if any(child is None for child in children) else children
    if isinstance(space, Dict):
        items = {key: leaf_tree(sub) for key, sub in space.spaces.items()}
        return None if any(child is None for child in items.values()) else items
    return None


def _flat_leaves(tree: Any) -> list[Leaf]:
    if isinstance(tree, dict):
        return [leaf for child in tree.values() for leaf in _flat_leaves(child)]
    if _is_leaf(tree):
        return [tree]
    return [leaf for child in tree for leaf in _flat_leaves(child)]


def _is_leaf(tree: Any) -> bool:
    return (
        isinstance(tree, tuple)
        and len(tree) == 2
        and isinstance(tree[0], tuple)
        and isinstance(tree[1], str)
    )


def _align(offset: int) -> int:
    return (offset + _ALIGN - 1) // _ALIGN * _ALIGN


@dataclass
class SharedLayout:
    """Where each array lives in the shared block; identical in the parent and every worker.

    Attributes:
        num_envs: the number of envs.
        num_workers: the number of workers.
        obs_tree: :func:`leaf_tree` of the observation space, or ``None`` (observations by pipe).
        action_tree: :func:`leaf_tree` of the action space, or ``None`` (actions by pipe).
        final_obs: whether to give the ``SAME_STEP`` final observations leaves of their own,
            shaped like the observations' (only where those are in shared memory).
        offsets: name -> byte offset, filled by :meth:`plan`.
        size: total size in bytes.
    """

    num_envs: int
    num_workers: int
    obs_tree: Any
    action_tree: Any
    final_obs: bool = False
    offsets: dict[str, int] = field(default_factory=dict)
    size: int = 0

    @property
    def has_final_obs(self) -> bool:
        """Whether the block holds a final-observation row per env."""
        return self.final_obs and self.obs_tree is not None

    def _arrays(self) -> list[tuple[str, tuple[int, ...], str]]:
        n, w = self.num_envs, self.num_workers
        arrays: list[tuple[str, tuple[int, ...], str]] = [
            ("command", (w,), "<i8"),
            ("done", (w,), "<i8"),
            ("step_mask", (n,), "|b1"),
            ("rewards", (n,), "<f8"),
            ("terminated", (n,), "|b1"),
            ("truncated", (n,), "|b1"),
            ("info_schema", (n,), "<i4"),
            ("final_state", (n,), "<i4"),
            ("info_gen", (w,), "<i8"),
            ("actions_piped", (w,), "|b1"),
        ]
        final_tree = self.obs_tree if self.has_final_obs else None
        trees = (("obs", self.obs_tree), ("action", self.action_tree), ("final", final_tree))
        for prefix, tree in trees:
            if tree is not None:
                for i, (shape, dtype) in enumerate(_flat_leaves(tree)):
                    arrays.append((f"{prefix}{i}", (n, *shape), dtype))
        return arrays

    def plan(self) -> SharedLayout:
        """Compute :attr:`offsets` and :attr:`size`; returns ``self``."""
        offset = 0
        for name, shape, dtype in self._arrays():
            offset = _align(offset)
            self.offsets[name] = offset
            offset += max(1, math.prod(shape)) * np.dtype(dtype).itemsize
        self.size = _align(offset) or _ALIGN
        return self

    def views(self, buffer: Any) -> SharedViews:
        """Numpy views of every array of the layout over ``buffer``."""
        flat: dict[str, np.ndarray] = {}
        for name, shape, dtype in self._arrays():
            count = math.prod(shape)
            flat[name] = np.frombuffer(
                buffer, dtype=dtype, count=count, offset=self.offsets[name]
            ).reshape(shape)
        obs_leaves = (
            [flat[f"obs{i}"] for i in range(len(_flat_leaves(self.obs_tree)))]
            if (self.obs_tree is not None)
            else []
        )
        action_leaves = (
            [flat[f"action{i}"] for i in range(len(_flat_leaves(self.action_tree)))]
            if self.action_tree is not None
            else []
        )
        final_leaves = (
            [flat[f"final{i}"] for i in range(len(obs_leaves))] if self.has_final_obs else []
        )
        return SharedViews(
            command=flat["command"],
            done=flat["done"],
            step_mask=flat["step_mask"],
            rewards=flat["rewards"],
            terminated=flat["terminated"],
            truncated=flat["truncated"],
            info_schema=flat["info_schema"],
            final_state=flat["final_state"],
            info_gen=flat["info_gen"],
            actions_piped=flat["actions_piped"],
            obs_leaves=obs_leaves,
            observations=_build(self.obs_tree, iter(obs_leaves)),
            action_leaves=action_leaves,
            actions=_build(self.action_tree, iter(action_leaves)),
            final_observations=_build(self.obs_tree, iter(final_leaves))
            if self.has_final_obs
            else None,
        )


def _build(tree: Any, leaves: Any) -> Any:
    """Arrange flat leaf arrays into the structure of ``tree`` (tuple / dict / array)."""
    if tree is None:
        return None
    if _is_leaf(tree):
        return next(leaves)
    if isinstance(tree, dict):
        return {key: _build(child, leaves) for key, child in tree.items()}
    return tuple(_build(child, leaves) for child in tree)


@dataclass
class SharedViews:
    """The numpy views of a shared block (see :class:`SharedLayout`)."""

    command: np.ndarray
    done: np.ndarray
    step_mask: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    info_schema: np.ndarray
    final_state: np.ndarray
    """Per env, what a ``SAME_STEP`` step that ended its episode left in shared memory
    (:mod:`vecgym.vector._async.finals`): 0 nothing, :data:`FINAL_EMPTY` its final observation
    with an empty final info, else also its final info's schema id."""
    info_gen: np.ndarray
    actions_piped: np.ndarray
    """Per worker: its ``STEP`` command's actions come in the request on its pipe, not in the
    shared action rows (a batch that does not fit them: see
    :class:`~vecgym.vector._async.batch.ActionWriter`); set before the command word."""
    obs_leaves: list[np.ndarray]
    observations: Any
    action_leaves: list[np.ndarray]
    actions: Any
    final_observations: Any = None
    """``SAME_STEP``: the observation each env's episode ended on, shaped like
    :attr:`observations` (``None`` in the other modes)."""


def create_block(size: int) -> tuple[int, mmap.mmap]:
    """A zeroed shared mapping of ``size`` bytes that leaves no name behind.

    Returns:
        ``(fd, mapping)``: the file descriptor (passed to workers, then closed by the caller) and
        the parent's mapping. On Linux the memory is an anonymous ``memfd``; elsewhere an unlinked
        temporary file, so nothing can leak into ``/dev/shm`` even when the process is killed.
    """
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("vecgym-async", os.MFD_CLOEXEC)
    else:  # pragma: no cover - non-Linux
        handle, path = tempfile.mkstemp(prefix="vecgym-async-")
        os.unlink(path)
        fd = handle
    os.ftruncate(fd, size)
    return fd, mmap.mmap(fd, size)


def map_block(fd: int, size: int) -> mmap.mmap:
    """Map the block received as ``fd`` (in a worker) and close the descriptor."""
    try:
        return mmap.mmap(fd, size)
    finally:
        os.close(fd)
