"""SB3VecEnv behaves as Stable-Baselines3's own VecEnvs do for the same env functions."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.processes import python_stdout
from vecgym.integrations import sb3 as vecgym_sb3
from vecgym.interop import to_gymnasium
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("stable_baselines3")

from stable_baselines3 import PPO  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.monitor import Monitor  # noqa: E402
from stable_baselines3.common.vec_env import (  # noqa: E402
    DummyVecEnv,
    SubprocVecEnv,
    VecEnv,
    VecFrameStack,
    VecMonitor,
    VecNormalize,
)

from tests.support.gymnasium_envs import GymDictEnv  # noqa: E402
from vecgym.integrations._sb3_vec_env import NO_SUB_ENVS_MSG  # noqa: E402
from vecgym.integrations.sb3 import SB3VecEnv, make_sb3_vec_env, unbatch_infos  # noqa: E402
from vecgym.vector._env_call import IS_WRAPPED_CALL  # noqa: E402

NUM_ENVS = 3
STEPS = 120

# Env functions building Gymnasium envs (what SB3's own VecEnvs need): truncations (a short
# TimeLimit), terminations, non-empty step and reset infos (Taxi), tuple observations (Blackjack),
# dict observations (GymDictEnv).
ENV_FNS: dict[str, Callable[[], Any]] = {
    "dict": lambda: GymDictEnv(length=4),
    "cartpole": lambda: gymnasium.make("CartPole-v1", max_episode_steps=15),
    "taxi": lambda: gymnasium.make("Taxi-v4", max_episode_steps=12),
    "blackjack": lambda: gymnasium.make("Blackjack-v1"),
}
# The same through vecgym's own envs converted to Gymnasium ones.
VECGYM_FNS: dict[str, Callable[[], Any]] = {
    "cartpole": lambda: to_gymnasium(vecgym.make("CartPole-v1", max_episode_steps=15)),
}


def _vecgym_vector_env(kind: str, fns: list[Callable[[], Any]], mode: str) -> Any:
    if kind == "sync":
        return SyncVectorEnv(fns, autoreset_mode=mode)
    return AsyncVectorEnv(fns, autoreset_mode=mode, num_workers=2)


# VecMonitor's wall-clock time since the start, which no two runs share
CLOCK_KEYS = {"t"}


def _assert_same(ours: Any, theirs: Any, where: str) -> None:
    if isinstance(theirs, dict):
        assert isinstance(ours, dict), where
        assert sorted(ours) == sorted(theirs), where
        for key in set(theirs) - CLOCK_KEYS:
            _assert_same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            _assert_same(a, b, f"{where}[{i}]")
    else:
        np.testing.assert_array_equal(ours, theirs, err_msg=where)


def _dtypes(obs: Any) -> Any:
    if isinstance(obs, dict):
        return {key: _dtypes(value) for key, value in obs.items()}
    if isinstance(obs, tuple):
        return tuple(_dtypes(value) for value in obs)
    return np.asarray(obs).dtype


def _run_side_by_side(ours: VecEnv, theirs: VecEnv, steps: int, seed: int = 3) -> int:
    """Step both with the same actions; fail on any difference. Returns the episodes ended."""
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    ours.seed(seed)
    theirs.seed(seed)
    _assert_same(ours.reset(), theirs.reset(), "reset obs")
    _assert_same(ours.reset_infos, theirs.reset_infos, "reset_infos")
    space = theirs.action_space
    space.seed(seed)
    ended = 0
    for t in range(steps):
        actions = np.array([space.sample() for _ in range(theirs.num_envs)])
        result = ours.step(actions)
        wanted = theirs.step(actions)
        for name, a, b in zip(("obs", "rewards", "dones"), result[:3], wanted[:3], strict=True):
            _assert_same(a, b, f"step {t} {name}")
        assert _dtypes(result[0]) == _dtypes(wanted[0])
        assert result[2].dtype == np.bool_
        # the vector env's float rewards (SB3's own differ: Dummy float32, Subproc whatever the
        # env returned, int64 for Taxi)
        assert result[1].dtype.kind == "f"
        assert isinstance(result[3], list)
        _assert_same(list(result[3]), list(wanted[3]), f"step {t} infos")
        _assert_same(ours.reset_infos, list(theirs.reset_infos), f"step {t} reset_infos")
        ended += int(np.sum(wanted[2]))
    return ended


@pytest.mark.parametrize("mode", ["SameStep", "NextStep", "Disabled"])
@pytest.mark.parametrize("kind", ["sync", "async"])
@pytest.mark.parametrize("env_name", sorted(ENV_FNS))
def test_matches_dummy_vec_env(env_name: str, kind: str, mode: str) -> None:
    fns = [ENV_FNS[env_name]] * NUM_ENVS
    ours = SB3VecEnv(_vecgym_vector_env(kind, fns, mode))
    theirs = DummyVecEnv(fns)
    try:
        assert _run_side_by_side(ours, theirs, STEPS) > 0
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("mode", ["SameStep", "NextStep"])
@pytest.mark.parametrize("fn", [VECGYM_FNS["cartpole"], ENV_FNS["taxi"]], ids=["vecgym", "taxi"])
def test_matches_subproc_vec_env(fn: Callable[[], Any], mode: str) -> None:
    fns = [fn] * 2
    ours = SB3VecEnv(AsyncVectorEnv(fns, autoreset_mode=mode, num_workers=2, copy=False))
    theirs = SubprocVecEnv(fns, start_method="fork")
    try:
        assert _run_side_by_side(ours, theirs, 60) > 0
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("mode", ["SameStep", "NextStep", "Disabled"])
def test_numpy_vectorised_env_matches_sync(mode: str) -> None:
    """A vectorised env (no sub-envs) gives the results of the sync env of the same envs."""
    ours = SB3VecEnv(
        vecgym.make_vec(
            "CartPole-v1",
            NUM_ENVS,
            "vector_entry_point",
            autoreset_mode=mode,
            max_episode_steps=15,
        )
    )
    theirs = DummyVecEnv([VECGYM_FNS["cartpole"]] * NUM_ENVS)
    try:
        assert _run_side_by_side(ours, theirs, 60) > 0
        assert ours.get_attr("render_mode") == [None] * NUM_ENVS
        assert ours.env_is_wrapped(Monitor) == [False] * NUM_ENVS
        with pytest.raises(TypeError) as info:
            ours.env_method("reset")
        assert str(info.value) == NO_SUB_ENVS_MSG.format(venv="CartPoleVectorEnv", name="reset")
    finally:
        ours.close()
        theirs.close()


def test_observations_are_the_callers_with_a_no_copy_vector_env() -> None:
    venv = SB3VecEnv(SyncVectorEnv([VECGYM_FNS["cartpole"]] * 2, copy=False))
    first = venv.reset()
    kept = first.copy()
    second, *_ = venv.step(np.array([0, 1]))
    np.testing.assert_array_equal(first, kept)  # the next step did not overwrite it
    assert not np.shares_memory(first, second)
    venv.close()


# --- the VecEnv API -------------------------------------------------------------------------------
@pytest.fixture(params=["sync", "async"])
def pair(request: pytest.FixtureRequest) -> Any:
    fns = [lambda: Monitor(gymnasium.make("CartPole-v1"))] * 2
    ours = SB3VecEnv(_vecgym_vector_env(request.param, fns, "SameStep"))
    theirs = DummyVecEnv(fns)
    yield ours, theirs
    ours.close()
    theirs.close()


def test_attribute_access_matches(pair: tuple[VecEnv, VecEnv]) -> None:
    ours, theirs = pair
    assert ours.get_attr("gravity") == theirs.get_attr("gravity") == [9.8, 9.8]
    assert ours.get_attr("x_threshold", indices=1) == theirs.get_attr("x_threshold", indices=1)
    for env in (ours, theirs):
        assert env.has_attr("gravity")
        assert not env.has_attr("no_such_attribute")
    ours.set_attr("gravity", [1.0, 2.0], indices=[0])  # one value, even a list, for every env
    assert ours.get_attr("gravity") == [[1.0, 2.0], 9.8]
    ours.set_attr("gravity", 3.0)
    assert ours.get_attr("gravity") == [3.0, 3.0]
    assert ours.env_method("get_wrapper_attr", "gravity", indices=[1]) == [3.0]
    ours.seed(1)
    theirs.seed(1)
    ours.reset()
    theirs.reset()
    assert ours.env_method("get_episode_rewards") == theirs.env_method("get_episode_rewards")
    assert ours.env_is_wrapped(Monitor) == theirs.env_is_wrapped(Monitor) == [True, True]
    assert ours.env_is_wrapped(gymnasium.wrappers.RecordVideo) == [False, False]
    assert ours.render_mode is None


def test_env_is_wrapped_sees_vecgym_and_gymnasium_layers() -> None:
    fns = [
        lambda: Monitor(
            to_gymnasium(vecgym.wrappers.ClipReward(vecgym.make("Pendulum-v1"), -1.0, 1.0))
        )
    ]
    for venv in (SyncVectorEnv(fns), AsyncVectorEnv(fns)):
        ours = SB3VecEnv(venv)
        assert ours.env_is_wrapped(Monitor) == [True]
        assert ours.env_is_wrapped(vecgym.wrappers.ClipReward) == [True]
        assert ours.env_is_wrapped(vecgym.wrappers.TimeLimit) == [True]
        assert ours.env_is_wrapped(vecgym.wrappers.RecordEpisodeStatistics) == [False]
        ours.close()


#: The processes that built an env through _recording_fn (each process appends to its own copy).
built_in_pids: list[int] = []


def _recording_fn(monitored: bool) -> Callable[[], Any]:
    def build() -> Any:
        built_in_pids.append(os.getpid())
        env = vecgym.wrappers.ClipReward(gymnasium.make("CartPole-v1"), -1.0, 1.0)
        return Monitor(to_gymnasium(env)) if monitored else env

    return build


def test_async_env_is_wrapped_asks_the_workers_and_builds_nothing_here() -> None:
    built_in_pids.clear()
    venv = AsyncVectorEnv([_recording_fn(True), _recording_fn(False), _recording_fn(True)])
    ours = SB3VecEnv(venv)
    try:
        assert ours.env_is_wrapped(Monitor) == [True, False, True]
        assert ours.env_is_wrapped(Monitor, indices=[1, 2]) == [False, True]
        assert ours.env_is_wrapped(vecgym.wrappers.ClipReward) == [True, True, True]
        assert ours.env_is_wrapped(gymnasium.wrappers.TimeLimit) == [True, True, True]
        assert ours.env_is_wrapped(vecgym.wrappers.RecordEpisodeStatistics) == [False] * 3
        # The question is a plain vector-env call, answered where each env lives.
        assert venv.call(IS_WRAPPED_CALL, Monitor, indices=[0]) == (True,)
        assert built_in_pids == []  # no env was built in this process
    finally:
        ours.close()
    sync = SyncVectorEnv([_recording_fn(True), _recording_fn(False)])
    assert sync.call(IS_WRAPPED_CALL, Monitor) == (True, False)
    assert SB3VecEnv(sync).env_is_wrapped(Monitor) == [True, False]
    assert built_in_pids == [os.getpid(), os.getpid()]
    sync.close()


def test_seed_and_options_are_used_by_the_next_reset_only() -> None:
    ours = SB3VecEnv(vecgym.make_vec("CartPole-v1", 2, "async", vector_kwargs={"num_workers": 1}))
    theirs = DummyVecEnv([VECGYM_FNS["cartpole"]] * 2)
    for env in (ours, theirs):
        assert env.seed(5) == [5, 6]
    _assert_same(ours.reset(), theirs.reset(), "seeded reset")
    for env in (ours, theirs):
        env.set_options({"low": 0.2, "high": 0.3})
    obs = ours.reset()
    assert ((obs >= 0.2) & (obs <= 0.3)).all()
    # different options per env: reset in groups
    for env in (ours, theirs):
        env.seed(9)
        env.set_options([{"low": -0.01, "high": 0.0}, {"low": 0.4, "high": 0.5}])
    _assert_same(ours.reset(), theirs.reset(), "grouped reset")
    assert ours._seeds == [None, None]
    assert ours._options == [{}, {}]
    ours.close()
    theirs.close()


def test_rendering_matches() -> None:
    fns = [lambda: gymnasium.make("CartPole-v1", render_mode="rgb_array")] * 2
    ours = SB3VecEnv(SyncVectorEnv(fns))
    theirs = DummyVecEnv(fns)
    for env in (ours, theirs):
        env.seed(0)
        env.reset()
    assert ours.render_mode == "rgb_array"
    _assert_same(ours.get_images(), theirs.get_images(), "images")
    _assert_same(ours.render(), theirs.render(), "tiled image")
    ours.close()
    theirs.close()
    plain = SB3VecEnv(SyncVectorEnv([VECGYM_FNS["cartpole"]]))
    with pytest.warns(UserWarning, match="rgb_array"):
        assert plain.get_images() == [None]
    plain.close()


def test_close_is_idempotent_and_closes_the_vector_env() -> None:
    venv = AsyncVectorEnv([VECGYM_FNS["cartpole"]] * 2, num_workers=1)
    ours = SB3VecEnv(venv)
    ours.close()
    ours.close()
    assert venv.closed


# --- SB3's wrappers and algorithms ----------------------------------------------------------------
@pytest.mark.parametrize(
    "wrap",
    [
        lambda v: VecNormalize(v, norm_obs=True, norm_reward=True),
        lambda v: VecFrameStack(v, n_stack=3),
        lambda v: VecMonitor(v),
    ],
    ids=["VecNormalize", "VecFrameStack", "VecMonitor"],
)
def test_sb3_vec_wrappers_give_the_same_results(wrap: Callable[[VecEnv], VecEnv]) -> None:
    fns = [ENV_FNS["cartpole"]] * NUM_ENVS
    ours = wrap(SB3VecEnv(AsyncVectorEnv(fns, autoreset_mode="SameStep", num_workers=2)))
    theirs = wrap(DummyVecEnv(fns))
    try:
        assert _run_side_by_side(ours, theirs, 80) > 0
    finally:
        ours.close()
        theirs.close()


@pytest.fixture
def one_torch_thread() -> Any:
    """Tiny networks on 2 busy cores: torch's extra threads only slow PPO down (20x here)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.usefixtures("one_torch_thread")
