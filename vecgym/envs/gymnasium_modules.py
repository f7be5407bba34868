"""Gymnasium's MuJoCo, Box2D and jax env modules at Gymnasium's module paths under ``vecgym.envs``.

vecgym runs the MuJoCo, Box2D and jax environments of Gymnasium itself (``make("HalfCheetah-v5")``
and ``make("phys2d/CartPole-v1")`` reach them through Gymnasium's registry). Code written for
Gymnasium also imports their modules: ``from gymnasium.envs.mujoco import MujocoEnv`` to write a
custom MuJoCo env, ``from gymnasium.envs.box2d.lunar_lander import heuristic``, ``from
gymnasium.envs.mujoco.half_cheetah_v5 import HalfCheetahEnv``, ``from
gymnasium.envs.functional_jax_env import FunctionalJaxEnv`` to run a jax ``FuncEnv``. With
``gymnasium`` replaced by ``vecgym`` these lines import the very same objects:

* ``vecgym.envs.mujoco``, ``vecgym.envs.box2d``, ``vecgym.envs.phys2d`` and
  ``vecgym.envs.tabular`` are packages of vecgym, and ``vecgym.envs.functional_jax_env`` a
  module, that re-export the names of Gymnasium's (:func:`gymnasium_package`); importing one
  without its extra raises :class:`~vecgym.error.DependencyNotInstalled` naming the extra to
  install (a :class:`~vecgym.error.DependencyModuleNotFound` for the jax ones, whose import
  Gymnasium lets fail with ``ModuleNotFoundError``);
* every module below the packages, ``vecgym.envs.mujoco.<name>``, *is* Gymnasium's module
  ``gymnasium.envs.mujoco.<name>`` (the same object, found by :class:`GymnasiumModuleAlias`), so
  its classes are Gymnasium's classes and ``isinstance`` checks agree between the two paths.

An env built from these classes is a ``gymnasium.Env``; vecgym's ``make``, wrappers and vector
envs take it as they take any Gymnasium env (an adapter runs it: see
:mod:`vecgym.core.interop`).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType
from typing import Any

from vecgym.envs.gymnasium_registry import _import_box2d_quietly, _missing_dependency

__all__ = [
    "GymnasiumModuleAlias",
    "batch_vecgym_spaces_in_gymnasium",
    "gymnasium_package",
    "reexport",
]

#: vecgym's package (or module) -> (Gymnasium's, the extra that installs what it needs).
PACKAGES: dict[str, tuple[str, str]] = {
    "vecgym.envs.mujoco": ("gymnasium.envs.mujoco", "mujoco"),
    "vecgym.envs.box2d": ("gymnasium.envs.box2d", "box2d"),
    "vecgym.envs.phys2d": ("gymnasium.envs.phys2d", "jax"),
    "vecgym.envs.tabular": ("gymnasium.envs.tabular", "jax"),
    "vecgym.envs.functional_jax_env": ("gymnasium.envs.functional_jax_env", "jax"),
}

_PREFIXES = tuple(package + "." for package in PACKAGES)

NO_MODULE_MSG = "no module {ours!r}: it would be Gymnasium's {theirs!r}, which does not exist"
MISSING_PACKAGE_MSG = (
    "{name} is Gymnasium's {gymnasium_name}, which needs the `{extra}` extra: "
    'pip install "vecgym[{extra}]" ({cause})'
)


class GymnasiumModuleAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The import hook that makes ``vecgym.envs.mujoco.<name>`` Gymnasium's module of that name.

    It answers for the modules below the packages of :data:`PACKAGES` only. Their loader imports
    Gymnasium's module and hands it over as it is: the import system then keeps it in
    ``sys.modules`` under vecgym's name too and sets it as an attribute of vecgym's package. The
    module's own ``__spec__`` (the one attribute the import system overwrites) is put back.
    """

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """A spec for ``fullname`` when it lies below one of :data:`PACKAGES`, else ``None``."""
        if fullname.startswith(_PREFIXES):
            return importlib.machinery.ModuleSpec(fullname, self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """Gymnasium's module for ``spec.name`` (imported now if it was not)."""
        for ours, (theirs, _) in PACKAGES.items():
            if spec.name.startswith(ours + "."):
                name = theirs + spec.name[len(ours) :]
                try:
                    module = importlib.import_module(name)
                except ModuleNotFoundError as exc:
                    if exc.name != name:
                        raise
                    raise ModuleNotFoundError(
                        NO_MODULE_MSG.format(ours=spec.name, theirs=name), name=spec.name
                    ) from None
                spec.loader_state = module.__spec__  # put back by exec_module
                return module
        raise ImportError(spec.name)  # find_spec only answers for the packages' modules

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (Gymnasium's module already ran); restore its own ``__spec__``."""
        spec = module.__spec__
        if spec is not None and isinstance(spec.loader_state, importlib.machinery.ModuleSpec):
            module.__spec__ = spec.loader_state


_HOOK = GymnasiumModuleAlias()


def gymnasium_package(name: str) -> ModuleType:
    """Gymnasium's package for vecgym's package ``name`` (a key of :data:`PACKAGES`), imported,
    with the import hook of its modules installed.

    Raises:
        vecgym.error.DependencyNotInstalled: Gymnasium or a package of the extra (MuJoCo, Box2D,
            jax, flax) is missing; the message names the extra. A
            :class:`~vecgym.error.DependencyModuleNotFound` (also a ``ModuleNotFoundError``) where
            Gymnasium's import fails with ``ModuleNotFoundError``.
    """
    if _HOOK not in sys.meta_path:
        sys.meta_path.insert(0, _HOOK)
    gymnasium_name, extra = PACKAGES[name]
    if extra == "box2d":
        _import_box2d_quietly()  # its SWIG bindings warn when imported
    try:
        return importlib.import_module(gymnasium_name)
    except Exception as exc:
        if not isinstance(exc, ImportError) and type(exc).__name__ != "DependencyNotInstalled":
            raise
        message = MISSING_PACKAGE_MSG.format(
            name=name, gymnasium_name=gymnasium_name, extra=extra, cause=exc
        )
        raise _missing_dependency(message, exc) from exc


def reexport(package: ModuleType, namespace: dict[str, Any]) -> list[str]:
    """Put the names of ``package.__all__`` into ``namespace`` (a vecgym package's globals) and
    return them, for that package's ``__all__``. Without ``__all__``: the public names that
    ``package`` defines itself (its classes and functions, not what it imports)."""
    names = getattr(package, "__all__", None)
    if names is None:
        names = [
            attr
            for attr, value in vars(package).items()
            if not attr.startswith("_") and getattr(value, "__module__", None) == package.__name__
        ]
    for attr in names:
        namespace[attr] = getattr(package, attr)
    return list(names)


def batch_vecgym_spaces_in_gymnasium() -> None:
    """Register vecgym's :class:`~vecgym.spaces.Space` with Gymnasium's ``batch_space`` (a
    ``functools.singledispatch`` function), to batch as :func:`vecgym.vector.utils.batch_space`.

    Gymnasium's functional jax vector env batches its ``FuncEnv``'s spaces with it, and without
    this raises ``TypeError`` for a ``FuncEnv`` that declares vecgym spaces. Only vecgym's spaces
    are added: what Gymnasium's function does for every other space is unchanged. Idempotent.
    """
    from vecgym.core.spaces.space import Space

    gymnasium_batch_space = importlib.import_module("gymnasium.vector.utils").batch_space
    if gymnasium_batch_space.registry.get(Space) is not _batch_vecgym_space:
        gymnasium_batch_space.register(Space)(_batch_vecgym_space)


def _batch_vecgym_space(space: Any, n: int = 1) -> Any:
    """Gymnasium's ``batch_space`` for a vecgym space: vecgym's (imported here: the vector layer
    is not imported yet when ``vecgym.envs`` loads this module)."""
    from vecgym.vector.utils import batch_space

    return batch_space(space, n)
