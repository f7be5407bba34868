"""Generate the API reference pages by walking the ``vecgym`` package.

Every public module (no path component starting with ``_``) gets a page under
``docs/reference/``; every name in its ``__all__`` appears on it. An object that several modules
export (``vecgym.spaces.Box`` is also ``vecgym.core.spaces.Box``) is documented once, at its
canonical path — the Gymnasium-style one: outside ``vecgym.core``, fewest dots — and listed as a
re-export elsewhere. Pages are grouped into sections by the module's second component (spaces,
wrappers, vector, envs, error, utils, ...); a new module or subpackage appears without editing
anything here. Wrapper pages are grouped as Gymnasium groups its wrappers. Names that Gymnasium
also has are linked to its documentation through ``docs/_intersphinx/gymnasium.inv``.

The walk (:func:`public_modules`, :func:`public_names`, :func:`build_pages`) is importable
without Sphinx, so ``tests/docs/test_reference.py`` checks the pages with the same code.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import enum
import importlib
import inspect
import io
import os
import pkgutil
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGE = "vecgym"
DOCS = Path(__file__).resolve().parent.parent
OUTPUT = DOCS / "reference"
GYMNASIUM_INV = DOCS / "_intersphinx" / "gymnasium.inv"

# Sections of the reference, keyed by a module's second dotted component ("" for the package
# itself), in the order they are listed. Modules under an unknown key get a section of their own.
SECTIONS: dict[str, tuple[str, str]] = {
    "": ("Env, Wrapper and make", "The top-level names: ``import vecgym as gym``."),
    "spaces": ("Spaces", "Observation and action spaces, and the functions over them."),
    "wrappers": ("Wrappers", "Single-environment and vector wrappers, grouped as Gymnasium's."),
    "vector": (
        "Vector environments",
        "SyncVectorEnv, AsyncVectorEnv (with EnvPool-style send/recv), the numpy-vectorised base "
        "class, autoreset modes and the batching utilities.",
    ),
    "envs": (
        "Registration and built-in environments",
        "make, make_vec, the registry, and the environments that ship with vecgym.",
    ),
    "error": ("Errors", "The exception tree."),
    "utils": (
        "Utilities",
        "Env checker, seeding, performance, video, step-API conversion, playing from the keyboard, "
        "comparing two environments.",
    ),
    "logger": ("Logger", "Warnings and messages."),
    "experimental": ("Experimental", "The functional environment API."),
    "integrations": ("Integrations", "Adapters to other libraries' interfaces."),
    "cli": ("Command line", "``vecgym bench``, ``autotune``, ``list`` and ``check``."),
    "core": (
        "Core (internal homes)",
        "Where the core names are defined; the public paths above re-export them.",
    ),
}

# Gymnasium's wrapper groups, by the module that defines a wrapper.
WRAPPER_GROUPS: dict[str, str] = {
    "common": "Common wrappers",
    "rendering": "Rendering wrappers",
    "transform_observation": "Observation wrappers",
    "stateful_observation": "Observation wrappers",
    "vectorize_observation": "Observation wrappers",
    "dict_info_to_list": "Common wrappers",
    "transform_action": "Action wrappers",
    "stateful_action": "Action wrappers",
    "vectorize_action": "Action wrappers",
    "transform_reward": "Reward wrappers",
    "stateful_reward": "Reward wrappers",
    "vectorize_reward": "Reward wrappers",
    "array_conversion": "Data conversion wrappers",
    "jax_to_numpy": "Data conversion wrappers",
    "jax_to_torch": "Data conversion wrappers",
    "numpy_to_torch": "Data conversion wrappers",
    "atari_preprocessing": "Atari wrappers",
    "legacy": "Legacy Gym compatibility",
    "_deprecated": "Deprecated names",
}
WRAPPER_GROUP_ORDER = [
    "Common wrappers",
    "Observation wrappers",
    "Action wrappers",
    "Reward wrappers",
    "Rendering wrappers",
    "Data conversion wrappers",
    "Atari wrappers",
    "Legacy Gym compatibility",
    "Deprecated names",
    "Other",
    "Submodules",
]


def public_modules(package: str = PACKAGE) -> list[str]:
    """Every importable public module of ``package`` (itself included), sorted by name."""
    root = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return sorted(names)


def public_names(module_name: str) -> list[str]:
    """The public names of a module: its ``__all__``, else its names without a leading ``_``."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_") and not _imported(module, n)]
    return [n for n in names if n != "__version__"] + (
        ["__version__"] if "__version__" in names else []
    )


