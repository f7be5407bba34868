"""Adapters from vecgym to other libraries' interfaces (the top layer of the package).

- :mod:`vecgym.integrations.gymnasium_interop` (public as :mod:`vecgym.interop`): a vecgym env
  or vector env as a real ``gymnasium.Env`` / ``gymnasium.vector.VectorEnv``, and back.
- :mod:`vecgym.integrations.sb3`: :class:`~vecgym.integrations.sb3.SB3VecEnv`, a
  Stable-Baselines3 ``VecEnv`` over any vecgym vector env.
- :mod:`vecgym.integrations.torchrl` and :mod:`vecgym.integrations.rllib`: recipes for TorchRL's
  ``GymWrapper`` and RLlib's env creators.

Each module imports its library on first use; a missing one raises
:class:`vecgym.error.DependencyNotInstalled` naming the extra that installs it. Importing this
package imports none of them.
"""

from __future__ import annotations

__all__: list[str] = []
