"""The rename errors for old wrapper names."""

from __future__ import annotations

import re

import pytest

import vecgym.wrappers
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.wrappers._deprecated import (
    REMOVED_MSG,
    REMOVED_WRAPPERS,
    RENAMED_MSG,
    RENAMED_WRAPPERS,
    deprecated_wrapper_error,
)


def test_gymnasium_renames_are_known() -> None:
    gymnasium_wrappers = pytest.importorskip("gymnasium.wrappers")
    for old, new in gymnasium_wrappers._renamed_wrapper.items():
        assert RENAMED_WRAPPERS[old] == new


@pytest.mark.parametrize(("old", "new"), sorted(RENAMED_WRAPPERS.items()))
def test_renamed_wrapper_error_names_the_replacement(old: str, new: str) -> None:
    exc = deprecated_wrapper_error(old)
    assert isinstance(exc, error.RenamedWrapper)
    assert isinstance(exc, AttributeError)
    assert re.fullmatch(message_pattern(RENAMED_MSG, old=old, new=new), str(exc))


def test_every_replacement_exists() -> None:
    names = set(vecgym.wrappers.__all__) if hasattr(vecgym.wrappers, "__all__") else set()
    gymnasium_wrappers = pytest.importorskip("gymnasium.wrappers")
    for new in RENAMED_WRAPPERS.values():
        top = new.split(".")[0]
        assert top in names or top in gymnasium_wrappers.__all__


@pytest.mark.parametrize("old", sorted(REMOVED_WRAPPERS))
def test_removed_wrapper_error_gives_advice(old: str) -> None:
    exc = deprecated_wrapper_error(old)
    assert isinstance(exc, error.RenamedWrapper)
    assert re.fullmatch(
        message_pattern(REMOVED_MSG, old=old, advice=REMOVED_WRAPPERS[old]), str(exc)
    )


@pytest.mark.parametrize("name", ["TimeLimit", "NoSuchWrapper", "__path__"])
def test_other_names_are_not_deprecated(name: str) -> None:
    assert deprecated_wrapper_error(name) is None
