"""The registry data of vecgym: environment ids, specifications and the :class:`Registry`.

An environment id has the form ``[namespace/]name[-vVERSION]``, e.g. ``"CartPole-v1"`` or
``"my_plugin/Maze-v3"``. :func:`register` stores an :class:`EnvSpec` under its id in the
module's :data:`registry` (a :class:`Registry`, which is a ``dict`` of id to spec), and the
lookups here apply the version rules:

* an id without a version resolves to the newest registered version, with a warning;
* a version older than the newest one is deprecated (a warning when it is registered, a
  :class:`~vecgym.error.DeprecatedEnv` error when it is not);
* a version newer than the newest one raises :class:`~vecgym.error.VersionNotFound`;
* an unknown namespace or name raises :class:`~vecgym.error.NamespaceNotFound` /
  :class:`~vecgym.error.NameNotFound` naming the closest registered one, where one is close.

This module is layer 1: it holds data and lookups only. Building environments (``make``,
``make_vec``) belongs to :mod:`vecgym.envs.registration`, which re-exports every name defined here.

Example:
    >>> from vecgym.core.registration import Registry
    >>> reg = Registry()
    >>> reg.register("Maze-v0", entry_point="my_pkg.maze:MazeEnv", max_episode_steps=50)
    >>> "Maze-v0" in reg, reg["Maze-v0"].max_episode_steps
    (True, 50)
    >>> reg.spec("Maze-v0").name, reg.spec("Maze-v0").version
    ('Maze', 0)
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import importlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass, field
from enum import Enum
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from vecgym import error, logger

if TYPE_CHECKING:  # pragma: no cover - typing only; importing these here would cycle
    from vecgym.core.env import Env

__all__ = [
    "ENV_ID_RE",
    "EnvCreator",
    "EnvSpec",
    "Registry",
    "VectorEnvCreator",
    "VectorizeMode",
    "WrapperSpec",
    "current_namespace",  # noqa: F822 - served by the module's __getattr__
    "find_highest_version",
    "get_env_id",
    "load_env_creator",
    "namespace",
    "parse_env_id",
    "pprint_registry",
    "register",
    "register_envs",
    "registry",
    "spec",
]

# --- the id grammar -------------------------------------------------------------------------------
#: ``[namespace/]name[-vVERSION]``: the namespace may hold word characters, ``:`` and ``-``; the
#: name word characters, ``:``, ``.`` and ``-``; the version is decimal digits. The name is matched
#: lazily so that a trailing ``-vN`` is read as the version.
ENV_ID_RE = re.compile(
    r"""^
    (?:(?P<namespace>[\w:-]+)/)?     # optional namespace followed by a slash
    (?P<name>[\w:.-]+?)              # the name (shortest match, leaving the version)
    (?:-v(?P<version>\d+))?          # optional version
    $""",
    re.VERBOSE,
)

# --- message templates ----------------------------------------------------------------------------
MALFORMED_ID_MSG = (
    "Environment id {env_id} is malformed: an id has the form [namespace/]name[-vVERSION], e.g. "
    "CartPole-v1 or my_plugin/Maze-v3 (namespace and version are optional)"
)
NAMESPACE_NOT_FOUND_MSG = "No registered environment id uses the namespace {ns}. {hint}"
NAMESPACE_SUGGESTION_MSG = "The closest registered namespace is `{suggestion}`."
NAMESPACE_INSTALL_HINT_MSG = (
    "Check that the package registering the {ns} environments is installed."
)
NAME_NOT_FOUND_MSG = "No environment named `{name}` is registered{in_namespace}.{hint}"
NAME_SUGGESTION_MSG = " The closest registered name is `{suggestion}`."
VERSION_NOT_FOUND_MSG = "`{env_id}` has no registered version `v{version}`."
DEFAULT_VERSION_HINT_MSG = " The unversioned `{default_id}` is registered."
VERSIONS_HINT_MSG = " Registered versions: {versions}."
DEPRECATED_VERSION_MSG = (
    "Version v{version} of `{env_id}` is deprecated and no longer registered; use `{latest_id}`, "
    "its newest version."
)
OUT_OF_DATE_MSG = (
    "{env_id} is an old version: `v{latest}` is the newest one registered, consider moving to it."
)
UNVERSIONED_MSG = (
    "`{env_id}` names no version, so its newest registered version `{latest_id}` is made."
)
ID_TYPE_MSG = "an environment id must be a str, got {type}"
NOT_REGISTERED_MSG = "No environment is registered under the id {env_id}"
NOT_REGISTERED_HINT_MSG = (
    "No environment is registered under the id {env_id}. Register it with `vecgym.register`, or "
    "import the package that registers it; `vecgym.pprint_registry()` lists every registered id."
)
MODULE_IMPORT_FAILED_MSG = (
    "{cause}. An id of the form 'module:Env-vN' imports its module first so that the module "
    "registers the environment; check that '{module}' is installed and importable."
)
NO_ENTRY_POINT_MSG = "register needs an `entry_point`, a `vector_entry_point` or both, got neither"
VERSIONED_BESIDE_UNVERSIONED_MSG = (
    "Cannot register `{env_id}`: the unversioned `{other_id}` is registered already, and one name "
    "cannot have both a versioned and an unversioned id."
)
UNVERSIONED_BESIDE_VERSIONED_MSG = (
    "Cannot register `{env_id}` without a version: versioned ids of that name are registered "
    "already (the newest is `{other_id}`), and one name cannot have both. `vecgym.make` of an id "
    "without a version builds the newest version anyway."
)
OVERRIDING_MSG = "{env_id} was registered already; the new spec replaces the old one."
NAMESPACE_OVERRIDDEN_MSG = (
    "The namespace `{custom}` given to `register` is ignored: the plugin's entry point sets the "
    "namespace `{current}`. A plugin should leave the namespace out of its `register` calls."
)
CALLABLE_NOT_SERIALISABLE_MSG = (
    "{spec_name} cannot be written as JSON: its {key} is a callable ({value}); register the entry "
    "point as a 'module:attr' string instead."
)
BAD_WRAPPER_SPEC_JSON_MSG = "Cannot build a WrapperSpec from the JSON data {data}"
BAD_ENV_SPEC_JSON_MSG = "Cannot build an EnvSpec from the JSON data {data}"
BAD_ENTRY_POINT_MSG = (
    "An entry point must be a callable or a string of the form 'module:attribute', got {name!r}"
)
MISSING_ENTRY_POINT_ATTR_MSG = "Module '{module}' has no attribute '{attr}' (entry point {name!r})"
NO_ENV_BUILDER_MSG = (
    "EnvSpec.make needs vecgym's environment builder, which is installed when "
    "`vecgym.envs` is imported; call `vecgym.make(spec)` or `import vecgym.envs` first."
)


# --- creator protocols ----------------------------------------------------------------------------
class EnvCreator(Protocol):
    """A callable that builds an environment from keyword arguments (usually the env class)."""

    def __call__(self, **kwargs: Any) -> Env: ...


class VectorEnvCreator(Protocol):
    """A callable that builds a vector environment from keyword arguments (incl. ``num_envs``)."""

    def __call__(self, **kwargs: Any) -> Any: ...


# --- the builder hook ----------------------------------------------------------------------------
#: The function :meth:`EnvSpec.make` calls: ``vecgym.envs.registration.make``, installed by that
#: module (the composition root) when it is imported. ``None`` until then.
_env_builder: Callable[..., Env] | None = None


def install_env_builder(builder: Callable[..., Env]) -> None:
    """Install the function that :meth:`EnvSpec.make` calls as ``builder(spec, **kwargs)``.

    Called once by :mod:`vecgym.envs.registration`; the core layer thereby builds environments
    without importing the layers above it.
    """
    global _env_builder
    _env_builder = builder


class RegistryFallback(Protocol):
    """Where a :class:`Registry` looks up an id whose namespace and name it does not hold.

    ``vecgym.envs`` installs one on the global :data:`registry` (Gymnasium's registry, seen
    through vecgym). Each method gets the registry that asked and the error its own lookup raised,
    and either returns a spec or raises (that error, or a more helpful one of the same type).
    """

    def find_spec(self, env_id: str, own: Registry, own_error: error.Error) -> EnvSpec:
        """The spec ``make`` builds for ``env_id`` (version rules applied)."""
        ...

    def spec(self, env_id: str, own: Registry, own_error: error.Error) -> EnvSpec:
        """The spec registered under exactly ``env_id``."""
        ...

    def specs(self, own: Registry) -> dict[str, EnvSpec]:
        """Every spec the fallback provides, id -> spec, in its own order; for an id ``own``
        holds, ``own``'s spec."""
        ...


