"""The worker process of :class:`~vecgym.vector.AsyncVectorEnv`.

A worker owns a contiguous slice ``[start, start + len(env_fns))`` of the vector env's
environments and drives each one through :class:`~vecgym.vector.autoreset.AutoresetEnv`, so the
three autoreset modes behave exactly as in :class:`~vecgym.vector.SyncVectorEnv`. The protocol
(command / done words in shared memory, rare pickled messages on the pipe) is described in
:mod:`vecgym.vector._async.protocol`; the commands are dispatched through :data:`HANDLERS`.

Life of a worker:

1. build its envs; worker 0 sends a :class:`~vecgym.vector._async.protocol.Hello` with the
   first env's spaces and metadata (every other worker an empty one, or the error that stopped it);
2. receive ``ATTACH``: the shared block's layout, the spaces every env must match, and the block's
   file descriptor; check the spaces and acknowledge;
3. loop: spin briefly on the command word (when the parent allowed it), then block on the wake-up
   semaphore in slices, checking between slices that the parent is still alive (a worker whose
   parent died exits by itself); run the command; publish the done word, wake the parent and send
   a reply if there is something to say.

Before building its envs a worker pins itself to its core (``WorkerConfig.cpu``, the vector env's
``pin_workers``) and limits BLAS / OpenMP thread pools to ``WorkerConfig.threads`` (the
``*_NUM_THREADS`` environment variables, read by libraries loaded from then on, plus
``threadpoolctl`` when it is installed, for pools already loaded, e.g. numpy's OpenBLAS under
``fork``; see :mod:`vecgym.vector._async.placement`). Several single-threaded workers per core
pool beat oversubscribed thread pools.

Parent death: a daemon watchdog thread checks every ``PARENT_CHECK_S`` seconds that the parent is
alive (its pid still names the process that started the worker and is not a zombie) and ends the
worker with ``os._exit`` otherwise, even while an env is stuck in a long step.

SIGINT is ignored in workers: a Ctrl-C in a terminal reaches the whole process group, and the
parent alone decides what to do with it (its ``close()`` then shuts the workers down cleanly).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler, recv_handle
from typing import Any

import numpy as np

from vecgym.core.interop import as_vecgym_env, stepping_target
from vecgym.vector._async.batch import copy_rows
from vecgym.vector._async.finals import fits_rows, row_copy
from vecgym.vector._async.infos import InfoWriter, contiguous_rows
from vecgym.vector._async.placement import apply_placement
from vecgym.vector._async.protocol import (
    FINAL_EMPTY,
    Command,
    Hello,
    LocalEnd,
    RemoteError,
    Reply,
    Request,
    SharedLayout,
    SharedViews,
    map_block,
    pack_done,
    pickle_for_pipe,
    unpack_command,
    yield_cpu,
)
from vecgym.vector._async.registries import CarriedRegistries, restore_registries
from vecgym.vector._env_call import call_env
from vecgym.vector.autoreset import AutoresetEnv, same_step_info
from vecgym.vector.vector_env import AutoresetMode

__all__ = [
    "HANDLERS",
    "WorkerConfig",
    "WorkerState",
    "async_worker",
    "build_envs",
    "check_spaces",
    "greeting",
    "receive_fd",
]

PARENT_CHECK_S = 0.5
"""How often a worker checks that its parent is still alive."""
PARENT_GONE_EXIT_CODE = 75
"""The exit code of a worker that ended because its parent died."""
RESERVED_CALL_NAMES = frozenset({"reset", "step", "close", "_setattr", "_check_spaces"})
RESERVED_CALL_MSG = (
    "`call` cannot be used for {name!r}: use the vector env's `{name}` method instead"
)
OBS_SPACE_MISMATCH_MSG = (
    "observation_mode={mode!r} requires every sub-environment's observation space to {rule}: "
    "sub-environment {index} has {got}, expected {expected}"
)
UNSENDABLE_MSG = (
    "sub-environment {env} returned it, and a worker process sends what its envs return to the "
    "parent pickled: return picklable values, or step this env in the parent with SyncVectorEnv"
)
UNSENDABLE_HELLO_MSG = (
    "the first env's observation space, action space and metadata travel from its worker process "
    "to the parent pickled"
)
ACTION_SPACE_MISMATCH_MSG = (
    "sub-environment {index} has the action space {got}, expected {expected}: actions are "
    "batched, so every sub-environment must have the same action space"
)


@dataclass
class WorkerConfig:
    """Everything a worker needs at start-up (pickled once, into the process arguments).

    Attributes:
        worker_index: this worker's index.
        start: the vector-env index of the first env of the slice.
        env_fns: a ``CloudpickleWrapper`` around the list of env constructors of the slice.
        autoreset_mode: the autoreset mode.
        parent_pid: the pid of the process that owns the vector env.
        spin_s: how long to spin on the command word before blocking (0: never spin).
        parent_create_time: the parent's psutil ``create_time`` (tells it from a reused pid).
        cpu: the core this worker pins itself to, or ``None``.
        threads: the BLAS / OpenMP thread count set in the worker, or ``None`` to leave it.
        limiter: a semaphore shared by the workers, taken around each env's ``reset`` and ``step``
            (``max_concurrency``), or ``None``.
        registries: the parent's env registries, for a worker not started with ``fork``
            (:mod:`vecgym.vector._async.registries`), or ``None``.
    """

    worker_index: int
    start: int
    env_fns: Any
    autoreset_mode: AutoresetMode
    parent_pid: int
    spin_s: float
    parent_create_time: float | None = None
    cpu: int | None = None
    threads: int | None = 1
    limiter: Any = None
    registries: CarriedRegistries | None = None


class WorkerState:
    """The worker's envs, shared views and channels."""

    def __init__(
        self,
        config: WorkerConfig,
        conn: Connection,
        envs: list[Any],
        views: SharedViews,
        layout: SharedLayout,
    ) -> None:
        self.config = config
        self.conn = conn
        self.envs = envs
        self.autoenvs = [
            AutoresetEnv(
                _limited(stepping_target(env), config.limiter),
                config.autoreset_mode,
                index=config.start + i,
            )
            for i, env in enumerate(envs)
        ]
        self.views = views
        # One view per env's row of a single-array observation block (0-d for scalar
        # observations): storing into a row view skips the index parsing of ``block[index] =
        # obs``, a third of the store's cost.
        obs_block = views.observations
        self.obs_rows: list[np.ndarray] | None = (
            [obs_block[i, ...] for i in range(config.start, config.start + len(envs))]
            if isinstance(obs_block, np.ndarray)
            else None
        )
        # SAME_STEP: rows for the observation each env's episode ended on (see _end_same_step).
        self.final_block: Any = (
            views.final_observations if config.autoreset_mode is AutoresetMode.SAME_STEP else None
        )
        self.layout = layout
        self.start = config.start
        self.stop = config.start + len(envs)
        start, stop = self.start, self.stop
        # The slice's rows of what a step clears (_step_actions), as views made once (a slice of a
        # shared array per step costs more than the store into it).
        self.cleared_rows = (
            views.info_schema[start:stop],
            views.terminated[start:stop],
            views.truncated[start:stop],
        )
        # The slice's actions where they are scalars read straight from the slice.
        actions = views.actions
        whole = layout.action_tree is not None and isinstance(actions, np.ndarray)
        self.action_rows: np.ndarray | None = (
            actions[start:stop] if whole and _scalar_actions(actions) else None
        )
        self.obs_in_shm = layout.obs_tree is not None
        self.actions_in_shm = layout.action_tree is not None
        self.info_writer = InfoWriter()
        self.running = True
        self.call_envs: list[int] = []
        """The envs of the last ``call`` command, in the order of its results."""


