"""vecgym envs in the Gymnasium world and back: :func:`to_gymnasium`, :func:`from_gymnasium`,
:func:`as_gymnasium_space` (their home is :mod:`vecgym.integrations.gymnasium_interop`).

Example:
    >>> import gymnasium
    >>> import vecgym
    >>> from vecgym.interop import to_gymnasium
    >>> envs = to_gymnasium(vecgym.make_vec("CartPole-v1", num_envs=2))
    >>> isinstance(envs, gymnasium.vector.VectorEnv)
    True
    >>> envs.close()
"""

from __future__ import annotations

from vecgym.integrations.gymnasium_interop import (
    as_gymnasium_space as as_gymnasium_space,
)
from vecgym.integrations.gymnasium_interop import from_gymnasium as from_gymnasium
from vecgym.integrations.gymnasium_interop import to_gymnasium as to_gymnasium

__all__ = ["as_gymnasium_space", "from_gymnasium", "to_gymnasium"]
