"""The single-environment API: :class:`Env` and the :class:`Wrapper` family.

An :class:`Env` is driven by an agent: :meth:`Env.reset` starts an episode, :meth:`Env.step`
advances it by one action. A :class:`Wrapper` sits around another environment and changes part
of its behaviour; the three narrow subclasses change only one thing each: the observation
(:class:`ObservationWrapper`), the action (:class:`ActionWrapper`) or the reward
(:class:`RewardWrapper`).

The semantics follow Gymnasium 1.4 to the letter, seeding included: ``env.reset(seed=s)`` gives
``env.np_random`` the same stream as ``gymnasium.Env.reset(seed=s)``.
"""

from __future__ import annotations

import copy
import functools
import inspect
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Literal, SupportsFloat, TypeAlias

import numpy as np

from vecgym import logger
from vecgym.core import seeding
from vecgym.core.flavour import flavoured_class
from vecgym.core.record_constructor import RecordConstructorArgs

if TYPE_CHECKING:
    from typing_extensions import Self

    from vecgym.core.registration import EnvSpec, WrapperSpec
    from vecgym.core.spaces.space import Space

if TYPE_CHECKING:
    from typing_extensions import TypeVar
elif sys.version_info >= (3, 13):  # pragma: no cover - depends on the interpreter
    from typing import TypeVar
else:  # pragma: no cover - depends on the interpreter and on what is installed
    try:
        from typing_extensions import TypeVar
    except ImportError:
        # Without ``typing_extensions`` an older Python has no ``default=``: the type variables
        # then have no default, which only affects partial subscription such as ``Env[X]``.
        import typing

        def TypeVar(name: str, *constraints: Any, default: Any = None, **kwargs: Any) -> Any:
            return typing.TypeVar(name, *constraints, **kwargs)


__all__ = [
    "ActType",
    "ActionWrapper",
    "Env",
    "ObsType",
    "ObservationWrapper",
    "RenderFrame",
    "RewardWrapper",
    "Wrapper",
    "WrapperActType",
    "WrapperObsType",
]

# Every type variable defaults to ``Any``, so ``Env[np.ndarray]`` leaves the action type open.
ObsType = TypeVar("ObsType", default=Any)
ActType = TypeVar("ActType", default=Any)
WrapperObsType = TypeVar("WrapperObsType", default=Any)
WrapperActType = TypeVar("WrapperActType", default=Any)

#: What :meth:`Env.render` may return for one frame: text, an RGB array, or an (RGB, depth) pair.
RenderFrame: TypeAlias = str | np.ndarray | tuple[np.ndarray, np.ndarray]

WRAPPER_ENV_TYPE_MSG = "a Wrapper must wrap a `vecgym.Env` (or a `gymnasium.Env`), got {}"
WRAPPER_NO_ATTR_MSG = "neither wrapper {} nor any environment it wraps has an attribute {!r}"
WRAPPER_PRIVATE_RNG_MSG = (
    "wrappers do not forward the private `_np_random`; read `.np_random` instead, or "
    "`.unwrapped._np_random` for the innermost environment's generator"
)
SPEC_COPY_FAILED_MSG = (
    "copying the environment spec to add this wrapper to it raised {}, so the wrapper's spec is "
    "None; the spec was {}"
)


