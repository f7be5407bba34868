"""Batched infos built key by key (``VectorEnv._merge_infos``) against the per-env fold of
``VectorEnv._add_info`` and against Gymnasium's ``SyncVectorEnv``, on envs returning infos."""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import vecgym
from tests.vector.helpers import assert_same_batch, pickled_infos_async_vector_env
from vecgym.vector import AutoresetMode, SyncVectorEnv
from vecgym.vector._info_merge import (
    RepeatedScalarInfos,
    _scalar_columns_batch,
    merge_info_columns,
    same_key_columns,
)

gymnasium = pytest.importorskip("gymnasium")

from tests.support.info_envs import info_env_fns  # noqa: E402  (needs gymnasium)

NUM_ENVS = 5


def _fold(entries: list[tuple[int, dict[str, Any]]], num_envs: int) -> dict[str, Any]:
    env = SyncVectorEnv.__new__(SyncVectorEnv)
    env.num_envs = num_envs
    infos: dict[str, Any] = {}
    for i, info in entries:
        infos = env._add_info(infos, info, i)
    return infos


_scalars = st.one_of(
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, width=32),
    st.booleans(),
    st.integers(-100, 100).map(np.int8),
    st.integers(-(2**40), 2**40).map(np.int64),
    st.floats(allow_nan=False, width=32).map(np.float32),
    st.booleans().map(np.bool_),
    st.sampled_from(["a", "bc", None]),
    st.sampled_from([(1, 2), [3], np.zeros(2), np.ones((2, 1), dtype=np.int32), np.arange(2.0)]),
)
_keys = st.sampled_from(["x", "y", "lives", "final_obs", "z"])
_values = st.recursive(
    _scalars, lambda inner: st.dictionaries(_keys, inner, max_size=3), max_leaves=6
)
_infos = st.dictionaries(_keys, _values, min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _infos), min_size=1, max_size=6))
def test_column_merge_equals_the_fold(rows: list[tuple[bool, dict[str, Any]]]) -> None:
    entries = [(i, info) for i, (present, info) in enumerate(rows) if present]
    if not entries:
        return
    num_envs = len(rows)
    try:
        expected = _fold(entries, num_envs)
    except (AttributeError, TypeError, ValueError, OverflowError):
        # The fold rejects some mixes (a dict and a value under one key, a string after an int);
        # so does the merge, though with several such keys another one may be the first to fail.
        with pytest.raises((AttributeError, TypeError, ValueError, OverflowError)):
            merge_info_columns(entries, num_envs)
        return
    assert_same_batch(merge_info_columns(entries, num_envs), expected)


_scalar_kinds = st.sampled_from(
    [int, float, bool, np.int8, np.int64, np.uint8, np.float16, np.float32, np.float64, np.bool_]
)


@st.composite
def _one_info_per_env(draw: st.DrawFn) -> list[dict[str, Any]]:
    """One info per env with the same keys (in any order per env), each key's values of one
    scalar type, the per-step infos of MuJoCo and Atari; now and then a value of another type,
    a big int, a missing or an extra key, or keys the fold must decide (``_x``, ``final_obs``)."""
    num_envs = draw(st.integers(2, 6))
    names = st.sampled_from(["x", "y", "lives", "z", "_x", "final_obs", 3])
    keys = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    kinds = {key: draw(_scalar_kinds) for key in keys}
    infos = []
    for _ in range(num_envs):
        info: dict[Any, Any] = {}
        for key in draw(st.permutations(keys)):
            kind = kinds[key] if draw(st.integers(0, 7)) else draw(_scalar_kinds)
            value = draw(st.integers(0, 100))
            info[key] = kind(value / 8) if kind in (float, np.float16, np.float32) else kind(value)
            if kind is int and not draw(st.integers(0, 15)):
                info[key] = 2**70
        infos.append(info)
    change = draw(st.integers(0, 9))
    if change == 0:
        infos[-1].pop(keys[0])
    elif change == 1:
        infos[0]["extra"] = 1.5
    return infos


@settings(max_examples=300, deadline=None)
@given(_one_info_per_env())
@example([{"x": 1, "y": 2}, {"x": 2**70, "y": 3}])  # the fold raises: no object array
@example([{"x": 1, "y": 2}, {"x": 2**63, "y": 3}])  # nor a uint64 one
def test_one_info_per_env_merges_like_the_fold(infos: list[dict[str, Any]]) -> None:
    """The shortcut for one info per env with the same scalar keys gives the fold's batch
    (keys, order, dtypes, masks), or leaves it to the general merge."""
    entries = list(enumerate(infos))
    num_envs = len(infos)
    errors = (OverflowError, RuntimeWarning)  # an int beyond int64; beyond float16 (an error here)
    try:
        expected = _fold(entries, num_envs)
    except errors:
        with pytest.raises(errors):
            merge_info_columns(entries, num_envs)
        return
    assert_same_batch(merge_info_columns(entries, num_envs), expected)
    found = same_key_columns(infos)
    shortcut = None if found is None else _scalar_columns_batch(*found, num_envs)
    if shortcut is not None:
        assert_same_batch(shortcut, expected)
        assert list(shortcut) == list(expected)
        assert all(shortcut[key].dtype == expected[key].dtype for key in expected)


def test_one_info_per_env_takes_the_shortcut() -> None:
    """MuJoCo-like infos (four float keys, one of them float32) go through the shortcut; a
    column of mixed types, a key starting with ``_`` and ``final_obs`` do not."""

    def info(i: int) -> dict[str, Any]:
        return {"x": np.float64(i), "y": np.float64(-i), "r": 1.5 * i, "c": np.float32(i / 3)}

    def shortcut(infos: list[dict[str, Any]]) -> dict[str, Any] | None:
        found = same_key_columns(infos)
        assert found is not None
        return _scalar_columns_batch(*found, len(infos))

    infos = [info(i) for i in range(4)]
    batch = shortcut(infos)
    assert batch is not None
    assert list(batch) == ["x", "_x", "y", "_y", "r", "_r", "c", "_c"]
    assert batch["c"].dtype == np.float32
    np.testing.assert_array_equal(batch["c"], np.float32([0, 1 / 3, 2 / 3, 1]))
    assert batch["_r"].all()
    assert batch["_c"].shape == (4,)
    batch["_x"][0] = False  # each key owns its mask
    assert batch["_y"].all()
    infos[2]["r"] = 2  # an int among floats: widened by the fold's rules
    assert shortcut(infos) is None
    assert merge_info_columns(list(enumerate(infos)), 4)["r"].dtype == np.float64
    for odd in ("_r", "final_obs"):
        renamed = [{**info(i), odd: 1.0} for i in range(4)]
        assert shortcut(renamed) is None


