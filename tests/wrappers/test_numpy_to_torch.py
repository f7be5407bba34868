"""NumpyToTorch and the numpy <-> torch conversion functions."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import vecgym
from vecgym import error
from vecgym.wrappers.numpy_to_torch import NumpyToTorch, numpy_to_torch, torch_to_numpy


def test_missing_torch_raises_dependency_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(error.DependencyNotInstalled, match=r'pip install "vecgym\[torch\]"'):
        NumpyToTorch(vecgym.make("CartPole-v1"))
    with pytest.raises(error.DependencyNotInstalled, match="numpy_to_torch"):
        numpy_to_torch(np.zeros(2))


def test_wrapper_on_cartpole_matches_plain_env() -> None:
    torch = pytest.importorskip("torch")
    env = NumpyToTorch(vecgym.make("CartPole-v1"), device="cpu")
    plain = vecgym.make("CartPole-v1")
    obs, _ = env.reset(seed=3)
    assert isinstance(obs, torch.Tensor)
    np.testing.assert_array_equal(obs.numpy(), plain.reset(seed=3)[0])
    for action in [0, 1, 1]:
        obs, reward, terminated, truncated, _ = env.step(torch.tensor(action))
        expected = plain.step(action)
        np.testing.assert_array_equal(obs.numpy(), expected[0])
        assert (reward, terminated, truncated) == expected[1:4]
    assert env.device == "cpu"


def test_spec_round_trip() -> None:
    pytest.importorskip("torch")
    env = NumpyToTorch(vecgym.make("CartPole-v1"))
    assert env.spec is not None
    assert env.spec.additional_wrappers[-1].kwargs == {"device": None}
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, NumpyToTorch)


def test_conversion_functions() -> None:
    torch = pytest.importorskip("torch")
    tensor = numpy_to_torch({"a": np.arange(3)})["a"]
    assert isinstance(tensor, torch.Tensor)
    assert torch_to_numpy(tensor).tolist() == [0, 1, 2]
