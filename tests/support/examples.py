"""Importing and running the scripts in examples/ from tests."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

__all__ = ["EXAMPLES", "imported_example", "iteration_marks", "run_example"]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def imported_example(name: str) -> Iterator[ModuleType]:
    """Yield the example module ``name`` imported from examples/ (for a fixture to yield from);
    examples/ is on ``sys.path`` only meanwhile."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(EXAMPLES))


def run_example(script: str, *args: str, timeout: float) -> list[str]:
    """Run ``examples/<script>`` with ``args`` in a fresh interpreter; assert it succeeded and
    return its stdout lines."""
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def iteration_marks(lines: list[str]) -> list[str]:
    """The ``iteration=N`` marks a CleanRL-style example prints, in order."""
    return [line.split()[0] for line in lines if line.startswith("iteration=")]
