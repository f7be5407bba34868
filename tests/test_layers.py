"""The layer rule of DESIGN.md: nothing imports upward.

error/logger (0) -> core, spaces, utils, experimental (1) -> vector (2) -> wrappers (3) -> envs (4)
-> cli, integrations, interop (5).
Module-level imports are checked statically for every module; imports inside functions (lazy
imports of an upper layer) are allowed, and ``if TYPE_CHECKING:`` blocks are ignored.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import vecgym

PACKAGE_DIR = Path(vecgym.__file__).parent

LAYERS = {
    "error": 0,
    "logger": 0,
    "core": 1,
    "spaces": 1,
    "utils": 1,
    "experimental": 1,
    "vector": 2,
    "wrappers": 3,
    "envs": 4,
    "cli": 5,
    # adapters to other libraries' interfaces (and vecgym.interop, their public face): above envs
    "integrations": 5,
    "interop": 5,
}
# Re-export modules whose job is to expose an upper layer at Gymnasium's public path.
ALLOWED_UPWARD = {
    # `gymnasium.utils.performance.benchmark_vector_step` takes a vector env built by the caller;
    # nothing is imported. Listed here if that ever changes.
}


def _layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "vecgym" or len(parts) < 2:
        return None
    return LAYERS.get(parts[1])


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


def _module_level_imports(tree: ast.Module, module: str) -> list[tuple[int, str]]:
    """(line, imported module) for every import executed at import time."""
    found: list[tuple[int, str]] = []
    package = module if module.count(".") == 0 else module.rsplit(".", 1)[0]

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                found.extend((node.lineno, alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    name = ".".join([*base, node.module] if node.module else base)
                else:
                    name = node.module or ""
                found.append((node.lineno, name))
                found.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names)
            elif isinstance(node, ast.If):
                if not _is_type_checking(node):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            # function and class bodies: imports there run lazily (class bodies do run, but
            # vecgym keeps imports at module level or inside functions)

    visit(tree.body)
    return found


def _package_modules() -> list[Path]:
    return sorted(p for p in PACKAGE_DIR.rglob("*.py") if p.name != "__main__.py")


@pytest.mark.parametrize("path", _package_modules(), ids=lambda p: str(p.relative_to(PACKAGE_DIR)))
def test_no_module_imports_an_upper_layer(path: Path) -> None:
    module = _module_name(path)
    own_layer = _layer_of(module)
    if own_layer is None:  # vecgym/__init__.py: the facade, resolves upper layers lazily
        return
    tree = ast.parse(path.read_text(), filename=str(path))
    offending = [
        f"line {line}: {name} (layer {_layer_of(name)})"
        for line, name in _module_level_imports(tree, module)
        if (layer := _layer_of(name)) is not None
        and layer > own_layer
        and module not in ALLOWED_UPWARD
    ]
    assert not offending, f"{module} (layer {own_layer}) imports upward: {offending}"


def _loaded_after(statement: str) -> list[str]:
    code = (
        f"import sys\n{statement}\n"
        "print('\\n'.join(sorted(m for m in sys.modules if m.startswith(('vecgym', 'gymnasium')))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
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
