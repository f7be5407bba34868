"""Stateful vector wrappers under every autoreset mode and with partial resets (CountingEnv)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym.wrappers.vector as vw
from tests.support.counting_env import CountingEnv
from vecgym.vector import AutoresetMode, SyncVectorEnv
from vecgym.wrappers.utils import RunningMeanStd

MODES = list(AutoresetMode)
ONES = np.ones(2, dtype=np.int64)


def _envs(mode: AutoresetMode, terminate_at: int | None = 3, **kwargs: Any) -> SyncVectorEnv:
    make = functools.partial(CountingEnv, terminate_at=terminate_at, **kwargs)
    return SyncVectorEnv([make, make], autoreset_mode=mode)


def _drive(envs: Any, mode: AutoresetMode, steps: int) -> list[tuple[Any, ...]]:
    """Step ``steps`` times; in DISABLED mode reset the ended envs (recorded as ("reset", ...))."""
    log: list[tuple[Any, ...]] = []
    for _ in range(steps):
        result = envs.step(ONES)
        log.append(("step", *result))
        ended = np.logical_or(result[2], result[3])
        if mode is AutoresetMode.DISABLED and ended.any():
            log.append(("reset", *envs.reset(options={"reset_mask": ended})))
    return log


def _reference(values: list[float], shape: tuple[int, ...] = (1,)) -> RunningMeanStd:
    rms = RunningMeanStd(shape=shape, dtype=np.float64)
    rms.update(np.asarray(values, dtype=np.float64).reshape(-1, *shape))
    return rms


# --- RecordEpisodeStatistics -------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_record_episode_statistics_modes(mode: AutoresetMode) -> None:
    envs = vw.RecordEpisodeStatistics(_envs(mode))
    envs.reset(seed=0)
    reports = [entry[-1]["episode"] for entry in _drive(envs, mode, 8) if "episode" in entry[-1]]
    assert len(reports) == 2
    for report in reports:
        assert report["l"].tolist() == [3, 3]
        assert report["r"].tolist() == [3.0, 3.0]
    assert list(envs.length_queue) == [3, 3, 3, 3]
    assert envs.episode_count == 4
    envs.close()


def test_record_episode_statistics_reset_takes_seed_and_options_by_position() -> None:
    """As Gymnasium's vector ``RecordEpisodeStatistics.reset(seed=None, options=None)``."""
    import vecgym

    envs = vw.RecordEpisodeStatistics(vecgym.make_vec("CartPole-v1", 2, vectorization_mode="sync"))
    twin = vecgym.make_vec("CartPole-v1", 2, vectorization_mode="sync")
    obs, _ = envs.reset(7, {"low": -0.01, "high": 0.01})
    expected, _ = twin.reset(seed=7, options={"low": -0.01, "high": 0.01})
    np.testing.assert_array_equal(obs, expected)
    assert np.abs(obs).max() <= 0.01
    envs.close()
    twin.close()


@pytest.mark.parametrize("mode", MODES)
def test_record_episode_statistics_partial_reset(mode: AutoresetMode) -> None:
    envs = vw.RecordEpisodeStatistics(_envs(mode, terminate_at=5))
    envs.reset(seed=0)
    envs.step(ONES)
    envs.step(ONES)
    envs.reset(options={"reset_mask": np.array([True, False])})
    infos: dict[str, Any] = {}
    for _ in range(3):
        infos = envs.step(ONES)[-1]
    assert infos["_episode"].tolist() == [False, True]
    assert infos["episode"]["l"].tolist() == [0, 5]  # env 1 kept counting
    assert infos["episode"]["r"].tolist() == [0.0, 5.0]
    if mode is AutoresetMode.DISABLED:
        envs.reset(options={"reset_mask": np.array([False, True])})
    for _ in range(2):
        infos = envs.step(ONES)[-1]
    assert infos["_episode"].tolist() == [True, False]
    assert infos["episode"]["l"].tolist() == [5, 0]
    envs.close()