class _LimitedEnv:
    """An env whose ``step`` and ``reset`` hold a shared semaphore while they run
    (``max_concurrency``); the worker's :class:`AutoresetEnv` steps this in its place."""

    __slots__ = ("env", "limiter")

    def __init__(self, env: Any, limiter: Any) -> None:
        self.env = env
        self.limiter = limiter

    def step(self, action: Any) -> Any:
        with self.limiter:
            return self.env.step(action)

    def reset(self, **kwargs: Any) -> Any:
        with self.limiter:
            return self.env.reset(**kwargs)


def _limited(env: Any, limiter: Any) -> Any:
    """``env``, or with a ``max_concurrency`` semaphore ``limiter`` a :class:`_LimitedEnv`."""
    return env if limiter is None else _LimitedEnv(env, limiter)


# --- reading and writing structured values in shared memory -------------------------------------
def _read(views: Any, index: int) -> Any:
    """Read row ``index`` of a Tuple/Dict/leaf structure (arrays copied, scalars as numpy).

    A 0-d floating action comes back as ``np.float64`` (a Python ``float``): an env may hand it
    to APIs that take floats (``time.sleep``), as with Gymnasium's float64 batches, while a
    ``np.float32`` scalar is refused there ("cannot be interpreted as an integer").
    """
    if isinstance(views, np.ndarray):
        row = views[index]
        if isinstance(row, np.ndarray):
            return row.copy()
        return np.float64(row) if isinstance(row, (np.float16, np.float32)) else row
    if isinstance(views, dict):
        return {key: _read(sub, index) for key, sub in views.items()}
    return tuple(_read(sub, index) for sub in views)


