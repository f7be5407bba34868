"""Warnings and errors reported to the user, in Gymnasium's ``gymnasium.logger`` form.

Messages go through :mod:`warnings`, so users control them with the usual warning filters.
Unlike Gymnasium, importing vecgym installs no warning filter of its own (nothing global changes at
import time).
"""

from __future__ import annotations

import warnings

__all__ = [
    "DEBUG",
    "DISABLED",
    "ERROR",
    "INFO",
    "WARN",
    "deprecation",
    "error",
    "min_level",
    "warn",
]

DEBUG = 10
INFO = 20
WARN = 30
ERROR = 40
DISABLED = 50

#: Messages below this level are dropped; set ``vecgym.logger.min_level = vecgym.logger.ERROR``
#: to silence warnings.
min_level = WARN


def warn(
    msg: str,
    *args: object,
    category: type[Warning] | None = None,
    stacklevel: int = 1,
) -> None:
    """Warn the user with ``msg % args`` unless ``min_level`` is above ``WARN``.

    Args:
        msg: the message, a ``%`` format string when ``args`` are given.
        *args: values for the format string.
        category: the warning category (``UserWarning`` when ``None``).
        stacklevel: how many frames above the caller to attribute the warning to.
    """
    if min_level <= WARN:
        text = msg % args if args else msg
        warnings.warn(f"WARN: {text}", category=category, stacklevel=stacklevel + 1)


def deprecation(msg: str, *args: object) -> None:
    """Warn with a :class:`DeprecationWarning`."""
    warn(msg, *args, category=DeprecationWarning, stacklevel=2)


def error(msg: str, *args: object) -> None:
    """Report an error message as a warning unless ``min_level`` is above ``ERROR``."""
    if min_level <= ERROR:
        text = msg % args if args else msg
        warnings.warn(f"ERROR: {text}", stacklevel=3)
