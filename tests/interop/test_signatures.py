"""Every public callable of Gymnasium 1.4 takes the same arguments under vecgym.

For each public module of the installed Gymnasium, the module of the same path under ``vecgym`` is
imported, and each public function, class constructor and public method is compared parameter by
parameter with :func:`inspect.signature`: the same names, in the same order, of the same kinds
(positional-only, keyword-only, ...), with the same defaults. A call that Gymnasium code makes
therefore binds the same way under ``import vecgym as gym``, keyword arguments included.

vecgym may add parameters Gymnasium lacks (``AsyncVectorEnv(num_workers=...)``, the ``indices`` of
``call``): each must have a default, and an added positional parameter must come after all of
Gymnasium's positional ones, so that no Gymnasium call sees its arguments shift. The modules that
vecgym reaches through Gymnasium's registry instead of mirroring (MuJoCo, Box2D, the jax-based
envs) are listed in :data:`NOT_MIRRORED`; the differences kept on purpose, each with its reason, in
:data:`ON_PURPOSE`.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from tests.support.play_driver import gymnasium_play

gymnasium = pytest.importorskip("gymnasium")

#: Gymnasium's subpackages whose envs vecgym runs from Gymnasium's own registry (the registry
#: bridge), rather than shipping a module of the same path.
NOT_MIRRORED = (
    "gymnasium.envs.mujoco",
    "gymnasium.envs.box2d",
    "gymnasium.envs.functional_jax_env",
    "gymnasium.envs.phys2d",
    "gymnasium.envs.tabular",
)

#: ``module:qualified name`` -> why vecgym's signature differs from Gymnasium's.
ON_PURPOSE: dict[str, str] = {
    # Gymnasium 1.4 paints Blackjack's frames from its PNG pixel art with pygame; vecgym draws them
    # with numpy (CHANGELOG: "Frames are drawn from shapes"), so this pygame helper has no match.
    "gymnasium.envs.toy_text.blackjack:draw_table": "frames drawn with numpy, not pygame images",
    # Gymnasium 1.4 builds these with functools.partial(array_conversion, xp=...), which exposes
    # the target namespace as a keyword; vecgym's functions convert to one fixed library (their
    # name says which) and take the device positionally too, as Gymnasium 1.0-1.2's did.
    **{
        f"gymnasium.wrappers.{module}:{name}": "fixed target namespace; device also positional"
        for module, names in {
            "jax_to_numpy": ("jax_to_numpy", "numpy_to_jax"),
            "jax_to_torch": ("jax_to_torch", "torch_to_jax"),
            "numpy_to_torch": ("numpy_to_torch", "torch_to_numpy"),
        }.items()
        for name in names
    },
}

_EMPTY = inspect.Parameter.empty
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _gymnasium_modules(package: str = "gymnasium") -> Iterator[str]:
    """The public modules of the installed Gymnasium, except those vecgym does not mirror (never
    imported: Box2D's extension crashes an interpreter that has loaded other libraries)."""
    yield package
    module = _import(package)
    for info in pkgutil.iter_modules(getattr(module, "__path__", []), package + "."):
        if info.name.rsplit(".", 1)[1].startswith("_") or info.name.startswith(NOT_MIRRORED):
            continue
        if info.ispkg:
            yield from _gymnasium_modules(info.name)
        else:
            yield info.name


def _import(name: str) -> types.ModuleType | None:
    if name == "gymnasium.utils.play":  # its import switches matplotlib to TkAgg: undone there
        try:
            return gymnasium_play()
        except pytest.skip.Exception:  # pygame is missing
            return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return importlib.import_module(name)
        except (ImportError, gymnasium.error.DependencyNotInstalled):
            return None  # an optional package of Gymnasium's is missing (jax: see conftest.py)


def _public_callables(module: types.ModuleType) -> Iterator[tuple[str, Any]]:
    """``(qualified name, object)`` for each public function and class that ``module`` defines
    (its ``__all__``, or else its public names whose ``__module__`` is the module), and each
    public method of those classes, their inherited ones included."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            name
            for name, value in vars(module).items()
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__
        ]
    for name in names:
        try:
            value = getattr(module, name, None)
        except (ImportError, gymnasium.error.DependencyNotInstalled):
            continue  # a lazily imported name whose optional package is missing
        if inspect.isclass(value):
            yield name, value
            for attr in dir(value):  # inherited methods too: vecgym's class may override them
                if attr.startswith("_") and attr != "__init__":
                    continue
                member = inspect.getattr_static(value, attr)
                if isinstance(member, (staticmethod, classmethod)) or inspect.isfunction(member):
                    yield f"{name}.{attr}", getattr(value, attr)
        elif callable(value):
            yield name, value


def _resolve(module: types.ModuleType, qualname: str) -> Any:
    value: Any = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def _default(value: Any) -> str:
    """A default in a form that compares across the two libraries."""
    if value is _EMPTY:
        return "<required>"
    if isinstance(value, types.ModuleType):
        return "<module>"
    if isinstance(value, Mapping) and (type(value) is not dict or len(value) > 8):
        return "<registry>"  # pprint_registry's default: each library's own registry
    if callable(value) and not isinstance(value, type):
        return "<callable>"
    return repr(value)


def _parameters(target: Callable[..., Any]) -> list[tuple[str, str, str]] | None:
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):  # a builtin without a signature
        return None
    return [
        (parameter.name, parameter.kind.name, _default(parameter.default))
        for parameter in signature.parameters.values()
    ]


def signature_problems(theirs: Callable[..., Any], ours: Callable[..., Any]) -> list[str]:
    """How a call that binds to ``theirs`` could bind differently to ``ours`` (empty: none)."""
    their_params, our_params = _parameters(theirs), _parameters(ours)
    if their_params is None or our_params is None:
        return []
    their_names = [name for name, _, _ in their_params]
    shared = [param for param in our_params if param[0] in their_names]
    if shared != their_params:
        return [f"Gymnasium {their_params} against vecgym's {shared}"]
    positional = {kind.name for kind in _POSITIONAL}
    last_shared_positional = max(
        (
            i
            for i, (name, kind, _) in enumerate(our_params)
            if kind in positional and name in their_names
        ),
        default=-1,
    )
    problems = []
    for i, (name, kind, default) in enumerate(our_params):
        if name in their_names or kind == inspect.Parameter.VAR_KEYWORD.name:
            continue
        if default == "<required>" and kind != inspect.Parameter.VAR_POSITIONAL.name:
            problems.append(f"vecgym's added parameter {name!r} has no default")
        if kind in positional and i < last_shared_positional:
            problems.append(f"vecgym's added positional parameter {name!r} shifts Gymnasium's")
    return problems


def _pairs() -> Iterator[tuple[str, Any, Any]]:
    for their_name in _gymnasium_modules():
        their_module = _import(their_name)
        if their_module is None:
            continue
        our_name = "vecgym" + their_name[len("gymnasium") :]
        try:
            our_module = importlib.import_module(our_name)
        except ModuleNotFoundError:
            yield f"{their_name}:<module>", their_module, None
            continue
        for qualname, theirs in _public_callables(their_module):
            yield f"{their_name}:{qualname}", theirs, _resolve(our_module, qualname)


PAIRS = list(_pairs())


def test_the_sweep_covers_gymnasiums_api() -> None:
    """The sweep reaches the modules and names that Gymnasium code calls."""
    keys = {key for key, _, _ in PAIRS}
    for key in (
        "gymnasium.envs.registration:make",
        "gymnasium.vector:AsyncVectorEnv.call_async",
        "gymnasium.wrappers:RecordEpisodeStatistics.__init__",
        "gymnasium.wrappers.vector:NormalizeReward.normalize",
        "gymnasium.spaces:Box.__init__",
    ):
        assert key in keys, key
    assert len(PAIRS) > 1500
    for key in ON_PURPOSE:  # each exception names a callable the sweep meets (where importable)
        assert key in keys or _import(key.split(":")[0]) is None, key


@pytest.mark.parametrize(("key", "theirs", "ours"), PAIRS, ids=[key for key, _, _ in PAIRS])
def test_signature_matches_gymnasium(key: str, theirs: Any, ours: Any) -> None:
    if key in ON_PURPOSE:
        pytest.skip(ON_PURPOSE[key])
    assert ours is not None, f"vecgym has no {key.replace('gymnasium', 'vecgym', 1)}"
    assert signature_problems(theirs, ours) == []


def test_the_comparison_catches_what_would_bind_differently() -> None:
    """Mutants of a signature: each is caught; a compatible extension is not."""

    def gym(self: Any, name: str, /, *args: Any, seed: int | None = None, **kw: Any) -> None:
        """Gymnasium's shape."""

    def renamed(self: Any, nom: str, /, *args: Any, seed: int | None = None, **kw: Any) -> None:
        """A parameter renamed."""

    def keyword_too(self: Any, name: str, *args: Any, seed: int | None = None, **kw: Any) -> None:
        """``name`` no longer positional-only: a keyword ``name`` passed on now collides."""

    def other_default(self: Any, name: str, /, *args: Any, seed: int | None = 0, **kw: Any) -> None:
        """Another default."""

    def required(
        self: Any, name: str, /, *args: Any, seed: int | None = None, x: int, **kw: Any
    ) -> None:
        """An added parameter without a default."""

    def extended(
        self: Any, name: str, /, *args: Any, seed: int | None = None, x: int = 0, **kw: Any
    ) -> None:
        """A keyword-only addition with a default: compatible."""

    for mutant in (renamed, keyword_too, other_default, required):
        assert signature_problems(gym, mutant), mutant.__name__
    assert signature_problems(gym, extended) == []
    assert signature_problems(gym, gym) == []

    def positional(a: int, b: int = 1) -> None:
        """Gymnasium's shape."""

    def shifted(a: int, extra: int = 0, b: int = 1) -> None:
        """An added positional parameter between Gymnasium's: ``f(1, 2)`` binds it."""

    def appended(a: int, b: int = 1, extra: int = 0) -> None:
        """An added positional parameter after Gymnasium's: compatible."""

    assert signature_problems(positional, shifted)
    assert signature_problems(positional, appended) == []


def test_a_wrapper_subclass_reports_its_env_parameter() -> None:
    """``inspect.signature`` of ``Wrapper`` and of a subclass without an ``__init__`` of its own
    is ``(env)``, as for Gymnasium's (not ``Wrapper.__new__``'s catch-all parameters)."""
    import vecgym

    class Plain(vecgym.Wrapper):  # type: ignore[type-arg]
        """No ``__init__`` of its own."""

    class Scaled(vecgym.Wrapper):  # type: ignore[type-arg]
        def __init__(self, env: Any, scale: float = 2.0) -> None:
            super().__init__(env)
            self.scale = scale

    for cls in (vecgym.Wrapper, Plain):
        assert str(inspect.signature(cls)) == str(inspect.signature(gymnasium.Wrapper))
        assert list(inspect.signature(cls).parameters) == ["env"]
    assert list(inspect.signature(Scaled).parameters) == ["env", "scale"]
    wrapped = Plain(vecgym.make("CartPole-v1"))
    assert isinstance(wrapped.env, vecgym.Env)
    wrapped.close()