def test_ppo_trains_on_sb3_vec_env_and_on_a_converted_env() -> None:
    envs = make_sb3_vec_env("CartPole-v1", n_envs=2, seed=0, vector_kwargs={"num_workers": 2})
    assert isinstance(envs, VecEnv)
    assert envs.autoreset_mode is vecgym.vector.AutoresetMode.SAME_STEP
    model = PPO("MlpPolicy", envs, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    envs.close()
    single = PPO("MlpPolicy", to_gymnasium(vecgym.make("CartPole-v1")), n_steps=64, seed=0)
    single.learn(64)
    single.env.close()


@pytest.mark.parametrize("env_id", ["CartPole-v1", "Pendulum-v1", "Taxi-v4", "Blackjack-v1"])
def test_sb3_check_env_passes_on_converted_envs(env_id: str) -> None:
    env = to_gymnasium(vecgym.make(env_id))
    with warnings.catch_warnings():
        # SB3's advice (e.g. "normalize your Box action space") is not a failure
        warnings.simplefilter("ignore", UserWarning)
        check_env(env)
    env.close()


# --- helpers and errors ---------------------------------------------------------------------------
def test_unbatch_infos_splits_nested_infos() -> None:
    infos = {
        "a": np.array([1, 2, 3]),
        "_a": np.array([True, False, True]),
        "nested": {"b": np.array([0.5, 0.0, 0.0]), "_b": np.array([True, False, False])},
        "_nested": np.array([True, False, False]),
    }
    assert unbatch_infos(infos, 3) == [{"a": 1, "nested": {"b": 0.5}}, {}, {"a": 3}]


def test_bad_argument_and_missing_sb3() -> None:
    from vecgym.integrations._sb3_vec_env import NOT_VECTOR_ENV_MSG

    env = vecgym.make("CartPole-v1")
    with pytest.raises(TypeError) as info:
        SB3VecEnv(env)  # type: ignore[arg-type]
    assert str(info.value) == NOT_VECTOR_ENV_MSG.format(type=type(env))
    env.close()
    code = (
        "import sys\nsys.modules['stable_baselines3'] = None\n"
        "import vecgym\nimport vecgym.integrations.sb3 as m\n"
        "try:\n    m.SB3VecEnv\n"
        "except vecgym.error.DependencyNotInstalled as exc:\n"
        "    assert str(exc) == m.SB3_EXTRA_MSG, exc\n    print('raised')\n"
    )
    assert python_stdout(code) == "raised"
    assert "vecgym[sb3]" in vecgym_sb3.SB3_EXTRA_MSG
