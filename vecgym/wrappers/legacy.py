"""Run old OpenAI Gym environments (the ``done`` API of gym < 0.26) as vecgym environments.

An old-style environment differs from a vecgym :class:`~vecgym.Env` in five places:

================================  ====================================================
old Gym API                       vecgym / Gymnasium 1.x API
================================  ====================================================
``step -> (obs, r, done, info)``  ``step -> (obs, r, terminated, truncated, info)``
``seed(seed) -> [seeds]``         ``reset(seed=seed)``
``reset() -> obs``                ``reset(*, seed, options) -> (obs, info)``
``render(mode="human")``          ``render()`` in the ``render_mode`` chosen at construction
``metadata["render.modes"]``      ``metadata["render_modes"]``
================================  ====================================================

:class:`LegacyGymCompatibility` presents such an environment through the new API, so it can be
wrapped, checked with ``check_env`` and stepped by ``SyncVectorEnv`` / ``AsyncVectorEnv`` like any
other. Gymnasium 0.26-0.29 shipped this as ``gymnasium.wrappers.EnvCompatibility``; Gymnasium 1.x
moved it to Shimmy (``GymV21CompatibilityV0``), whose keyword arguments ``env``, ``env_id``,
``make_kwargs`` and ``render_mode`` this class also accepts.

To make an old environment by id, register it with :func:`register_legacy_env`, which is
:func:`vecgym.register` with :data:`LEGACY_ENTRY_POINT` as the entry point::

    register_legacy_env("OldCartPole-v0", "my_package.old_envs:CartPoleEnv", max_episode_steps=200)
    env = vecgym.make("OldCartPole-v0", render_mode="rgb_array")

which is the same as ``vecgym.register("OldCartPole-v0",
entry_point="vecgym.wrappers.legacy:LegacyGymCompatibility", kwargs={"env_creator":
"my_package.old_envs:CartPoleEnv", "make_kwargs": {}}, max_episode_steps=200)``. The old
environment is then built inside ``make`` (and so inside each vector worker) from its
``"module:attribute"`` name; keeping the creator a string keeps the spec serialisable.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Protocol, SupportsFloat, cast

import numpy as np

from vecgym import error, logger
from vecgym._extras import import_extra
from vecgym.core.env import ActType, Env, ObsType, RenderFrame
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.core.registration import load_env_creator, register
from vecgym.core.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Space, Tuple
from vecgym.utils.step_api_compatibility import convert_to_terminated_truncated_step_api

__all__ = [
    "LEGACY_ENTRY_POINT",
    "LegacyEnv",
    "LegacyGymCompatibility",
    "convert_legacy_space",
    "register_legacy_env",
]

#: The entry point under which :func:`register_legacy_env` registers old environments.
LEGACY_ENTRY_POINT = "vecgym.wrappers.legacy:LegacyGymCompatibility"

#: The old metadata keys and the new keys they become.
_RENAMED_METADATA_KEYS = {"render.modes": "render_modes", "video.frames_per_second": "render_fps"}

NO_SOURCE_MSG = (
    "LegacyGymCompatibility needs the old environment: pass one of `env` (an old-style env "
    "object), `env_creator` (a callable or 'module:attribute' building one) or `env_id` (an id "
    "for the old `gym.make`)"
)
SEVERAL_SOURCES_MSG = (
    "LegacyGymCompatibility takes exactly one of `env`, `env_creator` and `env_id`, got {given}"
)
MAKE_KWARGS_TYPE_MSG = "make_kwargs must be a dict of keyword arguments or None, got {type}"
MAKE_KWARGS_WITH_ENV_MSG = (
    "make_kwargs cannot be used with an env object, only with env_creator or env_id"
)
NOT_LEGACY_ENV_MSG = (
    "the old environment must have callable `reset`, `step`, `render` and `close` methods and "
    "`observation_space` / `action_space` attributes; {type} lacks {missing}"
)
ALREADY_NEW_API_MSG = (
    "{type} is already a vecgym Env (terminated/truncated API); it needs no LegacyGymCompatibility"
)
GYM_NOT_INSTALLED_MSG = (
    "making an old environment by `env_id` needs OpenAI Gym (gym < 0.26), which is not "
    "installed; install it with `pip install 'gym<0.26'`, or pass `env_creator` instead"
)
RENDER_MODE_MSG = (
    "render_mode must be None or one of the old environment's render modes {render_modes}, got "
    "{render_mode!r}"
)
ENV_CREATOR_TYPE_MSG = "env_creator must be a callable or a 'module:attribute' string, got {type}"
RESERVED_REGISTER_KWARGS_MSG = "register_legacy_env sets {names} itself: they must not be passed"
STEP_INFO_TYPE_MSG = "the old environment's step must return a dict as info, got {type}"
SPACE_CONVERSION_MSG = (
    "cannot convert the old Gym space {space!r} (type {type}): expected a vecgym Space or a Gym "
    "Box, Discrete, MultiDiscrete, MultiBinary, Tuple or Dict"
)
NO_SEED_METHOD_MSG = (
    "The old environment {env} has no `seed` method, so reset(seed={seed}) cannot seed it; only "
    "the wrapper's own np_random is seeded"
)
OPTIONS_IGNORED_MSG = "The old Gym reset() takes no options; ignoring options={options!r}"
NO_RENDER_MODE_MSG = (
    "render() returns None because this LegacyGymCompatibility has no render_mode; give one when "
    "wrapping, e.g. LegacyGymCompatibility(old_env, render_mode='rgb_array')"
)

_REQUIRED_METHODS = ("reset", "step", "render", "close")
_REQUIRED_SPACES = ("observation_space", "action_space")


class LegacyEnv(Protocol):
    """What :class:`LegacyGymCompatibility` needs of an old OpenAI Gym environment.

    ``seed`` and ``reward_range`` are optional: without ``seed``, ``reset(seed=...)`` warns that
    the old environment cannot be seeded; without ``reward_range``, ``(-inf, inf)`` is assumed.
    """

    observation_space: Any
    action_space: Any

    def reset(self) -> Any:
        """Start an episode and return its first observation."""
        ...

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, dict[str, Any]]:
        """Advance one step: ``(observation, reward, done, info)``."""
        ...

    def render(self, mode: str = "human") -> Any:
        """Render the current state in ``mode``."""
        ...

    def close(self) -> None:
        """Release the environment's resources."""
        ...


