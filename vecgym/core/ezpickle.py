"""`EzPickle`: pickle an object as the constructor call that rebuilds it."""

from __future__ import annotations

from typing import Any

__all__ = ["EzPickle"]


class EzPickle:
    """Mixin that pickles an object as its constructor arguments and unpickles by calling it again.

    The pickled state is only ``args`` and ``kwargs`` given to ``EzPickle.__init__``; unpickling
    builds a new instance of the same class from them and adopts its ``__dict__``. This suits
    objects whose real state cannot be pickled, such as environments wrapping a C library.

    Example:
        >>> import copy
        >>> class Dog(EzPickle):
        ...     def __init__(self, colour: str, tail: str = "bushy"):
        ...         EzPickle.__init__(self, colour, tail=tail)
        ...         self.colour, self.tail = colour, tail
        >>> clone = copy.deepcopy(Dog("brown", tail="short"))  # rebuilt via __setstate__
        >>> clone.colour, clone.tail
        ('brown', 'short')
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        """Record the constructor arguments to rebuild the object from.

        Args:
            *args: positional arguments for the class's constructor.
            **kwargs: keyword arguments for the class's constructor.
        """
        self._ezpickle_args = args
        self._ezpickle_kwargs = kwargs

    def __getstate__(self) -> dict[str, Any]:
        """The pickled state: the recorded constructor arguments only."""
        return {"_ezpickle_args": self._ezpickle_args, "_ezpickle_kwargs": self._ezpickle_kwargs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Rebuild the object by calling the constructor with the arguments in ``state``."""
        rebuilt = type(self)(*state["_ezpickle_args"], **state["_ezpickle_kwargs"])
        self.__dict__.update(rebuilt.__dict__)
