"""`RecordConstructorArgs`: constructor keyword arguments are remembered for `Wrapper.spec`."""

from __future__ import annotations

from typing import Any

import pytest

from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.utils import RecordConstructorArgs as PublicRecord
from vecgym.utils.record_constructor import RecordConstructorArgs as PathRecord


class Base(RecordConstructorArgs):
    def __init__(self, level: int = 0, items: list[int] | None = None) -> None:
        RecordConstructorArgs.__init__(self, level=level, items=items)


class Derived(Base):
    def __init__(self, name: str = "d") -> None:
        RecordConstructorArgs.__init__(self, name=name)
        super().__init__(level=5)


def test_public_paths_are_the_same_class() -> None:
    assert PublicRecord is RecordConstructorArgs
    assert PathRecord is RecordConstructorArgs


def test_saves_kwargs() -> None:
    assert Base(2, [1])._saved_kwargs == {"level": 2, "items": [1]}


def test_saved_kwargs_are_deep_copies() -> None:
    items = [[1], [2]]
    obj = Base(items=items)  # type: ignore[arg-type]
    items[0].append(9)
    assert obj._saved_kwargs["items"] == [[1], [2]]


def test_disable_deepcopy_keeps_objects() -> None:
    marker = object()
    obj = RecordConstructorArgs(_disable_deepcopy=True, marker=marker)
    assert obj._saved_kwargs == {"marker": marker}
    assert obj._saved_kwargs["marker"] is marker


def test_first_call_wins() -> None:
    assert Derived("x")._saved_kwargs == {"name": "x"}


def test_disable_deepcopy_flag_is_not_recorded() -> None:
    obj = RecordConstructorArgs(_disable_deepcopy=False, a=1)
    assert obj._saved_kwargs == {"a": 1}


def test_matches_gymnasium() -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils import RecordConstructorArgs as GymRecord

    kwargs: dict[str, Any] = {"a": [1, 2], "b": {"c": 3}}
    assert GymRecord(**kwargs)._saved_kwargs == RecordConstructorArgs(**kwargs)._saved_kwargs
