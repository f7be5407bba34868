"""Running a snippet of Python in a fresh interpreter (imports start from nothing there)."""

from __future__ import annotations

import subprocess
import sys

__all__ = ["python_stdout"]


def python_stdout(code: str, timeout: float = 120) -> str:
    """Run ``python -c code``; it must succeed. Its stdout, stripped."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=True
    )
    return result.stdout.strip()
