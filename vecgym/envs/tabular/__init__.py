"""Gymnasium's jax tabular environments, at Gymnasium's module paths (the `jax` extra).

``from vecgym.envs.tabular import BlackJackJaxEnv`` and every module below, such as
``vecgym.envs.tabular.cliffwalking``, give Gymnasium's own objects (see
:mod:`vecgym.envs.gymnasium_modules`); ``make("tabular/Blackjack-v0")`` builds them through
Gymnasium's registry. Importing this package without the extra raises
:class:`~vecgym.error.DependencyModuleNotFound` naming it.
"""

from __future__ import annotations

from vecgym.envs.gymnasium_modules import gymnasium_package, reexport

__all__ = reexport(gymnasium_package(__name__), globals())
