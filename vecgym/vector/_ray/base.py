"""RayVectorEnv's machinery over its host actors: starting them, waiting for their replies, mapping
their failures onto vecgym's errors, restarting them, the ``send`` / ``recv`` bookkeeping, and
closing. :class:`~vecgym.vector.RayVectorEnv` adds the public API on top of :class:`RayHosts`."""

from __future__ import annotations

import collections
import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error, logger
from vecgym.vector._async.batch import copy_rows
from vecgym.vector._async.exits import revive_remote_error
from vecgym.vector._async.placement import split_slices
from vecgym.vector._async.registries import carried_registries
from vecgym.vector._async.scheduler import EnvSlot
from vecgym.vector._async.supervisor import restart_seed
from vecgym.vector._boundary import ActionBoundsCheck, check_not_before_reset
from vecgym.vector._ray.actions import ActionWire
from vecgym.vector._ray.batches import Rollout, place_infos, widen
from vecgym.vector._ray.cluster import HostSlot, wait_dead
from vecgym.vector._ray.host import HostFailure, VectorHost, unbatch_info
from vecgym.vector._ray.messages import (
    ACTIONS_LENGTH_MSG,
    BROKEN_MSG,
    CLOSE_PENDING_MSG,
    CLOSE_TIMEOUT_S,
    CLOSED_MSG,
    HOST_DIED_MSG,
    NO_ASYNC_MSG,
    NO_CPUS_FOR_RESTART,
    NO_NODES_MSG,
    PENDING_MSG,
    POOL_BUSY_MSG,
    REMOTE_NOTE,
    RESTART_FAILED_MSG,
    RESTART_TIMEOUT_S,
    RESTARTED_DURING_MSG,
    START_TIMEOUT_MSG,
    TIMEOUT_MSG,
    WORKER_ERROR_MSG,
)
from vecgym.vector._ray.observations import ObsStore
from vecgym.vector.autoreset import STEP_AFTER_END_MSG
from vecgym.vector.vector_env import AutoresetMode, SubEnvsVectorEnv

__all__ = ["RayHosts"]


