"""``SAME_STEP``'s ``final_obs`` / ``final_info`` through shared memory in AsyncVectorEnv.

An env whose episode ends in a ``SAME_STEP`` step leaves its final observation in a row of its
own and its final info (when numeric) in slots of its own; only the reset info travels as a
regular info. The batches must stay exactly :class:`SyncVectorEnv`'s (keys and their order,
dtypes, masks, values), and the cases that cannot go through shared memory must fall back to
the pickled path with the same results.
"""

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
from vecgym.vector._async.finals import FINAL_PREFIX
from vecgym.vector._async.protocol import FINAL_EMPTY

SAME_STEP = AutoresetMode.SAME_STEP


class _EndingEnv(vecgym.Env[Any, Any]):
    """Episodes of ``2 + (index + episode) % 3`` steps; ``kind`` picks what the env returns:

    * ``"numeric"``: a numeric step info (its keys change with the episode) and reset info;
    * ``"empty"``: empty infos (as CartPole);
    * ``"wrong_dtype"``: float64 observations for a float32 space (not the block's dtype);
    * ``"reset_final_key"``: a reset info with a ``final_info`` key of its own;
    * ``"text"``: a string in the step info (a final info without a signature).
    """

    def __init__(self, index: int, kind: str, shape: tuple[int, ...] = (2,)) -> None:
        self.observation_space = Box(-10.0, 10.0, shape, np.float32)
        self.action_space = Discrete(2)
        self.index, self.kind = index, kind
        self.t = self.episode = 0
        self._obs = np.zeros(shape, np.float32)

    def _observation(self) -> Any:
        value = self._obs.astype(np.float64) if self.kind == "wrong_dtype" else self._obs
        return value  # the same array every time: the final copy must be taken before a reset

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self.t = 0
        self.episode += 1
        self._obs[...] = self.np_random.normal(size=self._obs.shape)
        info: dict[str, Any] = {}
        if self.kind == "numeric":
            info = {"start": float(self._obs.flat[0])}
        elif self.kind == "reset_final_key":
            info = {"final_info": {"kept": 1}, "start": 1}
        return self._observation(), info

    def step(self, action: Any) -> Any:
        self.t += 1
        self._obs += np.float32(0.5 * (int(action) - 0.5))
        info: dict[str, Any] = {}
        if self.kind in ("numeric", "wrong_dtype", "reset_final_key", "text"):
            info = {"x": float(self._obs.flat[0]), "t": self.t, "v": self._obs.copy()}
            if self.episode % 2 == 0:
                info["late"] = np.int16(self.episode)
            if self.kind == "text":
                info["name"] = f"env{self.index}"
        ended = self.t >= 2 + (self.index + self.episode) % 3
        return self._observation(), float(self.t), ended and self.index % 2 == 0, ended, info


def _fns(kinds: list[str], shape: tuple[int, ...] = (2,)) -> list[Any]:
    return [lambda i=i, kind=kind: _EndingEnv(i, kind, shape) for i, kind in enumerate(kinds)]


