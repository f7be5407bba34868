"""RayVectorEnv's error messages and time limits (the façade re-exports the public ones).

The messages every vector env raises alike (a closed env, a pending call, a batch of the wrong
length) are defined once in :mod:`vecgym.vector._arguments` and re-exported here.
"""

from __future__ import annotations

from vecgym.vector._arguments import ACTIONS_LENGTH_MSG as ACTIONS_LENGTH_MSG
from vecgym.vector._arguments import CLOSE_PENDING_MSG as CLOSE_PENDING_MSG
from vecgym.vector._arguments import CLOSED_MSG as CLOSED_MSG
from vecgym.vector._arguments import NO_ASYNC_MSG as NO_ASYNC_MSG
from vecgym.vector._arguments import NOTHING_IN_FLIGHT_MSG as NOTHING_IN_FLIGHT_MSG
from vecgym.vector._arguments import PENDING_MSG as PENDING_MSG
from vecgym.vector._arguments import POOL_BUSY_MSG as POOL_BUSY_MSG
from vecgym.vector._arguments import SET_ATTR_LENGTH_MSG as SET_ATTR_LENGTH_MSG

RAY_MISSING_MSG = (
    "RayVectorEnv needs Ray: install it with `pip install vecgym[ray]` (ray>=2.9); import failed "
    "with: {}"
)
NO_NODES_MSG = "the Ray cluster has no live node with CPUs to place hosts on"
DIFFERENT_SPACE_MSG = (
    "observation_mode='different' requires every sub-environment's observation space to have the "
    "shape and dtype of {single}, but sub-environment {env} has {theirs}"
)
SPACES_DIFFER_MSG = (
    "every host's envs must have the same {what} space: host {host} has {theirs}, host 0 has {ours}"
)
START_TIMEOUT_MSG = (
    "RayVectorEnv hosts {hosts} did not start within {timeout} s: the cluster may lack the CPUs "
    "they reserve ({cpus} each), or the nodes are overloaded"
)
TIMEOUT_MSG = (
    "`{method}` timed out after {timeout} s: hosts {hosts} (envs {envs}) did not reply; their "
    "late results will be discarded"
)
HOST_DIED_MSG = (
    "RayVectorEnv host {host} (node {node}, envs {envs}) died: {how}. Its envs are lost; close "
    "the vector env, or use on_worker_failure='restart'"
)
RESTART_FAILED_MSG = (
    "RayVectorEnv host {host} (node {node}, envs {envs}) could not be restarted within {timeout} "
    "s: {how}"
)
NO_CPUS_FOR_RESTART = (
    "Ray could not place the restarted actor: it reserves {cpus} CPU(s) and the cluster has {free} "
    "free (a lost node takes its CPUs with it; reserve fewer, cpus_per_host, to leave room)"
)
RESTARTED_DURING_MSG = (
    "RayVectorEnv host {host} (envs {envs}) died during `{method}` and was restarted; the call's "
    "results for its envs are lost: {how}"
)
BROKEN_MSG = "RayVectorEnv is unusable after a host died; close it. The first failure was: {}"
REMOTE_NOTE = "raised in RayVectorEnv host {host} (node {node}), sub-environment {env}"
WORKER_ERROR_MSG = (
    "{type_name}: {message} (raised in RayVectorEnv host {host}, sub-environment {env})"
)
NUM_STEPS_MSG = "num_steps must be an int >= 1, got {!r}"
CLOSE_TIMEOUT_S = 10.0
INLINE_POLICY_BYTES = 64 * 1024  # below Ray's inlining limit for task arguments (100 KiB)
RESTART_TIMEOUT_S = 60.0
START_TIMEOUT_S = 120.0
