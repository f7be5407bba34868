"""DictInfoToList on infos whose arrays do not have one entry per env, beside Gymnasium 1.4."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from vecgym.wrappers.vector.dict_info_to_list import INFO_LENGTH_MSG

gymnasium = pytest.importorskip("gymnasium")

NUM_ENVS = 3


def _with_infos(lib: Any, infos: dict[str, Any]) -> Any:
    """A 3-env CartPole of ``lib`` whose steps return ``infos``, under ``lib``'s DictInfoToList."""

    class FixedInfos(lib.vector.VectorWrapper):  # type: ignore[misc]
        def step(self, actions: Any) -> Any:
            observations, rewards, terminations, truncations, _ = self.env.step(actions)
            return observations, rewards, terminations, truncations, infos

    envs = lib.make_vec("CartPole-v1", num_envs=NUM_ENVS, vectorization_mode="sync")
    return lib.wrappers.vector.DictInfoToList(FixedInfos(envs))


def _step(envs: Any) -> Any:
    envs.reset(seed=0)
    try:
        return envs.step(np.zeros(NUM_ENVS, dtype=np.int64))[-1]
    finally:
        envs.close()


SHORT_OR_LONG = [
    pytest.param({"a": np.array([1, 2])}, id="shorter"),
    pytest.param({"a": np.array([1, 2, 3, 4])}, id="longer"),
    pytest.param({"a": np.array([1, 2, 3]), "_a": np.array([True, False])}, id="short-mask"),
    pytest.param({"d": {"b": np.array([1.0])}}, id="nested-shorter"),
]


@pytest.mark.parametrize("infos", SHORT_OR_LONG)
def test_wrong_lengths_are_rejected_as_by_gymnasium(infos: dict[str, Any]) -> None:
    # Gymnasium 1.4 asserts on them (an AssertionError); vecgym raises a ValueError on purpose
    with pytest.raises(AssertionError):
        _step(_with_infos(gymnasium, infos))
    message = INFO_LENGTH_MSG.split("{")[0]
    with pytest.raises(ValueError, match=message):
        _step(_with_infos(vecgym, infos))


@pytest.mark.parametrize(
    "infos",
    [
        {"a": np.array([1, 2, 3]), "_a": np.array([True, False, True])},
        {"a": np.array([1.0, 2.0, 3.0])},
        {"d": {"b": np.array([1, 2, 3]), "_b": np.array([False, True, True])}},
    ],
)
def test_full_length_infos_convert_as_in_gymnasium(infos: dict[str, Any]) -> None:
    assert _step(_with_infos(vecgym, infos)) == _step(_with_infos(gymnasium, infos))