class RayHosts(SubEnvsVectorEnv[Any, Any, np.ndarray]):
    """The host actors of a RayVectorEnv and the state they share with its public API."""

    env_fns: Any
    hosts: list[HostSlot]
    on_worker_failure: str
    start_timeout: float | None
    step_timeout: float | None
    copy: bool
    autoreset_mode: AutoresetMode
    restart_entropy: int
    cpus_per_host: list[float]
    observation_mode: Any
    _obs: ObsStore
    _actions: ActionWire
    _ray: Any
    _owns_ray: bool
    _broken: BaseException | None
    _unrestarted: int | None
    """The host whose restart did not come back in time (Ray may still restart it later)."""
    _pending: tuple[str, list[Any]] | None
    _rollouts: collections.deque[tuple[Any, int, list[Any], list[int]]]
    _slices: list[tuple[int, int]]
    _host_of_env: npt.NDArray[np.intp]
    _descriptions: list[dict[str, Any]]
    _action_check: ActionBoundsCheck | None
    _rewards: npt.NDArray[np.float64]
    _terminated: npt.NDArray[np.bool_]
    _truncated: npt.NDArray[np.bool_]
    _was_reset: npt.NDArray[np.bool_]
    _ended: npt.NDArray[np.bool_]
    _last_seeds: list[int | None]
    _env_state: npt.NDArray[np.int8]
    _ready: list[int]
    _pool_infos: dict[int, dict[str, Any]]
    _last_recv: npt.NDArray[np.intp] | None

    # --- construction ----------------------------------------------------------------------------
    def _start_ray(self, address: str | None, init_kwargs: dict[str, Any] | None) -> None:
        ray = self._ray
        if ray.is_initialized():
            return
        kwargs: dict[str, Any] = {"log_to_driver": False}
        if address is None and "RAY_ADDRESS" not in os.environ:
            # "local": always a fresh node of our own, never a cluster that happens to run on
            # this machine (a bare ray.init() would join one it finds in /tmp/ray)
            kwargs["address"] = "local"
            kwargs["include_dashboard"] = False
        else:
            kwargs["address"] = address
        kwargs.update(init_kwargs or {})
        ray.init(**kwargs)
        self._owns_ray = True

    def _nodes(self) -> list[tuple[str, float]]:
        nodes = [
            (node["NodeID"], float(node.get("Resources", {}).get("CPU", 0.0)))
            for node in self._ray.nodes()
            if node.get("Alive") and node.get("Resources", {}).get("CPU", 0.0) > 0
        ]
        if not nodes:
            raise error.VectorEnvError(NO_NODES_MSG)
        return sorted(nodes)

    def _start_hosts(
        self, num_hosts: int | None, cpus_per_host: float | None, workers_per_host: int | None
    ) -> None:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        nodes = self._nodes()
        count = min(len(nodes) if num_hosts is None else int(num_hosts), self.num_envs)
        placement = [nodes[k % len(nodes)] for k in range(count)]
        per_node = {node: placement.count((node, cpus)) for node, cpus in nodes}
        restart = self.on_worker_failure == "restart"
        remote_host = self._ray.remote(VectorHost)
        registries = carried_registries()  # the ids this driver registered, for every host
        self._slices = split_slices(self.num_envs, count)
        self._host_of_env = np.concatenate(
            [np.full(b - a, k, dtype=np.intp) for k, (a, b) in enumerate(self._slices)]
        )
        self.cpus_per_host: list[float] = []
        for (a, b), (node, node_cpus) in zip(self._slices, placement, strict=True):
            share = node_cpus / per_node[node]
            cpus = float(cpus_per_host) if cpus_per_host is not None else share
            cpus = float(int(cpus)) if cpus >= 1 else cpus
            workers = workers_per_host if workers_per_host is not None else max(1, int(cpus))
            workers = min(int(workers), b - a)
            actor = remote_host.options(
                num_cpus=cpus,
                scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=restart),
                max_restarts=-1 if restart else 0,
                max_task_retries=0,
                name=None,
            ).remote(
                list(self.env_fns[a:b]),
                a,
                self.autoreset_mode.value,
                workers,
                False,
                self.observation_mode,
                registries,
            )
            self.hosts.append(HostSlot(actor=actor, start=a, stop=b, node=node[:12]))
            self.cpus_per_host.append(cpus)
        refs = [host.actor.describe.remote() for host in self.hosts]
        _, not_ready = self._ray.wait(refs, num_returns=len(refs), timeout=self.start_timeout)
        if not_ready:
            late = [k for k, ref in enumerate(refs) if ref in not_ready]
            raise error.WaitTimeout(
                START_TIMEOUT_MSG.format(
                    hosts=late, timeout=self.start_timeout, cpus=self.cpus_per_host
                )
            )
        self._descriptions = []
        for k, ref in enumerate(refs):
            status, payload = self._get(k, ref, "__init__")
            if status == "error":  # an env constructor raised: its own type, host and env named
                raise self._rebuild(payload, k)
            if status != "ok":  # the actor or a worker of its local vector env died at start
                raise self._host_error(k, status, payload)
            self.hosts[k].instance = payload["instance"]
            self.hosts[k].node = payload["node_id"][:12] or self.hosts[k].node
            self._descriptions.append(payload)

    # --- rollouts --------------------------------------------------------------------------------
    def _assemble(
        self, results: dict[int, Any], num_steps: int, restarted: npt.NDArray[np.bool_]
    ) -> Rollout:
        n = self.num_envs
        payloads = [results[k] for k in sorted(results)]
        with_extras = [p["extras"] for p in payloads if p["extras"] is not None]
        extras = widen(with_extras[0], num_steps, n) if with_extras else None
        flags: dict[str, Any] = {
            name: np.zeros((num_steps, n), dtype=np.float64 if name == "rewards" else np.bool_)
            for name in ("rewards", "terminations", "truncations", "stepped")
        }
        infos: list[dict[str, Any]] = [{} for _ in range(num_steps)]
        for k, payload in results.items():
            host = self.hosts[k]
            rows = slice(host.start, host.stop)
            if extras is not None and payload["extras"] is not None:
                copy_rows(extras, (slice(None), rows), payload["extras"])
            for name, array in flags.items():
                array[:, rows] = payload[name]
            self._obs.write(rows, payload["next_observations"])
            for t, info in enumerate(payload["infos"]):
                if info:
                    infos[t] = place_infos(infos[t], info, rows, n)
        if restarted.any():
            infos[0] = place_infos(
                infos[0],
                {"worker_restarted": restarted, "_worker_restarted": restarted.copy()},
                slice(None),
                n,
            )
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended |= (flags["terminations"] | flags["truncations"]).any(axis=0)
        return Rollout(
            observations=self._rollout_observations(results, num_steps),
            actions=self._rollout_actions(results, num_steps, flags["stepped"]),
            rewards=flags["rewards"],
            terminations=flags["terminations"],
            truncations=flags["truncations"],
            infos=infos,
            extras=extras,
            next_observations=self._observations_out(),
            restarted=restarted,
            host_seconds=np.array([p["seconds"] for p in payloads]),
            stepped=flags["stepped"],
        )

    def _rollout_actions(
        self, results: dict[int, Any], num_steps: int, stepped: npt.NDArray[np.bool_]
    ) -> Any:
        """The actions of a rollout: ``(T, n, ...)`` arrays, or (spaces that do not batch into
        arrays) a list of ``T`` batches, the rows of envs not stepped blank (``None`` parts)."""
        return self._stack_rollout(
            results,
            "actions",
            num_steps,
            self._actions.arrays,
            lambda values, t: self._actions.batch_with_gaps(values, stepped[t]),
        )

    def _rollout_observations(self, results: dict[int, Any], num_steps: int) -> Any:
        """The observations of a rollout: ``(T, n, ...)`` arrays, or (spaces that do not batch
        into arrays) a list of ``T`` batches, each what :meth:`step` would have returned."""
        return self._stack_rollout(
            results,
            "observations",
            num_steps,
            self._obs.arrays,
            lambda values, t: self._obs.batch_of(values),
        )

    def _stack_rollout(
        self,
        results: dict[int, Any],
        key: str,
        num_steps: int,
        arrays: bool,
        batch: Callable[[list[Any], int], Any],
    ) -> Any:
        """The hosts' rollout entries ``key`` placed in their envs' rows: one ``(T, n, ...)``
        tree (``arrays``), or per step the per-env values batched by ``batch(values, t)``."""
        n = self.num_envs
        if arrays:
            stacked = widen(results[min(results)][key], num_steps, n)
            for k, payload in results.items():
                rows = slice(self.hosts[k].start, self.hosts[k].stop)
                copy_rows(stacked, (slice(None), rows), payload[key])
            return stacked
        steps: list[Any] = []
        for t in range(num_steps):
            values: list[Any] = [None] * n
            for k, payload in results.items():
                values[self.hosts[k].start : self.hosts[k].stop] = payload[key][t]
            steps.append(batch(values, t))
        return steps

    # --- EnvPool-style asynchronous batches ------------------------------------------------------
    def _dispatch(self, k: int, env_ids: list[int], actions: Any) -> None:
        host = self.hosts[k]
        local = np.asarray(env_ids, dtype=np.intp) - host.start
        host.ref = host.actor.step_subset.remote(local, actions)
        host.ref_ids = list(env_ids)

    def _collect_pool(self, k: int) -> None:
        host = self.hosts[k]
        ref, env_ids = host.ref, host.ref_ids
        host.ref = host.ref_ids = None
        status, payload = self._get(k, ref, "recv")
        if status in ("died", "lost"):
            if self.on_worker_failure != "restart":
                raise self._host_error(k, status, payload)
            host.ref_ids = env_ids
            self._restart_pool_host(k, kill=status == "died")
            return
        if status == "error":  # the call's envs (and those queued behind it) were not stepped
            for i in [*env_ids, *host.queued]:
                self._env_state[i] = EnvSlot.IDLE
            host.queued, host.queued_actions = [], []
            raise self._rebuild(payload, k)
        obs, rewards, terminated, truncated, per_env = payload
        ids = np.asarray(env_ids, dtype=np.intp)
        self._obs.write(ids, obs)
        self._rewards[ids] = rewards
        self._terminated[ids] = terminated
        self._truncated[ids] = truncated
        for i, info in zip(env_ids, per_env, strict=True):
            if info:
                self._pool_infos[i] = info
            self._env_state[i] = EnvSlot.READY
            self._ready.append(i)
        self._send_queued(k)

    def _send_queued(self, k: int) -> None:
        host = self.hosts[k]
        if host.queued:
            queued, actions = host.queued, host.queued_actions
            host.queued, host.queued_actions = [], []
            self._dispatch(k, queued, self._actions.concat(actions))

    def _restart_pool_host(self, k: int, kill: bool) -> None:
        """Restart host ``k`` during :meth:`recv`: its envs in flight, queued or ready come back
        restarted (reset observation, reward 0, ``truncated=True``, ``worker_restarted``); the
        batch buffer gets every env's reset observation."""
        host = self.hosts[k]
        host.ref = host.ref_ids = None
        host.queued, host.queued_actions = [], []
        report = [i for i in host.envs if self._env_state[i] != EnvSlot.IDLE]
        for i in report:
            if self._env_state[i] == EnvSlot.READY:
                self._ready.remove(i)
        obs, reset_infos, _ = self._restart(k, self._restart_seeds(k), self._owes_autoreset(), kill)
        self._obs.write(slice(host.start, host.stop), obs)
        per_env = unbatch_info(reset_infos, host.stop - host.start)
        for i in report:
            self._rewards[i] = 0.0
            self._terminated[i] = False
            self._truncated[i] = True
            self._pool_infos[i] = {**per_env[i - host.start], "worker_restarted": True}
            self._env_state[i] = EnvSlot.READY
            self._ready.append(i)

    def _discard_pool(self) -> None:
        self._env_state[:] = EnvSlot.IDLE
        self._ready.clear()
        self._pool_infos.clear()
        self._last_recv = None

    # --- host calls ------------------------------------------------------------------------------
    def _raise_if_restarted(self, k: int, payload: Any, method: str) -> None:
        if payload is None:
            host = self.hosts[k]
            self._restart(k, self._restart_seeds(k), self._owes_autoreset())
            raise error.WorkerDied(
                RESTARTED_DURING_MSG.format(host=k, envs=host.envs, method=method, how="host lost"),
                worker=k,
                env_indices=tuple(host.envs),
            )

    def _group(self, selected: list[int]) -> dict[int, list[int]]:
        groups: dict[int, list[int]] = {}
        for i in selected:
            groups.setdefault(int(self._host_of_env[i]), []).append(i)
        return groups

    # --- waiting and failures --------------------------------------------------------------------
    def _gather(
        self, calls: dict[int, Any] | list[Any], method: str, timeout: float | None
    ) -> dict[int, Any]:
        """Wait for the hosts' replies: ``{host: payload}``; ``None`` for a host to restart.

        Raises the first env error (after any restart), ``WorkerDied`` for a dead host in
        ``"raise"`` mode, ``WaitTimeout`` when hosts are late (``"raise"`` mode).
        """
        items = calls.items() if isinstance(calls, dict) else enumerate(calls)
        pending = {k: ref for k, ref in items if ref is not None}
        refs = list(pending.values())
        started = time.monotonic()
        replies = self._get_all(refs, timeout)
        late_set: set[Any] = set()
        if replies is None:  # a late or failed host: look at each reply on its own
            left = None if timeout is None else max(0.0, timeout - (time.monotonic() - started))
            _, late = self._ray.wait(refs, num_returns=len(refs), timeout=left)
            late_set = set(late)
        results: dict[int, Any] = {}
        first_error: tuple[int, HostFailure] | None = None
        restart = self.on_worker_failure == "restart"
        late_hosts = [k for k, ref in pending.items() if ref in late_set]
        if late_hosts and not restart:
            envs = [i for k in late_hosts for i in self.hosts[k].envs]
            raise error.WaitTimeout(
                TIMEOUT_MSG.format(method=method, timeout=timeout, hosts=late_hosts, envs=envs)
            )
        for j, (k, ref) in enumerate(pending.items()):
            if ref in late_set:
                self._kill_for_restart(k)
                results[k] = None
                continue
            status, payload = self._get(k, ref, method) if replies is None else replies[j]
            if status == "ok":
                results[k] = payload
            elif status == "error":
                results[k] = payload
                if first_error is None:
                    first_error = (k, payload)
            else:
                if not restart:
                    raise self._host_error(k, status, payload)
                if status == "died":
                    self._kill_for_restart(k)
                results[k] = None
        if first_error is not None:
            for k, payload in results.items():
                if payload is None:
                    self._restart(
                        k,
                        self._restart_seeds(k),
                        self.autoreset_mode is not AutoresetMode.SAME_STEP,
                    )
            raise self._rebuild(first_error[1], first_error[0])
        return results

    def _get_all(self, refs: list[Any], timeout: float | None) -> list[Any] | None:
        """Every reply with one ``ray.get`` (the fast path: one call, not one per host), or
        ``None`` when some host is late or its actor died."""
        ray = self._ray
        try:
            return list(ray.get(refs, timeout=timeout))
        except (ray.exceptions.GetTimeoutError, ray.exceptions.RayError):
            return None

    def _get(self, k: int, ref: Any, method: str) -> tuple[str, Any]:
        """A host's reply: ``("ok" | "error" | "died", payload)``, or ``("lost", exc)`` when the
        actor itself died (process exit, node lost)."""
        ray = self._ray
        try:
            return tuple(ray.get(ref))
        except ray.exceptions.RayError as exc:
            # the actor died (exit, kill, its node lost, Ray's OOM killer) or its result was lost:
            # a host never lets an exception of its own escape as a Ray task error
            return "lost", exc

    def _host_error(self, k: int, status: str, payload: Any) -> error.WorkerDied:
        host = self.hosts[k]
        if isinstance(payload, HostFailure):
            how = f"a worker process of its local vector env died: {payload.message}"
            exitcode = payload.exitcode
        else:
            how = f"the actor died ({type(payload).__name__}: {str(payload).splitlines()[0]})"
            exitcode = None
        exc = error.WorkerDied(
            HOST_DIED_MSG.format(host=k, node=host.node, envs=host.envs, how=how),
            worker=k,
            env_indices=tuple(host.envs),
            exitcode=exitcode,
        )
        self._broken = exc
        self._pending = None
        return exc

    def _owes_autoreset(self) -> bool:
        """Whether restarted envs are left with an autoreset pending (as after a truncation)."""
        return self.autoreset_mode is not AutoresetMode.SAME_STEP

    def _kill_for_restart(self, k: int) -> None:
        with contextlib.suppress(Exception):
            self._ray.kill(self.hosts[k].actor, no_restart=False)

    def _restart_seeds(self, k: int) -> list[int | None]:
        host = self.hosts[k]
        restart = host.restarts + 1
        return [
            restart_seed(self._last_seeds[i], i, restart, self.restart_entropy) for i in host.envs
        ]

    def _restart(
        self, k: int, seeds: list[int | None], pending: bool, kill: bool = False
    ) -> tuple[Any, dict[str, Any], str]:
        """Wait for Ray to restart host ``k`` (a new instance) and reset its envs with ``seeds``.

        Raises:
            WorkerDied: the host did not come back within :meth:`_restart_limit` seconds (e.g.
                no node has the CPUs it reserves free); the vector env is unusable then.
        """
        host = self.hosts[k]
        if kill:
            self._kill_for_restart(k)
        ray = self._ray
        limit = self._restart_limit()
        deadline = time.monotonic() + limit
        how = "no reply"
        while time.monotonic() < deadline:
            ref = host.actor.restarted.remote(seeds, pending)
            try:
                status, payload = ray.get(ref, timeout=max(0.1, deadline - time.monotonic()))
            except ray.exceptions.GetTimeoutError:
                how = "no reply"
                break
            except ray.exceptions.RayError as exc:
                how = type(exc).__name__  # not restarted yet: ask again
                time.sleep(0.2)
                continue
            if status != "ok":
                raise self._rebuild(payload, k)
            obs, infos, instance, node = payload
            if instance == host.instance:  # the old instance answered: the kill has not landed
                self._kill_for_restart(k)
                time.sleep(0.1)
                continue
            host.instance = instance
            host.node = node[:12] or host.node
            host.restarts += 1
            # DISABLED: envs left "truncated" (pending) must be reset first, as the host knows
            ended = pending and self.autoreset_mode is AutoresetMode.DISABLED
            for i in host.envs:
                self._was_reset[i] = True
                self._ended[i] = ended
            return obs, infos, instance
        failed = self._restart_failed(k, self._shortage(k, how), limit)
        self._broken, self._unrestarted = failed, k
        raise failed

    def _restart_limit(self) -> float:
        """Seconds a restart may take: ``start_timeout``, or ``RESTART_TIMEOUT_S`` without one."""
        return RESTART_TIMEOUT_S if self.start_timeout is None else self.start_timeout

    def _shortage(self, k: int, how: str) -> str:
        """``how`` a restart failed, plus the likely cause when the cluster lacks the CPUs."""
        with contextlib.suppress(Exception):
            free = float(self._ray.available_resources().get("CPU", 0.0))
            cpus = self.cpus_per_host[k]
            if free < cpus:
                return f"{how}; {NO_CPUS_FOR_RESTART.format(cpus=cpus, free=free)}"
        return how

    def _restart_failed(self, k: int, how: str, limit: float | None = None) -> error.WorkerDied:
        """The error for host ``k`` not coming back from a restart (no side effect)."""
        host = self.hosts[k]
        timeout = self._restart_limit() if limit is None else limit
        return error.WorkerDied(
            RESTART_FAILED_MSG.format(
                host=k, node=host.node, envs=host.envs, timeout=timeout, how=how
            ),
            worker=k,
            env_indices=tuple(host.envs),
        )

    def _rebuild(self, failure: HostFailure, k: int) -> BaseException:
        """The exception to raise on the driver for a host's ``failure``."""
        node = self.hosts[k].node if k < len(self.hosts) else "?"
        message = WORKER_ERROR_MSG.format(
            type_name=failure.type_name, message=failure.message, host=k, env=failure.env_index
        )
        note = REMOTE_NOTE.format(host=k, node=node, env=failure.env_index)
        return revive_remote_error(failure, k, message, note)

    # --- checks ----------------------------------------------------------------------------------
    def _check_actions(self, actions: Any, ids: npt.NDArray[np.intp] | None) -> Any:
        """Check a batch of actions for all envs (``ids=None``) or for ``ids``; returns their
        wire form (:class:`ActionWire`). Nothing is sent when this raises."""
        count = self.num_envs if ids is None else len(ids)
        if isinstance(actions, np.ndarray) and (actions.ndim == 0 or actions.shape[0] != count):
            raise ValueError(ACTIONS_LENGTH_MSG.format(count, actions.shape))
        check_not_before_reset(self._was_reset, ids)
        if self.autoreset_mode is AutoresetMode.DISABLED:
            ended = self._ended if ids is None else self._ended[ids]
            if ended.any():
                first = int(np.argmax(ended)) if ids is None else int(ids[np.argmax(ended)])
                raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=first))
        if not self._actions.arrays:  # one action per env, each checked as AsyncVectorEnv does
            wire = self._actions.of(actions, count)
            if self._action_check is not None:
                self._action_check.check_items(wire, None if ids is None else ids.tolist())
            return wire
        if self._action_check is not None:
            self._action_check.check_batch(actions, count)
        return actions

    def _assert_is_running(self) -> None:
        if self.closed:
            raise error.ClosedEnvironmentError(CLOSED_MSG.format(type(self).__name__))
        if self._broken is not None:
            raise error.WorkerDied(BROKEN_MSG.format(self._broken))

    def _assert_idle(self, method: str) -> None:
        if self._pending is not None:
            raise error.AlreadyPendingCallError(
                PENDING_MSG.format(method=method, pending=self._pending[0]), self._pending[0]
            )
        if method != "send" and (self._env_state == EnvSlot.RUNNING).any():
            raise error.AlreadyPendingCallError(POOL_BUSY_MSG.format(method), "send")

    def _take_pending(self, kind: str, method: str, partner: str) -> list[Any]:
        self._assert_is_running()
        if self._pending is None or self._pending[0] != kind:
            raise error.NoAsyncCallError(NO_ASYNC_MSG.format(method=method, partner=partner), kind)
        calls = self._pending[1]
        self._pending = None
        return calls

    def _observations_out(self) -> Any:
        return self._obs.out(self.copy)

    @property
    def observations(self) -> Any:
        """The latest observations of every env: the driver's batch buffer (not a copy)."""
        return self._obs.out(False)

    # --- closing ---------------------------------------------------------------------------------
    def close_extras(self, timeout: float | None = None, **kwargs: Any) -> None:
        """Close the hosts' envs, end the host actors, and shut Ray down if this env started it.

        Bounded by ``timeout`` (default ``CLOSE_TIMEOUT_S``) and never raises.
        """
        budget = CLOSE_TIMEOUT_S if timeout is None else max(0.0, timeout)
        ray = getattr(self, "_ray", None)
        if ray is None:
            return
        with contextlib.suppress(Exception):
            self._rollouts.clear()
            if self._pending is not None:
                pending, self._pending = self._pending[0], None
                with contextlib.suppress(Exception):
                    logger.warn(CLOSE_PENDING_MSG.format(pending))
        # A host that did not come back from a restart has no envs to close, and Ray may still
        # restart it: it is killed first, so that it is not started on a CPU that the other
        # hosts free while they close (a process that would outlive this call), and its close
        # is not waited for.
        lost = self._unrestarted
        if lost is not None:
            with contextlib.suppress(Exception):
                ray.kill(self.hosts[lost].actor, no_restart=True)
        try:
            refs = []
            for k, host in enumerate(self.hosts):
                if k == lost:
                    continue
                with contextlib.suppress(Exception):
                    refs.append(host.actor.close.remote())
            if refs:
                ray.wait(refs, num_returns=len(refs), timeout=budget / 2)
        except Exception:
            pass
        # The hosts exit on their own first, so that their processes run their exit handlers:
        # multiprocessing's among them removes the temporary directory of the local vector env's
        # forkserver (a `/tmp/pymp-*` directory holding its socket), which a killed process
        # leaves on its node. A host still alive after a quarter of the budget is killed.
        for k, host in enumerate(self.hosts):
            if k != lost:
                with contextlib.suppress(Exception):
                    host.actor.__ray_terminate__.remote()
        deadline = time.monotonic() + budget / 4
        for host in self.hosts:
            wait_dead(ray, host.actor, deadline)
        for host in self.hosts:
            with contextlib.suppress(Exception):
                ray.kill(host.actor, no_restart=True)
        deadline = time.monotonic() + budget / 4
        for host in self.hosts:
            wait_dead(ray, host.actor, deadline)
        self.hosts = []
        if self._owns_ray:
            with contextlib.suppress(Exception):
                ray.shutdown()
            self._owns_ray = False