@st.composite
def _repeated_batches(draw: st.DrawFn) -> list[list[dict[str, Any]]]:
    """Batches of one info per env, step after step, mostly of one or two schemas (keys in an
    order, one scalar type per key) with fresh values; now and then an env's info differs (a
    value of another type, a big int, keys in another order, a missing or an extra key)."""
    num_envs = draw(st.integers(1, 5))
    names = st.sampled_from(["x", "y", "lives", "z", "_x", "final_obs", 3])
    schemas = [
        {
            key: draw(_scalar_kinds)
            for key in draw(st.lists(names, min_size=1, max_size=4, unique=True))
        }
        for _ in range(draw(st.integers(1, 2)))
    ]
    batches = []
    for _ in range(draw(st.integers(1, 6))):
        schema = draw(st.sampled_from(schemas))
        infos = []
        for _ in range(num_envs):
            info: dict[Any, Any] = {}
            for key, kind in schema.items():
                if not draw(st.integers(0, 19)):
                    kind = draw(_scalar_kinds)
                value = draw(st.integers(0, 100))
                info[key] = (
                    kind(value / 8) if kind in (float, np.float16, np.float32) else kind(value)
                )
                if kind is int and not draw(st.integers(0, 19)):
                    info[key] = 2**70
            change = draw(st.integers(0, 19))
            if change == 0:
                info = dict(reversed(info.items()))
            elif change == 1:
                info.pop(next(iter(info)))
            elif change == 2:
                info["extra"] = 0.5
            infos.append(info)
        batches.append(infos)
    return batches


@settings(max_examples=300, deadline=None)
@given(_repeated_batches())
@example(
    [[{"x": 1.0, "y": 2}, {"x": 1.5, "y": 3}]] * 2 + [[{"x": 1.0, "y": 2}, {"x": 1.5, "y": 2.5}]]
)
@example(
    [[{"x": 1.0, "y": 2}, {"x": 1.5, "y": 3}]] * 2 + [[{"y": 2, "x": 1.0}, {"x": 1.5, "y": 3}]]
)
@example([[{"x": 1, "y": 2}, {"x": 1, "y": 3}]] * 2 + [[{"x": 1, "y": 2}, {"x": 1, "z": 3}]])
@example([[{"x": 1}, {"x": 3}], [{"x": 1}, {"x": 2**70}], [{"x": 1}, {"x": 3}]])
def test_repeated_scalar_infos_batch_like_the_merge(batches: list[list[dict[str, Any]]]) -> None:
    """Step after step, the shortcut for repeated scalar infos gives the general merge's batch
    (keys, order, dtypes, masks), or ``None``, whatever changed since the batch it learned."""
    repeated = RepeatedScalarInfos(len(batches[0]))
    errors = (OverflowError, RuntimeWarning)  # an int beyond int64; beyond float16 (an error here)
    for t, infos in enumerate(batches):
        entries = list(enumerate(infos))
        try:
            expected = merge_info_columns(entries, len(infos))
        except errors:
            with contextlib.suppress(*errors):  # raising as the merge does, or leaving it to it
                assert repeated(infos) is None
            continue
        batched = repeated(infos)
        if batched is not None:
            assert_same_batch(batched, expected, f"step {t}")
            assert list(batched) == list(expected)
            assert all(batched[key].dtype == expected[key].dtype for key in expected)


def test_repeated_scalar_infos_take_the_shortcut_step_after_step() -> None:
    """MuJoCo-like infos are batched by the shortcut on every step, a new schema is learned at
    once, and each key owns its mask; what the shortcut cannot batch is left to the merge."""

    def info(i: int, t: int) -> dict[str, Any]:
        return {"x": np.float64(i + t), "r": 1.5 * i, "c": np.float32(i / 3), "lives": 3 - t}

    repeated = RepeatedScalarInfos(4)
    for t in range(3):
        infos = [info(i, t) for i in range(4)]
        batch = repeated(infos)
        assert batch is not None
        assert_same_batch(batch, merge_info_columns(list(enumerate(infos)), 4), f"step {t}")
    assert batch["lives"].dtype == np.int_
    assert batch["c"].dtype == np.float32
    batch["_x"][0] = False
    assert batch["_r"].all()
    later = repeated([info(i, 2) for i in range(4)])  # owns its masks too
    assert later is not None
    assert all(later[f"_{key}"].all() for key in ("x", "r", "c", "lives"))
    assert not np.shares_memory(later["_x"], batch["_x"])
    atari = [{"lives": 3, "episode_frame_number": 4 * i, "frame_number": 8 * i} for i in range(4)]
    assert_same_batch(repeated(atari), merge_info_columns(list(enumerate(atari)), 4))
    for odd in (
        {"final_obs": 1.0},
        {"_x": 1.0},
        {"x": "text"},
        {"x": np.zeros(2)},
        {"x": {"y": 1}},
    ):
        infos = [{**info(i, 0), **odd} for i in range(4)]
        assert repeated(infos) is None
        assert repeated(infos) is None  # (rejected again at once: the same first info)
    assert repeated([info(i, 0) for i in range(3)]) is None  # not one info per env
    # after the rejections, the last of them with the same keys: learned again
    infos = [info(i, 1) for i in range(4)]
    batch = repeated(infos)
    assert batch is not None
    assert_same_batch(batch, merge_info_columns(list(enumerate(infos)), 4))


def test_keys_with_leading_underscore_fold_like_add_info() -> None:
    entries = [(0, {"a": 1, "_a": 2.5}), (2, {"_a": 1, "a": 0.5})]
    assert_same_batch(merge_info_columns(entries, 3), _fold(entries, 3))


class _FoldingSyncVectorEnv(SyncVectorEnv):  # type: ignore[type-arg]
    """Overrides ``_add_info``, so its steps batch infos with the per-env fold."""

    def _add_info(self, vector_infos: Any, env_info: Any, env_num: int) -> Any:
        return super()._add_info(vector_infos, env_info, env_num)


class _ScriptedInfoEnv(vecgym.Env[Any, Any]):
    """Returns the infos of a script, one per step: ``script[t][index]`` (``None``: empty)."""

    def __init__(self, script: list[list[dict[str, Any] | None]], index: int) -> None:
        from vecgym.spaces import Box, Discrete

        self.observation_space = Box(-1.0, 1.0, (1,), np.float32)
        self.action_space = Discrete(2)
        self.script, self.index, self.t = script, index, 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        return np.zeros(1, np.float32), {}

    def step(self, action: Any) -> Any:
        info = self.script[self.t][self.index]
        self.t += 1
        return np.zeros(1, np.float32), 0.0, False, False, info or {}


