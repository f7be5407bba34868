"""AsyncVectorEnv: environments stepped in worker processes, results exchanged in shared memory.

Data flow of one ``step`` (worker ``k`` owns the contiguous env slice ``[a_k, b_k)``)::

    parent process                                    worker process k
    --------------                                    ----------------
    check actions (shape / dtype), write them
      into shm.actions[...]  (one memcpy per leaf)
    shm.command[k] = (seq, STEP); wake[k].release() -> [spin-yield on shm.command[k] for
                                                       WORKER_SPIN_S] wake[k].acquire()
                                                      for i in [a_k, b_k): AutoresetEnv(env_i).step(
                                                          shm.actions[i]) -> write obs leaves,
                                                          reward, terminated, truncated into row i;
                                                          a numeric info with a learned schema ->
                                                          its info slots, shm.info_schema[i]
                                                      shm.done[k] = (seq, has_reply)
    done.acquire() in 0.1 s slices, checking the  <-  done.release()
      workers' sentinels between slices (a dead      (then, only if some other info is non-empty
      worker -> WorkerDied) [spin-yield on the        or an env raised: ONE pickled Reply on the
      done words for PARENT_SPIN_S first; before      pipe)
      blocking, take the tokens of earlier
      releases and read the done words again]
    infos: one copy per key from the info slots
      (_async.infos), the pickled ones merged key
      by key (VectorEnv._merge_infos)
    return views of shm (or copies, copy=True)

Nothing is pickled on the fast path: a step with empty infos, or with numeric infos whose schema
the parent has learned (``_async.infos``), costs two semaphore operations per worker and the numpy
writes; the usual call of ``step`` takes a short path through the same steps
(:mod:`~vecgym.vector._async.usual`). Observations of spaces without a fixed size (Text, Sequence,
Graph, OneOf, custom spaces), and all of them with ``shared_memory=False``, travel in the Reply (the
parent keeps each env's latest one and re-batches them); actions of such spaces travel pickled.
Every command carries a sequence number: a reply that arrives after its ``*_wait`` timed out is
recognised and discarded. The waits' policy (a bounded spin that yields, then blocking) and its
costs: :mod:`vecgym.vector._async.pool`. Start methods: ``context=None`` chooses ``fork`` where it
is safe, else ``forkserver`` or ``spawn`` (:mod:`~vecgym.vector._async.placement`); the env ids the
parent registered travel with the constructors (:mod:`~vecgym.vector._async.registries`).
Failures (env exceptions re-raised with their type, ``WorkerDied``, ``WaitTimeout``, restarts, a
``close()`` that never hangs): :mod:`vecgym.vector._async.supervisor`. This module is the façade
(argument checks, the public API, the ``*_async`` / ``*_wait`` state) over the private
:mod:`vecgym.vector._async` machinery. :meth:`AsyncVectorEnv.send` / :meth:`AsyncVectorEnv.recv`
report a worker's envs once the worker finished its slice: the natural batch sizes are multiples
of the slice sizes.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import time
import weakref
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar, cast

import numpy as np
import numpy.typing as npt

from vecgym import error, logger
from vecgym.core.env import ActType, Env, ObsType, RenderFrame
from vecgym.core.spaces.space import Space
from vecgym.vector._arguments import CLOSE_PENDING_MSG as CLOSE_PENDING_MSG
from vecgym.vector._arguments import CLOSED_MSG as CLOSED_MSG
from vecgym.vector._arguments import NO_ASYNC_MSG as NO_ASYNC_MSG
from vecgym.vector._arguments import NOTHING_IN_FLIGHT_MSG as NOTHING_IN_FLIGHT_MSG
from vecgym.vector._arguments import PENDING_MSG as PENDING_MSG
from vecgym.vector._arguments import POOL_BUSY_MSG as POOL_BUSY_MSG
from vecgym.vector._arguments import SET_ATTR_LENGTH_MSG as SET_ATTR_LENGTH_MSG
from vecgym.vector._arguments import normalize_indices, normalize_seeds, split_reset_options
from vecgym.vector._async import batch as _batch
from vecgym.vector._async import exits as _exits
from vecgym.vector._async import options as _options
from vecgym.vector._async import pool as _pool
from vecgym.vector._async import scheduler as _scheduler
from vecgym.vector._async import supervisor as _supervisor
from vecgym.vector._async.batch import (
    ActionWriter,
    copy_tree,
    merge_replies,
    pick_observations,
)
from vecgym.vector._async.exits import RemoteTraceback as RemoteTraceback
from vecgym.vector._async.infos import InfoRegistry, step_infos
from vecgym.vector._async.options import check_shared_memory_space, observation_spaces, validate
from vecgym.vector._async.placement import default_start_method as default_start_method
from vecgym.vector._async.placement import usable_cores as usable_cores
from vecgym.vector._async.pool import WorkerPool
from vecgym.vector._async.protocol import Command, Reply, SharedLayout, leaf_tree
from vecgym.vector._async.scheduler import Scheduler
from vecgym.vector._async.supervisor import ResetSeeds, Supervisor
from vecgym.vector._async.supervisor import restart_seed as restart_seed
from vecgym.vector._async.usual import UsualStep
from vecgym.vector._boundary import (
    check_env_fns_picklable,
    check_not_before_reset,
    make_action_check,
)
from vecgym.vector.autoreset import STEP_AFTER_END_MSG
from vecgym.vector.utils import batch_differing_spaces, batch_space, concatenate, create_empty_array
from vecgym.vector.vector_env import AutoresetMode, SubEnvsVectorEnv, VectorEnv

__all__ = ["AsyncState", "AsyncVectorEnv", "RemoteTraceback", "usable_cores"]

#: Where the constants that lived in this module before the split live now; they stay importable
#: from here (see :func:`__getattr__`).
_MOVED_CONSTANTS = (_batch, _exits, _options, _pool, _scheduler, _supervisor)

CLOSE_TIMEOUT_S = 10.0
"""How long ``close()`` waits for workers to finish (when no timeout is given) before killing."""

BROKEN_MSG = "AsyncVectorEnv is unusable after a worker died; close it. The first failure was: {}"
NO_ATTRIBUTE_MSG = "module {!r} has no attribute {!r}"

_Method = TypeVar("_Method", bound=Callable[..., Any])
_Obs = TypeVar("_Obs")
#: ``(observations, rewards, terminations, truncations, infos)``.
_StepResult = tuple[
    _Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
]


def __getattr__(name: str) -> Any:
    """The message constants and tunables (``TIMEOUT_MSG``, ``LATE_WAIT_S``, ...) that moved to
    :mod:`vecgym.vector._async`, for code that imports them from here."""
    for module in _MOVED_CONSTANTS:
        if name.isupper() and hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(NO_ATTRIBUTE_MSG.format(__name__, name))


class AsyncState(enum.Enum):
    """What an :class:`AsyncVectorEnv` is waiting for (Gymnasium's names and values)."""

    DEFAULT = "default"
    WAITING_RESET = "reset"
    WAITING_STEP = "step"
    WAITING_CALL = "call"


def _death_breaks(method: _Method) -> _Method:
    """In ``on_worker_failure="raise"`` mode, a worker death seen by ``method`` leaves the vector
    env unusable (later calls raise ``BROKEN_MSG``)."""

    @functools.wraps(method)
    def guarded(self: AsyncVectorEnv[Any, Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except error.WorkerDied as exc:
            supervisor = self._supervisor
            if supervisor.broken is None and not supervisor.restart_mode:
                supervisor.broken = exc
                self._state = AsyncState.DEFAULT
            raise

    return cast(_Method, guarded)


class AsyncVectorEnv(SubEnvsVectorEnv[ObsType, ActType, np.ndarray], Generic[ObsType, ActType]):
    """Runs environments in worker processes (several per worker), results in shared memory.

    Gymnasium 1.4's ``AsyncVectorEnv`` API and results, seed for seed, plus ``num_workers`` (the
    envs are split into that many contiguous slices, one process each) and EnvPool-style
    asynchronous batches (:meth:`send` / :meth:`recv`, with ``batch_size``).

    Args:
        env_fns: build the sub-environments; each is called once, in its worker, never here.
        shared_memory: keep observations in shared memory (fixed-size spaces); ``False`` sends
            them pickled through the pipes. Rewards, terminations and truncations (and actions of
            fixed-size action spaces) are in shared memory either way.
        copy: return copies of the observations from :meth:`reset` / :meth:`step`; ``False``
            returns views of the shared buffers, overwritten by the next call.
        context: the ``multiprocessing`` start method; ``None`` picks one explicitly (see the
            module docstring).
        daemon: start the workers as daemon processes.
        worker: replaces the worker function; it is called in the child as
            ``worker(config, conn, parent_conn, wake, done)`` (see
            :func:`vecgym.vector._async.worker.async_worker`; Gymnasium's per-env worker signature
            does not apply here).
        observation_mode: ``"same"``, ``"different"`` or a ``(observation_space,
            single_observation_space)`` tuple, as in Gymnasium.
        autoreset_mode: the autoreset mode.
        max_concurrency: as in Gymnasium 1.4: at most this many sub-environments run ``reset`` or
            ``step`` at the same moment (a semaphore shared by the workers, taken around each
            env's call); ``None``: no limit. Each worker steps its envs one after another, so
            with the default ``num_workers`` the limit only matters below the number of workers.
        num_workers: number of worker processes; ``None``: the usable physical cores (psutil's
            physical count capped by the CPU affinity), at most ``num_envs``.
        batch_size: how many envs :meth:`recv` returns; ``None``: ``num_envs``.
        check_actions: check the actions before anything is stepped, raising
            :class:`vecgym.error.InvalidAction` naming the envs: ``True`` (default) rejects
            integer actions outside their Discrete / MultiDiscrete / MultiBinary range and NaN in
            Box actions (a couple of numpy reductions, about 1% of a 64-env CartPole step);
            ``"strict"`` also enforces Box ``low`` / ``high`` (off by default: Gymnasium accepts
            out-of-bounds continuous actions, which many envs clip); ``False`` checks nothing.
        on_worker_failure: ``"raise"`` (default): a dead worker raises
            :class:`vecgym.error.WorkerDied` and leaves the vector env unusable (close it);
            ``"restart"``: a worker that dies, or (in ``step``) exceeds the step timeout, is
            replaced, see :meth:`step_wait` for how its envs are reported.
        step_timeout: seconds :meth:`step_wait` waits when called without a timeout (``None``:
            no limit). In ``"restart"`` mode a worker whose step takes longer is killed and
            replaced; in ``"raise"`` mode :class:`vecgym.error.WaitTimeout` is raised.
        pin_workers: pin worker ``k`` to core ``k mod n`` of the ``n`` cores this process may run
            on (psutil CPU affinity), so workers neither migrate nor share a core needlessly.
        worker_threads: BLAS / OpenMP threads per worker (the ``*_NUM_THREADS`` variables set in
            the worker before its envs are built, and threadpoolctl when installed); ``None``
            leaves them alone. Default 1: many workers each running a full-width BLAS pool
            oversubscribe the cores.
        parent_envs: a vecgym addition, opt-in: this process steps the last ``parent_envs`` envs
            itself while the workers step the others (``num_workers`` then defaults to the usable
            cores minus one); ``vecgym autotune`` measures when it pays. **Those envs lose crash
            isolation** (see :mod:`vecgym.vector._async.local`). Default 0.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.vector.AsyncVectorEnv([lambda: gym.make("CartPole-v1")] * 4, num_workers=2)
        >>> obs, infos = envs.reset(seed=42)
        >>> obs.shape
        (4, 4)
        >>> obs, rewards, terminated, truncated, infos = envs.step(np.array([0, 1, 0, 1]))
        >>> rewards
        array([1., 1., 1., 1.])
        >>> envs.close()
    """

    def __init__(
        self,
        env_fns: Sequence[Callable[[], Env[Any, Any]]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: Callable[..., None] | None = None,
        observation_mode: str | tuple[Space[Any], Space[Any]] = "same",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        max_concurrency: int | None = None,
        num_workers: int | None = None,
        batch_size: int | None = None,
        check_actions: bool | str = True,
        on_worker_failure: str = "raise",
        step_timeout: float | None = None,
        pin_workers: bool = False,
        worker_threads: int | None = 1,
        parent_envs: int = 0,
    ) -> None:
        # Attributes close() relies on come first, so a failed construction still closes cleanly.
        self.closed = False
        self._state = AsyncState.DEFAULT
        self.processes: list[Any] = []
        self.parent_pipes: list[Connection | None] = []
        options = validate(
            env_fns,
            observation_mode=observation_mode,
            autoreset_mode=autoreset_mode,
            max_concurrency=max_concurrency,
            num_workers=num_workers,
            batch_size=batch_size,
            check_actions=check_actions,
            on_worker_failure=on_worker_failure,
            step_timeout=step_timeout,
            pin_workers=pin_workers,
            worker_threads=worker_threads,
            context=context,
            parent_envs=parent_envs,
        )
        self.env_fns, self.shared_memory, self.copy = env_fns, shared_memory, copy
        self.daemon, self.worker, self.observation_mode = daemon, worker, observation_mode
        self.num_envs, self.num_workers = options.num_envs, options.num_workers
        self.batch_size, self.max_concurrency = options.batch_size, options.max_concurrency
        self.on_worker_failure, self.step_timeout = on_worker_failure, options.step_timeout
        self.check_actions, self.pin_workers = check_actions, options.pin_workers
        self.worker_threads, self.context = options.worker_threads, options.context
        self.autoreset_mode, self.parent_envs = options.autoreset_mode, options.parent_envs
        # DISABLED mode: envs whose episode ended; stepping them is refused before anything runs
        self._ended = np.zeros(self.num_envs, dtype=np.bool_)
        self._all_reset = False
        self._pending_workers: list[int] = []
        cls = type(self)  # step() calls a subclass's own step_async / step_wait (see step)
        self._direct_step = cls.step_async is AsyncVectorEnv.step_async
        self._direct_step &= cls.step_wait is AsyncVectorEnv.step_wait
        self._reset_request: tuple[list[int | None], Any, npt.NDArray[np.bool_]] | None = None
        self.restart_entropy = int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])
        """Mixed into :func:`restart_seed`; set it (e.g. to 0) for reproducible restart seeds."""
        self._pool = pool = WorkerPool.create(options, env_fns, worker, daemon, type(self).__name__)
        self._ctx, self._slices = pool.ctx, pool.slices
        self.processes, self.parent_pipes, self._wake = pool.processes, pool.pipes, pool.wake
        owner = weakref.ref(self)  # no reference cycle: an unclosed env is still collected at once
        self._supervisor = Supervisor(
            pool,
            on_worker_failure=on_worker_failure,
            step_timeout=self.step_timeout,
            autoreset_mode=self.autoreset_mode,
            entropy=lambda: cast(AsyncVectorEnv[Any, Any], owner()).restart_entropy,
        )
        try:
            self._start(pool)
        except BaseException:
            self.close(terminate=True)
            raise

    def _start(self, pool: WorkerPool) -> None:
        """Start the workers, read the spaces from worker 0, attach every worker to the block."""
        if self.context != "fork":
            check_env_fns_picklable(self.env_fns, self.context)
        first = pool.start()
        self._done = pool.done
        self.metadata = {**first.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = first.render_mode
        self.single_action_space = first.action_space
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        mode = self.observation_mode
        self.single_observation_space, self.observation_space = observation_spaces(
            mode, first.observation_space, self.num_envs
        )
        check_shared_memory_space(self.single_observation_space, self.shared_memory)
        obs_tree = leaf_tree(self.single_observation_space) if self.shared_memory else None
        action_tree = leaf_tree(self.single_action_space)
        # Numeric infos in shared memory (_async.infos); a subclass overriding _add_info keeps
        # the pickled path, so its override sees every info (SAME_STEP's final ones included).
        infos_in_shm = type(self)._add_info is VectorEnv._add_info
        finals = infos_in_shm and self.autoreset_mode is AutoresetMode.SAME_STEP  # (_async.finals)
        layout = SharedLayout(self.num_envs, len(self._slices), obs_tree, action_tree, finals)
        layout.plan()
        checked = (mode if isinstance(mode, str) else "different", self.single_observation_space)
        self._views = views = pool.attach(layout, (*checked, self.single_action_space))
        self._actions = ActionWriter(
            views if action_tree is not None else None,
            self.single_action_space,
            self.num_envs,
            make_action_check(self.single_action_space, self.check_actions),
        )
        self._obs_in_shm = obs_tree is not None
        self._last_obs: list[Any] = [] if self._obs_in_shm else [None] * self.num_envs
        self.observations = (
            views.observations
            if self._obs_in_shm
            else create_empty_array(self.single_observation_space, n=self.num_envs, fn=np.zeros)
        )
        views.step_mask[:] = True
        self._info_registry = InfoRegistry(self.num_envs) if infos_in_shm else None
        pool.info_registry = self._info_registry
        self._scheduler = Scheduler(pool, self._supervisor, self.batch_size, self._last_obs)
        self._usual = UsualStep.create(pool, self._actions, self._supervisor, self._obs_in_shm)
        if mode == "different":
            spaces = self.get_attr("observation_space")
            self.single_observation_space = spaces[0]
            self.observation_space = batch_differing_spaces(list(spaces))

    # --- properties ------------------------------------------------------------------------------
    @property
    def restart_count(self) -> int:
        """How many worker restarts happened (``on_worker_failure="restart"``)."""
        return sum(self._supervisor.restarts)

    def worker_health(self) -> list[dict[str, Any]]:
        """One dict per worker: ``worker``, ``pid``, ``alive``, ``env_indices``, ``restarts``,
        ``cpu_percent`` (psutil's, since the previous call; 0.0 on the first call after a
        worker started) and ``rss`` (resident memory in bytes; 0 for a dead worker)."""
        return self._pool.health(self._supervisor.restarts)

    # --- reset -----------------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the sub-environments (all, or those of ``options["reset_mask"]``).

        Args:
            seed: ``None``, an int ``s`` (env ``i`` gets ``s + i``) or one seed per env.
            options: passed to every env's ``reset``; the key ``"reset_mask"`` (a bool array of
                shape ``(num_envs,)``) selects the envs reset, the others keep their observation.

        Returns:
            The batched observations and infos. A reset clears any pending autoreset of the envs
            it resets.
        """
        self.reset_async(seed=seed, options=options)
        return self.reset_wait()

    @_death_breaks
    def reset_async(
        self,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Start resetting the sub-environments; collect the results with :meth:`reset_wait`.

        Raises:
            ClosedEnvironmentError: after ``close()``.
            AlreadyPendingCallError: another ``*_async`` call is pending.
        """
        self._begin(None)
        seeds = normalize_seeds(seed, self.num_envs)
        self._begin("reset_async")
        reset_mask, env_options = split_reset_options(options, self.num_envs)
        mask = np.ones(self.num_envs, dtype=np.bool_) if reset_mask is None else reset_mask
        workers = [k for k, (a, b) in enumerate(self._slices) if mask[a:b].any()]
        self._supervisor.drain_late(workers)
        self._scheduler.discard()
        for k in workers:
            a, b = self._slices[k]
            shm_infos = self._info_registry is not None
            request = (seeds[a:b], env_options, mask[a:b].tolist(), False, shm_infos)
            self._pool.post(k, Command.RESET, request)
        self._reset_request = (seeds, env_options, mask)
        self._pending_workers = workers
        self._state = AsyncState.WAITING_RESET

    @_death_breaks
    def reset_wait(self, timeout: float | None = None) -> tuple[ObsType, dict[str, Any]]:
        """Wait for :meth:`reset_async` and return ``(observations, infos)``.

        Args:
            timeout: seconds to wait; ``None`` waits as long as it takes.

        Raises:
            NoAsyncCallError: no :meth:`reset_async` pending.
            WaitTimeout: the timeout elapsed (also a ``TimeoutError``); the late results are
                discarded and the next call gets fresh ones.
            WorkerDied: a worker process died.
        """
        self._begin(None, awaited=AsyncState.WAITING_RESET)
        assert self._reset_request is not None
        seeds, _, mask = self._reset_request
        _, infos = self._collect("reset_wait", timeout, reset_seeds=(seeds, mask))
        supervisor = self._supervisor
        supervisor.was_reset[mask] = True
        self._all_reset = bool(supervisor.was_reset.all())
        self._ended[mask] = False
        for i in np.flatnonzero(mask).tolist():
            supervisor.last_seeds[i] = seeds[i]
        observations = copy_tree(self.observations) if self.copy else self.observations
        return observations, supervisor.report_restarts(infos, self._add_info, truncate=False)

    # --- step ------------------------------------------------------------------------------------
    @_death_breaks
    def step(self, actions: ActType) -> _StepResult[ObsType]:
        """Step every sub-environment with its action (autoresetting per ``autoreset_mode``).

        Args:
            actions: a batch of actions, an element of :attr:`action_space`. Fixed-size actions are
                checked (shape, and dtype castable with ``same_kind``) before anything is stepped
                and converted to the action space's dtype.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``; rewards, terminations
            and truncations are new arrays; observations are copies (``copy=True``) or views of
            the shared buffers that the next call overwrites (``copy=False``).

        ``step_async`` then ``step_wait``, with their results and errors; from the usual state
        between steps (no call pending, no ``send`` batch, no late worker) without what they check
        and clear after other calls. A subclass's own ``step_async`` / ``step_wait`` are called.
        """
        direct = self._direct_step and self._state is AsyncState.DEFAULT and not self.closed
        if direct and self._supervisor.broken is None and self._scheduler.idle():
            usual = self._start_step(actions, idle=True)
            return self._finish_step(self.step_timeout, usual=usual)
        self.step_async(actions)
        return self.step_wait()

    @_death_breaks
    def step_async(self, actions: ActType) -> None:
        """Send the actions and start stepping; collect the results with :meth:`step_wait`.

        Raises:
            ClosedEnvironmentError: after ``close()``.
            AlreadyPendingCallError: another ``*_async`` call is pending.
            ResetNeeded: some env was never reset, or (``DISABLED`` mode) an env whose episode
                ended was not reset since; nothing is stepped then.
            ValueError / TypeError: actions that do not fit the batched action space (nothing is
                stepped then); a scalar where a batch is expected is a ``TypeError``.
            InvalidAction: with ``check_actions``, actions outside the action space (nothing is
                stepped then); the message names the envs.
        """
        self._begin("step_async")
        self._start_step(actions, idle=False)

    def _start_step(self, actions: ActType, *, idle: bool) -> bool:
        """Check and store the actions and post the step (``idle``: see :meth:`step`); whether
        the usual step's short path posted it (:mod:`vecgym.vector._async.usual`)."""
        if not self._all_reset:
            check_not_before_reset(self._supervisor.was_reset)
        if self.autoreset_mode is AutoresetMode.DISABLED and self._ended.any():
            raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=int(np.argmax(self._ended))))
        usual = self._usual.post(actions) if idle and self._usual is not None else None
        payload = None if usual is not None else self._actions.write(actions, None)
        self._pending_workers = usual or self._scheduler.post_step(payload, idle=idle)
        self._state = AsyncState.WAITING_STEP
        return usual is not None

    @_death_breaks
    def step_wait(self, timeout: float | None = None) -> _StepResult[ObsType]:
        """Wait for :meth:`step_async` and return the batched step results (see :meth:`step`).

        Raises:
            NoAsyncCallError: no :meth:`step_async` pending.
            WaitTimeout: the timeout elapsed; late results are discarded, never returned later.
            WorkerDied: a worker process died (``on_worker_failure="raise"``).
            Exception: the exception an env raised (its own type, ``__cause__`` the remote
                traceback; also reported through :func:`vecgym.logger.error`, as Gymnasium does).
                The envs after it in the same worker were not stepped; ``reset()`` brings the
                vector env back to a known state.

        With ``on_worker_failure="restart"``, a worker that died, or that did not finish within
        ``timeout`` (default :attr:`step_timeout`), is replaced; its envs report a truncation and
        ``infos["worker_restarted"]`` (see :mod:`vecgym.vector._async.supervisor`).
        """
        self._begin(None, awaited=AsyncState.WAITING_STEP)
        return self._finish_step(self.step_timeout if timeout is None else timeout)

    def _finish_step(self, timeout: float | None, usual: bool = False) -> _StepResult[ObsType]:
        """Wait for the posted step and return its batched results (see :meth:`step_wait`);
        ``usual``: the usual step's short path posted it, and waits first."""
        short = self._usual if usual else None
        infos = None if short is None else short.finish(self._last_obs, self._merge_infos)
        if infos is None:
            _, infos = self._collect("step_wait", timeout, restart_hung=True)
        else:  # the short path's wait ended the step, as _collect does
            self._state, self._pending_workers = AsyncState.DEFAULT, []
        supervisor = self._supervisor
        views = self._views
        if supervisor.restarted_now or supervisor.restarted_late:
            infos = supervisor.report_restarts(infos, self._add_info, truncate=True)
        terminated, truncated = views.terminated.copy(), views.truncated.copy()
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended |= terminated | truncated
        observations = copy_tree(self.observations) if self.copy else self.observations
        return observations, views.rewards.copy(), terminated, truncated, infos

    # --- EnvPool-style asynchronous batches ------------------------------------------------------
    @_death_breaks
    def send(self, actions: Any, env_ids: Any = None) -> None:
        """Step the envs ``env_ids`` with ``actions`` without waiting (EnvPool's ``send``).

        Each worker steps the listed envs of its slice; an env whose worker is still busy is
        queued and starts when that worker finishes. Collect results with :meth:`recv`.

        Args:
            actions: a batch of ``len(env_ids)`` actions, in the order of ``env_ids``.
            env_ids: env indices not in flight; ``None``: the ids returned by the last
                :meth:`recv` (all envs before the first one).

        Raises:
            ValueError: bad ``env_ids`` or actions (nothing is sent then).
        """
        self._begin("send")
        ids = self._scheduler.select(env_ids)
        if not self._all_reset:
            check_not_before_reset(self._supervisor.was_reset, ids)
        if self.autoreset_mode is AutoresetMode.DISABLED and self._ended[ids].any():
            first = int(ids[np.argmax(self._ended[ids])])
            raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=first))
        payload = self._actions.write(actions, ids)
        self._scheduler.send(ids, payload)

    @_death_breaks
    def recv(
        self, timeout: float | None = None
    ) -> tuple[
        Any,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
        npt.NDArray[np.intp],
    ]:
        """Wait for the first ``batch_size`` envs to finish (EnvPool's ``recv``).

        Returns ``(observations, rewards, terminations, truncations, infos, env_ids)`` for the
        envs ``env_ids`` (ascending); fewer than ``batch_size`` only when fewer are in flight.
        Envs finish a whole worker at a time. When ``env_ids`` are contiguous and ``copy=False``
        the observations are views of the shared buffers (zero-copy).

        Raises:
            NoAsyncCallError: nothing was sent.
            WaitTimeout: no batch was complete in time (what finished stays ready for later).
        """
        self._begin(None)
        scheduler = self._scheduler
        if not scheduler.ready and not scheduler.in_flight():
            raise error.NoAsyncCallError(NOTHING_IN_FLIGHT_MSG, "recv")
        scheduler.wait_batch(timeout)
        take = scheduler.take_batch()
        ids = np.asarray(take, dtype=np.intp)
        infos = scheduler.take_infos(take, self._merge_infos)
        observations = pick_observations(
            self.observations,
            self._last_obs,
            self.single_observation_space,
            take,
            in_shm=self._obs_in_shm,
            copy=self.copy,
        )
        views = self._views
        terminated, truncated = views.terminated[ids], views.truncated[ids]
        if self.autoreset_mode is AutoresetMode.DISABLED:
            self._ended[ids] |= terminated | truncated
        return observations, views.rewards[ids], terminated, truncated, infos, ids

    # --- call / attributes / render --------------------------------------------------------------
    def call(
        self, name: str, *args: Any, indices: int | Sequence[int] | None = None, **kwargs: Any
    ) -> tuple[Any, ...]:
        """Call method ``name`` (or read attribute ``name``) of each sub-environment.

        Args:
            name: the method or attribute.
            *args: positional arguments of the call.
            indices: a vecgym addition: only these envs (results in that order); consumed here.
            **kwargs: keyword arguments of the call.

        Returns:
            One result per env.
        """
        self.call_async(name, *args, indices=indices, **kwargs)
        return self.call_wait()

    def render(self) -> tuple[RenderFrame, ...] | None:
        """The frames rendered by every sub-environment (``call("render")``)."""
        return self.call("render")

    @_death_breaks
    def call_async(
        self, name: str, /, *args: Any, indices: int | Sequence[int] | None = None, **kwargs: Any
    ) -> None:
        """Start :meth:`call`; collect the results with :meth:`call_wait`.

        ``name`` is positional-only, as in Gymnasium: a keyword argument ``name=...`` goes on to
        the method called."""
        self._begin("call_async")
        selected = normalize_indices(indices, self.num_envs)
        by_worker = self._scheduler.group(selected)
        self._supervisor.drain_late(list(by_worker))
        for k, env_list in by_worker.items():
            self._pool.post(k, Command.CALL, (env_list, name, args, kwargs))
        self._call_order = selected
        self._pending_workers = list(by_worker)
        self._state = AsyncState.WAITING_CALL

    @_death_breaks
    def call_wait(self, timeout: float | None = None) -> tuple[Any, ...]:
        """Wait for :meth:`call_async`; one result per selected env, in the selected order.

        Raises:
            NoAsyncCallError: no :meth:`call_async` pending.
            WaitTimeout: the timeout elapsed (late results are discarded).
        """
        self._begin(None, awaited=AsyncState.WAITING_CALL)
        replies, _ = self._collect("call_wait", timeout, lost_call="call")
        groups = self._scheduler.group(self._call_order)
        results: dict[int, Any] = {}
        for k, reply in replies:
            assert reply.results is not None
            for i, value in zip(groups[k], reply.results, strict=False):
                results[i] = value
        return tuple(results[i] for i in self._call_order)

    def get_attr(self, name: str, *, indices: int | Sequence[int] | None = None) -> tuple[Any, ...]:
        """The attribute ``name`` of each sub-environment (Gymnasium's async ``get_attr``: a
        callable attribute is called)."""
        return self.call(name, indices=indices)

    @_death_breaks
    def set_attr(
        self, name: str, values: Any, *, indices: int | Sequence[int] | None = None
    ) -> None:
        """Set attribute ``name`` of the sub-environments.

        Args:
            name: the attribute.
            values: one value per selected env (a list or tuple), or one value for all.
            indices: a vecgym addition: only these envs; ``None`` for all.

        Raises:
            ValueError: a list or tuple of the wrong length.
        """
        self._begin(None)
        selected = normalize_indices(indices, self.num_envs)
        if not isinstance(values, (list, tuple)):
            values = [values] * len(selected)
        if len(values) != len(selected):
            raise ValueError(SET_ATTR_LENGTH_MSG.format(len(values), len(selected)))
        self._begin("set_attr")
        by_worker = self._scheduler.group(selected)
        value_of = dict(zip(selected, values, strict=False))
        self._supervisor.drain_late(list(by_worker))
        for k, env_list in by_worker.items():
            self._pool.post(k, Command.SET_ATTR, (env_list, name, [value_of[i] for i in env_list]))
        self._pending_workers = list(by_worker)
        self._state = AsyncState.WAITING_CALL
        self._collect("set_attr", None, lost_call="set_attr")

    # --- the *_async / *_wait state --------------------------------------------------------------
    def _begin(self, method: str | None, awaited: AsyncState | None = None) -> None:
        """Refuse a call on a closed or broken env; with ``method`` (an ``*_async`` call, ``send``
        or ``set_attr``) also while another call is pending; with ``awaited`` (a ``*_wait``) also
        unless that state is pending."""
        if self.closed:
            raise error.ClosedEnvironmentError(CLOSED_MSG.format(type(self).__name__))
        if self._supervisor.broken is not None:
            raise error.WorkerDied(BROKEN_MSG.format(self._supervisor.broken))
        if awaited is not None and self._state is not awaited:
            name = awaited.value
            raise error.NoAsyncCallError(
                NO_ASYNC_MSG.format(method=f"{name}_wait", partner=f"{name}_async"), name
            )
        if method is None:
            return
        if self._state is not AsyncState.DEFAULT:
            raise error.AlreadyPendingCallError(
                PENDING_MSG.format(method=method, pending=self._state.value),
                str(self._state.value),
            )
        if method != "send" and self._scheduler.in_flight():
            raise error.AlreadyPendingCallError(POOL_BUSY_MSG.format(method), "send")

    def _collect(
        self,
        method: str,
        timeout: float | None,
        *,
        restart_hung: bool = False,
        reset_seeds: ResetSeeds | None = None,
        lost_call: str | None = None,
    ) -> tuple[list[tuple[int, Reply]], dict[str, Any]]:
        """Wait for the pending command's workers and take their replies (see
        :meth:`Supervisor.collect`); the replies and their merged infos."""
        workers = self._pending_workers
        try:
            failures = self._supervisor.wait(workers, method, timeout, restart_hung=restart_hung)
        except (error.WaitTimeout, error.WorkerDied):
            self._state, self._pending_workers = AsyncState.DEFAULT, []
            raise
        self._state, self._pending_workers = AsyncState.DEFAULT, []
        replies = self._supervisor.collect(
            workers, failures, reset_seeds=reset_seeds, lost_call=lost_call
        )
        registry = self._info_registry if method in ("step_wait", "reset_wait") else None
        if lost_call is not None or not (replies or registry is not None):  # calls: results
            return replies, {}
        if registry is not None:  # numeric infos wait in their shared slots
            infos, changed = step_infos(
                registry,
                self._pool,
                list(replies),
                self._supervisor.restarted_now,
                self._last_obs,
                self._merge_infos,
                None if reset_seeds is None else reset_seeds[1],
            )
        else:
            infos, changed = merge_replies(list(replies), self._last_obs, self._merge_infos)
        if changed or not self._obs_in_shm:
            self.observations = concatenate(
                self.single_observation_space, self._last_obs, self.observations
            )
        return replies, infos

    # --- closing ---------------------------------------------------------------------------------
    def close_extras(
        self, timeout: float | None = None, terminate: bool = False, **kwargs: Any
    ) -> None:
        """Stop the workers and release the shared memory; never raises, never hangs.

        Args:
            timeout: seconds to wait for the workers to finish and exit (``None``:
                ``CLOSE_TIMEOUT_S``); stragglers are terminated, then killed.
            terminate: terminate the workers at once instead of asking them to close their envs.
        """
        pool: WorkerPool | None = getattr(self, "_pool", None)
        if pool is None:  # the arguments were refused: nothing was started
            return
        budget = CLOSE_TIMEOUT_S if timeout is None else max(0.0, timeout)
        deadline = time.monotonic() + budget
        try:
            if self._state is not AsyncState.DEFAULT:
                pending, self._state = self._state, AsyncState.DEFAULT
                # a warning escalated to an error (-W error) must not skip the graceful close
                with contextlib.suppress(Exception):
                    logger.warn(CLOSE_PENDING_MSG.format(pending.value))
            if not terminate:
                pool.close_gracefully(deadline, broken=self._supervisor.broken is not None)
        except Exception:  # close never raises: whatever failed, the workers are stopped below
            pass
        pool.stop(deadline if not terminate else time.monotonic())
        registry: InfoRegistry | None = getattr(self, "_info_registry", None)
        if registry is not None:
            registry.close()
        self._done = None

    def __del__(self) -> None:
        """Terminate the workers if the env was never closed; never raises."""
        try:
            if not getattr(self, "closed", True):
                self.close(terminate=True)
        except Exception:
            pass