def _read_actions(views: Any, start: int, stop: int, stepped: list[bool]) -> list[Any]:
    """The actions of envs ``start`` to ``stop - 1``, each as :func:`_read` reads it (``None``
    for the envs not ``stepped``), read for the whole slice at once where the layout allows:
    integer and float64 scalars straight from the slice, array actions as rows of one copy."""
    if isinstance(views, np.ndarray):
        block = views[start:stop]
        if block.ndim > 1:
            return list(block.copy())
        if _scalar_actions(block):
            return list(block)
    return [_read(views, start + k) if on else None for k, on in enumerate(stepped)]


def _scalar_actions(actions: np.ndarray) -> bool:
    """Whether a batch of ``actions`` holds one integer or float64 scalar per env, which the
    slice itself hands out as :func:`_read` reads them (other dtypes need its conversion)."""
    return actions.ndim == 1 and (actions.dtype.kind in "biu" or actions.dtype == np.float64)


def _write_obs(
    state: WorkerState, index: int, obs: Any, observations: list[tuple[int, Any]]
) -> None:
    if state.obs_in_shm:
        copy_rows(state.views.observations, index, obs)
    else:
        observations.append((index, obs))


def receive_fd(conn: Any) -> int:
    """A file descriptor sent by the parent (``send_handle``, or a duplicate in process)."""
    return int(conn.recv()) if isinstance(conn, LocalEnd) else recv_handle(conn)


# --- command handlers ---------------------------------------------------------------------------
def _current_writer(state: WorkerState) -> InfoWriter:
    """The worker's info writer, first attached to the info layout the parent handed over with
    this command when there is a new one (it follows the request on the pipe; see
    :mod:`vecgym.vector._async.infos`)."""
    writer = state.info_writer
    if int(state.views.info_gen[state.config.worker_index]) != writer.generation:
        layout = state.conn.recv()
        writer.attach(layout, receive_fd(state.conn))
    return writer


