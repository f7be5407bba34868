"""Gymnasium's exceptions, seen through vecgym: also instances of ``vecgym.error``'s classes.

An environment that vecgym runs from Gymnasium (an id of Gymnasium's registry, a
``gymnasium.Env`` given to a vecgym runtime) raises Gymnasium's own exceptions, such as
``gymnasium.error.InvalidAction`` from ``CarRacing-v3`` given a continuous action in its discrete
mode. A vecgym user writes ``except vecgym.error.InvalidAction``, which would not catch it:
the two libraries' classes are unrelated.

Where such an exception leaves vecgym (the :class:`~vecgym.core.interop.GymnasiumEnv` adapter's
methods, ``vecgym.make``, the vector envs' ``step`` and ``reset``, an error a worker or a Ray host
reported), :func:`adopt_gymnasium_error` changes its class, in place, to a twin that derives from
``vecgym.error``'s class of the same name *and* from Gymnasium's. The same object is raised, with
its message, traceback, cause and notes: ``except gymnasium.error.InvalidAction`` and ``except
vecgym.error.InvalidAction`` (and ``except vecgym.error.Error``) all catch it. Only the classes
that ``gymnasium.error`` defines itself are adopted; every other exception is left as it is.

A twin is named, and printed, as vecgym's class (``vecgym.error.InvalidAction``); it is built once
per class, and its instances pickle and unpickle as twins (Gymnasium must be importable where they
are loaded, as it was where they were raised).
"""

from __future__ import annotations

import importlib
from typing import Any, Literal

from vecgym import error

__all__ = ["ADOPTING", "adopt_gymnasium_error", "gymnasium_error_twin"]

#: The module whose exception classes are adopted.
_GYMNASIUM_ERROR_MODULE = "gymnasium.error"
#: Gymnasium's class -> its twin (``None``: vecgym has no class of that name, or no twin can be
#: built), filled on first use.
_TWINS: dict[type, type | None] = {}
#: The class attribute naming, on a twin, the Gymnasium class it was built from.
_TWIN_OF = "_gymnasium_error_class"


def adopt_gymnasium_error(exc: BaseException) -> BaseException:
    """Make ``exc``, when its class is one of ``gymnasium.error``'s, also an instance of
    ``vecgym.error``'s class of that name (see the module docstring); return it.

    Anything else, a twin included, is returned unchanged. Never raises.

    Example:
        >>> import gymnasium
        >>> import vecgym
        >>> exc = adopt_gymnasium_error(gymnasium.error.InvalidAction("no such action"))
        >>> isinstance(exc, vecgym.error.InvalidAction), isinstance(exc, gymnasium.error.Error)
        (True, True)
        >>> type(exc).__module__, str(exc)
        ('vecgym.error', 'no such action')
    """
    cls = type(exc)
    if cls.__module__ != _GYMNASIUM_ERROR_MODULE:
        return exc
    twin = gymnasium_error_twin(cls)
    if twin is not None:
        try:
            exc.__class__ = twin
        except TypeError:  # a layout that a class swap cannot take; keep Gymnasium's class
            _TWINS[cls] = None
    return exc


def gymnasium_error_twin(cls: type) -> type | None:
    """The twin of Gymnasium's exception class ``cls`` (see the module docstring), or ``None``
    when ``vecgym.error`` has no exception class of that name."""
    if cls in _TWINS:
        return _TWINS[cls]
    ours = getattr(error, cls.__name__, None)
    twin: type | None = None
    if isinstance(ours, type) and issubclass(ours, BaseException) and ours is not cls:
        namespace = {
            "__module__": ours.__module__,
            "__qualname__": ours.__qualname__,
            "__doc__": ours.__doc__,
            "__reduce__": _reduce_twin,
            _TWIN_OF: cls,
        }
        try:
            twin = type(cls.__name__, (ours, cls), namespace)
        except TypeError:  # the two classes cannot be combined (bases in conflicting orders)
            twin = None
    _TWINS[cls] = twin
    return twin


def _reduce_twin(self: BaseException) -> tuple[Any, ...]:
    """Pickle a twin's instance by the name of its Gymnasium class (twins have no importable
    name), with its arguments and attributes (notes included)."""
    gymnasium_class = getattr(type(self), _TWIN_OF)
    return (_new_twin, (gymnasium_class.__name__, self.args), self.__dict__ or None)


def _new_twin(name: str, args: tuple[Any, ...]) -> BaseException:
    """A twin of ``gymnasium.error.<name>`` holding ``args`` (used when unpickling). Its
    ``__init__``, whose parameters need not be the arguments, is not called: the attributes it
    set come back with the pickled state."""
    cls = getattr(importlib.import_module(_GYMNASIUM_ERROR_MODULE), name)
    twin = gymnasium_error_twin(cls) or cls
    exc: BaseException = twin.__new__(twin, *args)  # BaseException.__new__ sets ``args``
    return exc


class _Adopting:
    """A context manager whose block's exception, if any, leaves it adopted (see
    :func:`adopt_gymnasium_error`); it holds no state, so one instance serves every block."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: BaseException | None, traceback: Any) -> Literal[False]:
        if exc is not None:
            adopt_gymnasium_error(exc)
        return False  # the exception goes on, with its traceback


#: ``with ADOPTING: ...`` adopts the exception leaving the block (for paths that are not per step;
#: a step path uses ``try`` / ``except``, free until something is raised).
ADOPTING = _Adopting()