def test_record_episode_statistics_leaves_options_alone() -> None:
    envs = vw.RecordEpisodeStatistics(_envs(AutoresetMode.NEXT_STEP))
    options = {"reset_mask": np.array([True, False])}
    envs.reset(seed=0)
    envs.reset(options=options)
    assert "reset_mask" in options
    with pytest.raises(ValueError, match="shape"):
        envs.reset(options={"reset_mask": np.array([True])})
    envs.close()


# --- NormalizeObservation ----------------------------------------------------------------------
EXPECTED_OBS_VALUES = {
    # reset 0,0; steps 1,1 / 2,2 (end) / reset step 0,0 / 1,1
    AutoresetMode.NEXT_STEP: [0, 0, 1, 1, 2, 2, 0, 0, 1, 1],
    # the ending step adds the reset obs and the final obs
    AutoresetMode.SAME_STEP: [0, 0, 1, 1, 0, 0, 2, 2, 1, 1, 0, 0, 2, 2],
    # the manual reset of the ended envs adds their reset obs
    AutoresetMode.DISABLED: [0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0],
}


@pytest.mark.parametrize("mode", MODES)
def test_normalize_observation_modes(mode: AutoresetMode) -> None:
    envs = vw.NormalizeObservation(_envs(mode, terminate_at=2))
    envs.reset(seed=0)
    steps = 4
    log = _drive(envs, mode, steps)
    expected = _reference(EXPECTED_OBS_VALUES[mode])
    np.testing.assert_allclose(envs.obs_rms.mean, expected.mean, rtol=1e-5)
    np.testing.assert_allclose(envs.obs_rms.var, expected.var, rtol=1e-5)
    assert envs.obs_rms.count == pytest.approx(expected.count)
    last_obs = log[-1][1]
    raw = 1.0 if mode is AutoresetMode.NEXT_STEP else 0.0  # DISABLED: the manual reset's obs
    expected_obs = (raw - envs.obs_rms.mean) / np.sqrt(envs.obs_rms.var + 1e-8)
    np.testing.assert_allclose(last_obs, np.full((2, 1), expected_obs[0]), rtol=1e-5)
    if mode is AutoresetMode.SAME_STEP:
        final = log[-1][-1]["final_obs"]
        np.testing.assert_allclose(
            final[0], (2.0 - envs.obs_rms.mean) / np.sqrt(envs.obs_rms.var + 1e-8), rtol=1e-5
        )
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_normalize_observation_partial_reset_counts_only_reset_rows(mode: AutoresetMode) -> None:
    envs = vw.NormalizeObservation(_envs(mode, terminate_at=None))
    envs.reset(seed=0)
    envs.step(ONES)
    envs.step(ONES)
    obs, _ = envs.reset(options={"reset_mask": np.array([True, False])})
    expected = _reference([0, 0, 1, 1, 2, 2, 0])
    np.testing.assert_allclose(envs.obs_rms.mean, expected.mean, rtol=1e-5)
    assert envs.obs_rms.count == pytest.approx(expected.count)
    # row 1 is still env 1's running observation (2), normalised with the current statistics
    np.testing.assert_allclose(
        obs[1], (2.0 - envs.obs_rms.mean) / np.sqrt(envs.obs_rms.var + 1e-8), rtol=1e-5
    )
    envs.close()


