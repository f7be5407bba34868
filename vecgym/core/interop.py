"""Running environments written for Gymnasium on vecgym's runtime.

A user's existing ``gymnasium.Env`` (built with ``gymnasium.make`` or by hand, with Gymnasium
spaces) can be handed to vecgym wherever a vecgym environment is expected: ``SyncVectorEnv`` and
``AsyncVectorEnv`` env factories may return one, and every vecgym wrapper accepts one.
:func:`as_vecgym_env` puts a :class:`GymnasiumEnv` adapter around it, whose spaces are vecgym
spaces converted once, at construction, by :func:`as_vecgym_space`.

Gymnasium is never imported here: an object can only be a Gymnasium environment or space when
``gymnasium`` is already in :data:`sys.modules`, so that is where the classes are looked up.

Limitations:
    * A space of a class that is not one of Gymnasium's built-in spaces (a custom ``Space``
      subclass, or a subclass of a built-in space) is kept as it is, inside a
      :class:`GymnasiumSpace` proxy that forwards to it. Vector envs batch its values as tuples
      and send them through pipes, never shared memory, as for any custom space.
    * The converted spaces share the random generator the Gymnasium spaces had at conversion
      time, so sampling continues the same stream; reseeding either one afterwards gives that one
      a generator of its own.

Example:
    >>> import gymnasium
    >>> import numpy as np
    >>> from vecgym.vector import SyncVectorEnv
    >>> envs = SyncVectorEnv([lambda: gymnasium.make("CartPole-v1") for _ in range(2)])
    >>> obs, info = envs.reset(seed=42)
    >>> obs.shape, type(envs.single_observation_space).__module__
    ((2, 4), 'vecgym.core.spaces.box')
    >>> envs.close()
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar, SupportsFloat

import numpy as np

from vecgym.core.env import Env, RenderFrame
from vecgym.core.flavour import gymnasium_flavoured, unflavoured
from vecgym.core.gymnasium_errors import ADOPTING, adopt_gymnasium_error
from vecgym.core.registration import EnvSpec, WrapperSpec
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.graph import Graph, GraphInstance
from vecgym.core.spaces.multi_binary import MultiBinary
from vecgym.core.spaces.multi_discrete import MultiDiscrete
from vecgym.core.spaces.oneof import OneOf
from vecgym.core.spaces.sequence import Sequence
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.text import Text
from vecgym.core.spaces.tuple import Tuple

__all__ = [
    "GymnasiumEnv",
    "GymnasiumSpace",
    "apply_converter",
    "as_vecgym_env",
    "as_vecgym_space",
    "as_vecgym_value",
    "converted_space",
    "copy_env_spec",
    "gymnasium_flavoured",
    "is_gymnasium_env",
    "is_gymnasium_space",
    "is_imported_instance",
    "stepping_target",
    "unflavoured",
    "value_converter",
    "wrapper_stack_contains",
]

NOT_GYMNASIUM_ENV_MSG = "GymnasiumEnv expected a `gymnasium.Env`, got {type}"
NOT_GYMNASIUM_SPACE_MSG = "GymnasiumSpace expected a `gymnasium.spaces.Space`, got {type}"
NO_ATTR_MSG = "GymnasiumEnv around {env} has no attribute {name!r}"
NO_SPACE_ATTR_MSG = "GymnasiumSpace has no attribute {name!r} of its own to read"
UNCONVERTIBLE_SPACE_MSG = (
    "{owner}'s {name} must be a `gymnasium.spaces.Space` (or a vecgym space) to be converted, "
    "got {space!r} of type {type}"
)

# The adapter's own attributes: everything else is looked up on the Gymnasium env.
_SPACE_ATTRS = ("observation_space", "action_space")
_OWN_ATTRS = frozenset(
    {"gymnasium_env", "observation_space", "action_space", "metadata", "spec", "render_mode"}
)


def is_imported_instance(obj: object, module: str, name: str) -> bool:
    """Whether ``obj`` is an instance of class ``name`` of ``module``, which is not imported.

    When ``module`` has not been imported yet, nothing can be an instance of its classes.
    """
    cls = getattr(sys.modules.get(module), name, None)
    return isinstance(cls, type) and isinstance(obj, cls)


def is_gymnasium_env(obj: object) -> bool:
    """Whether ``obj`` is an env of Gymnasium's (a Gymnasium wrapper included): a ``gymnasium.Env``
    that is not a vecgym env (vecgym's are ``gymnasium.Env`` instances too where Gymnasium is
    installed, see :mod:`vecgym.core.flavour`), which vecgym runs through a :class:`GymnasiumEnv`.

    Gymnasium is not imported: when it has not been imported yet, nothing can be one of its envs.
    """
    return not isinstance(obj, Env) and is_imported_instance(obj, "gymnasium", "Env")


def is_gymnasium_space(obj: object) -> bool:
    """Whether ``obj`` is a space of Gymnasium's: a ``gymnasium.spaces.Space`` that is not a
    vecgym space (without importing Gymnasium)."""
    return not isinstance(obj, Space) and is_imported_instance(obj, "gymnasium.spaces", "Space")


# --- the gymnasium.Env flavour (see vecgym.core.flavour) ----------------------------------------
#: The class attribute that marks a ``gymnasium.Env`` adapter running a vecgym env in its
#: attribute ``vecgym_env`` (``vecgym.interop.to_gymnasium``'s ``VecgymEnv``).
RUNS_VECGYM_ENV_ATTR = "runs_vecgym_env"


# --- spaces ---------------------------------------------------------------------------------------
class GymnasiumSpace(Space[Any]):
    """A vecgym :class:`Space` standing for a Gymnasium space that has no vecgym equivalent.

    Sampling, membership, seeding, the generator, ``shape``, ``dtype`` and the JSON conversions
    are those of the wrapped space (:attr:`space`), and the wrapped space's own public attributes
    and methods read through (minigrid's ``MissionSpace.ordered_placeholders``); two proxies are
    equal when their spaces are. Vector envs batch its values as tuples, like any custom space.

    Args:
        space: the Gymnasium space (typically a custom ``gymnasium.spaces.Space`` subclass).

    Raises:
        TypeError: ``space`` is not a Gymnasium space.
    """

    def __init__(self, space: Any) -> None:
        if not is_gymnasium_space(space):
            raise TypeError(NOT_GYMNASIUM_SPACE_MSG.format(type=type(space)))
        self.space = space
        super().__init__(None, None)
        self.dtype = space.dtype

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The wrapped space's shape."""
        shape: tuple[int, ...] | None = self.space.shape
        return shape

    @property
    def np_random(self) -> np.random.Generator:
        """The wrapped space's generator."""
        generator: np.random.Generator = self.space.np_random
        return generator

    @property
    def is_np_flattenable(self) -> bool:
        """Whether the wrapped space says it can be flattened."""
        return bool(self.space.is_np_flattenable)

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> Any:
        """A value drawn by the wrapped space (``mask`` / ``probability`` passed when given)."""
        if probability is None:
            return self.space.sample(mask) if mask is not None else self.space.sample()
        return self.space.sample(mask, probability)

    def seed(self, seed: Any | None = None) -> Any:
        """Seed the wrapped space; returns what its ``seed`` returns."""
        return self.space.seed(seed)

    def contains(self, x: Any) -> bool:
        """Whether the wrapped space contains ``x``."""
        return bool(self.space.contains(x))

    def to_jsonable(self, sample_n: Any) -> Any:
        """The wrapped space's ``to_jsonable``."""
        return self.space.to_jsonable(sample_n)

    def from_jsonable(self, sample_n: list[Any]) -> list[Any]:
        """The wrapped space's ``from_jsonable``."""
        values: list[Any] = self.space.from_jsonable(sample_n)
        return values

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GymnasiumSpace) and bool(self.space == other.space)

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"GymnasiumSpace({self.space!r})"

    def __getattr__(self, name: str) -> Any:
        # only after normal lookup failed; private names, and lookups while unpickling, stay here
        space = self.__dict__.get("space")
        if space is None or name.startswith("_"):
            raise AttributeError(NO_SPACE_ATTR_MSG.format(name=name))
        return getattr(space, name)


