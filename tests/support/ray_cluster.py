"""The 2-node loopback Ray cluster the RayVectorEnv tests run on (every node on 127.0.0.1)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest


def loopback_cluster() -> Iterator[Any]:
    """Start a 2-node cluster (1 CPU each, no dashboard), connect the driver, yield the cluster;
    shut both down afterwards. Skips when Ray is not installed."""
    try:
        import ray
        from ray.cluster_utils import Cluster
    except ImportError:  # pragma: no cover - the ray extra is not installed
        pytest.skip("Ray is not installed: pip install vecgym[ray]")
    # set by tests/conftest.py before anything imports ray: every node on 127.0.0.1
    assert os.environ.get("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER") == "0"
    local = Cluster(
        initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
    )
    try:
        local.add_node(num_cpus=1)
        local.wait_for_nodes()
        ray.init(address=local.address, log_to_driver=False)
        yield local
    finally:
        ray.shutdown()
        local.shutdown()


@contextlib.contextmanager
def extra_node(cluster: Any) -> Iterator[Any]:
    """A third 1-CPU node added to ``cluster`` for one test (a node to lose); removed at the end
    unless the test removed it itself."""
    node = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    try:
        yield node
    finally:
        if node in cluster.worker_nodes:
            cluster.remove_node(node)


@contextlib.contextmanager
def ray_env_pair(env_fns: list[Any], **kwargs: Any) -> Iterator[tuple[Any, Any]]:
    """Two ``RayVectorEnv`` over the same ``env_fns`` at once (the one under test and a reference),
    each host reserving half of its node's CPU so that both fit; both closed at the end."""
    from vecgym.vector import RayVectorEnv

    ours = RayVectorEnv(env_fns, cpus_per_host=0.5, **kwargs)
    try:
        reference = RayVectorEnv(env_fns, cpus_per_host=0.5, **kwargs)
    except BaseException:
        ours.close()
        raise
    try:
        yield ours, reference
    finally:
        ours.close()
        reference.close()