def _imported(module: Any, name: str) -> bool:
    """Whether a name of a module without ``__all__`` was imported into it from elsewhere."""
    obj = vars(module)[name]
    if inspect.ismodule(obj):
        return not obj.__name__.startswith(f"{module.__name__}.")
    home = getattr(obj, "__module__", None)
    return (inspect.isclass(obj) or inspect.isfunction(obj)) and home != module.__name__


def section_key(module_name: str) -> str:
    """The section a module belongs to: its second dotted component ("" for the package)."""
    parts = module_name.split(".")
    return parts[1] if len(parts) > 1 else ""


def _module_rank(module_name: str) -> tuple[int, int, str]:
    """Order of preference for an object's canonical path: public over core, then shallowest."""
    internal = section_key(module_name) in {"core", "cli"}
    return (int(internal), module_name.count("."), module_name)


def _identity(name: str, obj: Any) -> Any:
    """What identifies one object across modules (scalars are shared, so keyed by name too)."""
    if obj is None or isinstance(obj, (bool, int, float, str, bytes, tuple, frozenset)):
        return ("value", name, repr(obj))
    return ("object", id(obj))


def _kind(obj: Any) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if inspect.isfunction(obj) or inspect.isbuiltin(obj) or _is_singledispatch(obj):
        return "function"
    return "data"


def _is_singledispatch(obj: Any) -> bool:
    return callable(obj) and hasattr(obj, "registry") and hasattr(obj, "dispatch")


@dataclass
class Entry:
    """One public name of one module."""

    module: str
    name: str
    kind: str
    canonical: str  # dotted path of the place it is documented
    group: str = "Other"

    @property
    def dotted(self) -> str:
        return f"{self.module}.{self.name}"

    @property
    def is_home(self) -> bool:
        return self.kind != "module" and self.canonical == self.dotted


@dataclass
class Reference:
    """The walked package: modules in order and the entries of each."""

    modules: list[str]
    entries: dict[str, list[Entry]] = field(default_factory=dict)


def walk(package: str = PACKAGE) -> Reference:
    """Walk the package and decide, for every object, the one path where it is documented."""
    modules = public_modules(package)
    found: dict[str, list[tuple[str, Any]]] = {}
    homes: dict[Any, str] = {}
    for module_name in sorted(modules, key=_module_rank):
        module = importlib.import_module(module_name)
        pairs = [(name, getattr(module, name)) for name in public_names(module_name)]
        found[module_name] = pairs
        for name, obj in pairs:
            if not inspect.ismodule(obj):
                homes.setdefault(_identity(name, obj), f"{module_name}.{name}")
    reference = Reference(modules)
    for module_name in modules:
        rows = []
        for name, obj in found[module_name]:
            kind = _kind(obj)
            canonical = obj.__name__ if kind == "module" else homes[_identity(name, obj)]
            if _gymnasium_s_own(obj):  # re-exported, documented by Gymnasium (no page here)
                canonical = f"{obj.__module__}.{obj.__qualname__}"
            rows.append(Entry(module_name, name, kind, canonical, _group(module_name, obj)))
        reference.entries[module_name] = rows
    return reference


def _gymnasium_s_own(obj: Any) -> bool:
    """Whether ``obj`` is a class or function of Gymnasium's that a vecgym module re-exports
    (``vecgym.envs.mujoco.MujocoEnv``): listed on the page, not documented there."""
    home = str(getattr(obj, "__module__", ""))
    return (inspect.isclass(obj) or inspect.isfunction(obj)) and home.startswith("gymnasium.")


def _group(module_name: str, obj: Any) -> str:
    if inspect.ismodule(obj):
        return "Submodules"
    if section_key(module_name) != "wrappers":
        return "Other"
    home = str(getattr(obj, "__module__", "")).rsplit(".", 1)[-1]
    return WRAPPER_GROUPS.get(home, "Other")


