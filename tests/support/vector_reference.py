"""The reference a vector env is checked against: single envs stepped one by one.

:class:`NextStepReference` drives independent single envs the way a NEXT_STEP vector env drives
its sub-environments (an env whose episode ended is reset on the next step, which returns the
reset observation, reward 0 and no flags), and counts the episode ends it saw, so tests can
assert that both terminations and truncations were exercised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from vecgym import error

__all__ = ["NextStepReference", "assert_same_array_infos", "reset_ended_envs_both"]


class NextStepReference:
    """Single envs autoreset on the step after their episode ends.

    Args:
        singles: the single envs, already reset with the seeds the vector env was reset with.
    """

    def __init__(self, singles: Sequence[Any]) -> None:
        self.singles = list(singles)
        self.pending = [False] * len(self.singles)
        self.terminated = 0
        self.truncated = 0

    def step(self, actions: Sequence[Any]) -> list[tuple[Any, Any, bool, bool, dict[str, Any]]]:
        """``(obs, reward, terminated, truncated, info)`` of every env for one vector step."""
        results: list[tuple[Any, Any, bool, bool, dict[str, Any]]] = []
        for i, single in enumerate(self.singles):
            if self.pending[i]:
                obs, info = single.reset()
                results.append((obs, 0.0, False, False, info))
                self.pending[i] = False
            else:
                obs, reward, terminated, truncated, info = single.step(actions[i])
                results.append((obs, reward, terminated, truncated, info))
                self.pending[i] = terminated or truncated
                self.terminated += terminated
                self.truncated += truncated
        return results


def assert_same_array_infos(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    """Equal batched infos: same keys, same values and dtypes (``final_obs`` entry by entry)."""
    assert ours.keys() == theirs.keys()
    for key, value in theirs.items():
        if isinstance(value, dict):
            assert_same_array_infos(ours[key], value)
        elif key == "final_obs":
            assert ours[key].dtype == value.dtype == object
            for mine, other in zip(ours[key], value, strict=True):
                if other is None:
                    assert mine is None
                else:
                    np.testing.assert_array_equal(mine, other, strict=True)
        else:
            np.testing.assert_array_equal(ours[key], value, strict=True)


def reset_ended_envs_both(ours: Any, theirs: Any, actions: Any, ended: np.ndarray) -> Any:
    """DISABLED mode: ``ours`` refuses to step ended envs; reset them in both, compare, and
    return the observations after the reset."""
    with pytest.raises(error.ResetNeeded, match="must be reset"):
        ours.step(actions)
    options = {"reset_mask": ended}
    obs_ours, info_ours = ours.reset(options=options)
    obs_theirs, info_theirs = theirs.reset(options=options)
    np.testing.assert_array_equal(obs_ours, obs_theirs, strict=True)
    assert info_ours == info_theirs == {}
    return obs_theirs
