"""Freezing, saving and loading the running statistics of the normalising vector wrappers.

:class:`NormalizeObservation` and :class:`NormalizeReward` share this API (as Stable-Baselines3's
``VecNormalize`` lets one keep the statistics of training for evaluation):

- ``update_running_mean`` (a property, as in Gymnasium): ``False`` freezes the statistics, which
  are then used but no longer updated;
- ``state_dict()`` returns the statistics as a dict of numpy arrays (copies) with the keys
  ``"mean"``, ``"var"`` and ``"count"``; ``load_state_dict(state)`` replaces them (validated);
- ``save(path)`` writes that dict to a numpy ``.npz`` file, ``load(path)`` reads one back into
  the wrapper. ``".npz"`` is appended to a path that lacks it, on both sides.

Only the statistics are saved, not the per-env episode state (e.g. running discounted returns).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from vecgym.wrappers.utils import RunningMeanStd

__all__ = ["STATE_KEYS", "RunningStatisticsMixin"]

#: The keys of a statistics state dict.
STATE_KEYS = ("mean", "var", "count")

STATE_KEYS_MSG = "statistics must have the keys {expected}, got {got}"
STATE_SHAPE_MSG = "statistics {key!r} must have shape {expected}, got {got}"
STATE_COUNT_MSG = "statistics 'count' must be a positive finite number, got {got!r}"
STATE_VAR_MSG = "statistics 'var' must be non-negative and finite"
UPDATE_FLAG_MSG = "update_running_mean must be a bool, got {!r}"


def _npz_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a string ending in ``".npz"``."""
    text = os.fspath(path)
    return text if text.endswith(".npz") else f"{text}.npz"


class RunningStatisticsMixin:
    """Freeze / state-dict / save / load for a wrapper whose statistics are :meth:`_statistics`."""

    _update_running_mean: bool

    def _statistics(self) -> RunningMeanStd:
        """The :class:`RunningMeanStd` saved and loaded."""
        raise NotImplementedError

    @property
    def update_running_mean(self) -> bool:
        """Whether the statistics are updated (``True``, the default) or frozen (``False``)."""
        return self._update_running_mean

    @update_running_mean.setter
    def update_running_mean(self, setting: bool) -> None:
        if not isinstance(setting, (bool, np.bool_)):
            raise TypeError(UPDATE_FLAG_MSG.format(setting))
        self._update_running_mean = bool(setting)

    def state_dict(self) -> dict[str, np.ndarray]:
        """The statistics: copies of ``"mean"`` and ``"var"``, and ``"count"`` as a 0-d array."""
        rms = self._statistics()
        return {
            "mean": np.array(rms.mean, copy=True),
            "var": np.array(rms.var, copy=True),
            "count": np.array(rms.count, dtype=np.float64),
        }

    def load_state_dict(self, state: Mapping[str, Any]) -> None:
        """Replace the statistics with ``state`` (as :meth:`state_dict` returns).

        Raises:
            ValueError: missing or extra keys, a mean / variance of the wrong shape, a negative
                or non-finite variance, or a count that is not a positive finite number.
        """
        if set(state) != set(STATE_KEYS):
            raise ValueError(STATE_KEYS_MSG.format(expected=list(STATE_KEYS), got=sorted(state)))
        rms = self._statistics()
        expected_shape = np.shape(rms.mean)
        mean = np.asarray(state["mean"])
        var = np.asarray(state["var"])
        for key, value in (("mean", mean), ("var", var)):
            if value.shape != expected_shape:
                raise ValueError(
                    STATE_SHAPE_MSG.format(key=key, expected=expected_shape, got=value.shape)
                )
        if not np.all(np.isfinite(var)) or np.any(var < 0):
            raise ValueError(STATE_VAR_MSG)
        count = np.asarray(state["count"])
        if count.shape != () or not np.isfinite(count) or not count > 0:
            raise ValueError(STATE_COUNT_MSG.format(got=state["count"]))
        dtype = np.asarray(rms.mean).dtype
        rms.mean = mean.astype(dtype, copy=True)
        rms.var = var.astype(dtype, copy=True)
        rms.count = float(count)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the statistics to the ``.npz`` file ``path`` (``".npz"`` appended if missing)."""
        state: dict[str, Any] = self.state_dict()
        np.savez(_npz_path(path), **state)

    def load(self, path: str | os.PathLike[str]) -> None:
        """Load statistics saved by :meth:`save` from ``path`` (``".npz"`` appended if missing).

        Raises:
            FileNotFoundError: there is no such file.
            ValueError: the file's statistics do not fit this wrapper (see :meth:`load_state_dict`).
        """
        with np.load(_npz_path(path), allow_pickle=False) as data:
            state = {key: data[key] for key in data.files}
        self.load_state_dict(state)
