"""`EzPickle`: objects pickle as their constructor arguments and are rebuilt on unpickling."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import cloudpickle
import pytest

from vecgym.core.ezpickle import EzPickle
from vecgym.utils import EzPickle as PublicEzPickle
from vecgym.utils.ezpickle import EzPickle as PathEzPickle

BUILDS: list[tuple[Any, ...]] = []


class Handle:
    """Stands in for state that cannot be pickled (a C handle, a window)."""

    def __reduce__(self) -> Any:
        raise TypeError("Handle cannot be pickled")


class Dog(EzPickle):
    def __init__(self, colour: str, tail: str = "bushy", *, age: int = 1) -> None:
        EzPickle.__init__(self, colour, tail, age=age)
        BUILDS.append((colour, tail, age))
        self.colour, self.tail, self.age = colour, tail, age
        self.handle = Handle()
        self.steps = 0


def test_public_paths_are_the_same_class() -> None:
    assert PublicEzPickle is EzPickle
    assert PathEzPickle is EzPickle


def test_state_is_only_constructor_arguments() -> None:
    dog = Dog("brown", age=3)
    assert dog.__getstate__() == {
        "_ezpickle_args": ("brown", "bushy"),
        "_ezpickle_kwargs": {"age": 3},
    }


@pytest.mark.parametrize("dumps", [pickle.dumps, cloudpickle.dumps])
def test_round_trip_rebuilds_from_constructor(dumps: Any) -> None:
    dog = Dog("black", "short", age=5)
    dog.steps = 99  # not part of the constructor arguments: not restored
    BUILDS.clear()
    clone = pickle.loads(dumps(dog))
    assert BUILDS == [("black", "short", 5)]
    assert isinstance(clone, Dog)
    assert (clone.colour, clone.tail, clone.age, clone.steps) == ("black", "short", 5, 0)
    assert isinstance(clone.handle, Handle)
    assert clone.handle is not dog.handle


def test_deepcopy_uses_the_same_protocol() -> None:
    dog = Dog("white")
    clone = copy.deepcopy(dog)
    assert clone.colour == "white"
    assert clone is not dog


def test_state_layout_matches_gymnasium() -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils import EzPickle as GymEzPickle

    class GymDog(GymEzPickle):
        def __init__(self, colour: str, tail: str = "bushy", *, age: int = 1) -> None:
            GymEzPickle.__init__(self, colour, tail, age=age)

    state = GymDog("grey", age=7).__getstate__()
    assert state == Dog("grey", age=7).__getstate__()
    restored = Dog.__new__(Dog)
    restored.__setstate__(state)
    assert (restored.colour, restored.tail, restored.age) == ("grey", "bushy", 7)