def _finish(state: WorkerState, seq: int, reply: Reply | None) -> None:
    """Publish completion of command ``seq``: done word, wake the parent, then the reply if any.

    The reply is pickled first: one that cannot be (an info or a ``call`` result holding a lock,
    a generator, a local class) is replaced by a reply carrying that error, naming the env whose
    value it is, so that the command fails in the parent and the worker lives on."""
    data = None
    if reply is not None and not isinstance(state.conn, LocalEnd):
        try:
            data = ForkingPickler.dumps(reply)
        except Exception:
            data = ForkingPickler.dumps(Reply(seq, error=_unsendable(state, reply)))
    state.views.done[state.config.worker_index] = pack_done(seq, reply is not None)
    _DONE_SEMAPHORE[0].release()
    if data is not None:
        state.conn.send_bytes(data)
    elif reply is not None:
        state.conn.send(reply)


def _unsendable(state: WorkerState, reply: Reply) -> RemoteError:
    """The error of a reply that cannot be pickled, naming the env whose observation, info or
    ``call`` result fails (the first one)."""
    parts = [*reply.infos, *(reply.observations or [])]
    if reply.results is not None:
        parts += list(zip(state.call_envs, reply.results, strict=False))
    suspects: list[tuple[int | None, Any]] = [*sorted(parts, key=lambda part: part[0])]
    for env_index, value in [*suspects, (None, reply)]:
        try:
            pickle_for_pipe(value, UNSENDABLE_MSG.format(env=env_index))
        except Exception as exc:
            return RemoteError.capture(exc, env_index)
    raise AssertionError("a reply that failed to pickle pickled on a second try")


def _write_infos(
    writer: InfoWriter,
    schema_view: np.ndarray,
    envs: list[int],
    env_infos: list[dict[str, Any]],
    proposals: list[Any],
    pickled: list[tuple[int, dict[str, Any]]],
) -> None:
    """Write the non-empty infos of ``envs`` into their shared slots, all at once, and their
    schema ids into ``schema_view``; those without a schema are appended to ``pickled``."""
    schemas = writer.write_batch(envs, env_infos, proposals)
    if schemas[0] and schemas.count(schemas[0]) == len(envs):  # the usual case: one schema
        schema_view[contiguous_rows(envs)] = schemas[0]  # one assignment, no list of ids
        return
    schema_view[envs] = schemas
    if not all(schemas):
        pickled.extend(
            (index, info)
            for index, info, schema in zip(envs, env_infos, schemas, strict=True)
            if not schema
        )


def _step_actions(state: WorkerState) -> tuple[list[bool], list[Any], bool]:
    """Which envs of the slice this step covers, their actions and whether it covers them all.

    The actions come from shared memory, or from the request that follows the command on the
    pipe (always for an action space without shared rows, else when the parent flagged it in
    ``actions_piped``). Clears those envs' info schema ids, final states, terminations and
    truncations (the envs with infos or ended episodes get theirs in the loop: a batch's clear
    costs less than two stores per env)."""
    views = state.views
    start, stop = state.start, state.stop
    stepped = views.step_mask[start:stop].tolist()
    if state.actions_in_shm and views.actions_piped[state.config.worker_index]:
        payload = state.conn.recv().payload  # a batch that did not fit the shared rows
        actions = [payload[start + k] if on else None for k, on in enumerate(stepped)]
    elif state.action_rows is not None:
        actions = list(state.action_rows)
    elif state.actions_in_shm:
        actions = _read_actions(views.actions, start, stop, stepped)
    else:
        payload = state.conn.recv().payload
        actions = [payload[start + k] if on else None for k, on in enumerate(stepped)]
    # final_state marks SAME_STEP episode ends, and only where a final block exists
    final_state = views.final_state if state.final_block is not None else None
    every = all(stepped)
    rows: Any = ... if every else np.asarray(stepped)
    schema_rows, terminated_rows, truncated_rows = state.cleared_rows
    schema_rows[rows] = 0
    terminated_rows[rows] = False
    truncated_rows[rows] = False
    if final_state is not None:
        final_state[start:stop][rows] = 0
    return stepped, actions, every


