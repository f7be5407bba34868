"""Gymnasium's registry seen through vecgym: ids vecgym does not register resolve there.

``vecgym.envs`` installs :data:`gymnasium_fallback` as the :attr:`~vecgym.envs.registration.
Registry.fallback` of vecgym's global registry. An id whose namespace and name vecgym does not
register (``"ALE/Pong-v5"``, ``"HalfCheetah-v5"``, ``"LunarLander-v3"``, a third party's id, a
``"module:Env-v0"`` id whose module registers with ``gymnasium.register``) is then looked up in
``gymnasium.envs.registry``, with vecgym's version rules, warnings and suggestions over both
registries together. vecgym's own ids always win: an id whose name vecgym registers never
reaches Gymnasium.

The spec found is a vecgym :class:`~vecgym.envs.registration.EnvSpec` copied from Gymnasium's.
Its entry point is Gymnasium's; ``make`` calls it, adapts the Gymnasium env it builds once (its
spaces become vecgym spaces, see :class:`vecgym.core.interop.GymnasiumEnv`) and puts vecgym's
wrappers on top, as ``gymnasium.make`` puts Gymnasium's: the same seeds and actions give the same
observations, rewards and infos. Wrappers of the spec's ``additional_wrappers`` that live in
``gymnasium.wrappers`` become vecgym's wrapper of the same name. ``make_vec`` builds such ids in
every mode; a ``vector_entry_point`` builds Gymnasium's vector env, run through
:class:`vecgym.vector.gymnasium_vector_env.GymnasiumVectorEnv`.

Differences from Gymnasium:
    * an ``ALE/`` id imports ``ale_py`` (which registers the Atari ids) when it is installed;
      Gymnasium asks for ``gymnasium.register_envs(ale_py)`` first;
    * Box2D is imported with its SWIG ``DeprecationWarning`` silenced (under warnings-as-errors
      the import otherwise crashes the interpreter);
    * a missing optional package raises :class:`vecgym.error.DependencyNotInstalled` naming
      vecgym's extra (``atari``, ``mujoco``, ``box2d``, ``jax``), and an unknown id that one of
      those extras provides says so, also when Gymnasium is not installed. For the jax ids
      (``phys2d/CartPole-v1``, ``tabular/Blackjack-v0``), where Gymnasium lets the import's
      ``ModuleNotFoundError`` through, the error is a
      :class:`~vecgym.error.DependencyModuleNotFound`: both at once.

Read as a ``dict``, the global registry also lists Gymnasium's ids (``"HalfCheetah-v5" in
vecgym.registry``, ``vecgym.registry.keys()``), in Gymnasium's order, with vecgym's own spec for
the ids vecgym registers (see :class:`~vecgym.envs.registration.Registry`).

Gymnasium is imported only when an id misses vecgym's registry, or the registry is listed or
printed.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import importlib.util
import sys
import warnings
from collections.abc import Callable
from typing import Any

from vecgym import error
from vecgym.core.interop import _as_vecgym_spec
from vecgym.core.registration import EnvSpec, Registry, WrapperSpec, load_env_creator, parse_env_id

__all__ = ["GymnasiumRegistryFallback", "extra_for", "gymnasium_fallback", "load_entry_point"]

EXTRA_HINT_MSG = ' `{env_id}` is provided by the `{extra}` extra: pip install "vecgym[{extra}]".'
DEPENDENCY_MSG = (
    '{env_id} needs the `{extra}` extra, which is not installed: pip install "vecgym[{extra}]" '
    "({cause})"
)

#: Names (without namespace) of the environments that need each extra.
MUJOCO_NAMES = frozenset(
    {
        "Ant",
        "HalfCheetah",
        "Hopper",
        "Humanoid",
        "HumanoidStandup",
        "InvertedDoublePendulum",
        "InvertedPendulum",
        "Pusher",
        "Reacher",
        "Swimmer",
        "Walker2d",
    }
)
BOX2D_NAMES = frozenset(
    {"BipedalWalker", "BipedalWalkerHardcore", "CarRacing", "LunarLander", "LunarLanderContinuous"}
)
ATARI_NAMESPACE = "ALE"
#: The namespaces of Gymnasium's jax environments (``phys2d/CartPole-v1``,
#: ``tabular/Blackjack-v0``).
JAX_NAMESPACES = frozenset({"phys2d", "tabular"})
#: The packages each extra brings that the environments import.
_EXTRA_MODULES = {
    "atari": ("ale_py",),
    "mujoco": ("mujoco",),
    "box2d": ("Box2D",),
    "jax": ("jax", "flax"),
}
_BOX2D_ENTRY_PREFIX = "gymnasium.envs.box2d"
_BOX2D_WARNING = r"builtin type \w+ has no __module__ attribute"
_GYMNASIUM_WRAPPERS = "gymnasium.wrappers"


def extra_for(env_id: str) -> str | None:
    """The vecgym extra that provides ``env_id`` (``"atari"``, ``"mujoco"``, ``"box2d"``,
    ``"jax"``), if any.

    Example:
        >>> extra_for("ALE/Pong-v5"), extra_for("Hopper-v5"), extra_for("CartPole-v1")
        ('atari', 'mujoco', None)
        >>> extra_for("phys2d/CartPole-v1"), extra_for("tabular/Blackjack-v0")
        ('jax', 'jax')
    """
    try:
        ns, name, _ = parse_env_id(env_id.partition(":")[2] if ":" in env_id else env_id)
    except error.Error:
        return None
    if ns == ATARI_NAMESPACE:
        return "atari"
    if ns in JAX_NAMESPACES:
        return "jax"
    if ns is None and name in MUJOCO_NAMES:
        return "mujoco"
    if ns is None and name in BOX2D_NAMES:
        return "box2d"
    return None


def _with_extra_hint(exc: error.Error, env_id: str) -> error.Error:
    """``exc``, or an error of its type that also names the extra providing ``env_id``.

    The extra is named when it (or Gymnasium) is what is missing.
    """
    extra = extra_for(env_id)
    if extra is None or (_installed("gymnasium") and _extra_installed(extra)):
        return exc
    return type(exc)(str(exc) + EXTRA_HINT_MSG.format(env_id=env_id, extra=extra))


def _extra_installed(extra: str) -> bool:
    """Whether every package that the environments of ``extra`` import can be imported."""
    return all(map(_installed, _EXTRA_MODULES[extra]))


def _installed(module: str) -> bool:
    """Whether ``module`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _import_box2d_quietly() -> None:
    """Import Box2D with its SWIG import-time ``DeprecationWarning`` silenced (only here)."""
    if "Box2D" in sys.modules:
        return
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_BOX2D_WARNING, category=DeprecationWarning)
        try:
            importlib.import_module("Box2D")
        except ImportError:
            return  # the entry point's own import reports it


def load_entry_point(env_spec: EnvSpec, entry_point: Any) -> Any:
    """``load_env_creator(entry_point)`` for ``env_spec``, missing packages named by their extra.

    Box2D environments get Box2D imported quietly first (see the module docstring).

    Raises:
        vecgym.error.DependencyNotInstalled: the entry point's module needs a package of an extra
            (ale-py, mujoco, Box2D, jax, flax) that is not installed.
    """
    if isinstance(entry_point, str) and entry_point.startswith(_BOX2D_ENTRY_PREFIX):
        _import_box2d_quietly()
    try:
        return load_env_creator(entry_point)
    except Exception as exc:
        raise _dependency_error(env_spec, exc) from exc


def _dependency_error(env_spec: EnvSpec, exc: Exception) -> Exception:
    """vecgym's ``DependencyNotInstalled`` naming the extra when ``exc`` is a missing package."""
    extra = extra_for(env_spec.id)
    if extra is None or isinstance(exc, error.DependencyNotInstalled):
        return exc
    missing = isinstance(exc, ImportError) or type(exc).__name__ == "DependencyNotInstalled"
    if not missing or _extra_installed(extra):
        return exc
    return _missing_dependency(
        DEPENDENCY_MSG.format(env_id=env_spec.id, extra=extra, cause=exc), exc
    )


def _missing_dependency(message: str, cause: BaseException) -> error.DependencyNotInstalled:
    """The error for a missing optional package, from the import error ``cause``: a
    :class:`~vecgym.error.DependencyModuleNotFound` where ``cause`` is a ``ModuleNotFoundError``
    (what Gymnasium lets through there: the error is both), else a ``DependencyNotInstalled``."""
    if isinstance(cause, ModuleNotFoundError):
        return error.DependencyModuleNotFound(message, name=cause.name, path=cause.path)
    return error.DependencyNotInstalled(message)


def _vecgym_wrapper_spec(wrapper_spec: WrapperSpec) -> WrapperSpec:
    """A wrapper of ``gymnasium.wrappers`` as vecgym's wrapper of the same name (others kept)."""
    entry_point = wrapper_spec.entry_point
    if not entry_point.startswith(_GYMNASIUM_WRAPPERS):
        return wrapper_spec
    wrappers = importlib.import_module("vecgym.wrappers")
    name = entry_point.rpartition(":")[2]
    if not hasattr(wrappers, name):
        return wrapper_spec
    return WrapperSpec(wrapper_spec.name, f"vecgym.wrappers:{name}", wrapper_spec.kwargs)


def as_vecgym_registry_spec(gymnasium_spec: Any) -> EnvSpec:
    """A vecgym copy of a spec of Gymnasium's registry (wrappers mapped to vecgym's)."""
    converted = _as_vecgym_spec(gymnasium_spec)
    assert converted is not None
    converted.kwargs = copy.deepcopy(converted.kwargs)
    converted.additional_wrappers = tuple(
        _vecgym_wrapper_spec(w) for w in converted.additional_wrappers
    )
    return converted


class GymnasiumRegistryFallback:
    """The :class:`~vecgym.core.registration.RegistryFallback` over Gymnasium's registry.

    Each lookup builds a registry holding Gymnasium's specs (as vecgym specs) and, on top, the
    asking registry's own, and runs vecgym's lookup on it: versions, warnings and suggestions are
    vecgym's, over both registries. Without Gymnasium, the asking registry's error is raised,
    naming the extra that provides the id when one does.
    """

    def __init__(self) -> None:
        # Gymnasium id -> (its spec object, the vecgym copy): each spec is converted once, and
        # again only when Gymnasium's registry holds a new object under the id.
        self._converted: dict[str, tuple[Any, EnvSpec]] = {}

    def _gymnasium(self, env_id: str | None) -> Any | None:
        """Gymnasium, imported (``None`` when not installed); ALE ids import ale-py too."""
        try:
            gymnasium = importlib.import_module("gymnasium")
        except ImportError:
            return None
        if env_id is not None and extra_for(env_id) == "atari" and "ale_py" not in sys.modules:
            # Without ale-py, the lookup fails with NamespaceNotFound, naming the `atari` extra.
            with contextlib.suppress(ImportError):
                gymnasium.register_envs(importlib.import_module("ale_py"))
        return gymnasium

    def specs(self, own: Registry) -> dict[str, EnvSpec]:
        """Gymnasium's specs (as vecgym specs) in the order of Gymnasium's registry, ``own``'s
        spec in place of each id ``own`` holds (vecgym's ``CartPole-v1`` where Gymnasium lists
        its own)."""
        gymnasium = self._gymnasium(None)
        if gymnasium is None:
            return {}
        specs: dict[str, EnvSpec] = {}
        for env_id, gym_spec in gymnasium.envs.registration.registry.items():
            if dict.__contains__(own, env_id):  # own's ids alone (own reads through this)
                specs[env_id] = dict.__getitem__(own, env_id)
                continue
            cached = self._converted.get(env_id)
            if cached is None or cached[0] is not gym_spec:
                cached = (gym_spec, as_vecgym_registry_spec(gym_spec))
                self._converted[env_id] = cached
            specs[env_id] = cached[1]
        return specs

    def _lookup(
        self,
        env_id: str,
        own: Registry,
        own_error: error.Error,
        find: Callable[[Registry, str], EnvSpec],
    ) -> EnvSpec:
        if self._gymnasium(env_id) is None:
            raise _with_extra_hint(own_error, env_id) from None
        combined = Registry(self.specs(own))
        combined.update(own.own_specs())
        try:
            return find(combined, env_id)
        except error.UnregisteredEnv as exc:
            raise _with_extra_hint(exc, env_id) from None

    def find_spec(self, env_id: str, own: Registry, own_error: error.Error) -> EnvSpec:
        """The spec ``make`` builds for ``env_id``, from Gymnasium's registry and ``own``."""
        return self._lookup(env_id, own, own_error, Registry._find_own_spec)

    def spec(self, env_id: str, own: Registry, own_error: error.Error) -> EnvSpec:
        """The spec registered under exactly ``env_id``, in Gymnasium's registry or ``own``."""
        return self._lookup(env_id, own, own_error, Registry.spec)


#: The fallback ``vecgym.envs`` installs on the global registry.
gymnasium_fallback = GymnasiumRegistryFallback()


def install(registry: Registry) -> None:
    """Make ``registry`` resolve the ids it does not hold through Gymnasium's registry."""
    registry.fallback = gymnasium_fallback
