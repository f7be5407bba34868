"""JaxToNumpy: without jax, it raises DependencyNotInstalled naming the extra."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import vecgym
from tests.support.processes import run_jax_wrappers_check
from vecgym import error
from vecgym.wrappers.jax_to_numpy import JaxToNumpy, jax_to_numpy, numpy_to_jax


def test_missing_jax_raises_dependency_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)
    monkeypatch.setitem(sys.modules, "jax.numpy", None)
    with pytest.raises(error.DependencyNotInstalled, match=r'pip install "vecgym\[jax\]"'):
        JaxToNumpy(vecgym.make("CartPole-v1"))
    with pytest.raises(error.DependencyNotInstalled, match="numpy_to_jax"):
        numpy_to_jax(np.zeros(2))


def test_jax_to_numpy_needs_no_jax_for_numpy_values() -> None:
    out = jax_to_numpy({"a": [np.float32(1.0)]})
    assert isinstance(out["a"][0], np.ndarray)


def test_with_jax() -> None:
    """JaxToNumpy around an env of jax arrays returns what Gymnasium's JaxToNumpy returns, on reset
    and every step (in a fresh interpreter: tests/support/jax_wrappers_check.py)."""
    run_jax_wrappers_check("numpy")
