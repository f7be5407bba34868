"""Running a ``gymnasium.vector.VectorEnv`` as a vecgym :class:`~vecgym.vector.VectorEnv`.

Natively vectorised Gymnasium environments (ale-py's ``AtariVectorEnv``, Gymnasium's
``CartPoleVectorEnv``, ``gymnasium.make_vec`` results, a third party's vector env) are adapted
by :class:`GymnasiumVectorEnv`: the four spaces are converted once, at construction, with
:func:`vecgym.core.interop.as_vecgym_space` (a space that is not a space is a ``TypeError``
naming it); ``metadata["autoreset_mode"]`` becomes the vecgym
:class:`~vecgym.vector.AutoresetMode` of the same value; ``step`` and ``reset`` return what the
Gymnasium env returns (its arrays, not copies); an exception of ``gymnasium.error`` that a method
raises is also an instance of ``vecgym.error``'s class of the same name
(:mod:`vecgym.core.gymnasium_errors`). ``make_vec`` uses it for a Gymnasium spec's
``vector_entry_point``.

Gymnasium is never imported here: only an object of a class from an imported ``gymnasium`` can
be a Gymnasium vector env, so the class is looked up in :data:`sys.modules`.
"""

from __future__ import annotations

import contextlib
from typing import Any

from vecgym.core.env import RenderFrame
from vecgym.core.gymnasium_errors import ADOPTING, adopt_gymnasium_error
from vecgym.core.interop import (
    ReadsThrough,
    _as_vecgym_spec,
    converted_space,
    is_imported_instance,
    value_converter,
)
from vecgym.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["GymnasiumVectorEnv", "is_gymnasium_vector_env"]

NOT_GYMNASIUM_VECTOR_ENV_MSG = (
    "GymnasiumVectorEnv expected a `gymnasium.vector.VectorEnv`, got {type}"
)
NO_VECTOR_ATTR_MSG = "GymnasiumVectorEnv around {env} has no attribute {name!r}"

# The adapter's own attributes; any other public name is read from the Gymnasium vector env.
_OWN_ATTRS = frozenset(
    {
        "gymnasium_env",
        "num_envs",
        "observation_space",
        "action_space",
        "single_observation_space",
        "single_action_space",
        "metadata",
        "spec",
        "closed",
    }
)


def is_gymnasium_vector_env(obj: object) -> bool:
    """Whether ``obj`` is a ``gymnasium.vector.VectorEnv`` (a Gymnasium vector wrapper included).

    Gymnasium is not imported: when it has not been imported yet, nothing can be one of its envs.
    """
    return is_imported_instance(obj, "gymnasium.vector", "VectorEnv")


