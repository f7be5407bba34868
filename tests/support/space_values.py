"""Compare values (samples, flat forms, JSON forms) of vecgym spaces with Gymnasium's.

Used by the differential space tests: :func:`assert_same_value` walks two values and fails unless
they have the same structure, the same numpy dtypes and kinds of scalars, and equal contents.
Graph instances of the two libraries (two different ``NamedTuple`` classes) compare by fields.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _is_graph_instance(value: Any) -> bool:
    return type(value).__name__ == "GraphInstance" and isinstance(value, tuple)


def _is_other_array(value: Any) -> bool:
    """Whether ``value`` is an array of another framework than numpy (it has ``__dlpack__``)."""
    return hasattr(value, "__dlpack__") and not isinstance(value, (np.ndarray, np.generic))


def assert_same_value(ours: Any, theirs: Any, path: str = "value") -> None:
    """Fail unless ``ours`` and ``theirs`` are the same value, down to dtypes and container types.

    Args:
        ours: a value produced by vecgym.
        theirs: the value Gymnasium produced.
        path: where in the outer value we are (for the failure message).
    """
    if _is_graph_instance(ours) or _is_graph_instance(theirs):
        assert _is_graph_instance(ours), path
        assert _is_graph_instance(theirs), path
        for field in ("nodes", "edges", "edge_links"):
            assert_same_value(getattr(ours, field), getattr(theirs, field), f"{path}.{field}")
        return
    assert type(ours) is type(theirs), f"{path}: {type(ours)} != {type(theirs)}"
    if isinstance(ours, np.ndarray) or _is_other_array(ours):  # numpy, jax or torch
        assert ours.dtype == theirs.dtype, f"{path}: dtype {ours.dtype} != {theirs.dtype}"
        assert ours.shape == theirs.shape, f"{path}: shape {ours.shape} != {theirs.shape}"
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs), err_msg=path)
    elif isinstance(ours, (tuple, list)):
        assert len(ours) == len(theirs), f"{path}: length {len(ours)} != {len(theirs)}"
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert_same_value(a, b, f"{path}[{i}]")
    elif isinstance(ours, dict):
        assert list(ours) == list(theirs), f"{path}: keys {list(ours)} != {list(theirs)}"
        for key in ours:
            assert_same_value(ours[key], theirs[key], f"{path}[{key!r}]")
    elif isinstance(ours, (float, np.floating)) and np.isnan(ours):
        assert np.isnan(theirs), path
    else:
        assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"
