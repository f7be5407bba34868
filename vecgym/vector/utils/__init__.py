"""Utilities for vector environments: batching spaces and values, shared memory, process helpers.

Gymnasium's ``gymnasium.vector.utils`` names, plus vecgym's in-place writers
(:func:`make_batch_writer`, :func:`make_shared_memory_writer`).
"""

from __future__ import annotations

from vecgym.vector.utils.misc import CloudpickleWrapper, clear_mpi_env_vars
from vecgym.vector.utils.shared_memory import (
    create_shared_memory,
    make_shared_memory_writer,
    read_from_shared_memory,
    write_to_shared_memory,
)
from vecgym.vector.utils.space_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    is_array_batchable,
    iterate,
    make_batch_writer,
)

__all__ = [
    "CloudpickleWrapper",
    "batch_differing_spaces",
    "batch_space",
    "clear_mpi_env_vars",
    "concatenate",
    "create_empty_array",
    "create_shared_memory",
    "is_array_batchable",
    "iterate",
    "make_batch_writer",
    "make_shared_memory_writer",
    "read_from_shared_memory",
    "write_to_shared_memory",
]
