"""Checks at the vector envs' boundary: actions outside the action space, step before reset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.support.crashing_envs import RaisingEnv
from vecgym import error
from vecgym.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Text, Tuple
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv
from vecgym.vector._boundary import ActionBoundsCheck, find_unpicklable


def _sync(n: int = 3, **kwargs: Any) -> SyncVectorEnv:
    return SyncVectorEnv([RaisingEnv for _ in range(n)], **kwargs)


def test_sync_step_before_reset_and_partial_reset() -> None:
    envs = _sync()
    with pytest.raises(error.ResetNeeded, match=r"sub-environment\(s\) \[0, 1, 2\]"):
        envs.step(np.zeros(3, dtype=np.int64))
    envs.reset(options={"reset_mask": np.array([True, False, True])})
    with pytest.raises(error.ResetNeeded, match=r"sub-environment\(s\) \[1\]"):
        envs.step(np.zeros(3, dtype=np.int64))
    assert envs.get_attr("count") == (0, 0, 0)
    envs.reset(options={"reset_mask": np.array([False, True, False])})
    envs.step(np.zeros(3, dtype=np.int64))
    envs.close()


@pytest.mark.parametrize("make", [_sync, lambda **kw: AsyncVectorEnv([RaisingEnv] * 3, **kw)])
def test_out_of_range_actions_rejected_before_stepping(make: Any) -> None:
    envs = make()
    try:
        envs.reset(seed=0)
        with pytest.raises(error.InvalidAction, match=r"sub-environment\(s\) \[2\].*got \[2\]"):
            envs.step(np.array([0, 1, 2]))
        assert envs.get_attr("count") == (0, 0, 0)
    finally:
        envs.close()
    envs = make(check_actions=False)
    try:
        envs.reset(seed=0)
        envs.step(np.array([0, 1, 2]))  # no check: the env accepts it
        assert envs.get_attr("count") == (1, 1, 1)
    finally:
        envs.close()


@pytest.mark.parametrize(
    ("space", "good", "bad", "bad_rows"),
    [
        (Discrete(3, start=-1), [-1, 0, 1], [-2, 0, 2], [0, 2]),
        (MultiDiscrete([2, 3]), [[0, 2], [1, 0], [1, 1]], [[0, 3], [1, 0], [2, 1]], [0, 2]),
        (MultiBinary(2), [[0, 1], [1, 1], [0, 0]], [[0, 1], [2, 1], [0, 0]], [1]),
        (
            Box(-1.0, 1.0, (2,), np.float32),
            [[0, 1], [-1, 0], [0.5, 0.5]],
            [[0, np.nan], [0, 0], [0, 0]],
            [0],
        ),
    ],
)
def test_vectorised_check_per_space(space: Any, good: Any, bad: Any, bad_rows: list[int]) -> None:
    check = ActionBoundsCheck(space, strict=False)
    check.check_batch(np.asarray(good), 3)
    with pytest.raises(error.InvalidAction, match=rf"sub-environment\(s\) \[{bad_rows[0]}"):
        check.check_batch(np.asarray(bad), 3)


def test_box_bounds_only_when_strict() -> None:
    space = Box(-1.0, 1.0, (2,), np.float32)
    outside = np.array([[0.0, 3.0], [0.0, 0.0]], dtype=np.float32)
    ActionBoundsCheck(space, strict=False).check_batch(outside, 2)  # Gymnasium accepts these
    with pytest.raises(error.InvalidAction, match=r"sub-environment\(s\) \[0\]"):
        ActionBoundsCheck(space, strict=True).check_batch(outside, 2)
    with pytest.raises(error.InvalidAction, match=r"sub-environment\(s\) \[0, 1\].*NaN"):
        ActionBoundsCheck(space, strict=False).check_batch(np.full((2, 2), np.nan), 2)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("size", [1, 3, 5000])
def test_nan_check_agrees_with_isnan(dtype: Any, size: int) -> None:
    """The NaN test (one argmax over the batch) flags exactly the rows with a NaN, also beside
    infinities of both signs and the dtype's largest values, without warnings."""
    space = Box(-np.inf, np.inf, (2,), dtype)
    check = ActionBoundsCheck(space, strict=False)
    big = np.finfo(dtype).max
    batches = [
        np.zeros((size, 2), dtype),
        np.full((size, 2), big, dtype),
        np.tile(np.array([np.inf, -np.inf], dtype), (size, 1)),
    ]
    for batch in batches:
        check.check_batch(batch, size)  # no NaN: accepted
        with_nan = batch.copy()
        with_nan[size - 1, 1] = np.nan
        with pytest.raises(error.InvalidAction, match=rf"sub-environment\(s\) \[{size - 1}\]"):
            check.check_batch(with_nan, size)
    transposed = np.full((2, size), np.nan, dtype).T  # not contiguous
    with pytest.raises(error.InvalidAction):
        check.check_batch(transposed, size)


