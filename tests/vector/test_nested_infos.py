"""Nested info dicts (``RecordEpisodeStatistics``' ``episode``) through AsyncVectorEnv's shared
info slots: the batches equal SyncVectorEnv's and Gymnasium's, in every autoreset mode, for
``step`` and for ``send`` / ``recv``, and nothing is pickled once the keys are learned."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.vector.helpers import (
    assert_same_batch,
    pickled_infos_async_vector_env,
    recv_like_the_pickled_path,
)
from vecgym.spaces import Box, Discrete
from vecgym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from vecgym.vector._async.nested import NESTED_SEP

gymnasium = pytest.importorskip("gymnasium")


class _StatsEnv(vecgym.Env[Any, Any]):
    """Episodes of ``3 + (index + episode) % 4`` steps; at each episode end the info holds an
    ``episode`` dict (return and length, as RecordEpisodeStatistics adds) and, in odd envs, a
    deeper ``stats`` dict; every step has ``x``."""

    def __init__(self, index: int) -> None:
        self.observation_space = Box(-100.0, 100.0, (2,), np.float32)
        self.action_space = Discrete(2)
        self.index, self.t, self.episode, self.total = index, 0, 0, 0.0

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self.t, self.total = 0, 0.0
        self.episode += 1
        return np.zeros(2, np.float32), {}

    def step(self, action: Any) -> Any:
        self.t += 1
        reward = float(self.np_random.random())
        self.total += reward
        info: dict[str, Any] = {"x": self.t * 0.5}
        ended = self.t >= 3 + (self.index + self.episode) % 4
        if ended:
            info["episode"] = {"r": self.total, "l": self.t}
            if self.index % 2:
                info["stats"] = {"inner": {"peak": np.float32(self.total)}, "n": self.episode}
        obs = np.full(2, self.t, np.float32)
        return obs, reward, ended and self.index % 3 == 0, ended and self.index % 3 != 0, info


def _fns(num_envs: int) -> list[Any]:
    return [lambda i=i: _StatsEnv(i) for i in range(num_envs)]


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("parent_envs", [0, 2])
def test_nested_infos_match_sync(mode: AutoresetMode, parent_envs: int) -> None:
    ours = AsyncVectorEnv(_fns(5), autoreset_mode=mode, num_workers=2, parent_envs=parent_envs)
    reference = SyncVectorEnv(_fns(5), autoreset_mode=mode)
    rng = np.random.default_rng(0)
    try:
        assert_same_batch(ours.reset(seed=2), reference.reset(seed=2), "reset")
        ended = np.zeros(5, dtype=bool)
        for t in range(40):
            if mode is AutoresetMode.DISABLED and ended.any():
                options = {"reset_mask": ended.copy()}
                assert_same_batch(ours.reset(options=options), reference.reset(options=options))
            actions = rng.integers(0, 2, 5)
            result = ours.step(actions)
            assert_same_batch(result, reference.step(actions), f"step {t}")
            ended = result[2] | result[3]
        registry = ours._info_registry
        assert registry is not None
        keys = {key for key, _ in registry.layout.slots}
        assert any(key.endswith(f"episode{NESTED_SEP}r") for key in keys)
        assert any(key.endswith(f"stats{NESTED_SEP}inner{NESTED_SEP}peak") for key in keys)
    finally:
        ours.close()
        reference.close()


def test_nested_infos_in_recv_batches() -> None:
    """send / recv of two groups of envs: the held nested values give the pickled path's
    batches (an AsyncVectorEnv whose ``_add_info`` override keeps every info pickled)."""

    kwargs: dict[str, Any] = {"num_workers": 2, "batch_size": 3}
    ours = AsyncVectorEnv(_fns(6), **kwargs)
    reference = pickled_infos_async_vector_env(_fns(6), **kwargs)
    try:
        groups = [np.array([0, 1, 2]), np.array([3, 4, 5])]
        received = recv_like_the_pickled_path(ours, reference, groups, 40, seed=4)
        assert sum("episode" in infos for infos in received) >= 10
    finally:
        ours.close()
        reference.close()


def _without_times(infos: dict[str, Any]) -> dict[str, Any]:
    """``infos`` with the values of RecordEpisodeStatistics' wall-clock ``t`` zeroed."""
    out = dict(infos)
    for key in ("episode", "final_info"):
        if key in out:
            out[key] = _without_times(out[key])
    if "t" in out:
        out["t"] = np.zeros_like(out["t"])
    return out


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_record_episode_statistics_matches_gymnasium(mode: AutoresetMode) -> None:
    """Gymnasium's own RecordEpisodeStatistics around its CartPole: AsyncVectorEnv's batches
    equal Gymnasium's SyncVectorEnv's (its wall-clock ``t`` aside), and the ``episode`` values
    travel in the shared slots."""

    def make() -> Any:
        return gymnasium.wrappers.RecordEpisodeStatistics(gymnasium.make("CartPole-v1"))

    ours = AsyncVectorEnv([make] * 4, autoreset_mode=mode, num_workers=2)
    theirs = gymnasium.vector.SyncVectorEnv(
        [make] * 4, autoreset_mode=gymnasium.vector.AutoresetMode(mode.value)
    )
    rng = np.random.default_rng(3)
    try:
        assert_same_batch(ours.reset(seed=5), theirs.reset(seed=5))
        episodes = 0
        for t in range(150):
            actions = rng.integers(0, 2, 4)
            got, want = ours.step(actions), theirs.step(actions)
            assert_same_batch(
                (*got[:4], _without_times(got[4])), (*want[:4], _without_times(want[4])), f"{t}"
            )
            stats = got[4].get("final_info", got[4])  # SAME_STEP: inside the final info
            episodes += int(stats["_episode"].sum()) if "episode" in stats else 0
        assert episodes >= 10
        registry = ours._info_registry
        assert registry is not None
        assert any(key.endswith(f"episode{NESTED_SEP}l") for key, _ in registry.layout.slots)
    finally:
        ours.close()
        theirs.close()
