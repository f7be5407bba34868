"""RayVectorEnv beyond fixed-size arrays and steady clusters, on a local loopback Ray cluster.

* observation spaces that do not batch into arrays (Text, Graph, Sequence, custom spaces, and
  Dict / Tuple holding them) and ``observation_mode="different"``, compared with SyncVectorEnv
  over the same env functions for reset, step, send / recv and rollout;
* action spaces that do not batch into arrays (Text, and a Dict holding one), compared with
  SyncVectorEnv for step, send / recv and rollout in every autoreset mode;
* rollouts in the ``DISABLED`` autoreset mode, compared with one SyncVectorEnv per env that is
  stepped only while its episode runs (a SyncVectorEnv in that mode raises ``ResetNeeded`` when
  stepped after its end, so the reference itself enforces the contract);
* a node lost under ``on_worker_failure="restart"``: the host comes back on a node with a free CPU,
  or, when no node has one, ``WorkerDied`` is raised within ``start_timeout``.

Every node stays on 127.0.0.1 (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` is set by
``tests/conftest.py``); every wait is bounded.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.counting_env import CountingEnv
from tests.support.crashing_envs import DyingEnv
from tests.support.messages import message_pattern
from tests.support.ray_cluster import extra_node, loopback_cluster, ray_env_pair
from tests.vector.helpers import assert_same_batch
from tests.vector.test_async_differential import SPACES, SpaceEnv
from vecgym import error
from vecgym.spaces import Box, Dict, Discrete, Space, Text
from vecgym.vector import RayVectorEnv, SyncVectorEnv
from vecgym.vector._arguments import OBS_MODE_MSG
from vecgym.vector._async.batch import ACTION_COUNT_MSG
from vecgym.vector._boundary import INVALID_ACTION_MSG
from vecgym.vector.ray_vector_env import NO_CPUS_FOR_RESTART
from vecgym.vector.utils import batch_space, concatenate, create_empty_array, iterate
from vecgym.vector.vector_env import AutoresetMode

try:
    import ray
except ImportError:  # pragma: no cover - the ray extra is not installed
    ray = None

pytestmark = [pytest.mark.ray, pytest.mark.slow, pytest.mark.timeout(300)]

WAIT_S = 60.0  # every wait in these tests is bounded
NUM_ENVS = 5


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A 2-node loopback Ray cluster (1 CPU each), connected for the whole module."""
    yield from loopback_cluster()


# --- spaces that do not batch into arrays ---------------------------------------------------------
class Tag(Space[str]):
    """A custom space (not vecgym's own): strings ``"tag-<int>"``."""

    def __init__(self) -> None:
        super().__init__(shape=None, dtype=None)

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        return f"tag-{int(self.np_random.integers(1000))}"

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and x.startswith("tag-")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tag)

    __hash__ = Space.__hash__


RAY_SPACES = {
    "text": SPACES["text"],
    "graph": SPACES["graph"],
    "sequence": SPACES["sequence"],
    "tuple_with_text": SPACES["tuple_with_text"],
    "dict_with_text": Dict({"pos": Box(0, 5, (2,), np.float64), "name": Text(4)}),
    "custom": Tag(),
}


def space_fns(space: Any) -> list[Any]:
    return [(lambda i=i: SpaceEnv(space, Discrete(3), 1 + i % 3)) for i in range(NUM_ENVS)]


def first_actions(obs: Any) -> np.ndarray:
    """A policy for batches of strings (Text, Tag, or a Dict with a Text "name")."""
    column = obs["name"] if isinstance(obs, dict) else obs
    return np.array([len(str(value)) % 3 for value in column], dtype=np.int64)


