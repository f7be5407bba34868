"""Autoreset and RecordEpisodeStatistics."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.counting_env import CountingEnv
from tests.support.messages import message_pattern
from vecgym.wrappers import Autoreset, RecordEpisodeStatistics
from vecgym.wrappers import common as common_module
from vecgym.wrappers.common import BUFFER_LENGTH_MSG


def _summary(result: tuple[Any, ...]) -> tuple[float, float, bool, bool]:
    obs, reward, terminated, truncated, _ = result
    return float(np.asarray(obs).ravel()[0]), float(reward), bool(terminated), bool(truncated)


# --- Autoreset ------------------------------------------------------------------------------------
def test_autoreset_resets_on_the_step_after_the_end() -> None:
    base = CountingEnv(terminate_at=2, info_every=1)
    env = Autoreset(base)
    env.reset(seed=0)
    assert _summary(env.step(1)) == (1.0, 1.0, False, False)
    assert _summary(env.step(1)) == (2.0, 1.0, True, False)
    assert base.reset_count == 1
    obs, reward, terminated, truncated, _ = env.step(2)  # the autoreset step
    assert (float(obs[0]), reward, terminated, truncated) == (0.0, 0.0, False, False)
    assert base.reset_count == 2
    assert base.last_action == 1  # the autoreset step's action did not reach the env
    assert _summary(env.step(1)) == (1.0, 1.0, False, False)


def test_autoreset_on_truncation() -> None:
    env = Autoreset(CountingEnv(terminate_at=None, truncate_at=1))
    env.reset(seed=0)
    assert _summary(env.step(1))[2:] == (False, True)
    assert _summary(env.step(1)) == (0.0, 0.0, False, False)


def test_manual_reset_clears_pending_autoreset() -> None:
    base = CountingEnv(terminate_at=1)
    env = Autoreset(base)
    env.reset(seed=0)
    env.step(1)
    assert env.autoreset
    env.reset()
    assert not env.autoreset
    assert _summary(env.step(1)) == (1.0, 1.0, True, False)  # a real step, not a reset


def test_autoreset_matches_gymnasium_on_cartpole() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    ours = Autoreset(vecgym.make("CartPole-v1", max_episode_steps=7))
    theirs = gymnasium.wrappers.Autoreset(gymnasium.make("CartPole-v1", max_episode_steps=7))
    np.testing.assert_array_equal(ours.reset(seed=5)[0], theirs.reset(seed=5)[0])
    actions = np.random.default_rng(0).integers(0, 2, size=60)
    for action in actions:
        mine, ref = ours.step(int(action)), theirs.step(int(action))
        np.testing.assert_array_equal(mine[0], ref[0])
        assert mine[1:4] == ref[1:4]


def test_autoreset_records_no_arguments() -> None:
    env = Autoreset(CountingEnv())
    assert env._saved_kwargs == {}


# --- RecordEpisodeStatistics ----------------------------------------------------------------------
class _Clock:
    """A fake ``time.perf_counter`` that advances one second per call."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_statistics_values_and_queues(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common_module.time, "perf_counter", _Clock())
    env = RecordEpisodeStatistics(CountingEnv(terminate_at=3), buffer_length=2)
    for episode in range(3):
        env.reset(seed=episode)  # clock: start
        infos = [env.step(2)[4] for _ in range(3)]
        assert all("episode" not in info for info in infos[:2])
        # reward = action = 2 per step; the clock ticked once at the reset and once at the end
        assert infos[2]["episode"] == {"r": 6.0, "l": 3, "t": 1.0}
    assert env.episode_count == 3
    assert list(env.return_queue) == [6.0, 6.0]  # buffer_length keeps the last two
    assert list(env.length_queue) == [3, 3]
    assert list(env.time_queue) == [1.0, 1.0]


def test_statistics_time_is_rounded_to_microseconds(monkeypatch: pytest.MonkeyPatch) -> None:
    times = iter([10.0, 10.12345678])
    monkeypatch.setattr(common_module.time, "perf_counter", lambda: next(times, 99.0))
    env = RecordEpisodeStatistics(CountingEnv(terminate_at=1))
    env.reset(seed=0)
    assert env.step(0)[4]["episode"]["t"] == pytest.approx(0.123457, abs=0)


def test_statistics_custom_key_and_unbounded_buffer() -> None:
    env = RecordEpisodeStatistics(CountingEnv(terminate_at=1), buffer_length=None, stats_key="ep")
    assert env._saved_kwargs == {"buffer_length": None, "stats_key": "ep"}
    for _ in range(150):
        env.reset()
        info = env.step(1)[4]
    assert info["ep"]["l"] == 1
    assert "episode" not in info
    assert len(env.return_queue) == 150


def test_statistics_key_collision_is_an_error() -> None:
    env = RecordEpisodeStatistics(CountingEnv(terminate_at=2, info_every=1), stats_key="count")
    env.reset(seed=0)
    env.step(1)
    with pytest.raises(ValueError, match="already has the key 'count'"):
        env.step(1)


@pytest.mark.parametrize("bad", [-1, 2.5, "10", True])
def test_statistics_rejects_bad_buffer_length(bad: Any) -> None:
    with pytest.raises(ValueError, match=message_pattern(BUFFER_LENGTH_MSG)):
        RecordEpisodeStatistics(CountingEnv(), buffer_length=bad)


def test_statistics_under_autoreset_reports_each_episode_alone() -> None:
    env = RecordEpisodeStatistics(Autoreset(CountingEnv(terminate_at=2)))
    env.reset(seed=0)
    episodes = []
    for _ in range(9):  # three episodes of two steps, each followed by the autoreset step
        info = env.step(1)[4]
        if "episode" in info:
            episodes.append((info["episode"]["r"], info["episode"]["l"]))
    assert episodes == [(2.0, 2), (2.0, 2), (2.0, 2)]


def test_statistics_match_gymnasium_on_cartpole() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    ours = RecordEpisodeStatistics(vecgym.make("CartPole-v1"), buffer_length=5)
    theirs = gymnasium.wrappers.RecordEpisodeStatistics(gymnasium.make("CartPole-v1"), 5)
    rng = np.random.default_rng(1)
    for episode in range(8):
        ours.reset(seed=episode)
        theirs.reset(seed=episode)
        done = False
        while not done:
            action = int(rng.integers(0, 2))
            mine, ref = ours.step(action), theirs.step(action)
            assert mine[1:4] == ref[1:4]
            done = mine[2] or mine[3]
        assert mine[4]["episode"]["r"] == ref[4]["episode"]["r"]
        assert mine[4]["episode"]["l"] == ref[4]["episode"]["l"]
    assert list(ours.return_queue) == list(theirs.return_queue)
    assert list(ours.length_queue) == list(theirs.length_queue)
    assert ours.episode_count == theirs.episode_count == 8


def test_spec_round_trip_rebuilds_the_stack() -> None:
    env = RecordEpisodeStatistics(
        Autoreset(vecgym.make("CartPole-v1")), buffer_length=7, stats_key="stats"
    )
    assert env.spec is not None
    names = [wrapper.name for wrapper in env.spec.additional_wrappers]
    assert names == ["Autoreset", "RecordEpisodeStatistics"]
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, RecordEpisodeStatistics)
    assert isinstance(rebuilt.env, Autoreset)
    assert rebuilt.return_queue.maxlen == 7
    assert rebuilt.get_wrapper_attr("_stats_key") == "stats"