# --- spaces ---------------------------------------------------------------------------------------
def _legacy_space_kind(space: Any) -> str | None:
    """The Gym space class ``space`` is (by name, searching its class hierarchy), if a known one."""
    for cls in type(space).__mro__:
        if cls.__name__ in _SPACE_CONVERTERS:
            return cls.__name__
    return None


def _convert_box(space: Any) -> Box:
    """A vecgym Box with the old Box's bounds, shape and dtype."""
    return Box(
        low=np.asarray(space.low),
        high=np.asarray(space.high),
        shape=tuple(space.shape),
        dtype=space.dtype,
    )


def _convert_discrete(space: Any) -> Discrete:
    """A vecgym Discrete with the old space's ``n`` (and ``start``, which gym < 0.24 lacks)."""
    return Discrete(
        n=int(space.n),
        start=int(getattr(space, "start", 0)),
        dtype=getattr(space, "dtype", None) or np.int64,
    )


def _convert_multi_discrete(space: Any) -> MultiDiscrete:
    """A vecgym MultiDiscrete with the old space's ``nvec`` and dtype."""
    start = getattr(space, "start", None)
    return MultiDiscrete(
        nvec=np.asarray(space.nvec),
        dtype=getattr(space, "dtype", None) or np.int64,
        start=None if start is None else np.asarray(start),
    )


def _convert_multi_binary(space: Any) -> MultiBinary:
    """A vecgym MultiBinary with the old space's ``n`` (an int or a shape)."""
    n = space.n
    return MultiBinary(int(n) if isinstance(n, (int, np.integer)) else [int(d) for d in n])


def _convert_tuple(space: Any) -> Tuple:
    """A vecgym Tuple of the converted subspaces."""
    return Tuple(tuple(convert_legacy_space(subspace) for subspace in space.spaces))


