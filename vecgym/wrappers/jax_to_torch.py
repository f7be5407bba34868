"""Drive a jax environment with torch tensors: :class:`JaxToTorch`.

jax and torch are optional dependencies (``pip install "vecgym[jax,torch]"``), imported only
when the wrapper is built or a conversion function is called; this module imports without them.
"""

from __future__ import annotations

from typing import Any

from vecgym.core.env import Env
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.wrappers.array_conversion import ArrayConversion, array_conversion, import_optional

__all__ = ["Device", "JaxToTorch", "jax_to_torch", "torch_to_jax"]

Device = Any  # `str | torch.device`; torch is not imported here


def _jnp(user: str) -> Any:
    return import_optional("jax.numpy", extra="jax", user=user)


def _torch(user: str) -> Any:
    return import_optional("torch", extra="torch", user=user)


def torch_to_jax(value: Any, device: Any | None = None) -> Any:
    """Convert torch tensors in ``value`` (recursively) to jax arrays.

    Raises:
        vecgym.error.DependencyNotInstalled: jax is not installed.
    """
    return array_conversion(value, xp=_jnp("torch_to_jax"), device=device)


def jax_to_torch(value: Any, device: Device | None = None) -> Any:
    """Convert jax arrays in ``value`` (recursively) to torch tensors on ``device``.

    Raises:
        vecgym.error.DependencyNotInstalled: torch is not installed.
    """
    return array_conversion(value, xp=_torch("jax_to_torch"), device=device)


class JaxToTorch(ArrayConversion, RecordConstructorArgs):
    """Drive a jax-based environment with torch tensors.

    Actions are given as tensors and converted to jax arrays; observations and infos come back as
    tensors on ``device``, rewards as ``float`` and the flags as ``bool``.

    Example:
        >>> env = JaxToTorch(jax_env, device="cpu")  # doctest: +SKIP
        >>> obs, _ = env.reset(seed=0)  # doctest: +SKIP
        >>> type(obs)  # doctest: +SKIP
        <class 'torch.Tensor'>
    """

    def __init__(self, env: Env[Any, Any], device: Device | None = None) -> None:
        """Wrap ``env``.

        Args:
            env: the jax-based environment.
            device: the torch device of the returned tensors (``None``: torch's default).

        Raises:
            vecgym.error.DependencyNotInstalled: jax or torch is not installed.
        """
        jnp = _jnp("JaxToTorch")
        torch = _torch("JaxToTorch")
        RecordConstructorArgs.__init__(self, device=device)
        ArrayConversion.__init__(self, env=env, env_xp=jnp, target_xp=torch, target_device=device)
        self.device: Device | None = device
