"""Gymnasium's ``gymnasium.spaces.graph`` path: re-exports :mod:`vecgym.core.spaces.graph`."""

from __future__ import annotations

from vecgym.core.spaces.graph import Graph as Graph
from vecgym.core.spaces.graph import GraphInstance as GraphInstance

__all__ = ["Graph", "GraphInstance"]