_script_values = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.booleans(),
    st.integers(-100, 100).map(np.int16),
    st.floats(allow_nan=False, width=32).map(np.float32),
    st.sampled_from([np.zeros(2), "text", None, {"inner": 1}]),
)
_script_infos = st.one_of(
    st.none(),
    st.dictionaries(st.sampled_from(["x", "y", "z", "_x", 3]), _script_values, max_size=3),
)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda n: st.lists(st.lists(_script_infos, min_size=n, max_size=n), min_size=1, max_size=6)
    )
)
@example([[{"x": 1, "y": 2.0}, {"y": 3.0, "x": 4}], [{"y": 1.0, "x": 2}, {"x": 5, "y": 6.0}]])
@example([[{"x": 1}, {"x": 2}], [{"x": 1.5}, None], [{"x": 2**70}, {"x": 1}], [{"y": 1}, {"x": 2}]])
@example([[{"x": np.float32(0.0)}, {"x": 3.4028235677973366e38}]])
@example(
    [[{"x": 1.0, "y": 2}, {"x": 1.5, "y": 3}]] * 2 + [[{"y": 2, "x": 1.0}, {"x": 1.5, "y": 3}]]
)
@example([[{"x": 1, "y": 2}, {"x": 1, "y": 3}]] * 2 + [[{"x": 1, "y": 2.5}, {"x": 1, "y": 3}]])
@example([[{"x": 1}, {"x": 3}], [{"x": 1}, None], [{"x": 2**70}, {"x": 1}], [{"x": 1}, {"x": 1}]])
def test_sync_steps_batch_infos_like_the_fold(script: list[list[dict[str, Any] | None]]) -> None:
    """Each SyncVectorEnv step batches its infos as the per-env fold does (or both raise),
    whatever the keys (strings or not), their order and the value types from step to step."""
    num_envs = len(script[0])
    fns = [lambda i=i: _ScriptedInfoEnv(script, i) for i in range(num_envs)]
    ours = SyncVectorEnv(fns)  # type: ignore[arg-type]
    folding = _FoldingSyncVectorEnv(fns)  # type: ignore[arg-type]
    ours.reset()
    folding.reset()
    actions = np.zeros(num_envs, dtype=np.int64)
    for t in range(len(script)):
        try:
            expected = folding.step(actions)[4]
        except (AttributeError, TypeError, ValueError, OverflowError, RuntimeWarning):
            # (RuntimeWarning: a float beyond float32 cast into a float32 array, an error here)
            with pytest.raises(
                (AttributeError, TypeError, ValueError, OverflowError, RuntimeWarning)
            ):
                ours.step(actions)
            return
        assert_same_batch(ours.step(actions)[4], expected, f"step {t}")


def test_sync_subclasses_that_batch_infos_their_own_way_batch_every_step() -> None:
    """A SyncVectorEnv subclass overriding ``_add_info`` or ``_merge_infos`` batches the infos
    of every step itself, the repeated scalar ones too (the shortcut is for the built-in
    merge only)."""
    script = [[{"x": 1.0 * t, "lives": 3}, {"x": 2.0 * t, "lives": 2}] for t in range(4)]
    fns = [lambda i=i: _ScriptedInfoEnv(script, i) for i in range(2)]  # type: ignore[misc]
    calls: list[str] = []

    class Adding(SyncVectorEnv):  # type: ignore[type-arg]
        def _add_info(self, vector_infos: Any, env_info: Any, env_num: int) -> Any:
            calls.append("add")
            return super()._add_info(vector_infos, env_info, env_num)

    class Merging(SyncVectorEnv):  # type: ignore[type-arg]
        def _merge_infos(self, entries: Any) -> Any:
            calls.append("merge")
            return super()._merge_infos(entries)

    for kind, expected in ((Adding, "add"), (Merging, "merge")):
        calls.clear()
        envs = kind(fns)
        envs.reset()
        for t in range(4):
            infos = envs.step(np.zeros(2, dtype=np.int64))[4]
            np.testing.assert_array_equal(infos["x"], [1.0 * t, 2.0 * t])
        assert calls == [expected] * (8 if expected == "add" else 4)


def _same_sign_actions(steps: int, mixed: bool) -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    batches = []
    for t in range(steps):
        actions = rng.uniform(-1, 1, (NUM_ENVS, 2)).astype(np.float32)
        if not mixed:  # one sign of action[0] per step, so "level" has one dtype per step
            actions[:, 0] = np.abs(actions[:, 0]) * (1 if t % 3 else -1)
        batches.append(actions)
    return batches


def _drive(ours: Any, theirs: Any, mode: AutoresetMode, actions: list[np.ndarray]) -> None:
    assert_same_batch(ours.reset(seed=7), theirs.reset(seed=7), "reset")
    ended = np.zeros(NUM_ENVS, dtype=bool)
    saw_end = saw_late = False
    for t, batch in enumerate(actions):
        if mode is AutoresetMode.DISABLED and ended.any():
            options = {"reset_mask": ended.copy()}
            assert_same_batch(
                ours.reset(options=options), theirs.reset(options=dict(options)), f"reset {t}"
            )
        result = ours.step(batch)
        assert_same_batch(result, theirs.step(batch), f"step {t}")
        ended = result[2] | result[3]
        saw_end |= bool(ended.any())
        saw_late |= "late" in result[4] or "late" in result[4].get("final_info", {})
    assert saw_end
    assert saw_late
    ours.close()
    theirs.close()


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_sync_infos_match_gymnasium(mode: AutoresetMode) -> None:
    ours = SyncVectorEnv(info_env_fns(NUM_ENVS), autoreset_mode=mode)
    theirs = gymnasium.vector.SyncVectorEnv(
        info_env_fns(NUM_ENVS), autoreset_mode=gymnasium.vector.AutoresetMode(mode.value)
    )
    _drive(ours, theirs, mode, _same_sign_actions(60, mixed=False))


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_sync_infos_widen_like_the_fold(mode: AutoresetMode) -> None:
    ours = SyncVectorEnv(info_env_fns(NUM_ENVS), autoreset_mode=mode)
    folding = _FoldingSyncVectorEnv(info_env_fns(NUM_ENVS), autoreset_mode=mode)
    actions = _same_sign_actions(60, mixed=True)
    _drive(ours, folding, mode, actions)
    widened = SyncVectorEnv(info_env_fns(NUM_ENVS), autoreset_mode=mode)
    widened.reset(seed=7)
    infos = widened.step(actions[0])[4]
    assert infos["level"].dtype == np.float64  # int and float values in one step
    widened.close()


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_halfcheetah_infos_match_gymnasium(mode: AutoresetMode) -> None:
    pytest.importorskip("mujoco")

    def make() -> Any:
        return gymnasium.make("HalfCheetah-v5", max_episode_steps=7)

    ours = SyncVectorEnv([make] * 3, autoreset_mode=mode)
    theirs = gymnasium.vector.SyncVectorEnv(
        [make] * 3, autoreset_mode=gymnasium.vector.AutoresetMode(mode.value)
    )
    assert_same_batch(ours.reset(seed=3), theirs.reset(seed=3))
    rng = np.random.default_rng(0)
    for t in range(20):
        if mode is AutoresetMode.DISABLED and t % 7 == 0 and t:
            mask = np.ones(3, dtype=bool)
            assert_same_batch(
                ours.reset(options={"reset_mask": mask}),
                theirs.reset(options={"reset_mask": mask.copy()}),
            )
        actions = rng.uniform(-1, 1, (3, 6)).astype(np.float32)
        assert_same_batch(ours.step(actions), theirs.step(actions), f"step {t}")
    ours.close()
    theirs.close()


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("mixed", [False, True])
def test_async_infos_match_sync(mode: AutoresetMode, mixed: bool) -> None:
    from vecgym.vector import AsyncVectorEnv

    ours = AsyncVectorEnv(info_env_fns(NUM_ENVS), autoreset_mode=mode, num_workers=2)
    reference = SyncVectorEnv(info_env_fns(NUM_ENVS), autoreset_mode=mode)
    _drive(ours, reference, mode, _same_sign_actions(40, mixed=mixed))


