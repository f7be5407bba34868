"""Building environments from the registry: :func:`make` and :func:`make_vec`.

This is the composition root (layer 4): it joins the registry data of
:mod:`vecgym.core.registration` with the wrappers of :mod:`vecgym.wrappers` and the vectorisers of
:mod:`vecgym.vector`. Every name of :mod:`vecgym.core.registration` is re-exported here (the same
objects), so ``vecgym.envs.registration`` offers what ``gymnasium.envs.registration`` offers.

``make`` wraps the environment its entry point builds, innermost first::

    PassiveEnvChecker -> OrderEnforcing -> TimeLimit -> spec.additional_wrappers...
        -> HumanRendering or RenderCollection (when the render mode asks for one)

Example:
    >>> import vecgym
    >>> env = vecgym.make("CartPole-v1")
    >>> env
    <TimeLimit<OrderEnforcing<PassiveEnvChecker<CartPoleEnv<CartPole-v1>>>>>
    >>> env.spec.max_episode_steps
    500
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from vecgym import error, logger
from vecgym.core.env import Env, Wrapper
from vecgym.core.gymnasium_errors import adopt_gymnasium_error
from vecgym.core.interop import as_vecgym_env
from vecgym.core.registration import (
    ENV_ID_RE,
    EnvCreator,
    EnvSpec,
    Registry,
    VectorEnvCreator,
    VectorizeMode,
    WrapperSpec,
    find_highest_version,
    get_env_id,
    install_env_builder,
    load_env_creator,
    namespace,
    parse_env_id,
    pprint_registry,
    register,
    register_envs,
    registry,
    spec,
    vector_entry_point_of,
)
from vecgym.envs.gymnasium_registry import load_entry_point
from vecgym.wrappers.common import OrderEnforcing, PassiveEnvChecker, TimeLimit
from vecgym.wrappers.rendering import RenderCollection

__all__ = [
    "ENV_ID_RE",
    "EnvCreator",
    "EnvSpec",
    "Registry",
    "VectorEnvCreator",
    "VectorizeMode",
    "WrapperSpec",
    "current_namespace",  # noqa: F822 - served by the module's __getattr__
    "find_highest_version",
    "get_env_id",
    "load_env_creator",
    "make",
    "make_vec",
    "namespace",
    "parse_env_id",
    "pprint_registry",
    "register",
    "register_envs",
    "registry",
    "spec",
]

# --- message templates ----------------------------------------------------------------------------
BAD_ID_TYPE_MSG = "make expects an environment id (str) or an EnvSpec, got {type}"
BAD_VEC_ID_TYPE_MSG = "make_vec expects an environment id (str) or an EnvSpec, got {type}"
MISSING_ADDITIONAL_WRAPPERS_MSG = (
    "the EnvSpec given to `make` has no `additional_wrappers` attribute, so it is set to (); spec: "
    "{spec}"
)
NO_ENTRY_POINT_MSG = (
    "{env_id} has no entry_point, so `make` cannot build a single environment from it"
)
METADATA_TYPE_MSG = "an environment's metadata must be a dict, got {type}"
METADATA_NO_RENDER_MODES_MSG = (
    "the environment's metadata has no `render_modes` entry; its keys are {keys}"
)
METADATA_RENDER_MODES_TYPE_MSG = (
    "the environment's metadata['render_modes'] must be an iterable, got {type}"
)
HUMAN_RENDERING_APPLIED_MSG = (
    "the environment has no 'human' render mode of its own: it is made with an rgb_array render "
    "mode and wrapped in HumanRendering, which displays its frames."
)
UNSUPPORTED_RENDER_MODE_MSG = (
    "render_mode={render_mode!r} is not one of the environment's render_modes ({render_modes})."
)
HUMAN_RENDERING_OLD_API_MSG = (
    "{env_id} has no 'human' render mode, and the HumanRendering wrapper cannot stand in for it: "
    "the environment's constructor does not take a render_mode argument (the old rendering API)."
)
CREATOR_FAILED_MSG = "{cause} (raised by the entry point of {env_id}, called with kwargs {kwargs})"
OLD_GYM_ENV_MSG = (
    "the entry point built an environment of the old `gym` package, which vecgym cannot run; port "
    "it to `vecgym.Env` (or `gymnasium.Env`)."
)
NOT_AN_ENV_MSG = "the entry point must build a vecgym.Env (or a gymnasium.Env), got {type}."
PRIOR_WRAPPER_MISMATCH_MSG = (
    "the wrappers the entry point applied itself ({recreated}) are not the first additional "
    "wrappers of the EnvSpec ({saved})"
)
WRAPPER_NOT_RECORDED_MSG = (
    "{name} cannot be recreated from the spec: the wrapper must subclass "
    "`vecgym.utils.RecordConstructorArgs`, which records its constructor arguments."
)
VEC_NO_ENTRY_POINT_MSG = (
    "make_vec cannot vectorise {env_id}: its spec has no entry_point to build the single "
    "environments with."
)
VEC_NO_VECTOR_ENTRY_POINT_MSG = (
    "make_vec cannot use the vector_entry_point mode for {env_id}: its spec has no "
    "vector_entry_point."
)
VEC_INVALID_MODE_MSG = "vectorization_mode must be one of {valid}, got {mode!r}"
VEC_KWARGS_WITH_ENTRY_POINT_MSG = (
    "a vector entry point takes its arguments as keyword arguments of make_vec only, so "
    "vector_kwargs must be empty, got {vector_kwargs}"
)
VEC_WRAPPERS_WITH_ENTRY_POINT_MSG = (
    "the vector_entry_point mode builds no single environments to wrap, so `wrappers` must be "
    "empty, got {wrappers}."
)
VEC_ADDITIONAL_WRAPPERS_WITH_ENTRY_POINT_MSG = (
    "the vector_entry_point mode cannot apply the spec's additional_wrappers, which must be empty, "
    "got {additional_wrappers}."
)
VEC_MISSING_AUTORESET_MSG = (
    "the vector env {env} does not declare metadata['autoreset_mode']; its metadata: {metadata}"
)
VEC_BAD_AUTORESET_MSG = (
    "the vector env {env} declares a metadata['autoreset_mode'] of type {type}; it must be an "
    "AutoresetMode member."
)

_LIST_SUFFIX = "_list"
_DISPLAYABLE_MODES = ("rgb_array", "rgb_array_list")


def __getattr__(name: str) -> Any:
    """Serve ``current_namespace`` (Gymnasium's module global) from :data:`registry`."""
    if name == "current_namespace":
        return registry.current_namespace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- make -----------------------------------------------------------------------------------------
def make(
    id: str | EnvSpec,
    max_episode_steps: int | None = None,
    disable_env_checker: bool | None = None,
    **kwargs: Any,
) -> Env:
    """Build a registered environment (or one described by an :class:`EnvSpec`), wrapped.

    The wrappers, innermost first: ``PassiveEnvChecker`` (unless disabled), ``OrderEnforcing``
    (if ``spec.order_enforce``), ``TimeLimit`` (if a step limit applies), the spec's
    ``additional_wrappers`` rebuilt from their :class:`WrapperSpec`, then ``HumanRendering`` or
    ``RenderCollection`` when the requested render mode needs one. ``make(env.spec)`` therefore
    rebuilds the wrapper stack recorded in ``env.spec``.

    Args:
        id: a registered id (``"[namespace/]name[-vN]"``, optionally ``"module:id"`` to import
            ``module`` first) or an :class:`EnvSpec`.
        max_episode_steps: overrides the spec's step limit; ``-1`` applies no ``TimeLimit``.
        disable_env_checker: ``True``/``False`` leaves out / applies ``PassiveEnvChecker``;
            ``None`` follows ``spec.disable_env_checker``.
        **kwargs: keyword arguments for the entry point, overriding the spec's ``kwargs``.

    Returns:
        The wrapped environment; ``env.unwrapped.spec`` is set to the spec it was built from.

    Raises:
        TypeError: if ``id`` is neither a string nor an :class:`EnvSpec`, if the entry point
            rejects the arguments, or if it does not build a :class:`vecgym.Env`.
        vecgym.error.UnregisteredEnv: (a subclass) if the id is not registered, with a
            suggestion of the closest registered name where one is close.
        vecgym.error.DeprecatedEnv: if an old, unregistered version is asked for.
        vecgym.error.Error: if the spec has no entry point.
        ValueError: if an additional wrapper cannot be rebuilt (it records no arguments).
    """
    env_spec = _resolve_spec(id)
    env_kwargs = copy.deepcopy(env_spec.kwargs)
    env_kwargs.update(kwargs)

    if env_spec.entry_point is None:
        raise error.Error(NO_ENTRY_POINT_MSG.format(env_id=env_spec.id))
    env_creator = load_entry_point(env_spec, env_spec.entry_point)

    render_wrapper = _choose_render_wrapper(env_creator, env_kwargs)
    env = _create_env(env_creator, env_spec, env_kwargs, render_wrapper == "human")

    env.unwrapped.spec = EnvSpec(
        id=env_spec.id,
        entry_point=env_spec.entry_point,
        reward_threshold=env_spec.reward_threshold,
        nondeterministic=env_spec.nondeterministic,
        max_episode_steps=None,
        order_enforce=False,
        disable_env_checker=True,
        kwargs=env_kwargs,
        additional_wrappers=(),
        vector_entry_point=env_spec.vector_entry_point,
    )
    num_prior_wrappers = _count_prior_wrappers(env, env_spec)

    if disable_env_checker is False or (
        disable_env_checker is None and env_spec.disable_env_checker is False
    ):
        env = PassiveEnvChecker(env)
    if env_spec.order_enforce:
        env = OrderEnforcing(env)
    if max_episode_steps != -1:
        step_limit = env_spec.max_episode_steps if max_episode_steps is None else max_episode_steps
        if step_limit is not None:
            env = TimeLimit(env, step_limit)

    for wrapper_spec in env_spec.additional_wrappers[num_prior_wrappers:]:
        if wrapper_spec.kwargs is None:
            raise ValueError(WRAPPER_NOT_RECORDED_MSG.format(name=wrapper_spec.name))
        env = load_env_creator(wrapper_spec.entry_point)(env=env, **wrapper_spec.kwargs)

    if render_wrapper == "human":
        env = importlib.import_module("vecgym.wrappers").HumanRendering(env)
    elif render_wrapper == "collection":
        env = RenderCollection(env)
    return env


def _resolve_spec(id: str | EnvSpec) -> EnvSpec:
    """The spec ``make`` builds: ``id`` itself, or the registry's spec for it."""
    if isinstance(id, EnvSpec):
        if not hasattr(id, "additional_wrappers"):
            logger.warn(MISSING_ADDITIONAL_WRAPPERS_MSG.format(spec=id))
            id.additional_wrappers = ()
        return id
    if not isinstance(id, str):
        raise TypeError(BAD_ID_TYPE_MSG.format(type=type(id)))
    return registry.find_spec(id)


def _check_metadata(metadata: Any) -> None:
    """Check an env creator's class-level metadata (a dict with an iterable ``render_modes``)."""
    if not isinstance(metadata, dict):
        raise error.InvalidMetadata(METADATA_TYPE_MSG.format(type=type(metadata)))
    render_modes = metadata.get("render_modes")
    if render_modes is None:
        logger.warn(METADATA_NO_RENDER_MODES_MSG.format(keys=list(metadata.keys())))
    elif not isinstance(render_modes, Iterable):
        logger.warn(METADATA_RENDER_MODES_TYPE_MSG.format(type=type(render_modes)))


def _choose_render_wrapper(env_creator: Any, env_kwargs: dict[str, Any]) -> str | None:
    """Decide whether a render wrapper is needed, adjusting ``env_kwargs["render_mode"]``.

    Returns:
        ``"human"`` when ``render_mode="human"`` is emulated with ``HumanRendering`` over an
        ``rgb_array`` mode, ``"collection"`` when ``"<mode>_list"`` is emulated with
        ``RenderCollection`` over ``"<mode>"``, else ``None``. An unsupported mode that cannot be
        emulated only warns.
    """
    render_modes: Any = None
    # A wrapper class exposes ``metadata`` as a property; only real class metadata is checked.
    if hasattr(env_creator, "metadata") and not isinstance(env_creator.metadata, property):
        _check_metadata(env_creator.metadata)
        render_modes = env_creator.metadata.get("render_modes")
    render_mode = env_kwargs.get("render_mode")
    if render_mode is None or render_modes is None or render_mode in render_modes:
        return None
    displayable = [mode for mode in _DISPLAYABLE_MODES if mode in render_modes]
    if render_mode == "human" and displayable:
        logger.warn(HUMAN_RENDERING_APPLIED_MSG)
        env_kwargs["render_mode"] = displayable[0]
        return "human"
    if (
        isinstance(render_mode, str)
        and render_mode.endswith(_LIST_SUFFIX)
        and render_mode[: -len(_LIST_SUFFIX)] in render_modes
    ):
        env_kwargs["render_mode"] = render_mode[: -len(_LIST_SUFFIX)]
        return "collection"
    logger.warn(
        UNSUPPORTED_RENDER_MODE_MSG.format(render_mode=render_mode, render_modes=render_modes)
    )
    return None


def _create_env(
    env_creator: Callable[..., Any],
    env_spec: EnvSpec,
    env_kwargs: dict[str, Any],
    emulating_human: bool,
) -> Env:
    """Call the entry point and check that it built a :class:`vecgym.Env`."""
    try:
        env = env_creator(**env_kwargs)
    except TypeError as exc:
        if emulating_human and "got an unexpected keyword argument 'render_mode'" in str(exc):
            raise error.Error(HUMAN_RENDERING_OLD_API_MSG.format(env_id=env_spec.id)) from exc
        raise type(exc)(
            CREATOR_FAILED_MSG.format(cause=exc, env_id=env_spec.id, kwargs=env_kwargs)
        ) from exc
    except Exception as exc:  # a Gymnasium env's constructor raising one of Gymnasium's errors
        adopt_gymnasium_error(exc)
        raise
    env = as_vecgym_env(env)  # an entry point that builds a Gymnasium env gets it adapted
    if not isinstance(env, Env):
        base = str(type(env).__base__)
        if base in ("<class 'gym.core.Env'>", "<class 'gym.core.Wrapper'>"):
            raise TypeError(OLD_GYM_ENV_MSG)
        raise TypeError(NOT_AN_ENV_MSG.format(type=type(env)))
    return env


def _count_prior_wrappers(env: Env, env_spec: EnvSpec) -> int:
    """How many of ``env_spec.additional_wrappers`` the entry point already applied itself.

    An entry point may return a wrapped env; its wrappers then show in ``env.spec``. They must be
    the first entries of ``env_spec.additional_wrappers`` (when the spec lists that many), and
    ``make`` applies only the rest.

    Raises:
        ValueError: if the entry point's wrappers differ from the spec's first wrappers.
    """
    built_spec = env.spec
    assert built_spec is not None
    prior = built_spec.additional_wrappers
    expected = env_spec.additional_wrappers[: len(prior)]
    if len(prior) <= len(env_spec.additional_wrappers) and expected != prior:
        for saved, recreated in zip(expected, prior, strict=True):
            if saved != recreated:
                raise ValueError(
                    PRIOR_WRAPPER_MISMATCH_MSG.format(recreated=recreated, saved=saved)
                )
    return len(prior)


# --- make_vec -------------------------------------------------------------------------------------
def make_vec(
    id: str | EnvSpec,
    num_envs: int = 1,
    vectorization_mode: VectorizeMode | str | None = None,
    vector_kwargs: dict[str, Any] | None = None,
    wrappers: Sequence[Callable[[Env], Wrapper]] | None = None,
    **kwargs: Any,
) -> Any:
    """Build a vector environment of ``num_envs`` copies of a registered environment.

    Args:
        id: a registered id (optionally ``"module:id"``) or an :class:`EnvSpec`.
        num_envs: how many sub-environments.
        vectorization_mode: ``"sync"`` (:class:`vecgym.vector.SyncVectorEnv`), ``"async"``
            (:class:`vecgym.vector.AsyncVectorEnv`), ``"ray"`` (:class:`vecgym.vector.RayVectorEnv`,
            the ``ray`` extra) or ``"vector_entry_point"`` (the spec's
            ``vector_entry_point`` or, for the built-in envs that Gymnasium does not vectorise,
            vecgym's numpy-vectorised version), as a :class:`VectorizeMode` or its value.
            ``None`` picks ``"vector_entry_point"`` when the spec has one, else ``"sync"``, as
            Gymnasium does (so ``make_vec("Pendulum-v1", 4)`` is a ``SyncVectorEnv``).
        vector_kwargs: keyword arguments for the vectoriser (``"sync"``/``"async"`` only).
        wrappers: callables applied in order to each sub-environment (``"sync"``/``"async"``
            only).
        **kwargs: keyword arguments for the environment, overriding the spec's ``kwargs``.

    ``num_envs``, ``vectorization_mode``, ``vector_kwargs`` and ``wrappers`` stored in the spec's
    ``kwargs`` (as in the ``spec`` of a vector env ``make_vec`` built) take precedence over the
    arguments, so ``make_vec(vec_env.spec)`` rebuilds the same vector env.

    Returns:
        The vector environment; its ``unwrapped.spec`` records how it was built.

    Raises:
        vecgym.error.Error: if ``id`` has a wrong type, if the chosen mode needs an entry point
            the spec lacks, or if ``vector_kwargs``/``wrappers``/``additional_wrappers`` are used
            with the ``"vector_entry_point"`` mode.
        ValueError: if ``vectorization_mode`` is not a valid mode.
    """
    vector_kwargs = {} if vector_kwargs is None else vector_kwargs
    wrappers = [] if wrappers is None else wrappers

    if isinstance(id, EnvSpec):
        env_spec = id
    elif isinstance(id, str):
        env_spec = registry.find_spec(id)
    else:
        raise error.Error(BAD_VEC_ID_TYPE_MSG.format(type=type(id)))

    env_spec = copy.deepcopy(env_spec)
    env_kwargs = env_spec.kwargs
    env_spec.kwargs = {}
    num_envs = env_kwargs.pop("num_envs", num_envs)
    vectorization_mode = env_kwargs.pop("vectorization_mode", vectorization_mode)
    vector_kwargs = env_kwargs.pop("vector_kwargs", vector_kwargs)
    wrappers = env_kwargs.pop("wrappers", wrappers)
    env_kwargs.update(kwargs)

    mode = _vectorize_mode(vectorization_mode, env_spec)
    if mode is VectorizeMode.VECTOR_ENTRY_POINT:
        env = _make_vector_entry_point(id, env_spec, num_envs, vector_kwargs, wrappers, env_kwargs)
    else:
        env = _make_vectorised(env_spec, mode, num_envs, vector_kwargs, wrappers, env_kwargs)

    built_spec = copy.deepcopy(env_spec)
    built_spec.kwargs = env_kwargs.copy()
    if num_envs != 1:
        built_spec.kwargs["num_envs"] = num_envs
    built_spec.kwargs["vectorization_mode"] = mode.value
    if len(vector_kwargs) > 0:
        built_spec.kwargs["vector_kwargs"] = vector_kwargs
    if len(wrappers) > 0:
        built_spec.kwargs["wrappers"] = wrappers
    env.unwrapped.spec = built_spec

    _check_autoreset_metadata(env)
    return env


def _vectorize_mode(mode: VectorizeMode | str | None, env_spec: EnvSpec) -> VectorizeMode:
    """The :class:`VectorizeMode` to use for ``mode`` (``None``: by the spec)."""
    if mode is None:
        if env_spec.vector_entry_point is not None:
            return VectorizeMode.VECTOR_ENTRY_POINT
        return VectorizeMode.SYNC
    try:
        return VectorizeMode(mode)
    except ValueError as exc:
        valid = [m.value for m in VectorizeMode]
        raise ValueError(VEC_INVALID_MODE_MSG.format(mode=mode, valid=valid)) from exc


def _make_vectorised(
    env_spec: EnvSpec,
    mode: VectorizeMode,
    num_envs: int,
    vector_kwargs: dict[str, Any],
    wrappers: Sequence[Callable[[Env], Wrapper]],
    env_kwargs: dict[str, Any],
) -> Any:
    """Build a ``SyncVectorEnv`` or ``AsyncVectorEnv`` of ``make(env_spec)`` copies."""
    if env_spec.entry_point is None:
        raise error.Error(VEC_NO_ENTRY_POINT_MSG.format(env_id=env_spec.id))

    def create_single_env() -> Env:
        single_env = make(env_spec, **env_kwargs.copy())
        for wrapper in wrappers:
            single_env = wrapper(single_env)
        return single_env

    vector = importlib.import_module("vecgym.vector")
    vectoriser = {
        VectorizeMode.SYNC: vector.SyncVectorEnv,
        VectorizeMode.ASYNC: vector.AsyncVectorEnv,
        VectorizeMode.RAY: vector.RayVectorEnv,
    }[mode]
    return vectoriser(env_fns=[create_single_env for _ in range(num_envs)], **vector_kwargs)


def _make_vector_entry_point(
    id: str | EnvSpec,
    env_spec: EnvSpec,
    num_envs: int,
    vector_kwargs: dict[str, Any],
    wrappers: Sequence[Callable[[Env], Wrapper]],
    env_kwargs: dict[str, Any],
) -> Any:
    """Build the vector env through :func:`vector_entry_point_of` the spec."""
    if len(vector_kwargs) > 0:
        raise error.Error(VEC_KWARGS_WITH_ENTRY_POINT_MSG.format(vector_kwargs=vector_kwargs))
    if len(wrappers) > 0:
        raise error.Error(VEC_WRAPPERS_WITH_ENTRY_POINT_MSG.format(wrappers=wrappers))
    if len(env_spec.additional_wrappers) > 0:
        raise error.Error(
            VEC_ADDITIONAL_WRAPPERS_WITH_ENTRY_POINT_MSG.format(
                additional_wrappers=env_spec.additional_wrappers
            )
        )
    vector_entry_point = vector_entry_point_of(env_spec)
    if vector_entry_point is None:
        raise error.Error(VEC_NO_VECTOR_ENTRY_POINT_MSG.format(env_id=id))
    env_creator = load_entry_point(env_spec, vector_entry_point)
    if env_spec.max_episode_steps is not None and "max_episode_steps" not in env_kwargs:
        env_kwargs["max_episode_steps"] = env_spec.max_episode_steps
    envs = env_creator(num_envs=num_envs, **env_kwargs)
    vector = importlib.import_module("vecgym.vector.gymnasium_vector_env")
    if vector.is_gymnasium_vector_env(envs):
        envs = vector.GymnasiumVectorEnv(envs)  # a Gymnasium vector entry point, adapted once
    return envs


def _check_autoreset_metadata(env: Any) -> None:
    """Warn if a vector env's metadata lacks a proper ``autoreset_mode``."""
    metadata = env.metadata
    if "autoreset_mode" not in metadata:
        logger.warn(VEC_MISSING_AUTORESET_MSG.format(env=env, metadata=metadata))
        return
    autoreset_mode = importlib.import_module("vecgym.vector").AutoresetMode
    if not isinstance(metadata["autoreset_mode"], autoreset_mode):
        logger.warn(VEC_BAD_AUTORESET_MSG.format(env=env, type=type(metadata["autoreset_mode"])))


# The composition root hands its builder down to the core layer, for ``EnvSpec.make``.
install_env_builder(make)
