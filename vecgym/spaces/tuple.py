"""Gymnasium's ``gymnasium.spaces.tuple`` path: re-exports :mod:`vecgym.core.spaces.tuple`."""

from __future__ import annotations

from vecgym.core.spaces.tuple import Tuple as Tuple

__all__ = ["Tuple"]
