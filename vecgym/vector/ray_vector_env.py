"""RayVectorEnv: vecgym's vector API over the nodes of a Ray cluster.

Data flow of one call (host ``h`` owns the contiguous env slice ``[a_h, b_h)``)::

    driver                                         host actor h (one per node by default)
    ------                                         ---------------------------------------
    check actions, slice rows [a_h, b_h)  ------>  local AsyncVectorEnv (forkserver, one worker per
      one actor call per host (step / rollout)      reserved CPU) or SyncVectorEnv (1 CPU) steps the
    ray.wait(all refs, timeout)                     slice through the one autoreset state machine
    copy each host's rows into preallocated  <---  returns (status, payload): arrays + batched infos
      batch arrays (Ray returns read-only          (rollout: T steps with the policy, stacked)
      arrays), merge infos into global rows

A Ray actor round trip costs ~1-3 ms on the 2-core development machine (see
``benchmarks/RESULTS.md``), hundreds of CartPole steps: per-step calls (:meth:`RayVectorEnv.step`,
:meth:`RayVectorEnv.send` / :meth:`RayVectorEnv.recv`) move one batch per host per call, and
:meth:`RayVectorEnv.rollout` amortises the round trip over ``num_steps`` env steps per host.

Failures map onto AsyncVectorEnv's types and restart contract: an env's exception comes back with
its type (``__cause__`` the remote traceback, the message naming host, node and env); a dead host
(actor died, node lost, a worker process of its local vector env died) raises
:class:`vecgym.error.WorkerDied`; a wait past its timeout raises :class:`vecgym.error.WaitTimeout`;
``on_worker_failure="restart"`` restarts the host actor through Ray (``max_restarts``) and resets
its envs with :func:`vecgym.vector.async_vector_env.restart_seed` seeds.

Security: the env functions are pickled and run on the cluster's nodes, and anyone who can reach
a Ray cluster's ports can run code on it. Never expose a Ray cluster to untrusted networks; see
``docs/ray.md``. When this class starts Ray itself (nothing initialised, no ``address``), it starts
a single local node without the dashboard; Ray then advertises the machine's address unless
``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` was in the environment when ``ray`` was imported (see the
docs: this class does not change the process's environment).
"""

from __future__ import annotations

import collections
import contextlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error, logger
from vecgym.core.env import Env, RenderFrame
from vecgym.vector._arguments import normalize_indices, normalize_seeds, split_reset_options
from vecgym.vector._async.batch import copy_rows, copy_tree, select_info, select_rows
from vecgym.vector._async.exits import revive_remote_error
from vecgym.vector._async.placement import split_slices
from vecgym.vector._async.scheduler import ENV_IDS_MSG as ENV_IDS_MSG
from vecgym.vector._async.scheduler import select_env_ids
from vecgym.vector._async.supervisor import restart_seed
from vecgym.vector._boundary import check_not_before_reset, make_action_check
from vecgym.vector._ray_host import HostFailure, VectorHost
from vecgym.vector.autoreset import STEP_AFTER_END_MSG
from vecgym.vector.utils import batch_space, create_empty_array, is_array_batchable
from vecgym.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["RayVectorEnv", "Rollout"]

RAY_MISSING_MSG = (
    "RayVectorEnv needs Ray: install it with `pip install vecgym[ray]` (ray>=2.9); import failed "
    "with: {}"
)
ENV_FNS_MSG = "env_fns must be a non-empty sequence of callables, got {!r}"
NUM_HOSTS_MSG = "num_hosts must be None or an int in [1, num_envs={}], got {!r}"
CPUS_MSG = "cpus_per_host must be None or a positive number, got {!r}"
WORKERS_MSG = "workers_per_host must be None or an int >= 1, got {!r}"
ON_FAILURE_MSG = "on_worker_failure must be 'raise' or 'restart', got {!r}"
TIMEOUT_ARG_MSG = "{} must be None or a positive number of seconds, got {!r}"
BATCH_SIZE_MSG = "batch_size must be an int in [1, num_envs={}] or None, got {!r}"
NO_NODES_MSG = "the Ray cluster has no live node with CPUs to place hosts on"
SPACE_MSG = (
    "RayVectorEnv batches observations into arrays: the observation space must be Box, Discrete, "
    "MultiDiscrete, MultiBinary or a Dict / Tuple of them, got {}"
)
SPACES_DIFFER_MSG = (
    "every host's envs must have the same {what} space: host {host} has {theirs}, host 0 has {ours}"
)
START_TIMEOUT_MSG = (
    "RayVectorEnv hosts {hosts} did not start within {timeout} s: the cluster may lack the CPUs "
    "they reserve ({cpus} each), or the nodes are overloaded"
)
TIMEOUT_MSG = (
    "`{method}` timed out after {timeout} s: hosts {hosts} (envs {envs}) did not reply; their "
    "late results will be discarded"
)
HOST_DIED_MSG = (
    "RayVectorEnv host {host} (node {node}, envs {envs}) died: {how}. Its envs are lost; close "
    "the vector env, or use on_worker_failure='restart'"
)
RESTART_FAILED_MSG = (
    "RayVectorEnv host {host} (node {node}, envs {envs}) could not be restarted within {timeout} "
    "s: {how}"
)
RESTARTED_DURING_MSG = (
    "RayVectorEnv host {host} (envs {envs}) died during `{method}` and was restarted; the call's "
    "results for its envs are lost: {how}"
)
BROKEN_MSG = "RayVectorEnv is unusable after a host died; close it. The first failure was: {}"
REMOTE_NOTE = "raised in RayVectorEnv host {host} (node {node}), sub-environment {env}"
WORKER_ERROR_MSG = (
    "{type_name}: {message} (raised in RayVectorEnv host {host}, sub-environment {env})"
)
PENDING_MSG = "Calling `{method}` while waiting for a pending call to `{pending}` to complete."
NO_ASYNC_MSG = "Calling `{method}` without any prior call to `{partner}`."
NOTHING_IN_FLIGHT_MSG = "Calling `recv` without any environment in flight: call `send` first."
POOL_BUSY_MSG = "Calling `{}` while environments sent with `send` are still in flight: `recv` them."
ACTIONS_LENGTH_MSG = "expected a batch of {} actions (one per env), got an array of shape {}"
SET_ATTR_LENGTH_MSG = (
    "Values must be a list or tuple with length equal to the number of environments. Got `{}` "
    "values for {} environments."
)
CLOSED_MSG = "Trying to operate on `{}`, after a call to `close()`."
NUM_STEPS_MSG = "num_steps must be an int >= 1, got {!r}"
ROLLOUT_DISABLED_MSG = (
    "rollout needs an autoreset mode that continues episodes (NEXT_STEP or SAME_STEP), got DISABLED"
)
CLOSE_TIMEOUT_S = 10.0
INLINE_POLICY_BYTES = 64 * 1024  # below Ray's inlining limit for task arguments (100 KiB)
RESTART_TIMEOUT_S = 60.0
START_TIMEOUT_S = 120.0

