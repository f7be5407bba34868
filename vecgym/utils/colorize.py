"""Wrap text in ANSI escape codes so that a terminal shows it in colour."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["color2num", "colorize"]

#: ANSI foreground colour code of each colour name (add 10 for the background colour).
color2num: Final[Mapping[str, int]] = {
    "gray": 30,
    "red": 31,
    "green": 32,
    "yellow": 33,
    "blue": 34,
    "magenta": 35,
    "cyan": 36,
    "white": 37,
    "crimson": 38,
}

_HIGHLIGHT_OFFSET: Final = 10
_BOLD_CODE: Final = "1"


def colorize(string: str, color: str, bold: bool = False, highlight: bool = False) -> str:
    """Return ``string`` wrapped in the escape codes that colour it.

    Args:
        string: the text.
        color: one of the names in :data:`color2num` (``gray``, ``red``, ``green``, ``yellow``,
            ``blue``, ``magenta``, ``cyan``, ``white``, ``crimson``).
        bold: also make the text bold.
        highlight: colour the background instead of the text.

    Returns:
        The text between the colour code and the reset code.

    Raises:
        KeyError: ``color`` is not a known colour name (as in Gymnasium).

    Example:
        >>> colorize("hi", "red", bold=True)
        '\\x1b[31;1mhi\\x1b[0m'
    """
    code = color2num[color] + (_HIGHLIGHT_OFFSET if highlight else 0)
    codes = [str(code), _BOLD_CODE] if bold else [str(code)]
    return f"\x1b[{';'.join(codes)}m{string}\x1b[0m"
