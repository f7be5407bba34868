"""Running a snippet of Python in a fresh interpreter (imports start from nothing there)."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

__all__ = [
    "installed",
    "python_stdout",
    "run_jax_script",
    "run_jax_wrappers_check",
    "run_support_script",
]


def installed(distribution: str) -> bool:
    """Whether the distribution is installed (its metadata, not ``find_spec``: the pytest process
    blocks ``import jax``)."""
    try:
        importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def python_stdout(code: str, timeout: float = 120, env: dict[str, str] | None = None) -> str:
    """Run ``python -c code`` (in ``env``, if given, else this process's environment); it must
    succeed. Its stdout, stripped."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
        env=env,
    )
    return result.stdout.strip()


def run_jax_wrappers_check(target: str) -> None:
    """Run ``tests.support.jax_wrappers_check target`` in a fresh interpreter (the pytest
    process runs without jax: see tests/conftest.py); skip where jax, or Gymnasium's array-API
    helper its wrappers need, is not installed."""
    needs = ("array-api-compat", *(["torch"] if target == "torch" else []))
    run_jax_script("jax_wrappers_check", target, needs=needs)


def run_jax_script(name: str, *args: str, needs: tuple[str, ...] = ()) -> None:
    """:func:`run_support_script` for a script that needs jax (the pytest process runs without
    jax: see tests/conftest.py); skip where jax or one of ``needs`` is not installed."""
    run_support_script(name, *args, needs=("jax", *needs))


def run_support_script(name: str, *args: str, needs: tuple[str, ...] = ()) -> str:
    """Run ``python -m tests.support.<name> args`` (from the repository root) in a fresh
    interpreter; it must succeed and print ``ok`` last. Skip where one of the distributions
    ``needs`` is not installed. Its stdout."""
    # Installed distributions, not find_spec: the pytest process blocks `import jax`.
    for distribution in needs:
        if not installed(distribution):
            pytest.skip(f"{distribution} is not installed (the test extra installs it)")
    result = subprocess.run(
        [sys.executable, "-m", f"tests.support.{name}", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout.strip().endswith("ok"), result.stdout
    return result.stdout
