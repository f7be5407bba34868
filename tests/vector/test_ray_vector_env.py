"""RayVectorEnv on a local 2-node Ray cluster, every node on 127.0.0.1.

One module-scoped cluster (``ray.cluster_utils.Cluster``, 1 CPU per node, no dashboard; Ray's
processes take ~540 MiB) serves every test; ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` is set before
it starts so that GCS, raylets and actors advertise 127.0.0.1 and no traffic leaves loopback.
Results are compared with SyncVectorEnv over the same env functions; failures (env exception,
host ``os._exit``, node removal, timeout, restart) with AsyncVectorEnv's error types. Every wait
has a timeout; the autouse check in ``tests/conftest.py`` also fails a test that leaves a Ray
actor process behind.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.counting_env import CountingEnv
from tests.support.crashing_envs import STEP_FAILURE_MSG, DyingEnv, InfoDyingEnv, RaisingEnv
from tests.support.messages import message_pattern
from tests.support.processes import python_stdout
from tests.support.ray_cluster import extra_node, loopback_cluster, ray_env_pair
from tests.support.slow_env import SlowEnv
from tests.vector.helpers import assert_same_batch
from vecgym import error
from vecgym.spaces import Box, Dict
from vecgym.vector import RayVectorEnv, SyncVectorEnv
from vecgym.vector.async_vector_env import RemoteTraceback, restart_seed
from vecgym.vector.autoreset import AutoresetEnv
from vecgym.vector.ray_vector_env import CLOSE_PENDING_MSG, RAY_MISSING_MSG, Rollout
from vecgym.vector.vector_env import AutoresetMode

try:
    import ray
except ImportError:  # pragma: no cover - the ray extra is not installed
    ray = None

pytestmark = [pytest.mark.ray, pytest.mark.slow, pytest.mark.timeout(240)]

WAIT_S = 60.0  # every wait in these tests is bounded


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A 2-node loopback Ray cluster, connected for the whole module."""
    yield from loopback_cluster()


def counting(terminate_at: int, truncate_at: int | None = None) -> Any:
    return lambda: CountingEnv(terminate_at=terminate_at, truncate_at=truncate_at, info_every=2)


def counting_dict(terminate_at: int) -> Any:
    space = Dict({"count": Box(0, 1000, (1,), np.float32), "twice": Box(0, 2000, (2,), np.float32)})

    def make() -> Any:
        env = CountingEnv(terminate_at=terminate_at, info_every=3)
        return vecgym.wrappers.TransformObservation(
            env, lambda o: {"count": o.copy(), "twice": np.repeat(o * 2, 2)}, space
        )

    return make


def policy(obs: Any) -> Any:
    """Deterministic in the observation: action = count mod 3."""
    count = obs["count"] if isinstance(obs, dict) else obs
    return (count[:, 0].astype(np.int64) + 1) % 3