def rows_of(space: Any, batch: Any, rows: list[int]) -> Any:
    """A new batch of the rows ``rows`` of ``batch`` (a batch of ``space`` values)."""
    items = list(iterate(batch_space(space, NUM_ENVS), batch))
    picked = [items[i] for i in rows]
    return concatenate(space, picked, create_empty_array(space, n=len(rows)))


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("key", list(RAY_SPACES))
def test_unbatchable_spaces_match_sync(cluster: Any, key: str, workers: int) -> None:
    fns = space_fns(RAY_SPACES[key])
    ours = RayVectorEnv(fns, workers_per_host=workers, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns)
    try:
        assert ours.single_observation_space == theirs.single_observation_space
        assert ours.observation_space == theirs.observation_space
        assert_same_batch(ours.reset(seed=4), theirs.reset(seed=4), "reset")
        for t in range(5):
            if t == 3:
                mask = np.array([True, False, True, False, True])
                assert_same_batch(
                    ours.reset(seed=[9] * NUM_ENVS, options={"reset_mask": mask}),
                    theirs.reset(seed=[9] * NUM_ENVS, options={"reset_mask": mask}),
                    f"reset at {t}",
                )
            actions = np.arange(NUM_ENVS) % 3
            assert_same_batch(ours.step(actions), theirs.step(actions), f"step {t}")
        ours.send(np.array([1, 2]), [1, 3])
        obs, rewards, *_, ids = ours.recv(timeout=WAIT_S)
        assert ids.tolist() == [1, 3]
        full = theirs.step(np.array([0, 1, 0, 2, 0]))  # envs 1 and 3 with the same actions
        space = theirs.single_observation_space
        assert_same_batch(obs, rows_of(space, full[0], [1, 3]), "recv observations")
        assert_same_batch(rewards, full[1][[1, 3]], "recv rewards")
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_unbatchable_spaces_in_every_autoreset_mode(cluster: Any, mode: AutoresetMode) -> None:
    fns = space_fns(RAY_SPACES["dict_with_text"])
    ours = RayVectorEnv(fns, autoreset_mode=mode, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns, autoreset_mode=mode)
    try:
        assert_same_batch(ours.reset(seed=2), theirs.reset(seed=2), "reset")
        for t in range(7):
            actions = np.arange(NUM_ENVS) % 3
            result = ours.step(actions)
            assert_same_batch(result, theirs.step(actions), f"step {t}")
            ended = result[2] | result[3]
            if mode is AutoresetMode.DISABLED and ended.any():
                options = {"reset_mask": ended}
                assert_same_batch(ours.reset(options=options), theirs.reset(options=options))
    finally:
        ours.close()
        theirs.close()


def texting(die_at: int | None) -> Any:
    """A DyingEnv whose observation is the text ``"c<count>"``."""

    def make() -> Any:
        env = DyingEnv(die_at=die_at, how="exit")
        return vecgym.wrappers.TransformObservation(env, lambda o: f"c{int(o[0])}", Text(4))

    return make


def test_unbatchable_restart_reports_the_reset_values(cluster: Any) -> None:
    fns = [texting(None), texting(None), texting(2), texting(None)]
    envs = RayVectorEnv(fns, on_worker_failure="restart", start_timeout=WAIT_S)
    try:
        assert envs.reset(seed=0)[0] == ("c0",) * 4
        envs.step(np.ones(4, dtype=np.int64))
        obs, rewards, _, truncated, infos = envs.step(np.ones(4, dtype=np.int64))
        assert obs == ("c2", "c2", "c0", "c0")  # host 1 died at its envs' second step
        assert truncated.tolist() == [False, False, True, True]
        assert infos["worker_restarted"].tolist() == [False, False, True, True]
        assert rewards.tolist() == [1.0, 1.0, 0.0, 0.0]
        envs.send(np.ones(2, dtype=np.int64), [0, 2])  # the autoreset step of env 2
        obs, *_, ids = envs.recv(timeout=WAIT_S)
        assert (obs, ids.tolist()) == (("c3", "c0"), [0, 2])
        assert envs.observations == ("c3", "c2", "c0", "c0")
    finally:
        envs.close()


@pytest.mark.parametrize("key", ["text", "dict_with_text", "custom"])
def test_unbatchable_rollout_is_a_list_of_step_batches(cluster: Any, key: str) -> None:
    fns = space_fns(RAY_SPACES[key])
    ours = RayVectorEnv(fns, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns)
    try:
        ours.reset(seed=1)
        obs, _ = theirs.reset(seed=1)
        batch = ours.rollout(first_actions, 4)
        assert isinstance(batch.observations, list)
        assert len(batch.observations) == 4
        for t in range(4):
            assert_same_batch(batch.observations[t], obs, f"observations[{t}]")
            actions = first_actions(obs)
            np.testing.assert_array_equal(batch.actions[t], actions)
            obs, rewards, terminated, truncated, infos = theirs.step(actions)
            np.testing.assert_array_equal(batch.rewards[t], rewards)
            np.testing.assert_array_equal(batch.terminations[t], terminated)
            np.testing.assert_array_equal(batch.truncations[t], truncated)
            assert_same_batch(batch.infos[t], infos, f"infos[{t}]")
        assert_same_batch(batch.next_observations, obs, "next_observations")
        assert batch.stepped.all()
        actions = first_actions(obs)
        assert_same_batch(ours.step(actions), theirs.step(actions), "step after rollout")
    finally:
        ours.close()
        theirs.close()