# --- specifications -------------------------------------------------------------------------------
@dataclass
class WrapperSpec:
    """How to rebuild one wrapper of an environment's wrapper stack.

    Attributes:
        name: the wrapper's class name.
        entry_point: where to import the wrapper from, ``"module:ClassName"``.
        kwargs: the wrapper's constructor arguments (without ``env``), or ``None`` when the wrapper
            does not record them (it does not derive from ``RecordConstructorArgs``); such a
            wrapper cannot be rebuilt by ``make``.

    Example:
        >>> ws = WrapperSpec("TimeLimit", "my_pkg:TimeLimit", {"max_episode_steps": 5})
        >>> ws.name, ws.kwargs
        ('TimeLimit', {'max_episode_steps': 5})
    """

    name: str
    entry_point: str
    kwargs: dict[str, Any] | None


@dataclass
class EnvSpec:
    """Everything ``vecgym.make`` needs to build an environment, stored in the registry by id.

    Attributes:
        id: the id passed to ``make``, ``[namespace/]name[-vVERSION]``.
        entry_point: the environment's constructor: a ``"module:attribute"`` string or a callable.
        reward_threshold: the return at which the task counts as solved, if any.
        nondeterministic: whether the environment cannot be replayed exactly from a seed and the
            actions.
        max_episode_steps: the step count after which ``TimeLimit`` truncates an episode, if any.
        order_enforce: whether ``make`` applies ``OrderEnforcing`` (reset before step/render).
        disable_env_checker: whether ``make`` leaves out ``PassiveEnvChecker``.
        kwargs: keyword arguments passed to the entry point.
        namespace: the namespace parsed from ``id`` (set on construction, not an argument).
        name: the name parsed from ``id`` (set on construction, not an argument).
        version: the version parsed from ``id`` (set on construction, not an argument).
        additional_wrappers: the wrappers ``make`` applies on top of the standard ones.
        vector_entry_point: the constructor of a natively vectorised version of the environment,
            used by ``make_vec`` in the ``"vector_entry_point"`` mode.

    Example:
        >>> env_spec = EnvSpec("demo/Maze-v2", entry_point="my_pkg.maze:MazeEnv")
        >>> env_spec.namespace, env_spec.name, env_spec.version
        ('demo', 'Maze', 2)
        >>> EnvSpec.from_json(env_spec.to_json()) == env_spec
        True
    """

    id: str
    entry_point: EnvCreator | Callable[..., Env] | str | None = field(default=None)

    reward_threshold: float | None = field(default=None)
    nondeterministic: bool = field(default=False)

    max_episode_steps: int | None = field(default=None)
    order_enforce: bool = field(default=True)
    disable_env_checker: bool = field(default=False)

    kwargs: dict[str, Any] = field(default_factory=dict)

    namespace: str | None = field(init=False)
    name: str = field(init=False)
    version: int | None = field(init=False)

    additional_wrappers: tuple[WrapperSpec, ...] = field(default_factory=tuple)

    vector_entry_point: VectorEnvCreator | Callable[..., Any] | str | None = field(default=None)

    def __post_init__(self) -> None:
        """Parse ``id`` into ``namespace``, ``name`` and ``version``."""
        self.namespace, self.name, self.version = parse_env_id(self.id)

    def make(self, **kwargs: Any) -> Env:
        """Build the environment this spec describes: ``vecgym.make(self, **kwargs)``.

        ``make`` lives in :mod:`vecgym.envs.registration` (the composition root), which installs
        it here through :func:`install_env_builder` when it is imported; this module never imports
        an upper layer, not even lazily.

        Raises:
            vecgym.error.Error: if no builder is installed (``vecgym.envs`` was never imported).
        """
        if _env_builder is None:
            raise error.Error(NO_ENV_BUILDER_MSG)
        return _env_builder(self, **kwargs)

    def to_json(self) -> str:
        """Serialise the spec to a JSON string (without the parsed namespace, name and version).

        Raises:
            ValueError: if the entry point (or another field) is a callable.
            TypeError: if ``kwargs`` hold values JSON cannot encode.
        """
        data = dataclasses.asdict(self)
        for derived in ("namespace", "name", "version"):
            del data[derived]
        _reject_callables(data)
        return json.dumps(data)

    @staticmethod
    def from_json(json_env_spec: str) -> EnvSpec:
        """Rebuild a spec from the string :meth:`to_json` produced.

        Raises:
            ValueError: if a wrapper spec or the spec itself cannot be built from the data.
        """
        data = json.loads(json_env_spec)
        wrapper_specs: list[WrapperSpec] = []
        for wrapper_data in data.pop("additional_wrappers", ()):
            try:
                wrapper_specs.append(WrapperSpec(**wrapper_data))
            except Exception as exc:
                raise ValueError(BAD_WRAPPER_SPEC_JSON_MSG.format(data=wrapper_data)) from exc
        try:
            env_spec = EnvSpec(**data)
        except Exception as exc:
            raise ValueError(BAD_ENV_SPEC_JSON_MSG.format(data=data)) from exc
        env_spec.additional_wrappers = tuple(wrapper_specs)
        return env_spec

    def pprint(
        self,
        disable_print: bool = False,
        include_entry_points: bool = False,
        print_all: bool = False,
    ) -> str | None:
        """Print the spec one ``field=value`` per line (or return the text).

        Fields at their default value are left out unless ``print_all``; the entry points are
        shown when ``include_entry_points`` or ``print_all``.

        Args:
            disable_print: return the text instead of printing it.
            include_entry_points: include the env's and the wrappers' entry points.
            print_all: include every field, defaults too.

        Returns:
            The text when ``disable_print`` is true, else ``None``.
        """
        lines = [f"id={self.id}"]
        if print_all or include_entry_points:
            lines.append(f"entry_point={self.entry_point}")
        # (field, default): a field is shown when it is not its default, or when print_all.
        optional: tuple[tuple[str, Any], ...] = (
            ("reward_threshold", None),
            ("nondeterministic", False),
            ("max_episode_steps", None),
            ("order_enforce", True),
            ("disable_env_checker", False),
        )
        for key, default in optional:
            value = getattr(self, key)
            if print_all or value is not default:
                lines.append(f"{key}={value}")
        if print_all or self.additional_wrappers:
            lines.append(self._wrappers_text(include_entry_points))
        text = "\n".join(lines)
        if disable_print:
            return text
        print(text)
        return None

    def _wrappers_text(self, include_entry_points: bool) -> str:
        """The ``additional_wrappers=[...]`` block of :meth:`pprint`."""
        if not self.additional_wrappers:
            return "additional_wrappers=[]"
        entries = []
        for wrapper in self.additional_wrappers:
            where = f", entry_point={wrapper.entry_point}" if include_entry_points else ""
            entries.append(f"\n\tname={wrapper.name}{where}, kwargs={wrapper.kwargs}")
        return f"additional_wrappers=[{','.join(entries)}\n]"