@pytest.mark.parametrize(
    "views",
    [
        np.arange(6, dtype=np.int64),
        np.arange(6, dtype=np.uint8) % 2 == 0,
        np.linspace(-1, 1, 6).astype(np.float32),  # 0-d float32 actions come back as float64
        np.linspace(-1, 1, 6),
        np.arange(18, dtype=np.float32).reshape(6, 3),
        (np.arange(6), np.arange(12.0).reshape(6, 2)),
        {"a": np.arange(6), "b": np.ones((6, 1), np.int8)},
    ],
)
@pytest.mark.parametrize("stepped", [[True] * 4, [True, False, True, True]])
def test_worker_reads_a_slice_of_actions_as_env_by_env(views: Any, stepped: list[bool]) -> None:
    from vecgym.vector._async.worker import _read, _read_actions

    got = _read_actions(views, 1, 5, stepped)
    for k, on in enumerate(stepped):
        if not on:
            continue
        _assert_same_action(got[k], _read(views, 1 + k), views)


def _assert_same_action(value: Any, expected: Any, views: Any) -> None:
    """Same type, dtype and value; arrays are private copies (the env may keep or change them)."""
    assert type(value) is type(expected)
    if isinstance(expected, dict):
        for key in expected:
            _assert_same_action(value[key], expected[key], views[key])
    elif isinstance(expected, tuple):
        for part, expected_part, view in zip(value, expected, views, strict=True):
            _assert_same_action(part, expected_part, view)
    else:
        assert value.dtype == expected.dtype
        np.testing.assert_array_equal(value, expected)
        if isinstance(value, np.ndarray):
            assert not np.shares_memory(value, views)


def test_structured_and_fallback_spaces() -> None:
    space = Dict({"a": Discrete(2), "b": Tuple((MultiBinary(1), Box(0, 1, (1,))))})
    check = ActionBoundsCheck(space, strict=True)
    good = {"a": np.array([0, 1]), "b": (np.array([[0], [1]]), np.array([[0.0], [1.0]]))}
    check.check_batch(good, 2)
    bad = {"a": np.array([0, 1]), "b": (np.array([[0], [1]]), np.array([[0.0], [1.5]]))}
    with pytest.raises(error.InvalidAction, match=r"sub-environment\(s\) \[1\]"):
        check.check_batch(bad, 2)
    text = ActionBoundsCheck(Text(3))
    assert not text.vectorised
    text.check_items(["ab", "c"])
    with pytest.raises(error.InvalidAction, match=r"sub-environment\(s\) \[7\]"):
        text.check_items(["ab", "abcdef"], env_ids=[4, 7])


def test_find_unpicklable_names_the_member() -> None:
    import threading

    holder = {"lock": threading.Lock()}

    def make() -> Any:
        return holder

    path, _, reason = find_unpicklable(make, "env_fns[0]") or ("", None, None)
    assert path == "env_fns[0] (closure variable 'holder')['lock']"
    assert "lock" in str(reason)
    assert find_unpicklable(lambda: 1) is None


@pytest.mark.parametrize("start", [-1, 0, 3, 300])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_integer_range_check_matches_the_definition(start: int, dtype: Any) -> None:
    rng = np.random.default_rng(start + 1)
    info = np.iinfo(dtype)
    check = ActionBoundsCheck(Discrete(3, start=start))
    for _ in range(200):
        batch = rng.integers(info.min, info.max, size=6, dtype=dtype, endpoint=True)
        if rng.random() < 0.5 and info.min <= start and start + 2 <= info.max:
            batch = rng.integers(start, start + 2, size=6, endpoint=True).astype(dtype)
        inside = all(start <= int(value) <= start + 2 for value in batch)
        if inside:
            check.check_leaves([batch])
        else:
            with pytest.raises(error.InvalidAction):
                check.check_leaves([batch])


@pytest.mark.parametrize("n", [1, 3, 200, 300])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_discrete_span_agrees_with_the_check(n: int, dtype: Any) -> None:
    """The inline test that :meth:`ActionBoundsCheck.discrete_span` describes accepts exactly the
    batches :meth:`check_leaves` accepts, or is not offered (``None``)."""
    check = ActionBoundsCheck(Discrete(n))
    plan = check.discrete_span(np.dtype(dtype))
    info = np.iinfo(dtype)
    if n - 1 > info.max:
        assert plan is None  # the dtype cannot hold every value of the space
        return
    assert plan is not None
    unsigned, span = plan
    assert span == n - 1
    assert unsigned.kind == "u"
    assert unsigned.itemsize == np.dtype(dtype).itemsize
    rng = np.random.default_rng(n)
    edges = [v for v in (info.min, -1, 0, n - 1, n, info.max) if info.min <= v <= info.max]
    batches = [np.array([v], dtype=dtype) for v in edges]
    batches += [rng.integers(info.min, info.max, 6, dtype=dtype, endpoint=True) for _ in range(50)]
    batches += [rng.integers(0, n - 1, 6, endpoint=True).astype(dtype) for _ in range(50)]
    for batch in batches:
        values = batch.view(unsigned)
        accepted = bool(values[values.argmax()] <= span)
        assert accepted == all(0 <= int(v) < n for v in batch)
        if accepted:
            check.check_leaves([batch])
        else:
            with pytest.raises(error.InvalidAction):
                check.check_leaves([batch])