def as_vecgym_space(space: Any) -> Space[Any]:
    """The vecgym space equal to a Gymnasium space, with the same random generator.

    Gymnasium's built-in spaces (``Box``, ``Discrete``, ``MultiDiscrete``, ``MultiBinary``,
    ``Text``, ``Tuple``, ``Dict``, ``Sequence``, ``Graph``, ``OneOf``, nested in any way) become
    the vecgym space of the same class with the same parameters (bounds, ``start``, ``dtype``,
    character order, key order, ``stack``). Each converted space (composite ones and their parts
    alike) takes over the generator object of the space it replaces, so seeded sampling carries
    on where the Gymnasium space is: the next samples equal the next samples the Gymnasium space
    would have drawn. Other Gymnasium spaces (custom subclasses) are kept, inside a
    :class:`GymnasiumSpace` proxy. vecgym spaces and anything that is not a Gymnasium space are
    returned unchanged.

    Args:
        space: a Gymnasium or vecgym space.

    Returns:
        A vecgym space.

    Example:
        >>> import gymnasium
        >>> original = gymnasium.spaces.Discrete(5, start=2, seed=7)
        >>> converted = as_vecgym_space(original)
        >>> converted
        Discrete(5, start=2)
    """
    if not is_gymnasium_space(space):
        return space  # a vecgym space (a Gymnasium space too where it is installed) is kept
    gym_spaces = sys.modules["gymnasium.spaces"]
    converter = _converter_for(gym_spaces, type(space))
    converted = GymnasiumSpace(space) if converter is None else converter(space)
    if converter is not None:
        # The generator object itself (``None`` when never used): the streams stay one stream.
        converted._np_random = space.__dict__.get("_np_random")
    return converted