def _end_same_step(
    state: WorkerState,
    writer: InfoWriter,
    auto: AutoresetEnv,
    offset: int,
    obs: Any,
    info: dict[str, Any],
    proposals: list[Any],
) -> tuple[Any, dict[str, Any]]:
    """``SAME_STEP``'s episode end (:meth:`AutoresetEnv.end_episode`) with the final observation
    and final info left in shared memory for the parent (``final_state``, see
    :mod:`vecgym.vector._async.finals`): the reset's observation and the info to send, the reset
    info alone. Where they cannot go there (an observation of another type, dtype or shape than
    the block's leaves, a final info without a learned schema, a reset info with a ``final_obs`` or
    ``final_info`` key of its own), the info to send is ``end_episode``'s whole dict, pickled."""
    block = state.final_block
    if not fits_rows(obs, block):
        ended = auto.end_episode(obs, 0.0, True, False, info)  # (only obs and info change)
        return ended[0], ended[4]
    index = state.start + offset
    copy_rows(block, index, obs)  # before the reset, which may write into the same arrays
    obs, reset_info = auto.begin_episode()
    if "final_obs" in reset_info or "final_info" in reset_info:
        code = 0  # those keys replace the final ones in the merged dict
    elif info:
        code = writer.write(index, info, proposals, final=True)
    else:
        code = FINAL_EMPTY
    state.views.final_state[index] = code
    if code:
        return obs, reset_info
    return obs, same_step_info(row_copy(block, index), info, reset_info)


def _step(state: WorkerState, seq: int) -> Reply | None:
    stepped, actions, every = _step_actions(state)
    writer = _current_writer(state)
    proposals: list[Any] = []
    infos: list[tuple[int, dict[str, Any]]] = []
    info_envs: list[int] = []
    env_infos: list[dict[str, Any]] = []
    observations: list[tuple[int, Any]] = []
    if every and state.obs_rows is not None and state.final_block is None:
        error = _step_rows(state, actions, info_envs, env_infos)
    else:
        error = _step_each(
            state, writer, (stepped, actions), proposals, observations, (info_envs, env_infos)
        )
    if env_infos:
        _write_infos(writer, state.views.info_schema, info_envs, env_infos, proposals, infos)
    if error is None and not infos and state.obs_in_shm:
        return None
    return Reply(
        seq,
        infos=infos,
        observations=None if state.obs_in_shm else observations,
        error=error,
        info_schemas=proposals or None,
    )


def _step_rows(
    state: WorkerState, actions: list[Any], info_envs: list[int], env_infos: list[dict[str, Any]]
) -> RemoteError | None:
    """The usual step's loop: every env of the slice, observations stored into their shared rows,
    no ``SAME_STEP`` final block. :func:`_step_each`'s loop without the branches for the other
    cases: about a twentieth of a CartPole-v1 step less per env. Appends the envs with a
    non-empty info and their infos; the first env error, or ``None``."""
    views = state.views
    rewards, terminated, truncated = views.rewards, views.terminated, views.truncated
    rows = state.obs_rows
    assert rows is not None
    index = state.start
    try:
        for auto, row, action in zip(state.autoenvs, rows, actions, strict=True):
            # AutoresetEnv.step, inlined: the env's own step, the autoreset rules only at the end
            # of an episode. The flags were cleared for the batch (_step_actions): stored only
            # where set.
            if auto.needs_reset:
                obs, reward, term, trunc, info = auto.step(action)
                terminated[index], truncated[index] = term, trunc
            else:
                obs, reward, term, trunc, info = auto.inner_step(action)
                if (limit := auto.limit) is not None:  # TimeLimit's count, inlined
                    limit._elapsed_steps += 1
                    if limit._elapsed_steps >= limit._max_episode_steps:
                        trunc = True
                if term or trunc:
                    obs, reward, term, trunc, info = auto.end_episode(
                        obs, reward, term, trunc, info
                    )
                    terminated[index], truncated[index] = term, trunc
            row[...] = obs
            rewards[index] = reward
            if info:
                info_envs.append(index)
                env_infos.append(info)
            index += 1
    except Exception as exc:
        return RemoteError.capture(exc, index)
    return None