def ranged(i: int) -> Any:
    """CountingEnv whose Box bounds differ per env (same shape and dtype)."""

    def make() -> Any:
        env = CountingEnv(terminate_at=3 + i % 2, info_every=2, max_count=100 + i)
        return env

    return make


def test_different_observation_mode_matches_sync(cluster: Any) -> None:
    fns = [ranged(i) for i in range(NUM_ENVS)]
    ours = RayVectorEnv(fns, observation_mode="different", start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns, observation_mode="different")
    try:
        assert ours.observation_space == theirs.observation_space
        assert ours.observation_space.high[:, 0].tolist() == [100 + i for i in range(NUM_ENVS)]
        assert_same_batch(ours.reset(seed=0), theirs.reset(seed=0))
        for _ in range(5):
            actions = np.ones(NUM_ENVS, dtype=np.int64)
            assert_same_batch(ours.step(actions), theirs.step(actions))
    finally:
        ours.close()
        theirs.close()
    with pytest.raises(RuntimeError):
        RayVectorEnv(fns, start_timeout=WAIT_S)  # "same": the envs' spaces differ


def test_observation_mode_spaces_are_used_as_given(cluster: Any) -> None:
    single = Box(0, 200, (1,), np.float32)
    mode = (batch_space(single, NUM_ENVS), single)
    fns = [ranged(i) for i in range(NUM_ENVS)]
    ours = RayVectorEnv(fns, observation_mode=mode, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns, observation_mode=mode)
    try:
        assert ours.single_observation_space == single
        assert ours.observation_space == mode[0]
        assert_same_batch(ours.reset(seed=0), theirs.reset(seed=0))
        for _ in range(4):
            actions = np.full(NUM_ENVS, 2, dtype=np.int64)
            assert_same_batch(ours.step(actions), theirs.step(actions))
    finally:
        ours.close()
        theirs.close()


def test_different_mode_refuses_other_shapes(cluster: Any) -> None:
    """Spaces that cannot be batched raise SyncVectorEnv's (and Gymnasium's) error."""
    fns = [ranged(0), ranged(1), lambda: CountingEnv(obs_type="discrete")]
    with pytest.raises(TypeError) as expected:
        SyncVectorEnv(fns, observation_mode="different")
    with pytest.raises(TypeError) as info:
        RayVectorEnv(fns, observation_mode="different", start_timeout=WAIT_S)
    assert type(info.value) is type(expected.value)


def test_bad_observation_mode_is_refused_before_ray(cluster: Any) -> None:
    with pytest.raises(ValueError, match=message_pattern(OBS_MODE_MSG, "other")):
        RayVectorEnv([ranged(0)], observation_mode="other")


