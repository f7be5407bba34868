"""Run as a script (``python -m tests.support.jax_wrappers_check numpy|torch``), never imported by
the tests:
jax starts threads and warns at every later ``fork``, so it stays out of the pytest process.

vecgym's ``JaxToNumpy`` / ``JaxToTorch`` and Gymnasium's, each around the same scripted env that
takes jax actions and returns jax observations, rewards, flags and (nested) infos, must return
the same values with the same types, dtypes and shapes on reset and on every step. Prints
``ok``; an ``AssertionError`` says where they differ.
"""

from __future__ import annotations

import sys
from typing import Any

import gymnasium
import jax
import jax.numpy as jnp
import numpy as np

import vecgym
from tests.support.space_values import assert_same_value
from vecgym.spaces import Box


class _Script:
    """Takes jax actions; returns jax observations, rewards, flags and infos."""

    t = 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)  # type: ignore[misc]
        self.t = 0
        return jnp.zeros(3, dtype=jnp.float32), {"t": jnp.array(0), "nested": {"x": jnp.ones(2)}}

    def step(self, action: Any) -> Any:
        assert isinstance(action, jax.Array), type(action)
        self.t += 1
        obs = jnp.full(3, jnp.sum(action), dtype=jnp.float32)
        info = {"t": jnp.array(self.t)}
        return obs, jnp.float32(0.5 * self.t), jnp.array(self.t >= 3), jnp.array(False), info


class Ours(_Script, vecgym.Env[Any, Any]):
    observation_space = Box(-10, 10, (3,), np.float32)
    action_space = Box(-1, 1, (2,), np.float32)


class Theirs(_Script, gymnasium.Env[Any, Any]):
    observation_space = gymnasium.spaces.Box(-10, 10, (3,), np.float32)
    action_space = gymnasium.spaces.Box(-1, 1, (2,), np.float32)


def main(target: str) -> None:
    if target == "numpy":
        ours: Any = vecgym.wrappers.JaxToNumpy(Ours())
        theirs: Any = gymnasium.wrappers.JaxToNumpy(Theirs())

        def action(values: list[float]) -> Any:
            return np.asarray(values, dtype=np.float32)

    else:
        import torch

        ours = vecgym.wrappers.JaxToTorch(Ours())
        theirs = gymnasium.wrappers.JaxToTorch(Theirs())

        def action(values: list[float]) -> Any:
            return torch.tensor(values, dtype=torch.float32)

    assert_same_value(ours.reset(seed=0), theirs.reset(seed=0), "reset")
    for t in range(4):
        assert_same_value(
            ours.step(action([0.25 * t, 0.5])), theirs.step(action([0.25 * t, 0.5])), f"step {t}"
        )
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1])
