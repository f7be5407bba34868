"""Shared-memory helpers: round trips in one process, Gymnasium's layout, the fast writers."""

from __future__ import annotations

import multiprocessing as mp
from typing import Any

import numpy as np
import pytest

import vecgym.spaces as vspaces
from tests.support.messages import message_pattern
from tests.vector.test_space_utils import MAKERS, SHARED
from vecgym import error
from vecgym.vector.utils import (
    CloudpickleWrapper,
    batch_space,
    clear_mpi_env_vars,
    create_shared_memory,
    make_shared_memory_writer,
    read_from_shared_memory,
    write_to_shared_memory,
)
from vecgym.vector.utils.shared_memory import (
    DYNAMIC_SPACE_MSG,
    NO_IMPLEMENTATION_MSG,
    NOT_A_SPACE_MSG,
)

gymnasium = pytest.importorskip("gymnasium")
gvu = pytest.importorskip("gymnasium.vector.utils")

N = 3


def _samples(space: Any, n: int) -> list[Any]:
    space.seed(9)
    return [space.sample() for _ in range(n)]


def _expected(space: Any, items: list[Any]) -> Any:
    """What reading back ``items`` gives: arrays stacked, Text / OneOf as tuples."""
    if isinstance(space, vspaces.Tuple):
        return tuple(_expected(part, [item[i] for item in items]) for i, part in enumerate(space))
    if isinstance(space, vspaces.Dict):
        return {key: _expected(part, [item[key] for item in items]) for key, part in space.items()}
    if isinstance(space, (vspaces.Text, vspaces.OneOf)):
        return tuple(items)
    return np.stack([np.asarray(item, dtype=space.dtype) for item in items])


def _same(space: Any, ours: Any, expected: Any) -> None:
    """Compare a read-back value with the expected one, walking ``space``."""
    if isinstance(space, vspaces.Tuple):
        for part, a, b in zip(space, ours, expected, strict=True):
            _same(part, a, b)
    elif isinstance(space, vspaces.Dict):
        assert list(ours) == list(expected)
        for key, part in space.items():
            _same(part, ours[key], expected[key])
    elif isinstance(space, vspaces.OneOf):
        for (index, value), (e_index, e_value) in zip(ours, expected, strict=True):
            assert index == e_index
            np.testing.assert_array_equal(value, e_value)
    elif isinstance(space, vspaces.Text):
        assert ours == expected
    else:
        assert isinstance(ours, np.ndarray)
        assert ours.dtype == expected.dtype
        np.testing.assert_array_equal(ours, expected)


@pytest.mark.parametrize("name", SHARED)
@pytest.mark.parametrize("ctx", [mp, mp.get_context("spawn")])
def test_round_trip(name: str, ctx: Any) -> None:
    space = MAKERS[name](vspaces)
    items = _samples(space, N)
    memory = create_shared_memory(space, n=N, ctx=ctx)
    for i in (1, 0, 2):
        write_to_shared_memory(space, i, items[i], memory)
    _same(space, read_from_shared_memory(space, memory, n=N), _expected(space, items))


@pytest.mark.parametrize("name", SHARED)
def test_writer_matches_write_to_shared_memory(name: str) -> None:
    space = MAKERS[name](vspaces)
    items = _samples(space, N)
    slow, fast = create_shared_memory(space, n=N), create_shared_memory(space, n=N)
    write = make_shared_memory_writer(space, fast, n=N)
    for i, item in enumerate(items):
        write_to_shared_memory(space, i, item, slow)
        write(i, item)
    _same(
        space, read_from_shared_memory(space, fast, n=N), read_from_shared_memory(space, slow, n=N)
    )


@pytest.mark.parametrize("name", SHARED)
def test_layout_matches_gymnasium(name: str) -> None:
    """Memory written by vecgym reads back identically with Gymnasium's functions, and back."""
    ours, theirs = MAKERS[name](vspaces), MAKERS[name](gymnasium.spaces)
    items = _samples(ours, N)
    memory = create_shared_memory(ours, n=N)
    write = make_shared_memory_writer(ours, memory, n=N)
    for i, item in enumerate(items):
        write(i, item)
    _same(ours, gvu.read_from_shared_memory(theirs, memory, n=N), _expected(ours, items))

    gym_memory = gvu.create_shared_memory(theirs, n=N)
    for i, item in enumerate(items):
        gvu.write_to_shared_memory(theirs, i, item, gym_memory)
    _same(ours, read_from_shared_memory(ours, gym_memory, n=N), _expected(ours, items))


def test_read_returns_views() -> None:
    space = vspaces.Box(0, 1, shape=(2,))
    memory = create_shared_memory(space, n=2)
    view = read_from_shared_memory(space, memory, n=2)
    write_to_shared_memory(space, 1, np.array([0.5, 0.25], dtype=np.float32), memory)
    np.testing.assert_array_equal(view[1], [0.5, 0.25])


@pytest.mark.parametrize("name", ["sequence", "sequence_stack", "graph"])
def test_dynamic_spaces_rejected(name: str) -> None:
    space = MAKERS[name](vspaces)
    with pytest.raises(TypeError, match=message_pattern(DYNAMIC_SPACE_MSG)):
        create_shared_memory(space, n=2)


def test_custom_space_errors() -> None:
    class Custom(vspaces.Space[int]):
        pass

    for func, args in [
        (create_shared_memory, ()),
        (read_from_shared_memory, (None,)),
        (write_to_shared_memory, (0, 0, None)),
    ]:
        unsupported = message_pattern(NO_IMPLEMENTATION_MSG, func=func.__name__, name="Custom")
        with pytest.raises(error.CustomSpaceError, match=unsupported):
            func(Custom(), *args)
    not_a_space = message_pattern(NOT_A_SPACE_MSG, func="create_shared_memory", value="box")
    with pytest.raises(TypeError, match=not_a_space):
        create_shared_memory("box")  # type: ignore[arg-type]


def test_batched_discrete_through_shared_memory() -> None:
    space = vspaces.Discrete(4, start=1)
    memory = create_shared_memory(space, n=4)
    write = make_shared_memory_writer(space, memory, n=4)
    for i in range(4):
        write(i, np.int64(i + 1))
    values = read_from_shared_memory(space, memory, n=4)
    assert values in batch_space(space, 4)


def test_cloudpickle_wrapper_and_mpi_vars(monkeypatch: pytest.MonkeyPatch) -> None:
    import pickle

    offset = 3
    wrapper = CloudpickleWrapper(lambda: offset + 1)
    assert pickle.loads(pickle.dumps(wrapper))() == 4
    monkeypatch.setenv("OMPI_TEST_VAR", "1")
    monkeypatch.setenv("PMI_TEST_VAR", "2")
    import os

    with clear_mpi_env_vars():
        assert "OMPI_TEST_VAR" not in os.environ
        assert "PMI_TEST_VAR" not in os.environ
    assert os.environ["OMPI_TEST_VAR"] == "1"
