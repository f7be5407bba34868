"""Gymnasium's ``gymnasium.spaces.multi_binary`` path.

Re-exports the objects of :mod:`vecgym.core.spaces.multi_binary`.
"""

from __future__ import annotations

from vecgym.core.spaces.multi_binary import MultiBinary as MultiBinary

__all__ = ["MultiBinary"]