def test_async_recv_infos_match_sync() -> None:
    from vecgym.vector import AsyncVectorEnv

    ours = AsyncVectorEnv(info_env_fns(NUM_ENVS), num_workers=2)
    reference = SyncVectorEnv(info_env_fns(NUM_ENVS))
    ours.reset(seed=7)
    reference.reset(seed=7)
    for t, actions in enumerate(_same_sign_actions(30, mixed=True)):
        ours.send(actions)
        batches = []
        received = 0
        while received < NUM_ENVS:
            batch = ours.recv()
            batches.append(batch)
            received += len(batch[-1])
        expected = reference.step(actions)
        for obs, rewards, _, _, infos, ids in batches:
            np.testing.assert_array_equal(obs, expected[0][ids], err_msg=f"step {t}")
            np.testing.assert_array_equal(rewards, expected[1][ids])
            for key in ("x_position", "level", "velocity"):
                if key in infos:
                    mask = infos[f"_{key}"]
                    np.testing.assert_array_equal(infos[key][mask], expected[4][key][ids][mask])
    ours.close()
    reference.close()


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("mixed", [False, True])
def test_shared_memory_infos_match_sync(mode: AutoresetMode, mixed: bool) -> None:
    from vecgym.vector import AsyncVectorEnv

    ours = AsyncVectorEnv(info_env_fns(NUM_ENVS, True), autoreset_mode=mode, num_workers=2)
    reference = SyncVectorEnv(info_env_fns(NUM_ENVS, True), autoreset_mode=mode)
    registry = ours._info_registry
    _drive(ours, reference, mode, _same_sign_actions(40, mixed=mixed))
    # the step infos were learned: the 4 keys, "late" and both types of "level" have slots
    assert registry.generation >= 1
    assert {key for key, _ in registry.layout.slots} >= {"x_position", "late", "level"}
    assert {tag for key, tag in registry.layout.slots if key == "level"} >= {float}


def test_shared_memory_infos_match_gymnasium() -> None:
    from vecgym.vector import AsyncVectorEnv

    ours = AsyncVectorEnv(info_env_fns(NUM_ENVS, True), num_workers=2)
    theirs = gymnasium.vector.SyncVectorEnv(info_env_fns(NUM_ENVS, True))
    _drive(ours, theirs, AutoresetMode.NEXT_STEP, _same_sign_actions(40, mixed=False))


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_shared_memory_infos_across_worker_restart(mode: AutoresetMode) -> None:
    import os
    import signal

    from vecgym.vector import AsyncVectorEnv

    kwargs: dict[str, Any] = {
        "num_workers": 2,
        "on_worker_failure": "restart",
        "autoreset_mode": mode,
    }
    ours = AsyncVectorEnv(info_env_fns(NUM_ENVS, True), **kwargs)
    reference = pickled_infos_async_vector_env(info_env_fns(NUM_ENVS, True), **kwargs)
    assert ours._info_registry is not None
    assert reference._info_registry is None
    reference.restart_entropy = ours.restart_entropy  # the same restart seeds
    assert_same_batch(ours.reset(seed=3), reference.reset(seed=3))
    restarts = 0
    for t, actions in enumerate(_same_sign_actions(40, mixed=True)):
        if t in (10, 25):
            for envs in (ours, reference):
                os.kill(envs.processes[1].pid, signal.SIGKILL)
                envs.processes[1].join(5)
        result = ours.step(actions)
        assert_same_batch(result, reference.step(actions), f"step {t}")
        restarts += int("worker_restarted" in result[4])
    assert restarts == 2
    assert ours._pool.info_sent[1] == ours._info_registry.generation  # handed to the new worker
    ours.close()
    reference.close()


def _received_per_env(envs: Any, actions: np.ndarray, t: int) -> dict[int, Any]:
    """Send every env, receive them all; per env: observation, reward and its info entries."""
    envs.send(actions, np.arange(NUM_ENVS))
    out: dict[int, Any] = {}
    while len(out) < NUM_ENVS:
        obs, rewards, _, _, infos, ids = envs.recv(timeout=30)
        for j, i in enumerate(ids.tolist()):
            info = {
                key: value[j]
                for key, value in infos.items()
                if not key.startswith("_") and infos[f"_{key}"][j]
            }
            out[i] = (obs[j].copy(), rewards[j], info)
    return out


def test_shared_memory_infos_in_recv_batches() -> None:
    from vecgym.vector import AsyncVectorEnv

    ours = AsyncVectorEnv(info_env_fns(NUM_ENVS, True), num_workers=2, batch_size=2)
    reference = pickled_infos_async_vector_env(
        info_env_fns(NUM_ENVS, True), num_workers=2, batch_size=2
    )
    ours.reset(seed=1)
    reference.reset(seed=1)
    for t, actions in enumerate(_same_sign_actions(30, mixed=True)):
        got = _received_per_env(ours, actions, t)
        want = _received_per_env(reference, actions, t)
        assert got.keys() == want.keys()
        for i in got:
            np.testing.assert_array_equal(got[i][0], want[i][0], err_msg=f"step {t} env {i}")
            assert got[i][1] == want[i][1]
            assert got[i][2].keys() == want[i][2].keys()
            for key in got[i][2]:  # dtypes depend on which envs share a batch: values only
                np.testing.assert_array_equal(
                    got[i][2][key], want[i][2][key], err_msg=f"step {t} env {i} {key}"
                )
    assert ours._info_registry.generation >= 1
    ours.close()
    reference.close()


