"""Run as a script (``python jax_wrappers_check.py numpy|torch``), never imported by the tests:
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


def _same(ours: Any, theirs: Any, path: str) -> None:
    assert type(ours) is type(theirs), (path, type(ours), type(theirs))
    if isinstance(ours, tuple | list):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            _same(a, b, f"{path}[{i}]")
    elif isinstance(ours, dict):
        assert list(ours) == list(theirs), path
        for key in ours:
            _same(ours[key], theirs[key], f"{path}[{key!r}]")
    elif hasattr(ours, "dtype") and hasattr(ours, "shape"):
        assert ours.dtype == theirs.dtype, path
        assert ours.shape == theirs.shape, path
        assert np.array_equal(np.asarray(ours), np.asarray(theirs)), path
    else:
        assert ours == theirs, (path, ours, theirs)


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

    _same(ours.reset(seed=0), theirs.reset(seed=0), "reset")
    for t in range(4):
        _same(ours.step(action([0.25 * t, 0.5])), theirs.step(action([0.25 * t, 0.5])), f"step {t}")
    print("ok")


if __name__ == "__main__":
    main(sys.argv[1])
