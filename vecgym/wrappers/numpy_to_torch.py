"""Drive a numpy environment with torch tensors: :class:`NumpyToTorch`.

torch is an optional dependency (``pip install "vecgym[torch]"``), imported only when the wrapper
is built or a conversion function is called; this module itself imports without it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vecgym.core.env import Env
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.wrappers.array_conversion import ArrayConversion, array_conversion, import_optional

__all__ = ["Device", "NumpyToTorch", "numpy_to_torch", "torch_to_numpy"]

Device = Any  # `str | torch.device`; torch is not imported here


def _torch(user: str) -> Any:
    return import_optional("torch", extra="torch", user=user)


def torch_to_numpy(value: Any, device: Device | None = None) -> Any:
    """Convert torch tensors in ``value`` (recursively) to numpy arrays; ``device`` is ignored."""
    return array_conversion(value, xp=np, device=device)


def numpy_to_torch(value: Any, device: Device | None = None) -> Any:
    """Convert numpy arrays and numbers in ``value`` (recursively) to torch tensors on ``device``.

    Raises:
        vecgym.error.DependencyNotInstalled: torch is not installed.
    """
    return array_conversion(value, xp=_torch("numpy_to_torch"), device=device)


class NumpyToTorch(ArrayConversion, RecordConstructorArgs):
    """Drive a numpy-based environment with torch tensors.

    Actions are given as tensors and converted to numpy arrays; observations and infos come back
    as tensors on ``device``, rewards as ``float`` and the flags as ``bool``.

    Example:
        >>> import torch  # doctest: +SKIP
        >>> from tests.support.generic_env import GenericTestEnv  # doctest: +SKIP
        >>> env = NumpyToTorch(GenericTestEnv())  # doctest: +SKIP
        >>> obs, _ = env.reset(seed=0)  # doctest: +SKIP
        >>> type(obs)  # doctest: +SKIP
        <class 'torch.Tensor'>
    """

    def __init__(self, env: Env[Any, Any], device: Device | None = None) -> None:
        """Wrap ``env``.

        Args:
            env: the numpy-based environment.
            device: the torch device of the returned tensors (``None``: torch's default).

        Raises:
            vecgym.error.DependencyNotInstalled: torch is not installed.
        """
        torch = _torch("NumpyToTorch")
        RecordConstructorArgs.__init__(self, device=device)
        ArrayConversion.__init__(self, env=env, env_xp=np, target_xp=torch, target_device=device)
        self.device: Device | None = device
