"""The public space paths (``vecgym.spaces`` and its submodules) mirror ``gymnasium.spaces`` and
re-export the very objects defined in ``vecgym.core.spaces``."""

from __future__ import annotations

import importlib
import subprocess
import sys
from typing import TypeVar

import pytest

import vecgym
import vecgym.core.spaces as core_spaces
import vecgym.spaces

SUBMODULES = [
    "space",
    "box",
    "discrete",
    "multi_discrete",
    "multi_binary",
    "text",
    "tuple",
    "dict",
    "sequence",
    "graph",
    "oneof",
    "utils",
]


def test_all_matches_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    assert sorted(vecgym.spaces.__all__) == sorted(gymnasium.spaces.__all__)


@pytest.mark.parametrize("name", vecgym.spaces.__all__)
def test_every_name_is_its_home_object(name: str) -> None:
    value = getattr(vecgym.spaces, name)
    home = importlib.import_module(value.__module__)
    assert home.__name__.startswith("vecgym.core.spaces.")
    assert getattr(home, name) is value
    assert getattr(core_spaces, name) is value


@pytest.mark.parametrize("submodule", SUBMODULES)
def test_submodules_re_export_home_objects(submodule: str) -> None:
    public = importlib.import_module(f"vecgym.spaces.{submodule}")
    home = importlib.import_module(f"vecgym.core.spaces.{submodule}")
    assert public.__all__
    for name in public.__all__:
        if name == "MaskNDArray":  # a type alias, defined once in the `space` module
            assert getattr(public, name) is core_spaces.MaskNDArray
        else:
            assert getattr(public, name) is getattr(home, name), name


@pytest.mark.parametrize("submodule", SUBMODULES)
def test_submodules_have_gymnasium_public_names(submodule: str) -> None:
    pytest.importorskip("gymnasium")
    theirs = importlib.import_module(f"gymnasium.spaces.{submodule}")
    ours = importlib.import_module(f"vecgym.spaces.{submodule}")
    defined_there = {
        name
        for name, value in vars(theirs).items()
        if not name.startswith("_")
        and not isinstance(value, TypeVar)
        and (getattr(value, "__module__", None) == theirs.__name__ or name == "MaskNDArray")
    }
    missing = sorted(name for name in defined_there if not hasattr(ours, name))
    assert missing == []


def test_gymnasium_style_imports() -> None:
    from vecgym.spaces.box import Box
    from vecgym.spaces.graph import Graph, GraphInstance
    from vecgym.spaces.space import MaskNDArray, Space
    from vecgym.spaces.text import alphanumeric
    from vecgym.spaces.utils import (
        flatdim,
        flatten,
        flatten_space,
        is_space_dtype_shape_equiv,
        unflatten,
    )

    assert issubclass(Box, Space)
    assert issubclass(Graph, Space)
    assert GraphInstance._fields == ("nodes", "edges", "edge_links")
    assert MaskNDArray is not None
    assert "a" in alphanumeric
    assert all(
        callable(f)
        for f in (flatdim, flatten, flatten_space, unflatten, is_space_dtype_shape_equiv)
    )
    assert vecgym.spaces.Box is Box
    assert vecgym.Space is Space


def test_spaces_do_not_load_upper_layers() -> None:
    code = (
        "import sys, vecgym.core.spaces, vecgym.spaces; "
        "bad = [m for m in sys.modules if m.split('.')[:2] in "
        "(['vecgym', 'vector'], ['vecgym', 'wrappers'], ['vecgym', 'envs'])]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