@pytest.mark.parametrize("parent_envs", [0, 2])
def test_reset_infos_travel_in_shared_memory(parent_envs: int) -> None:
    """Numeric reset infos (two signatures: ``episode_length``, and with ``start`` in every third
    env) go into the shared slots once learned, for full and partial resets; the envs a partial
    reset leaves alone keep no info; the batches equal the pickled path's."""
    from vecgym.vector import AsyncVectorEnv

    kwargs: dict[str, Any] = {"num_workers": 2, "autoreset_mode": AutoresetMode.DISABLED}
    ours = AsyncVectorEnv(info_env_fns(NUM_ENVS, True), parent_envs=parent_envs, **kwargs)
    reference = pickled_infos_async_vector_env(info_env_fns(NUM_ENVS, True), **kwargs)
    registry = ours._info_registry
    try:
        masks = [None, np.array([True, False, False, True, False]), None, np.eye(NUM_ENVS)[4]]
        for t, mask in enumerate(masks * 3):
            options = None if mask is None else {"reset_mask": mask.astype(bool)}
            got = ours.reset(seed=10 * t, options=options)
            assert_same_batch(got, reference.reset(seed=10 * t, options=options), f"reset {t}")
            if t >= len(masks):  # learned by now: the reset rows name their schema
                reset_rows = np.ones(NUM_ENVS, bool) if mask is None else mask.astype(bool)
                assert (ours._pool.views.info_schema[reset_rows] != 0).all()
            actions = np.full((NUM_ENVS, 2), 0.5, dtype=np.float32)
            assert_same_batch(ours.step(actions), reference.step(actions), f"step {t}")
        signatures = {tuple(key for key, _ in sig) for sig in registry.layout.schemas}
        assert {("episode_length",), ("episode_length", "start")} <= signatures
    finally:
        ours.close()
        reference.close()


def test_reset_infos_when_a_worker_is_replaced_during_the_reset() -> None:
    """A worker that died before a reset is replaced while it runs: its envs' reset infos come
    pickled (with ``worker_restarted``), the others' from the shared slots."""
    import os
    import signal

    from vecgym.vector import AsyncVectorEnv

    kwargs: dict[str, Any] = {"num_workers": 2, "on_worker_failure": "restart"}
    ours = AsyncVectorEnv(info_env_fns(NUM_ENVS, True), **kwargs)
    reference = pickled_infos_async_vector_env(info_env_fns(NUM_ENVS, True), **kwargs)
    reference.restart_entropy = ours.restart_entropy
    try:
        for t in range(4):
            if t >= 2:
                for envs in (ours, reference):
                    os.kill(envs.processes[t % 2].pid, signal.SIGKILL)
                    envs.processes[t % 2].join(5)
            got = ours.reset(seed=t)
            assert_same_batch(got, reference.reset(seed=t), f"reset {t}")
            assert ("worker_restarted" in got[1]) == (t >= 2)
            actions = np.full((NUM_ENVS, 2), -0.5, dtype=np.float32)
            assert_same_batch(ours.step(actions), reference.step(actions), f"step {t}")
        assert ours.restart_count == 2
    finally:
        ours.close()
        reference.close()


@pytest.mark.parametrize("batch_size", [2, 3])
def test_recv_batches_mixing_held_and_pickled_infos(batch_size: int) -> None:
    """recv assembles the infos it holds from the shared slots per batch, beside pickled ones
    (every other env returns a string too, so its whole info is pickled), across the info
    layouts learned meanwhile; per env, the same transitions as the pickled path."""
    from tests.support.info_envs import InfoEnv
    from vecgym.vector import AsyncVectorEnv

    fns = [lambda i=i: InfoEnv(i, numeric_only=i % 2 == 0) for i in range(NUM_ENVS)]
    ours = AsyncVectorEnv(fns, num_workers=2, batch_size=batch_size)
    reference = pickled_infos_async_vector_env(fns, num_workers=2, batch_size=batch_size)
    try:
        ours.reset(seed=5)
        reference.reset(seed=5)
        for t in range(30):
            sign = 1.0 if t % 3 else -1.0  # "level" changes type: new layouts are learned
            actions = np.full((NUM_ENVS, 2), sign * 0.5, dtype=np.float32)
            got = _received_per_env(ours, actions, t)
            want = _received_per_env(reference, actions, t)
            for i in range(NUM_ENVS):
                np.testing.assert_array_equal(got[i][0], want[i][0], err_msg=f"{t} env {i}")
                assert got[i][1] == want[i][1]
                assert got[i][2].keys() == want[i][2].keys(), f"{t} env {i}"
                for key, value in want[i][2].items():
                    np.testing.assert_array_equal(got[i][2][key], value, err_msg=f"{t} {key}")
        assert ours._info_registry is not None
        assert ours._info_registry.generation >= 2
        assert ours._scheduler.held is not None
    finally:
        ours.close()
        reference.close()


