"""vecgym and Gymnasium objects, each usable where the other library expects its own.

:func:`to_gymnasium` turns a vecgym env into a real ``gymnasium.Env`` and a vecgym vector env into
a real ``gymnasium.vector.VectorEnv``, so libraries that check ``isinstance(env, gymnasium.Env)``
(Stable-Baselines3, TorchRL, RLlib, Gymnasium's own ``check_env`` and wrappers) take vecgym envs.
:func:`from_gymnasium` goes the other way. :func:`as_gymnasium_space` converts one space.

Gymnasium is imported on first use; without it these functions raise
:class:`vecgym.error.DependencyNotInstalled` naming the ``gymnasium`` extra.

Example:
    >>> import gymnasium
    >>> import vecgym
    >>> env = to_gymnasium(vecgym.make("CartPole-v1"))
    >>> isinstance(env, gymnasium.Env)
    True
    >>> from_gymnasium(env) is env.vecgym_env
    True
    >>> env.close()
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from vecgym import error
from vecgym.core.env import Env
from vecgym.core.interop import GymnasiumEnv, as_vecgym_env, is_gymnasium_env
from vecgym.vector.vector_env import VectorEnv

__all__ = ["as_gymnasium_space", "from_gymnasium", "to_gymnasium"]

GYMNASIUM_EXTRA_MSG = (
    "vecgym's Gymnasium interop needs gymnasium, which is not installed: "
    'pip install "vecgym[gymnasium]"'
)
TO_GYMNASIUM_TYPE_MSG = "to_gymnasium expected a vecgym Env or VectorEnv, got {type}"
FROM_GYMNASIUM_TYPE_MSG = (
    "from_gymnasium expected a gymnasium.Env or gymnasium.vector.VectorEnv, got {type}"
)
#: Where the Gymnasium-vector-env adapter lives (imported only when one is converted).
GYMNASIUM_VECTOR_ADAPTER = "vecgym.vector.gymnasium_vector_env"


def _adapters() -> Any:
    """The adapter module, which imports Gymnasium."""
    try:
        return importlib.import_module("vecgym.integrations._gymnasium_adapters")
    except ImportError as exc:
        if not (exc.name or "").startswith("gymnasium"):
            raise
        raise error.DependencyNotInstalled(GYMNASIUM_EXTRA_MSG) from exc


def to_gymnasium(env: Any) -> Any:
    """``env`` as a Gymnasium object: a ``gymnasium.Env`` or a ``gymnasium.vector.VectorEnv``.

    - a vecgym :class:`~vecgym.core.env.Env` (wrappers included) becomes a
      :class:`~vecgym.integrations._gymnasium_adapters.VecgymEnv`;
    - a vecgym :class:`~vecgym.vector.VectorEnv` becomes a
      :class:`~vecgym.integrations._gymnasium_adapters.VecgymVectorEnv`;
    - a :class:`~vecgym.core.interop.GymnasiumEnv` adapter gives back the Gymnasium env it runs,
      and a Gymnasium env or vector env is returned as it is.

    Spaces are converted once, here; stepping then passes values through without copying.

    Raises:
        DependencyNotInstalled: Gymnasium is not installed (the ``gymnasium`` extra).
        TypeError: ``env`` is none of the above, or has a space with no Gymnasium counterpart.
    """
    adapters = _adapters()
    if isinstance(env, GymnasiumEnv):
        return env.gymnasium_env
    if isinstance(env, Env):
        return adapters.VecgymEnv(env)
    if isinstance(env, VectorEnv):
        return adapters.VecgymVectorEnv(env)
    if is_gymnasium_env(env) or isinstance(env, sys.modules["gymnasium"].vector.VectorEnv):
        return env
    raise TypeError(TO_GYMNASIUM_TYPE_MSG.format(type=type(env)))


def from_gymnasium(env: Any) -> Any:
    """``env`` as a vecgym object: a vecgym ``Env`` or a vecgym ``VectorEnv``.

    - a :func:`to_gymnasium` adapter gives back the vecgym env it runs;
    - a ``gymnasium.vector.VectorEnv`` becomes a
      ``vecgym.vector.gymnasium_vector_env.GymnasiumVectorEnv``;
    - a ``gymnasium.Env`` becomes a :class:`~vecgym.core.interop.GymnasiumEnv` (see
      :func:`~vecgym.core.interop.as_vecgym_env`);
    - vecgym envs and vector envs are returned as they are.

    Raises:
        DependencyNotInstalled: Gymnasium is not installed (the ``gymnasium`` extra).
        TypeError: ``env`` is none of the above.
    """
    if isinstance(env, (Env, VectorEnv)):
        return env
    adapters = _adapters()
    if isinstance(env, (adapters.VecgymEnv, adapters.VecgymVectorEnv)):
        return env.vecgym_env
    if isinstance(env, sys.modules["gymnasium"].vector.VectorEnv):
        module = importlib.import_module(GYMNASIUM_VECTOR_ADAPTER)
        return module.GymnasiumVectorEnv(env)
    if is_gymnasium_env(env):
        return as_vecgym_env(env)
    raise TypeError(FROM_GYMNASIUM_TYPE_MSG.format(type=type(env)))


def as_gymnasium_space(space: Any) -> Any:
    """The Gymnasium space equal to a vecgym space (see
    :func:`vecgym.integrations._gymnasium_adapters.as_gymnasium_space`).

    Raises:
        DependencyNotInstalled: Gymnasium is not installed (the ``gymnasium`` extra).
        TypeError: the space has no Gymnasium counterpart; the message names it.
    """
    return _adapters().as_gymnasium_space(space)