# --- DISABLED-mode rollouts -----------------------------------------------------------------------
def count_policy(obs: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    return (obs[:, 0].astype(np.int64) + 1) % 3, {"value": obs[:, 0] + 0.5}


def assert_row_infos(batch_infos: dict[str, Any], single: dict[str, Any], i: int) -> None:
    """Env ``i``'s row of a rollout's batched infos equals a one-env SyncVectorEnv's infos."""
    for key, value in single.items():
        if key.startswith("_"):
            continue
        assert batch_infos[f"_{key}"][i], key
        assert batch_infos[key][i] == value[0], key
    for key in batch_infos:
        if key.startswith("_") and key[1:] not in single:
            assert not batch_infos[key][i], key


@pytest.mark.parametrize("workers", [1, 2])
def test_disabled_rollout_never_steps_a_finished_env(cluster: Any, workers: int) -> None:
    fns = [
        (lambda i=i: CountingEnv(terminate_at=2 + i % 4, truncate_at=4, info_every=2))
        for i in range(NUM_ENVS)
    ]
    ours = RayVectorEnv(
        fns, autoreset_mode="Disabled", workers_per_host=workers, start_timeout=WAIT_S
    )
    refs = [SyncVectorEnv([fn], autoreset_mode="Disabled") for fn in fns]
    try:
        ours.reset(seed=3)
        obs = [ref.reset(seed=3 + i)[0] for i, ref in enumerate(refs)]
        running = np.ones(NUM_ENVS, dtype=np.bool_)
        for round_ in range(3):
            batch = ours.rollout(count_policy, 3)
            for t in range(3):
                seen = np.concatenate(obs)
                np.testing.assert_array_equal(batch.observations[t], seen)
                np.testing.assert_array_equal(batch.stepped[t], running)
                actions, extras = count_policy(seen)
                np.testing.assert_array_equal(batch.actions[t], np.where(running, actions, 0))
                np.testing.assert_array_equal(
                    batch.extras["value"][t], np.where(running, extras["value"], 0.0)
                )
                for i in range(NUM_ENVS):
                    if not running[i]:
                        assert batch.rewards[t, i] == 0.0
                        assert not batch.terminations[t, i]
                        assert not batch.truncations[t, i]
                        assert_row_infos(batch.infos[t], {}, i)
                        continue
                    o, r, te, tr, info = refs[i].step(actions[i : i + 1])
                    obs[i] = o
                    assert (batch.rewards[t, i], batch.terminations[t, i]) == (r[0], te[0])
                    assert batch.truncations[t, i] == tr[0]
                    assert_row_infos(batch.infos[t], info, i)
                    running[i] = not (te[0] or tr[0])
            np.testing.assert_array_equal(batch.next_observations, np.concatenate(obs))
            if running.all():
                continue
            first = int(np.argmin(running))
            with pytest.raises(error.ResetNeeded, match=str(first)):
                ours.step(np.zeros(NUM_ENVS, dtype=np.int64))
            if round_ == 1:  # reset all but the last finished env: it stays out of the rollout
                mask = ~running
                mask[np.flatnonzero(mask)[-1]] = False
                if not mask.any():
                    continue
            else:
                mask = ~running
            reset_obs, _ = ours.reset(seed=50 + round_, options={"reset_mask": mask})
            for i in np.flatnonzero(mask).tolist():
                obs[i] = refs[i].reset(seed=50 + round_ + i)[0]
                running[i] = True
            np.testing.assert_array_equal(reset_obs, np.concatenate(obs))
    finally:
        ours.close()
        for ref in refs:
            ref.close()


def test_disabled_pipelined_rollouts_continue_each_other(cluster: Any) -> None:
    fns = [(lambda i=i: CountingEnv(terminate_at=2 + i, info_every=2)) for i in range(4)]
    kwargs: dict[str, Any] = {"autoreset_mode": "Disabled", "start_timeout": WAIT_S}
    with ray_env_pair(fns, **kwargs) as (ours, reference):
        ours.reset(seed=0)
        reference.reset(seed=0)
        ours.rollout_async(count_policy, 2)
        ours.rollout_async(count_policy, 2)  # queued: envs ended in the first stay ended
        first, second = ours.rollout_wait(WAIT_S), ours.rollout_wait(WAIT_S)
        whole = reference.rollout(count_policy, 4)
        for name in ("observations", "actions", "rewards", "terminations", "stepped"):
            joined = np.concatenate([getattr(first, name), getattr(second, name)])
            np.testing.assert_array_equal(joined, getattr(whole, name), err_msg=name)
        assert whole.stepped.sum(axis=0).tolist() == [2, 3, 4, 4]
        with pytest.raises(error.ResetNeeded):
            ours.step(np.zeros(4, dtype=np.int64))


def test_disabled_rollout_with_every_env_finished_calls_no_policy(cluster: Any) -> None:
    fns = [lambda: CountingEnv(terminate_at=1)] * 2
    envs = RayVectorEnv(fns, autoreset_mode="Disabled", start_timeout=WAIT_S)
    try:
        envs.reset(seed=0)
        envs.step(np.ones(2, dtype=np.int64))  # both episodes end
        batch = envs.rollout(count_policy, 2)
        assert not batch.stepped.any()
        assert batch.actions.tolist() == [[0, 0], [0, 0]]
        assert batch.extras is None
        assert batch.observations[:, :, 0].tolist() == [[1.0, 1.0], [1.0, 1.0]]
        assert batch.rewards.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    finally:
        envs.close()


# --- a lost node under on_worker_failure="restart" ------------------------------------------------
def closing_calls(envs: RayVectorEnv) -> list[tuple[str, int]]:
    """What ``envs`` does to its hosts from now on, in order: ``("close", k)`` for a ``close``
    call sent to host ``k``, ``("kill", k)`` for a ``ray.kill`` of it (both done by Ray)."""
    calls: list[tuple[str, int]] = []

    class Handle:
        def __init__(self, actor: Any, k: int) -> None:
            self.actor, self.k = actor, k

        def __getattr__(self, name: str) -> Any:
            if name == "close":
                calls.append(("close", self.k))
            return getattr(self.actor, name)

    class Ray:
        def __getattr__(self, name: str) -> Any:
            return getattr(ray, name)

        def kill(self, handle: Any, **kwargs: Any) -> None:
            calls.append(("kill", handle.k))
            ray.kill(handle.actor, **kwargs)

    for k, host in enumerate(envs.hosts):
        host.actor = Handle(host.actor, k)
    envs._ray = Ray()
    return calls


def hosts_on(envs: RayVectorEnv, node_id: str) -> list[int]:
    return [k for k, host in enumerate(envs.hosts) if node_id.startswith(host.node)]


def assert_actors_gone(actors: list[Any]) -> None:
    for actor in actors:
        with pytest.raises(ray.exceptions.RayActorError):
            ray.get(actor.ping.remote(), timeout=WAIT_S)


def ones_policy(obs: np.ndarray) -> np.ndarray:
    return np.ones(len(obs), dtype=np.int64)


def test_restart_after_node_loss_moves_the_host(cluster: Any) -> None:
    with extra_node(cluster) as node:
        envs = None
        try:
            # half a CPU per host leaves room on the surviving nodes for the restarted host
            envs = RayVectorEnv(
                [lambda: CountingEnv(terminate_at=50)] * 6,
                cpus_per_host=0.5,
                on_worker_failure="restart",
                start_timeout=WAIT_S,
                step_timeout=WAIT_S,
            )
            envs.restart_entropy = 0
            assert len(envs.hosts) == 3
            (lost,) = hosts_on(envs, node.node_id)
            envs.reset(seed=0)
            envs.step(np.ones(6, dtype=np.int64))
            cluster.remove_node(node)
            obs, rewards, terminated, truncated, infos = envs.step(np.ones(6, dtype=np.int64))
            rows = list(range(envs.hosts[lost].start, envs.hosts[lost].stop))
            others = [i for i in range(6) if i not in rows]
            assert envs.restart_count == 1
            assert not hosts_on(envs, node.node_id)  # the host now runs on a surviving node
            assert obs[rows].ravel().tolist() == [0.0] * len(rows)
            assert obs[others].ravel().tolist() == [2.0] * len(others)
            assert truncated[rows].all()
            assert not truncated[others].any()
            assert rewards[others].tolist() == [1.0] * len(others)
            assert not terminated.any()
            assert infos["worker_restarted"].tolist() == [i in rows for i in range(6)]
            obs, *_ = envs.step(np.ones(6, dtype=np.int64))  # the restarted envs' autoreset step
            obs, *_ = envs.step(np.ones(6, dtype=np.int64))
            assert obs[rows].ravel().tolist() == [1.0] * len(rows)
            assert obs[others].ravel().tolist() == [4.0] * len(others)
            batch = envs.rollout(ones_policy, 2)  # the moved host runs rollouts too
            assert batch.observations[:, rows, 0].tolist() == [[1.0] * len(rows), [2.0] * len(rows)]
            assert batch.observations[:, others, 0].tolist() == [
                [4.0] * len(others),
                [5.0] * len(others),
            ]
            actors = [host.actor for host in envs.hosts]
        finally:
            if envs is not None:
                envs.close()
    assert_actors_gone(actors)


def test_restart_without_a_free_cpu_raises_worker_died_in_time(cluster: Any) -> None:
    with extra_node(cluster) as node:
        envs = None
        try:
            # one host per node, each reserving its node's CPU: a lost host has nowhere to go
            envs = RayVectorEnv(
                [lambda: CountingEnv(terminate_at=50)] * 3,
                on_worker_failure="restart",
                start_timeout=8.0,
                step_timeout=WAIT_S,
            )
            (lost,) = hosts_on(envs, node.node_id)
            actors = [host.actor for host in envs.hosts]
            envs.reset(seed=0)
            cluster.remove_node(node)
            with pytest.raises(error.WorkerDied, match=f"host {lost}") as info:
                envs.step(np.ones(3, dtype=np.int64))
            assert info.value.env_indices == (lost,)
            assert "within 8.0 s" in str(info.value)
            assert NO_CPUS_FOR_RESTART.split("{", 1)[0] in str(info.value)
            with pytest.raises(error.WorkerDied):  # unusable afterwards, as in "raise" mode
                envs.step(np.ones(3, dtype=np.int64))
            # Ray still restarts the lost host when a CPU frees up: close kills it before the
            # other hosts free theirs, so that no process is started for it as they close, and
            # sends it no close to wait for.
            calls = closing_calls(envs)
            envs.close()
            assert calls[0] == ("kill", lost)
            assert ("close", lost) not in calls
            assert {k for what, k in calls if what == "close"} == set(range(3)) - {lost}
        finally:
            if envs is not None:
                envs.close()
    assert_actors_gone(actors)
    deadline = time.monotonic() + WAIT_S  # Ray frees the CPUs of killed actors shortly after
    while ray.available_resources().get("CPU", 0.0) < 2.0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ray.available_resources().get("CPU", 0.0) == 2.0  # nothing left holding a CPU


def test_make_vec_passes_observation_mode(cluster: Any) -> None:
    envs = vecgym.make_vec(
        "CartPole-v1",
        num_envs=2,
        vectorization_mode="ray",
        vector_kwargs={"start_timeout": WAIT_S, "observation_mode": "different"},
    )
    try:
        assert envs.observation_space.shape == (2, 4)
    finally:
        envs.close()


# --- action spaces that do not batch into arrays --------------------------------------------------
SAY = Text(4)
ACTION_KEYS = {"text": SAY, "dict_with_text": Dict({"move": Discrete(3), "say": SAY})}


class SayEnv(vecgym.Env[Any, Any]):
    """An env whose step depends on its Text action (or on a Dict with a Text ``"say"``)."""

    def __init__(self, action_space: Any, terminate_at: int) -> None:
        self.action_space = action_space
        self.observation_space = Box(0.0, 1e6, (2,), np.float64)
        self.terminate_at = terminate_at
        self.t, self.score = 0, 0.0

    def _obs(self) -> np.ndarray:
        return np.array([self.t, self.score])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        self.t, self.score = 0, float(self.np_random.integers(10))
        return self._obs(), {}

    def step(self, action: Any) -> Any:
        if not self.action_space.contains(action):
            raise ValueError(f"not an action of {self.action_space}: {action!r}")
        said = action["say"] if isinstance(action, dict) else action
        move = int(action["move"]) if isinstance(action, dict) else 0
        self.t += 1
        self.score += len(said) + ord(said[0]) % 5 + 10 * move
        reward = self.score + float(self.np_random.random())
        info = {"said": said, "t": self.t} if self.t % 2 else {}
        return self._obs(), reward, self.t >= self.terminate_at, False, info


def say_fns(key: str) -> list[Any]:
    return [(lambda i=i: SayEnv(ACTION_KEYS[key], 2 + i % 3)) for i in range(NUM_ENVS)]


class SayPolicy:
    """A row-wise policy returning a batch of the action space (a tuple of strings for Text)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __call__(self, obs: np.ndarray) -> Any:
        words = tuple("aZ09b"[int(score) % 5] * (1 + int(t + score) % 4) for t, score in obs)
        if self.key == "text":
            return words
        return {"move": obs[:, 1].astype(np.int64) % 3, "say": words}


def one_action(key: str, action: Any) -> Any:
    """A batch of one action (for a one-env SyncVectorEnv)."""
    space = ACTION_KEYS[key]
    return concatenate(space, [action], create_empty_array(space, n=1))


def actions_of(key: str, batch: Any) -> list[Any]:
    return list(iterate(batch_space(ACTION_KEYS[key], NUM_ENVS), batch))


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("key", list(ACTION_KEYS))
def test_unbatchable_actions_step_as_sync(cluster: Any, key: str, workers: int) -> None:
    fns = say_fns(key)
    ours = RayVectorEnv(fns, workers_per_host=workers, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns)
    policy = SayPolicy(key)
    try:
        assert ours.single_action_space == theirs.single_action_space
        assert ours.action_space == theirs.action_space
        reset = ours.reset(seed=6)
        assert_same_batch(reset, theirs.reset(seed=6), "reset")
        obs = reset[0]
        for t in range(6):
            if t == 4:
                mask = np.array([False, True, True, False, True])
                obs, infos = ours.reset(seed=[2] * NUM_ENVS, options={"reset_mask": mask})
                expected = theirs.reset(seed=[2] * NUM_ENVS, options={"reset_mask": mask})
                assert_same_batch((obs, infos), expected, f"reset at {t}")
            result = ours.step(policy(obs))
            assert_same_batch(result, theirs.step(policy(obs)), f"step {t}")
            obs = result[0]
    finally:
        ours.close()
        theirs.close()


def test_unbatchable_actions_are_checked_before_sending(cluster: Any) -> None:
    fns = say_fns("text")
    ours = RayVectorEnv(fns, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns)
    try:
        obs, _ = ours.reset(seed=1)
        theirs.reset(seed=1)
        count = re.escape(ACTION_COUNT_MSG.format(expected=NUM_ENVS, got=NUM_ENVS - 1))
        with pytest.raises(ValueError, match=count):
            ours.step(("a",) * (NUM_ENVS - 1))
        invalid = re.escape(INVALID_ACTION_MSG.split("{", 1)[0])
        with pytest.raises(error.InvalidAction, match=invalid):
            ours.step(("a", "b", "", "c", "d"))  # Text(4) holds 1 to 4 characters
        with pytest.raises(error.InvalidAction, match=r"\[3\]"):
            ours.send(("a", "toolong"), [1, 3])  # names the env of the bad action
        actions = SayPolicy("text")(obs)  # nothing was stepped: still in step with Sync
        assert_same_batch(ours.step(actions), theirs.step(actions), "after refusals")
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_unbatchable_actions_in_every_autoreset_mode(cluster: Any, mode: AutoresetMode) -> None:
    fns = say_fns("dict_with_text")
    ours = RayVectorEnv(fns, autoreset_mode=mode, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns, autoreset_mode=mode)
    policy = SayPolicy("dict_with_text")
    try:
        obs, _ = ours.reset(seed=2)
        theirs.reset(seed=2)
        for t in range(7):
            result = ours.step(policy(obs))
            assert_same_batch(result, theirs.step(policy(obs)), f"step {t}")
            obs = result[0]
            ended = result[2] | result[3]
            if mode is AutoresetMode.DISABLED and ended.any():
                options = {"reset_mask": ended}
                obs, infos = ours.reset(options=options)
                assert_same_batch((obs, infos), theirs.reset(options=options), f"reset {t}")
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize(("key", "workers"), [("text", 1), ("dict_with_text", 2)])
def test_unbatchable_actions_send_recv_per_env(cluster: Any, key: str, workers: int) -> None:
    fns = say_fns(key)
    ours = RayVectorEnv(fns, workers_per_host=workers, start_timeout=WAIT_S)
    refs = [SyncVectorEnv([fn]) for fn in fns]
    policy = SayPolicy(key)
    try:
        ours.reset(seed=5)
        obs = [ref.reset(seed=5 + i)[0] for i, ref in enumerate(refs)]
        for round_ in range(4):
            wanted = policy(np.concatenate(obs))
            items = actions_of(key, wanted)
            # hosts own envs [0, 3) and [3, 5): later sends queue behind the first on busy hosts
            groups = [[0, 4], [1, 3], [2]] if round_ % 2 else [[3], [0], [4, 1], [2]]
            for ids in groups:
                picked = [items[i] for i in ids]
                space = ACTION_KEYS[key]
                ours.send(concatenate(space, picked, create_empty_array(space, n=len(ids))), ids)
            got, rewards, terminated, truncated, infos, env_ids = ours.recv(timeout=WAIT_S)
            assert env_ids.tolist() == list(range(NUM_ENVS))
            for j, i in enumerate(env_ids.tolist()):
                o, r, te, tr, info = refs[i].step(one_action(key, items[i]))
                obs[i] = o
                np.testing.assert_array_equal(got[j], o[0], err_msg=f"round {round_} env {i}")
                assert (rewards[j], terminated[j], truncated[j]) == (r[0], te[0], tr[0])
                assert_row_infos(infos, info, j)
    finally:
        ours.close()
        for ref in refs:
            ref.close()


@pytest.mark.parametrize(
    ("key", "mode"),
    [
        ("text", AutoresetMode.NEXT_STEP),
        ("dict_with_text", AutoresetMode.NEXT_STEP),
        ("dict_with_text", AutoresetMode.SAME_STEP),
    ],
    ids=lambda v: getattr(v, "value", v),
)
def test_unbatchable_actions_rollout_as_sync(cluster: Any, key: str, mode: AutoresetMode) -> None:
    fns = say_fns(key)
    ours = RayVectorEnv(fns, autoreset_mode=mode, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns, autoreset_mode=mode)
    policy = SayPolicy(key)
    try:
        ours.reset(seed=8)
        obs, _ = theirs.reset(seed=8)
        for round_ in range(2):
            batch = ours.rollout(policy, 4, timeout=WAIT_S)
            assert isinstance(batch.actions, list)
            assert len(batch.actions) == 4
            for t in range(4):
                where = f"round {round_} step {t}"
                np.testing.assert_array_equal(batch.observations[t], obs, err_msg=where)
                assert_same_batch(batch.actions[t], policy(obs), f"actions, {where}")
                obs, rewards, terminated, truncated, infos = theirs.step(policy(obs))
                np.testing.assert_array_equal(batch.rewards[t], rewards, err_msg=where)
                np.testing.assert_array_equal(batch.terminations[t], terminated, err_msg=where)
                np.testing.assert_array_equal(batch.truncations[t], truncated, err_msg=where)
                assert_same_batch(batch.infos[t], infos, f"infos, {where}")
            assert batch.stepped.all()
            np.testing.assert_array_equal(batch.next_observations, obs)
        assert_same_batch(ours.step(policy(obs)), theirs.step(policy(obs)), "step after")
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("key", list(ACTION_KEYS))
def test_unbatchable_actions_disabled_rollout_leaves_none(cluster: Any, key: str) -> None:
    fns = say_fns(key)
    ours = RayVectorEnv(fns, autoreset_mode="Disabled", start_timeout=WAIT_S)
    refs = [SyncVectorEnv([fn], autoreset_mode="Disabled") for fn in fns]
    policy, space = SayPolicy(key), ACTION_KEYS[key]
    blank = None if key == "text" else {"move": 0, "say": None}
    try:
        ours.reset(seed=3)
        obs = [ref.reset(seed=3 + i)[0] for i, ref in enumerate(refs)]
        running = np.ones(NUM_ENVS, dtype=np.bool_)
        for round_ in range(2):
            batch = ours.rollout(policy, 3, timeout=WAIT_S)
            for t in range(3):
                seen = np.concatenate(obs)
                np.testing.assert_array_equal(batch.observations[t], seen)
                np.testing.assert_array_equal(batch.stepped[t], running)
                items = actions_of(key, policy(seen))
                expected = [items[i] if running[i] else blank for i in range(NUM_ENVS)]
                want = concatenate(space, expected, create_empty_array(space, n=NUM_ENVS))
                assert_same_batch(batch.actions[t], want, f"round {round_} actions[{t}]")
                for i in np.flatnonzero(running).tolist():
                    o, r, te, tr, info = refs[i].step(one_action(key, items[i]))
                    obs[i] = o
                    assert (batch.rewards[t, i], batch.terminations[t, i]) == (r[0], te[0])
                    assert_row_infos(batch.infos[t], info, i)
                    running[i] = not (te[0] or tr[0])
            assert not running.all()  # episodes of 2 to 4 steps: some ended in 3 steps
            mask = ~running
            ours.reset(seed=40, options={"reset_mask": mask})
            for i in np.flatnonzero(mask).tolist():
                obs[i] = refs[i].reset(seed=40 + i)[0]
                running[i] = True
    finally:
        ours.close()
        for ref in refs:
            ref.close()


def short_policy(obs: np.ndarray) -> tuple[str, ...]:
    return ("a",) * (len(obs) - 1)


def test_unbatchable_actions_rollout_refuses_a_short_batch(cluster: Any) -> None:
    fns = say_fns("text")
    ours = RayVectorEnv(fns, start_timeout=WAIT_S)
    theirs = SyncVectorEnv(fns)
    try:
        ours.reset(seed=0)
        expected = re.escape(ACTION_COUNT_MSG.format(expected=3, got=2))  # host 0 has 3 envs
        with pytest.raises(ValueError, match=expected):
            ours.rollout(short_policy, 2, timeout=WAIT_S)
        obs, _ = ours.reset(seed=0)  # a reset recovers, as after an env's exception
        theirs.reset(seed=0)
        actions = SayPolicy("text")(obs)
        assert_same_batch(ours.step(actions), theirs.step(actions), "after the refusal")
    finally:
        ours.close()
        theirs.close()
