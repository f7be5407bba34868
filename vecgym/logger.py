"""Warnings and errors reported to the user, in Gymnasium's ``gymnasium.logger`` form.

Messages go through :mod:`warnings`, so users control them with the usual warning filters.
Unlike Gymnasium, importing vecgym installs no warning filter of its own (nothing global changes at
import time). A :func:`deprecation` warning is attributed to the user's code that led to it (the
first frame outside vecgym), so Python's default filters show it where that code is the script
or the notebook (``__main__``), as Gymnasium's filter shows its own.
"""

from __future__ import annotations

import sys
import warnings
from types import FrameType

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
    """Warn with a :class:`DeprecationWarning`, attributed to the first frame outside vecgym
    (the user's ``make("CartPole-v0")`` line, say) or, where there is none, to the caller."""
    warn(msg, *args, category=DeprecationWarning, stacklevel=_user_stacklevel())


def _is_vecgym_frame(frame: FrameType) -> bool:
    name = str(frame.f_globals.get("__name__", ""))
    return name == "vecgym" or name.startswith("vecgym.")


def _user_stacklevel() -> int:
    """The ``stacklevel`` for :func:`warn`, called by the caller of this function's caller, that
    names the first frame outside vecgym (``2``, that caller's caller, if every frame is
    vecgym's)."""
    frame: FrameType | None = sys._getframe(2)  # the caller of deprecation: stacklevel 2
    level = 2
    while frame is not None and _is_vecgym_frame(frame):
        frame = frame.f_back
        level += 1
    return 2 if frame is None else level


def error(msg: str, *args: object) -> None:
    """Report an error message as a warning unless ``min_level`` is above ``ERROR``."""
    if min_level <= ERROR:
        text = msg % args if args else msg
        warnings.warn(f"ERROR: {text}", stacklevel=3)