def test_normalize_observation_freeze_and_save_load(tmp_path: Any) -> None:
    envs = vw.NormalizeObservation(_envs(AutoresetMode.NEXT_STEP, terminate_at=4))
    envs.reset(seed=0)
    _drive(envs, AutoresetMode.NEXT_STEP, 6)
    state = envs.state_dict()
    envs.update_running_mean = False
    assert envs.update_running_mean is False
    _drive(envs, AutoresetMode.NEXT_STEP, 3)
    np.testing.assert_array_equal(envs.state_dict()["mean"], state["mean"])
    assert envs.state_dict()["count"] == state["count"]

    envs.save(tmp_path / "stats")
    assert (tmp_path / "stats.npz").exists()
    fresh = vw.NormalizeObservation(_envs(AutoresetMode.NEXT_STEP, terminate_at=4))
    fresh.load(tmp_path / "stats")
    fresh.update_running_mean = False
    for key, value in state.items():
        np.testing.assert_array_equal(fresh.state_dict()[key], value)
    envs.reset(seed=1)
    np.testing.assert_array_equal(fresh.reset(seed=1)[0], envs.reset(seed=1)[0])
    with pytest.raises(ValueError, match="keys"):
        fresh.load_state_dict({"mean": state["mean"]})
    with pytest.raises(ValueError, match="shape"):
        fresh.load_state_dict({**state, "mean": np.zeros(3)})
    with pytest.raises(ValueError, match="count"):
        fresh.load_state_dict({**state, "count": np.array(-1.0)})
    with pytest.raises(TypeError, match="bool"):
        fresh.update_running_mean = "no"  # type: ignore[assignment]
    envs.close()
    fresh.close()


# --- NormalizeReward ---------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_normalize_reward_modes(mode: AutoresetMode) -> None:
    envs = vw.NormalizeReward(_envs(mode), gamma=1.0)
    envs.reset(seed=0)
    log = _drive(envs, mode, 8)
    # the first episode's returns are 1, 2 and then r_T = 1 (Gymnasium's (1 - terminated) factor)
    first = [1, 1, 2, 2, 1, 1]
    if mode is AutoresetMode.NEXT_STEP:
        # as Gymnasium 1.4 (and N single envs under Autoreset(NormalizeReward)): the next
        # episode's return starts from the last one, r_T = 1
        expected = _reference([*first, 2, 2, 3, 3, 1, 1], shape=())
    else:
        # SAME_STEP: the return restarts right after the end; DISABLED: the reset restarts it
        expected = _reference([*first, *first, 1, 1, 2, 2], shape=())
    assert envs.return_rms.count == pytest.approx(expected.count)
    np.testing.assert_allclose(envs.return_rms.var, expected.var, rtol=1e-6)
    last_rewards = log[-1][2] if log[-1][0] == "step" else log[-2][2]
    raw = 0.0 if mode is AutoresetMode.NEXT_STEP else 1.0  # NEXT_STEP: step 8 is a reset step
    np.testing.assert_allclose(last_rewards, np.full(2, raw) / np.sqrt(envs.return_rms.var + 1e-8))
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_normalize_reward_partial_reset_keeps_other_returns(mode: AutoresetMode) -> None:
    # differs from Gymnasium 1.4 on purpose: its partial reset restarts every env's return
    envs = vw.NormalizeReward(_envs(mode, terminate_at=None), gamma=1.0)
    envs.reset(seed=0)
    envs.step(ONES)
    envs.step(ONES)
    assert envs.accumulated_reward.tolist() == [2.0, 2.0]
    envs.reset(options={"reset_mask": np.array([False, True])})
    assert envs.accumulated_reward.tolist() == [2.0, 0.0]
    envs.step(ONES)
    assert envs.accumulated_reward.tolist() == [3.0, 1.0]
    envs.close()


def test_normalize_reward_freeze_and_save_load(tmp_path: Any) -> None:
    envs = vw.NormalizeReward(_envs(AutoresetMode.NEXT_STEP))
    envs.reset(seed=0)
    _drive(envs, AutoresetMode.NEXT_STEP, 5)
    envs.update_running_mean = False
    state = envs.state_dict()
    _drive(envs, AutoresetMode.NEXT_STEP, 5)
    assert envs.state_dict()["count"] == state["count"]
    envs.save(tmp_path / "reward.npz")
    fresh = vw.NormalizeReward(_envs(AutoresetMode.NEXT_STEP))
    fresh.load(tmp_path / "reward.npz")
    assert float(fresh.return_rms.var) == pytest.approx(float(state["var"]))
    with pytest.raises(FileNotFoundError):
        fresh.load(tmp_path / "missing")
    envs.close()
    fresh.close()


# --- FrameStack / Delay / TimeAware ------------------------------------------------------------
def _rows(obs: Any) -> list[list[float]]:
    return np.asarray(obs)[:, :, 0].tolist()


