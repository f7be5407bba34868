"""How a RayVectorEnv's batches of actions travel between the driver and its hosts, any space.

Action spaces whose values batch into fixed arrays (Box, Discrete, MultiDiscrete, MultiBinary and
Dict / Tuple of them, :func:`~vecgym.vector.utils.is_array_batchable`) travel as the batch tree
itself, rows selected with :func:`~vecgym.vector._async.batch.select_rows`. Every other space
(Text, Graph, Sequence, OneOf, a custom space, or a Dict / Tuple holding one) travels as a list
with one action per env, split from the user's batch with :func:`~vecgym.vector.utils.iterate`
and batched again with :func:`~vecgym.vector.utils.concatenate` where a vector env needs a batch,
as AsyncVectorEnv pickles such actions one per env.
"""

from __future__ import annotations

import copy as copy_module
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.core.spaces.dict import Dict
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.tuple import Tuple
from vecgym.vector._async.batch import ACTION_COUNT_MSG
from vecgym.vector._ray.batches import concat_trees
from vecgym.vector._ray.observations import SpaceWire
from vecgym.vector.utils import batch_space, create_empty_array, is_array_batchable
from vecgym.vector.utils import iterate as iterate_batch

__all__ = ["ActionWire"]


def _blank(space: Space[Any]) -> Any:
    """The action a rollout reports for an env it did not step: zeros for the parts that batch
    into arrays, ``None`` for the others (a Text action: ``None``)."""
    if is_array_batchable(space):
        empty = create_empty_array(space, n=1, fn=np.zeros)
        return copy_module.deepcopy(next(iter(iterate_batch(batch_space(space, 1), empty))))
    if isinstance(space, Dict):
        return {key: _blank(sub) for key, sub in space.spaces.items()}
    if isinstance(space, Tuple):
        return tuple(_blank(sub) for sub in space.spaces)
    return None


class ActionWire(SpaceWire):
    """The wire form of batches of actions of ``space`` (the single-env action space).

    Attributes:
        arrays: whether ``space`` batches into arrays (the wire form is the batch tree) or not (a
            list of per-env actions).
    """

    def __init__(self, space: Space[Any]) -> None:
        super().__init__(space)
        self._blank: Any = None if self.arrays else _blank(space)

    def of(self, actions: Any, count: int) -> Any:
        """The wire form of a batch of ``count`` actions.

        Raises:
            ValueError: the batch does not hold ``count`` actions (spaces that do not batch into
                arrays; array batches are checked by their receiver).
        """
        if self.arrays:
            return actions
        items = self.split(actions, count)
        if len(items) != count:
            raise ValueError(ACTION_COUNT_MSG.format(expected=count, got=len(items)))
        return items

    def concat(self, parts: list[Any]) -> Any:
        """Wire forms joined, in order (the actions queued for a busy host)."""
        if self.arrays:
            return concat_trees(parts)
        return [item for part in parts for item in part]

    def batch(self, wire: Any) -> Any:
        """The batch a vector env's ``step`` takes, from a wire form."""
        return wire if self.arrays else self.batch_of(wire)

    def items(self, wire: Any, count: int) -> Iterator[Any]:
        """The ``count`` actions of a wire form, one per env."""
        return iter(self.split(wire, count) if self.arrays else wire)

    def batch_with_gaps(self, values: list[Any], stepped: npt.NDArray[np.bool_]) -> Any:
        """A batch of per-env actions where the envs not ``stepped`` hold the blank action
        (zeros in the parts that batch into arrays, ``None`` in the others)."""
        blank = self._blank
        filled = [
            v if ok else copy_module.deepcopy(blank) for v, ok in zip(values, stepped, strict=True)
        ]
        return self.batch(filled)