def _converter_for(gym_spaces: Any, space_type: type) -> Callable[[Any], Space[Any]] | None:
    """The converter for exactly ``space_type`` (subclasses may change behaviour: no converter)."""
    for name, converter in _CONVERTERS.items():
        if space_type is getattr(gym_spaces, name, None):
            return converter
    return None


def _box(space: Any) -> Space[Any]:
    return Box(space.low, space.high, shape=space.shape, dtype=space.dtype)


def _discrete(space: Any) -> Space[Any]:
    return Discrete(space.n, start=space.start, dtype=space.dtype)


def _multi_discrete(space: Any) -> Space[Any]:
    return MultiDiscrete(space.nvec, dtype=space.dtype, start=space.start)


def _multi_binary(space: Any) -> Space[Any]:
    return MultiBinary(space.n)


def _text(space: Any) -> Space[Any]:
    # The ordered character list (a string keeps that order; a set would be sorted).
    return Text(
        space.max_length, min_length=space.min_length, charset="".join(space.character_list)
    )


def _tuple(space: Any) -> Space[Any]:
    return Tuple(as_vecgym_space(part) for part in space.spaces)


def _dict(space: Any) -> Space[Any]:
    parts = {key: as_vecgym_space(part) for key, part in space.spaces.items()}
    converted = Dict(parts, sort_keys=False)  # keep Gymnasium's (already settled) key order
    # Gymnasium before 1.3 has no ``sort_keys``: it sorted the keys of a mapping it was given.
    converted.sort_keys = getattr(space, "sort_keys", True)
    return converted


def _sequence(space: Any) -> Space[Any]:
    return Sequence(as_vecgym_space(space.feature_space), stack=space.stack)


def _graph(space: Any) -> Space[Any]:
    edge_space = None if space.edge_space is None else as_vecgym_space(space.edge_space)
    return Graph(as_vecgym_space(space.node_space), edge_space)


def _oneof(space: Any) -> Space[Any]:
    return OneOf(as_vecgym_space(part) for part in space.spaces)