class _KeyOrderEnv(gymnasium.Env[np.ndarray, np.ndarray]):
    """Numeric infos whose keys come in an order of the env's own: ``a``, ``b`` in even-indexed
    envs, ``b``, ``a`` in odd ones."""

    observation_space = gymnasium.spaces.Box(-1.0, 1.0, (1,), np.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def __init__(self, index: int) -> None:
        self.index = index
        self._t = 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
        super().reset(seed=seed)
        self._t = 0
        return np.zeros(1, dtype=np.float32), {}

    def step(self, action: Any) -> Any:
        self._t += 1
        pairs = [("a", float(self._t)), ("b", self.index)]
        info = dict(pairs if self.index % 2 == 0 else pairs[::-1])
        return np.zeros(1, dtype=np.float32), 0.0, False, False, info


def test_recv_keeps_each_envs_info_key_order() -> None:
    """Envs of one worker return the same numeric keys in different orders. A ``recv`` batch of
    one env lists its keys (and masks) in that env's order, as the pickled path (Gymnasium's
    fold) does, with the same values; a whole ``step`` lists them in the first env's order."""
    from vecgym.vector import AsyncVectorEnv

    fns = [lambda i=i: _KeyOrderEnv(i) for i in range(4)]
    kwargs: dict[str, Any] = {"num_workers": 1, "batch_size": 1}
    ours = AsyncVectorEnv(fns, **kwargs)
    reference = pickled_infos_async_vector_env(fns, **kwargs)
    try:
        for envs in (ours, reference):
            envs.reset(seed=0)
        for t in range(6):
            for envs in (ours, reference):
                envs.send(np.zeros(4, dtype=np.int64), np.arange(4))
            for _ in range(4):
                got = ours.recv(timeout=30)
                want = reference.recv(timeout=30)
                assert list(got[4]) == list(want[4]), f"round {t}, env {got[-1]}"
                assert_same_batch(got, want, f"round {t}")
        got_step = ours.step(np.zeros(4, dtype=np.int64))[4]
        want_step = reference.step(np.zeros(4, dtype=np.int64))[4]
        assert list(got_step) == list(want_step) == ["a", "_a", "b", "_b"]
        assert_same_batch(got_step, want_step)
    finally:
        ours.close()
        reference.close()


@pytest.mark.parametrize(("num_envs", "parent_envs"), [(4, 0), (6, 4)])
def test_held_infos_stay_their_envs_while_the_worker_steps_others(
    num_envs: int, parent_envs: int
) -> None:
    """Infos held for a later ``recv`` are read from the shared slots when that ``recv`` takes
    them. Meanwhile the same stepper (a worker, or the parent's slice) steps the other half of
    its four envs, sent again after they were received, and writes their rows of the same slot
    arrays, now and then in a layout learned meanwhile (``level`` turns int). Only that slice's
    envs are sent, so the batches alternate between its halves in a fixed order; each env's k-th
    transition equals the pickled path's (its actions depend on the env and k only)."""
    from tests.support.info_envs import InfoEnv
    from vecgym.vector import AsyncVectorEnv

    fns = [lambda i=i: InfoEnv(i, numeric_only=True) for i in range(num_envs)]
    kwargs: dict[str, Any] = {"num_workers": 1, "parent_envs": parent_envs, "batch_size": 2}

    def action(i: int, k: int) -> np.ndarray:
        sign = -1.0 if (i + k) % 3 == 0 else 1.0
        return np.array([sign * (0.1 + 0.01 * k), 0.2 + 0.01 * i], dtype=np.float32)

    def transitions(envs: Any, rounds: int) -> dict[tuple[int, int], Any]:
        first = num_envs - 4  # the stepper of the last four envs: the worker, or the parent
        assert envs._pool.slices[-1] == (first, num_envs)
        envs.reset(seed=9)
        count = [0] * num_envs
        out: dict[tuple[int, int], Any] = {}
        ids = np.arange(first, num_envs)
        for t in range(rounds):
            envs.send(np.stack([action(i, count[i]) for i in ids.tolist()]), ids)
            obs, rewards, terminated, truncated, infos, ids = envs.recv(timeout=30)
            half = first + 2 * (t % 2)  # held after round 0: the half sent a round earlier
            assert ids.tolist() == [half, half + 1], f"round {t}"
            for j, i in enumerate(ids.tolist()):
                info = {
                    key: value[j]
                    for key, value in infos.items()
                    if not key.startswith("_") and infos[f"_{key}"][j]
                }
                out[(i, count[i])] = (obs[j].copy(), rewards[j], terminated[j], truncated[j], info)
                count[i] += 1
        return out

    ours = AsyncVectorEnv(fns, **kwargs)
    reference = pickled_infos_async_vector_env(fns, **kwargs)
    try:
        got, want = transitions(ours, 40), transitions(reference, 40)
        assert ours._info_registry is not None
        assert ours._info_registry.generation >= 2
    finally:
        ours.close()
        reference.close()
    assert got.keys() == want.keys()
    assert len(got) == 80
    for i, k in sorted(got):
        (obs, reward, term, trunc, info), expected = got[(i, k)], want[(i, k)]
        np.testing.assert_array_equal(obs, expected[0], err_msg=f"env {i} step {k}")
        assert (reward, term, trunc) == expected[1:4], f"env {i} step {k}"
        assert info.keys() == expected[4].keys(), f"env {i} step {k}"
        for key, value in expected[4].items():
            np.testing.assert_array_equal(info[key], value, err_msg=f"env {i} step {k} {key}")


@pytest.mark.parametrize(
    ("num_workers", "parent_envs", "ids_form"),
    [(2, 0, "array"), (2, 0, "none"), (1, 3, "list"), (3, 0, "int32"), (3, 0, "gapped")],
)
def test_recv_batches_equal_the_pickled_path(
    num_workers: int, parent_envs: int, ids_form: str
) -> None:
    """Batch by batch, ``recv`` returns what the pickled path returns (keys and their order,
    dtypes, masks, values), one group of envs in flight at a time, each sent again with the ids
    its last ``recv`` returned (as that array, ``None``, a list, or int32): whole-worker batches,
    and (``gapped``) a batch of two workers' envs with a gap between them, of one schema (most
    steps) and of several (``late`` joins in some envs), across layouts (``level`` turns from
    float to int now and then)."""
    from tests.support.info_envs import InfoEnv
    from vecgym.vector import AsyncVectorEnv

    num_envs = 6
    fns = [lambda i=i: InfoEnv(i, numeric_only=True) for i in range(num_envs)]
    steppers = num_workers + (parent_envs > 0)
    kwargs: dict[str, Any] = {
        "num_workers": num_workers,
        "parent_envs": parent_envs,
        "batch_size": 4 if ids_form == "gapped" else num_envs // steppers,
    }
    ours = AsyncVectorEnv(fns, **kwargs)
    reference = pickled_infos_async_vector_env(fns, **kwargs)
    groups = [np.arange(a, b) for a, b in ours._pool.slices]
    if ids_form == "gapped":  # workers 0 and 2 in one batch (a fancy index), then worker 1
        groups = [np.array([0, 1, 4, 5]), np.array([2, 3])]
    forms = {
        "array": lambda ids: ids,
        "none": lambda ids: None,
        "list": lambda ids: ids.tolist(),
        "int32": lambda ids: ids.astype(np.int32),
        "gapped": lambda ids: ids,
    }
    try:
        ours.reset(seed=3)
        reference.reset(seed=3)
        for k, ids in enumerate(groups):
            sent: Any = ids
            rng = np.random.default_rng(k)
            for t in range(25):
                sign = -1.0 if t % 7 == 6 else 1.0  # "level" turns int: a new layout is learned
                actions = (sign * rng.uniform(0.1, 1.0, (len(ids), 2))).astype(np.float32)
                ours.send(actions, sent)
                reference.send(actions, ids)
                got, want = ours.recv(timeout=30), reference.recv(timeout=30)
                np.testing.assert_array_equal(got[-1], ids)
                assert_same_batch(got, want, f"group {k} step {t}")
                sent = forms[ids_form](got[-1])
        assert ours._info_registry is not None
        assert ours._info_registry.generation >= 1
    finally:
        ours.close()
        reference.close()


@pytest.mark.parametrize(
    ("num_workers", "parent_envs", "mode"),
    [
        (2, 0, AutoresetMode.NEXT_STEP),
        (3, 0, AutoresetMode.NEXT_STEP),
        (1, 3, AutoresetMode.NEXT_STEP),
        (2, 2, AutoresetMode.NEXT_STEP),
        (2, 0, AutoresetMode.SAME_STEP),
        (2, 2, AutoresetMode.SAME_STEP),
    ],
)
def test_random_send_recv_equal_the_pickled_path(
    num_workers: int, parent_envs: int, mode: AutoresetMode
) -> None:
    """Random ``send`` patterns, batch by batch equal to the pickled path: subsets of the envs
    sent in one or two calls (the second often queued behind a worker still busy with the
    first), the last ``recv``'s ids sent back in each accepted form, envs whose infos are partly
    pickled (a string key in every fourth env), and now and then a ``step`` of every env; in
    both autoreset modes of ``send`` / ``recv`` (``SAME_STEP``: final parts held from shared
    memory)."""
    from tests.support.info_envs import InfoEnv
    from vecgym.vector import AsyncVectorEnv

    num_envs = 7
    fns = [lambda i=i: InfoEnv(i, numeric_only=i % 4 != 3) for i in range(num_envs)]
    kwargs: dict[str, Any] = {
        "num_workers": num_workers,
        "parent_envs": parent_envs,
        "batch_size": num_envs,  # a recv returns every env in flight: the batches are the same
        "autoreset_mode": mode,
    }
    ours = AsyncVectorEnv(fns, **kwargs)
    reference = pickled_infos_async_vector_env(fns, **kwargs)
    rng = np.random.default_rng(num_workers * 10 + parent_envs)
    try:
        ours.reset(seed=11)
        reference.reset(seed=11)
        last: np.ndarray | None = None
        for t in range(50):
            if last is not None and rng.random() < 0.5:
                forms = [None, last, last.tolist(), last.astype(np.int32)]
                sends = [(last, forms[int(rng.integers(len(forms)))])]
            else:
                chosen = np.sort(rng.choice(num_envs, int(rng.integers(1, num_envs + 1)), False))
                parts = np.array_split(chosen, int(rng.integers(1, 3)))
                sends = [(part, part) for part in parts if part.size]
            for ids, sent in sends:
                signs = np.where(rng.random(len(ids)) < 0.2, -1.0, 1.0)[:, None]
                actions = (signs * rng.uniform(0.1, 1.0, (len(ids), 2))).astype(np.float32)
                ours.send(actions, sent)
                reference.send(actions, ids)
            got, want = ours.recv(timeout=30), reference.recv(timeout=30)
            assert_same_batch(got, want, f"step {t}")
            last = got[-1]
            if rng.random() < 0.05:
                actions = np.full((num_envs, 2), 0.5, dtype=np.float32)
                assert_same_batch(ours.step(actions), reference.step(actions), f"step() {t}")
                last = None
    finally:
        ours.close()
        reference.close()


def test_info_signatures_cover_numeric_values_only() -> None:
    from vecgym.vector._async.infos import info_signature

    class MyFloat(np.float64):
        pass

    numeric = {"a": 1, "b": 2.5, "c": True, "d": np.float32(1), "e": np.zeros((2, 3), np.int16)}
    assert info_signature(numeric) == (
        ("a", int),
        ("b", float),
        ("c", bool),
        ("d", np.float32),
        ("e", ("<i2", (2, 3))),
    )
    # a nested dict of numbers (RecordEpisodeStatistics' "episode"): its values by path
    assert info_signature({"x": 1, "episode": {"r": 1.5, "l": 3}}) == (
        ("x", int),
        ("episode\x1fr", float),
        ("episode\x1fl", int),
    )
    for other in (
        {"a": 1, "name": "x"},
        {"a": np.bool_(True)},
        {"_a": 1},
        {"a": {}},
        {"a": {"_b": 1}},
        {"a": {"b": "text"}},
        {"a\x1fb": 1},
        {"a": {"b\x1fc": 1}},
        {"final_obs": np.zeros(2)},
        {"a": {"final_obs": np.zeros(2)}},
        {"a": np.array([None])},
        {"a": MyFloat(1.0)},
        {"a": [1, 2]},
    ):
        assert info_signature(other) is None, other


_slot_scalars = st.one_of(
    st.integers(-(2**70), 2**70),  # beyond int64 too: such an info is pickled
    st.floats(allow_nan=False),
    st.booleans(),
    st.integers(-(2**40), 2**40).map(np.int64),
    st.floats(allow_nan=False, width=32).map(np.float32),
    st.sampled_from([np.zeros(2), np.arange(3, dtype=np.int16), "text"]),
)
_slot_infos = st.dictionaries(st.sampled_from(["x", "y", "z"]), _slot_scalars, max_size=3)


_same_type_values: dict[type, st.SearchStrategy[Any]] = {
    int: st.integers(-(2**70), 2**70),
    float: st.floats(allow_nan=False),
    bool: st.booleans(),
    np.int64: st.integers(-(2**40), 2**40).map(np.int64),
    np.float32: st.floats(allow_nan=False, width=32).map(np.float32),
}


def _value_like(draw: st.DrawFn, value: Any) -> Any:
    """A new value of ``value``'s type (arrays and strings stay as they are)."""
    strategy = _same_type_values.get(type(value))
    return value if strategy is None else draw(strategy)


def _later_info(draw: st.DrawFn, info: dict[str, Any]) -> dict[str, Any]:
    """An info of a later step of the env that returned ``info``: mostly its keys, in order,
    with new values of the same types; now and then keys in another order, a value of another
    type, or another info altogether."""
    change = draw(st.integers(0, 29))
    if change == 0:
        return draw(_slot_infos)
    later = {key: _value_like(draw, value) for key, value in info.items()}
    if change == 1:
        later = dict(reversed(later.items()))
    elif change == 2 and later:
        later[next(iter(later))] = draw(_slot_scalars)
    return later


@st.composite
def _later_batches(draw: st.DrawFn, infos: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Later batches of the envs of ``infos``, each mostly like the first env's info (the usual
    batch: one schema), or else like each env's own."""
    batches = []
    for _ in range(draw(st.integers(0, 5))):
        like = [infos[0]] * len(infos) if draw(st.integers(0, 3)) else infos
        batches.append([_later_info(draw, info) for info in like])
    return batches


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_slot_infos, min_size=1, max_size=6),
    st.lists(_slot_infos, max_size=3),
    st.booleans(),
    st.data(),
)
@example(  # the same keys in another order: another signature, so env by env
    [{"x": 0, "y": 0, "z": 0}, {"x": 0, "z": 0, "y": 0}], [], False, []
)
@example(  # after batches written column by column: a value of another type, keys reordered
    [{"x": 1, "y": 2.0}, {"x": 3, "y": 4.0}],
    [],
    True,
    [
        [{"x": 5, "y": 6.0}, {"x": 7, "y": 8.0}],
        [{"x": 5, "y": 6.0}, {"x": 7.5, "y": 8.0}],
        [{"x": 5, "y": 6.0}, {"y": 8.0, "x": 7}],
        [{"x": 9, "y": 1.0}, {"x": 2, "y": 3.0}],
    ],
)
@example(  # after batches written column by column: another order or another key, same types
    [{"x": 1, "y": 2}, {"x": 3, "y": 4}],
    [],
    True,
    [
        [{"x": 5, "y": 6}, {"x": 7, "y": 8}],
        [{"x": 5, "y": 6}, {"y": 8, "x": 7}],
        [{"x": 5, "y": 6}, {"x": 7, "z": 8}],
        [{"x": 9, "y": 1}, {"x": 2, "y": 3}],
    ],
)
def test_info_writer_batch_equals_env_by_env(
    infos: list[dict[str, Any]],
    learned_from: list[dict[str, Any]],
    contiguous: bool,
    later: st.DataObject | list[list[dict[str, Any]]],
) -> None:
    """``InfoWriter.write_batch`` (one slot assignment per key) writes the same slots, returns
    the same schema ids and proposes the same signatures as ``write`` env by env, batch after
    batch (later steps of the same envs, mostly with the keys and types of the first)."""
    import os

    from vecgym.vector._async.infos import InfoRegistry, InfoWriter, info_signature

    num_envs = 2 * len(infos) + 1
    envs = list(range(1, len(infos) + 1)) if contiguous else list(range(0, 2 * len(infos), 2))
    registry = InfoRegistry(num_envs)
    signatures = [info_signature(info) for info in [*learned_from, *infos[:1]]]
    registry.learn([sig for sig in signatures if sig])
    # the second round runs with the writer's cache filled, the later ones after a batch
    # written column by column
    if not isinstance(later, list):
        later = later.draw(_later_batches(infos))
    rounds = [infos, infos, *later]
    results = []
    try:
        for batched in (False, True):
            writer = InfoWriter()
            if registry.fd is not None:
                writer.attach(registry.layout, os.dup(registry.fd))
            proposals: list[Any] = []
            for batch in rounds:
                if batched:
                    ids = writer.write_batch(envs, batch, proposals)
                else:
                    pairs = zip(envs, batch, strict=True)
                    ids = [writer.write(i, info, proposals) for i, info in pairs]
                views = registry.views(registry.generation) if registry.fd is not None else {}
                rows = {slot: view[envs].copy() for slot, view in views.items()}
                # only the slots of the schema each env was written with count
                written = {
                    (i, key): rows[(key, tag)][k]
                    for k, (i, schema) in enumerate(zip(envs, ids, strict=True))
                    if schema
                    for key, tag in registry.layout.schemas[schema - 1]
                }
                results.append((ids, written, list(proposals)))
                for view in views.values():
                    view[...] = 0
    finally:
        registry.close()
    half = len(rounds)
    for expected, got in zip(results[:half], results[half:], strict=True):
        assert got[0] == expected[0]
        assert got[2] == expected[2]
        assert got[1].keys() == expected[1].keys()
        for slot, value in expected[1].items():
            np.testing.assert_array_equal(got[1][slot], value)


