"""The latest observations of a RayVectorEnv's envs, on the driver and in each host, any space.

Spaces whose values batch into fixed arrays (Box, Discrete, MultiDiscrete, MultiBinary and Dict /
Tuple of them, :func:`~vecgym.vector.utils.is_array_batchable`) keep a preallocated batch tree
written row by row. Every other space (Text, Graph, Sequence, OneOf, a custom space, or a Dict /
Tuple holding one) keeps one value per env and batches them with
:func:`~vecgym.vector.utils.concatenate` when asked, exactly as SyncVectorEnv does.

Between a host and the driver rows travel in their *wire* form: the rows' array tree for the
former, a list with one value per env for the latter.
"""

from __future__ import annotations

import copy as copy_module
from typing import Any

import numpy as np

from vecgym.core.spaces.space import Space
from vecgym.vector._async.batch import copy_rows, copy_tree, select_rows
from vecgym.vector.utils import batch_space, concatenate, create_empty_array, is_array_batchable
from vecgym.vector.utils import iterate as iterate_batch

__all__ = ["ObsStore", "SpaceWire", "row_indices"]


def row_indices(rows: Any, n: int) -> list[int]:
    """The row numbers ``rows`` (a slice, one index, an index array or a bool mask) selects."""
    if isinstance(rows, slice):
        return list(range(n))[rows]
    if isinstance(rows, (int, np.integer)):
        return [int(rows)]
    array = np.asarray(rows)
    if array.dtype == np.bool_:
        return np.flatnonzero(array).tolist()
    return [int(i) for i in array.tolist()]


class SpaceWire:
    """The wire form of batches of values of ``space`` (a single-env space), shared by the
    observations (:class:`ObsStore`) and the actions
    (:class:`~vecgym.vector._ray.actions.ActionWire`).

    Attributes:
        arrays: whether ``space`` batches into arrays (the wire form is the batch tree) or not (a
            list with one value per env).
    """

    def __init__(self, space: Space[Any]) -> None:
        self.space = space
        self.arrays = is_array_batchable(space)

    def split(self, batch: Any, count: int) -> list[Any]:
        """The ``count`` values of a batch, one per env."""
        return list(iterate_batch(batch_space(self.space, count), batch))

    def pick(self, wire: Any, rows: Any) -> Any:
        """Rows ``rows`` (a slice, an index array or a bool mask) of a wire form."""
        if self.arrays:
            return select_rows(wire, rows)
        return [wire[i] for i in row_indices(rows, len(wire))]

    def batch_of(self, values: list[Any]) -> Any:
        """A new batch of per-env values."""
        empty = create_empty_array(self.space, n=len(values), fn=np.zeros)
        return concatenate(self.space, values, empty)


class ObsStore(SpaceWire):
    """The latest observation of each of ``n`` envs of ``space`` (their single space).

    Attributes:
        arrays: whether ``space`` batches into arrays (``batch`` holds the rows) or not
            (``values`` holds one value per env).
        batch: the batch buffer (arrays), or the last batch made from ``values``.
        values: one value per env (spaces that do not batch into arrays), else empty.
    """

    def __init__(self, space: Space[Any], n: int) -> None:
        super().__init__(space)
        self.n = n
        self.batch: Any = create_empty_array(space, n=n, fn=np.zeros)
        self.values: list[Any] = [] if self.arrays else [None] * n

    # --- wire forms ------------------------------------------------------------------------------
    def wire_of(self, batch: Any, count: int) -> Any:
        """The wire form of a local vector env's batch of ``count`` observations."""
        return batch if self.arrays else self.split(batch, count)

    def wire(self, rows: Any = None) -> Any:
        """The wire form of rows ``rows`` (all for ``None``; arrays: views for slices)."""
        if self.arrays:
            return self.batch if rows is None else select_rows(self.batch, rows)
        if rows is None:
            return list(self.values)
        return [self.values[i] for i in row_indices(rows, self.n)]

    # --- writing ---------------------------------------------------------------------------------
    def write(self, rows: Any, wire: Any) -> None:
        """Store rows ``rows`` (a slice, an index array or a bool mask) from their wire form."""
        if self.arrays:
            copy_rows(self.batch, rows, wire)
            return
        for i, value in zip(row_indices(rows, self.n), wire, strict=True):
            self.values[i] = value

    def write_one(self, index: int, value: Any) -> None:
        """Store one env's observation (a value of the single space)."""
        if self.arrays:
            copy_rows(self.batch, index, value)
        else:
            self.values[index] = value

    # --- batches for the user --------------------------------------------------------------------
    def out(self, copy: bool, rows: Any = None) -> Any:
        """The batch of every env (``rows=None``: the buffer itself unless ``copy``) or of the
        envs ``rows`` (a new batch)."""
        if self.arrays:
            if rows is None:
                return copy_tree(self.batch) if copy else self.batch
            return select_rows(self.batch, rows)  # an index array: a copy
        if rows is None:
            self.batch = concatenate(self.space, self.values, self.batch)
            batch = self.batch
        else:
            batch = self.batch_of(self.wire(rows))
        return copy_module.deepcopy(batch) if copy else batch
