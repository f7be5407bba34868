"""The host actor of :class:`vecgym.vector.ray_vector_env.RayVectorEnv` (runs inside Ray).

One host owns a contiguous slice ``[offset, offset + m)`` of the vector env's sub-environments and
runs them in a local vecgym vector env on its node: :class:`AsyncVectorEnv` when it has more than
one worker (start method ``forkserver`` / ``spawn``: a Ray worker runs threads, so ``fork`` is
unsafe), else :class:`SyncVectorEnv`. Ray is never imported here; ``RayVectorEnv`` wraps the
class with ``ray.remote``.

Every method returns ``(status, payload)``: ``"ok"`` with the result, ``"error"`` with a
:class:`HostFailure` for an exception raised by an env (or by the call), ``"died"`` with a
:class:`HostFailure` when a worker process of the local vector env died. Nothing the envs raise
escapes as a Ray task error, so the driver always knows which env failed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import time
import traceback
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vecgym import error
from vecgym.core.env import Env, Wrapper
from vecgym.core.interop import as_vecgym_env
from vecgym.vector._async.exits import RemoteTraceback
from vecgym.vector._async.options import CUSTOM_SPACE_SHARED_MSG
from vecgym.vector._async.registries import CarriedRegistries, restore_registries
from vecgym.vector._ray.actions import ActionWire
from vecgym.vector._ray.observations import ObsStore
from vecgym.vector._ray.rollout import RolloutRecorder
from vecgym.vector.async_vector_env import AsyncVectorEnv
from vecgym.vector.sync_vector_env import SyncVectorEnv
from vecgym.vector.utils import batch_space
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["HostFailure", "VectorHost", "start_method", "unbatch_info"]

_ORIGIN_ATTR = "_vecgym_ray_origin"
_CUSTOM_SPACE_PREFIX = CUSTOM_SPACE_SHARED_MSG.split("{", 1)[0]


@dataclass
class HostFailure:
    """What went wrong in a host, in a form that always unpickles on the driver.

    Attributes:
        pickled: the pickled exception (``None`` when it cannot be pickled).
        type_name: the qualified name of the exception's type.
        message: ``str(exception)``.
        env_index: the global index of the env that raised, or ``None``.
        traceback_text: the traceback text where the exception was raised.
    """

    pickled: bytes | None
    type_name: str
    message: str
    env_index: int | None
    traceback_text: str
    exitcode: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class _TagErrors(Wrapper[Any, Any, Any, Any]):
    """Marks an exception raised by the env with the env's global index (kept through pickling).

    Transparent otherwise: ``spec`` is the env's own, so ``get_attr("spec")`` matches an unwrapped
    env.
    """

    def __init__(self, env: Env[Any, Any], index: int) -> None:
        super().__init__(env)
        self._vecgym_index = index

    @property
    def spec(self) -> Any:  # type: ignore[override]
        return self.env.spec

    def _tag(self, exc: BaseException) -> None:
        if getattr(exc, _ORIGIN_ATTR, None) is None:
            with contextlib.suppress(Exception):
                setattr(exc, _ORIGIN_ATTR, (self._vecgym_index, exc.args))

    def step(self, action: Any) -> Any:
        try:
            return self.env.step(action)
        except BaseException as exc:
            self._tag(exc)
            raise

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        try:
            return self.env.reset(seed=seed, options=options)
        except BaseException as exc:
            self._tag(exc)
            raise


class _TaggedEnvFn:
    """An env function whose env reports its global index in the exceptions it raises."""

    def __init__(self, env_fn: Callable[[], Any], index: int) -> None:
        self.env_fn = env_fn
        self.index = index

    def __call__(self) -> Env[Any, Any]:
        return _TagErrors(as_vecgym_env(self.env_fn()), self.index)


def _failure(exc: BaseException, env_index: int | None = None) -> HostFailure:
    """A :class:`HostFailure` describing ``exc`` (its original message, its env, its traceback)."""
    origin = getattr(exc, _ORIGIN_ATTR, None)
    if origin is not None:
        env_index, args = origin
        with contextlib.suppress(Exception):
            exc.args = args  # drop the local AsyncVectorEnv's note: the driver adds its own
            if hasattr(exc, "__notes__"):
                del exc.__notes__
            delattr(exc, _ORIGIN_ATTR)
    cause = exc.__cause__
    if isinstance(cause, RemoteTraceback):
        text = cause.text
    else:
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    exc.__cause__ = None
    exc.__context__ = None
    try:
        data = pickle.dumps(exc)
        pickle.loads(data)
        pickled: bytes | None = data
    except Exception:
        pickled = None
    if isinstance(exc, error.WorkerError) and exc.env_index is not None and env_index is None:
        env_index = exc.env_index
    return HostFailure(
        pickled=pickled,
        type_name=f"{type(exc).__module__}.{type(exc).__qualname__}",
        message=str(exc),
        env_index=env_index,
        traceback_text=text,
        exitcode=getattr(exc, "exitcode", None) if isinstance(exc, error.WorkerDied) else None,
    )


def start_method() -> str:
    """The start method of a host's local AsyncVectorEnv: never ``fork`` in a threaded process."""
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