def gymnasium_names(path: Path = GYMNASIUM_INV) -> dict[str, str]:
    """Dotted name -> role of every name in the offline Gymnasium inventory."""
    if not path.exists():
        return {}
    raw = path.read_bytes()
    body = raw.split(b"\n", 4)[4]
    names = {}
    for line in zlib.decompress(body).decode().splitlines():
        name, role = line.split(" ", 2)[:2]
        names[name] = role.split(":", 1)[1]
    return names


def _gymnasium_twin(reference: Reference, entry: Entry, inventory: dict[str, str]) -> str | None:
    """A reST link to the Gymnasium name that ``entry`` mirrors, if the inventory has one."""
    aliases = [entry.dotted] + [
        e.dotted
        for rows in reference.entries.values()
        for e in rows
        if e.canonical == entry.canonical and e.dotted != entry.dotted
    ]
    for alias in aliases:
        twin = "gymnasium" + alias[len(PACKAGE) :]
        if twin in inventory:
            return f":external+gymnasium:py:{_role(inventory[twin])}:`{twin}`"
    return None


def _title(text: str, underline: str) -> list[str]:
    return [text, underline * len(text), ""]


def _directive(entry: Entry, twin: str | None) -> list[str]:
    auto = {
        "class": "autoclass",
        "exception": "autoexception",
        "function": "autofunction",
        "data": "autodata",
    }[entry.kind]
    lines = [f".. {auto}:: {entry.dotted}"]
    if entry.kind in {"class", "exception"}:
        lines += ["   :members:", "   :show-inheritance:"]
        if _is_enum(entry):
            lines.append("   :undoc-members:")
    if entry.kind == "data":
        if not _attribute_doc(entry):
            # Without a doc comment autodoc would show the docstring of the value's type.
            obj = getattr(importlib.import_module(entry.module), entry.name)
            kind = type(obj)
            lines = [
                f".. py:data:: {entry.dotted}",
                f"   :type: {kind.__module__}.{kind.__qualname__}",
            ]
        else:
            lines.append("   :no-value:")
    lines.append("")
    if twin:
        lines += [f"   Gymnasium's counterpart: {twin}.", ""]
    return lines


def _attribute_doc(entry: Entry) -> bool:
    """Whether a module-level name has a doc comment (``#:`` above it, or a string after it)."""
    return entry.name in _documented_attributes(entry.module)


def _documented_attributes(module_name: str) -> set[str]:
    """The module-level names of a module's source that carry a doc comment, as autodoc reads
    them (found with :mod:`ast`, so that the page generator does not need Sphinx)."""
    try:
        source = inspect.getsource(importlib.import_module(module_name))
    except (OSError, TypeError):  # no source (a compiled module)
        return set()
    lines = source.splitlines()
    body = ast.parse(source).body
    names: set[str] = set()
    for i, node in enumerate(body):
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            targets = [node.target.id]
        else:
            continue
        following = body[i + 1] if i + 1 < len(body) else None
        docstring = (
            isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        )
        comment = node.lineno >= 2 and lines[node.lineno - 2].lstrip().startswith("#:")
        if docstring or comment:
            names.update(targets)
    return names


def _is_enum(entry: Entry) -> bool:
    obj = getattr(importlib.import_module(entry.module), entry.name)
    return inspect.isclass(obj) and issubclass(obj, enum.Enum)


def _role(kind: str) -> str:
    """The Python-domain role that links to an object of this kind."""
    return {"module": "mod", "exception": "exc", "class": "class", "function": "func"}.get(
        kind, "data"
    )