def _convert_dict(space: Any) -> Dict:
    """A vecgym Dict of the converted subspaces, in the old space's key order.

    An ``OrderedDict`` keeps that order (a plain dict would be sorted by ``Dict``); old Gym's
    ``Dict.spaces`` was already ordered, and flattening must follow the old env's order.
    """
    return Dict(
        OrderedDict((key, convert_legacy_space(subspace)) for key, subspace in space.spaces.items())
    )


_SPACE_CONVERTERS: dict[str, Callable[[Any], Space[Any]]] = {
    "Box": _convert_box,
    "Discrete": _convert_discrete,
    "MultiDiscrete": _convert_multi_discrete,
    "MultiBinary": _convert_multi_binary,
    "Tuple": _convert_tuple,
    "Dict": _convert_dict,
}


def convert_legacy_space(space: Any) -> Space[Any]:
    """Convert an old Gym space to the equivalent vecgym space.

    A vecgym :class:`~vecgym.spaces.Space` is returned as it is. Otherwise the space is
    recognised by its class name (``gym.spaces.Box`` or a subclass is a ``Box``), so ``gym`` need
    not be installed, and rebuilt from its attributes: ``Box`` (``low``, ``high``, ``shape``,
    ``dtype``), ``Discrete`` (``n``, ``start``), ``MultiDiscrete`` (``nvec``), ``MultiBinary``
    (``n``), ``Tuple`` and ``Dict`` (``spaces``, converted recursively). The old space's random
    generator is not carried over.

    Args:
        space: the old environment's observation or action space.

    Returns:
        The vecgym space.

    Raises:
        TypeError: the space is of another kind.

    Example:
        >>> from vecgym.spaces import Discrete
        >>> class OldDiscrete:  # stands in for gym.spaces.Discrete
        ...     n = 3
        >>> OldDiscrete.__name__ = "Discrete"
        >>> convert_legacy_space(OldDiscrete())
        Discrete(3)
    """
    if isinstance(space, Space):
        return space
    kind = _legacy_space_kind(space)
    if kind is None:
        raise TypeError(SPACE_CONVERSION_MSG.format(space=space, type=type(space)))
    return _SPACE_CONVERTERS[kind](space)


# --- metadata -------------------------------------------------------------------------------------
def _convert_metadata(metadata: Any) -> dict[str, Any]:
    """A new-style copy of the old metadata: ``render.modes`` -> ``render_modes``, etc.

    The old keys are kept beside the new ones; a new key the old env already has is left alone.
    """
    converted = dict(metadata) if isinstance(metadata, Mapping) else {}
    for old_key, new_key in _RENAMED_METADATA_KEYS.items():
        if old_key in converted and new_key not in converted:
            converted[new_key] = converted[old_key]
    converted["render_modes"] = list(converted.get("render_modes") or [])
    return converted


# --- building the old environment -----------------------------------------------------------------
def _check_legacy_env(env: Any) -> None:
    """Raise ``TypeError`` unless ``env`` looks like an old Gym environment."""
    if isinstance(env, Env):
        raise TypeError(ALREADY_NEW_API_MSG.format(type=type(env)))
    missing = [name for name in _REQUIRED_METHODS if not callable(getattr(env, name, None))]
    missing += [name for name in _REQUIRED_SPACES if not hasattr(env, name)]
    if missing:
        raise TypeError(NOT_LEGACY_ENV_MSG.format(type=type(env), missing=missing))


def _make_with_gym(env_id: str, make_kwargs: dict[str, Any]) -> Any:
    """Build ``env_id`` with the old ``gym.make``, imported only now."""
    return import_extra("gym", GYM_NOT_INSTALLED_MSG).make(env_id, **make_kwargs)