def unbatch_info(infos: dict[str, Any], count: int) -> list[dict[str, Any]]:
    """Gymnasium-layout batched infos back into one dict per env (the ``_key`` masks decide)."""
    out: list[dict[str, Any]] = [{} for _ in range(count)]
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get(f"_{key}")
        if isinstance(value, dict):
            parts = unbatch_info(value, count)
            for j in range(count):
                if mask is None or mask[j]:
                    out[j][key] = parts[j]
            continue
        for j in range(count):
            if mask is None or mask[j]:
                item = value[j]
                out[j][key] = item.item() if isinstance(item, np.generic) else item
    return out


def build_local(
    fns: list[Callable[[], Any]],
    mode: AutoresetMode,
    num_workers: int,
    check_actions: bool | str,
    observation_mode: Any,
) -> AsyncVectorEnv[Any, Any] | SyncVectorEnv[Any, Any]:
    """A host's local vector env over its envs ``fns``.

    ``observation_mode`` is the vector env's: ``"same"``, ``"different"`` or ``(observation_space,
    single_observation_space)``, whose batched space (for all ``n`` envs) becomes the host's
    ``batch_space(single, m)``. A local AsyncVectorEnv keeps observations in shared memory, unless
    their space is a custom one (which Gymnasium refuses there): it is then built again with
    ``shared_memory=False``, as a user of AsyncVectorEnv would.
    """
    if isinstance(observation_mode, tuple):
        single = observation_mode[1]
        observation_mode = (batch_space(single, len(fns)), single)
    kwargs: dict[str, Any] = {
        "copy": False,
        "autoreset_mode": mode,
        "check_actions": check_actions,
        "observation_mode": observation_mode,
    }
    if num_workers <= 1:
        return SyncVectorEnv(fns, **kwargs)
    kwargs.update(context=start_method(), num_workers=num_workers)
    try:
        return AsyncVectorEnv(fns, **kwargs)
    except ValueError as exc:
        if not str(exc).startswith(_CUSTOM_SPACE_PREFIX):
            raise
    return AsyncVectorEnv(fns, shared_memory=False, **kwargs)


def _node_id() -> str:
    """The id of the Ray node this actor runs on (``""`` outside Ray)."""
    with contextlib.suppress(Exception):
        import ray

        return str(ray.get_runtime_context().get_node_id())
    return ""


def _load_policy(policy: Callable[[Any], Any] | bytes) -> Callable[[Any], Any]:
    """The policy callable (the driver sends it pickled with Ray's cloudpickle)."""
    if not isinstance(policy, bytes):
        return policy
    from ray import cloudpickle

    loaded: Callable[[Any], Any] = cloudpickle.loads(policy)
    return loaded


