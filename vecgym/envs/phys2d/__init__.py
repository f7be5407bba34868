"""Gymnasium's jax 2D-physics environments, at Gymnasium's module paths (the `jax` extra).

``from vecgym.envs.phys2d import CartPoleJaxEnv`` (or ``CartPoleFunctional``, the functional
definition) and every module below, such as ``vecgym.envs.phys2d.cartpole``, give Gymnasium's own
objects (see :mod:`vecgym.envs.gymnasium_modules`). ``make("phys2d/CartPole-v1")`` and
``make_vec("phys2d/CartPole-v1", num_envs)`` build them through Gymnasium's registry. Importing
this package without the extra raises :class:`~vecgym.error.DependencyModuleNotFound` naming it.
"""

from __future__ import annotations

from vecgym.envs.gymnasium_modules import gymnasium_package, reexport

__all__ = reexport(gymnasium_package(__name__), globals())