_IDLE, _RUNNING, _READY = 0, 1, 2


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise error.DependencyNotInstalled(RAY_MISSING_MSG.format(exc)) from exc
    return ray


def _check_timeout(name: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(TIMEOUT_ARG_MSG.format(name, value))
    return float(value)


def _place_infos(
    target: dict[str, Any], source: dict[str, Any], rows: Any, num_envs: int
) -> dict[str, Any]:
    """Merge a host's batched infos (one entry per env of its rows) into the global infos."""
    for key, value in source.items():
        if isinstance(value, dict):
            target[key] = _place_infos(target.get(key, {}), value, rows, num_envs)
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
        observations: what the policy saw at each step, ``(T, n, ...)`` (a tree for Dict / Tuple).
        actions: the policy's actions, ``(T, n, ...)``.
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


@dataclass
class _Host:
    actor: Any
    start: int
    stop: int
    node: str
    instance: str = ""
    ref: Any = None  # the send/recv call in flight
    ref_ids: Any = None  # its global env ids
    queued: list[int] = field(default_factory=list)
    queued_actions: list[Any] = field(default_factory=list)
    restarts: int = 0

    @property
    def envs(self) -> list[int]:
        return list(range(self.start, self.stop))


class RayVectorEnv(VectorEnv[Any, Any, np.ndarray]):
    """Runs environments in Ray actors ("hosts"), each owning a slice of envs on one node.

    The same API and results, seed for seed, as :class:`vecgym.vector.SyncVectorEnv` over the same
    env functions, plus AsyncVectorEnv's ``send`` / ``recv`` and :meth:`rollout`, which runs many
    steps per host with a policy to amortise Ray's per-call cost.

    Args:
        env_fns: functions that build the sub-environments (pickled to the hosts by Ray).
        num_hosts: host actors; ``None``: one per live node with CPUs. Host ``k`` goes to node
            ``k mod nodes``.
        cpus_per_host: CPUs each host reserves from Ray; ``None``: its node's CPUs divided by the
            hosts placed there.
        workers_per_host: worker processes of each host's local AsyncVectorEnv; ``None``: the
            host's reserved CPUs (at most its envs). 1 steps the envs in the actor's process.
        address: the Ray cluster to connect to when Ray is not initialised yet (``ray.init
            (address=...)``); ``None`` starts a local Ray node (no dashboard). Ray is shut down by
            :meth:`close` only when this vector env initialised it.
        copy: return copies of the observations (``False``: the batch buffer, overwritten by the
            next call).
        autoreset_mode: the autoreset mode.
        batch_size: how many envs :meth:`recv` returns; ``None``: ``num_envs``.
        check_actions: as in :class:`vecgym.vector.SyncVectorEnv` (checked here, before sending).
        on_worker_failure: ``"raise"`` or ``"restart"`` (see :meth:`step_wait`).
        step_timeout: seconds a wait lasts when called without a timeout (``None``: no limit); in
            ``"restart"`` mode a host that takes longer is killed and restarted.
        start_timeout: seconds to wait for the hosts to start.
        ray_init_kwargs: extra keyword arguments of ``ray.init`` when this class calls it.

    Example:
        >>> import vecgym as gym
        >>> envs = RayVectorEnv([lambda: gym.make("CartPole-v1")] * 4)  # doctest: +SKIP
        >>> obs, infos = envs.reset(seed=42)  # doctest: +SKIP
        >>> batch = envs.rollout(lambda obs: (obs[:, 2] > 0).astype(np.int64), 32)  # doctest: +SKIP
        >>> batch.rewards.shape  # doctest: +SKIP
        (32, 4)
        >>> envs.close()  # doctest: +SKIP
    """

    def __init__(
        self,
        env_fns: Sequence[Callable[[], Env[Any, Any]]],
        *,
        num_hosts: int | None = None,
        cpus_per_host: float | None = None,
        workers_per_host: int | None = None,
        address: str | None = None,
        copy: bool = True,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        batch_size: int | None = None,
        check_actions: bool | str = True,
        on_worker_failure: str = "raise",
        step_timeout: float | None = None,
        start_timeout: float | None = START_TIMEOUT_S,
        ray_init_kwargs: dict[str, Any] | None = None,
    ) -> None:
        self.closed = False
        self.hosts: list[_Host] = []
        self._owns_ray = False
        self._broken: BaseException | None = None
        self._pending: tuple[str, list[Any]] | None = None
        self._rollouts: collections.deque[tuple[Any, int, list[Any], list[int]]] = (
            collections.deque()
        )
        if (
            not isinstance(env_fns, Sequence)
            or len(env_fns) == 0
            or not all(callable(fn) for fn in env_fns)
        ):
            raise TypeError(ENV_FNS_MSG.format(env_fns))
        self.env_fns = env_fns
        self.num_envs = len(env_fns)
        if num_hosts is not None and (
            isinstance(num_hosts, bool)
            or not isinstance(num_hosts, (int, np.integer))
            or not 1 <= num_hosts <= self.num_envs
        ):
            raise ValueError(NUM_HOSTS_MSG.format(self.num_envs, num_hosts))
        if cpus_per_host is not None and (
            isinstance(cpus_per_host, bool)
            or not isinstance(cpus_per_host, (int, float))
            or not cpus_per_host > 0
        ):
            raise ValueError(CPUS_MSG.format(cpus_per_host))
        if workers_per_host is not None and (
            isinstance(workers_per_host, bool)
            or not isinstance(workers_per_host, (int, np.integer))
            or workers_per_host < 1
        ):
            raise ValueError(WORKERS_MSG.format(workers_per_host))
        if on_worker_failure not in ("raise", "restart"):
            raise ValueError(ON_FAILURE_MSG.format(on_worker_failure))
        self.step_timeout = _check_timeout("step_timeout", step_timeout)
        self.start_timeout = _check_timeout("start_timeout", start_timeout)
        if batch_size is None:
            batch_size = self.num_envs
        if (
            isinstance(batch_size, bool)
            or not isinstance(batch_size, (int, np.integer))
            or not 1 <= batch_size <= self.num_envs
        ):
            raise ValueError(BATCH_SIZE_MSG.format(self.num_envs, batch_size))
        self.batch_size = int(batch_size)
        self.on_worker_failure = on_worker_failure
        self.copy = copy
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.check_actions = check_actions
        self.restart_entropy = int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])
        """Mixed into :func:`restart_seed`; set it (e.g. to 0) for reproducible restart seeds."""

        ray = _import_ray()
        self._ray = ray
        try:
            self._start_ray(address, ray_init_kwargs)
            self._start_hosts(num_hosts, cpus_per_host, workers_per_host)
            self._setup()
        except BaseException:
            self.close()
            raise

    # --- construction ----------------------------------------------------------------------------
    def _start_ray(self, address: str | None, init_kwargs: dict[str, Any] | None) -> None:
        ray = self._ray
        if ray.is_initialized():
            return
        kwargs: dict[str, Any] = {"log_to_driver": False}
        if address is None and "RAY_ADDRESS" not in os.environ:
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
            ).remote(list(self.env_fns[a:b]), a, self.autoreset_mode.value, workers, False)
            self.hosts.append(_Host(actor=actor, start=a, stop=b, node=node[:12]))
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
            if status != "ok":
                raise self._rebuild(payload, k)
            self.hosts[k].instance = payload["instance"]
            self.hosts[k].node = payload["node_id"][:12] or self.hosts[k].node
            self._descriptions.append(payload)

    def _setup(self) -> None:
        first = self._descriptions[0]
        for k, other in enumerate(self._descriptions[1:], start=1):
            for key in ("single_observation_space", "single_action_space"):
                if other[key] != first[key]:
                    raise RuntimeError(
                        SPACES_DIFFER_MSG.format(
                            what=key.split("_")[1], host=k, theirs=other[key], ours=first[key]
                        )
                    )
        self.single_observation_space = first["single_observation_space"]
        self.single_action_space = first["single_action_space"]
        if not is_array_batchable(self.single_observation_space):
            raise error.CustomSpaceError(SPACE_MSG.format(self.single_observation_space))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(first["metadata"])
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = first["render_mode"]
        self._action_check = make_action_check(self.single_action_space, self.check_actions)
        self.observations = create_empty_array(
            self.single_observation_space, self.num_envs, fn=np.zeros
        )
        self._rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._terminated = np.zeros(self.num_envs, dtype=np.bool_)
        self._truncated = np.zeros(self.num_envs, dtype=np.bool_)
        self._was_reset = np.zeros(self.num_envs, dtype=np.bool_)
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)
        self._last_seeds: list[int | None] = [None] * self.num_envs
        self._env_state = np.zeros(self.num_envs, dtype=np.int8)
        self._ready: list[int] = []
        self._pool_infos: dict[int, dict[str, Any]] = {}
        self._last_recv: npt.NDArray[np.intp] | None = None

    # --- properties ------------------------------------------------------------------------------
    @property
    def np_random_seed(self) -> tuple[int, ...]:  # type: ignore[override]
        """The ``np_random_seed`` of every sub-environment."""
        return self.get_attr("np_random_seed")

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The ``np_random`` generator of every sub-environment (copies, from the hosts)."""
        return self.get_attr("np_random")

    @property
    def restart_count(self) -> int:
        """How many host restarts happened (``on_worker_failure="restart"``)."""
        return sum(host.restarts for host in self.hosts)

    # --- reset -----------------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the sub-environments (all, or those of ``options["reset_mask"]``).

        Args:
            seed: ``None``, an int ``s`` (env ``i`` gets ``s + i``) or one seed per env.
            options: passed to every env's ``reset``; ``"reset_mask"`` selects the envs reset.

        Returns:
            The batched observations and infos; a reset clears pending autoresets.
        """
        self.reset_async(seed=seed, options=options)
        return self.reset_wait()

    def reset_async(
        self,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Start resetting; collect the results with :meth:`reset_wait`."""
        self._assert_is_running()
        seeds = normalize_seeds(seed, self.num_envs)
        self._assert_idle("reset_async")
        reset_mask, env_options = split_reset_options(options, self.num_envs)
        mask = np.ones(self.num_envs, dtype=np.bool_) if reset_mask is None else reset_mask
        self._discard_pool()
        calls: list[Any] = []
        for host in self.hosts:
            a, b = host.start, host.stop
            if not mask[a:b].any():
                calls.append(None)
                continue
            local_mask = None if mask[a:b].all() else mask[a:b].copy()
            calls.append(host.actor.reset.remote(seeds[a:b], env_options, local_mask))
        self._reset_request = (seeds, mask)
        self._pending = ("reset", calls)

    def reset_wait(self, timeout: float | None = None) -> tuple[Any, dict[str, Any]]:
        """Wait for :meth:`reset_async`; ``(observations, infos)``.

        Raises:
            WaitTimeout: the timeout elapsed; the late results are discarded.
            WorkerDied: a host died (``on_worker_failure="raise"``).
        """
        calls = self._take_pending("reset", "reset_wait", "reset_async")
        seeds, mask = self._reset_request
        results = self._gather(calls, "reset_wait", timeout)
        infos: dict[str, Any] = {}
        for k, payload in results.items():
            host = self.hosts[k]
            rows = slice(host.start, host.stop)
            if payload is None:  # restarted: reset with the requested seeds
                payload = self._restart(k, [seeds[i] for i in host.envs], pending=False)
                flags = np.ones(host.stop - host.start, dtype=np.bool_)
                infos = _place_infos(
                    infos,
                    {"worker_restarted": flags, "_worker_restarted": flags},
                    rows,
                    self.num_envs,
                )
            obs, host_infos, _ = payload
            local = mask[rows]
            copy_rows(
                self.observations, np.arange(host.start, host.stop)[local], select_rows(obs, local)
            )
            infos = _place_infos(infos, host_infos, rows, self.num_envs)
        self._was_reset[mask] = True
        self._ended[mask] = False
        for i in np.flatnonzero(mask).tolist():
            self._last_seeds[i] = seeds[i]
        return self._observations_out(), infos

    # --- step ------------------------------------------------------------------------------------
    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step every sub-environment (autoresetting per ``autoreset_mode``).

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``; the arrays are new on
            every call, the observations as ``copy`` says.
        """
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: Any) -> None:
        """Send one batch of actions per host; collect the results with :meth:`step_wait`.

        Raises:
            ResetNeeded: an env was never reset, or (``DISABLED``) ended without a reset since.
            ValueError / InvalidAction: actions that do not fit (nothing is sent then).
        """
        self._assert_is_running()
        self._assert_idle("step_async")
        self._check_actions(actions, None)
        self._discard_pool()
        calls = [
            host.actor.step.remote(select_rows(actions, slice(host.start, host.stop)))
            for host in self.hosts
        ]
        self._pending = ("step", calls)

    def step_wait(self, timeout: float | None = None) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Wait for :meth:`step_async` and return the step results.

        Raises:
            WaitTimeout: the timeout (default :attr:`step_timeout`) elapsed; late results are
                discarded, never returned later.
            WorkerDied: a host died (``on_worker_failure="raise"``).
            Exception: an env's exception, its own type, ``__cause__`` the remote traceback.

        With ``on_worker_failure="restart"`` a host that died (or, with a timeout, did not reply
        in time) is killed and restarted by Ray: its envs are rebuilt and reset with
        :func:`restart_seed` seeds while the other hosts step as usual. Those envs report their
        reset observation, reward 0, ``terminated=False``, ``truncated=True`` and
        ``infos["worker_restarted"]``, as in AsyncVectorEnv (``NEXT_STEP``: their next step is an
        autoreset step; ``DISABLED``: reset them first; ``SAME_STEP``: already reset).
        """
        calls = self._take_pending("step", "step_wait", "step_async")
        if timeout is None:
            timeout = self.step_timeout
        results = self._gather(calls, "step_wait", timeout)
        infos: dict[str, Any] = {}
        for k, payload in results.items():
            host = self.hosts[k]
            rows = slice(host.start, host.stop)
            if payload is None:
                infos = self._restart_rows(k, infos)
                continue
            obs, rewards, terminated, truncated, host_infos = payload
            copy_rows(self.observations, rows, obs)
            self._rewards[rows] = rewards
            self._terminated[rows] = terminated
            self._truncated[rows] = truncated
            if host_infos:
                infos = _place_infos(infos, host_infos, rows, self.num_envs)
        terminated, truncated = self._terminated.copy(), self._truncated.copy()
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended |= terminated | truncated
        return self._observations_out(), self._rewards.copy(), terminated, truncated, infos

    def _restart_rows(self, k: int, infos: dict[str, Any]) -> dict[str, Any]:
        """Restart host ``k`` and write its envs' restart rows (reset obs, reward 0, truncated)."""
        host = self.hosts[k]
        rows = slice(host.start, host.stop)
        obs, reset_infos, _ = self._restart(k, self._restart_seeds(k), self._owes_autoreset())
        copy_rows(self.observations, rows, obs)
        self._rewards[rows] = 0.0
        self._terminated[rows] = False
        self._truncated[rows] = True
        flags = np.ones(host.stop - host.start, dtype=np.bool_)
        infos = _place_infos(infos, reset_infos, rows, self.num_envs)
        return _place_infos(
            infos, {"worker_restarted": flags, "_worker_restarted": flags}, rows, self.num_envs
        )

    # --- rollout ---------------------------------------------------------------------------------
    def rollout(
        self, policy: Callable[[Any], Any], num_steps: int, timeout: float | None = None
    ) -> Rollout:
        """Run ``num_steps`` steps on every host with ``actions = policy(observations)``.

        The policy (a picklable callable, e.g. an object holding its weights) is pickled once per
        call (sent inline when small, else through Ray's object store) and runs on each host over
        the host's envs: it receives the
        batched observations of those envs and returns their actions, or ``(actions, extras)``
        with ``extras`` a dict of arrays (log-probabilities, values) stacked into
        :attr:`Rollout.extras`. One Ray call per host per rollout: this amortises Ray's round trip
        over ``num_steps`` steps. Episodes continue across calls and with :meth:`step`.

        Args:
            policy: ``policy(obs) -> actions`` or ``(actions, extras)``; it must be deterministic
                in ``obs`` for results to match a sequential run.
            num_steps: ``T``, steps per env.
            timeout: seconds to wait (default :attr:`step_timeout`).

        Returns:
            A :class:`Rollout`. With ``on_worker_failure="restart"`` a host that dies is
            restarted, its envs reset with :func:`restart_seed` seeds and its rollout run again
            on the fresh envs (:attr:`Rollout.restarted` marks them, as does
            ``infos[0]["worker_restarted"]``).

        Raises:
            ValueError: a bad ``num_steps`` or the ``DISABLED`` autoreset mode.
            ResetNeeded: some env was never reset.
        """
        self.rollout_async(policy, num_steps)
        return self.rollout_wait(timeout)

    def rollout_async(self, policy: Callable[[Any], Any], num_steps: int) -> None:
        """Start a :meth:`rollout`; collect it with :meth:`rollout_wait`.

        Several rollouts may be in flight (each host queues them and starts the next as soon as
        it finishes one, with no round trip in between); :meth:`rollout_wait` returns them in
        order. Other calls wait until every rollout in flight was collected.
        """
        self._assert_is_running()
        if self._pending is None or self._pending[0] != "rollout":
            self._assert_idle("rollout_async")
        if isinstance(num_steps, bool) or not isinstance(num_steps, (int, np.integer)):
            raise ValueError(NUM_STEPS_MSG.format(num_steps))
        if num_steps < 1:
            raise ValueError(NUM_STEPS_MSG.format(num_steps))
        if self.autoreset_mode is AutoresetMode.DISABLED:
            raise ValueError(ROLLOUT_DISABLED_MSG)
        check_not_before_reset(self._was_reset)
        self._discard_pool()
        policy_ref = self._ship(policy)
        calls = [host.actor.rollout.remote(policy_ref, int(num_steps)) for host in self.hosts]
        restarts = [host.restarts for host in self.hosts]
        self._rollouts.append((policy_ref, int(num_steps), calls, restarts))
        self._pending = ("rollout", [])

    def _ship(self, policy: Callable[[Any], Any]) -> Any:
        """The policy as the hosts receive it: pickled once; small ones (most policies) travel
        inline in each host's call, large ones (big weights) go through the object store once."""
        data = self._ray.cloudpickle.dumps(policy)
        return data if len(data) <= INLINE_POLICY_BYTES else self._ray.put(data)

    def rollout_wait(self, timeout: float | None = None) -> Rollout:
        """The oldest rollout in flight (see :meth:`rollout`).

        Raises:
            NoAsyncCallError: no rollout in flight.
            WaitTimeout: the timeout (default :attr:`step_timeout`) elapsed; every rollout in
                flight is discarded.
        """
        self._assert_is_running()
        if not self._rollouts:
            raise error.NoAsyncCallError(
                NO_ASYNC_MSG.format(method="rollout_wait", partner="rollout_async"), "rollout"
            )
        policy_ref, num_steps, calls, restarts = self._rollouts.popleft()
        if not self._rollouts:
            self._pending = None
        if timeout is None:
            timeout = self.step_timeout
        try:
            results = self._gather(calls, "rollout", timeout)
            restarted = np.zeros(self.num_envs, dtype=np.bool_)
            for k, payload in list(results.items()):
                if payload is None:
                    results[k] = self._rerun_rollout(k, policy_ref, num_steps, restarts[k], timeout)
                    restarted[self.hosts[k].start : self.hosts[k].stop] = True
        except BaseException:
            self._rollouts.clear()
            self._pending = None
            raise
        return self._assemble(results, num_steps, restarted)

    def _rerun_rollout(
        self, k: int, policy_ref: Any, num_steps: int, restarts: int, timeout: float | None
    ) -> Any:
        """Restart host ``k`` (unless it was restarted since the rollout was sent) and run the
        rollout again on its fresh envs."""
        host = self.hosts[k]
        if host.restarts == restarts:
            self._restart(k, self._restart_seeds(k), pending=False)
        again = self._gather(
            {k: host.actor.rollout.remote(policy_ref, num_steps)}, "rollout", timeout
        )
        if again[k] is None:
            raise error.WorkerDied(
                RESTART_FAILED_MSG.format(
                    host=k,
                    node=host.node,
                    envs=host.envs,
                    timeout=RESTART_TIMEOUT_S,
                    how="it died again",
                ),
                worker=k,
                env_indices=tuple(host.envs),
            )
        return again[k]

    def _assemble(
        self, results: dict[int, Any], num_steps: int, restarted: npt.NDArray[np.bool_]
    ) -> Rollout:
        first = results[0]
        n = self.num_envs
        observations = _widen(first["observations"], num_steps, n)
        actions = _widen(first["actions"], num_steps, n)
        extras = None if first["extras"] is None else _widen(first["extras"], num_steps, n)
        rewards = np.empty((num_steps, n), dtype=np.float64)
        terminated = np.empty((num_steps, n), dtype=np.bool_)
        truncated = np.empty((num_steps, n), dtype=np.bool_)
        infos: list[dict[str, Any]] = [{} for _ in range(num_steps)]
        for k, payload in results.items():
            host = self.hosts[k]
            rows = slice(host.start, host.stop)
            cols = (slice(None), rows)
            copy_rows(observations, cols, payload["observations"])
            copy_rows(actions, cols, payload["actions"])
            if extras is not None:
                copy_rows(extras, cols, payload["extras"])
            rewards[:, rows] = payload["rewards"]
            terminated[:, rows] = payload["terminations"]
            truncated[:, rows] = payload["truncations"]
            copy_rows(self.observations, rows, payload["next_observations"])
            for t, info in enumerate(payload["infos"]):
                if info:
                    infos[t] = _place_infos(infos[t], info, rows, n)
        if restarted.any():
            infos[0] = _place_infos(
                infos[0],
                {"worker_restarted": restarted, "_worker_restarted": restarted.copy()},
                slice(None),
                n,
            )
        return Rollout(
            observations=observations,
            actions=actions,
            rewards=rewards,
            terminations=terminated,
            truncations=truncated,
            infos=infos,
            extras=extras,
            next_observations=self._observations_out(),
            restarted=restarted,
            host_seconds=np.array([results[k]["seconds"] for k in sorted(results)]),
        )

    # --- EnvPool-style asynchronous batches ------------------------------------------------------
    def send(self, actions: Any, env_ids: Any = None) -> None:
        """Step the envs ``env_ids`` with ``actions`` without waiting (EnvPool's ``send``).

        Each host steps the listed envs of its slice in one call; envs sent to a host that is
        still busy are queued and go in its next call. Collect the results with :meth:`recv`.

        Args:
            actions: a batch of ``len(env_ids)`` actions, in the order of ``env_ids``.
            env_ids: env indices not in flight; ``None``: those of the last :meth:`recv` (all
                envs before the first one).

        Raises:
            ValueError: bad ``env_ids`` or actions (nothing is sent then).
        """
        self._assert_is_running()
        self._assert_idle("send")
        ids = select_env_ids(env_ids, self._last_recv, self._env_state == _RUNNING)
        self._check_actions(actions, ids)
        self._last_recv = None
        for i in ids.tolist():
            if self._env_state[i] == _READY:
                self._ready.remove(i)
                self._pool_infos.pop(i, None)
        self._env_state[ids] = _RUNNING
        for k in np.unique(self._host_of_env[ids]).tolist():
            host = self.hosts[k]
            positions = np.flatnonzero(self._host_of_env[ids] == k)
            host_ids = ids[positions].tolist()
            host_actions = select_rows(actions, positions)
            if host.ref is not None:
                host.queued.extend(host_ids)
                host.queued_actions.append(host_actions)
            else:
                self._dispatch(k, host_ids, host_actions)

    def _dispatch(self, k: int, env_ids: list[int], actions: Any) -> None:
        host = self.hosts[k]
        local = np.asarray(env_ids, dtype=np.intp) - host.start
        host.ref = host.actor.step_subset.remote(local, actions)
        host.ref_ids = list(env_ids)

    def recv(
        self, timeout: float | None = None
    ) -> tuple[Any, Any, Any, Any, dict[str, Any], npt.NDArray[np.intp]]:
        """Wait for the first ``batch_size`` envs to finish (EnvPool's ``recv``).

        Returns ``(observations, rewards, terminations, truncations, infos, env_ids)`` for the
        envs ``env_ids`` (ascending); fewer than ``batch_size`` only when fewer are in flight.
        Envs finish a host call at a time, the first hosts ready first.

        Raises:
            NoAsyncCallError: nothing was sent.
            WaitTimeout: no batch was complete in time (what finished stays ready for later).
        """
        self._assert_is_running()
        if not (self._env_state == _RUNNING).any() and not self._ready:
            raise error.NoAsyncCallError(NOTHING_IN_FLIGHT_MSG, "recv")
        if timeout is None:
            timeout = self.step_timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        ray = self._ray
        while len(self._ready) < self.batch_size and (self._env_state == _RUNNING).any():
            busy = {host.ref: k for k, host in enumerate(self.hosts) if host.ref is not None}
            if not busy:  # pragma: no cover - envs in flight always have a call in flight
                break
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = ray.wait(list(busy), num_returns=1, timeout=left)
            if not done:
                hosts = sorted(busy.values())
                if self.on_worker_failure == "restart":
                    for k in hosts:
                        self._restart_pool_host(k, kill=True)
                    continue
                envs = np.flatnonzero(self._env_state == _RUNNING).tolist()
                raise error.WaitTimeout(
                    TIMEOUT_MSG.format(method="recv", timeout=timeout, hosts=hosts, envs=envs)
                )
            for ref in done:
                k = busy[ref]
                self._collect_pool(k)
        take = sorted(self._ready[: self.batch_size])
        del self._ready[: self.batch_size]
        ids = np.asarray(take, dtype=np.intp)
        self._env_state[ids] = _IDLE
        self._last_recv = ids
        infos: dict[str, Any] = {}
        for i in take:
            info = self._pool_infos.pop(i, None)
            if info:
                infos = self._add_info(infos, info, i)
        infos = select_info(infos, ids)
        obs = select_rows(self.observations, ids)  # fancy indexing: a copy
        terminated, truncated = self._terminated[ids], self._truncated[ids]
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended[ids] |= terminated | truncated
        return obs, self._rewards[ids], terminated, truncated, infos, ids

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
                self._env_state[i] = _IDLE
            host.queued, host.queued_actions = [], []
            raise self._rebuild(payload, k)
        obs, rewards, terminated, truncated, per_env = payload
        ids = np.asarray(env_ids, dtype=np.intp)
        copy_rows(self.observations, ids, obs)
        self._rewards[ids] = rewards
        self._terminated[ids] = terminated
        self._truncated[ids] = truncated
        for i, info in zip(env_ids, per_env, strict=True):
            if info:
                self._pool_infos[i] = info
            self._env_state[i] = _READY
            self._ready.append(i)
        self._send_queued(k)

    def _send_queued(self, k: int) -> None:
        host = self.hosts[k]
        if host.queued:
            queued, actions = host.queued, host.queued_actions
            host.queued, host.queued_actions = [], []
            self._dispatch(k, queued, _concat_trees(actions))

    def _restart_pool_host(self, k: int, kill: bool) -> None:
        """Restart host ``k`` during :meth:`recv`: its envs in flight, queued or ready come back
        restarted (reset observation, reward 0, ``truncated=True``, ``worker_restarted``); the
        batch buffer gets every env's reset observation."""
        host = self.hosts[k]
        host.ref = host.ref_ids = None
        host.queued, host.queued_actions = [], []
        report = [i for i in host.envs if self._env_state[i] != _IDLE]
        for i in report:
            if self._env_state[i] == _READY:
                self._ready.remove(i)
        obs, reset_infos, _ = self._restart(k, self._restart_seeds(k), self._owes_autoreset(), kill)
        copy_rows(self.observations, slice(host.start, host.stop), obs)
        per_env = _unbatch(reset_infos, host.stop - host.start)
        for i in report:
            self._rewards[i] = 0.0
            self._terminated[i] = False
            self._truncated[i] = True
            self._pool_infos[i] = {**per_env[i - host.start], "worker_restarted": True}
            self._env_state[i] = _READY
            self._ready.append(i)

    def _discard_pool(self) -> None:
        self._env_state[:] = _IDLE
        self._ready.clear()
        self._pool_infos.clear()
        self._last_recv = None

    # --- call / attributes / render --------------------------------------------------------------
    def call(
        self, name: str, *args: Any, indices: int | Sequence[int] | None = None, **kwargs: Any
    ) -> tuple[Any, ...]:
        """Call method ``name`` (or read attribute ``name``) of each selected sub-environment."""
        self._assert_is_running()
        self._assert_idle("call")
        selected = normalize_indices(indices, self.num_envs)
        groups = self._group(selected)
        calls = {
            k: self.hosts[k].actor.call.remote(
                name, args, kwargs, [i - self.hosts[k].start for i in ids]
            )
            for k, ids in groups.items()
        }
        results = self._gather(calls, "call", self.step_timeout)
        values: dict[int, Any] = {}
        for k, ids in groups.items():
            self._raise_if_restarted(k, results[k], "call")
            values.update(zip(ids, results[k], strict=True))
        return tuple(values[i] for i in selected)

    def render(self) -> tuple[RenderFrame, ...] | None:
        """The frames rendered by every sub-environment (``call("render")``)."""
        return self.call("render")

    def get_attr(self, name: str, *, indices: int | Sequence[int] | None = None) -> tuple[Any, ...]:
        """The attribute ``name`` of each sub-environment (a callable attribute is called)."""
        return self.call(name, indices=indices)

    def set_attr(
        self, name: str, values: Any, *, indices: int | Sequence[int] | None = None
    ) -> None:
        """Set attribute ``name`` of the selected sub-environments (one value each, or one for
        all)."""
        self._assert_is_running()
        selected = normalize_indices(indices, self.num_envs)
        if not isinstance(values, (list, tuple)):
            values = [values] * len(selected)
        if len(values) != len(selected):
            raise ValueError(SET_ATTR_LENGTH_MSG.format(len(values), len(selected)))
        self._assert_idle("set_attr")
        value_of = dict(zip(selected, values, strict=True))
        groups = self._group(selected)
        calls = {
            k: self.hosts[k].actor.set_attr.remote(
                name, [value_of[i] for i in ids], [i - self.hosts[k].start for i in ids]
            )
            for k, ids in groups.items()
        }
        results = self._gather(calls, "set_attr", self.step_timeout)
        for k in groups:
            self._raise_if_restarted(k, results[k], "set_attr")

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
        """Wait for Ray to restart host ``k`` (a new instance) and reset its envs with ``seeds``."""
        host = self.hosts[k]
        if kill:
            self._kill_for_restart(k)
        ray = self._ray
        deadline = time.monotonic() + RESTART_TIMEOUT_S
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
            obs, infos, instance = payload
            if instance == host.instance:  # the old instance answered: the kill has not landed
                self._kill_for_restart(k)
                time.sleep(0.1)
                continue
            host.instance = instance
            host.restarts += 1
            for i in host.envs:
                self._was_reset[i] = True
                self._ended[i] = False
            return obs, infos, instance
        failed = error.WorkerDied(
            RESTART_FAILED_MSG.format(
                host=k, node=host.node, envs=host.envs, timeout=RESTART_TIMEOUT_S, how=how
            ),
            worker=k,
            env_indices=tuple(host.envs),
        )
        self._broken = failed
        raise failed

    def _rebuild(self, failure: HostFailure, k: int) -> BaseException:
        """The exception to raise on the driver for a host's ``failure``."""
        node = self.hosts[k].node if k < len(self.hosts) else "?"
        fallback = error.WorkerError(
            WORKER_ERROR_MSG.format(
                type_name=failure.type_name, message=failure.message, host=k, env=failure.env_index
            ),
            worker=k,
            env_index=failure.env_index,
            type_name=failure.type_name,
            remote_traceback=failure.traceback_text,
        )
        note = REMOTE_NOTE.format(host=k, node=node, env=failure.env_index)
        return revive_remote_error(failure.pickled, failure.traceback_text, note, fallback)

    # --- checks ----------------------------------------------------------------------------------
    def _check_actions(self, actions: Any, ids: npt.NDArray[np.intp] | None) -> None:
        count = self.num_envs if ids is None else len(ids)
        if isinstance(actions, np.ndarray) and (actions.ndim == 0 or actions.shape[0] != count):
            raise ValueError(ACTIONS_LENGTH_MSG.format(count, actions.shape))
        check_not_before_reset(self._was_reset, ids)
        if self.autoreset_mode is AutoresetMode.DISABLED:
            ended = self._ended if ids is None else self._ended[ids]
            if ended.any():
                first = int(np.argmax(ended)) if ids is None else int(ids[np.argmax(ended)])
                raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=first))
        if self._action_check is not None:
            self._action_check.check_batch(actions, count)

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
        if method != "send" and (self._env_state == _RUNNING).any():
            raise error.AlreadyPendingCallError(POOL_BUSY_MSG.format(method), "send")

    def _take_pending(self, kind: str, method: str, partner: str) -> list[Any]:
        self._assert_is_running()
        if self._pending is None or self._pending[0] != kind:
            raise error.NoAsyncCallError(NO_ASYNC_MSG.format(method=method, partner=partner), kind)
        calls = self._pending[1]
        self._pending = None
        return calls

    def _observations_out(self) -> Any:
        return copy_tree(self.observations) if self.copy else self.observations

    # --- closing ---------------------------------------------------------------------------------
    def close_extras(self, timeout: float | None = None, **kwargs: Any) -> None:
        """Close the hosts' envs, kill the host actors, and shut Ray down if this env started it.

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
                    logger.warn(PENDING_MSG.format(method="close", pending=pending))
        try:
            refs = []
            for host in self.hosts:
                with contextlib.suppress(Exception):
                    refs.append(host.actor.close.remote())
            if refs:
                ray.wait(refs, num_returns=len(refs), timeout=budget / 2)
        except Exception:
            pass
        for host in self.hosts:
            with contextlib.suppress(Exception):
                ray.kill(host.actor, no_restart=True)
        deadline = time.monotonic() + budget / 2
        for host in self.hosts:
            _wait_dead(ray, host.actor, deadline)
        self.hosts = []
        if self._owns_ray:
            with contextlib.suppress(Exception):
                ray.shutdown()
            self._owns_ray = False

    def __del__(self) -> None:
        """Kill the hosts if the env was never closed; never raises."""
        try:
            if not getattr(self, "closed", True):
                self.close(timeout=2.0)
        except Exception:
            pass

    def __repr__(self) -> str:
        spec = getattr(self, "spec", None)
        head = f"{spec.id}, " if spec is not None else ""
        return f"RayVectorEnv({head}num_envs={self.num_envs}, num_hosts={len(self.hosts)})"


def _wait_dead(ray: Any, actor: Any, deadline: float) -> None:
    """Wait (until ``deadline``) for a killed actor's process to be gone."""
    while time.monotonic() < deadline:
        try:
            ray.get(actor.ping.remote(), timeout=max(0.05, deadline - time.monotonic()))
        except ray.exceptions.RayActorError:
            return
        except Exception:
            return
        time.sleep(0.05)


def _widen(host_tree: Any, num_steps: int, n: int) -> Any:
    """An empty ``(T, n, ...)`` tree shaped like a host's ``(T, m, ...)`` tree."""
    if isinstance(host_tree, dict):
        return {key: _widen(sub, num_steps, n) for key, sub in host_tree.items()}
    if isinstance(host_tree, tuple):
        return tuple(_widen(sub, num_steps, n) for sub in host_tree)
    array = np.asarray(host_tree)
    return np.empty((num_steps, n, *array.shape[2:]), dtype=array.dtype)


def _concat_trees(parts: list[Any]) -> Any:
    first = parts[0]
    if len(parts) == 1:
        return first
    if isinstance(first, dict):
        return {key: _concat_trees([p[key] for p in parts]) for key in first}
    if isinstance(first, tuple):
        return tuple(_concat_trees([p[j] for p in parts]) for j in range(len(first)))
    return np.concatenate([np.asarray(p) for p in parts])


def _unbatch(infos: dict[str, Any], count: int) -> list[dict[str, Any]]:
    from vecgym.vector._ray_host import _unbatch_info

    return _unbatch_info(infos, count)