_CONVERTERS: dict[str, Callable[[Any], Space[Any]]] = {
    "Box": _box,
    "Discrete": _discrete,
    "MultiDiscrete": _multi_discrete,
    "MultiBinary": _multi_binary,
    "Text": _text,
    "Tuple": _tuple,
    "Dict": _dict,
    "Sequence": _sequence,
    "Graph": _graph,
    "OneOf": _oneof,
}


def converted_space(owner: Any, name: str) -> Space[Any]:
    """``owner``'s space attribute ``name`` as a vecgym space (:func:`as_vecgym_space`).

    Raises:
        TypeError: the attribute is neither a Gymnasium nor a vecgym space (naming it).
    """
    space = getattr(owner, name)
    converted = as_vecgym_space(space)
    if not isinstance(converted, Space):
        raise TypeError(
            UNCONVERTIBLE_SPACE_MSG.format(
                owner=type(owner).__name__, name=name, space=space, type=type(space)
            )
        )
    return converted


# --- values ---------------------------------------------------------------------------------------
ValueConverter = Callable[[Any], Any]


def value_converter(
    space: Space[Any], graph: ValueConverter | None = None
) -> ValueConverter | None:
    """How to turn a Gymnasium value into a value of the converted ``space``; ``None``: as is.

    Values are shared by both libraries (numpy arrays, ints, strings, tuples, dicts) except graph
    values: each library's ``GraphInstance`` is its own class, which the other's ``Graph`` space
    does not accept. Only spaces holding a :class:`Graph` need a converter; it pickles.

    Args:
        space: the vecgym space the values belong to.
        graph: how one graph value is converted; by default into a vecgym ``GraphInstance``
            (:mod:`vecgym.integrations` passes the way into Gymnasium's, for the other direction).
    """
    if isinstance(space, Graph):
        return _graph_instance if graph is None else graph
    if isinstance(space, (Tuple, OneOf)):
        parts = tuple(value_converter(part, graph) for part in space.spaces)
        if all(part is None for part in parts):
            return None
        return partial(_convert_tuple if isinstance(space, Tuple) else _convert_oneof, parts)
    if isinstance(space, Dict):
        named = {key: value_converter(part, graph) for key, part in space.spaces.items()}
        return None if all(c is None for c in named.values()) else partial(_convert_dict, named)
    if isinstance(space, Sequence) and not space.stack:
        feature = value_converter(space.feature_space, graph)
        return None if feature is None else partial(_convert_sequence, feature)
    return None


def apply_converter(converter: ValueConverter | None, value: Any) -> Any:
    """``converter(value)``, or ``value`` itself for no converter (``None``)."""
    return value if converter is None else converter(value)


def _convert_tuple(parts: tuple[ValueConverter | None, ...], value: Any) -> tuple[Any, ...]:
    return tuple(apply_converter(part, item) for part, item in zip(parts, value, strict=True))


def _convert_oneof(parts: tuple[ValueConverter | None, ...], value: Any) -> tuple[Any, Any]:
    index, item = value
    return index, apply_converter(parts[int(index)], item)


def _convert_dict(named: dict[str, ValueConverter | None], value: Any) -> dict[str, Any]:
    return {key: apply_converter(named.get(key), item) for key, item in value.items()}


def _convert_sequence(feature: ValueConverter, value: Any) -> tuple[Any, ...]:
    return tuple(feature(item) for item in value)


def _graph_instance(value: Any) -> Any:
    if isinstance(value, GraphInstance):
        return value
    return GraphInstance(nodes=value.nodes, edges=value.edges, edge_links=value.edge_links)


def as_vecgym_value(space: Space[Any], value: Any) -> Any:
    """``value`` (of the Gymnasium space that ``space`` was converted from) as a value of ``space``.

    The value itself for everything but graph values, which become vecgym ``GraphInstance``
    objects (see :func:`value_converter`).
    """
    return apply_converter(value_converter(space), value)