class VectorHost:
    """The envs ``[offset, offset + len(env_fns))`` of a RayVectorEnv, in one Ray actor.

    Args:
        env_fns: the env functions of this host's slice.
        offset: the global index of the first env.
        autoreset_mode: the autoreset mode's value.
        num_workers: worker processes of the local AsyncVectorEnv; 1 steps the envs in the
            actor's own process (SyncVectorEnv).
        check_actions: passed to the local vector env.
        observation_mode: the vector env's ``observation_mode`` (see :func:`build_local`).
        registries: the driver's env registries, given to this actor before its envs are built
            (:mod:`vecgym.vector._async.registries`), or ``None``.
    """

    def __init__(
        self,
        env_fns: Sequence[Callable[[], Any]],
        offset: int,
        autoreset_mode: str,
        num_workers: int,
        check_actions: bool | str = False,
        observation_mode: Any = "same",
        registries: CarriedRegistries | None = None,
    ) -> None:
        self.instance = uuid.uuid4().hex
        self.offset = offset
        self.count = len(env_fns)
        self.mode = AutoresetMode(autoreset_mode)
        self.startup_failure: HostFailure | None = None
        self.pending = np.zeros(self.count, dtype=np.bool_)  # autoreset owed after a restart
        self.ended = np.zeros(self.count, dtype=np.bool_)  # DISABLED: episodes awaiting a reset
        self.observation_mode = observation_mode
        self.local: AsyncVectorEnv[Any, Any] | SyncVectorEnv[Any, Any] | None = None
        fns: list[Callable[[], Any]] = [
            _TaggedEnvFn(fn, offset + j) for j, fn in enumerate(env_fns)
        ]
        try:
            restore_registries(registries)
            self.local = build_local(fns, self.mode, num_workers, check_actions, observation_mode)
        except BaseException as exc:
            self.startup_failure = _failure(exc)
            return
        self.obs = ObsStore(self.local.single_observation_space, self.count)
        self.actions = ActionWire(self.local.single_action_space)

    # --- helpers ---------------------------------------------------------------------------------
    def _run(self, fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
        if self.startup_failure is not None:
            return "error", self.startup_failure
        try:
            return "ok", fn(*args)
        except error.WorkerDied as exc:
            return "died", _failure(exc)
        except Exception as exc:
            return "error", _failure(exc)

    def _env(self) -> AsyncVectorEnv[Any, Any] | SyncVectorEnv[Any, Any]:
        assert self.local is not None
        return self.local

    # --- the remote methods ----------------------------------------------------------------------
    def describe(self) -> tuple[str, Any]:
        """The spaces, metadata and whereabouts of this host."""

        def run() -> dict[str, Any]:
            env = self._env()
            node = _node_id()
            return {
                "single_observation_space": env.single_observation_space,
                "single_action_space": env.single_action_space,
                "metadata": {k: v for k, v in env.metadata.items() if k != "autoreset_mode"},
                "render_mode": env.render_mode,
                "node_id": node,
                "pid": os.getpid(),
                "instance": self.instance,
                "local": type(env).__name__,
                "observation_spaces": (
                    list(env.get_attr("observation_space"))
                    if self.observation_mode == "different"
                    else None
                ),
            }

        return self._run(run)

    def ping(self) -> str:
        """This instance's id (a restarted actor gets a new one)."""
        return self.instance

    def reset(
        self, seeds: list[int | None], options: dict[str, Any] | None, mask: np.ndarray | None
    ) -> tuple[str, Any]:
        """Reset the envs of ``mask`` (all for ``None``); returns ``(obs, infos, instance)``."""

        def run() -> tuple[Any, dict[str, Any], str]:
            env = self._env()
            opts = dict(options) if options else {}
            if mask is not None and not mask.all():
                opts["reset_mask"] = mask
            obs, infos = env.reset(seed=seeds, options=opts or None)
            rows = slice(None) if mask is None else mask
            self.obs.write(rows, self.obs.pick(self.obs.wire_of(obs, self.count), rows))
            self.pending[rows] = False
            self.ended[rows] = False
            return self.obs.wire(), infos, self.instance

        return self._run(run)

    def restarted(self, seeds: list[int | None], pending: bool) -> tuple[str, Any]:
        """Reset every env of a restarted host with ``seeds``; ``pending``: the next step of each
        env is an autoreset step (as after a truncation). Returns ``(obs, infos, instance,
        node)``: the restarted actor may run on another node."""
        result = self.reset(seeds, None, None)
        if result[0] == "ok":
            result = ("ok", (*result[1], _node_id()))
            if self.mode is AutoresetMode.DISABLED:  # reported truncated: reset them first
                self.ended[:] = pending
            else:
                self.pending[:] = pending
        return result

    def step(self, actions: Any) -> tuple[str, Any]:
        """Step every env with ``actions`` (their wire form, :class:`ActionWire`); returns
        ``(obs, rewards, terminations, truncations, infos)``."""
        return self._run(self._step_all, actions)

    def _step_all(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        if self.pending.any():
            return self._step_ids(np.arange(self.count), actions, batched_infos=True)
        obs, rewards, terminated, truncated, infos = self._env().step(self.actions.batch(actions))
        self.obs.write(slice(None), self.obs.wire_of(obs, self.count))
        if self.mode is AutoresetMode.DISABLED:  # the driver steps running episodes only
            self.ended[:] = terminated | truncated
        return self.obs.wire(), rewards, terminated, truncated, infos

    def step_subset(self, ids: np.ndarray, actions: Any) -> tuple[str, Any]:
        """Step the local envs ``ids`` only (``actions``: their wire form); infos come back as
        one dict per env."""
        return self._run(self._step_ids, ids, actions, False)

    def _step_ids(self, ids: np.ndarray, actions: Any, batched_infos: bool) -> Any:
        env = self._env()
        count = len(ids)
        rewards = np.zeros(count, dtype=np.float64)
        terminated = np.zeros(count, dtype=np.bool_)
        truncated = np.zeros(count, dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(count)]
        owed = self.pending[ids]
        if owed.any():  # the autoreset step owed by restarted envs: a reset, reward 0
            mask = np.zeros(self.count, dtype=np.bool_)
            mask[ids[owed]] = True
            obs, reset_infos = env.reset(options={"reset_mask": mask})
            self.obs.write(mask, self.obs.pick(self.obs.wire_of(obs, self.count), mask))
            per_env = unbatch_info(reset_infos, self.count)
            for j in np.flatnonzero(owed).tolist():
                infos[j] = per_env[int(ids[j])]
            self.pending[mask] = False
        stepped = np.flatnonzero(~owed)
        if stepped.size:
            local_ids = ids[stepped]
            sub_actions = self.actions.pick(actions, stepped)
            if isinstance(env, AsyncVectorEnv):
                env.send(self.actions.batch(sub_actions), local_ids)
                obs, rew, term, trunc, sub_infos, got = env.recv()
                order = np.searchsorted(got, local_ids)
                self.obs.write(local_ids, self.obs.pick(self.obs.wire_of(obs, len(got)), order))
                rewards[stepped], terminated[stepped] = rew[order], term[order]
                truncated[stepped] = trunc[order]
                per_env = unbatch_info(sub_infos, len(got))
                for j, row in zip(stepped.tolist(), order.tolist(), strict=True):
                    infos[j] = per_env[row]
            else:
                autos = env._autoreset_envs
                iterator = self.actions.items(sub_actions, int(stepped.size))
                for j, action in zip(stepped.tolist(), iterator, strict=False):
                    i = int(ids[j])
                    obs_i, rewards[j], terminated[j], truncated[j], infos[j] = autos[i].step(action)
                    self.obs.write_one(i, obs_i)
        if self.mode is AutoresetMode.DISABLED:
            self.ended[ids] = terminated | truncated
        if not batched_infos:
            return self.obs.wire(ids), rewards, terminated, truncated, infos
        # Batched key by key, as the fold of _add_info over the envs would batch them.
        entries = [(j, info) for j, info in enumerate(infos) if info]
        batched = env._merge_infos(entries) if entries else {}
        return self.obs.wire(), rewards, terminated, truncated, batched

    def rollout(self, policy: Callable[[Any], Any] | bytes, num_steps: int) -> tuple[str, Any]:
        """Run ``num_steps`` steps with ``actions = policy(observations)`` here, on this node.

        Returns a dict: ``observations`` (the ones the policy saw, ``(T, m, ...)``; a list of
        ``T`` lists of per-env values for spaces that do not batch into arrays), ``actions`` (the
        same; ``None`` for envs not stepped), ``rewards``, ``terminations``, ``truncations``,
        ``stepped`` (``(T, m)``), ``infos`` (one batched dict per step), ``extras`` (the stacked
        dict a policy may return as ``(actions, extras)``) and ``next_observations`` (after the
        last step). In the ``DISABLED`` mode an env is stepped only until its episode ends (see
        :mod:`vecgym.vector._ray.rollout`).
        """

        def run() -> dict[str, Any]:
            start = time.perf_counter()
            act = _load_policy(policy)
            recorder = RolloutRecorder(self.obs, num_steps, self.actions)
            disabled = self.mode is AutoresetMode.DISABLED
            done = 0
            for t in range(num_steps):
                running = ~self.ended if disabled else None
                if running is not None and not running.any():
                    break
                actions = recorder.act(t, act(recorder.observe(t)))
                if running is None or running.all():
                    result = self._step_all(actions)[1:]
                else:
                    result = self._step_running(running, actions)
                recorder.record(t, running, result)
                done = t + 1
            out = recorder.finish(done)
            out["instance"] = self.instance
            out["seconds"] = time.perf_counter() - start
            return out

        return self._run(run)

    def _step_running(
        self, running: np.ndarray, actions: Any
    ) -> tuple[Any, Any, Any, dict[str, Any]]:
        """Step the envs of the mask ``running`` only (``DISABLED``: the others have ended);
        ``(rewards, terminations, truncations, infos)`` over all the host's envs."""
        env = self._env()
        ids = np.flatnonzero(running)
        _, rew, term, trunc, per_env = self._step_ids(ids, self.actions.pick(actions, ids), False)
        rewards = np.zeros(self.count, dtype=np.float64)
        terminated = np.zeros(self.count, dtype=np.bool_)
        truncated = np.zeros(self.count, dtype=np.bool_)
        rewards[ids], terminated[ids], truncated[ids] = rew, term, trunc
        entries = [(i, info) for i, info in zip(ids.tolist(), per_env, strict=True) if info]
        return rewards, terminated, truncated, env._merge_infos(entries) if entries else {}

    def call(
        self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], ids: list[int]
    ) -> tuple[str, Any]:
        """``call(name, *args, **kwargs)`` on the local envs ``ids``."""
        return self._run(lambda: self._env().call(name, *args, indices=ids, **kwargs))

    def set_attr(self, name: str, values: list[Any], ids: list[int]) -> tuple[str, Any]:
        """Set attribute ``name`` of the local envs ``ids``."""

        def run() -> bool:
            self._env().set_attr(name, list(values), indices=ids)
            return True  # a payload of None means "restart this host" to the driver

        return self._run(run)

    def close(self) -> bool:
        """Close the local vector env (its worker processes end); never raises."""
        with contextlib.suppress(Exception):
            if self.local is not None:
                self.local.close()
        return True