class Env(Generic[ObsType, ActType]):
    """An environment an agent interacts with, one step at a time.

    Subclasses set :attr:`action_space` and :attr:`observation_space` and implement :meth:`step`
    and :meth:`reset` (whose first line should be ``super().reset(seed=seed)``); :meth:`render`
    and :meth:`close` are optional. Other attributes:

    - :attr:`metadata`: facts about the environment, e.g. ``{"render_modes": ["rgb_array"],
      "render_fps": 30}``;
    - :attr:`render_mode`: the render mode chosen at construction, or ``None``;
    - :attr:`spec`: the :class:`~vecgym.envs.registration.EnvSpec` ``make`` built it from, if any;
    - :attr:`np_random`: the environment's random generator, seeded by ``reset(seed=...)`` or
      created from OS entropy the first time it is read.

    ``Env`` is generic in the observation and action types (``Env[ObsType, ActType]``), both
    defaulting to ``Any``.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Box, Discrete
        >>> class Coin(Env[int, int]):
        ...     observation_space = Discrete(2)
        ...     action_space = Discrete(1)
        ...     def reset(self, *, seed=None, options=None):
        ...         super().reset(seed=seed)
        ...         return int(self.np_random.integers(2)), {}
        >>> with Coin() as env:
        ...     obs, info = env.reset(seed=42)
        ...     obs, env.np_random_seed
        (0, 42)
    """

    #: Static facts about the environment; ``"render_modes"`` lists the supported render modes.
    metadata: dict[str, Any] = {"render_modes": []}
    #: The render mode chosen at construction (one of ``metadata["render_modes"]``) or ``None``.
    render_mode: str | None = None
    #: The spec the environment was made from (set by ``make``), or ``None``.
    spec: EnvSpec | None = None

    action_space: Space[ActType]
    observation_space: Space[ObsType]

    _np_random: np.random.Generator | None = None
    # ``None`` until a generator exists; -1 once a generator of unknown seed was assigned directly.
    _np_random_seed: int | None = None

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        """Where Gymnasium is installed, a vecgym env (a wrapper included) is a ``gymnasium.Env``
        too, so the libraries that check for one take it (see :mod:`vecgym.core.flavour`)."""
        return super().__new__(flavoured_class(cls))

    # ``inspect.signature(Env)`` (and of a subclass with no ``__init__``) reports ``()``, as for
    # Gymnasium's ``Env``, rather than this ``__new__``'s catch-all parameters.
    __new__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("cls", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    )

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Advance the environment by one action.

        Once an episode has ended (``terminated or truncated``), :meth:`reset` must be called before
        stepping again. Each call returns fresh observation and info objects, never a buffer a
        previous call returned and then changed in place.

        Args:
            action: an element of :attr:`action_space`.

        Returns:
            ``(observation, reward, terminated, truncated, info)``: the next observation (an element
            of :attr:`observation_space`), the reward for this action, whether the episode reached
            a terminal state of the task, whether it was cut short by something outside the task
            (typically a time limit), and a dict of diagnostic information.
        """
        raise NotImplementedError

    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsType, dict[str, Any]]:
        """Start a new episode and return its first observation and info.

        With an integer ``seed``, :attr:`np_random` is replaced by a fresh generator seeded from it
        (exactly as :func:`vecgym.utils.seeding.np_random` does) and :attr:`np_random_seed` becomes
        ``seed``. With ``seed=None`` an existing generator is kept as it is. Typically a seed is
        passed once, on the first reset after construction. Subclasses call
        ``super().reset(seed=seed)`` first.

        Args:
            seed: seed for :attr:`np_random`, or ``None`` to keep the current generator.
            options: environment-specific settings for this reset.

        Returns:
            ``(observation, info)``, as for :meth:`step`. The base class returns ``None``; it only
            handles the seed.

        Raises:
            InvalidSeed: ``seed`` is not a non-negative integer.
        """
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        return None  # type: ignore[return-value]

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Render the current state as :attr:`render_mode` (chosen at construction) asks.

        By convention ``None`` renders nothing, ``"human"`` draws to a display during :meth:`step`
        and returns ``None``, ``"rgb_array"`` returns an ``(height, width, 3)`` uint8 array,
        ``"ansi"`` returns text, and the ``*_list`` modes (added by ``make`` through
        :class:`~vecgym.wrappers.RenderCollection`) return the frames collected since the last
        reset or render. The supported modes are listed in ``metadata["render_modes"]``.
        """
        raise NotImplementedError

    def close(self) -> None:
        """Release what the environment holds (windows, files, processes).

        Closing an environment that is already closed does nothing and raises nothing.
        """

    @property
    def unwrapped(self) -> Env[ObsType, ActType]:
        """The innermost environment: for a plain :class:`Env`, the environment itself."""
        return self

    @property
    def np_random_seed(self) -> int:
        """The seed of :attr:`np_random`.

        Reading it before any generator exists creates one from OS entropy (as reading
        :attr:`np_random` does). It is ``-1`` after a generator was assigned to :attr:`np_random`
        directly, since a generator's seed cannot be recovered from it.
        """
        if self._np_random_seed is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random_seed

    @property
    def np_random(self) -> np.random.Generator:
        """The environment's random generator, created from OS entropy on first use if unset."""
        if self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        # The seed of an arbitrary generator is unknown: mark it with -1 (never a valid seed).
        self._np_random = value
        self._np_random_seed = -1

    def __str__(self) -> str:
        """``<ClassName instance>``, or ``<ClassName<env id>>`` when the env has a spec."""
        if self.spec is None:
            return f"<{type(self).__name__} instance>"
        return f"<{type(self).__name__}<{self.spec.id}>>"

    def __enter__(self) -> Self:
        """Enter a ``with`` block; the environment is closed when the block exits."""
        return self

    def __exit__(self, *args: Any) -> Literal[False]:
        """Close the environment; an exception raised in the block propagates."""
        self.close()
        return False

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether the environment has an attribute ``name``."""
        return hasattr(self, name)

    def get_wrapper_attr(self, name: str) -> Any:
        """The environment's attribute ``name`` (``AttributeError`` when missing)."""
        return getattr(self, name)

    def set_wrapper_attr(self, name: str, value: Any, *, force: bool = True) -> bool:
        """Set attribute ``name`` to ``value``.

        Args:
            name: the attribute.
            value: its new value.
            force: create the attribute when the environment does not have it yet.

        Returns:
            Whether the attribute was set (``False`` only when it is missing and ``force`` is off).
        """
        if force or hasattr(self, name):
            setattr(self, name, value)
            return True
        return False