def _reject_callables(data: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` if a top-level value of a spec's dict is callable."""
    spec_name = data.get("name", data.get("id"))
    for key, value in data.items():
        if callable(value):
            raise ValueError(
                CALLABLE_NOT_SERIALISABLE_MSG.format(spec_name=spec_name, key=key, value=value)
            )


class VectorizeMode(Enum):
    """How ``vecgym.make_vec`` vectorises an environment."""

    ASYNC = "async"
    SYNC = "sync"
    VECTOR_ENTRY_POINT = "vector_entry_point"
    RAY = "ray"


# --- ids ------------------------------------------------------------------------------------------
def parse_env_id(env_id: str) -> tuple[str | None, str, int | None]:
    """Split an id ``[namespace/]name[-vVERSION]`` into its parts.

    Args:
        env_id: the environment id.

    Returns:
        ``(namespace, name, version)``; namespace and version are ``None`` where absent.

    Raises:
        vecgym.error.Error: if ``env_id`` does not follow the id grammar.

    Example:
        >>> parse_env_id("ALE/Pong-v5")
        ('ALE', 'Pong', 5)
        >>> parse_env_id("Blackjack")
        (None, 'Blackjack', None)
    """
    match = ENV_ID_RE.fullmatch(env_id) if isinstance(env_id, str) else None
    if match is None:
        raise error.Error(MALFORMED_ID_MSG.format(env_id=env_id))
    ns, name, version = match.group("namespace", "name", "version")
    return ns, name, None if version is None else int(version)


def get_env_id(ns: str | None, name: str, version: int | None) -> str:
    """Join namespace, name and version into an id; the inverse of :func:`parse_env_id`.

    Example:
        >>> get_env_id("ALE", "Pong", 5), get_env_id(None, "Blackjack", None)
        ('ALE/Pong-v5', 'Blackjack')
    """
    env_id = name if ns is None else f"{ns}/{name}"
    return env_id if version is None else f"{env_id}-v{version}"


def load_env_creator(name: str | Callable[..., Any]) -> Any:
    """Resolve an entry point to the callable it names.

    Args:
        name: ``"module:attribute"`` (the module is imported; ``attribute`` may be dotted, e.g.
            ``"pkg.mod:Class.factory"``), or a callable, which is returned as it is.

    Returns:
        The creator, usually an environment or wrapper class.

    Raises:
        ValueError: if ``name`` is neither a callable nor a ``"module:attribute"`` string.
        ModuleNotFoundError: if the module cannot be imported.
        AttributeError: if the module has no such attribute.
    """
    if callable(name):
        return name
    if not isinstance(name, str) or name.count(":") != 1:
        raise ValueError(BAD_ENTRY_POINT_MSG.format(name=name))
    module_name, attr_path = name.split(":")
    if not module_name or not attr_path:
        raise ValueError(BAD_ENTRY_POINT_MSG.format(name=name))
    creator: Any = importlib.import_module(module_name)
    for attr in attr_path.split("."):
        try:
            creator = getattr(creator, attr)
        except AttributeError as exc:
            raise AttributeError(
                MISSING_ENTRY_POINT_ATTR_MSG.format(module=module_name, attr=attr_path, name=name)
            ) from exc
    return creator


def register_envs(env_module: ModuleType) -> None:
    """Do nothing; lets ``register_envs(some_plugin)`` mark a registering import as used.

    Linters flag ``import some_plugin`` as unused when the import only registers environments;
    passing the module here keeps the import without changing anything.
    """
    del env_module


# --- the registry ---------------------------------------------------------------------------------
class Registry(dict[str, EnvSpec]):
    """A ``dict`` of environment id to :class:`EnvSpec`, with the registration rules on top.

    Reading is plain ``dict`` use (``"CartPole-v1" in registry``, ``registry["CartPole-v1"]``,
    ``registry.keys()``). Writing should go through :meth:`register`, which checks the id and the
    version rules. The namespace set by :meth:`namespace` is held here too, in
    :attr:`current_namespace`.

    A registry with a :attr:`fallback` (the global one, over Gymnasium's registry) reads as the
    union of both, as Gymnasium's single registry does: ``"HalfCheetah-v5" in registry``,
    ``registry["HalfCheetah-v5"]``, ``get``, ``keys``, ``values``, ``items``, iteration and
    ``len`` include the fallback's ids, in the fallback's order (Gymnasium's: classic control
    first), with this registry's own spec for an id both hold and this registry's other ids after
    them. Listing them imports Gymnasium (when it is installed). Writing (``register``, ``del``,
    ``pop``, ``clear``) changes this registry's own ids only; :meth:`own_specs` reads those alone.

    Example:
        >>> reg = Registry()
        >>> with reg.namespace("demo"):
        ...     reg.register("Maze-v0", entry_point="my_pkg.maze:MazeEnv")
        >>> list(reg)
        ['demo/Maze-v0']
    """

    current_namespace: str | None
    #: Consulted for an id whose namespace and name this registry does not hold (its own ids
    #: always win); ``None``: no fallback.
    fallback: RegistryFallback | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Build a registry; arguments are those of ``dict``."""
        super().__init__(*args, **kwargs)
        self.current_namespace = None
        self.fallback = None

    # -- reading, the fallback's ids included ------------------------------------------------------
    def own_specs(self) -> dict[str, EnvSpec]:
        """The ids registered in this registry itself (not the fallback's), in their order."""
        return dict(dict.items(self))

    def _fallback_specs(self) -> dict[str, EnvSpec]:
        return {} if self.fallback is None else self.fallback.specs(self)

    def _merged(self) -> dict[str, EnvSpec]:
        """The fallback's specs and this registry's own, in the order the class docstring says."""
        merged = self._fallback_specs()
        merged.update(dict.items(self))
        return merged

    def __contains__(self, key: object) -> bool:
        if dict.__contains__(self, key):
            return True
        return self.fallback is not None and isinstance(key, str) and key in self._fallback_specs()

    def __missing__(self, key: str) -> EnvSpec:
        specs = self._fallback_specs()
        if key in specs:
            return specs[key]
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        """The spec of ``key`` (the fallback's too), else ``default``."""
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return self._fallback_specs().get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._merged())

    def __len__(self) -> int:
        return len(self._merged()) if self.fallback is not None else dict.__len__(self)

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        """The ids (the fallback's too)."""
        return self._merged().keys()

    def values(self) -> ValuesView[EnvSpec]:  # type: ignore[override]
        """The specs (the fallback's too)."""
        return self._merged().values()

    def items(self) -> ItemsView[str, EnvSpec]:  # type: ignore[override]
        """``(id, spec)`` pairs (the fallback's too)."""
        return self._merged().items()

    def copy(self) -> dict[str, EnvSpec]:
        """A plain ``dict`` of every id and spec (the fallback's too)."""
        return self._merged()

    def __repr__(self) -> str:
        return repr(self._merged()) if self.fallback is not None else dict.__repr__(self)

    # -- registration ------------------------------------------------------------------------------
    def register(
        self,
        id: str,
        entry_point: EnvCreator | Callable[..., Env] | str | None = None,
        reward_threshold: float | None = None,
        nondeterministic: bool = False,
        max_episode_steps: int | None = None,
        order_enforce: bool = True,
        disable_env_checker: bool = False,
        additional_wrappers: tuple[WrapperSpec, ...] = (),
        vector_entry_point: VectorEnvCreator | Callable[..., Any] | str | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """Store an :class:`EnvSpec` for ``id``; see :func:`register` for the arguments.

        Inside :meth:`namespace`, the current namespace replaces the namespace of ``id``.

        Raises:
            ValueError: if neither ``entry_point`` nor ``vector_entry_point`` is given.
            vecgym.error.Error: if ``id`` is malformed.
            vecgym.error.RegistrationError: if a versioned and an unversioned id of the same name
                would both be registered.
        """
        if entry_point is None and vector_entry_point is None:
            raise ValueError(NO_ENTRY_POINT_MSG)
        ns, name, version = parse_env_id(id)
        kwargs = {} if kwargs is None else kwargs
        if self.current_namespace is not None:
            custom = kwargs.get("namespace")
            if custom is not None and custom != self.current_namespace:
                logger.warn(
                    NAMESPACE_OVERRIDDEN_MSG.format(custom=custom, current=self.current_namespace)
                )
            ns = self.current_namespace
        new_spec = EnvSpec(
            id=get_env_id(ns, name, version),
            entry_point=entry_point,
            reward_threshold=reward_threshold,
            nondeterministic=nondeterministic,
            max_episode_steps=max_episode_steps,
            order_enforce=order_enforce,
            disable_env_checker=disable_env_checker,
            kwargs=kwargs,
            additional_wrappers=tuple(additional_wrappers),
            vector_entry_point=vector_entry_point,
        )
        self._check_can_register(new_spec)
        if dict.__contains__(self, new_spec.id):
            logger.warn(OVERRIDING_MSG.format(env_id=new_spec.id))
        self[new_spec.id] = new_spec

    def _same_name(self, ns: str | None, name: str) -> list[EnvSpec]:
        """The specs registered under ``ns`` and ``name``, any version."""
        return [s for s in dict.values(self) if s.namespace == ns and s.name == name]

    def _check_can_register(self, new_spec: EnvSpec) -> None:
        """Refuse a versioned id beside an unversioned one of the same name, and vice versa."""
        siblings = self._same_name(new_spec.namespace, new_spec.name)
        unversioned = next((s for s in siblings if s.version is None), None)
        versioned = [s for s in siblings if s.version is not None]
        if new_spec.version is not None and unversioned is not None:
            raise error.RegistrationError(
                VERSIONED_BESIDE_UNVERSIONED_MSG.format(env_id=new_spec.id, other_id=unversioned.id)
            )
        if new_spec.version is None and versioned:
            latest = max(versioned, key=_version_of)
            raise error.RegistrationError(
                UNVERSIONED_BESIDE_VERSIONED_MSG.format(env_id=new_spec.id, other_id=latest.id)
            )

    @contextlib.contextmanager
    def namespace(self, ns: str) -> Iterator[None]:
        """Register into namespace ``ns`` inside the ``with`` block; the previous one is restored
        on exit, also when the block raises."""
        previous = self.current_namespace
        self.current_namespace = ns
        try:
            yield
        finally:
            self.current_namespace = previous

    # -- lookups -----------------------------------------------------------------------------------
    def find_highest_version(self, ns: str | None, name: str) -> int | None:
        """The newest registered version of ``ns``/``name``, or ``None`` if none is versioned."""
        versions = [s.version for s in self._same_name(ns, name) if s.version is not None]
        return max(versions, default=None)

    def spec(self, env_id: str) -> EnvSpec:
        """The spec registered under exactly ``env_id`` (no version resolution, no module import).

        Raises:
            vecgym.error.NamespaceNotFound, NameNotFound, VersionNotFound, DeprecatedEnv: see
                :meth:`check_version_exists`.
            vecgym.error.Error: if the id is malformed or otherwise not registered.
        """
        env_spec = dict.get(self, env_id)
        if env_spec is None:
            ns, name, version = parse_env_id(env_id)
            try:
                self.check_version_exists(ns, name, version)
            except error.UnregisteredEnv as exc:
                if self.fallback is None or self._holds_name(ns, name):
                    raise
                return self.fallback.spec(env_id, self, exc)
            raise error.Error(NOT_REGISTERED_MSG.format(env_id=env_id))
        return env_spec

    def _holds_name(self, ns: str | None, name: str) -> bool:
        """Whether any id of this registry has namespace ``ns`` and name ``name``."""
        return any(s.namespace == ns and s.name == name for s in dict.values(self))

    def find_spec(self, env_id: str) -> EnvSpec:
        """The spec ``make`` builds for ``env_id``: this registry's, else the :attr:`fallback`'s.

        This registry decides every id whose namespace and name it holds (see
        :meth:`_find_own_spec`); an id it does not know goes to the fallback, when one is set.
        """
        try:
            return self._find_own_spec(env_id)
        except error.UnregisteredEnv as exc:
            if self.fallback is None:
                raise
            own_id = (
                env_id.partition(":")[2]
                if ":" in env_id and not dict.__contains__(self, env_id)
                else env_id
            )
            ns, name, _ = parse_env_id(own_id)
            if self._holds_name(ns, name):
                raise
            return self.fallback.find_spec(env_id, self, exc)

    def _find_own_spec(self, env_id: str) -> EnvSpec:
        """The spec ``make`` builds for ``env_id`` from this registry alone, with the version rules.

        ``"module:Env-v0"`` first imports ``module`` (which is expected to register ``Env-v0``);
        an id that is registered as written (colons included) is looked up directly. An id
        without a version resolves to the newest version (warning); an older version than the
        newest one warns with a ``DeprecationWarning``.

        Raises:
            ModuleNotFoundError: if the ``module:`` prefix cannot be imported.
            vecgym.error.UnregisteredEnv: (a subclass of it) if the id is not registered.
            vecgym.error.DeprecatedEnv: if an old, unregistered version is asked for.
        """
        if not isinstance(env_id, str):
            raise TypeError(ID_TYPE_MSG.format(type=type(env_id)))
        env_name = env_id
        if ":" in env_id and not dict.__contains__(self, env_id):
            module, _, env_name = env_id.partition(":")
            _import_registering_module(module)
        env_spec = dict.get(self, env_name)
        ns, name, version = parse_env_id(env_name)
        latest = self.find_highest_version(ns, name)
        if version is not None and latest is not None and latest > version:
            logger.deprecation(OUT_OF_DATE_MSG.format(env_id=env_name, latest=latest))
        if version is None and latest is not None:
            version = latest
            latest_id = get_env_id(ns, name, version)
            env_spec = dict.get(self, latest_id)
            logger.warn(UNVERSIONED_MSG.format(latest_id=latest_id, env_id=env_name))
        if env_spec is None:
            self.check_version_exists(ns, name, version)
            raise error.Error(NOT_REGISTERED_HINT_MSG.format(env_id=env_name))
        return env_spec

    def check_version_exists(self, ns: str | None, name: str, version: int | None) -> None:
        """Raise the most helpful error if ``ns``/``name``/``version`` is not registered.

        Raises:
            vecgym.error.NamespaceNotFound: no id uses namespace ``ns`` (with a suggestion).
            vecgym.error.NameNotFound: no id in ``ns`` has this name (with a suggestion).
            vecgym.error.DeprecatedEnv: only an unversioned id of the name exists, or the version
                is older than the newest registered one.
            vecgym.error.VersionNotFound: the version is newer than every registered one.
        """
        if dict.__contains__(self, get_env_id(ns, name, version)):
            return
        self._check_name_exists(ns, name)
        if version is None:
            return
        message = VERSION_NOT_FOUND_MSG.format(version=version, env_id=get_env_id(ns, name, None))
        siblings = self._same_name(ns, name)
        unversioned = [s for s in siblings if s.version is None]
        versioned = sorted((s for s in siblings if s.version is not None), key=_version_of)
        if unversioned:
            message += DEFAULT_VERSION_HINT_MSG.format(default_id=unversioned[0].id)
            if not versioned:
                raise error.DeprecatedEnv(message)
        if not versioned:
            return
        latest = versioned[-1]
        if version > _version_of(latest):
            listed = ", ".join(f"`v{s.version}`" for s in versioned)
            raise error.VersionNotFound(message + VERSIONS_HINT_MSG.format(versions=listed))
        if version < _version_of(latest):
            raise error.DeprecatedEnv(
                DEPRECATED_VERSION_MSG.format(
                    version=version, env_id=get_env_id(ns, name, None), latest_id=latest.id
                )
            )

    def _check_namespace_exists(self, ns: str | None) -> None:
        """Raise ``NamespaceNotFound`` (with a suggestion) if no id uses namespace ``ns``."""
        if ns is None:
            return
        namespaces = {s.namespace for s in dict.values(self) if s.namespace is not None}
        if ns in namespaces:
            return
        suggestion = difflib.get_close_matches(ns, namespaces, n=1)
        hint = (
            NAMESPACE_SUGGESTION_MSG.format(suggestion=suggestion[0])
            if suggestion
            else NAMESPACE_INSTALL_HINT_MSG.format(ns=ns)
        )
        raise error.NamespaceNotFound(NAMESPACE_NOT_FOUND_MSG.format(ns=ns, hint=hint))

    def _check_name_exists(self, ns: str | None, name: str) -> None:
        """Raise ``NameNotFound`` (with a suggestion) if namespace ``ns`` has no such name."""
        self._check_namespace_exists(ns)
        names = {s.name for s in dict.values(self) if s.namespace == ns}
        if name in names:
            return
        suggestion = difflib.get_close_matches(name, names, n=1)
        hint = NAME_SUGGESTION_MSG.format(suggestion=suggestion[0]) if suggestion else ""
        in_namespace = f" in namespace {ns}" if ns else ""
        raise error.NameNotFound(
            NAME_NOT_FOUND_MSG.format(name=name, in_namespace=in_namespace, hint=hint)
        )

    # -- display -----------------------------------------------------------------------------------
    def pprint(
        self,
        *,
        num_cols: int = 3,
        exclude_namespaces: list[str] | None = None,
        disable_print: bool = False,
    ) -> str | None:
        """Print this registry's ids grouped by namespace; see :func:`pprint_registry`."""
        return pprint_registry(
            self,
            num_cols=num_cols,
            exclude_namespaces=exclude_namespaces,
            disable_print=disable_print,
        )


def _version_of(env_spec: EnvSpec) -> int:
    """The version of a versioned spec (for sorting)."""
    assert env_spec.version is not None
    return env_spec.version


def _import_registering_module(module: str) -> None:
    """Import the module named before the ``:`` of a ``"module:Env-v0"`` id."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            MODULE_IMPORT_FAILED_MSG.format(cause=exc, module=module)
        ) from exc


#: The registry of every environment ``vecgym.make`` can build, id -> :class:`EnvSpec`.
registry: Registry = Registry()


def __getattr__(name: str) -> Any:
    """Serve ``current_namespace`` (Gymnasium's module global) from :data:`registry`."""
    if name == "current_namespace":
        return registry.current_namespace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- module-level API on the global registry ------------------------------------------------------
def register(
    id: str,
    entry_point: EnvCreator | Callable[..., Env] | str | None = None,
    reward_threshold: float | None = None,
    nondeterministic: bool = False,
    max_episode_steps: int | None = None,
    order_enforce: bool = True,
    disable_env_checker: bool = False,
    additional_wrappers: tuple[WrapperSpec, ...] = (),
    vector_entry_point: VectorEnvCreator | Callable[..., Any] | str | None = None,
    kwargs: dict[str, Any] | None = None,
) -> None:
    """Register an environment under ``id`` so that ``vecgym.make(id)`` can build it.

    Args:
        id: ``[namespace/]name[-vVERSION]``; inside :func:`namespace` the current namespace is used.
        entry_point: the constructor, a callable or a ``"module:attribute"`` string.
        reward_threshold: the return at which the task counts as solved.
        nondeterministic: whether the env cannot be replayed exactly from a seed and actions.
        max_episode_steps: if not ``None``, ``make`` truncates episodes with ``TimeLimit``.
        order_enforce: whether ``make`` applies ``OrderEnforcing``.
        disable_env_checker: whether ``make`` leaves out ``PassiveEnvChecker``.
        additional_wrappers: wrappers ``make`` applies after the standard ones.
        vector_entry_point: the constructor of a natively vectorised env (for ``make_vec``).
        kwargs: keyword arguments passed to the entry point.

    Raises:
        ValueError: if neither ``entry_point`` nor ``vector_entry_point`` is given.
        vecgym.error.Error: if ``id`` is malformed.
        vecgym.error.RegistrationError: if a versioned and an unversioned id of the same name
            would both be registered.

    Registering an id again replaces the old spec, with a warning.
    """
    registry.register(
        id,
        entry_point=entry_point,
        reward_threshold=reward_threshold,
        nondeterministic=nondeterministic,
        max_episode_steps=max_episode_steps,
        order_enforce=order_enforce,
        disable_env_checker=disable_env_checker,
        additional_wrappers=additional_wrappers,
        vector_entry_point=vector_entry_point,
        kwargs=kwargs,
    )


#: vecgym's numpy-vectorised versions of its built-in envs that Gymnasium does not vectorise, by
#: the single env's entry point. They stay out of the specs' ``vector_entry_point`` so that the
#: specs and ``make_vec``'s default (a ``SyncVectorEnv``, with ``envs``, ``call`` and
#: ``get_attr``) are Gymnasium's; ``make_vec(..., vectorization_mode="vector_entry_point")``
#: builds them (see :func:`vector_entry_point_of`).
NUMPY_VECTORISED: dict[str, str] = {}


def add_numpy_vectorised(package: str, modules: dict[str, str]) -> None:
    """Record ``{package}.{module}:{name}VectorEnv`` as the numpy-vectorised version of
    ``{package}.{module}:{name}Env`` in :data:`NUMPY_VECTORISED`, for each ``module: name``."""
    for module, name in modules.items():
        NUMPY_VECTORISED[f"{package}.{module}:{name}Env"] = f"{package}.{module}:{name}VectorEnv"


def vector_entry_point_of(env_spec: EnvSpec) -> VectorEnvCreator | Callable[..., Any] | str | None:
    """The vector env constructor that ``vectorization_mode="vector_entry_point"`` uses.

    The spec's own ``vector_entry_point`` or, where it has none, vecgym's numpy-vectorised version
    of the spec's entry point (:data:`NUMPY_VECTORISED`); ``None`` where there is neither.
    """
    if env_spec.vector_entry_point is not None:
        return env_spec.vector_entry_point
    if isinstance(env_spec.entry_point, str):
        return NUMPY_VECTORISED.get(env_spec.entry_point)
    return None


def spec(env_id: str) -> EnvSpec:
    """The :class:`EnvSpec` registered under exactly ``env_id``; see :meth:`Registry.spec`.

    Example:
        >>> import vecgym
        >>> vecgym.spec("CartPole-v1").max_episode_steps
        500
    """
    return registry.spec(env_id)


def find_highest_version(ns: str | None, name: str) -> int | None:
    """The newest registered version of ``ns``/``name`` in :data:`registry`, or ``None``."""
    return registry.find_highest_version(ns, name)


def namespace(ns: str) -> contextlib.AbstractContextManager[None]:
    """Context manager: ids registered inside the ``with`` block get namespace ``ns``.

    Example:
        >>> with namespace("demo"):
        ...     register("Maze-v0", entry_point="my_pkg.maze:MazeEnv")
        >>> "demo/Maze-v0" in registry
        True
        >>> del registry["demo/Maze-v0"]
    """
    return registry.namespace(ns)


def pprint_registry(
    print_registry: Mapping[str, EnvSpec] = registry,
    *,
    num_cols: int = 3,
    exclude_namespaces: list[str] | None = None,
    disable_print: bool = False,
) -> str | None:
    """Print the ids of a registry, grouped by namespace, in ``num_cols`` columns.

    An id without a namespace is grouped by its entry point: ``"pkg.envs.family.module:Cls"``
    is listed under ``family`` (the third dotted part), ``"pkg.module:Cls"`` under ``module``;
    otherwise (or with a callable entry point) under its own name.

    A :class:`Registry` with a :attr:`~Registry.fallback` is printed together with the ids the
    fallback provides (for the global registry: Gymnasium's, when it is installed), in the
    fallback's order (Gymnasium's: classic control first), its own other ids after them.

    Args:
        print_registry: the registry to print (default: the global :data:`registry`).
        num_cols: how many ids per row.
        exclude_namespaces: namespaces to leave out.
        disable_print: return the text instead of printing it.

    Returns:
        The text when ``disable_print`` is true, else ``None``.
    """
    if isinstance(print_registry, Registry):
        print_registry = print_registry.copy()  # the fallback's ids too, in their order
    groups: dict[str, list[str]] = defaultdict(list)
    width = 0
    for env_spec in print_registry.values():
        groups[_display_namespace(env_spec)].append(env_spec.id)
        width = max(width, len(env_spec.name))
    blocks = [
        _format_group(group, ids, width, num_cols)
        for group, ids in groups.items()
        if exclude_namespaces is None or group not in exclude_namespaces
    ]
    text = "\n".join(blocks)
    if disable_print:
        return text
    print(text)
    return None


def _display_namespace(env_spec: EnvSpec) -> str:
    """The heading :func:`pprint_registry` lists ``env_spec`` under."""
    if env_spec.namespace is not None:
        return env_spec.namespace
    if not isinstance(env_spec.entry_point, str):
        return env_spec.name
    parts = re.sub(r":\w+", "", env_spec.entry_point).split(".")
    if len(parts) >= 3:
        return parts[2]
    if len(parts) == 2:
        return parts[1]
    return env_spec.name


def _format_group(group: str, env_ids: list[str], width: int, num_cols: int) -> str:
    """One heading and its ids, left-justified to ``width``, ``num_cols`` per row."""
    text = f"===== {group} =====\n"
    ordered = sorted(env_ids)
    for count, env_id in enumerate(ordered, 1):
        text += env_id.ljust(width) + " "
        if count % num_cols == 0:
            text = text.rstrip(" ")
            if count != len(ordered):
                text += "\n"
    return text.rstrip(" ")
