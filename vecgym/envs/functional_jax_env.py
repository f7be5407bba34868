"""Gymnasium's ``FunctionalJaxEnv`` and ``FunctionalJaxVectorEnv``, at Gymnasium's module path (the
`jax` extra).

They run a jax ``FuncEnv`` (see :mod:`vecgym.experimental.functional`) as an env or a vector env;
the names here are Gymnasium's own classes (see :mod:`vecgym.envs.gymnasium_modules`). Importing
this module without the extra raises :class:`~vecgym.error.DependencyModuleNotFound` naming it.

A ``FuncEnv`` written on vecgym declares vecgym spaces, and ``FunctionalJaxVectorEnv`` batches them
with Gymnasium's ``batch_space``, which knows only Gymnasium's spaces. Importing this module
teaches it vecgym's (:func:`~vecgym.envs.gymnasium_modules.batch_vecgym_spaces_in_gymnasium`), so
such a vector env's ``observation_space`` is vecgym's batched space, as ``batch_space`` gives.
"""

from __future__ import annotations

from vecgym.envs.gymnasium_modules import (
    batch_vecgym_spaces_in_gymnasium,
    gymnasium_package,
    reexport,
)

__all__ = reexport(gymnasium_package(__name__), globals())
batch_vecgym_spaces_in_gymnasium()
