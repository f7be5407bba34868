"""The vector runtimes ``vecgym bench`` measures, each adapted to a :class:`Stepper`.

vecgym's own (``sync``, ``async``, ``vector``: the env's numpy ``vector_entry_point``) and, for
``--compare``, vecgym's EnvPool-style ``send`` / ``recv`` collection (``send-recv``: every env
in flight, batches of half of them) and its peers when they are installed: Gymnasium's
``SyncVectorEnv`` / ``AsyncVectorEnv`` (and its vectorised env where the id has one),
Stable-Baselines3's ``DummyVecEnv`` / ``SubprocVecEnv``, PufferLib's ``Serial`` /
``Multiprocessing`` backends and EnvPool's ``step`` and ``send`` / ``recv`` (for the ids EnvPool
has, see :data:`ENVPOOL_IDS`).
Peers build the env from their own library (``gymnasium.make(env_id)``), so an id Gymnasium
does not know is skipped for them, with the reason.

Async runtimes return views of their buffers (``copy=False``) where the runtime offers it: a
collector copies into its own rollout storage anyway.
"""

from __future__ import annotations

import importlib
import multiprocessing
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vecgym.cli.measure import (
    COUNT_ALL,
    COUNT_NEXT_STEP,
    COUNT_SELF,
    POOL_DISABLED_MSG,
    POOL_MODES,
    Stepper,
    observation_shape,
    pool_stepper,
    usable_cores,
)

#: Gymnasium's warning when EnvPool casts its float64 space bounds to float32 (a regex)
ENVPOOL_SPACE_WARNING = ".*precision lowered by casting"

__all__ = [
    "ACTION_BATCHES",
    "BenchTarget",
    "Runtime",
    "Unavailable",
    "compare_runtimes",
    "envpool_id",
    "envpool_stepper",
    "parent_share",
    "pool_batch_size",
    "puffer_creator",
    "puffer_stepper",
    "vecgym_runtimes",
    "vector_stepper",
]

ACTION_BATCHES = 256
"""Pre-generated action batches per measurement (cycled)."""
NOT_INSTALLED_MSG = "{library} is not installed (pip install {package})"
NO_GYMNASIUM_ID_MSG = "Gymnasium has no env {env_id!r}: {error}"
COMPARE_EXTRA = '"vecgym[compare]"'
GYMNASIUM_VERSION_MSG = (
    "Gymnasium {version} is installed; --compare supports Gymnasium 1.x "
    f"(pip install {COMPARE_EXTRA})"
)
NO_VECTOR_ENTRY_MSG = "{env_id} has no vector_entry_point"
PUFFER_FAILED_MSG = "pufferlib could not build the env: {error}"


class Unavailable(Exception):
    """A runtime cannot run here (library missing, env unknown to it); the message says why."""


@dataclass(frozen=True)
class BenchTarget:
    """What to build: the env id, its kwargs and the autoreset mode for the vectorisers.

    Attributes:
        env_id: a registered env id.
        env_kwargs: keyword arguments for the env constructor.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` value (``"NextStep"``, ...).
        seed: seed for the action samples and the reset.
    """

    env_id: str
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    autoreset_mode: str = "NextStep"
    seed: int = 0


@dataclass(frozen=True)
class Runtime:
    """One vector runtime.

    Attributes:
        name: the label in tables, JSON and plots (``"async"``, ``"gymnasium-sync"``, ...).
        build: ``build(target, num_envs, num_workers)`` returns the stepper and its
            pre-generated actions, or raises :class:`Unavailable`.
        uses_workers: whether ``num_workers`` means something to it.
        process_per_env: whether it starts one process per env (capped by ``--max-processes``).
        parent_steps: whether the parent process steps a share of the envs besides the workers
            (``AsyncVectorEnv(parent_envs=...)``): it is measured with one worker fewer than each
            worker count asked for (at least one), and only from two envs on.
    """

    name: str
    build: Callable[[BenchTarget, int, int | None], tuple[Stepper, list[Any]]]
    uses_workers: bool = False
    process_per_env: bool = False
    parent_steps: bool = False