@pytest.mark.parametrize(
    "space", [Discrete(3, start=1), Discrete(3, start=-2), MultiBinary(3), Box(-1, 1, (2,))]
)
def test_discrete_span_only_for_a_discrete_space_from_zero(space: Any) -> None:
    assert ActionBoundsCheck(space).discrete_span(np.dtype(np.int64)) is None


@pytest.mark.parametrize(
    ("space", "strict", "expected"),
    [
        (Box(-1.0, 1.0, (2,), np.float32), False, np.dtype(np.float32)),
        (Box(-1.0, 1.0, (), np.float64), False, np.dtype(np.float64)),
        (Box(-1.0, 1.0, (2,), np.float32), True, None),  # bounds too: not the NaN test alone
        (Box(-1.0, 1.0, (2, 0), np.float32), False, None),  # empty actions
        (Box(-1, 1, (2,), np.int64), False, None),
        (Discrete(3), False, None),
        (Tuple((Box(-1.0, 1.0, (2,), np.float32),)), False, None),
    ],
)
def test_nan_tested_dtype_names_only_a_single_float_box(
    space: Any, strict: bool, expected: Any
) -> None:
    assert ActionBoundsCheck(space, strict=strict).nan_tested_dtype == expected


def _box_sync(check_actions: Any = True) -> SyncVectorEnv:
    from tests.support.counting_env import CountingEnv

    box = Box(-1.0, 1.0, (2,), np.float32)
    return SyncVectorEnv(
        [lambda: CountingEnv(terminate_at=None, action_space=box)] * 3, check_actions=check_actions
    )


@pytest.mark.parametrize(
    "layout",
    [
        lambda a: a,  # the inline test
        lambda a: a.astype(np.float64),  # another float dtype
        lambda a: a.astype(">f4"),  # byte-swapped: not the space's own dtype object
        lambda a: np.asfortranarray(np.repeat(a, 2, axis=1))[:, ::2],  # not contiguous
    ],
)
def test_sync_float_box_actions_with_nan_are_rejected_before_stepping(layout: Any) -> None:
    """SyncVectorEnv's inline NaN test for float Box actions rejects exactly what the check
    rejects, naming the envs, whatever the batch's dtype or layout; infinities and the largest
    floats pass, as Gymnasium's envs accept them."""
    envs = _box_sync()
    envs.reset(seed=0)
    big = np.finfo(np.float32).max
    fine = np.array([[np.inf, -np.inf], [big, -big], [0.0, 1.0]], np.float32)
    envs.step(layout(fine))
    assert envs.get_attr("count") == (1, 1, 1)
    for rows in ([1], [0, 2]):
        bad = fine.copy()
        bad[rows, 1] = np.nan
        with pytest.raises(error.InvalidAction, match=rf"sub-environment\(s\) \{rows}.*NaN"):
            envs.step(layout(bad))
        assert envs.get_attr("count") == (1, 1, 1)
    envs.close()


def test_sync_float_box_action_errors_keep_their_order() -> None:
    """With the inline NaN test, a batch of the wrong length is still a ValueError, an env never
    reset is still reported before a NaN, and ``check_actions`` still decides what is checked."""
    envs = _box_sync()
    nan = np.full((3, 2), np.nan, np.float32)
    with pytest.raises(error.ResetNeeded):
        envs.step(nan)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="3"):
        envs.step(np.zeros((2, 2), np.float32))
    envs.step(np.full((3, 2), 5.0, np.float32))  # out of bounds: accepted, as by Gymnasium
    envs.close()
    strict = _box_sync("strict")
    strict.reset(seed=0)
    with pytest.raises(error.InvalidAction, match=r"sub-environment\(s\) \[0, 1, 2\]"):
        strict.step(np.full((3, 2), 5.0, np.float32))
    strict.close()
    unchecked = _box_sync(False)
    unchecked.reset(seed=0)
    unchecked.step(nan)  # no check: the envs get the NaN
    assert np.isnan(unchecked.get_attr("last_action")[0]).all()
    unchecked.close()
