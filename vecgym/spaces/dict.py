"""Gymnasium's ``gymnasium.spaces.dict`` path: re-exports :mod:`vecgym.core.spaces.dict`."""

from __future__ import annotations

from vecgym.core.spaces.dict import Dict as Dict

__all__ = ["Dict"]
