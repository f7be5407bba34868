"""JaxToTorch: without jax (or torch), it raises DependencyNotInstalled naming the extra."""

from __future__ import annotations

import sys

import pytest

import vecgym
from tests.support.processes import run_jax_wrappers_check
from vecgym import error
from vecgym.wrappers.jax_to_torch import JaxToTorch, jax_to_torch, torch_to_jax


def test_missing_jax_raises_dependency_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)
    monkeypatch.setitem(sys.modules, "jax.numpy", None)
    with pytest.raises(error.DependencyNotInstalled, match=r'pip install "vecgym\[jax\]"'):
        JaxToTorch(vecgym.make("CartPole-v1"))
    with pytest.raises(error.DependencyNotInstalled, match="torch_to_jax"):
        torch_to_jax(1.0)


def test_missing_torch_raises_dependency_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(error.DependencyNotInstalled, match=r'pip install "vecgym\[torch\]"'):
        jax_to_torch(1.0)


def test_with_jax_and_torch() -> None:
    """JaxToTorch around an env of jax arrays returns what Gymnasium's JaxToTorch returns, on reset
    and every step (in a fresh interpreter: tests/support/jax_wrappers_check.py)."""
    run_jax_wrappers_check("torch")
