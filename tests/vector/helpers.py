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


def pickled_infos_async_vector_env(*args: Any, **kwargs: Any) -> Any:
    """An AsyncVectorEnv subclass overriding ``_add_info``, which keeps every info on the
    pickled path (the reference for the shared-memory infos), made with these arguments."""
    from vecgym.vector import AsyncVectorEnv

    class PickledInfos(AsyncVectorEnv):  # type: ignore[type-arg,misc]
        def _add_info(self, vector_infos: Any, env_info: Any, env_num: int) -> Any:
            return super()._add_info(vector_infos, env_info, env_num)

    return PickledInfos(*args, **kwargs)


def recv_like_the_pickled_path(
    ours: Any, reference: Any, groups: list[Any], steps: int, seed: int
) -> list[dict[str, Any]]:
    """Reset both with ``seed``, then ``send`` the ``groups`` of envs in turn with the same random
    ``Discrete(2)`` actions and check that each ``recv`` batch is the same; the infos received."""
    rng = np.random.default_rng(seed)
    assert_same_batch(ours.reset(seed=seed), reference.reset(seed=seed), "reset")
    received = []
    for t in range(steps):
        ids = groups[t % len(groups)]
        actions = rng.integers(0, 2, len(ids))
        ours.send(actions, ids)
        reference.send(actions, ids)
        got, want = ours.recv(timeout=30), reference.recv(timeout=30)
        assert_same_batch(got, want, f"batch {t}")
        received.append(got[4])
    return received
