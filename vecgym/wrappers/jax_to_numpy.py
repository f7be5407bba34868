"""Drive a jax environment with numpy arrays: :class:`JaxToNumpy`.

jax is an optional dependency (``pip install "vecgym[jax]"``), imported only when the wrapper is
built or a conversion function is called; this module itself imports without it.

Converting numpy -> jax -> numpy need not give back the same value: jax has no scalars, and by
default no 64-bit types, so e.g. a numpy ``int64`` scalar comes back as a 0-d ``int32`` array.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecgym.core.env import Env
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.wrappers.array_conversion import ArrayConversion, array_conversion, import_optional

__all__ = ["JaxToNumpy", "jax_to_numpy", "numpy_to_jax"]


def _jnp(user: str) -> Any:
    return import_optional("jax.numpy", extra="jax", user=user)


def jax_to_numpy(value: Any, device: Any | None = None) -> Any:
    """Convert jax arrays in ``value`` (recursively) to numpy arrays; ``device`` is ignored."""
    return array_conversion(value, xp=np, device=device)


def numpy_to_jax(value: Any, device: Any | None = None) -> Any:
    """Convert numpy arrays and numbers in ``value`` (recursively) to jax arrays.

    Raises:
        vecgym.error.DependencyNotInstalled: jax is not installed.
    """
    return array_conversion(value, xp=_jnp("numpy_to_jax"), device=device)


class JaxToNumpy(ArrayConversion, RecordConstructorArgs):
    """Drive a jax-based environment with numpy arrays.

    Actions are given as numpy arrays and converted to jax arrays; observations and infos come
    back as numpy arrays, rewards as ``float`` and the flags as ``bool``.

    Example:
        >>> env = JaxToNumpy(jax_env)  # doctest: +SKIP
        >>> obs, _ = env.reset(seed=0)  # doctest: +SKIP
        >>> type(obs)  # doctest: +SKIP
        <class 'numpy.ndarray'>
    """

    def __init__(self, env: Env[Any, Any]) -> None:
        """Wrap ``env``.

        Args:
            env: the jax-based environment.

        Raises:
            vecgym.error.DependencyNotInstalled: jax is not installed.
        """
        jnp = _jnp("JaxToNumpy")
        RecordConstructorArgs.__init__(self)
        ArrayConversion.__init__(self, env=env, env_xp=jnp, target_xp=np)
