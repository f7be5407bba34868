"""The shape of the vector package: small files and functions, a thin AsyncVectorEnv façade, and
machinery (``vecgym/vector/_async``) that never imports the façade."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import vecgym.vector
from vecgym.vector._async import protocol
from vecgym.vector._async.scheduler import EnvSlot

VECTOR = Path(vecgym.vector.__file__).parent
ASYNC = VECTOR / "_async"
MAX_FILE_LINES = 800
MAX_BODY_LINES = 60
MAX_FACADE_METHODS = 25
FACADE = "vecgym.vector.async_vector_env"
#: Modules of the machinery that must stay below the façade (checked by their imports).
MACHINERY = sorted(ASYNC.glob("*.py"))
#: What the machinery must never import: the façade, its sync sibling, and the package itself
#: (whose ``__init__`` imports the façade).
FORBIDDEN = {FACADE, "vecgym.vector.sync_vector_env", "vecgym.vector"}
RAY_FACADE = "vecgym.vector.ray_vector_env"
#: RayVectorEnv's machinery (``vecgym/vector/_ray``): its host actor runs a local AsyncVectorEnv or
#: SyncVectorEnv, so only the Ray façade and the package itself are out of bounds there.
RAY_MACHINERY = sorted((VECTOR / "_ray").glob("*.py"))
RAY_FORBIDDEN = {RAY_FACADE, "vecgym.vector"}


def _sources() -> list[Path]:
    return sorted(VECTOR.rglob("*.py"))


def _body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the first statement after the docstring to the end of the function."""
    body = node.body
    first = body[0]
    is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    if is_doc and isinstance(first.value.value, str) and len(body) > 1:
        first = body[1]
    assert node.end_lineno is not None
    return node.end_lineno - first.lineno + 1


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at module level or inside functions."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(VECTOR)))
def test_no_file_exceeds_the_line_limit(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= MAX_FILE_LINES


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(VECTOR)))
def test_no_function_exceeds_the_body_limit(path: Path) -> None:
    tree = ast.parse(path.read_text())
    long = {
        node.name: _body_lines(node)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and _body_lines(node) > MAX_BODY_LINES
    }
    assert long == {}


def test_the_facade_class_stays_small() -> None:
    tree = ast.parse((VECTOR / "async_vector_env.py").read_text())
    (facade,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "AsyncVectorEnv"]
    methods = [n for n in facade.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert len(methods) < MAX_FACADE_METHODS


@pytest.mark.parametrize("path", MACHINERY, ids=lambda p: p.name)
def test_the_machinery_never_imports_the_facade(path: Path) -> None:
    assert _imported_modules(path) & FORBIDDEN == set()


@pytest.mark.parametrize("path", RAY_MACHINERY, ids=lambda p: p.name)
def test_the_ray_machinery_never_imports_the_ray_facade(path: Path) -> None:
    assert _imported_modules(path) & RAY_FORBIDDEN == set()


def test_the_ray_backend_is_split_and_checked() -> None:
    """The size checks above walk every file under ``vecgym/vector``, the Ray backend included."""
    checked = {path.relative_to(VECTOR).as_posix() for path in _sources()}
    assert {"ray_vector_env.py", "_ray/base.py", "_ray/host.py"} <= checked


def test_the_checks_see_imports_inside_functions(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text(f"def late():\n    from {FACADE} import AsyncVectorEnv\n")
    assert FACADE in _imported_modules(source)


def test_done_words_are_read_through_the_protocol() -> None:
    word = protocol.pack_done(41, has_reply=True)
    assert protocol.is_done(word, 41)
    assert not protocol.is_done(word, 40)
    assert protocol.unpack_done(word) == (41, True)
    assert [slot.name for slot in EnvSlot] == ["IDLE", "RUNNING", "READY"]


def test_constants_that_moved_stay_importable_from_the_facade() -> None:
    from vecgym.vector import async_vector_env
    from vecgym.vector._async import pool, supervisor

    assert async_vector_env.TIMEOUT_MSG is pool.TIMEOUT_MSG
    assert async_vector_env.LATE_WAIT_S == supervisor.LATE_WAIT_S
    with pytest.raises(AttributeError):
        async_vector_env.NOT_A_NAME  # noqa: B018
