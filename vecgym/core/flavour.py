"""vecgym's classes as Gymnasium's classes too, where Gymnasium is installed.

Libraries written for Gymnasium check classes: Stable-Baselines3 takes an env only when
``isinstance(env, gymnasium.Env)``, ``gymnasium.Wrapper`` asserts it, and SB3's policies, RLlib
and many wrappers dispatch on ``isinstance(space, gymnasium.spaces.Box)``. So that code written
as ``import gymnasium as gym`` runs as ``import vecgym as gym``, every vecgym env, wrapper and
space is created, where Gymnasium is installed, as an instance of its class's *twin*
(:func:`gymnasium_flavoured`): a subclass that adds the Gymnasium class after the vecgym class in
the method resolution order and nothing else. Every method and attribute is still vecgym's; the
twin has the vecgym class's name, module and docstring, and its instances pickle and copy as
instances of the vecgym class (re-flavoured when loaded).

Gymnasium is imported the first time an env or space is created (:func:`gymnasium_module`), never
by ``import vecgym``; where it is not installed, or does not import, vecgym's classes are used as
they are.
"""

from __future__ import annotations

import copyreg
import importlib
import sys
from types import ModuleType
from typing import Any

from vecgym.core.spaces.space import FLAVOUR_OF, Space, space_class

__all__ = [
    "child_spaces",
    "flavoured_class",
    "gymnasium_flavoured",
    "gymnasium_module",
    "unflavoured",
]

#: vecgym class -> its twin (built on first use).
_FLAVOURED: dict[type, type] = {}
#: What ``object.__reduce_ex__`` names to rebuild an object of its class (protocol 2 and up).
_NEWOBJ = copyreg.__newobj__  # type: ignore[attr-defined]
#: What it names for protocols 0 and 1.
_RECONSTRUCTOR = copyreg._reconstructor  # type: ignore[attr-defined]
#: The module prefix of vecgym's built-in space classes (each has a Gymnasium class of its name).
_BUILT_IN_SPACES = "vecgym.core.spaces."
#: :func:`gymnasium_module`'s answer once found: the module, or ``None`` where it does not import.
_NOT_LOOKED_FOR: Any = object()
_gymnasium: Any = _NOT_LOOKED_FOR


def gymnasium_module() -> ModuleType | None:
    """The ``gymnasium`` module, imported on the first call; ``None`` where Gymnasium is not
    installed or does not import.

    A failed import is not retried: vecgym's classes then stay vecgym's only for the process. While
    ``sys.modules["gymnasium"]`` is ``None`` (Gymnasium blocked, as tests block it for a while)
    the answer is ``None`` without being remembered.
    """
    global _gymnasium
    if _gymnasium is _NOT_LOOKED_FOR:
        module = sys.modules.get("gymnasium", _NOT_LOOKED_FOR)
        if module is None:
            return None
        if module is _NOT_LOOKED_FOR:
            try:
                module = importlib.import_module("gymnasium")
            except Exception:  # a broken install leaves vecgym's own envs usable
                module = None
        _gymnasium = module
    found: ModuleType | None = _gymnasium
    return found


def flavoured_class(cls: type) -> type:
    """``cls``'s twin where Gymnasium is installed, else ``cls``: the class an env or space of
    class ``cls`` is created as (``Env.__new__`` and ``Space.__new__``)."""
    if gymnasium_module() is None:
        return cls
    known = _FLAVOURED.get(cls)
    if known is not None:
        return known
    try:
        return gymnasium_flavoured(cls)
    except TypeError:  # no twin can be built (a metaclass or layout conflict, an __init_subclass__
        _FLAVOURED[cls] = cls  # that needs arguments): the class is used as it is
        return cls


