"""Validation of :class:`~vecgym.vector.RayVectorEnv`'s constructor arguments.

The checks shared with AsyncVectorEnv (an int that is not a bool, in a range; a positive number
of seconds) and their messages come from :mod:`vecgym.vector._async.options`; every check runs
before Ray is imported, in the order the arguments are documented.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vecgym.vector._arguments import int_in, is_positive_number
from vecgym.vector._async.options import BATCH_SIZE_MSG as BATCH_SIZE_MSG
from vecgym.vector._async.options import ENV_FNS_MSG as ENV_FNS_MSG
from vecgym.vector._async.options import ON_FAILURE_MSG as ON_FAILURE_MSG
from vecgym.vector._async.options import check_observation_mode

__all__ = ["RayOptions", "validate"]

NUM_HOSTS_MSG = "num_hosts must be None or an int in [1, num_envs={}], got {!r}"
CPUS_MSG = "cpus_per_host must be None or a positive number, got {!r}"
WORKERS_MSG = "workers_per_host must be None or an int >= 1, got {!r}"
TIMEOUT_ARG_MSG = "{} must be None or a positive number of seconds, got {!r}"


@dataclass(frozen=True)
class RayOptions:
    """The validated, normalised constructor arguments that need normalising."""

    num_envs: int
    step_timeout: float | None
    start_timeout: float | None
    batch_size: int


def validate(
    env_fns: Any,
    *,
    num_hosts: Any,
    cpus_per_host: Any,
    workers_per_host: Any,
    on_worker_failure: Any,
    step_timeout: Any,
    start_timeout: Any,
    batch_size: Any,
    observation_mode: Any = "same",
) -> RayOptions:
    """Check every argument (raising Gymnasium's error type for the same input) and normalise."""
    if (
        not isinstance(env_fns, Sequence)
        or len(env_fns) == 0
        or not all(callable(fn) for fn in env_fns)
    ):
        raise TypeError(ENV_FNS_MSG.format(env_fns))
    num_envs = len(env_fns)
    if num_hosts is not None and not int_in(num_hosts, 1, num_envs):
        raise ValueError(NUM_HOSTS_MSG.format(num_envs, num_hosts))
    if cpus_per_host is not None and not is_positive_number(cpus_per_host):
        raise ValueError(CPUS_MSG.format(cpus_per_host))
    if workers_per_host is not None and not int_in(workers_per_host, 1):
        raise ValueError(WORKERS_MSG.format(workers_per_host))
    if on_worker_failure not in ("raise", "restart"):
        raise ValueError(ON_FAILURE_MSG.format(on_worker_failure))
    step_timeout = _seconds("step_timeout", step_timeout)
    start_timeout = _seconds("start_timeout", start_timeout)
    if batch_size is None:
        batch_size = num_envs
    if not int_in(batch_size, 1, num_envs):
        raise ValueError(BATCH_SIZE_MSG.format(num_envs, batch_size))
    check_observation_mode(observation_mode)
    return RayOptions(num_envs, step_timeout, start_timeout, int(batch_size))


def _seconds(name: str, value: Any) -> float | None:
    if value is None:
        return None
    if not is_positive_number(value):
        raise ValueError(TIMEOUT_ARG_MSG.format(name, value))
    return float(value)