@pytest.mark.parametrize("mode", MODES)
def test_frame_stack_modes(mode: AutoresetMode) -> None:
    envs = vw.FrameStackObservation(_envs(mode), 3, padding_type="zero")
    assert envs.single_observation_space.shape == (3, 1)
    assert envs.observation_space.shape == (2, 3, 1)
    obs, _ = envs.reset(seed=0)
    assert _rows(obs) == [[0, 0, 0]] * 2
    log = _drive(envs, mode, 5)
    stacks = [_rows(entry[1]) for entry in log]
    if mode is AutoresetMode.NEXT_STEP:
        assert stacks == [[[0, 0, 1]] * 2, [[0, 1, 2]] * 2, [[1, 2, 3]] * 2, [[0, 0, 0]] * 2,
                          [[0, 0, 1]] * 2]  # fmt: skip
    elif mode is AutoresetMode.SAME_STEP:
        assert stacks[2] == [[0, 0, 0]] * 2
        assert [f[:, 0].tolist() for f in log[2][-1]["final_obs"]] == [[1, 2, 3]] * 2
        assert stacks[4] == [[0, 1, 2]] * 2
    else:
        assert stacks[2] == [[1, 2, 3]] * 2
        assert log[3][0] == "reset"
        assert stacks[3] == [[0, 0, 0]] * 2
        assert stacks[4] == [[0, 0, 1]] * 2
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_frame_stack_partial_reset_and_reset_padding(mode: AutoresetMode) -> None:
    envs = vw.FrameStackObservation(_envs(mode, terminate_at=None), 3)
    envs.reset(seed=0, options={"start": 5})
    envs.step(ONES)
    obs, _ = envs.reset(options={"reset_mask": np.array([True, False]), "start": 7})
    assert _rows(obs) == [[7, 7, 7], [5, 5, 6]]
    obs = envs.step(ONES)[0]
    assert _rows(obs) == [[7, 7, 8], [5, 6, 7]]
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_delay_observation_modes(mode: AutoresetMode) -> None:
    envs = vw.DelayObservation(_envs(mode), delay=1)
    obs, _ = envs.reset(seed=0)
    assert obs.ravel().tolist() == [0, 0]
    log = _drive(envs, mode, 5)
    values = [np.asarray(entry[1])[0, 0] for entry in log]
    if mode is AutoresetMode.NEXT_STEP:
        assert values == [0, 1, 2, 0, 0]
    elif mode is AutoresetMode.SAME_STEP:
        assert values == [0, 1, 0, 0, 1]
        assert log[2][-1]["final_obs"][0].tolist() == [2.0]
    else:
        assert values == [0, 1, 2, 0, 0, 1]
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_time_aware_modes_and_partial_reset(mode: AutoresetMode) -> None:
    envs = vw.TimeAwareObservation(_envs(mode), max_episode_steps=10)
    obs, _ = envs.reset(seed=0)
    assert obs[:, -1].tolist() == [0, 0]
    log = _drive(envs, mode, 4)
    times = [np.asarray(entry[1])[0, -1] for entry in log]
    if mode is AutoresetMode.NEXT_STEP:
        assert times == [1, 2, 3, 0]
    elif mode is AutoresetMode.SAME_STEP:
        assert times == [1, 2, 0, 1]
        assert log[2][-1]["final_obs"][0].tolist() == [3.0, 3.0]
    else:
        assert times == [1, 2, 3, 0, 1]
    normalized = vw.TimeAwareObservation(
        _envs(mode, terminate_at=None), normalize_time=True, max_episode_steps=4
    )
    normalized.reset(seed=0)
    normalized.step(ONES)
    obs, _ = normalized.reset(options={"reset_mask": np.array([False, True])})
    assert obs[:, -1].tolist() == [0.25, 0.0]
    envs.close()
    normalized.close()