def _build_legacy_env(
    env: Any,
    env_creator: str | Callable[..., Any] | None,
    env_id: str | None,
    make_kwargs: Mapping[str, Any] | None,
) -> Any:
    """The old environment, from whichever one of the three sources was given."""
    given = [
        name
        for name, value in (("env", env), ("env_creator", env_creator), ("env_id", env_id))
        if value is not None
    ]
    if not given:
        raise error.MissingArgument(NO_SOURCE_MSG)
    if len(given) > 1:
        raise ValueError(SEVERAL_SOURCES_MSG.format(given=given))
    if make_kwargs is not None and not isinstance(make_kwargs, Mapping):
        raise TypeError(MAKE_KWARGS_TYPE_MSG.format(type=type(make_kwargs)))
    kwargs = dict(make_kwargs or {})
    if env is not None:
        if kwargs:
            raise ValueError(MAKE_KWARGS_WITH_ENV_MSG)
        return env
    if env_creator is not None:
        if not (callable(env_creator) or isinstance(env_creator, str)):
            raise TypeError(ENV_CREATOR_TYPE_MSG.format(type=type(env_creator)))
        return load_env_creator(env_creator)(**kwargs)
    assert env_id is not None
    return _make_with_gym(env_id, kwargs)


# --- the compatibility env ------------------------------------------------------------------------
class LegacyGymCompatibility(Env[ObsType, ActType], RecordConstructorArgs):
    """An old OpenAI Gym environment (``done`` step API) presented as a vecgym :class:`Env`.

    * ``step`` splits the old ``done`` with ``info["TimeLimit.truncated"]``, the key old Gym's
      ``TimeLimit`` set: ``truncated = done and info["TimeLimit.truncated"]``, ``terminated =
      done and not truncated`` (a missing key means not truncated). The key is removed from the
      info, as Gymnasium's ``EnvCompatibility`` and Shimmy do, since the two flags now carry it.
    * ``reset(seed=s)`` calls the old ``seed(s)`` first, then the old ``reset()``, and returns
      ``(obs, {})``. An old env whose ``reset()`` already returns ``(obs, info)`` (gym 0.22-0.25
      with ``return_info``) is recognised when its observation space is not a ``Tuple``.
    * ``render()`` calls the old ``render(mode=render_mode)``; with ``render_mode="human"`` it is
      also called after every ``reset`` and ``step``, as the new API expects.
    * The spaces are converted with :func:`convert_legacy_space`; ``metadata`` is a copy of the
      old one with ``"render.modes"`` also under ``"render_modes"`` (and
      ``"video.frames_per_second"`` under ``"render_fps"``); ``reward_range`` is kept as an
      attribute; ``close`` is forwarded once.

    The old environment is :attr:`gym_env` (Shimmy's name). Its own random generators are seeded
    only through its ``seed``; the wrapper's :attr:`np_random` is a separate generator seeded
    with the same seed. The old environment's ``spec`` (a gym ``EnvSpec``) is not carried over:
    :attr:`spec` is set by ``vecgym.make``.

    Differences from Gymnasium 0.26's ``EnvCompatibility`` / Shimmy's ``GymV21CompatibilityV0``:
    in ``"human"`` mode the frame is drawn after the old ``reset()`` rather than before it (which
    drew the previous episode's last state); the metadata gains ``"render_modes"``; an unknown
    ``render_mode`` is refused at construction; ``reset(options=...)`` warns that the options are
    ignored instead of dropping them silently.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Box, Discrete
        >>> class OldCoin:
        ...     metadata = {"render.modes": ["ansi"]}
        ...     observation_space = Box(0.0, 1.0, (1,), np.float32)
        ...     action_space = Discrete(2)
        ...     def seed(self, seed=None):
        ...         self.rng = np.random.default_rng(seed)
        ...         return [seed]
        ...     def reset(self):
        ...         self.t = 0
        ...         return self.rng.random(1, dtype=np.float32)
        ...     def step(self, action):
        ...         self.t += 1
        ...         done = self.t == 3
        ...         info = {"TimeLimit.truncated": True} if done else {}
        ...         return self.rng.random(1, dtype=np.float32), 1.0, done, info
        ...     def render(self, mode="human"):
        ...         return f"t={self.t}"
        ...     def close(self):
        ...         pass
        >>> env = LegacyGymCompatibility(OldCoin(), render_mode="ansi")
        >>> env.metadata["render_modes"]
        ['ansi']
        >>> obs, info = env.reset(seed=0)
        >>> info
        {}
        >>> [env.step(0)[2:4] for _ in range(3)]
        [(False, False), (False, False), (False, True)]
        >>> env.render()
        't=3'
    """

    def __init__(
        self,
        env: LegacyEnv | None = None,
        render_mode: str | None = None,
        *,
        env_creator: str | Callable[..., Any] | None = None,
        env_id: str | None = None,
        make_kwargs: dict[str, Any] | None = None,
    ) -> None:
        """Wrap an old environment, given as an object or built from one of the other sources.

        Give exactly one of ``env``, ``env_creator`` and ``env_id``.

        Args:
            env: the old environment object.
            render_mode: the mode ``render()`` asks the old ``render`` for; ``None`` (no
                rendering) or one of the old ``metadata["render.modes"]`` (any mode is accepted
                when the old env declares none).
            env_creator: a callable, or its ``"module:attribute"`` name, that builds the old
                environment from ``make_kwargs``.
            env_id: an id for the old ``gym.make`` (needs OpenAI Gym < 0.26 installed).
            make_kwargs: keyword arguments for ``env_creator`` or ``gym.make``.

        Raises:
            vecgym.error.MissingArgument: none of the three sources was given.
            ValueError: more than one was given, ``make_kwargs`` came with ``env``, or
                ``render_mode`` is not a declared mode.
            TypeError: the old environment lacks a method or a space, is already a vecgym Env,
                or one of its spaces cannot be converted.
            vecgym.error.DependencyNotInstalled: ``env_id`` was given and ``gym`` is missing.
        """
        RecordConstructorArgs.__init__(
            self,
            _disable_deepcopy=True,
            env=env,
            render_mode=render_mode,
            env_creator=env_creator,
            env_id=env_id,
            make_kwargs=copy.deepcopy(make_kwargs),
        )
        gym_env = _build_legacy_env(env, env_creator, env_id, make_kwargs)
        _check_legacy_env(gym_env)

        self.gym_env: LegacyEnv = gym_env
        self._metadata = _convert_metadata(getattr(gym_env, "metadata", None))
        render_modes = self._metadata["render_modes"]
        if render_mode is not None and render_modes and render_mode not in render_modes:
            raise ValueError(
                RENDER_MODE_MSG.format(render_modes=render_modes, render_mode=render_mode)
            )
        self.render_mode = render_mode
        self.observation_space = convert_legacy_space(gym_env.observation_space)
        self.action_space = convert_legacy_space(gym_env.action_space)
        self.reward_range: tuple[SupportsFloat, SupportsFloat] = tuple(
            getattr(gym_env, "reward_range", (-float("inf"), float("inf")))
        )
        self._closed = False

    @property
    def metadata(self) -> dict[str, Any]:
        """The old environment's metadata with the new keys added (see the class docstring).

        A property rather than a class attribute because it differs per old environment; it also
        keeps ``make`` from judging render modes by an empty class-level list.
        """
        return self._metadata

    @metadata.setter
    def metadata(self, value: dict[str, Any]) -> None:
        self._metadata = value

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Seed (given a seed) and reset the old environment; return ``(obs, info)``.

        Args:
            seed: passed to the old ``seed`` before the old ``reset()``, and seeds
                :attr:`np_random`; ``None`` leaves both generators as they are.
            options: the old ``reset()`` takes none; a non-empty dict is ignored with a warning.

        Returns:
            The first observation and the info (``{}`` unless the old ``reset`` returned one).
        """
        super().reset(seed=seed)
        if seed is not None:
            self._seed_legacy(seed)
        if options:
            logger.warn(OPTIONS_IGNORED_MSG.format(options=options))
        obs, info = self._split_reset(self.gym_env.reset())
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the old environment and split its ``done`` into ``terminated`` / ``truncated``.

        ``truncated`` is ``done and info["TimeLimit.truncated"]`` and ``terminated`` is ``done
        and not truncated``; the key is removed from the returned info. A 5-tuple from the old
        ``step`` is passed through unchanged.

        Raises:
            ValueError: the old ``step`` returned neither 4 nor 5 items.
            TypeError: its info is not a dict.
        """
        result = self.gym_env.step(action)
        if len(result) == 4 and not isinstance(result[3], dict):
            raise TypeError(STEP_INFO_TYPE_MSG.format(type=type(result[3])))
        obs, reward, terminated, truncated, info = convert_to_terminated_truncated_step_api(result)
        if self.render_mode == "human":
            self.render()
        return (
            cast(ObsType, obs),
            reward,
            bool(terminated),
            bool(truncated),
            cast(dict[str, Any], info),
        )

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Return the old ``render(mode=render_mode)``; warn and return ``None`` without a mode."""
        if self.render_mode is None:
            logger.warn(NO_RENDER_MODE_MSG)
            return None
        return self.gym_env.render(mode=self.render_mode)

    def close(self) -> None:
        """Close the old environment; later calls do nothing."""
        if not self._closed:
            self._closed = True
            self.gym_env.close()

    def __str__(self) -> str:
        """``<LegacyGymCompatibility<old env>>``, or the env id once ``make`` set a spec."""
        if self.spec is not None:
            return super().__str__()
        return f"<{type(self).__name__}{self.gym_env}>"

    def __repr__(self) -> str:
        """The same as :meth:`__str__`."""
        return str(self)

    def _seed_legacy(self, seed: int) -> None:
        """Call the old ``seed(seed)``, or warn that the old environment has none."""
        seed_method = getattr(self.gym_env, "seed", None)
        if callable(seed_method):
            seed_method(seed)
        else:
            logger.warn(NO_SEED_METHOD_MSG.format(env=self.gym_env, seed=seed))

    def _split_reset(self, result: Any) -> tuple[ObsType, dict[str, Any]]:
        """``(obs, info)`` from the old ``reset()`` result, which is usually the bare obs."""
        if (
            not isinstance(self.observation_space, Tuple)
            and isinstance(result, tuple)
            and len(result) == 2
            and isinstance(result[1], dict)
        ):
            return result[0], result[1]
        return result, {}


# --- registration ---------------------------------------------------------------------------------
def register_legacy_env(
    id: str,
    env_creator: str | Callable[..., Any],
    make_kwargs: dict[str, Any] | None = None,
    **register_kwargs: Any,
) -> None:
    """Register an old Gym environment so that ``vecgym.make(id)`` builds it, converted.

    The spec's entry point is :data:`LEGACY_ENTRY_POINT` and its kwargs are ``{"env_creator":
    env_creator, "make_kwargs": make_kwargs or {}}``; ``make(id, render_mode=...)`` passes the
    render mode on to :class:`LegacyGymCompatibility`, and ``make`` adds its usual wrappers
    (passive checker, order enforcing, ``TimeLimit`` when ``max_episode_steps`` is given).

    Args:
        id: the id to register, as for :func:`vecgym.register`.
        env_creator: the old environment's class or factory, preferably as a
            ``"module:attribute"`` string (a callable works within this process but makes the
            spec unserialisable, and a ``spawn``-started vector worker must be able to import it).
        make_kwargs: keyword arguments for ``env_creator``.
        **register_kwargs: the other arguments of :func:`vecgym.register` (``max_episode_steps``,
            ``reward_threshold``, ``nondeterministic``, ...), except ``entry_point`` and
            ``kwargs``.

    Raises:
        TypeError: ``env_creator`` is neither a string nor a callable, ``make_kwargs`` is not a
            dict, or ``entry_point`` / ``kwargs`` were passed.

    Example:
        >>> import vecgym
        >>> register_legacy_env("OldThing-v0", "my_package.old_envs:OldThing", max_episode_steps=50)
        >>> vecgym.spec("OldThing-v0").entry_point
        'vecgym.wrappers.legacy:LegacyGymCompatibility'
        >>> del vecgym.registry["OldThing-v0"]
    """
    if not (callable(env_creator) or isinstance(env_creator, str)):
        raise TypeError(ENV_CREATOR_TYPE_MSG.format(type=type(env_creator)))
    if make_kwargs is not None and not isinstance(make_kwargs, Mapping):
        raise TypeError(MAKE_KWARGS_TYPE_MSG.format(type=type(make_kwargs)))
    reserved = sorted({"entry_point", "kwargs"} & set(register_kwargs))
    if reserved:
        raise TypeError(RESERVED_REGISTER_KWARGS_MSG.format(names=reserved))
    register(
        id,
        entry_point=LEGACY_ENTRY_POINT,
        kwargs={"env_creator": env_creator, "make_kwargs": dict(make_kwargs or {})},
        **register_kwargs,
    )
