"""The ``vecgym.wrappers`` package: Gymnasium's names, lazy loading and old names."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import vecgym.wrappers
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.env import Wrapper
from vecgym.wrappers._deprecated import RENAMED_MSG

LAZY = ["ArrayConversion", "JaxToNumpy", "JaxToTorch", "NumpyToTorch"]


def test_all_matches_gymnasium() -> None:
    gymnasium_wrappers = pytest.importorskip("gymnasium.wrappers")
    assert sorted(vecgym.wrappers.__all__) == sorted(gymnasium_wrappers.__all__)
    assert len(set(vecgym.wrappers.__all__)) == len(vecgym.wrappers.__all__)


@pytest.mark.parametrize("name", [n for n in vecgym.wrappers.__all__ if n != "vector"])
def test_every_name_is_a_vecgym_wrapper(name: str) -> None:
    wrapper = getattr(vecgym.wrappers, name)
    assert inspect.isclass(wrapper)
    assert issubclass(wrapper, Wrapper)
    assert wrapper.__module__.startswith("vecgym.wrappers.")
    assert wrapper.__name__ == name
    assert name in dir(vecgym.wrappers)


def test_import_loads_no_conversion_module() -> None:
    code = (
        "import sys, vecgym.wrappers\n"
        "lazy = ['array_conversion', 'jax_to_numpy', 'jax_to_torch', 'numpy_to_torch', 'vector']\n"
        "print([m for m in lazy if f'vecgym.wrappers.{m}' in sys.modules])\n"
        "print('jax' in sys.modules, 'torch' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split("\n")[:2] == ["[]", "False False"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("AutoResetWrapper", "Autoreset"),
        ("FrameStack", "FrameStackObservation"),
        ("PixelObservationWrapper", "AddRenderObservation"),
        ("VectorListInfo", "vector.DictInfoToList"),
    ],
)
def test_old_names_name_their_replacement(old: str, new: str) -> None:
    with pytest.raises(error.RenamedWrapper, match=message_pattern(RENAMED_MSG, old=old, new=new)):
        getattr(vecgym.wrappers, old)


def test_old_names_behave_like_gymnasium_for_hasattr_and_imports() -> None:
    assert not hasattr(vecgym.wrappers, "FrameStack")
    assert getattr(vecgym.wrappers, "FrameStack", None) is None
    with pytest.raises(ImportError, match="FrameStack"):
        from vecgym.wrappers import FrameStack  # noqa: F401


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchWrapper'"):
        vecgym.wrappers.NoSuchWrapper  # noqa: B018
    assert not hasattr(vecgym.wrappers, "NoSuchWrapper")