# --- against the single-env wrappers -----------------------------------------------------------
@pytest.mark.parametrize(
    ("vector_wrapper", "single_wrapper"),
    [
        (
            lambda e: vw.FrameStackObservation(e, 4),
            lambda e: __import__("vecgym").wrappers.FrameStackObservation(e, 4),
        ),
        (
            lambda e: vw.DelayObservation(e, 2),
            lambda e: __import__("vecgym").wrappers.DelayObservation(e, 2),
        ),
    ],
)
def test_matches_single_env_wrapper_on_cartpole(
    vector_wrapper: Callable[[Any], Any], single_wrapper: Callable[[Any], Any]
) -> None:
    import vecgym

    envs = vector_wrapper(vecgym.make_vec("CartPole-v1", 2, vectorization_mode="sync"))
    singles = [single_wrapper(vecgym.make("CartPole-v1")) for _ in range(2)]
    obs, _ = envs.reset(seed=3)
    for i, env in enumerate(singles):
        np.testing.assert_array_equal(obs[i], env.reset(seed=3 + i)[0])
    for _ in range(30):
        obs, _, terminated, truncated, _ = envs.step(np.ones(2, dtype=np.int64))
        for i, env in enumerate(singles):
            np.testing.assert_array_equal(obs[i], env.step(1)[0])
        if terminated.any() or truncated.any():
            break
    envs.close()


@pytest.mark.parametrize("env_id", ["CartPole-v1", "MountainCar-v0"])
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_normalize_reward_matches_gymnasium_vector(env_id: str, mode: AutoresetMode) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers.vector import NormalizeReward as TheirNormalizeReward

    import vecgym

    def run(lib: Any, wrapper: Any) -> tuple[Any, np.ndarray]:
        modes = lib.vector.AutoresetMode
        envs = wrapper(
            lib.make_vec(
                env_id,
                num_envs=3,
                vectorization_mode="sync",
                vector_kwargs={"autoreset_mode": modes(mode.value)},
            )
        )
        envs.reset(seed=0)
        envs.action_space.seed(1)
        rewards = [envs.step(envs.action_space.sample())[1] for _ in range(400)]
        # the public helper: folds every env's return in (while updating), then scales
        helper = [envs.normalize(2.0), envs.normalize(np.int64(-3))]
        envs.update_running_mean = False
        helper.append(envs.normalize(np.float32(0.5)))  # frozen: return_rms stays
        rewards.append(np.array(helper))
        envs.close()
        return envs.return_rms, np.array(rewards)

    ours, our_rewards = run(vecgym, vw.NormalizeReward)
    theirs, their_rewards = run(gymnasium, TheirNormalizeReward)
    assert (ours.mean, ours.var, ours.count) == (theirs.mean, theirs.var, theirs.count)
    np.testing.assert_array_equal(our_rewards, their_rewards)


def test_normalize_reward_matches_single_envs_under_autoreset() -> None:
    import vecgym
    from vecgym.wrappers import Autoreset, NormalizeReward

    num_envs, steps = 3, 400
    envs = vw.NormalizeReward(
        vecgym.make_vec("CartPole-v1", num_envs=num_envs, vectorization_mode="sync")
    )
    envs.reset(seed=0)
    envs.action_space.seed(1)
    actions = [envs.action_space.sample() for _ in range(steps)]
    for action in actions:
        envs.step(action)
    envs.close()

    pooled = RunningMeanStd(shape=())
    for index in range(num_envs):
        normalizer = NormalizeReward(vecgym.make("CartPole-v1", disable_env_checker=True))
        single = Autoreset(normalizer)
        single.reset(seed=index)
        for action in actions:
            single.step(action[index])
        stats = normalizer.return_rms
        pooled.update_from_moments(stats.mean, stats.var, stats.count - 1e-4)
        single.close()
    assert pooled.count == pytest.approx(envs.return_rms.count)
    # the vector wrapper sums the returns in float32, the single one in float64
    np.testing.assert_allclose(pooled.mean, envs.return_rms.mean, rtol=1e-5)
    np.testing.assert_allclose(pooled.var, envs.return_rms.var, rtol=1e-5)
