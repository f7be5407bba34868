"""Gymnasium's ``gymnasium.spaces.oneof`` path: re-exports :mod:`vecgym.core.spaces.oneof`."""

from __future__ import annotations

from vecgym.core.spaces.oneof import OneOf as OneOf

__all__ = ["OneOf"]