def gymnasium_flavoured(cls: type) -> type:
    """``cls``'s twin that is also a ``gymnasium.Env`` subclass (``gymnasium`` must be imported);
    for a vecgym space class, a subclass of Gymnasium's class of the built-in space it derives
    from (``gymnasium.spaces.Space`` for a space of its own).

    The twin adds nothing but the Gymnasium class after ``cls`` in the method resolution order, so
    every method and attribute is still ``cls``'s; it has ``cls``'s name, module and docstring, is
    built once per class, and its instances pickle (and copy) as instances of ``cls`` that are
    re-flavoured when loaded. This is what lets vecgym envs pass the ``isinstance(env,
    gymnasium.Env)`` checks of Gymnasium's own wrappers and of the libraries that build on them
    (SB3's algorithms and Atari wrappers, for example), and their spaces the checks of policies
    and wrappers that dispatch on Gymnasium's space classes.

    ``cls`` itself is returned when it already derives from that Gymnasium class.
    """
    gym_class: Any = _gymnasium_counterpart(cls)
    if issubclass(cls, gym_class):
        return cls
    twin = _FLAVOURED.get(cls)
    if twin is None:
        namespace: dict[str, Any] = {
            "__module__": cls.__module__,
            "__qualname__": cls.__qualname__,
            "__doc__": cls.__doc__,
            "__reduce_ex__": _reduce_flavoured,
            FLAVOUR_OF: cls,
        }
        if issubclass(cls, Space):  # equal to the Gymnasium spaces it equals, either way round
            namespace["__eq__"] = _flavoured_space_eq
            namespace["__hash__"] = cls.__hash__
        twin = type(cls)(cls.__name__, (cls, gym_class), namespace)
        _FLAVOURED[cls] = twin
    return twin


def _gymnasium_counterpart(cls: type) -> type:
    """The Gymnasium class a twin of ``cls`` derives from (see :func:`gymnasium_flavoured`)."""
    if not issubclass(cls, Space):
        env_class: type = sys.modules["gymnasium"].Env
        return env_class
    gym_spaces = importlib.import_module("gymnasium.spaces")
    for base in cls.__mro__:  # a user's subclass of Box is a Gymnasium Box too
        if base.__module__.startswith(_BUILT_IN_SPACES):
            same_name = getattr(gym_spaces, base.__name__, None)
            if isinstance(same_name, type) and issubclass(same_name, gym_spaces.Space):
                return same_name
    generic: type = gym_spaces.Space
    return generic


def _flavoured_space_eq(self: Any, other: object) -> bool:
    """A twin space's ``==``: its vecgym class's, a plain Gymnasium space compared as the vecgym
    space it converts to (Gymnasium's own ``==`` already accepts the twin)."""
    from vecgym.core.interop import as_vecgym_space, is_gymnasium_space

    if is_gymnasium_space(other):
        other = as_vecgym_space(other)
    vecgym_class: Any = space_class(self)
    equal: bool = vecgym_class.__eq__(self, other)
    return equal


def child_spaces(space: Any) -> list[Any]:
    """The spaces directly inside ``space`` (a composite's, a graph's node and edge spaces)."""
    spaces = getattr(space, "spaces", None)
    if isinstance(spaces, dict):
        return list(spaces.values())
    if isinstance(spaces, tuple | list):
        return list(spaces)
    names = ("feature_space", "node_space", "edge_space")
    return [getattr(space, name) for name in names if getattr(space, name, None) is not None]


def unflavoured(cls: type) -> type:
    """The vecgym class whose twin ``cls`` is (see :func:`gymnasium_flavoured`), else ``cls``.

    Example:
        >>> import gymnasium
        >>> from vecgym.wrappers import OrderEnforcing
        >>> unflavoured(gymnasium_flavoured(OrderEnforcing)) is OrderEnforcing
        True
    """
    base: type = getattr(cls, FLAVOUR_OF, cls)
    return base


def _reduce_flavoured(self: Any, protocol: Any) -> Any:
    """Reduce a twin's instance as its vecgym class's (twins have no importable name)."""
    base = getattr(type(self), FLAVOUR_OF)
    reduced = base.__reduce_ex__(self, protocol)
    if not isinstance(reduced, tuple):
        return reduced
    constructor, args, *rest = reduced
    if constructor is _NEWOBJ and args and args[0] is type(self):
        return (_new_flavoured, (base, *args[1:]), *rest)
    if constructor is _RECONSTRUCTOR and args and args[0] is type(self):
        return (_new_flavoured, (base,), *rest)  # protocols 0 and 1: a plain object.__new__
    if isinstance(constructor, type) and getattr(constructor, FLAVOUR_OF, None) is not None:
        return (getattr(constructor, FLAVOUR_OF), args, *rest)
    return reduced


def _new_flavoured(base: type, *args: Any) -> Any:
    """A new, not yet initialised instance of ``base``'s twin, or of ``base`` itself where
    Gymnasium does not import (used when unpickling)."""
    cls = flavoured_class(base)
    return cls.__new__(cls, *args)
