"""Import an optional dependency, or raise :class:`~vecgym.error.DependencyNotInstalled`.

vecgym's runtime dependencies are numpy, cloudpickle and psutil; everything else (pygame,
matplotlib, imageio-ffmpeg, torch, jax, old gym, ...) comes with an extra and is imported where it
is first needed, through :func:`import_extra`, with a message that names the extra.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from vecgym import error

__all__ = ["import_extra"]


def import_extra(module_name: str, message: str) -> ModuleType:
    """``importlib.import_module(module_name)``, or ``DependencyNotInstalled(message)`` (chained
    to the ``ImportError``) where it cannot be imported.

    Args:
        module_name: the module to import (``"pygame"``, ``"matplotlib.pyplot"``, ...).
        message: the error's message; it names the extra that installs the module.
    """
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        raise error.DependencyNotInstalled(message) from exc
