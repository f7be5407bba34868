"""Comparison helpers for the vector tests (batched infos hold object arrays)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.support.space_values import assert_same_value


def assert_same_batch(ours: Any, theirs: Any, path: str = "value") -> None:
    """Like ``assert_same_value``, but object arrays are compared element by element."""
    if isinstance(ours, np.ndarray) and ours.dtype == object:
        assert isinstance(theirs, np.ndarray), path
        assert theirs.dtype == object, path
        assert ours.shape == theirs.shape, path
        for i, (a, b) in enumerate(zip(ours.ravel(), theirs.ravel(), strict=True)):
            assert_same_batch(a, b, f"{path}[{i}]")
    elif isinstance(ours, dict):
        assert isinstance(theirs, dict), path
        assert list(ours) == list(theirs), f"{path}: keys {list(ours)} != {list(theirs)}"
        for key in ours:
            assert_same_batch(ours[key], theirs[key], f"{path}[{key!r}]")
    elif isinstance(ours, tuple) and not hasattr(ours, "_fields"):
        assert type(ours) is type(theirs), path
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same_batch(a, b, f"{path}[{i}]")
    else:
        assert_same_value(ours, theirs, path)
