"""Stateful vector wrappers give the same results over AsyncVectorEnv as over SyncVectorEnv."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym.wrappers.vector as vw
from tests.support.counting_env import CountingEnv
from vecgym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

WRAPPERS: list[Callable[[Any], Any]] = [
    vw.RecordEpisodeStatistics,
    vw.NormalizeObservation,
    lambda envs: vw.FrameStackObservation(envs, 2),
]


def _strip_time(infos: dict[str, Any]) -> dict[str, Any]:
    if "episode" in infos:
        infos = {**infos, "episode": {k: v for k, v in infos["episode"].items() if k != "t"}}
    return infos


def _equal(a: Any, b: Any) -> None:
    if isinstance(a, dict):
        assert set(a) == set(b)
        for key in a:
            _equal(a[key], b[key])
    elif isinstance(a, tuple | list) or (isinstance(a, np.ndarray) and a.dtype == object):
        for x, y in zip(a, b, strict=True):
            _equal(x, y)
    else:
        np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float))


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_async_matches_sync(mode: AutoresetMode, wrapper: Callable[[Any], Any]) -> None:
    make = functools.partial(CountingEnv, terminate_at=3)
    sync = wrapper(SyncVectorEnv([make, make], autoreset_mode=mode))
    async_ = wrapper(AsyncVectorEnv([make, make], context="fork", autoreset_mode=mode))
    try:
        _equal(sync.reset(seed=0), async_.reset(seed=0))
        actions = np.ones(2, dtype=np.int64)
        for step in range(7):
            a, b = sync.step(actions), async_.step(actions)
            _equal(a[:-1], b[:-1])
            _equal(_strip_time(a[-1]), _strip_time(b[-1]))
            ended = np.logical_or(a[2], a[3])
            if step == 1:
                mask = np.array([True, False])
            elif mode is AutoresetMode.DISABLED and ended.any():
                mask = ended
            else:
                continue
            _equal(
                sync.reset(options={"reset_mask": mask}), async_.reset(options={"reset_mask": mask})
            )
    finally:
        sync.close()
        async_.close()