def _as_vecgym_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``metadata`` whose ``"autoreset_mode"`` is a vecgym :class:`AutoresetMode`.

    Gymnasium's ``AutoresetMode`` members have the same values as vecgym's (``"NextStep"``,
    ``"SameStep"``, ``"Disabled"``); a value that is neither enum nor one of those is kept as it
    is (``make_vec`` then warns, as Gymnasium's does).
    """
    converted = dict(metadata)
    mode = converted.get("autoreset_mode")
    if mode is not None and not isinstance(mode, AutoresetMode):
        value = getattr(mode, "value", mode)
        with contextlib.suppress(ValueError):
            converted["autoreset_mode"] = AutoresetMode(value)
    return converted


class GymnasiumVectorEnv(ReadsThrough, VectorEnv[Any, Any, Any]):
    """A vecgym :class:`VectorEnv` that runs a ``gymnasium.vector.VectorEnv``.

    :meth:`step`, :meth:`reset`, :meth:`render`, :meth:`call`, :meth:`get_attr` and
    :meth:`set_attr` forward to :attr:`gymnasium_env` and return its results as they are (batched
    observations, reward / termination / truncation arrays, Gymnasium's batched info dict with its
    ``_key`` masks), so trajectories are seed for seed those of the Gymnasium env; only graph
    observations are re-packed as vecgym values. Sub-environments are autoreset by the Gymnasium
    env, in its own mode, which :attr:`metadata` reports as a vecgym :class:`AutoresetMode`.

    The spaces are converted once, at construction; :attr:`spec` is the Gymnasium spec as a
    vecgym ``EnvSpec`` (``None`` when it has none); :attr:`np_random` and :attr:`render_mode`
    are the Gymnasium env's. Other public attributes are read from the Gymnasium env.
    :meth:`close` closes it (once).

    Args:
        env: the Gymnasium vector environment.

    Raises:
        TypeError: ``env`` is not a ``gymnasium.vector.VectorEnv``, or one of its spaces is not
            a space (the message names it).

    Example:
        >>> import gymnasium
        >>> gym_envs = gymnasium.make_vec("CartPole-v1", num_envs=3, vectorization_mode="sync")
        >>> envs = GymnasiumVectorEnv(gym_envs)
        >>> obs, info = envs.reset(seed=7)
        >>> obs.shape, envs.single_action_space, envs.metadata["autoreset_mode"]
        ((3, 4), Discrete(2), <AutoresetMode.NEXT_STEP: 'NextStep'>)
        >>> envs.close()
    """

    gymnasium_env: Any

    def __init__(self, env: Any) -> None:
        if not is_gymnasium_vector_env(env):
            raise TypeError(NOT_GYMNASIUM_VECTOR_ENV_MSG.format(type=type(env)))
        self.gymnasium_env = env
        self.num_envs = env.num_envs
        self.single_observation_space = converted_space(env, "single_observation_space")
        self.single_action_space = converted_space(env, "single_action_space")
        self.observation_space = converted_space(env, "observation_space")
        self.action_space = converted_space(env, "action_space")
        self._observation_converter = value_converter(self.observation_space)
        self.metadata = _as_vecgym_metadata(env.metadata)
        self.spec = _as_vecgym_spec(env.spec)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the Gymnasium vector env with ``seed`` and ``options``; return its result."""
        with ADOPTING:
            obs, info = self.gymnasium_env.reset(seed=seed, options=options)
        if self._observation_converter is not None:
            obs = self._observation_converter(obs)
        return obs, info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """Step the Gymnasium vector env with ``actions``; return its result.

        Sub-environments whose episode ended are reset by the Gymnasium env, following
        ``metadata["autoreset_mode"]``.
        """
        try:
            obs, rewards, terminations, truncations, info = self.gymnasium_env.step(actions)
        except Exception as exc:
            adopt_gymnasium_error(exc)
            raise
        if self._observation_converter is not None:
            obs = self._observation_converter(obs)
        return obs, rewards, terminations, truncations, info

    def render(self) -> tuple[RenderFrame, ...] | None:
        """The Gymnasium vector env's render."""
        with ADOPTING:
            frames: tuple[RenderFrame, ...] | None = self.gymnasium_env.render()
        return frames

    def close_extras(self, **kwargs: Any) -> None:
        """Close the Gymnasium vector env (``kwargs`` passed on)."""
        with ADOPTING:
            self.gymnasium_env.close(**kwargs)

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """The Gymnasium vector env's ``call(name, *args, **kwargs)``."""
        with ADOPTING:
            results: tuple[Any, ...] = self.gymnasium_env.call(name, *args, **kwargs)
        return results

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """The Gymnasium vector env's ``get_attr(name)``."""
        with ADOPTING:
            values: tuple[Any, ...] = self.gymnasium_env.get_attr(name)
        return values

    def set_attr(self, name: str, values: Any) -> None:
        """The Gymnasium vector env's ``set_attr(name, values)``."""
        with ADOPTING:
            self.gymnasium_env.set_attr(name, values)

    # --- attributes: any other public one is the Gymnasium vector env's ------------------------
    _inner_attr = "gymnasium_env"

    def _forwards(self, name: str) -> bool:
        return not name.startswith("_") and name not in _OWN_ATTRS

    def _no_attr(self, name: str) -> AttributeError:
        return AttributeError(NO_VECTOR_ATTR_MSG.format(env=type(self).__name__, name=name))

    def __repr__(self) -> str:
        """``GymnasiumVectorEnv(<the Gymnasium vector env>)``."""
        return f"{type(self).__name__}({self.gymnasium_env!r})"
