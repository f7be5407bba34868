"""array_conversion and the ArrayConversion wrapper (numpy always; torch when installed)."""

from __future__ import annotations

import collections
import pickle
import sys
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.generic_env import GenericTestEnv
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.wrappers.array_conversion import (
    NO_CONVERSION_MSG,
    NOT_ARRAY_MODULE_MSG,
    ArrayConversion,
    array_conversion,
    import_optional,
    module_namespace,
)

Point = collections.namedtuple("Point", ["x", "y"])


def test_numbers_and_numpy_scalars_become_arrays() -> None:
    for value in (3, 2.5, True, np.float32(1.5), np.bool_(False), np.int64(7)):
        out = array_conversion(value, np)
        assert isinstance(out, np.ndarray)
        assert out.shape == ()
        assert out == value


def test_containers_keep_their_types() -> None:
    value = {"a": (1, [np.zeros(2)]), "b": Point(x=np.ones(1), y=None), "c": "text", "d": b"raw"}
    out = array_conversion(value, np)
    assert type(out) is dict
    assert type(out["a"]) is tuple
    assert type(out["a"][1]) is list
    assert type(out["b"]) is Point
    assert out["b"].y is None
    assert out["c"] == "text"  # Gymnasium 1.4 recurses into strings without end
    assert out["d"] == b"raw"
    ordered = array_conversion(collections.OrderedDict(k=1), np)
    assert type(ordered) is collections.OrderedDict


def test_unknown_values_raise_type_error() -> None:
    with pytest.raises(TypeError, match=message_pattern(NO_CONVERSION_MSG)):
        array_conversion(object(), np)


def test_module_namespace_checks_modules() -> None:
    assert module_namespace(np) is np
    with pytest.raises(ValueError, match=message_pattern(NOT_ARRAY_MODULE_MSG)):
        module_namespace(collections)
    with pytest.raises(ValueError, match=message_pattern(NOT_ARRAY_MODULE_MSG)):
        module_namespace("numpy")  # type: ignore[arg-type]


def test_import_optional_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(error.DependencyNotInstalled, match=r'pip install "vecgym\[torch\]"'):
        import_optional("torch", extra="torch", user="NumpyToTorch")


def numpy_env() -> GenericTestEnv:
    def step(self: GenericTestEnv, action: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        assert isinstance(action, np.ndarray)
        return action * 2, np.float32(1.5), np.bool_(False), np.bool_(True), {"x": np.ones(2)}

    def render(self: GenericTestEnv) -> Any:
        return np.zeros((2, 2, 3), dtype=np.uint8)

    return GenericTestEnv(step_func=step, render_func=render)


def test_wrapper_numpy_to_numpy() -> None:
    env = ArrayConversion(numpy_env(), env_xp=np, target_xp=np)
    obs, info = env.reset(seed=0, options={"o": 1})
    assert isinstance(obs, np.ndarray)
    assert isinstance(info["options"]["o"], np.ndarray)  # options went to env_xp and back
    obs, reward, terminated, truncated, info = env.step(np.array([0.5]))
    np.testing.assert_array_equal(obs, [1.0])
    assert (reward, terminated, truncated) == (1.5, False, True)
    assert (type(reward), type(terminated), type(truncated)) == (float, bool, bool)
    assert np.shape(env.render()) == (2, 2, 3)  # type: ignore[arg-type]


def test_wrapper_pickles_modules_by_name() -> None:
    env = ArrayConversion(vecgym.make("CartPole-v1"), env_xp=np, target_xp=np)
    env.reset(seed=2)
    clone = pickle.loads(pickle.dumps(env))
    assert clone._env_xp is np
    assert clone._target_xp is np
    assert clone._saved_kwargs["env_xp"] is np
    np.testing.assert_array_equal(clone.step(1)[0], env.step(1)[0])


def test_wrapper_spec_records_modules() -> None:
    env = ArrayConversion(vecgym.make("CartPole-v1"), env_xp=np, target_xp=np)
    assert env.spec is not None
    kwargs = env.spec.additional_wrappers[-1].kwargs
    assert kwargs == {"env_xp": np, "target_xp": np, "env_device": None, "target_device": None}
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, ArrayConversion)
    np.testing.assert_array_equal(env.reset(seed=1)[0], rebuilt.reset(seed=1)[0])


# --- with torch -----------------------------------------------------------------------------------
def test_numpy_torch_round_trip() -> None:
    torch = pytest.importorskip("torch")
    source = {"a": np.arange(3, dtype=np.float32), "b": (np.int64(4), 2.0)}
    tensors = array_conversion(source, torch)
    assert isinstance(tensors["a"], torch.Tensor)
    assert tensors["a"].dtype == torch.float32
    assert isinstance(tensors["b"][0], torch.Tensor)
    back = array_conversion(tensors, np)
    np.testing.assert_array_equal(back["a"], source["a"])
    assert back["b"][0] == 4


@pytest.mark.parametrize("value", [1.0, -2.5, 1j, 3, True, np.float64(1.0), np.int32(2)])
def test_a_number_to_torch_takes_gymnasium_s_dtype(value: Any) -> None:
    """A Python number becomes a tensor of torch's default dtype for it (``1.0`` a float32), a
    numpy scalar keeps its dtype: Gymnasium's dtypes, value for value."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("array_api_compat")  # Gymnasium's conversion needs it
    from gymnasium.wrappers.array_conversion import array_conversion as gymnasium_conversion

    ours, theirs = array_conversion(value, torch), gymnasium_conversion(value, torch)
    assert ours.dtype == theirs.dtype
    assert ours.tolist() == theirs.tolist()
    assert array_conversion({"info": value}, torch)["info"].dtype == theirs.dtype


def test_torch_conversion_of_read_only_and_reversed_arrays() -> None:
    torch = pytest.importorskip("torch")
    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    out = array_conversion(frozen, torch)  # no "not writable" warning (warnings are errors)
    assert out.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert array_conversion(np.arange(3)[::-1], torch).tolist() == [2, 1, 0]


def test_torch_to_numpy_detaches() -> None:
    torch = pytest.importorskip("torch")
    tensor = torch.ones(2, requires_grad=True) * 3
    out = array_conversion(tensor, np)
    assert isinstance(out, np.ndarray)
    assert out.tolist() == [3.0, 3.0]


def test_wrapper_numpy_env_torch_target() -> None:
    torch = pytest.importorskip("torch")
    env = ArrayConversion(numpy_env(), env_xp=np, target_xp=torch, target_device="cpu")
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, torch.Tensor)
    obs, reward, _, _, info = env.step(torch.tensor([0.25]))
    assert isinstance(obs, torch.Tensor)
    assert obs.tolist() == [0.5]
    assert isinstance(info["x"], torch.Tensor)
    assert type(reward) is float
    assert isinstance(env.render(), torch.Tensor)


def test_wrapper_with_torch_pickles() -> None:
    torch = pytest.importorskip("torch")
    env = ArrayConversion(vecgym.make("CartPole-v1"), env_xp=np, target_xp=torch)
    clone = pickle.loads(pickle.dumps(env))
    assert clone._target_xp is torch
    assert isinstance(clone.reset(seed=0)[0], torch.Tensor)
