"""The classes behind :func:`vecgym.interop.to_gymnasium` (this module imports ``gymnasium``).

:class:`VecgymEnv` is a ``gymnasium.Env`` running a vecgym env; :class:`VecgymVectorEnv` is a
``gymnasium.vector.VectorEnv`` running a vecgym vector env. Both convert the spaces once, at
construction (:func:`as_gymnasium_space`), and otherwise pass values through untouched: the arrays
``step`` and ``reset`` return are the very objects the vecgym env returned (graph observations of
a single env excepted, which are re-packed as Gymnasium ``GraphInstance`` values).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces as gym_spaces
from gymnasium.envs.registration import EnvSpec as GymEnvSpec
from gymnasium.envs.registration import WrapperSpec as GymWrapperSpec

from vecgym.core.env import Env
from vecgym.core.interop import (
    ValueConverter,
    WritesThrough,
    apply_converter,
    copy_env_spec,
    is_gymnasium_space,
    unflavoured,
    value_converter,
)
from vecgym.core.registration import EnvSpec, load_env_creator
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.graph import Graph
from vecgym.core.spaces.multi_binary import MultiBinary
from vecgym.core.spaces.multi_discrete import MultiDiscrete
from vecgym.core.spaces.oneof import OneOf
from vecgym.core.spaces.sequence import Sequence
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.text import Text
from vecgym.core.spaces.tuple import Tuple
from vecgym.vector.vector_env import VectorEnv

__all__ = ["VecgymEnv", "VecgymVectorEnv", "as_gymnasium_space", "as_gymnasium_spec"]

NO_COUNTERPART_MSG = (
    "the space {space!r} (class {cls}) has no Gymnasium counterpart: only vecgym's built-in "
    "spaces (Box, Discrete, MultiDiscrete, MultiBinary, Text, Tuple, Dict, Sequence, Graph, "
    "OneOf) and GymnasiumSpace proxies can be converted"
)
NOT_VECGYM_ENV_MSG = "VecgymEnv expected a vecgym `Env`, got {type}"
NOT_VECGYM_VECTOR_ENV_MSG = "VecgymVectorEnv expected a vecgym `VectorEnv`, got {type}"
NO_ATTR_MSG = "{adapter} has no attribute {name!r}"
# The single-env adapter's own attributes: other public ones are the vecgym env's.
_OWN_ATTRS = frozenset({"vecgym_env", "observation_space", "action_space", "metadata", "spec"})


# --- spaces ---------------------------------------------------------------------------------------
def as_gymnasium_space(space: Any) -> Any:
    """The Gymnasium space equal to a vecgym space, sharing its random generator.

    vecgym's built-in spaces (nested in any way) become the Gymnasium space of the same class with
    the same parameters; each converted space takes over the generator object of the space it
    replaces, so seeded sampling continues one stream. A
    :class:`~vecgym.core.interop.GymnasiumSpace` proxy gives back the Gymnasium space it holds;
    Gymnasium spaces are returned unchanged.

    Raises:
        TypeError: ``space`` is neither a space vecgym can convert nor a Gymnasium space (for
            example a custom ``vecgym.spaces.Space`` subclass); the message names the space.

    Example:
        >>> import vecgym
        >>> as_gymnasium_space(vecgym.spaces.Discrete(5, start=2))
        Discrete(5, start=2)
    """
    if is_gymnasium_space(space):
        return space
    kind = unflavoured(type(space))  # a vecgym space that is a Gymnasium space too: copied
    inner = getattr(space, "space", None)
    if kind.__name__ == "GymnasiumSpace" and isinstance(inner, gym_spaces.Space):
        return inner
    converter = _CONVERTERS.get(kind)
    if converter is None:
        raise TypeError(NO_COUNTERPART_MSG.format(space=space, cls=type(space).__qualname__))
    converted = converter(space)
    converted._np_random = space.__dict__.get("_np_random")
    return converted


def _box(space: Box) -> Any:
    return gym_spaces.Box(
        np.array(space.low), np.array(space.high), shape=space.shape, dtype=space.dtype
    )


def _discrete(space: Discrete) -> Any:
    return gym_spaces.Discrete(int(space.n), start=int(space.start), dtype=space.dtype)


def _multi_discrete(space: MultiDiscrete) -> Any:
    return gym_spaces.MultiDiscrete(
        np.array(space.nvec), dtype=space.dtype, start=np.array(space.start)
    )


def _multi_binary(space: MultiBinary) -> Any:
    return gym_spaces.MultiBinary(space.n)


def _text(space: Text) -> Any:
    return gym_spaces.Text(
        space.max_length, min_length=space.min_length, charset="".join(space.character_list)
    )


def _tuple(space: Tuple) -> Any:
    return gym_spaces.Tuple(as_gymnasium_space(part) for part in space.spaces)


#: Whether this Gymnasium's ``Dict`` takes ``sort_keys`` (1.3 and later; 1.2, which ray[rllib]
#: installs, does not).
_DICT_SORT_KEYS = "sort_keys" in inspect.signature(gym_spaces.Dict.__init__).parameters


def _dict(space: Dict) -> Any:
    parts = {key: as_gymnasium_space(part) for key, part in space.spaces.items()}
    if not _DICT_SORT_KEYS:
        return gym_spaces.Dict(list(parts.items()))  # a sequence of pairs keeps vecgym's order
    converted = gym_spaces.Dict(parts, sort_keys=False)  # vecgym's key order is already settled
    converted.sort_keys = space.sort_keys
    return converted


def _sequence(space: Sequence) -> Any:
    return gym_spaces.Sequence(as_gymnasium_space(space.feature_space), stack=space.stack)


def _graph(space: Graph) -> Any:
    edges = None if space.edge_space is None else as_gymnasium_space(space.edge_space)
    return gym_spaces.Graph(as_gymnasium_space(space.node_space), edges)


def _oneof(space: OneOf) -> Any:
    return gym_spaces.OneOf(as_gymnasium_space(part) for part in space.spaces)


_CONVERTERS: dict[type, Callable[[Any], Any]] = {
    Box: _box,
    Discrete: _discrete,
    MultiDiscrete: _multi_discrete,
    MultiBinary: _multi_binary,
    Text: _text,
    Tuple: _tuple,
    Dict: _dict,
    Sequence: _sequence,
    Graph: _graph,
    OneOf: _oneof,
}


# --- values: only graph values differ between the libraries ---------------------------------------
def _graph_value(value: Any) -> Any:
    return gym_spaces.GraphInstance(value.nodes, value.edges, value.edge_links)


def _value_converter(space: Space[Any]) -> ValueConverter | None:
    """How to turn a value of vecgym ``space`` into a Gymnasium value; ``None``: as it is."""
    return value_converter(space, graph=_graph_value)


# --- specs ----------------------------------------------------------------------------------------
class VecgymEntryPoint:
    """A Gymnasium entry point building a vecgym env (or vector env) from a vecgym entry point and
    returning it converted (:class:`VecgymEnv` / :class:`VecgymVectorEnv`).

    It stands in the Gymnasium copies of vecgym specs, so ``gymnasium.make(env.spec)`` (which
    Gymnasium's ``check_env`` calls) rebuilds the converted env. It pickles.

    Args:
        entry_point: the vecgym entry point (``"module:attr"`` or a callable).
        vector: whether it builds a vector env.
    """

    def __init__(self, entry_point: Any, *, vector: bool = False) -> None:
        self.entry_point = entry_point
        self.vector = vector
        if not vector:
            metadata = getattr(load_env_creator(entry_point), "metadata", None)
            if isinstance(metadata, dict):
                self.metadata = metadata  # Gymnasium's make reads the render modes from it

    def __call__(self, **kwargs: Any) -> Any:
        """Build the vecgym env with ``kwargs`` and return it converted."""
        env = load_env_creator(self.entry_point)(**kwargs)
        return VecgymVectorEnv(env) if self.vector else VecgymEnv(env)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, VecgymEntryPoint)
            and other.entry_point == self.entry_point
            and other.vector == self.vector
        )

    def __hash__(self) -> int:
        return hash((self.entry_point, self.vector))

    def __repr__(self) -> str:
        return f"VecgymEntryPoint({self.entry_point!r}, vector={self.vector})"


def as_gymnasium_spec(spec: EnvSpec | None) -> Any:
    """A Gymnasium ``EnvSpec`` copied from a vecgym one (``None`` for ``None``).

    The entry points become :class:`VecgymEntryPoint` objects, so that Gymnasium's ``make``
    builds the converted env from the copy.
    """
    return copy_env_spec(spec, GymEnvSpec, GymWrapperSpec, _vecgym_entry_point)


def _vecgym_entry_point(entry_point: Any, vector: bool) -> VecgymEntryPoint:
    return VecgymEntryPoint(entry_point, vector=vector)


def _gymnasium_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``metadata`` whose ``"autoreset_mode"`` is Gymnasium's enum member."""
    converted = dict(metadata)
    mode = converted.get("autoreset_mode")
    if mode is not None:
        converted["autoreset_mode"] = gymnasium.vector.AutoresetMode(getattr(mode, "value", mode))
    return converted


# --- single environments --------------------------------------------------------------------------
class VecgymEnv(WritesThrough, gymnasium.Env[Any, Any]):
    """A ``gymnasium.Env`` that runs a vecgym env (:attr:`vecgym_env`, wrappers included).

    :meth:`step`, :meth:`reset`, :meth:`render` and :meth:`close` forward to the vecgym env and
    return its results unchanged (graph observations are re-packed as Gymnasium
    ``GraphInstance`` values). The spaces are converted once, at construction, with
    :func:`as_gymnasium_space`; :attr:`spec` is a Gymnasium copy of the vecgym spec;
    :attr:`metadata`, :attr:`render_mode`, :attr:`np_random` and :attr:`np_random_seed` are read
    through. The adapter is the raw environment as Gymnasium sees it (``unwrapped`` is the adapter):
    any other public attribute is read from the vecgym env (through its wrappers), and assigning
    one that the vecgym env has sets it there.

    Args:
        env: a vecgym environment.

    Raises:
        TypeError: ``env`` is not a vecgym :class:`~vecgym.core.env.Env`, or one of its spaces has
            no Gymnasium counterpart.

    Example:
        >>> import gymnasium
        >>> import vecgym
        >>> env = VecgymEnv(vecgym.make("CartPole-v1"))
        >>> isinstance(env, gymnasium.Env), env.action_space
        (True, Discrete(2))
        >>> obs, info = env.reset(seed=42)
        >>> obs.shape, env.spec.max_episode_steps
        ((4,), 500)
        >>> env.close()
    """

    vecgym_env: Env[Any, Any]
    #: Tells :func:`vecgym.core.interop.as_vecgym_env` to give back :attr:`vecgym_env` rather than
    #: adapt this adapter (the marker is read on this exact class, not on subclasses).
    runs_vecgym_env = True

    def __init__(self, env: Env[Any, Any]) -> None:
        if not isinstance(env, Env):
            raise TypeError(NOT_VECGYM_ENV_MSG.format(type=type(env)))
        self.vecgym_env = env
        self.observation_space = as_gymnasium_space(env.observation_space)
        self.action_space = as_gymnasium_space(env.action_space)
        self._observation_converter = _value_converter(env.observation_space)
        self.metadata = env.metadata
        self.spec = as_gymnasium_spec(env.spec)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the vecgym env; its result as it is (graph observations re-packed)."""
        obs, reward, terminated, truncated, info = self.vecgym_env.step(action)
        obs = apply_converter(self._observation_converter, obs)
        return obs, reward, terminated, truncated, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the vecgym env with ``seed`` and ``options``; its result as it is."""
        obs, info = self.vecgym_env.reset(seed=seed, options=options)
        return apply_converter(self._observation_converter, obs), info

    def render(self) -> Any:
        """The vecgym env's ``render()``."""
        return self.vecgym_env.render()

    def close(self) -> None:
        """Close the vecgym env."""
        self.vecgym_env.close()

    # --- attributes: the vecgym env's, through its wrappers -----------------------------------
    _inner_attr = "vecgym_env"
    _own_attrs = _OWN_ATTRS

    def _no_attr(self, name: str) -> AttributeError:
        return AttributeError(NO_ATTR_MSG.format(adapter="VecgymEnv", name=name))

    def _inner_get(self, inner: Any, name: str) -> Any:
        return inner.get_wrapper_attr(name)

    def _inner_has(self, inner: Any, name: str) -> bool:
        return bool(inner.has_wrapper_attr(name))

    def _inner_set(self, inner: Any, name: str, value: Any) -> None:
        # ``setattr(adapter, "gravity", ...)`` (SB3's ``set_attr`` does this) reaches the env
        inner.set_wrapper_attr(name, value)


# --- vector environments --------------------------------------------------------------------------
class VecgymVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """A ``gymnasium.vector.VectorEnv`` that runs a vecgym vector env (:attr:`vecgym_env`).

    Works over every vecgym vector env (``SyncVectorEnv``, ``AsyncVectorEnv``, the numpy
    vectorised envs, vector wrappers). :meth:`step` and :meth:`reset` return exactly the objects
    the vecgym env returned (no copy: with ``copy=False`` these are its buffers, overwritten by
    the next call), infos included, in the same autoreset mode: :attr:`metadata` is a copy of the
    vecgym env's whose ``"autoreset_mode"`` is ``gymnasium.vector.AutoresetMode``'s member of
    the same value (also the attribute :attr:`autoreset_mode`, as on Gymnasium's vectorisers).
    The four spaces are converted once, at construction. :meth:`call`,
    :meth:`get_attr` and :meth:`set_attr` forward to the vecgym env, and any other public
    attribute (``send`` / ``recv``, ``num_workers``, ...) is read from it.

    Args:
        env: a vecgym vector environment.

    Raises:
        TypeError: ``env`` is not a vecgym :class:`~vecgym.vector.VectorEnv`, or one of its
            spaces has no Gymnasium counterpart.

    Example:
        >>> import gymnasium
        >>> import numpy as np
        >>> import vecgym
        >>> envs = VecgymVectorEnv(vecgym.make_vec("CartPole-v1", num_envs=2))
        >>> isinstance(envs, gymnasium.vector.VectorEnv), envs.single_action_space
        (True, Discrete(2))
        >>> envs.metadata["autoreset_mode"]
        <AutoresetMode.NEXT_STEP: 'NextStep'>
        >>> obs, info = envs.reset(seed=0)
        >>> obs.shape
        (2, 4)
        >>> envs.close()
    """

    vecgym_env: VectorEnv[Any, Any, Any]

    def __init__(self, env: VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(env, VectorEnv):
            raise TypeError(NOT_VECGYM_VECTOR_ENV_MSG.format(type=type(env)))
        self.vecgym_env = env
        self.num_envs = env.num_envs
        self.single_observation_space = as_gymnasium_space(env.single_observation_space)
        self.single_action_space = as_gymnasium_space(env.single_action_space)
        self.observation_space = as_gymnasium_space(env.observation_space)
        self.action_space = as_gymnasium_space(env.action_space)
        self.metadata = _gymnasium_metadata(env.metadata)
        # Gymnasium's vectorisers also have the mode as an attribute (TorchRL reads it there)
        self.autoreset_mode = self.metadata.get("autoreset_mode")
        self.spec = as_gymnasium_spec(env.spec)
        self.render_mode = env.render_mode

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the vecgym env (``seed`` and ``options`` as it takes them); its result as it is."""
        return self.vecgym_env.reset(seed=seed, options=options)  # type: ignore[arg-type]

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step the vecgym env; its result as it is (the same objects, no copies)."""
        return self.vecgym_env.step(actions)

    def render(self) -> Any:
        """The vecgym env's ``render()``."""
        return self.vecgym_env.render()

    def close_extras(self, **kwargs: Any) -> None:
        """Close the vecgym env (``kwargs`` passed on, e.g. ``terminate`` for async envs)."""
        self.vecgym_env.close(**kwargs)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """The vecgym env's ``call``."""
        return tuple(self.vecgym_env.call(name, *args, **kwargs))  # type: ignore[attr-defined]

    def get_attr(self, name: str, **kwargs: Any) -> tuple[Any, ...]:
        """The vecgym env's ``get_attr``."""
        return tuple(self.vecgym_env.get_attr(name, **kwargs))  # type: ignore[attr-defined]

    def set_attr(self, name: str, values: Any, **kwargs: Any) -> None:
        """The vecgym env's ``set_attr``."""
        self.vecgym_env.set_attr(name, values, **kwargs)  # type: ignore[attr-defined]

    @property
    def closed(self) -> bool:
        """Whether the vecgym env is closed."""
        return bool(self.vecgym_env.closed)

    @closed.setter
    def closed(self, value: bool) -> None:
        # Gymnasium's ``close`` sets it; the vecgym env's own flag is the truth.
        pass

    def __getattr__(self, name: str) -> Any:
        inner = self.__dict__.get("vecgym_env")
        if name.startswith("_") or inner is None:
            raise AttributeError(NO_ATTR_MSG.format(adapter="VecgymVectorEnv", name=name))
        return getattr(inner, name)

    def __repr__(self) -> str:
        """``VecgymVectorEnv(<the vecgym vector env>)``."""
        return f"{type(self).__name__}({self.vecgym_env!r})"
