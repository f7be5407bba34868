"""The vector :class:`JaxToNumpy` (needs the ``jax`` extra, imported when the wrapper is built)."""

from __future__ import annotations

from typing import Any

import numpy as np

from vecgym.vector.vector_env import VectorEnv
from vecgym.wrappers.array_conversion import import_optional
from vecgym.wrappers.vector.array_conversion import ArrayConversion

__all__ = ["JaxToNumpy"]


class JaxToNumpy(ArrayConversion):
    """Drive a jax vector env with numpy arrays: actions in numpy, every output returned in numpy.

    Raises:
        DependencyNotInstalled: jax is missing (the message names the ``jax`` extra).
    """

    def __init__(self, env: VectorEnv[Any, Any, Any]) -> None:
        """Wrap ``env``, a vector env taking and returning jax arrays."""
        jnp = import_optional("jax.numpy", extra="jax", user="JaxToNumpy")
        super().__init__(env, env_xp=jnp, target_xp=np)