def _import(module: str, package: str, library: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise Unavailable(NOT_INSTALLED_MSG.format(library=library, package=package)) from exc


def _sample_batches(space: Any, seed: int) -> list[Any]:
    space.seed(seed)
    return [space.sample() for _ in range(ACTION_BATCHES)]


def _sampled_or_close(envs: Any, space: Callable[[], Any], seed: int) -> list[Any]:
    """Action batches sampled from ``space()``; ``envs`` is closed if that fails (its processes
    would outlive the error otherwise)."""
    try:
        return _sample_batches(space(), seed)
    except BaseException:
        envs.close()
        raise


def vector_stepper(envs: Any, target: BenchTarget) -> tuple[Stepper, list[Any]]:
    """A Gymnasium-API vector env (vecgym's or Gymnasium's) as a stepper, with its actions.

    The counting rule follows ``envs.metadata["autoreset_mode"]``; under ``Disabled`` ended
    envs are reset through ``reset(options={"reset_mask": mask})``. ``envs`` is closed if the
    actions cannot be sampled.
    """
    mode = envs.metadata.get("autoreset_mode", "NextStep")
    mode = str(getattr(mode, "value", mode))

    def step(actions: Any) -> np.ndarray:
        _, _, terminated, truncated, _ = envs.step(actions)
        return np.logical_or(terminated, truncated)

    def reset_done(mask: np.ndarray) -> None:
        envs.reset(options={"reset_mask": mask})

    actions = _sampled_or_close(envs, lambda: envs.action_space, target.seed)
    stepper = Stepper(
        num_envs=envs.num_envs,
        reset=lambda seed: envs.reset(seed=seed),
        step=step,
        close=envs.close,
        counting=COUNT_NEXT_STEP if mode == "NextStep" else COUNT_ALL,
        reset_done=reset_done if mode == "Disabled" else None,
        observation_shape=observation_shape(envs.single_observation_space),
    )
    return stepper, actions


# --- vecgym -------------------------------------------------------------------------------------
def parent_share(num_envs: int, workers: int) -> int:
    """The envs the parent steps beside ``workers`` worker processes: an equal share."""
    return max(1, min(num_envs - 1, round(num_envs / (workers + 1))))


def _vecgym_mode(
    mode: str, parent: bool = False
) -> Callable[[BenchTarget, int, int | None], tuple[Stepper, list[Any]]]:
    def build(target: BenchTarget, num_envs: int, workers: int | None) -> tuple[Stepper, list[Any]]:
        import vecgym

        vector_kwargs: dict[str, Any] = {"autoreset_mode": target.autoreset_mode}
        if mode == "async":
            vector_kwargs.update(num_workers=workers, copy=False)
        if parent:
            processes = workers or max(1, usable_cores() - 1)
            vector_kwargs["parent_envs"] = parent_share(num_envs, processes)
        envs = vecgym.make_vec(
            target.env_id,
            num_envs=num_envs,
            vectorization_mode=mode,
            vector_kwargs=vector_kwargs,
            **target.env_kwargs,
        )
        return vector_stepper(envs, target)

    return build


def pool_batch_size(num_envs: int) -> int:
    """The ``batch_size`` of the send / recv runtimes (vecgym's and EnvPool's): half the envs."""
    return max(1, num_envs // 2)


def _build_vecgym_pool(
    target: BenchTarget, num_envs: int, workers: int | None
) -> tuple[Stepper, list[Any]]:
    """vecgym's AsyncVectorEnv collected EnvPool-style (:func:`~vecgym.cli.measure.pool_stepper`):
    every env in flight, batches of half of them."""
    import vecgym

    if target.autoreset_mode not in POOL_MODES:
        raise Unavailable(POOL_DISABLED_MSG.format(mode=target.autoreset_mode))
    envs = vecgym.make_vec(
        target.env_id,
        num_envs=num_envs,
        vectorization_mode="async",
        vector_kwargs={
            "autoreset_mode": target.autoreset_mode,
            "num_workers": workers,
            "copy": False,
            "batch_size": pool_batch_size(num_envs),
        },
        **target.env_kwargs,
    )
    actions = _sampled_or_close(envs, lambda: envs.action_space, target.seed)
    return pool_stepper(envs), actions


def _build_vecgym_vector(
    target: BenchTarget, num_envs: int, workers: int | None
) -> tuple[Stepper, list[Any]]:
    import vecgym
    from vecgym.core.registration import vector_entry_point_of

    if vector_entry_point_of(vecgym.spec(target.env_id)) is None:
        raise Unavailable(NO_VECTOR_ENTRY_MSG.format(env_id=target.env_id))
    kwargs = dict(target.env_kwargs)
    if target.autoreset_mode != "NextStep":
        kwargs["autoreset_mode"] = target.autoreset_mode
    envs = vecgym.make_vec(
        target.env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )
    return vector_stepper(envs, target)


def vecgym_runtimes() -> list[Runtime]:
    """vecgym's runtimes: ``sync``, ``async`` (per worker count), ``async+parent`` (the parent
    stepping an equal share of the envs beside the workers) and ``vector``."""
    return [
        Runtime("sync", _vecgym_mode("sync")),
        Runtime("async", _vecgym_mode("async"), uses_workers=True),
        Runtime(
            "async+parent", _vecgym_mode("async", parent=True), uses_workers=True, parent_steps=True
        ),
        Runtime("vector", _build_vecgym_vector),
    ]


# --- Gymnasium ----------------------------------------------------------------------------------
def _gymnasium_spec(target: BenchTarget) -> Any:
    gymnasium = _import("gymnasium", COMPARE_EXTRA, "gymnasium")
    major = gymnasium.__version__.split(".")[0]
    if major != "1":
        raise Unavailable(GYMNASIUM_VERSION_MSG.format(version=gymnasium.__version__))
    try:
        return gymnasium.spec(target.env_id)
    except gymnasium.error.Error as exc:
        raise Unavailable(NO_GYMNASIUM_ID_MSG.format(env_id=target.env_id, error=exc)) from exc


def _gymnasium_mode(
    mode: str,
) -> Callable[[BenchTarget, int, int | None], tuple[Stepper, list[Any]]]:
    def build(target: BenchTarget, num_envs: int, workers: int | None) -> tuple[Stepper, list[Any]]:
        import gymnasium

        spec = _gymnasium_spec(target)
        vector_kwargs: dict[str, Any] = {}
        if mode != "vector_entry_point":
            vector_kwargs["autoreset_mode"] = gymnasium.vector.AutoresetMode(target.autoreset_mode)
        elif spec.vector_entry_point is None:
            raise Unavailable(NO_VECTOR_ENTRY_MSG.format(env_id=target.env_id))
        if mode == "async":
            vector_kwargs["copy"] = False
        envs = gymnasium.make_vec(
            target.env_id,
            num_envs=num_envs,
            vectorization_mode=mode,
            vector_kwargs=vector_kwargs or None,
            **target.env_kwargs,
        )
        return vector_stepper(envs, target)

    return build


# --- Stable-Baselines3 --------------------------------------------------------------------------
def _sb3(kind: str) -> Callable[[BenchTarget, int, int | None], tuple[Stepper, list[Any]]]:
    def build(target: BenchTarget, num_envs: int, workers: int | None) -> tuple[Stepper, list[Any]]:
        vec_env = _import("stable_baselines3.common.vec_env", "stable-baselines3", "SB3")
        import gymnasium

        _gymnasium_spec(target)
        fns = [_GymnasiumFactory(target.env_id, target.env_kwargs)] * num_envs
        if kind == "subproc":
            method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
            envs = vec_env.SubprocVecEnv(fns, start_method=method)
        else:
            envs = vec_env.DummyVecEnv(fns)
        actions = _sampled_or_close(
            envs,
            lambda: gymnasium.vector.utils.batch_space(envs.action_space, num_envs),
            target.seed,
        )

        def reset(seed: int) -> None:
            envs.seed(seed)
            envs.reset()

        def step(actions: Any) -> np.ndarray:
            _, _, dones, _ = envs.step(actions)
            return np.asarray(dones, dtype=bool)

        # SB3 resets an ended env inside the same step: every step is a real env step.
        return Stepper(num_envs, reset, step, envs.close, counting=COUNT_ALL), actions

    return build


@dataclass(frozen=True)
class _GymnasiumFactory:
    """A picklable ``gymnasium.make(env_id, **kwargs)`` (for process-based peers)."""

    env_id: str
    kwargs: dict[str, Any]

    def __call__(self) -> Any:
        import gymnasium

        return gymnasium.make(self.env_id, **self.kwargs)


# --- PufferLib ----------------------------------------------------------------------------------
def _puffer(backend: str) -> Callable[[BenchTarget, int, int | None], tuple[Stepper, list[Any]]]:
    def build(target: BenchTarget, num_envs: int, workers: int | None) -> tuple[Stepper, list[Any]]:
        _import("pufferlib.vector", "pufferlib", "PufferLib")  # missing: said before the spec
        _gymnasium_spec(target)
        factory = _GymnasiumFactory(target.env_id, target.env_kwargs)
        return puffer_stepper(factory, backend, num_envs, workers, target.seed)

    return build


def puffer_creator(factory: Callable[[], Any]) -> Callable[..., Any]:
    """The env creator PufferLib's ``vector.make`` takes: each call wraps a Gymnasium env from
    ``factory`` in PufferLib's ``GymnasiumPufferEnv`` (PufferLib >= 2 passes its shared buffer,
    ``buf``, and ``seed`` to the creator: both handed on).

    Raises:
        Unavailable: PufferLib is not installed.
    """
    emulation = _import("pufferlib.emulation", "pufferlib", "PufferLib")

    def creator(*args: Any, **kwargs: Any) -> Any:
        passed = {key: kwargs[key] for key in ("buf", "seed") if key in kwargs}
        return emulation.GymnasiumPufferEnv(env_creator=factory, **passed)

    return creator


def puffer_stepper(
    factory: Callable[[], Any], backend: str, num_envs: int, workers: int | None, seed: int
) -> tuple[Stepper, list[Any]]:
    """``num_envs`` Gymnasium envs from ``factory`` in PufferLib's vector env of ``backend``
    (``"Serial"`` or ``"Multiprocessing"``, with ``workers`` processes, 1 if ``None``), each in
    PufferLib's ``GymnasiumPufferEnv``, as a stepper with its actions.

    PufferLib's workers and its main process wait for each other by spinning without sleeping
    (a worker sleeps only after half a second without work), so with as many workers as cores the
    main process takes a core's time from them.

    Raises:
        Unavailable: PufferLib is not installed, or could not build the vector env (an API
            difference between PufferLib versions).
    """
    vector = _import("pufferlib.vector", "pufferlib", "PufferLib")
    import gymnasium

    options: dict[str, Any] = {"num_envs": num_envs}
    if backend == "Multiprocessing":
        options["num_workers"] = workers or 1
    try:
        envs = vector.make(puffer_creator(factory), backend=getattr(vector, backend), **options)
    except Exception as exc:  # an API difference between PufferLib versions
        raise Unavailable(PUFFER_FAILED_MSG.format(error=exc)) from exc
    actions = _sampled_or_close(
        envs,
        lambda: gymnasium.vector.utils.batch_space(envs.single_action_space, num_envs),
        seed,
    )

    def step(actions: Any) -> np.ndarray:
        _, _, terminals, truncations, _ = envs.step(actions)
        return np.logical_or(terminals, truncations)

    # PufferLib (3.0) resets an ended env at its next step, whose action it drops, as NEXT_STEP
    # autoreset does: that step is not counted.
    stepper = Stepper(
        num_envs, lambda seed: envs.reset(seed=seed), step, envs.close, COUNT_NEXT_STEP
    )
    return stepper, actions


# --- EnvPool -------------------------------------------------------------------------------------
#: Gymnasium ids whose EnvPool name differs. EnvPool's Atari envs (``Pong-v5``, ...) include the
#: standard preprocessing (no-op starts, frame skip 4, 84x84 grey frames, a stack of 4): the
#: workload of Gymnasium's ``ALE/Pong-v5`` + ``AtariPreprocessing`` + ``FrameStackObservation(4)``,
#: heavier per step than the raw ``ALE/Pong-v5`` it is mapped from.
ENVPOOL_IDS = {"ALE/Pong-v5": "Pong-v5", "ALE/Breakout-v5": "Breakout-v5"}
NO_ENVPOOL_ID_MSG = "EnvPool has no env for {env_id!r} (its ids: envpool.list_all_envs())"
ENVPOOL_KWARGS_MSG = "EnvPool runs its own env ids without constructor kwargs, got {kwargs}"
ENVPOOL_AUTORESET_MSG = "EnvPool autoresets on the next step only, not {mode}"


def envpool_id(env_id: str, known: list[str]) -> str:
    """EnvPool's name of the Gymnasium id ``env_id`` (see :data:`ENVPOOL_IDS`).

    Raises:
        Unavailable: EnvPool has no such env.
    """
    name = ENVPOOL_IDS.get(env_id, env_id)
    if name not in known:
        raise Unavailable(NO_ENVPOOL_ID_MSG.format(env_id=env_id))
    return name


def envpool_stepper(envs: Any, seed: int) -> tuple[Stepper, list[Any]]:
    """An EnvPool env (``envpool.make_gymnasium``) as a stepper, with its actions: ``step`` when
    its ``batch_size`` is its ``num_envs``, else ``send`` / ``recv`` of ``batch_size`` envs with
    every env in flight (counting the batch's real steps: those with a nonzero
    ``elapsed_step``). ``envs`` is closed if the actions cannot be sampled."""
    import gymnasium

    num_envs = int(envs.config["num_envs"])
    batch = int(envs.config["batch_size"])
    with warnings.catch_warnings():
        # EnvPool builds (and caches) its Gymnasium spaces on first use from float64 bounds, and
        # Gymnasium warns about the cast to float32: a note on the peer's spaces, not on the run
        warnings.filterwarnings("ignore", ENVPOOL_SPACE_WARNING, UserWarning)
        shape = observation_shape(envs.observation_space)  # one env's
        _ = envs.action_space
    actions = _sampled_or_close(
        envs, lambda: gymnasium.vector.utils.batch_space(envs.action_space, batch), seed
    )
    if batch == num_envs:

        def reset(seed: int) -> None:
            envs.reset()

        def step(actions: Any) -> np.ndarray:
            _, _, terminated, truncated, _ = envs.step(actions)
            return np.logical_or(terminated, truncated)

        return Stepper(num_envs, reset, step, envs.close, observation_shape=shape), actions

    ids: list[Any] = [None]

    def reset_async(seed: int) -> None:
        envs.async_reset()
        ids[0] = envs.recv()[4]["env_id"]

    def step_async(actions: Any) -> int:
        envs.send(actions, ids[0])
        _, _, _, _, info = envs.recv()
        ids[0] = info["env_id"]
        # A batch may hold resets: the second half's first reset, and the step after an
        # episode's end (EnvPool resets then). Their elapsed_step is 0; a real step's is not.
        elapsed = info.get("elapsed_step")
        return len(ids[0]) if elapsed is None else int(np.count_nonzero(elapsed))

    stepper = Stepper(
        num_envs, reset_async, step_async, envs.close, counting=COUNT_SELF, observation_shape=shape
    )
    return stepper, actions


def _envpool(kind: str) -> Callable[[BenchTarget, int, int | None], tuple[Stepper, list[Any]]]:
    """EnvPool's ``make_gymnasium`` with ``num_threads`` = the usable cores: ``"sync"`` steps
    every env with ``step``; ``"async"`` keeps all envs in flight and receives batches of half of
    them (``send`` / ``recv``), as vecgym's ``send-recv`` does."""

    def build(target: BenchTarget, num_envs: int, workers: int | None) -> tuple[Stepper, list[Any]]:
        envpool = _import("envpool", "envpool", "EnvPool")
        if target.env_kwargs:
            raise Unavailable(ENVPOOL_KWARGS_MSG.format(kwargs=target.env_kwargs))
        if target.autoreset_mode != "NextStep":
            raise Unavailable(ENVPOOL_AUTORESET_MSG.format(mode=target.autoreset_mode))
        name = envpool_id(target.env_id, list(envpool.list_all_envs()))
        batch = num_envs if kind == "sync" else pool_batch_size(num_envs)
        envs = envpool.make_gymnasium(
            name,
            num_envs=num_envs,
            batch_size=batch,
            num_threads=workers or usable_cores(),
            seed=target.seed,
        )
        return envpool_stepper(envs, target.seed)

    return build


def compare_runtimes() -> list[Runtime]:
    """What ``--compare`` adds: the peers (each skipped with a note when it cannot run), and
    vecgym's own ``send`` / ``recv`` collection (``send-recv``), to be read beside EnvPool's."""
    return [
        Runtime("send-recv", _build_vecgym_pool, uses_workers=True),
        Runtime("gymnasium-sync", _gymnasium_mode("sync")),
        Runtime("gymnasium-async", _gymnasium_mode("async"), process_per_env=True),
        Runtime("gymnasium-vector", _gymnasium_mode("vector_entry_point")),
        Runtime("sb3-dummy", _sb3("dummy")),
        Runtime("sb3-subproc", _sb3("subproc"), process_per_env=True),
        Runtime("pufferlib-serial", _puffer("Serial")),
        Runtime("pufferlib-mp", _puffer("Multiprocessing"), uses_workers=True),
        Runtime("envpool-sync", _envpool("sync")),
        Runtime("envpool-async", _envpool("async")),
    ]
