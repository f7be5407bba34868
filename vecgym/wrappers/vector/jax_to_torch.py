"""The vector :class:`JaxToTorch` (needs the ``jax`` and ``torch`` extras, imported when built)."""

from __future__ import annotations

from typing import Any

from vecgym.vector.vector_env import VectorEnv
from vecgym.wrappers.array_conversion import Device, import_optional
from vecgym.wrappers.vector.array_conversion import ArrayConversion

__all__ = ["JaxToTorch"]


class JaxToTorch(ArrayConversion):
    """Drive a jax vector env with torch tensors (returned on ``device``).

    Raises:
        DependencyNotInstalled: jax or torch is missing (the message names the extra).
    """

    def __init__(self, env: VectorEnv[Any, Any, Any], device: Device | None = None) -> None:
        """Wrap ``env``; ``device`` is where the returned tensors are put."""
        jnp = import_optional("jax.numpy", extra="jax", user="JaxToTorch")
        torch = import_optional("torch", extra="torch", user="JaxToTorch")
        super().__init__(env, env_xp=jnp, target_xp=torch, target_device=device)
        self.device: Device | None = device