def _step_both(
    ours: Any, reference: Any, steps: int, seed: int = 0
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Step both with the same random actions, checking every batch; per step, the ended envs
    and ``ours``' final states right after it."""
    rng = np.random.default_rng(seed)
    assert_same_batch(ours.reset(seed=seed), reference.reset(seed=seed), "reset")
    seen = []
    for t in range(steps):
        actions = rng.integers(0, 2, ours.num_envs)
        result = ours.step(actions)
        assert_same_batch(result, reference.step(actions), f"step {t}")
        seen.append((result[2] | result[3], ours._pool.views.final_state.copy()))
    return seen


@pytest.mark.parametrize("parent_envs", [0, 2])
def test_numeric_finals_travel_in_shared_memory(parent_envs: int) -> None:
    """Numeric final infos and float32 final observations go through shared memory once their
    signature is learned (every ended env then has a positive final state), and the batches
    equal SyncVectorEnv's."""
    kinds = ["numeric"] * 5
    ours = AsyncVectorEnv(
        _fns(kinds), autoreset_mode=SAME_STEP, num_workers=2, parent_envs=parent_envs
    )
    reference = SyncVectorEnv(_fns(kinds), autoreset_mode=SAME_STEP)
    try:
        seen = _step_both(ours, reference, 40)
        in_shm = [bool((states[ended] > 0).all()) for ended, states in seen[10:] if ended.any()]
        assert len(in_shm) >= 10
        assert all(in_shm)
        registry = ours._info_registry
        assert registry is not None
        final_keys = {key for key, _ in registry.layout.slots if key.startswith(FINAL_PREFIX)}
        assert {FINAL_PREFIX + key for key in ("x", "t", "v", "late")} <= final_keys
    finally:
        ours.close()
        reference.close()


def test_empty_infos_give_empty_final_states() -> None:
    """Envs with empty infos (CartPole's kind) leave only their final observation: final state
    ``FINAL_EMPTY``, no info schema learned, batches equal SyncVectorEnv's."""
    ours = AsyncVectorEnv(_fns(["empty"] * 4), autoreset_mode=SAME_STEP, num_workers=2)
    reference = SyncVectorEnv(_fns(["empty"] * 4), autoreset_mode=SAME_STEP)
    try:
        seen = _step_both(ours, reference, 30)
        assert sum(int(ended.sum()) for ended, _ in seen) >= 10
        for ended, states in seen:
            assert (states[ended] == FINAL_EMPTY).all()
            assert (states[~ended] == 0).all()
        assert ours._info_registry is not None
        assert not ours._info_registry.layout.schemas
    finally:
        ours.close()
        reference.close()


def test_cartpole_same_step_equals_sync() -> None:
    def make() -> Any:
        return vecgym.make("CartPole-v1")

    ours = AsyncVectorEnv([make] * 6, autoreset_mode=SAME_STEP, num_workers=2, parent_envs=2)
    reference = SyncVectorEnv([make] * 6, autoreset_mode=SAME_STEP)
    try:
        seen = _step_both(ours, reference, 150, seed=3)
        assert sum(int(ended.sum()) for ended, _ in seen) >= 20
    finally:
        ours.close()
        reference.close()


@pytest.mark.parametrize("fallback", ["wrong_dtype", "reset_final_key", "text"])
def test_finals_that_cannot_use_shared_memory_go_pickled(fallback: str) -> None:
    """Envs whose episode end cannot leave its parts in shared memory (``fallback``) send the
    whole info pickled (final state 0) beside envs that can: the batches mix both and still
    equal SyncVectorEnv's."""
    kinds = [fallback, "numeric", fallback, "numeric", "empty"]
    ours = AsyncVectorEnv(_fns(kinds), autoreset_mode=SAME_STEP, num_workers=2)
    reference = SyncVectorEnv(_fns(kinds), autoreset_mode=SAME_STEP)
    try:
        seen = _step_both(ours, reference, 40)
        fallback_envs = np.array([kind == fallback for kind in kinds])
        ended_fallback = [states[ended & fallback_envs] for ended, states in seen]
        assert sum(len(states) for states in ended_fallback) >= 5
        assert all((states == 0).all() for states in ended_fallback)
        assert any((states[ended & ~fallback_envs] != 0).any() for ended, states in seen)
    finally:
        ours.close()
        reference.close()


def test_subclass_overriding_add_info_keeps_finals_pickled() -> None:
    kinds = ["numeric", "empty", "numeric"]
    ours = pickled_infos_async_vector_env(_fns(kinds), autoreset_mode=SAME_STEP, num_workers=2)
    reference = SyncVectorEnv(_fns(kinds), autoreset_mode=SAME_STEP)
    try:
        assert ours._pool.views.final_observations is None
        seen = _step_both(ours, reference, 20)
        assert all((states == 0).all() for _, states in seen)
    finally:
        ours.close()
        reference.close()


@pytest.mark.parametrize(("num_workers", "parent_envs"), [(2, 0), (1, 2)])
def test_send_recv_finals_equal_the_pickled_path(num_workers: int, parent_envs: int) -> None:
    """Batches of half the envs through ``send`` / ``recv``: the episode ends held from shared
    memory between a worker's finish and the ``recv`` (the worker meanwhile steps other envs of
    its slice) give the batches of an AsyncVectorEnv whose infos all travel pickled."""
    kinds = ["numeric", "text", "empty", "numeric", "numeric", "wrong_dtype"]
    kwargs: dict[str, Any] = {
        "autoreset_mode": SAME_STEP,
        "num_workers": num_workers,
        "parent_envs": parent_envs,
        "batch_size": 3,
    }

    ours = AsyncVectorEnv(_fns(kinds), **kwargs)
    reference = pickled_infos_async_vector_env(_fns(kinds), **kwargs)
    try:
        groups = [np.array([0, 1, 2]), np.array([3, 4, 5])]
        received = recv_like_the_pickled_path(ours, reference, groups, 40, seed=num_workers)
        assert sum("final_obs" in infos for infos in received) >= 10
        actions = np.zeros(len(kinds), dtype=np.int64)
        assert_same_batch(ours.step(actions), reference.step(actions), "step after recv")
    finally:
        ours.close()
        reference.close()


@pytest.mark.parametrize("shape", [(), (2, 3)])
def test_final_observations_keep_their_shape(shape: tuple[int, ...]) -> None:
    """A 0-d observation's final copy is a 0-d array, as the env returned it (not a numpy
    scalar), and a 2-d one keeps its shape."""
    kinds = ["numeric", "empty", "numeric"]
    ours = AsyncVectorEnv(_fns(kinds, shape), autoreset_mode=SAME_STEP, num_workers=2)
    reference = SyncVectorEnv(_fns(kinds, shape), autoreset_mode=SAME_STEP)
    try:
        seen = _step_both(ours, reference, 12)
        assert any((states != 0).any() for _, states in seen)
        ours.reset(seed=0)
        checked = 0
        for _ in range(6):
            infos = ours.step(np.zeros(3, dtype=np.int64))[4]
            if "final_obs" in infos:
                for obs in infos["final_obs"][infos["_final_obs"]]:
                    assert type(obs) is np.ndarray
                    assert obs.shape == shape
                    checked += 1
        assert checked
    finally:
        ours.close()
        reference.close()


def test_finals_across_a_worker_restart() -> None:
    """A worker killed between steps is replaced during the next one: its envs report the
    restart (their final states from the dead worker are ignored), the other worker's episode
    ends still come from shared memory, and the batches equal the pickled path's."""
    import os
    import signal

    kinds = ["empty"] * 4
    kwargs: dict[str, Any] = {
        "autoreset_mode": SAME_STEP,
        "num_workers": 2,
        "on_worker_failure": "restart",
    }
    ours = AsyncVectorEnv(_fns(kinds), **kwargs)
    reference = pickled_infos_async_vector_env(_fns(kinds), **kwargs)
    reference.restart_entropy = ours.restart_entropy
    rng = np.random.default_rng(2)
    try:
        assert_same_batch(ours.reset(seed=1), reference.reset(seed=1))
        restarts = 0
        for t in range(30):
            if t in (4, 11, 20):
                for envs in (ours, reference):
                    os.kill(envs.processes[1].pid, signal.SIGKILL)
                    envs.processes[1].join(5)
            actions = rng.integers(0, 2, len(kinds))
            result = ours.step(actions)
            assert_same_batch(result, reference.step(actions), f"step {t}")
            restarts += int("worker_restarted" in result[4])
        assert restarts == 3
    finally:
        ours.close()
        reference.close()


class _StructuredEnv(vecgym.Env[Any, Any]):
    """Dict (``"dict"``, ``"dict_reordered"``: its keys in another order than the space's) or
    Tuple (``"tuple"``) observations of float32 arrays; episodes of ``2 + index % 3`` steps."""

    def __init__(self, index: int, kind: str) -> None:
        from vecgym.spaces import Dict, Tuple

        self.index, self.kind, self.t = index, kind, 0
        pos, vel = Box(-5.0, 5.0, (2,), np.float32), Box(-5.0, 5.0, (), np.float32)
        if kind == "tuple":
            self.observation_space: Any = Tuple((pos, vel))
        else:
            self.observation_space = Dict({"pos": pos, "vel": vel})
        self.action_space = Discrete(2)

    def _obs(self) -> Any:
        pos = np.full(2, self.t + 0.5 * self.index, np.float32)
        vel = np.array(self.t - 1.0, np.float32)
        if self.kind == "tuple":
            return (pos, vel)
        if self.kind == "dict_reordered":
            return {"vel": vel, "pos": pos}
        return {"pos": pos, "vel": vel}

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self.t = 0
        return self._obs(), {}

    def step(self, action: Any) -> Any:
        self.t += 1
        info = {"t": self.t}
        return self._obs(), 1.0, self.t >= 2 + self.index % 3, False, info


@pytest.mark.parametrize("kind", ["dict", "tuple", "dict_reordered"])
def test_structured_final_observations(kind: str) -> None:
    """Dict and Tuple observations of arrays leave their final copies in leaves of their own;
    a dict whose keys come in another order than the space's goes pickled (its final copy keeps
    the env's order); the batches equal SyncVectorEnv's either way."""
    fns = [lambda i=i: _StructuredEnv(i, kind) for i in range(4)]
    ours = AsyncVectorEnv(fns, autoreset_mode=SAME_STEP, num_workers=2)
    reference = SyncVectorEnv(fns, autoreset_mode=SAME_STEP)
    try:
        seen = _step_both(ours, reference, 15)
        ended = [states[done] for done, states in seen if done.any()]
        assert len(ended) >= 5
        if kind == "dict_reordered":
            assert all((states == 0).all() for states in ended)
        else:
            assert all((states != 0).all() for states in ended[2:])
    finally:
        ours.close()
        reference.close()
