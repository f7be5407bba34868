"""Gymnasium's ``gymnasium.spaces.text`` path: re-exports :mod:`vecgym.core.spaces.text`."""

from __future__ import annotations

from vecgym.core.spaces.text import Text as Text
from vecgym.core.spaces.text import alphanumeric as alphanumeric

__all__ = ["Text", "alphanumeric"]
