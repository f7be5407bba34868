"""SyncVectorEnv and AsyncVectorEnv side by side: identical results for every space type."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.vector.helpers import assert_same_batch
from vecgym.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    Sequence,
    Text,
    Tuple,
)
from vecgym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

NUM_ENVS = 5


class SpaceEnv(vecgym.Env[Any, Any]):
    """Observations sampled (seeded) from any space; episodes of ``1 + index % 3`` steps."""

    def __init__(self, observation_space: Any, action_space: Any, length: int) -> None:
        self.observation_space = observation_space
        self.action_space = action_space
        self.length = length
        self.t = 0

    def _obs(self) -> Any:
        self.observation_space.seed(int(self.np_random.integers(1 << 30)))
        return self.observation_space.sample()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        self.t = 0
        return self._obs(), ({"start": np.float32(1.5)} if options else {})

    def step(self, action: Any) -> Any:
        self.action_space.contains(action)
        self.t += 1
        info = {"t": self.t, "nested": {"a": np.arange(2) * self.t}} if self.t % 2 else {}
        reward = float(self.np_random.random())
        return self._obs(), reward, self.t >= self.length, False, info


SPACES = {
    "box": Box(-1, 1, (2, 3), np.float32),
    "discrete": Discrete(4, start=-1),
    "multi_discrete": MultiDiscrete([3, 5]),
    "multi_binary": MultiBinary(4),
    "nested": Dict(
        {
            "pos": Box(0, 5, (2,), np.float64),
            "inner": Tuple((Discrete(3), Dict({"bits": MultiBinary((2, 2))}))),
        }
    ),
    "text": Text(5),
    "sequence": Sequence(Discrete(3)),
    "graph": Graph(Box(0, 1, (2,)), Discrete(2)),
    "tuple_with_text": Tuple((Box(0, 1, (1,)), Text(3))),
}
ACTION_SPACES = {
    "discrete": Discrete(3),
    "box": Box(-2, 2, (2,), np.float32),
    "dict": Dict({"a": Discrete(2), "b": Box(0, 1, (1,), np.float32)}),
    "text": Text(4),
}


def _fns(obs_space: Any, act_space: Any) -> list[Any]:
    return [(lambda i=i: SpaceEnv(obs_space, act_space, 1 + i % 3)) for i in range(NUM_ENVS)]


def _run(obs_key: str, act_key: str, mode: AutoresetMode, shm: bool, steps: int = 8) -> None:
    obs_space, act_space = SPACES[obs_key], ACTION_SPACES[act_key]
    ours = AsyncVectorEnv(
        _fns(obs_space, act_space), autoreset_mode=mode, shared_memory=shm, num_workers=2
    )
    sync = SyncVectorEnv(_fns(obs_space, act_space), autoreset_mode=mode)
    try:
        assert ours.observation_space == sync.observation_space
        assert ours.action_space == sync.action_space
        assert_same_batch(ours.reset(seed=7), sync.reset(seed=7))
        ours.action_space.seed(1)
        for t in range(steps):
            if t in (3, 6):
                mask = np.arange(NUM_ENVS) % 2 == (t // 3) % 2
                options = {"reset_mask": mask, "flag": True}
                assert_same_batch(
                    ours.reset(seed=[t + i for i in range(NUM_ENVS)], options=options),
                    sync.reset(seed=[t + i for i in range(NUM_ENVS)], options=options),
                    f"reset at {t}",
                )
            actions = ours.action_space.sample()
            result = ours.step(actions)
            assert_same_batch(result, sync.step(actions), f"step {t}")
            ended = result[2] | result[3]
            if mode is AutoresetMode.DISABLED and ended.any():
                options = {"reset_mask": ended}
                assert_same_batch(ours.reset(options=options), sync.reset(options=options))
    finally:
        ours.close()
        sync.close()


@pytest.mark.parametrize("obs_key", list(SPACES))
@pytest.mark.parametrize("shm", [True, False])
def test_every_observation_space(obs_key: str, shm: bool) -> None:
    _run(obs_key, "discrete", AutoresetMode.NEXT_STEP, shm)


@pytest.mark.parametrize("act_key", list(ACTION_SPACES))
def test_every_action_space(act_key: str) -> None:
    _run("box", act_key, AutoresetMode.NEXT_STEP, True)


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("obs_key", ["nested", "sequence"])
def test_every_autoreset_mode(mode: AutoresetMode, obs_key: str) -> None:
    _run(obs_key, "dict", mode, True)


def test_dynamic_observations_are_live() -> None:
    """Fallback observations are the values of this step, not a snapshot of an earlier one."""
    ours = AsyncVectorEnv(_fns(SPACES["text"], Discrete(3)), num_workers=2)
    try:
        first, _ = ours.reset(seed=0)
        second, *_ = ours.step(np.zeros(NUM_ENVS, dtype=np.int64))
        third, *_ = ours.step(np.zeros(NUM_ENVS, dtype=np.int64))
        assert first != second != third
    finally:
        ours.close()


def test_matches_gymnasium_async() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    ours = AsyncVectorEnv([lambda: vecgym.make("CartPole-v1")] * 3, num_workers=2)
    theirs = gymnasium.vector.AsyncVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 3)
    try:
        o1, _i1 = ours.reset(seed=5)
        o2, _i2 = theirs.reset(seed=5)
        np.testing.assert_array_equal(o1, o2)
        rng = np.random.default_rng(0)
        for _ in range(30):
            actions = rng.integers(0, 2, 3)
            for a, b in zip(ours.step(actions)[:4], theirs.step(actions)[:4], strict=False):
                np.testing.assert_array_equal(a, b)
    finally:
        ours.close()
        theirs.close()