class Wrapper(
    Env[WrapperObsType, WrapperActType],
    Generic[WrapperObsType, WrapperActType, ObsType, ActType],
):
    """An environment that wraps another one (:attr:`env`) to change some of its behaviour.

    Every method forwards to :attr:`env` unless overridden. :attr:`action_space`,
    :attr:`observation_space` and :attr:`metadata` read through to :attr:`env` until they are
    assigned on the wrapper, which then overrides them for this wrapper only (the wrapped
    environment is untouched). :attr:`render_mode`, :attr:`np_random` and :attr:`np_random_seed`
    always come from :attr:`env`, and assigning :attr:`np_random` sets it on :attr:`env`.

    Other attributes are not forwarded: ``wrapper.foo`` raises ``AttributeError`` when only the
    inner environment has ``foo``; use :meth:`get_wrapper_attr`, :meth:`set_wrapper_attr` and
    :meth:`has_wrapper_attr` (or :attr:`unwrapped`) to reach them.

    Subclasses must call ``super().__init__(env)``. A ``gymnasium.Env`` may be passed as ``env``
    to any wrapper: it is put in a :class:`~vecgym.core.interop.GymnasiumEnv` adapter before the
    wrapper's ``__init__`` runs.

    Generic parameters: ``Wrapper[WrapperObsType, WrapperActType, ObsType, ActType]``, the first
    two as the wrapper presents them, the last two as the wrapped environment uses them.
    """

    env: Env[WrapperObsType, WrapperActType]

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        """As :meth:`Env.__new__` (a wrapper is a ``gymnasium.Env`` too where Gymnasium is
        installed)."""
        return super().__new__(cls, *args, **kwargs)

    # ``inspect.signature(Wrapper)``, and of a subclass without an ``__init__`` of its own, is
    # ``(env)``, as for Gymnasium's ``Wrapper``: Python 3.10 reads an inherited ``__new__`` (here,
    # ``Env``'s catch-all one) before an inherited ``__init__``, 3.11 and later this one first.
    __new__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("cls", inspect.Parameter.POSITIONAL_OR_KEYWORD),
            inspect.Parameter(
                "env",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation="Env[WrapperObsType, WrapperActType]",
            ),
        ]
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Make the subclass's ``__init__`` accept a ``gymnasium.Env`` (see :func:`_adapt_env`).

        Subclasses often read ``env.observation_space`` before calling ``super().__init__``, so
        the adapter must be in place as soon as their ``__init__`` starts.
        """
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if callable(init) and not getattr(init, "_adapts_env", False):
            cls.__init__ = _adapting_init(init)  # type: ignore[method-assign]

    def __init__(self, env: Env[WrapperObsType, WrapperActType]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; a ``gymnasium.Env`` is wrapped in a
                :class:`~vecgym.core.interop.GymnasiumEnv` adapter first.

        Raises:
            TypeError: ``env`` is neither a :class:`vecgym.Env` nor a ``gymnasium.Env``.
        """
        env = _adapt_env(env)
        self.env = env
        if not isinstance(env, Env):
            raise TypeError(WRAPPER_ENV_TYPE_MSG.format(type(env)))
        self._action_space: Space[WrapperActType] | None = None
        self._observation_space: Space[WrapperObsType] | None = None
        self._metadata: dict[str, Any] | None = None
        self._cached_spec: EnvSpec | None = None

    def step(
        self, action: WrapperActType
    ) -> tuple[WrapperObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step :attr:`env` with ``action`` and return its result; override to change it."""
        return self.env.step(action)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        """Reset :attr:`env` with ``seed`` and ``options`` and return its result."""
        return self.env.reset(seed=seed, options=options)

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Return :attr:`env`'s render."""
        return self.env.render()

    def close(self) -> None:
        """Close :attr:`env`."""
        return self.env.close()

    @property
    def np_random_seed(self) -> int | None:  # type: ignore[override]
        """The :attr:`np_random_seed` of :attr:`env`."""
        return self.env.np_random_seed

    @property
    def unwrapped(self) -> Env[ObsType, ActType]:  # type: ignore[override]
        """The innermost environment, below every layer of wrappers."""
        return self.env.unwrapped  # type: ignore[return-value]

    @property
    def spec(self) -> EnvSpec | None:  # type: ignore[override]
        """:attr:`env`'s spec with this wrapper appended to its ``additional_wrappers``.

        The appended :class:`~vecgym.envs.registration.WrapperSpec` carries the wrapper's
        constructor keyword arguments (without ``env``) when the wrapper records them through
        :class:`~vecgym.utils.RecordConstructorArgs`, else ``kwargs=None`` (which ``make`` refuses
        to rebuild). The spec is a deep copy, computed once and cached; ``None`` when :attr:`env`
        has no spec, or (with a warning) when the spec cannot be copied.
        """
        if self._cached_spec is not None:
            return self._cached_spec
        env_spec = self.env.spec
        if env_spec is None:
            return None

        from vecgym.core.registration import WrapperSpec

        wrapper_spec = WrapperSpec(
            name=self.class_name(),
            entry_point=f"{type(self).__module__}:{type(self).__name__}",
            kwargs=self._recorded_kwargs(),
        )
        try:
            env_spec = copy.deepcopy(env_spec)
            env_spec.additional_wrappers += (wrapper_spec,)
        except Exception as e:
            logger.warn(SPEC_COPY_FAILED_MSG.format(e, env_spec))
            return None
        self._cached_spec = env_spec
        return env_spec

    def _recorded_kwargs(self) -> dict[str, Any] | None:
        """This wrapper's recorded constructor kwargs without ``env``, or ``None`` if unrecorded."""
        if not isinstance(self, RecordConstructorArgs):
            return None
        kwargs = self._saved_kwargs
        if "env" in kwargs:
            kwargs = copy.deepcopy(kwargs)
            del kwargs["env"]
        return kwargs

    @classmethod
    def wrapper_spec(cls, **kwargs: Any) -> WrapperSpec:
        """A :class:`~vecgym.envs.registration.WrapperSpec` for this class, with ``kwargs``."""
        from vecgym.core.registration import WrapperSpec

        return WrapperSpec(
            name=cls.class_name(),
            entry_point=f"{cls.__module__}:{cls.__name__}",
            kwargs=kwargs,
        )

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether this wrapper or any environment below it has attribute ``name``."""
        if hasattr(self, name):
            return True
        return self.env.has_wrapper_attr(name)

    def get_wrapper_attr(self, name: str) -> Any:
        """Attribute ``name`` of this wrapper, else of the nearest environment below that has it.

        Raises:
            AttributeError: no layer has the attribute.
        """
        if hasattr(self, name):
            return getattr(self, name)
        try:
            return self.env.get_wrapper_attr(name)
        except AttributeError as e:
            raise AttributeError(WRAPPER_NO_ATTR_MSG.format(self.class_name(), name)) from e

    def set_wrapper_attr(self, name: str, value: Any, *, force: bool = True) -> bool:
        """Set attribute ``name`` on the outermost layer that already has it.

        This wrapper is tried first, then the layers below it in order. When no layer has the
        attribute, it is created on this wrapper if ``force`` is true.

        Args:
            name: the attribute.
            value: its new value.
            force: create the attribute on this wrapper when no layer has it.

        Returns:
            Whether the attribute was set.
        """
        if hasattr(self, name):
            setattr(self, name, value)
            return True
        if self.env.set_wrapper_attr(name, value, force=False):
            return True
        if force:
            setattr(self, name, value)
            return True
        return False

    def __str__(self) -> str:
        """``<WrapperName<...inner env...>>``."""
        return f"<{type(self).__name__}{self.env}>"

    def __repr__(self) -> str:
        """The same as :meth:`__str__`."""
        return str(self)

    @classmethod
    def class_name(cls) -> str:
        """The wrapper's class name."""
        return cls.__name__

    @property
    def action_space(self) -> Space[WrapperActType]:
        """This wrapper's action space if assigned, else :attr:`env`'s."""
        if self._action_space is None:
            return self.env.action_space
        return self._action_space

    @action_space.setter
    def action_space(self, space: Space[WrapperActType]) -> None:
        self._action_space = space

    @property
    def observation_space(self) -> Space[WrapperObsType]:
        """This wrapper's observation space if assigned, else :attr:`env`'s."""
        if self._observation_space is None:
            return self.env.observation_space
        return self._observation_space

    @observation_space.setter
    def observation_space(self, space: Space[WrapperObsType]) -> None:
        self._observation_space = space

    @property
    def metadata(self) -> dict[str, Any]:
        """This wrapper's metadata if assigned, else :attr:`env`'s."""
        if self._metadata is None:
            return self.env.metadata
        return self._metadata

    @metadata.setter
    def metadata(self, value: dict[str, Any]) -> None:
        self._metadata = value

    @property
    def render_mode(self) -> str | None:  # type: ignore[override]
        """:attr:`env`'s render mode."""
        return self.env.render_mode

    @property
    def np_random(self) -> np.random.Generator:
        """:attr:`env`'s random generator; assigning it sets the generator of :attr:`env`."""
        return self.env.np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self.env.np_random = value

    @property
    def _np_random(self) -> np.random.Generator | None:  # type: ignore[override]
        """Not available on a wrapper: always raises ``AttributeError``."""
        raise AttributeError(WRAPPER_PRIVATE_RNG_MSG)


def _adapt_env(env: Any) -> Any:
    """``env``, or a :class:`~vecgym.core.interop.GymnasiumEnv` around it when it is a
    ``gymnasium.Env``."""
    if isinstance(env, Env):
        return env
    from vecgym.core.interop import as_vecgym_env

    return as_vecgym_env(env)


def _adapting_init(init: Callable[..., None]) -> Callable[..., None]:
    """``init`` preceded by :func:`_adapt_env` on its ``env`` argument (first or by keyword)."""

    @functools.wraps(init)
    def init_with_adapted_env(self: Wrapper[Any, Any, Any, Any], *args: Any, **kwargs: Any) -> None:
        if args:
            args = (_adapt_env(args[0]), *args[1:])
        elif "env" in kwargs:
            kwargs["env"] = _adapt_env(kwargs["env"])
        init(self, *args, **kwargs)

    init_with_adapted_env._adapts_env = True  # type: ignore[attr-defined]
    return init_with_adapted_env


class ObservationWrapper(Wrapper[WrapperObsType, ActType, ObsType, ActType]):
    """A wrapper that changes only the observations, through :meth:`observation`.

    :meth:`observation` is applied to the observation from both :meth:`reset` and :meth:`step`.
    When the result lies in a different space, assign :attr:`observation_space` in ``__init__``.

    Example:
        >>> from vecgym.spaces import Discrete
        >>> class Doubled(ObservationWrapper):
        ...     def __init__(self, env):
        ...         super().__init__(env)
        ...         self.observation_space = Discrete(2 * env.observation_space.n)
        ...     def observation(self, observation):
        ...         return 2 * observation
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment whose observations are transformed.
        """
        Wrapper.__init__(self, env)  # type: ignore[misc]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[WrapperObsType, dict[str, Any]]:
        """Reset :attr:`env` and return ``(observation(obs), info)``."""
        obs, info = self.env.reset(seed=seed, options=options)
        return self.observation(obs), info  # type: ignore[arg-type]

    def step(
        self, action: ActType
    ) -> tuple[WrapperObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step :attr:`env` and return its result with the observation passed through
        :meth:`observation`."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self.observation(obs), reward, terminated, truncated, info  # type: ignore[arg-type]

    def observation(self, observation: ObsType) -> WrapperObsType:
        """Transform an observation of :attr:`env`.

        Args:
            observation: an observation from :attr:`env`.

        Returns:
            The observation this wrapper presents.
        """
        raise NotImplementedError


class RewardWrapper(Wrapper[ObsType, ActType, ObsType, ActType]):
    """A wrapper that changes only the reward of :meth:`step`, through :meth:`reward`.

    Example:
        >>> class Halved(RewardWrapper):
        ...     def reward(self, reward):
        ...         return reward / 2
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment whose rewards are transformed.
        """
        Wrapper.__init__(self, env)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step :attr:`env` and return its result with the reward passed through :meth:`reward`."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, self.reward(reward), terminated, truncated, info

    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        """Transform a reward of :attr:`env`.

        Args:
            reward: the reward :attr:`env` returned from :meth:`step`.

        Returns:
            The reward this wrapper presents.
        """
        raise NotImplementedError


class ActionWrapper(Wrapper[ObsType, WrapperActType, ObsType, ActType]):
    """A wrapper that changes only the action given to :meth:`step`, through :meth:`action`.

    :meth:`action` maps the wrapper's action to one in :attr:`env`'s action space. When the
    wrapper accepts actions from a different space, assign :attr:`action_space` in ``__init__``.

    Example:
        >>> class Flipped(ActionWrapper):
        ...     def action(self, action):
        ...         return 1 - action
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment whose actions are transformed.
        """
        Wrapper.__init__(self, env)  # type: ignore[misc]

    def step(
        self, action: WrapperActType
    ) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step :attr:`env` with ``action(action)``."""
        return self.env.step(self.action(action))  # type: ignore[arg-type]

    def action(self, action: WrapperActType) -> ActType:
        """Map an action of this wrapper to one of :attr:`env`.

        Args:
            action: the action given to :meth:`step`.

        Returns:
            The action passed to :attr:`env`.
        """
        raise NotImplementedError
