"""Gymnasium's Box2D environments, at Gymnasium's module paths (the `box2d` extra).

``from vecgym.envs.box2d import LunarLander`` and every module below, such as
``vecgym.envs.box2d.lunar_lander`` (with its ``heuristic`` and ``demo_heuristic_lander``), give
Gymnasium's own objects (see :mod:`vecgym.envs.gymnasium_modules`). Importing this package without
the extra raises :class:`~vecgym.error.DependencyNotInstalled` naming it.

Example:
    >>> from vecgym.envs.box2d import BipedalWalker, CarRacing, LunarLander
    >>> from vecgym.envs.box2d.lunar_lander import heuristic
    >>> LunarLander.__name__, callable(heuristic)
    ('LunarLander', True)
"""

from __future__ import annotations

from vecgym.envs.gymnasium_modules import gymnasium_package, reexport

__all__ = reexport(gymnasium_package(__name__), globals())
