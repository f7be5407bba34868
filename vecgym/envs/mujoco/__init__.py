"""Gymnasium's MuJoCo environments, at Gymnasium's module paths (the `mujoco` extra).

``from vecgym.envs.mujoco import MujocoEnv`` (the base class of a custom MuJoCo env) and every
module below, such as ``vecgym.envs.mujoco.half_cheetah_v5``, give Gymnasium's own objects (see
:mod:`vecgym.envs.gymnasium_modules`). Importing this package without the extra raises
:class:`~vecgym.error.DependencyNotInstalled` naming it.

Example:
    >>> from vecgym.envs.mujoco import MujocoEnv
    >>> from vecgym.envs.mujoco.half_cheetah_v5 import HalfCheetahEnv
    >>> issubclass(HalfCheetahEnv, MujocoEnv)
    True
"""

from __future__ import annotations

from vecgym.envs.gymnasium_modules import gymnasium_package, reexport

__all__ = reexport(gymnasium_package(__name__), globals())
