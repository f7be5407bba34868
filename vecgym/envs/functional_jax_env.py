"""Gymnasium's ``FunctionalJaxEnv`` and ``FunctionalJaxVectorEnv``, at Gymnasium's module path (the
`jax` extra).

They run a jax ``FuncEnv`` (see :mod:`vecgym.experimental.functional`) as an env or a vector env;
the names here are Gymnasium's own classes (see :mod:`vecgym.envs.gymnasium_modules`). Importing
this module without the extra raises :class:`~vecgym.error.DependencyModuleNotFound` naming it.
"""

from __future__ import annotations

from vecgym.envs.gymnasium_modules import gymnasium_package, reexport

__all__ = reexport(gymnasium_package(__name__), globals())