def policy_with_extras(obs: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    actions = policy(obs)
    return actions, {"value": obs[:, 0] * 0.5, "logp": np.full(len(obs), -1.0)}


def make_pair(fns: list[Any], **kwargs: Any) -> tuple[RayVectorEnv, SyncVectorEnv]:
    mode = kwargs.get("autoreset_mode", AutoresetMode.NEXT_STEP)
    return RayVectorEnv(fns, start_timeout=WAIT_S, **kwargs), SyncVectorEnv(
        fns, autoreset_mode=mode
    )


def assert_same_step(ours: tuple[Any, ...], theirs: tuple[Any, ...]) -> None:
    for name, a, b in zip(("obs", "rew", "term", "trunc", "infos"), ours, theirs, strict=True):
        assert_same_batch(a, b, name)


# --- placement and equality -----------------------------------------------------------------------
def test_one_host_per_node_reserving_its_cpus(cluster: Any) -> None:
    envs = RayVectorEnv([counting(5)] * 5, start_timeout=WAIT_S)
    try:
        nodes = sorted(n["NodeID"][:12] for n in ray.nodes() if n["Alive"])
        assert sorted(host.node for host in envs.hosts) == nodes
        assert [(h.start, h.stop) for h in envs.hosts] == [(0, 3), (3, 5)]
        assert envs.cpus_per_host == [1.0, 1.0]
        assert ray.available_resources().get("CPU", 0.0) == 0.0  # both CPUs reserved
        addresses = {n["NodeManagerAddress"] for n in ray.nodes() if n["Alive"]}
        assert addresses == {"127.0.0.1"}
    finally:
        envs.close()


def test_ids_the_driver_registered_at_run_time_reach_the_hosts(cluster: Any) -> None:
    """A Ray actor starts from a fresh interpreter: the driver's registries travel with the hosts
    (and from them to their local workers), so ``make`` of an id registered in the driver's
    ``main()`` or notebook works there."""
    vecgym.register("RayCarried-v0", entry_point=counting(3), max_episode_steps=2)
    try:
        fns = [lambda: vecgym.make("RayCarried-v0", disable_env_checker=True)] * 3
        ours = RayVectorEnv(fns, start_timeout=WAIT_S, workers_per_host=2)
        theirs = SyncVectorEnv(fns)
        try:
            assert_same_batch(ours.reset(seed=0), theirs.reset(seed=0))
            for _ in range(3):
                actions = np.zeros(3, dtype=np.int64)
                assert_same_step(ours.step(actions), theirs.step(actions))
        finally:
            ours.close()
            theirs.close()
    finally:
        vecgym.envs.registration.registry.pop("RayCarried-v0", None)


def test_an_async_vector_env_in_a_ray_driver_does_not_fork(cluster: Any) -> None:
    """A process connected to Ray runs gRPC threads that ``threading`` does not list: forking it
    could copy a lock one of them holds, so the default start method must not be ``fork``."""
    from vecgym.vector import AsyncVectorEnv

    envs = AsyncVectorEnv([counting(5)] * 2, num_workers=2)
    reference = SyncVectorEnv([counting(5)] * 2)
    try:
        assert envs.context != "fork"
        assert_same_batch(envs.reset(seed=3), reference.reset(seed=3))
    finally:
        envs.close()
        reference.close()


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@pytest.mark.parametrize("obs", ["box", "dict"])
def test_matches_sync_in_every_autoreset_mode(cluster: Any, mode: AutoresetMode, obs: str) -> None:
    maker = counting if obs == "box" else counting_dict
    fns = [maker(3 + i % 3) for i in range(5)]
    ours, theirs = make_pair(fns, autoreset_mode=mode)
    try:
        assert ours.single_observation_space == theirs.single_observation_space
        assert ours.observation_space == theirs.observation_space
        assert ours.action_space == theirs.action_space
        assert_same_batch(ours.reset(seed=7), theirs.reset(seed=7))
        rng = np.random.default_rng(0)
        ended = np.zeros(5, dtype=np.bool_)
        for t in range(14):
            if mode is AutoresetMode.DISABLED and ended.any():
                options = {"reset_mask": ended.copy()}
                assert_same_batch(ours.reset(options=options), theirs.reset(options=options))
            if t == 9:
                mask = np.array([True, False, False, True, False])
                assert_same_batch(
                    ours.reset(seed=[1, None, None, 4, None], options={"reset_mask": mask}),
                    theirs.reset(seed=[1, None, None, 4, None], options={"reset_mask": mask}),
                )
            actions = rng.integers(0, 3, 5)
            a, b = ours.step(actions), theirs.step(actions)
            assert_same_step(a, b)
            ended = a[2] | a[3]
    finally:
        ours.close()
        theirs.close()


def test_local_async_hosts_match_sync(cluster: Any) -> None:
    """Two worker processes per host (forkserver inside the actor) give the same results."""
    fns = [counting(3 + i % 3) for i in range(6)]
    ours, theirs = make_pair(fns, workers_per_host=2)
    try:
        assert_same_batch(ours.reset(seed=3), theirs.reset(seed=3))
        for _t in range(8):
            actions = np.arange(6) % 3
            assert_same_step(ours.step(actions), theirs.step(actions))
        ours.send(np.array([1, 2]), [1, 4])
        _obs, rewards, *_, ids = ours.recv(timeout=WAIT_S)
        assert ids.tolist() == [1, 4]
        assert rewards.tolist() == [1.0, 2.0]
    finally:
        ours.close()
        theirs.close()


def test_send_recv_match_per_env_stepping(cluster: Any) -> None:
    fns = [counting(4 + i % 2) for i in range(5)]
    ours, theirs = make_pair(fns, batch_size=5)
    reference = [AutoresetEnv(fn(), AutoresetMode.NEXT_STEP, index=i) for i, fn in enumerate(fns)]
    try:
        ours.reset(seed=0)
        theirs.reset(seed=0)
        for i, auto in enumerate(reference):
            auto.reset(seed=i)
        ours.send(np.array([1, 2, 0, 1, 2]))
        result = ours.recv(timeout=WAIT_S)
        assert result[-1].tolist() == [0, 1, 2, 3, 4]
        assert_same_step(result[:5], theirs.step(np.array([1, 2, 0, 1, 2])))
        for auto, action in zip(reference, [1, 2, 0, 1, 2], strict=True):
            auto.step(action)
        ours.batch_size = 2
        rng = np.random.default_rng(1)
        for _ in range(6):
            ids = np.sort(rng.choice(5, size=2, replace=False))
            actions = rng.integers(0, 3, 2)
            ours.send(actions, ids)
            obs, rewards, terminated, truncated, infos, got = ours.recv(timeout=WAIT_S)
            assert got.tolist() == ids.tolist()
            for j, i in enumerate(ids.tolist()):
                o, r, te, tr, info = reference[i].step(actions[j])
                assert obs[j] == o
                assert rewards[j] == r
                assert (terminated[j], truncated[j]) == (te, tr)
                assert ("count" in info) == bool(infos.get("_count", np.zeros(2, bool))[j])
    finally:
        ours.close()
        theirs.close()


def test_recv_returns_first_ready_host(cluster: Any) -> None:
    fns = [lambda: SlowEnv(step_delay=0.0)] * 2 + [lambda: SlowEnv(step_delay=1.0)] * 2
    envs = RayVectorEnv(fns, batch_size=2, start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        envs.send(np.zeros(4, dtype=np.int64))
        assert envs.recv(timeout=WAIT_S)[-1].tolist() == [0, 1]
        assert envs.recv(timeout=WAIT_S)[-1].tolist() == [2, 3]
    finally:
        envs.close()


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_rollout_matches_sync(cluster: Any, mode: AutoresetMode) -> None:
    fns = [counting(3 + i % 4, truncate_at=5) for i in range(5)]
    ours, theirs = make_pair(fns, autoreset_mode=mode)
    try:
        ours.reset(seed=1)
        obs, _ = theirs.reset(seed=1)
        ours.step(np.zeros(5, dtype=np.int64))  # episodes continue across step and rollout
        obs = theirs.step(np.zeros(5, dtype=np.int64))[0]
        batch = ours.rollout(policy_with_extras, 9)
        assert batch.rewards.shape == (9, 5)
        assert batch.observations.shape == (9, 5, 1)
        assert batch.extras["value"].shape == (9, 5)
        for t in range(9):
            np.testing.assert_array_equal(batch.observations[t], obs)
            actions, extras = policy_with_extras(obs)
            np.testing.assert_array_equal(batch.actions[t], actions)
            np.testing.assert_array_equal(batch.extras["value"][t], extras["value"])
            obs, rewards, terminated, truncated, infos = theirs.step(actions)
            np.testing.assert_array_equal(batch.rewards[t], rewards)
            np.testing.assert_array_equal(batch.terminations[t], terminated)
            np.testing.assert_array_equal(batch.truncations[t], truncated)
            assert_same_batch(batch.infos[t], infos, f"infos[{t}]")
        np.testing.assert_array_equal(batch.next_observations, obs)
        assert not batch.restarted.any()
        actions = policy(obs)
        assert_same_step(ours.step(actions), theirs.step(actions))
    finally:
        ours.close()
        theirs.close()


def test_pipelined_rollouts_continue_each_other(cluster: Any) -> None:
    fns = [counting(3 + i % 4, truncate_at=5) for i in range(4)]
    with ray_env_pair(fns, start_timeout=WAIT_S) as (ours, reference):
        ours.reset(seed=2)
        reference.reset(seed=2)
        ours.rollout_async(policy, 3)
        ours.rollout_async(policy, 3)
        with pytest.raises(error.AlreadyPendingCallError):
            ours.step(np.zeros(4, dtype=np.int64))
        first, second = ours.rollout_wait(WAIT_S), ours.rollout_wait(WAIT_S)
        whole = reference.rollout(policy, 6)
        for name in ("observations", "actions", "rewards", "terminations", "truncations"):
            joined = np.concatenate([getattr(first, name), getattr(second, name)])
            np.testing.assert_array_equal(joined, getattr(whole, name), err_msg=name)
        np.testing.assert_array_equal(second.next_observations, whole.next_observations)
        with pytest.raises(error.NoAsyncCallError):
            ours.rollout_wait(WAIT_S)


def test_call_attributes_render_and_make_vec(cluster: Any) -> None:
    envs = vecgym.make_vec(
        "CartPole-v1",
        num_envs=3,
        vectorization_mode="ray",
        vector_kwargs={"start_timeout": WAIT_S},
        render_mode="rgb_array",
    )
    try:
        assert isinstance(envs, RayVectorEnv)
        assert envs.spec is not None
        assert envs.spec.kwargs["vectorization_mode"] == "ray"
        envs.reset(seed=5)
        assert envs.np_random_seed == (5, 6, 7)
        envs.set_attr("custom", [10, 20, 30])
        assert envs.get_attr("custom") == (10, 20, 30)
        envs.set_attr("custom", 1, indices=[2])
        assert envs.get_attr("custom", indices=[2, 0]) == (1, 10)
        frames = envs.render()
        assert len(frames) == 3
        assert frames[0].ndim == 3
        assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
        assert envs.render_mode == "rgb_array"
    finally:
        envs.close()


# --- failures -------------------------------------------------------------------------------------
def test_hosts_with_different_spaces_are_refused(cluster: Any) -> None:
    with pytest.raises(RuntimeError, match="same observation space"):
        RayVectorEnv([counting(5), lambda: RaisingEnv()], start_timeout=WAIT_S)


def test_env_exception_keeps_its_type_and_names_host_and_env(cluster: Any) -> None:
    fns = [lambda: RaisingEnv()] * 3 + [lambda: RaisingEnv(fail_at=2)] + [lambda: RaisingEnv()]
    envs = RayVectorEnv(fns, start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        envs.step(np.zeros(5, dtype=np.int64))
        with pytest.raises(ValueError, match=STEP_FAILURE_MSG.format(2)) as info:
            envs.step(np.zeros(5, dtype=np.int64))
        assert "host 1" in str(info.value)
        assert "sub-environment 3" in str(info.value)
        assert isinstance(info.value.__cause__, RemoteTraceback)
        assert "RaisingEnv" in info.value.__cause__.text or "step" in info.value.__cause__.text
        obs, _ = envs.reset(seed=0)  # recovers
        assert obs.ravel().tolist() == [0, 0, 0, 0, 0]
    finally:
        envs.close()


def test_a_gymnasium_error_is_also_vecgym_s_class_of_its_name(cluster: Any) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from tests.support.gymnasium_envs import GymRaisingEnv

    envs = RayVectorEnv([GymRaisingEnv, GymRaisingEnv], start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        with pytest.raises(error.InvalidAction) as info:
            envs.step(np.array([0, 1]))
        assert isinstance(info.value, gymnasium.error.InvalidAction)
        assert "sub-environment 1" in str(info.value)
    finally:
        envs.close()


def test_host_exit_raises_worker_died(cluster: Any) -> None:
    fns = [lambda: DyingEnv()] * 2 + [lambda: DyingEnv(die_at=2, how="exit")]
    envs = RayVectorEnv(fns, start_timeout=WAIT_S)  # 1 CPU per host: envs run in the actor
    try:
        envs.reset(seed=0)
        envs.step(np.zeros(3, dtype=np.int64))
        envs.step_async(np.zeros(3, dtype=np.int64))
        with pytest.raises(error.WorkerDied, match="host 1") as info:
            envs.step_wait(timeout=WAIT_S)
        assert info.value.env_indices == (2,)
        assert envs.hosts[1].node in str(info.value)
        with pytest.raises(error.WorkerDied):
            envs.step(np.zeros(3, dtype=np.int64))
    finally:
        envs.close()


def test_node_removal_raises_worker_died(cluster: Any) -> None:
    with extra_node(cluster) as node:
        envs = None
        try:
            envs = RayVectorEnv([counting(50)] * 3, start_timeout=WAIT_S)
            assert len(envs.hosts) == 3
            lost = next(k for k, h in enumerate(envs.hosts) if node.node_id.startswith(h.node))
            envs.reset(seed=0)
            cluster.remove_node(node)
            envs.step_async(np.zeros(3, dtype=np.int64))
            with pytest.raises(error.WorkerDied, match=f"host {lost}") as info:
                envs.step_wait(timeout=WAIT_S)
            assert info.value.env_indices == (lost,)
            assert envs.hosts[lost].node in str(info.value)
        finally:
            if envs is not None:
                envs.close()


def test_timeout_discards_late_results(cluster: Any) -> None:
    fns = [lambda: SlowEnv(step_delay=0.0), lambda: SlowEnv(step_delay=1.0)]
    envs = RayVectorEnv(fns, start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        envs.step_async(np.zeros(2, dtype=np.int64))
        with pytest.raises(error.WaitTimeout, match="host"):
            envs.step_wait(timeout=0.2)
        envs.step_async(np.zeros(2, dtype=np.int64))
        obs = envs.step_wait(timeout=WAIT_S)[0]
        assert obs.ravel().tolist() == [2.0, 2.0]  # the second step's results, not the first's
        with pytest.raises(error.NoAsyncCallError):
            envs.step_wait(timeout=WAIT_S)
    finally:
        envs.close()


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_restart_resets_the_lost_host_only(cluster: Any, mode: AutoresetMode) -> None:
    fns = [lambda: DyingEnv()] * 2 + [lambda: DyingEnv(die_at=3, how="exit"), lambda: DyingEnv()]
    envs = RayVectorEnv(fns, on_worker_failure="restart", autoreset_mode=mode, start_timeout=WAIT_S)
    envs.restart_entropy = 0
    try:
        envs.reset(seed=10)
        for _ in range(2):
            envs.step(np.ones(4, dtype=np.int64))
        obs, rewards, terminated, truncated, infos = envs.step(np.ones(4, dtype=np.int64))
        assert envs.restart_count == 1
        assert obs[:2].ravel().tolist() == [3.0, 3.0]  # host 0 untouched
        assert obs[2:].ravel().tolist() == [0.0, 0.0]  # host 1: fresh envs, reset
        assert rewards.tolist() == [1.0, 1.0, 0.0, 0.0]
        assert truncated.tolist() == [False, False, True, True]
        assert not terminated.any()
        assert infos["worker_restarted"].tolist() == [False, False, True, True]
        seeds = envs.get_attr("np_random_seed", indices=[2, 3])
        assert seeds == tuple(restart_seed(10 + i, i, 1, 0) for i in (2, 3))
    finally:
        envs.close()


def test_the_autoreset_step_after_a_restart_batches_every_envs_info(cluster: Any) -> None:
    """The step after a restart resets the restarted host's envs (their autoreset step) while
    the other host steps: each env's info is in the batch, as the fold would batch it."""
    fns = [lambda: InfoDyingEnv()] * 2 + [
        lambda: InfoDyingEnv(die_at=3, how="exit"),
        lambda: InfoDyingEnv(),
    ]
    envs = RayVectorEnv(fns, on_worker_failure="restart", start_timeout=WAIT_S)
    envs.restart_entropy = 0
    try:
        envs.reset(seed=10)
        for _ in range(3):
            envs.step(np.ones(4, dtype=np.int64))
        assert envs.restart_count == 1
        obs, rewards, _, _, infos = envs.step(np.ones(4, dtype=np.int64))
        assert obs.ravel().tolist() == [4.0, 4.0, 0.0, 0.0]
        assert rewards.tolist() == [1.0, 1.0, 0.0, 0.0]
        assert infos["count"].tolist()[:2] == [4, 4]
        assert infos["_count"].tolist() == [True, True, False, False]
        assert infos["fresh"].tolist()[2:] == [1, 1]
        assert infos["_fresh"].tolist() == [False, False, True, True]
    finally:
        envs.close()


def test_restart_replaces_a_host_past_the_step_timeout(cluster: Any) -> None:
    fns = [lambda: SlowEnv(), lambda: SlowEnv(step_delay=120.0, slow_after=1)]
    envs = RayVectorEnv(fns, on_worker_failure="restart", step_timeout=2.0, start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        envs.step(np.zeros(2, dtype=np.int64))
        obs, _, _, truncated, infos = envs.step(np.zeros(2, dtype=np.int64))  # host 1 hangs
        assert envs.restart_count == 1
        assert obs.ravel().tolist() == [2.0, 0.0]
        assert truncated.tolist() == [False, True]
        assert infos["worker_restarted"].tolist() == [False, True]
    finally:
        envs.close()


def test_restart_during_reset_uses_the_requested_seeds(cluster: Any) -> None:
    fns = [lambda: DyingEnv(), lambda: DyingEnv(die_on_reset=False)]
    envs = RayVectorEnv(fns, on_worker_failure="restart", start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        envs.set_attr("die_on_reset", True, indices=[1])
        _, infos = envs.reset(seed=5)
        assert infos["worker_restarted"].tolist() == [False, True]
        assert envs.get_attr("np_random_seed") == (5, 6)
        assert envs.restart_count == 1
    finally:
        envs.close()


def test_restart_in_recv_refreshes_observations(cluster: Any) -> None:
    fns = [lambda: DyingEnv(), lambda: DyingEnv(die_at=2, how="exit")]
    envs = RayVectorEnv(fns, on_worker_failure="restart", start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        envs.send(np.ones(2, dtype=np.int64))
        envs.recv(timeout=WAIT_S)
        envs.send(np.ones(2, dtype=np.int64))
        obs, _rewards, _, truncated, infos, ids = envs.recv(timeout=WAIT_S)
        assert ids.tolist() == [0, 1]
        assert obs.ravel().tolist() == [2.0, 0.0]
        assert truncated.tolist() == [False, True]
        assert infos["worker_restarted"].tolist() == [False, True]
        assert envs.observations.ravel().tolist() == [2.0, 0.0]
    finally:
        envs.close()


def test_rollout_restart_fills_the_lost_rows(cluster: Any) -> None:
    fns = [lambda: DyingEnv(), lambda: DyingEnv(die_at=4, how="exit")]
    envs = RayVectorEnv(fns, on_worker_failure="restart", start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        batch = envs.rollout(policy, 3)  # the DyingEnv dies at its 4th step: in the next call
        batch = envs.rollout(policy, 3)
        assert batch.restarted.tolist() == [False, True]
        assert batch.observations[:, 0, 0].tolist() == [3.0, 4.0, 5.0]
        # the restarted env ran 3 steps from its reset; it dies again at 4 in a later call
        assert batch.observations[:, 1, 0].tolist() == [0.0, 1.0, 2.0]
        assert batch.infos[0]["worker_restarted"].tolist() == [False, True]
        assert envs.observations.ravel().tolist() == [6.0, 3.0]
    finally:
        envs.close()


def test_close_is_bounded_and_leaves_no_actor(cluster: Any) -> None:
    envs = RayVectorEnv([counting(50)] * 2, start_timeout=WAIT_S)
    actors = [host.actor for host in envs.hosts]
    envs.reset(seed=0)
    envs.step_async(np.zeros(2, dtype=np.int64))  # closing with a call pending
    with pytest.warns(UserWarning, match=message_pattern(CLOSE_PENDING_MSG, "step")):
        envs.close()
    envs.close()
    for actor in actors:
        with pytest.raises(ray.exceptions.RayActorError):
            ray.get(actor.ping.remote(), timeout=WAIT_S)
    assert ray.is_initialized()  # the user's Ray session is left alone
    with pytest.raises(error.ClosedEnvironmentError):
        envs.reset()


def exit_marking(folder: str) -> Any:
    """A CountingEnv whose process writes ``folder/<pid>`` from an exit handler."""

    def make() -> Any:
        import atexit
        import os

        atexit.register(lambda: Path(folder, str(os.getpid())).write_text("exited"))
        return CountingEnv(terminate_at=50)

    return make


def test_close_lets_the_hosts_exit_with_their_exit_handlers(cluster: Any, tmp_path: Path) -> None:
    """The hosts end by exiting, not by ``ray.kill``: their exit handlers run (multiprocessing's
    removes a forkserver's ``pymp-*`` directory; the autouse check fails a test that leaves one)."""
    envs = RayVectorEnv([exit_marking(str(tmp_path))] * 2, start_timeout=WAIT_S)
    hosts = len(envs.hosts)
    envs.reset(seed=0)
    envs.step(np.zeros(2, dtype=np.int64))
    envs.close()
    deadline = time.monotonic() + WAIT_S
    while len(list(tmp_path.iterdir())) < hosts and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hosts == 2
    assert sorted(path.read_text() for path in tmp_path.iterdir()) == ["exited"] * hosts


def test_address_connects_and_close_disconnects_only_what_it_opened(cluster: Any) -> None:
    ray.shutdown()  # the driver disconnects; the cluster keeps running
    try:
        envs = RayVectorEnv([counting(50)] * 2, address=cluster.address, start_timeout=WAIT_S)
        assert ray.is_initialized()
        envs.reset(seed=0)
        envs.close()
        assert not ray.is_initialized()
    finally:
        if not ray.is_initialized():
            ray.init(address=cluster.address, log_to_driver=False)


def test_without_address_starts_a_node_of_its_own(cluster: Any) -> None:
    """No ``address``: a fresh local node, never the 2-node cluster that runs on this machine.

    Run in a fresh interpreter: a driver that has left one Ray session cannot reliably start
    actors in the next, so the module's connection to ``cluster`` is kept out of it.
    """
    code = textwrap.dedent(
        f"""
        import ray
        import vecgym
        from vecgym.vector import RayVectorEnv

        envs = RayVectorEnv([lambda: vecgym.make("CartPole-v1")] * 2, start_timeout={WAIT_S})
        try:
            nodes = [node["Alive"] for node in ray.nodes()]
            own = ray.get_runtime_context().gcs_address != {cluster.address!r}
            envs.reset(seed=0)
        finally:
            envs.close()
        print(nodes, own, ray.is_initialized())
        """
    )
    assert python_stdout(code, timeout=180).splitlines()[-1] == "[True] True False"


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(error.DependencyNotInstalled, match="vecgym\\[ray\\]"):
        RayVectorEnv([counting(5)])
    assert "vecgym[ray]" in RAY_MISSING_MSG


# --- the example ----------------------------------------------------------------------------------
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def ray_a2c() -> Iterator[Any]:
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module("ray_a2c")
    finally:
        sys.path.remove(str(EXAMPLES))


def test_ray_a2c_example_smoke_run(
    cluster: Any, ray_a2c: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--total-steps", "512", "--num-envs", "4", "--target", "0", "--log-every", "256"]
    assert ray_a2c.main(argv) == 0
    out = capsys.readouterr().out
    assert "4 envs on 2 host(s)" in out
    assert "done: 512 env steps" in out


def test_ray_a2c_marks_next_step_reset_rows(ray_a2c: Any) -> None:
    rng = np.random.default_rng(0)
    agent = ray_a2c.ActorCritic(4, 2, rng)
    terminated = np.array([[False, False], [True, False], [False, False]])
    truncated = np.array([[False, False], [False, False], [False, True]])
    batch = Rollout(
        observations=np.zeros((3, 2, 4)),
        actions=np.zeros((3, 2), dtype=np.int64),
        rewards=np.ones((3, 2)),
        terminations=terminated,
        truncations=truncated,
        infos=[{}, {}, {}],
        extras={"logp": np.zeros((3, 2)), "value": np.zeros((3, 2))},
        next_observations=np.zeros((2, 4)),
    )
    rollout = ray_a2c.to_rollout(batch, np.array([False, True]), agent)
    assert rollout.reset_step.tolist() == [[False, True], [False, False], [True, False]]
    assert rollout.last_values.shape == (2,)
