"""The layer rule of docs/architecture.md: nothing imports upward, not even lazily.

error/logger (0) -> core, spaces, utils, experimental (1) -> vector (2) -> wrappers (3) -> envs (4)
-> cli, interop, integrations (5). Every import of every module is checked statically: module-level
imports, imports inside functions and methods (they run later, but they still tie the layers into
one knot), and ``importlib.import_module("...")`` calls with a string literal. Only
``if TYPE_CHECKING:`` blocks are ignored, since they never run. An upper layer reaches a lower
one's behaviour through a hook that it installs (``EnvSpec.make``, ``check_env``'s to-numpy
wrappers), never the other way round.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import vecgym
from vecgym.core.env_checker import NO_WRAPPER_LOOKUP_MSG
from vecgym.core.registration import NO_ENV_BUILDER_MSG

PACKAGE_DIR = Path(vecgym.__file__).parent

#: The layer of every part of the package, by dotted prefix below ``vecgym`` (the longest prefix
#: that matches a module wins, so a submodule can sit in another layer than its package). A new
#: part of the package gets one line here.
LAYERS: dict[str, int] = {
    "error": 0,
    "logger": 0,
    "_extras": 0,
    "core": 1,
    "spaces": 1,
    "utils": 1,
    "experimental": 1,
    "vector": 2,
    "wrappers": 3,
    "envs": 4,
    "cli": 5,
    "interop": 5,
    "integrations": 5,
}

#: Rules inside one layer: modules under the key (a dotted prefix) never import the modules under
#: any of its values, lazily or not.
FORBIDDEN_WITHIN: dict[str, tuple[str, ...]] = {
    # The async machinery (pool, supervisor, scheduler, ...) serves the facade; it never imports it.
    "vecgym.vector._async": ("vecgym.vector.async_vector_env",),
}

#: Imports that break the rules on purpose: ``(importing module, imported module) -> why``.
#: Empty: the core layer builds environments and converts arrays through hooks that the upper
#: layers install (``install_env_builder``, ``install_wrapper_lookup``), and the performance
#: helpers read the autoreset mode by value. Add an entry only with a reason in its value.
ALLOWED: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Import:
    line: int
    name: str
    how: str  # "module level", "lazy" or "import_module"


def _layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "vecgym" or len(parts) < 2:
        return None
    for end in range(len(parts), 1, -1):
        layer = LAYERS.get(".".join(parts[1:end]))
        if layer is not None:
            return layer
    return None


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(name: str, level: int, package: str) -> str:
    if not level:
        return name
    base = package.split(".")
    base = base[: len(base) - level + 1]
    return ".".join([*base, name] if name else base)


def _import_module_target(node: ast.Call, package: str) -> str | None:
    """The module an ``importlib.import_module("...")`` call names, if it is a string literal."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if called != "import_module" or not node.args:
        return None
    first = node.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None  # a computed name (f-string, variable): checked by the runtime tests below
    name = first.value
    if not name.startswith("."):
        return name
    anchor = node.args[1] if len(node.args) > 1 else None
    if isinstance(anchor, ast.Constant) and isinstance(anchor.value, str):
        level = len(name) - len(name.lstrip("."))
        return _resolve(name.lstrip("."), level, anchor.value)
    return None