# --- adapters -------------------------------------------------------------------------------------
class ReadsThrough:
    """What the adapters between the two libraries share: each runs one env of the other library,
    held in the attribute named by :attr:`_inner_attr`, and reads its render mode and generator
    (and any public attribute it does not have itself) from that env.

    A subclass says where a forwarded attribute is read (:meth:`_inner_get`, by default the env
    itself), which names are never forwarded (:meth:`_forwards`) and what a missing attribute
    raises (:meth:`_no_attr`).
    """

    _inner_attr: ClassVar[str]

    def _inner_get(self, inner: Any, name: str) -> Any:
        return getattr(inner, name)

    def _forwards(self, name: str) -> bool:
        return not name.startswith("_")

    def _no_attr(self, name: str) -> AttributeError:
        raise NotImplementedError

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup failed. Private names (and lookups made before the inner
        # env exists, e.g. while unpickling) are not forwarded.
        inner = self.__dict__.get(self._inner_attr)
        if inner is None or not self._forwards(name):
            raise self._no_attr(name)
        return self._inner_get(inner, name)

    @property
    def render_mode(self) -> str | None:
        """The render mode of the env it runs; assigning sets its raw env's."""
        mode: str | None = getattr(self, self._inner_attr).render_mode
        return mode

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:
        getattr(self, self._inner_attr).unwrapped.render_mode = value

    @property
    def np_random(self) -> np.random.Generator:
        """The generator of the env it runs; assigning sets that env's generator."""
        generator: np.random.Generator = getattr(self, self._inner_attr).np_random
        return generator

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        getattr(self, self._inner_attr).np_random = value

    @property
    def np_random_seed(self) -> Any:
        """The ``np_random_seed`` of the env it runs."""
        return getattr(self, self._inner_attr).np_random_seed


class WritesThrough(ReadsThrough):
    """A :class:`ReadsThrough` adapter standing where the raw environment stands: assigning a
    public attribute that is not its own (:attr:`_own_attrs`) but that the env it runs has
    (:meth:`_inner_has`) sets it there (:meth:`_inner_set`); the private generator is the raw
    env's too.
    """

    _own_attrs: ClassVar[frozenset[str]] = frozenset()

    def _inner_has(self, inner: Any, name: str) -> bool:
        return hasattr(inner, name)

    def _inner_set(self, inner: Any, name: str, value: Any) -> None:
        setattr(inner, name, value)

    def _is_own(self, name: str) -> bool:
        return name in self._own_attrs or name in self.__dict__ or hasattr(type(self), name)

    def _writes_through(self, inner: Any, name: str) -> bool:
        """Whether assigning ``name`` (not the adapter's own) sets it on the env it runs: a
        public name that env has."""
        return not name.startswith("_") and self._inner_has(inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        inner = self.__dict__.get(self._inner_attr)
        if inner is not None and not self._is_own(name) and self._writes_through(inner, name):
            self._inner_set(inner, name, value)
            return
        object.__setattr__(self, name, value)

    @property
    def _np_random(self) -> np.random.Generator | None:
        """The raw env's private generator (``None`` until it has one)."""
        generator: np.random.Generator | None = getattr(
            getattr(self, self._inner_attr).unwrapped, "_np_random", None
        )
        return generator

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        getattr(self, self._inner_attr).unwrapped._np_random = value

    def __str__(self) -> str:
        """``<Adapter<...the env it runs...>>``."""
        return f"<{type(self).__name__}{getattr(self, self._inner_attr)}>"

    def __repr__(self) -> str:
        """The same as :meth:`__str__`."""
        return str(self)


# --- environments ---------------------------------------------------------------------------------
def _is_special(name: str) -> bool:
    """Whether ``name`` is a special ``__name__`` (never read or written through)."""
    return name.startswith("__") and name.endswith("__")


class _LiveSpace:
    """A :class:`GymnasiumEnv` space attribute: the Gymnasium env's space of that name as a vecgym
    space, converted again when that env has replaced it; one assigned here is kept until then."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, env: Any, owner: type | None = None) -> Any:
        if env is None:
            return self
        return env._current_space(self.name)

    def __set__(self, env: Any, value: Space[Any]) -> None:
        env._set_space(self.name, (getattr(env.gymnasium_env, self.name), value))


class GymnasiumEnv(WritesThrough, Env[Any, Any]):
    """A vecgym :class:`Env` that runs a ``gymnasium.Env`` (:attr:`gymnasium_env`).

    :meth:`step`, :meth:`reset`, :meth:`render` and :meth:`close` forward to the Gymnasium env
    and return its results unchanged (so trajectories are seed for seed those of the Gymnasium
    env); only graph observations are re-packed as vecgym ``GraphInstance`` values. The spaces are
    converted with :func:`as_vecgym_space` at construction and again whenever the Gymnasium env
    has replaced one (as highway-env does on ``reset`` after ``configure``), and are Gymnasium
    spaces too, as every vecgym space is (:mod:`vecgym.core.flavour`); :attr:`metadata`
    is the Gymnasium env's dict; :attr:`render_mode` is read through; :attr:`spec` is the Gymnasium
    spec copied into a vecgym :class:`~vecgym.envs.registration.EnvSpec` (``None`` when it has
    none). :attr:`np_random` and :attr:`np_random_seed` are those of the Gymnasium env. An
    exception of ``gymnasium.error`` that these methods raise is also an instance of
    ``vecgym.error``'s class of the same name (:mod:`vecgym.core.gymnasium_errors`).

    The adapter stands where the raw environment stands: :attr:`unwrapped` is the adapter itself,
    and any attribute it does not hold (its spaces, metadata, spec and render mode; special
    ``__names__``) is read from and written to ``gymnasium_env.unwrapped``, private ones included
    (``env.unwrapped._forward_reward_weight = 2.0`` reaches a MuJoCo env); a new attribute is
    created there, or on the adapter for a new private name. :meth:`get_wrapper_attr`,
    :meth:`set_wrapper_attr` and :meth:`has_wrapper_attr` search the Gymnasium wrapper stack.
    The adapter pickles (with ``pickle`` or ``cloudpickle``) when the Gymnasium env does.

    Args:
        env: the Gymnasium environment.

    Raises:
        TypeError: ``env`` is not a ``gymnasium.Env``, or one of its spaces is not a space
            (the message names it).

    Example:
        >>> import gymnasium
        >>> env = GymnasiumEnv(gymnasium.make("CartPole-v1"))
        >>> obs, info = env.reset(seed=42)
        >>> obs.shape, env.np_random_seed, env.spec.max_episode_steps
        ((4,), 42, 500)
        >>> env.close()
    """

    gymnasium_env: Any

    def __init__(self, env: Any) -> None:
        if not is_gymnasium_env(env):
            raise TypeError(NOT_GYMNASIUM_ENV_MSG.format(type=type(env)))
        self.gymnasium_env = env
        object.__setattr__(self, "_vecgym_spaces", {})
        for name in _SPACE_ATTRS:
            self._current_space(name)
        self.metadata = env.metadata
        self.spec = _as_vecgym_spec(env.spec)

    # --- the spaces -------------------------------------------------------------------------------
    def _current_space(self, name: str) -> Space[Any]:
        """The Gymnasium env's space ``name`` as a vecgym space, converted again when that env has
        replaced it since (highway-env's ``reset`` rebuilds its spaces from its config)."""
        source = getattr(self.gymnasium_env, name)
        cache: dict[str, tuple[Any, Space[Any]]] = self.__dict__["_vecgym_spaces"]
        entry = cache.get(name)
        if entry is None or entry[0] is not source:
            entry = (source, converted_space(self.gymnasium_env, name))
            self._set_space(name, entry)
        return entry[1]

    def _set_space(self, name: str, entry: tuple[Any, Space[Any]]) -> None:
        self.__dict__["_vecgym_spaces"][name] = entry
        if name == "observation_space":
            object.__setattr__(self, "_observation_converter", value_converter(entry[1]))

    observation_space = _LiveSpace()
    action_space = _LiveSpace()

    # --- the Env API ------------------------------------------------------------------------------
    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the Gymnasium env and return its result (graph observations re-packed)."""
        try:
            obs, reward, terminated, truncated, info = self.gymnasium_env.step(action)
        except Exception as exc:
            adopt_gymnasium_error(exc)
            raise
        if self._observation_converter is not None:
            obs = self._observation_converter(obs)
        return obs, reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the Gymnasium env with ``seed`` and ``options``; return its result (graph
        observations re-packed)."""
        try:
            obs, info = self.gymnasium_env.reset(seed=seed, options=options)
        except Exception as exc:
            adopt_gymnasium_error(exc)
            raise
        self._current_space("observation_space")  # the env may have replaced it (and its converter)
        if self._observation_converter is not None:
            obs = self._observation_converter(obs)
        return obs, info

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """The Gymnasium env's render."""
        with ADOPTING:
            frame: RenderFrame | list[RenderFrame] | None = self.gymnasium_env.render()
        return frame

    def close(self) -> None:
        """Close the Gymnasium env."""
        with ADOPTING:
            self.gymnasium_env.close()

    # --- attributes -------------------------------------------------------------------------------
    _inner_attr = "gymnasium_env"
    _own_attrs = _OWN_ATTRS

    def _no_attr(self, name: str) -> AttributeError:
        inner = self.__dict__.get(self._inner_attr)
        raw = type(self).__name__ if inner is None else type(inner.unwrapped).__name__
        return AttributeError(NO_ATTR_MSG.format(env=raw, name=name))

    def _forwards(self, name: str) -> bool:
        # The raw env's private attributes too (MuJoCo's reward weights, ``_get_obs``): the
        # adapter stands where it stands. Only special names stay the adapter's.
        return not _is_special(name)

    def _writes_through(self, inner: Any, name: str) -> bool:
        # Any name the raw env has, private ones included; a new public name is created on the
        # raw env, where its own methods see it (a new private one is the adapter's own).
        return not _is_special(name) and (not name.startswith("_") or self._inner_has(inner, name))

    def _inner_get(self, inner: Any, name: str) -> Any:
        return getattr(inner.unwrapped, name)

    def _inner_has(self, inner: Any, name: str) -> bool:
        return hasattr(inner.unwrapped, name)

    def _inner_set(self, inner: Any, name: str, value: Any) -> None:
        setattr(inner.unwrapped, name, value)

    def __str__(self) -> str:
        """Over a raw Gymnasium env (as ``make`` builds for an id of Gymnasium's registry), the
        raw env's own form with the adapter's spec, ``<LunarLander<LunarLander-v3>>``, as it
        shows under ``gymnasium.make``; over a wrapper stack, ``<GymnasiumEnv<TimeLimit<...>>>``.
        """
        raw = self.gymnasium_env.unwrapped
        if self.gymnasium_env is not raw:
            return super().__str__()
        if self.spec is None:
            return f"<{type(raw).__name__} instance>"
        return f"<{type(raw).__name__}<{self.spec.id}>>"

    def has_wrapper_attr(self, name: str) -> bool:
        """Whether the adapter or a layer of the Gymnasium env has attribute ``name``."""
        return self._is_own(name) or bool(self.gymnasium_env.has_wrapper_attr(name))

    def get_wrapper_attr(self, name: str) -> Any:
        """The adapter's own attribute ``name``, else the Gymnasium env's ``get_wrapper_attr``.

        Raises:
            AttributeError: neither the adapter nor any Gymnasium layer has the attribute.
        """
        if self._is_own(name):
            return getattr(self, name)
        return self.gymnasium_env.get_wrapper_attr(name)

    def set_wrapper_attr(self, name: str, value: Any, *, force: bool = True) -> bool:
        """Set ``name`` on the adapter if it is its own, else on the Gymnasium layer that has it.

        When no layer has it, it is created on the adapter if ``force`` is true.

        Returns:
            Whether the attribute was set.
        """
        if self._is_own(name):
            setattr(self, name, value)
            return True
        if self.gymnasium_env.set_wrapper_attr(name, value, force=False):
            return True
        if force:
            object.__setattr__(self, name, value)
            return True
        return False


def copy_env_spec(
    spec: Any,
    spec_class: Callable[..., Any],
    wrapper_class: Callable[..., Any],
    entry_point: Callable[[Any, bool], Any] | None = None,
) -> Any:
    """A copy of an ``EnvSpec`` of either library as a ``spec_class`` (``None`` for ``None``).

    Args:
        spec: the spec to copy (a Gymnasium or a vecgym ``EnvSpec``).
        spec_class: the ``EnvSpec`` class of the copy.
        wrapper_class: the ``WrapperSpec`` class of the copy's additional wrappers.
        entry_point: how an entry point (and whether it is the vector one) is carried into the
            copy; by default as it is. ``None`` entry points stay ``None``.
    """
    if spec is None:
        return None

    def carried(value: Any, vector: bool) -> Any:
        return value if value is None or entry_point is None else entry_point(value, vector)

    wrappers = tuple(
        wrapper_class(name=w.name, entry_point=w.entry_point, kwargs=w.kwargs)
        for w in spec.additional_wrappers
    )
    return spec_class(
        id=spec.id,
        entry_point=carried(spec.entry_point, False),
        reward_threshold=spec.reward_threshold,
        nondeterministic=spec.nondeterministic,
        max_episode_steps=spec.max_episode_steps,
        order_enforce=spec.order_enforce,
        disable_env_checker=spec.disable_env_checker,
        kwargs=dict(spec.kwargs),
        additional_wrappers=wrappers,
        vector_entry_point=carried(spec.vector_entry_point, True),
    )


def _as_vecgym_spec(spec: Any) -> EnvSpec | None:
    """A vecgym copy of a Gymnasium ``EnvSpec`` (``None`` for ``None``)."""
    copy: EnvSpec | None = copy_env_spec(spec, EnvSpec, WrapperSpec)
    return copy


def as_vecgym_env(env: Any) -> Any:
    """``env`` as a vecgym environment: a Gymnasium env gets a :class:`GymnasiumEnv` adapter.

    A vecgym :class:`Env` (and anything that is not a Gymnasium env, which the caller then
    rejects as it would have) is returned unchanged, and a ``to_gymnasium`` adapter (a
    ``gymnasium.Env`` that runs a vecgym env) gives back the vecgym env it runs instead of being
    adapted a second time.

    Args:
        env: what an env factory built.

    Returns:
        ``GymnasiumEnv(env)`` for a ``gymnasium.Env``, else ``env``.
    """
    if not is_gymnasium_env(env):
        return env
    if type(env).__dict__.get(RUNS_VECGYM_ENV_ATTR) is True:
        inner = env.__dict__.get("vecgym_env")
        if isinstance(inner, Env):
            return inner
    return GymnasiumEnv(env)


def wrapper_stack_contains(env: Any, wrapper_class: type) -> bool:
    """Whether some layer of ``env``'s wrapper stack is a ``wrapper_class`` instance.

    The walk goes down ``env.env`` layers, and on through the adapters between the two libraries:
    into the Gymnasium env a :class:`GymnasiumEnv` runs, and into the vecgym env that a
    ``to_gymnasium`` adapter runs, so vecgym, Gymnasium and Stable-Baselines3 layers are all seen.
    """
    layer = env
    while layer is not None:
        if isinstance(layer, wrapper_class):
            return True
        if isinstance(layer, GymnasiumEnv):
            layer = layer.gymnasium_env
        elif type(layer).__dict__.get(RUNS_VECGYM_ENV_ATTR) is True:
            layer = layer.__dict__.get("vecgym_env")
        else:
            layer = getattr(layer, "env", None)
    return False


def stepping_target(env: Any) -> Any:
    """What a vectoriser's loop may call ``step`` and ``reset`` on for ``env``.

    A :class:`GymnasiumEnv` whose observations need no re-packing returns the Gymnasium env's
    results unchanged, so its ``step`` / ``reset`` are the Gymnasium env's own: the loop calls
    those directly and saves a Python call per env step. Anything else is returned as it is.
    """
    kind = type(env)
    if (
        isinstance(env, GymnasiumEnv)  # also its gymnasium.Env-flavoured twin class
        and kind.step is GymnasiumEnv.step
        and kind.reset is GymnasiumEnv.reset
        and env._observation_converter is None
    ):
        return env.gymnasium_env
    return env
