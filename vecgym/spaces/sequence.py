"""Gymnasium's ``gymnasium.spaces.sequence`` path: re-exports :mod:`vecgym.core.spaces.sequence`."""

from __future__ import annotations

from vecgym.core.spaces.sequence import Sequence as Sequence

__all__ = ["Sequence"]