def _step_each(
    state: WorkerState,
    writer: InfoWriter,
    batch: tuple[list[bool], list[Any]],
    proposals: list[Any],
    observations: list[tuple[int, Any]],
    out: tuple[list[int], list[dict[str, Any]]],
) -> RemoteError | None:
    """The step's loop in every case (``batch``: which envs are stepped, and their actions):
    observations sent or stored in any layout, ``SAME_STEP``'s final observations. Appends the
    envs with a non-empty info and their infos to ``out``; the first env error, or ``None``."""
    stepped, actions = batch
    info_envs, env_infos = out
    views = state.views
    rewards, terminated, truncated = views.rewards, views.terminated, views.truncated
    obs_rows = state.obs_rows
    final_block = state.final_block
    start = state.start
    for offset, auto in enumerate(state.autoenvs):
        if not stepped[offset]:
            continue
        index = start + offset
        try:
            if auto.needs_reset:
                obs, reward, term, trunc, info = auto.step(actions[offset])
                terminated[index], truncated[index] = term, trunc
            else:
                obs, reward, term, trunc, info = auto.inner_step(actions[offset])
                if (limit := auto.limit) is not None:  # TimeLimit's count, inlined
                    limit._elapsed_steps += 1
                    if limit._elapsed_steps >= limit._max_episode_steps:
                        trunc = True
                if term or trunc:
                    if final_block is not None:
                        obs, info = _end_same_step(
                            state, writer, auto, offset, obs, info, proposals
                        )
                    else:
                        obs, reward, term, trunc, info = auto.end_episode(
                            obs, reward, term, trunc, info
                        )
                    terminated[index], truncated[index] = term, trunc
            if obs_rows is not None:
                obs_rows[offset][...] = obs
            else:
                _write_obs(state, index, obs, observations)
            rewards[index] = reward
        except Exception as exc:
            return RemoteError.capture(exc, index)
        if info:
            info_envs.append(index)
            env_infos.append(info)
    return None


def _reset(state: WorkerState, seq: int) -> Reply | None:
    """Reset the masked envs. Payload ``(seeds, options, mask[, pending[, infos_in_shm]])``:
    ``pending`` leaves an autoreset pending (restarts); ``infos_in_shm`` writes numeric infos
    into their shared slots, as a step does (a restart's reset sends them pickled)."""
    request: Request = state.conn.recv()
    seeds, options, mask, *rest = request.payload
    pending = bool(rest[0]) if rest else False
    writer = _current_writer(state)
    shm_infos = len(rest) > 1 and bool(rest[1])
    schema_view = state.views.info_schema
    proposals: list[Any] = []
    infos: list[tuple[int, dict[str, Any]]] = []
    observations: list[tuple[int, Any]] = []
    for offset, auto in enumerate(state.autoenvs):
        index = state.start + offset
        if not mask[offset]:
            continue
        try:
            obs, info = auto.reset(seed=seeds[offset], options=options)
            if pending:
                auto.needs_reset = True
            _write_obs(state, index, obs, observations)
        except Exception as exc:
            return Reply(seq, error=RemoteError.capture(exc, index))
        schema = writer.write(index, info, proposals) if info and shm_infos else 0
        schema_view[index] = schema
        if state.final_block is not None:
            state.views.final_state[index] = 0
        if info and not schema:
            infos.append((index, info))
    if not infos and state.obs_in_shm:
        return None
    return Reply(
        seq,
        infos=infos,
        observations=None if state.obs_in_shm else observations,
        info_schemas=proposals or None,
    )


