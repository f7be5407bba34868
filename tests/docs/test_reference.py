"""The documentation site's generated pages: the API reference covers every public name.

The pages are generated with the same package walk the docs build uses
(``docs/_ext/vecgym_apiref.py``), without running Sphinx; ``.ci/run`` builds the whole site.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT / "docs" / "_ext"
T = TypeVar("T")


def load_extension(name: str) -> ModuleType:
    """Import a module of ``docs/_ext`` by path (it is not a package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, EXT / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


apiref = load_extension("vecgym_apiref")
DIRECTIVE = re.compile(r"^\.\. (?:auto(?!module)\w+|py:data):: (\S+)$", re.MULTILINE)


#: Whether this process runs without jax (tests/conftest.py): the walk imports Gymnasium's jax env
#: modules (vecgym.envs.phys2d, ...), so the tests run again in a fresh pytest that keeps jax
#: (test_the_reference_with_jax).
JAX_BLOCKED = "jax" in sys.modules and sys.modules["jax"] is None


def _needs_every_extra(build: Callable[[], T]) -> T:
    """``build()``; the test is skipped where an optional dependency is missing (the walk imports
    every module, the integrations' too: the docs extra installs them), or where this process
    blocks jax (then it runs in test_the_reference_with_jax)."""
    from vecgym.error import DependencyNotInstalled

    try:
        return build()
    except DependencyNotInstalled as exc:
        if JAX_BLOCKED and "`jax` extra" in str(exc):
            pytest.skip("runs in a fresh pytest that keeps jax (test_the_reference_with_jax)")
        pytest.skip(f"the API reference needs the docs extra: {exc}")


@pytest.mark.slow
def test_the_reference_with_jax() -> None:
    """This file's tests in a fresh pytest that keeps jax (they fork nothing), where the walk
    imports every module, Gymnasium's jax env modules included; none may be skipped."""
    if not JAX_BLOCKED:
        pytest.skip("this process has jax: the tests of this file ran here")
    for name in ("jax", "flax"):
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pytest.skip(f"{name} is not installed (the test extra installs it)")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", __file__]
    env = {**os.environ, "VECGYM_TESTS_KEEP_JAX": "1"}
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=600, env=env, cwd=ROOT, check=False
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    summary = result.stdout.strip().splitlines()[-1]
    # the one skip: this test itself, there
    assert " 1 skipped" in summary, result.stdout[-6000:]


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return _needs_every_extra(apiref.build_pages)


def test_the_walk_finds_every_public_module_file() -> None:
    """Every ``.py`` file of the package outside ``_private`` paths is a walked module."""
    package = ROOT / "vecgym"
    on_disk = set()
    for path in package.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not any(part.startswith("_") for part in parts):
            on_disk.add(".".join(parts))
    assert set(apiref.public_modules()) == on_disk


def test_every_public_name_appears_on_its_module_page(pages: dict[str, str]) -> None:
    for module_name in apiref.public_modules():
        page = pages[f"{module_name}.rst"]
        for name in apiref.public_names(module_name):
            documented = f":: {module_name}.{name}\n" in page
            listed = f"- ``{name}``: " in page
            assert documented or listed, f"{module_name}.{name} is missing from its page"


def test_each_object_is_documented_exactly_once(pages: dict[str, str]) -> None:
    targets = [t for text in pages.values() for t in DIRECTIVE.findall(text)]
    assert len(targets) == len(set(targets))
    reference = _needs_every_extra(apiref.walk)
    canonical = {e.canonical for e in apiref.all_entries(reference) if e.kind != "module"}
    gymnasium_s = {name for name in canonical if name.startswith("gymnasium.")}
    assert canonical - gymnasium_s == set(targets)
    # Gymnasium's own classes re-exported at its paths (vecgym.envs.mujoco, ...) are listed only.
    assert "gymnasium.envs.mujoco.mujoco_env.MujocoEnv" in gymnasium_s
    assert (
        "- ``MujocoEnv``: Gymnasium's ``gymnasium.envs.mujoco.mujoco_env.MujocoEnv``"
        in (_needs_every_extra(apiref.build_pages)["vecgym.envs.mujoco.rst"])
    )


def test_re_exports_link_to_the_documented_name(pages: dict[str, str]) -> None:
    targets = {t for text in pages.values() for t in DIRECTIVE.findall(text)}
    modules = set(apiref.public_modules())
    links = [
        link
        for text in pages.values()
        for link in re.findall(r"^- ``\w+``: :py:\w+:`([^`]+)`$", text, re.MULTILINE)
    ]
    assert links
    assert all(link in targets or link in modules for link in links)


def test_canonical_paths_are_the_gymnasium_style_ones() -> None:
    reference = _needs_every_extra(apiref.walk)
    homes = {e.dotted: e.canonical for e in apiref.all_entries(reference)}
    assert homes["vecgym.core.spaces.box.Box"] == "vecgym.spaces.Box"
    assert homes["vecgym.core.env.Env"] == "vecgym.Env"
    assert homes["vecgym.wrappers.common.TimeLimit"] == "vecgym.wrappers.TimeLimit"
    assert homes["vecgym.envs.registration.make"] == "vecgym.make"


def test_every_module_page_is_in_the_reference_index(pages: dict[str, str]) -> None:
    index = pages["index.rst"]
    for module_name in apiref.public_modules():
        assert f"\n   {module_name}\n" in index


def test_wrappers_are_grouped_as_gymnasium_groups_them(pages: dict[str, str]) -> None:
    page = pages["vecgym.wrappers.rst"]
    for group in ["Common wrappers", "Observation wrappers", "Action wrappers", "Reward wrappers"]:
        assert f"\n{group}\n" in page
    observation = page.index("\nObservation wrappers\n")
    action = page.index("\nAction wrappers\n")
    assert observation < page.index(":: vecgym.wrappers.FlattenObservation\n") < action


def test_gymnasium_links_use_names_in_the_offline_inventory(pages: dict[str, str]) -> None:
    inventory = apiref.gymnasium_names()
    pattern = re.compile(r":external\+gymnasium:py:\w+:`([^`]+)`")
    links = [name for text in pages.values() for name in pattern.findall(text)]
    assert "gymnasium.spaces.Box" in links
    assert "gymnasium.vector.AsyncVectorEnv" in links
    assert all(name in inventory for name in links)


def test_the_offline_inventory_is_up_to_date() -> None:
    """``docs/_intersphinx/gymnasium.inv`` is what its generator writes for this Gymnasium."""
    pytest.importorskip("gymnasium")
    generator = load_extension("make_gymnasium_inv")
    expected = {name: role for name, role, _ in generator.entries()}
    assert apiref.gymnasium_names() == expected


def test_the_cli_page_shows_every_subcommand(pages: dict[str, str]) -> None:
    page = pages["vecgym.cli.rst"]
    for command in ["bench", "autotune", "list", "check"]:
        assert f"``vecgym {command} --help``::" in page
