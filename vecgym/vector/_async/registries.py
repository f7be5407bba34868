"""The parent's env registries, carried to workers that do not start as a copy of the parent.

A worker started with ``fork`` inherits everything the parent registered: ids registered in
``__main__`` or a notebook, ids of a package the parent imported (``ale_py`` registers
``BreakoutNoFrameskip-v4`` and ``ALE/Pong-v5`` when it is imported). A ``forkserver`` or ``spawn``
worker, or a Ray actor, starts from a fresh interpreter where none of that happened, and an env
function that calls ``make("MyEnv-v0")`` there fails with ``NameNotFound``. Gymnasium's and SB3's
subprocess vector envs fail this way; their users are told to register again in the env function
or to pass ``"module:Env-v0"`` ids.

vecgym carries the registries over instead, so that an env function finds the same ids whatever
the start method:

* the parent (:func:`carried_registries`) takes every spec of vecgym's registry and, when the
  parent has imported Gymnasium, of Gymnasium's, each pickled on its own with cloudpickle (a spec
  that does not pickle is left out), together with the module of its ``"module:attr"`` entry
  point, or that module's deepest package, that the parent has loaded;
* the worker (:func:`restore_registries`), before it builds its envs, first imports the entry-point
  modules of the ids it lacks, since importing a package is how it registers its ids (``ale_py``
  then registers all of its own, as in the parent, so they are not registered twice later); then
  it copies in the specs still missing. Nothing is imported that the parent had not loaded. An
  id the worker registered itself keeps the worker's spec: a ``spawn`` worker runs the top of
  ``__main__`` again, and its registrations name its own copy of ``__main__``'s classes, which
  ``isinstance`` tests in that code expect (an id the parent registered a second time, at run
  time, with other arguments is the one case this differs from ``fork``).

With ALE's ids in Gymnasium's registry, the carry takes about 9 ms to make and 12 KB to send.
"""

from __future__ import annotations

import contextlib
import importlib
import pickle
import sys
import zlib
from dataclasses import dataclass
from typing import Any

import cloudpickle

__all__ = ["CarriedRegistries", "carried_registries", "restore_registries"]

#: The registries carried, by name: the module whose ``registry`` attribute holds each.
REGISTRIES = {
    "vecgym": "vecgym.core.registration",
    "gymnasium": "gymnasium.envs.registration",
}


@dataclass(frozen=True)
class CarriedRegistries:
    """The parent's registries, ready to travel in a worker's start-up arguments.

    Attributes:
        payload: the zlib-compressed pickle of :attr:`specs` (ALE's ids and Gymnasium's shrink
            from about 210 KB to 12 KB: a Ray actor's constructor arguments stay inline, and Ray
            can restart the actor from them).
    """

    payload: bytes = b""

    @property
    def specs(self) -> list[tuple[str, str, str, bytes]]:
        """``(registry name, env id, module to import or "", pickled spec)`` per id; the module
        is given only when the parent has it loaded."""
        if not self.payload:
            return []
        specs: list[tuple[str, str, str, bytes]] = pickle.loads(zlib.decompress(self.payload))
        return specs


def _entry_module(entry_point: Any) -> str:
    """The module to import for a ``"module:attr"`` entry point: the module itself when this
    process has loaded it, else its deepest package that is loaded (``vecgym.envs`` registers
    vecgym's ids before its env modules load); ``""`` for a callable or nothing loaded."""
    if not isinstance(entry_point, str) or ":" not in entry_point:
        return ""
    parts = entry_point.split(":", 1)[0].split(".")
    for end in range(len(parts), 0, -1):
        module = ".".join(parts[:end])
        if module in sys.modules:
            return module
    return ""


def carried_registries() -> CarriedRegistries:
    """What :func:`restore_registries` needs to give a fresh process this process's registries."""
    specs = []
    for name, module_name in REGISTRIES.items():
        module = sys.modules.get(module_name)
        if module is None:
            continue  # Gymnasium not imported here: nothing of it to carry
        # The ids registered there (vecgym's registry also reads Gymnasium's: not those).
        for env_id, spec in list(dict.items(module.registry)):
            try:
                data = cloudpickle.dumps(spec)
            except Exception:  # e.g. an entry point closing over a lock: it cannot travel
                continue
            specs.append((name, env_id, _entry_module(spec.entry_point), data))
    return CarriedRegistries(zlib.compress(pickle.dumps(specs)) if specs else b"")


def restore_registries(carried: CarriedRegistries | None) -> None:
    """Give this process the ids of ``carried`` (see the module docstring); ids this process
    registered and the parent did not are left alone."""
    specs = [] if carried is None else carried.specs
    if not specs:
        return
    registries: dict[str, Any] = {}
    for name in {name for name, *_ in specs}:
        with contextlib.suppress(ImportError):
            registries[name] = importlib.import_module(REGISTRIES[name]).registry
    modules = sorted(
        {
            module
            for name, env_id, module, _ in specs
            if module and name in registries and not dict.__contains__(registries[name], env_id)
        }
    )
    for module in modules:
        with contextlib.suppress(Exception):  # make() reports a module that fails to import
            importlib.import_module(module)
    for name, env_id, _, data in specs:
        registry = registries.get(name)
        if registry is None or dict.__contains__(registry, env_id):
            continue
        try:
            spec = cloudpickle.loads(data)
        except Exception:  # an entry point defined in a module this process cannot import
            continue
        dict.__setitem__(registry, env_id, spec)  # as the parent holds it, without a warning