def _call(state: WorkerState, seq: int) -> Reply | None:
    request: Request = state.conn.recv()
    indices, name, args, kwargs = request.payload
    state.call_envs = indices  # (named by _unsendable when a result cannot be pickled)
    results: list[Any] = []
    for index in indices:
        try:
            if name in RESERVED_CALL_NAMES:
                raise ValueError(RESERVED_CALL_MSG.format(name=name))
            results.append(call_env(state.envs[index - state.start], name, args, kwargs))
        except Exception as exc:
            return Reply(seq, error=RemoteError.capture(exc, index))
    return Reply(seq, results=results)


def _set_attr(state: WorkerState, seq: int) -> Reply | None:
    request: Request = state.conn.recv()
    indices, name, values = request.payload
    for index, value in zip(indices, values, strict=False):
        try:
            state.envs[index - state.start].set_wrapper_attr(name, value)
        except Exception as exc:
            return Reply(seq, error=RemoteError.capture(exc, index))
    return None


def _close(state: WorkerState, seq: int) -> Reply | None:
    state.running = False
    error: RemoteError | None = None
    for offset, env in enumerate(state.envs):
        try:
            env.close()
        except Exception as exc:
            if error is None:
                error = RemoteError.capture(exc, state.start + offset)
    return None if error is None else Reply(seq, error=error)


HANDLERS: dict[Command, Callable[[WorkerState, int], Reply | None]] = {
    Command.STEP: _step,
    Command.RESET: _reset,
    Command.CALL: _call,
    Command.SET_ATTR: _set_attr,
    Command.CLOSE: _close,
}
"""The dispatch table: command -> handler(state, seq) returning the reply to send, if any."""

# The parent's semaphore, kept module-global in the worker process only (set by async_worker).
_DONE_SEMAPHORE: list[Any] = [None]


# --- start-up and main loop ---------------------------------------------------------------------
def check_spaces(envs: list[Any], start: int, payload: tuple[Any, Any, Any]) -> None:
    from vecgym.core.spaces.utils import is_space_dtype_shape_equiv
    from vecgym.vector.utils.space_utils import batch_differing_spaces

    observation_mode, obs_space, action_space = payload
    for offset, env in enumerate(envs):
        index = start + offset
        if observation_mode == "same":
            ok, rule = env.observation_space == obs_space, "equal the single observation space"
        else:
            ok = is_space_dtype_shape_equiv(env.observation_space, obs_space)
            rule = "have the single observation space's shape and dtype"
            if not ok:  # the error SyncVectorEnv (and Gymnasium) raise for the pair, if any
                batch_differing_spaces([obs_space, env.observation_space])
        if not ok:
            raise RuntimeError(
                OBS_SPACE_MISMATCH_MSG.format(
                    mode=observation_mode,
                    rule=rule,
                    index=index,
                    got=env.observation_space,
                    expected=obs_space,
                )
            )
        if env.action_space != action_space:
            raise RuntimeError(
                ACTION_SPACE_MISMATCH_MSG.format(
                    index=index, got=env.action_space, expected=action_space
                )
            )


def _parent_alive(pid: int, create_time: float | None = None) -> bool:
    """Whether the process ``pid`` (started at ``create_time``) still runs (zombies are dead)."""
    if os.getppid() == pid:
        return True  # still our parent: a dead parent's children are re-parented at once
    try:
        import psutil

        process = psutil.Process(pid)
        if create_time is not None and abs(process.create_time() - create_time) > 1e-3:
            return False  # the pid now names another process
        return process.status() != psutil.STATUS_ZOMBIE
    except ImportError:  # pragma: no cover - psutil is a dependency
        try:
            os.kill(pid, 0)
        except OSError:
            return False
        return True
    except Exception:  # NoSuchProcess, AccessDenied: gone, or no longer ours
        return False


def _watch_parent(config: WorkerConfig) -> None:
    """The watchdog thread: end the worker when its parent is gone."""
    while True:
        time.sleep(PARENT_CHECK_S)
        if not _parent_alive(config.parent_pid, config.parent_create_time):
            os._exit(PARENT_GONE_EXIT_CODE)