class _ImportFinder(ast.NodeVisitor):
    """Every import a module can execute: at import time, in functions, through import_module."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.package = module if is_package else module.rpartition(".")[0]
        self.depth = 0  # > 0 inside a function body
        self.found: list[Import] = []

    def _how(self) -> str:
        return "lazy" if self.depth else "module level"

    def visit_If(self, node: ast.If) -> None:
        if not _is_type_checking(node):
            for statement in node.body:
                self.visit(statement)
        for statement in node.orelse:
            self.visit(statement)

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._visit_function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._visit_function(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit_function(node)

    def visit_Import(self, node: ast.Import) -> None:
        self.found.extend(Import(node.lineno, alias.name, self._how()) for alias in node.names)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        name = _resolve(node.module or "", node.level, self.package)
        self.found.append(Import(node.lineno, name, self._how()))
        self.found.extend(
            Import(node.lineno, f"{name}.{alias.name}", self._how()) for alias in node.names
        )

    def visit_Call(self, node: ast.Call) -> None:
        target = _import_module_target(node, self.package)
        if target is not None:
            self.found.append(Import(node.lineno, target, "import_module"))
        self.generic_visit(node)


def _imports(path: Path) -> list[Import]:
    finder = _ImportFinder(_module_name(path), path.name == "__init__.py")
    finder.visit(ast.parse(path.read_text(), filename=str(path)))
    return finder.found


def _package_modules() -> list[Path]:
    return sorted(p for p in PACKAGE_DIR.rglob("*.py") if p.name != "__main__.py")


def _is_under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _violations(module: str, imports: list[Import]) -> list[str]:
    own_layer = _layer_of(module)
    if own_layer is None:  # vecgym/__init__.py: the facade, resolves upper layers lazily
        return []
    forbidden = [
        target
        for prefix, targets in FORBIDDEN_WITHIN.items()
        if _is_under(module, prefix)
        for target in targets
    ]
    found = []
    for imp in imports:
        if (module, imp.name) in ALLOWED:
            continue
        layer = _layer_of(imp.name)
        if layer is not None and layer > own_layer:
            found.append(f"line {imp.line} ({imp.how}): {imp.name} (layer {layer})")
        elif any(_is_under(imp.name, target) for target in forbidden):
            found.append(f"line {imp.line} ({imp.how}): {imp.name} (forbidden within the layer)")
    return found


@pytest.mark.parametrize("path", _package_modules(), ids=lambda p: str(p.relative_to(PACKAGE_DIR)))
def test_no_module_imports_an_upper_layer(path: Path) -> None:
    module = _module_name(path)
    offending = _violations(module, _imports(path))
    assert not offending, f"{module} (layer {_layer_of(module)}) imports upward: {offending}"


def test_allow_list_entries_are_still_needed() -> None:
    """An allowed import that no module makes any more is removed from the list."""
    made = {(_module_name(path), imp.name) for path in _package_modules() for imp in _imports(path)}
    assert [pair for pair in ALLOWED if pair not in made] == []


LAZY = "lazy"
TOP = "module level"
STRING = "import_module"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "from vecgym.envs import registration",
            [("vecgym.envs", TOP), ("vecgym.envs.registration", TOP)],
        ),
        ("from ..envs import make", [("vecgym.envs", TOP), ("vecgym.envs.make", TOP)]),
        ("def f():\n    import vecgym.wrappers", [("vecgym.wrappers", LAZY)]),
        (
            "class C:\n    def m(self):\n        from vecgym import vector",
            [("vecgym", LAZY), ("vecgym.vector", LAZY)],
        ),
        (
            "import importlib\nimportlib.import_module('vecgym.envs')",
            [("importlib", TOP), ("vecgym.envs", STRING)],
        ),
        (
            "import importlib\nf = lambda: importlib.import_module('.cli', 'vecgym')",
            [("importlib", TOP), ("vecgym.cli", STRING)],
        ),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import vecgym.envs",
            [("typing", TOP), ("typing.TYPE_CHECKING", TOP)],
        ),
    ],
)
def test_the_finder_sees_lazy_and_string_imports(
    source: str, expected: list[tuple[str, str]]
) -> None:
    finder = _ImportFinder("vecgym.core.probe", is_package=False)
    finder.visit(ast.parse(source))
    assert [(imp.name, imp.how) for imp in finder.found] == expected


def test_violations_name_the_line_and_the_kind_of_import() -> None:
    imports = [
        Import(3, "vecgym.error", TOP),
        Import(7, "vecgym.envs.registration", STRING),
        Import(9, "vecgym.wrappers", LAZY),
    ]
    assert _violations("vecgym.core.probe", imports) == [
        "line 7 (import_module): vecgym.envs.registration (layer 4)",
        "line 9 (lazy): vecgym.wrappers (layer 3)",
    ]
    pool_imports = [Import(5, "vecgym.vector.async_vector_env", LAZY)]
    assert _violations("vecgym.vector._async.pool", pool_imports) == [
        "line 5 (lazy): vecgym.vector.async_vector_env (forbidden within the layer)"
    ]


def test_layer_of_takes_the_longest_prefix() -> None:
    assert _layer_of("vecgym.core.registration") == 1
    assert _layer_of("vecgym.vector.ray_vector_env") == 2
    assert _layer_of("vecgym.interop") == 5
    assert _layer_of("vecgym") is None
    assert _layer_of("numpy.linalg") is None


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def _loaded_after(statement: str) -> list[str]:
    code = (
        f"import sys\n{statement}\n"
        "print('\\n'.join(sorted(m for m in sys.modules if m.startswith(('vecgym', 'gymnasium')))))"
    )
    out = _run(code)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_importing_core_loads_no_upper_layer() -> None:
    loaded = _loaded_after("import vecgym.core")
    upper = [m for m in loaded if m.startswith(("vecgym.vector", "vecgym.wrappers", "vecgym.envs"))]
    assert upper == []
    assert "vecgym.core.env" in loaded


def test_importing_vecgym_loads_no_upper_layer_and_no_gymnasium() -> None:
    loaded = _loaded_after("import vecgym")
    assert [m for m in loaded if m.startswith("gymnasium")] == []
    upper = [m for m in loaded if m.startswith(("vecgym.vector", "vecgym.wrappers", "vecgym.envs"))]
    assert upper == []


def test_upper_layers_load_on_first_use() -> None:
    loaded = _loaded_after("import vecgym\nvecgym.make")
    assert "vecgym.envs.registration" in loaded
    assert [m for m in loaded if m.startswith("gymnasium")] == []


def test_performance_helpers_load_no_upper_layer() -> None:
    loaded = _loaded_after("import vecgym.utils.performance")
    assert [m for m in loaded if m.startswith(("vecgym.vector", "vecgym.envs"))] == []


# --- the hooks the upper layers install ---------------------------------------------------------
def test_env_spec_make_uses_the_builder_the_composition_root_installs() -> None:
    spec = vecgym.spec("CartPole-v1")  # loads vecgym.envs, which installs the builder
    env = spec.make(max_episode_steps=7)
    try:
        assert env.spec is not None
        assert env.spec.max_episode_steps == 7
        assert type(env.unwrapped).__name__ == "CartPoleEnv"
    finally:
        env.close()


def test_env_spec_make_without_the_composition_root_says_what_to_import() -> None:
    out = _run(
        "import sys\n"
        "from vecgym.core.registration import EnvSpec\n"
        "from vecgym.error import Error\n"
        "try:\n"
        "    EnvSpec('Probe-v0', entry_point='x:y').make()\n"
        "except Error as exc:\n"
        "    print(exc)\n"
        "print('vecgym.envs' in sys.modules)\n"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [NO_ENV_BUILDER_MSG, "False"]


def test_check_env_without_the_wrappers_says_what_to_import() -> None:
    out = _run(
        "import sys\n"
        "from vecgym.core.env_checker import check_env\n"
        "from vecgym.error import Error\n"
        "from vecgym.core.env import Env\n"
        "from vecgym.core.spaces import Discrete\n"
        "class JaxFlagged(Env):\n"
        "    metadata = {'render_modes': [], 'jax': True}\n"
        "    observation_space = action_space = Discrete(2)\n"
        "env = JaxFlagged()\n"
        "try:\n"
        "    check_env(env)\n"
        "except Error as exc:\n"
        "    print(exc)\n"
        "print('vecgym.wrappers' in sys.modules)\n"
    )
    assert out.returncode == 0, out.stderr
    expected = NO_WRAPPER_LOOKUP_MSG.format(wrapper="JaxToNumpy", flag="jax")
    assert out.stdout.splitlines() == [expected, "False"]