def module_page(reference: Reference, module_name: str, inventory: dict[str, str]) -> str:
    """The reST source of one module's page."""
    lines = _title(f"``{module_name}``", "=")
    lines += [f".. automodule:: {module_name}", "   :no-members:"]
    if module_name in _documented_objects(reference):
        # A module that shares its dotted name with a function (``vecgym.utils.colorize``, as
        # in Gymnasium): the function keeps the link target.
        lines.append("   :no-index:")
    lines.append("")
    rows = reference.entries[module_name]
    groups: dict[str, list[Entry]] = {}
    for entry in rows:
        groups.setdefault(entry.group, []).append(entry)
    ordered = sorted(groups, key=lambda g: WRAPPER_GROUP_ORDER.index(g))
    titled = len(ordered) > 1 or ordered[:1] != ["Other"]
    for group in ordered:
        if titled:
            lines += _title("Names" if group == "Other" else group, "-")
        here = [e for e in groups[group] if e.is_home]
        elsewhere = [e for e in groups[group] if not e.is_home]
        for entry in here:
            lines += _directive(entry, _gymnasium_twin(reference, entry, inventory))
        if elsewhere:
            verb = "Submodules" if group == "Submodules" else "Also exported here"
            lines += [f"{verb}:", ""]
            for entry in elsewhere:
                link = f":py:{_role(entry.kind)}:`{entry.canonical}`"
                if entry.canonical.startswith("gymnasium."):
                    link = f"Gymnasium's ``{entry.canonical}``"
                lines.append(f"- ``{entry.name}``: {link}")
            lines.append("")
    if module_name == f"{PACKAGE}.cli":
        lines += cli_usage()
    return "\n".join(lines) + "\n"


def _documented_objects(reference: Reference) -> set[str]:
    return {e.dotted for e in all_entries(reference) if e.is_home}


def cli_usage() -> list[str]:
    """The ``--help`` text of ``vecgym`` and of each subcommand, as literal blocks."""
    cli = importlib.import_module(f"{PACKAGE}.cli")
    parser = cli.build_parser()
    lines = _title("Usage", "-")
    helps = [("vecgym", parser)]
    for action in parser._actions:  # argparse keeps its subparsers here
        if isinstance(action, argparse._SubParsersAction):
            helps += [(f"vecgym {name}", sub) for name, sub in action.choices.items()]
    for name, sub in helps:
        text = io.StringIO()
        with contextlib.redirect_stdout(text), _columns(100):
            sub.print_help()
        lines += [f"``{name} --help``::", ""]
        lines += ["   " + line if line else "" for line in text.getvalue().splitlines()]
        lines.append("")
    return lines


@contextlib.contextmanager
def _columns(width: int) -> Any:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def _page_name(module_name: str) -> str:
    return module_name


def section_pages(reference: Reference) -> dict[str, list[str]]:
    """Section key -> the modules on it, sections in the reference's order."""
    sections: dict[str, list[str]] = {}
    for module_name in reference.modules:
        sections.setdefault(section_key(module_name), []).append(module_name)
    known = [k for k in SECTIONS if k in sections]
    return {k: sections[k] for k in known + sorted(set(sections) - set(known))}


def index_page(reference: Reference) -> str:
    """The reST source of the reference's index: one toctree per section."""
    lines = _title("API reference", "=")
    lines += [
        "Every public module and name of vecgym, generated from the docstrings. Names that",
        "Gymnasium also has link to Gymnasium's documentation.",
        "",
    ]
    for key, modules in section_pages(reference).items():
        title, blurb = SECTIONS.get(key, (f"``{PACKAGE}.{key}``", ""))
        lines += _title(title, "-")
        if blurb:
            lines += [blurb, ""]
        lines += [".. toctree::", "   :maxdepth: 1", ""]
        lines += [f"   {_page_name(m)}" for m in modules]
        lines.append("")
    return "\n".join(lines) + "\n"


def build_pages(package: str = PACKAGE) -> dict[str, str]:
    """File name (relative to ``docs/reference``) -> reST source, for the whole reference."""
    reference = walk(package)
    inventory = gymnasium_names()
    pages = {"index.rst": index_page(reference)}
    for module_name in reference.modules:
        pages[f"{_page_name(module_name)}.rst"] = module_page(reference, module_name, inventory)
    return pages


def write_pages(pages: dict[str, str], out: Path = OUTPUT) -> None:
    """Write the pages, touching only files whose text changed; remove stale ones."""
    out.mkdir(parents=True, exist_ok=True)
    for stale in set(p.name for p in out.glob("*.rst")) - set(pages):
        (out / stale).unlink()
    for name, text in pages.items():
        path = out / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


def _generate(app: Any) -> None:
    write_pages(build_pages())


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def all_entries(reference: Reference) -> Iterable[Entry]:
    """Every (module, name) entry of the walked package."""
    for rows in reference.entries.values():
        yield from rows