def build_envs(env_fns: list[Callable[[], Any]], start: int) -> tuple[list[Any], Hello | None]:
    """Build the envs of a slice starting at env ``start``: ``(envs, None)``, or what was built
    (already closed) and the Hello carrying the error that stopped it."""
    envs: list[Any] = []
    try:
        for env_fn in env_fns:
            envs.append(as_vecgym_env(env_fn()))  # a gymnasium.Env is adapted once, here
    except Exception as exc:
        failed = Hello(error=RemoteError.capture(exc, start + len(envs)))
        for env in envs:
            env.close()
        return [], failed
    return envs, None


def greeting(envs: list[Any], first: bool) -> Hello:
    """The Hello of a worker: the first env's spaces and metadata for worker 0, else empty."""
    if not first:
        return Hello()
    env = envs[0]
    return Hello(
        observation_space=env.observation_space,
        action_space=env.action_space,
        metadata=dict(env.metadata),
        render_mode=env.render_mode,
    )


def _start(config: WorkerConfig, conn: Connection) -> WorkerState | None:
    """Build the envs, greet the parent and attach the shared block; ``None`` on failure."""
    restore_registries(config.registries)
    envs, failed = build_envs(config.env_fns.fn, config.start)
    if failed is not None:
        conn.send(failed)
        return None
    try:
        hello = pickle_for_pipe(greeting(envs, config.worker_index == 0), UNSENDABLE_HELLO_MSG)
    except Exception as exc:  # a space or metadata that cannot be pickled: say so, and stop
        conn.send(Hello(error=RemoteError.capture(exc, config.start)))
        for env in envs:
            env.close()
        return None
    conn.send_bytes(hello)
    request: Request | None = conn.recv()
    if request is None:  # the parent gave up during start-up
        for env in envs:
            env.close()
        return None
    layout, obs_mode, obs_space, action_space = request.payload
    block = map_block(recv_handle(conn), layout.size)
    views = layout.views(block)
    try:
        check_spaces(envs, config.start, (obs_mode, obs_space, action_space))
    except Exception as exc:
        conn.send(Reply(request.seq, error=RemoteError.capture(exc, None)))
        for env in envs:
            env.close()
        return None
    conn.send(Reply(request.seq))
    return WorkerState(config, conn, envs, views, layout)


def async_worker(
    config: WorkerConfig,
    conn: Connection,
    parent_conn: Connection | None,
    wake: Any,
    done: Any,
) -> None:
    """The body of a worker process (the default ``worker`` of AsyncVectorEnv).

    Args:
        config: the worker's configuration.
        conn: the worker's end of its pipe.
        parent_conn: the parent's end of the same pipe, closed here (inherited under fork).
        wake: the semaphore the parent releases to post a command.
        done: the semaphore the worker releases when a command finished.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_conn is not None:
        parent_conn.close()
    watchdog = threading.Thread(target=_watch_parent, args=(config,), daemon=True)
    watchdog.start()
    apply_placement(config.cpu, config.threads)
    _DONE_SEMAPHORE[0] = done
    state = _start(config, conn)
    if state is None:
        return
    command_word = state.views.command
    me = config.worker_index
    last = int(command_word[me])
    spin_s = config.spin_s
    perf_counter = time.perf_counter
    while state.running:
        if spin_s > 0.0:  # a bounded spin that yields the CPU, then the blocking wait below
            end = perf_counter() + spin_s
            while command_word[me] == last and perf_counter() < end:
                yield_cpu()
        while not wake.acquire(True, PARENT_CHECK_S):
            if not _parent_alive(config.parent_pid, config.parent_create_time):
                return
        last = int(command_word[me])
        seq, command = unpack_command(last)
        reply = HANDLERS[command](state, seq)
        _finish(state, seq, reply)
