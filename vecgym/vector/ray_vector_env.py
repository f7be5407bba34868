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
Observations of a space that does not batch into arrays (Text, Graph, Sequence, custom spaces)
travel as one value per env and are batched on the driver with ``concatenate``, as SyncVectorEnv
batches them (:mod:`vecgym.vector._ray.observations`); actions of such a space travel to the
hosts as one value per env too, split with ``iterate`` (:mod:`vecgym.vector._ray.actions`).

Failures map onto AsyncVectorEnv's types and restart contract: an env's exception comes back with
its type (``__cause__`` the remote traceback, the message naming host, node and env); a dead host
(actor died, node lost, a worker process of its local vector env died) raises
:class:`vecgym.error.WorkerDied`; a wait past its timeout raises :class:`vecgym.error.WaitTimeout`;
``on_worker_failure="restart"`` restarts the host actor through Ray (``max_restarts``; soft node
affinity, so a host whose node was lost comes back on a node with its CPUs free, or raises
``WorkerDied`` when none has them within ``start_timeout``) and resets its envs with
:func:`vecgym.vector.async_vector_env.restart_seed` seeds.

Security: the env functions are pickled and run on the cluster's nodes, and anyone who can reach
a Ray cluster's ports can run code on it. Never expose a Ray cluster to untrusted networks; see
``docs/ray.md``. When this class starts Ray itself (nothing initialised, no ``address``), it starts
a single local node without the dashboard; Ray then advertises the machine's address unless
``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` was in the environment when ``ray`` was imported (see the
docs: this class does not change the process's environment).
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.env import Env, RenderFrame
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.utils import is_space_dtype_shape_equiv
from vecgym.vector._arguments import normalize_indices, normalize_seeds, split_reset_options
from vecgym.vector._async.batch import select_info
from vecgym.vector._async.scheduler import ENV_IDS_MSG as ENV_IDS_MSG
from vecgym.vector._async.scheduler import EnvSlot, mark_running, select_env_ids
from vecgym.vector._boundary import check_not_before_reset, make_action_check
from vecgym.vector._ray import options
from vecgym.vector._ray.actions import ActionWire
from vecgym.vector._ray.base import RayHosts
from vecgym.vector._ray.batches import Rollout, place_infos
from vecgym.vector._ray.cluster import import_ray
from vecgym.vector._ray.messages import ACTIONS_LENGTH_MSG as ACTIONS_LENGTH_MSG
from vecgym.vector._ray.messages import BROKEN_MSG as BROKEN_MSG
from vecgym.vector._ray.messages import CLOSE_PENDING_MSG as CLOSE_PENDING_MSG
from vecgym.vector._ray.messages import CLOSE_TIMEOUT_S as CLOSE_TIMEOUT_S
from vecgym.vector._ray.messages import CLOSED_MSG as CLOSED_MSG
from vecgym.vector._ray.messages import DIFFERENT_SPACE_MSG as DIFFERENT_SPACE_MSG
from vecgym.vector._ray.messages import HOST_DIED_MSG as HOST_DIED_MSG
from vecgym.vector._ray.messages import INLINE_POLICY_BYTES as INLINE_POLICY_BYTES
from vecgym.vector._ray.messages import NO_ASYNC_MSG as NO_ASYNC_MSG
from vecgym.vector._ray.messages import NO_CPUS_FOR_RESTART as NO_CPUS_FOR_RESTART
from vecgym.vector._ray.messages import NO_NODES_MSG as NO_NODES_MSG
from vecgym.vector._ray.messages import NOTHING_IN_FLIGHT_MSG as NOTHING_IN_FLIGHT_MSG
from vecgym.vector._ray.messages import NUM_STEPS_MSG as NUM_STEPS_MSG
from vecgym.vector._ray.messages import PENDING_MSG as PENDING_MSG
from vecgym.vector._ray.messages import POOL_BUSY_MSG as POOL_BUSY_MSG
from vecgym.vector._ray.messages import RAY_MISSING_MSG as RAY_MISSING_MSG
from vecgym.vector._ray.messages import REMOTE_NOTE as REMOTE_NOTE
from vecgym.vector._ray.messages import RESTART_FAILED_MSG as RESTART_FAILED_MSG
from vecgym.vector._ray.messages import RESTART_TIMEOUT_S as RESTART_TIMEOUT_S
from vecgym.vector._ray.messages import RESTARTED_DURING_MSG as RESTARTED_DURING_MSG
from vecgym.vector._ray.messages import SET_ATTR_LENGTH_MSG as SET_ATTR_LENGTH_MSG
from vecgym.vector._ray.messages import SPACES_DIFFER_MSG as SPACES_DIFFER_MSG
from vecgym.vector._ray.messages import START_TIMEOUT_MSG as START_TIMEOUT_MSG
from vecgym.vector._ray.messages import START_TIMEOUT_S as START_TIMEOUT_S
from vecgym.vector._ray.messages import TIMEOUT_MSG as TIMEOUT_MSG
from vecgym.vector._ray.messages import WORKER_ERROR_MSG as WORKER_ERROR_MSG
from vecgym.vector._ray.observations import ObsStore
from vecgym.vector._ray.options import BATCH_SIZE_MSG as BATCH_SIZE_MSG
from vecgym.vector._ray.options import CPUS_MSG as CPUS_MSG
from vecgym.vector._ray.options import ENV_FNS_MSG as ENV_FNS_MSG
from vecgym.vector._ray.options import NUM_HOSTS_MSG as NUM_HOSTS_MSG
from vecgym.vector._ray.options import ON_FAILURE_MSG as ON_FAILURE_MSG
from vecgym.vector._ray.options import TIMEOUT_ARG_MSG as TIMEOUT_ARG_MSG
from vecgym.vector._ray.options import WORKERS_MSG as WORKERS_MSG
from vecgym.vector.utils import batch_differing_spaces, batch_space
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["RayVectorEnv", "Rollout"]


class RayVectorEnv(RayHosts):
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
        start_timeout: seconds to wait for the hosts to start, and for a restarted host to come
            back (``None``: no limit at start, ``RESTART_TIMEOUT_S`` for a restart). A host that
            Ray cannot place again in time (e.g. its node was lost and no other node has the
            CPUs it reserves free) raises :class:`vecgym.error.WorkerDied`.
        ray_init_kwargs: extra keyword arguments of ``ray.init`` when this class calls it.
        observation_mode: ``"same"``, ``"different"`` or ``(observation_space,
            single_observation_space)``, as in :class:`vecgym.vector.SyncVectorEnv`.

    Observations of any space are batched as SyncVectorEnv batches them: spaces whose values have
    a fixed size (Box, Discrete, MultiDiscrete, MultiBinary, Dict / Tuple of them) into
    preallocated arrays; Text, Graph, Sequence, OneOf and custom spaces (alone or inside a Dict /
    Tuple) with :func:`~vecgym.vector.utils.concatenate` (a tuple of the envs' values), the
    hosts sending one value per env. Actions of any space are taken as SyncVectorEnv takes them:
    a batch of the action space (:func:`~vecgym.vector.utils.batch_space`; for Text & co. a tuple
    with one action per env), sent to the hosts as arrays or, for spaces that do not batch into
    arrays, as one action per env (split with :func:`~vecgym.vector.utils.iterate`).

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
        observation_mode: str | tuple[Space[Any], Space[Any]] = "same",
    ) -> None:
        self.closed = False
        self.hosts = []
        self._owns_ray = False
        self._broken = None
        self._unrestarted = None
        self._pending = None
        self._rollouts = collections.deque()
        checked = options.validate(
            env_fns,
            num_hosts=num_hosts,
            cpus_per_host=cpus_per_host,
            workers_per_host=workers_per_host,
            on_worker_failure=on_worker_failure,
            step_timeout=step_timeout,
            start_timeout=start_timeout,
            batch_size=batch_size,
            observation_mode=observation_mode,
        )
        self.env_fns = env_fns
        self.observation_mode = observation_mode
        self.num_envs = checked.num_envs
        self.step_timeout = checked.step_timeout
        self.start_timeout = checked.start_timeout
        self.batch_size = checked.batch_size
        self.on_worker_failure = on_worker_failure
        self.copy = copy
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.check_actions = check_actions
        self.restart_entropy = int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])
        """Mixed into :func:`restart_seed`; set it (e.g. to 0) for reproducible restart seeds."""

        ray = import_ray()
        self._ray = ray
        try:
            self._start_ray(address, ray_init_kwargs)
            self._start_hosts(num_hosts, cpus_per_host, workers_per_host)
            self._setup()
        except BaseException:
            self.close()
            raise

    # --- construction ----------------------------------------------------------------------------
    def _setup(self) -> None:
        first = self._descriptions[0]
        for k, other in enumerate(self._descriptions[1:], start=1):
            keys = ["single_observation_space"] if self.observation_mode == "same" else []
            keys.append("single_action_space")
            for key in keys:
                if other[key] != first[key]:
                    raise RuntimeError(
                        SPACES_DIFFER_MSG.format(
                            what=key.split("_")[1], host=k, theirs=other[key], ours=first[key]
                        )
                    )
        self.single_action_space = first["single_action_space"]
        self._actions = ActionWire(self.single_action_space)
        self.single_observation_space, self.observation_space = self._observation_spaces()
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(first["metadata"])
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = first["render_mode"]
        self._action_check = make_action_check(self.single_action_space, self.check_actions)
        self._obs = ObsStore(self.single_observation_space, self.num_envs)
        self._rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._terminated = np.zeros(self.num_envs, dtype=np.bool_)
        self._truncated = np.zeros(self.num_envs, dtype=np.bool_)
        self._was_reset = np.zeros(self.num_envs, dtype=np.bool_)
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)
        self._last_seeds = [None] * self.num_envs
        self._env_state = np.zeros(self.num_envs, dtype=np.int8)
        self._ready = []
        self._pool_infos = {}
        self._last_recv = None

    def _observation_spaces(self) -> tuple[Space[Any], Space[Any]]:
        """``(single_observation_space, observation_space)`` as ``observation_mode`` says."""
        mode = self.observation_mode
        if isinstance(mode, tuple):
            return mode[1], mode[0]
        single = self._descriptions[0]["single_observation_space"]
        if mode == "same":
            return single, batch_space(single, self.num_envs)
        spaces = [s for d in self._descriptions for s in d["observation_spaces"]]
        for i, space in enumerate(spaces):
            if not is_space_dtype_shape_equiv(space, single):
                batch_differing_spaces([single, space])  # SyncVectorEnv's error for the pair
                raise RuntimeError(DIFFERENT_SPACE_MSG.format(single=single, env=i, theirs=space))
        return single, batch_differing_spaces(spaces)

    # --- properties ------------------------------------------------------------------------------
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
                infos = place_infos(
                    infos,
                    {"worker_restarted": flags, "_worker_restarted": flags},
                    rows,
                    self.num_envs,
                )
            obs, host_infos, _ = payload
            local = mask[rows]
            self._obs.write(np.arange(host.start, host.stop)[local], self._obs.pick(obs, local))
            infos = place_infos(infos, host_infos, rows, self.num_envs)
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
        wire = self._check_actions(actions, None)
        self._discard_pool()
        calls = [
            host.actor.step.remote(self._actions.pick(wire, slice(host.start, host.stop)))
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
            self._obs.write(rows, obs)
            self._rewards[rows] = rewards
            self._terminated[rows] = terminated
            self._truncated[rows] = truncated
            if host_infos:
                infos = place_infos(infos, host_infos, rows, self.num_envs)
        terminated, truncated = self._terminated.copy(), self._truncated.copy()
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended |= terminated | truncated
        return self._observations_out(), self._rewards.copy(), terminated, truncated, infos

    def _restart_rows(self, k: int, infos: dict[str, Any]) -> dict[str, Any]:
        """Restart host ``k`` and write its envs' restart rows (reset obs, reward 0, truncated)."""
        host = self.hosts[k]
        rows = slice(host.start, host.stop)
        obs, reset_infos, _ = self._restart(k, self._restart_seeds(k), self._owes_autoreset())
        self._obs.write(rows, obs)
        self._rewards[rows] = 0.0
        self._terminated[rows] = False
        self._truncated[rows] = True
        flags = np.ones(host.stop - host.start, dtype=np.bool_)
        infos = place_infos(infos, reset_infos, rows, self.num_envs)
        return place_infos(
            infos, {"worker_restarted": flags, "_worker_restarted": flags}, rows, self.num_envs
        )

    # --- rollout ---------------------------------------------------------------------------------
    def rollout(
        self, policy: Callable[[Any], Any], num_steps: int, timeout: float | None = None
    ) -> Rollout:
        """Run ``num_steps`` steps on every host with ``actions = policy(observations)``.

        The policy (a picklable callable, e.g. an object holding its weights) is pickled once per
        call (sent inline when small, else through Ray's object store) and runs on each host over
        the host's envs: it receives the batched observations of those envs and returns their
        actions (a batch for those envs, as :meth:`step` takes it), or ``(actions, extras)``
        with ``extras`` a dict of arrays (log-probabilities, values) stacked into
        :attr:`Rollout.extras`. One Ray call per host per rollout: this amortises Ray's round
        trip over ``num_steps`` steps. Episodes continue across calls and with :meth:`step`.

        Observations come back stacked as ``(T, n, ...)`` arrays; for an observation space that
        does not batch into arrays (Text, Graph, Sequence, OneOf, custom spaces, alone or in a
        Dict / Tuple) :attr:`Rollout.observations` is a list of ``T`` batches, each what
        :meth:`step` returns for that space, and the policy receives such a batch. Likewise for
        an action space that does not batch into arrays: the policy returns a batch as
        :meth:`step` takes it (for Text, a tuple of strings) and :attr:`Rollout.actions` is a
        list of ``T`` such batches.

        In the ``DISABLED`` autoreset mode a host never steps an env whose episode has ended
        (in this rollout, an earlier one or a :meth:`step`): from then on its rows are not
        stepped (:attr:`Rollout.stepped` is ``False``; reward 0, no flags, no infos, its last
        observation, zero actions and extras; actions of a space that does not batch into
        arrays hold ``None`` there, inside a Dict / Tuple ``None`` in its parts that do not batch
        into arrays and zeros in the others) until ``reset(options={"reset_mask": ...})`` resets
        it, and a host whose envs have all ended stops calling the policy. The rows that were
        stepped are exactly those of stepping each env on its own with
        ``SyncVectorEnv(autoreset_mode="Disabled")`` while its episode runs; :meth:`step` still
        refuses (``ResetNeeded``) an env that ended.

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
            ValueError: a bad ``num_steps``, or (action spaces that do not batch into arrays) a
                policy that does not return one action per env.
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
            raise self._restart_failed(k, "it died again")
        return again[k]

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
        ids = select_env_ids(env_ids, self._last_recv, self._env_state == EnvSlot.RUNNING)
        wire = self._check_actions(actions, ids)
        self._last_recv = None
        mark_running(self._env_state, self._ready, self._pool_infos, ids)
        for k in np.unique(self._host_of_env[ids]).tolist():
            host = self.hosts[k]
            positions = np.flatnonzero(self._host_of_env[ids] == k)
            host_ids = ids[positions].tolist()
            host_actions = self._actions.pick(wire, positions)
            if host.ref is not None:
                host.queued.extend(host_ids)
                host.queued_actions.append(host_actions)
            else:
                self._dispatch(k, host_ids, host_actions)

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
        if not (self._env_state == EnvSlot.RUNNING).any() and not self._ready:
            raise error.NoAsyncCallError(NOTHING_IN_FLIGHT_MSG, "recv")
        if timeout is None:
            timeout = self.step_timeout
        deadline = None if timeout is None else time.monotonic() + timeout
        ray = self._ray
        while len(self._ready) < self.batch_size and (self._env_state == EnvSlot.RUNNING).any():
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
                envs = np.flatnonzero(self._env_state == EnvSlot.RUNNING).tolist()
                raise error.WaitTimeout(
                    TIMEOUT_MSG.format(method="recv", timeout=timeout, hosts=hosts, envs=envs)
                )
            for ref in done:
                k = busy[ref]
                self._collect_pool(k)
        take = sorted(self._ready[: self.batch_size])
        del self._ready[: self.batch_size]
        ids = np.asarray(take, dtype=np.intp)
        self._env_state[ids] = EnvSlot.IDLE
        self._last_recv = ids
        infos: dict[str, Any] = {}
        for i in take:
            info = self._pool_infos.pop(i, None)
            if info:
                infos = self._add_info(infos, info, i)
        infos = select_info(infos, ids)
        obs = self._obs.out(self.copy, ids)  # a new batch
        terminated, truncated = self._terminated[ids], self._truncated[ids]
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended[ids] |= terminated | truncated
        return obs, self._rewards[ids], terminated, truncated, infos, ids

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

    # --- closing ---------------------------------------------------------------------------------
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
