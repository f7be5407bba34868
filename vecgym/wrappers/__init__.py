"""Wrappers that change part of an environment's behaviour, under Gymnasium's names.

For now this holds the wrappers :func:`vecgym.make` applies; the rest of Gymnasium's wrapper
list is added beside them.
"""

from __future__ import annotations

from vecgym.wrappers.common import OrderEnforcing, PassiveEnvChecker, TimeLimit
from vecgym.wrappers.rendering import RenderCollection

__all__ = ["OrderEnforcing", "PassiveEnvChecker", "RenderCollection", "TimeLimit"]