# --- nested info dicts (RecordEpisodeStatistics' "episode") in the shared slots ------------------
_leaf_values = st.one_of(
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False),
    st.booleans(),
    st.floats(allow_nan=False, width=32).map(np.float32),
    st.sampled_from([np.zeros(2), np.arange(2, dtype=np.int16)]),
)
_nested_infos = st.dictionaries(
    st.sampled_from(["x", "episode", "stats"]),
    st.one_of(
        _leaf_values,
        st.dictionaries(
            st.sampled_from(["r", "l", "inner"]),
            st.one_of(_leaf_values, st.dictionaries(st.sampled_from(["a", "b"]), _leaf_values)),
        ),
    ),
    max_size=3,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _nested_infos), min_size=1, max_size=5))
@example([(True, {"episode": {"r": 1.0, "l": 2}}), (True, {"x": 1, "episode": {"l": 3}})])
@example([(True, {"episode": 1.0}), (True, {"episode": {"r": 1.0}})])
@example([(True, {"x": np.float32(0.0)}), (True, {"x": 3.4028235677973366e38})])
def test_nested_infos_from_the_slots_equal_the_fold(
    rows: list[tuple[bool, dict[str, Any]]],
) -> None:
    """Infos with nested dicts of numbers, written by a worker's writer into the shared slots
    and assembled by the parent, equal the per-env fold of ``_add_info`` (keys and their order
    at every depth, masks, dtypes): whatever the envs' nested keys, and where one env's value is
    a number and another's a dict under the same name (then batched env by env)."""
    import os

    from vecgym.vector._async.infos import InfoRegistry, InfoWriter, info_signature

    num_envs = len(rows)
    entries = [(i, info) for i, (present, info) in enumerate(rows) if present and info]
    try:
        expected = _fold(entries, num_envs)
    except (TypeError, ValueError, AttributeError, IndexError, OverflowError, RuntimeWarning):
        return  # the fold itself fails (a number and a dict under one name; a float32 overflow)
    registry = InfoRegistry(num_envs)
    try:
        registry.learn([sig for _, info in entries if (sig := info_signature(info))])
        writer = InfoWriter()
        if registry.fd is not None:
            writer.attach(registry.layout, os.dup(registry.fd))
        schema_ids = np.zeros(num_envs, dtype=np.int64)
        pickled = []
        for i, info in entries:
            schema_ids[i] = writer.write(i, info, [])
            if not schema_ids[i]:
                pickled.append((i, info))
        merge = SyncVectorEnv.__new__(SyncVectorEnv)
        merge.num_envs = num_envs
        got = registry.assemble(schema_ids, registry.generation, pickled, merge._merge_infos)
    finally:
        registry.close()
    assert_same_batch(got, expected)
