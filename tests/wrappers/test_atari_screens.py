"""``AtariPreprocessing`` skips the screens it throws away, on real ALE games, and only then.

Inside a repetition the wrapper reads the screens it needs from the ALE itself, so the
observation each repeated frame's ``env.step`` returns is dropped. When the layers between the
wrapper and ale-py's ``AtariEnv`` only pass observations up, those frames return the RAM instead
of a screen copy; a layer that might read the observation keeps the screens. Results equal
Gymnasium's wrapper either way (``test_atari_opencv.py`` and below).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.rollouts import assert_same_rollouts, rollout
from vecgym.wrappers import AtariPreprocessing, FrameStackObservation, TransformObservation
from vecgym.wrappers.atari_preprocessing import _ale_screen_source, _raw_env

gymnasium = pytest.importorskip("gymnasium")
ale_py = pytest.importorskip("ale_py", reason="Atari envs need the `atari` extra")
gymnasium.register_envs(ale_py)

ENV_ID = "ALE/Pong-v5"


def _spy_obs_types(env: Any) -> tuple[Any, list[str]]:
    """ale-py's ``AtariEnv`` under ``env`` and the list its ``_get_obs`` calls append their
    observation type to (the real method still runs)."""
    raw = _raw_env(env)
    assert type(raw).__module__ == "ale_py.env"
    seen: list[str] = []
    real_get_obs = raw._get_obs

    def get_obs() -> Any:
        seen.append(raw._obs_type)
        return real_get_obs()

    raw._get_obs = get_obs
    return raw, seen


def _step_randomly(env: Any, steps: int, seed: int = 3) -> None:
    env.action_space.seed(seed)
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()


def test_repeated_frames_return_ram_once_the_checks_are_done() -> None:
    env = AtariPreprocessing(vecgym.make(ENV_ID, frameskip=1), noop_max=0)
    raw, seen = _spy_obs_types(env)
    env.reset(seed=0)
    assert _ale_screen_source(env.env) is None  # the env checker has not seen a step yet
    env.step(0)  # its checks: the first two frames' screens are looked at
    assert seen[:2] == ["rgb", "rgb"]
    assert _ale_screen_source(env.env) is raw
    seen.clear()
    _step_randomly(env, 20)
    assert seen
    assert set(seen) == {"ram"}
    assert raw._obs_type == "rgb"  # restored after every step
    env.close()


def test_noop_reset_frames_return_ram_after_the_first_steps() -> None:
    env = AtariPreprocessing(vecgym.make(ENV_ID, frameskip=1), noop_max=30)
    raw, seen = _spy_obs_types(env)
    env.reset(seed=0)
    env.step(0)
    seen.clear()
    env.reset(seed=1)
    reset_obs_types = seen[:1]
    assert reset_obs_types == ["rgb"]  # the env's own reset observation is its screen
    assert len(seen) > 1
    assert set(seen[1:]) == {"ram"}
    assert raw._obs_type == "rgb"


def test_a_layer_that_may_read_observations_keeps_the_screens() -> None:
    shapes: list[tuple[int, ...]] = []

    def look(obs: Any) -> Any:
        shapes.append(np.shape(obs))
        return obs

    base = vecgym.make(ENV_ID, frameskip=1)
    env = AtariPreprocessing(TransformObservation(base, look, base.observation_space), noop_max=0)
    _, seen = _spy_obs_types(env)
    env.reset(seed=0)
    _step_randomly(env, 10)
    assert _ale_screen_source(env.env) is None
    assert set(seen) == {"rgb"}
    assert shapes
    assert set(shapes) == {(210, 160, 3)}


def test_an_error_inside_the_repetition_restores_the_observation_type() -> None:
    env = AtariPreprocessing(vecgym.make(ENV_ID, frameskip=1), noop_max=0)
    raw, _ = _spy_obs_types(env)
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(IndexError):
        env.step(99)  # ale-py indexes its action set with it
    assert raw._obs_type == "rgb"
    _step_randomly(env, 3)


@pytest.mark.parametrize(
    ("base_kwargs", "make_ours", "statistics", "options"),
    [
        ({"obs_type": "grayscale"}, vecgym.make, False, {}),
        ({"max_episode_steps": 50}, vecgym.make, False, {"noop_max": 5}),
        ({}, gymnasium.make, False, {"terminal_on_life_loss": True}),
        ({"max_episode_steps": 40}, vecgym.make, True, {}),
        ({"max_episode_steps": 40}, gymnasium.make, True, {}),
    ],
    ids=["grayscale-env", "time-limit", "gymnasium-env", "statistics", "gymnasium-statistics"],
)
def test_skipping_screens_keeps_gymnasiums_results(
    base_kwargs: dict[str, Any],
    make_ours: Callable[..., Any],
    statistics: bool,
    options: dict[str, Any],
) -> None:
    ours_base = make_ours(ENV_ID, frameskip=1, **base_kwargs)
    theirs_base = gymnasium.make(ENV_ID, frameskip=1, **base_kwargs)
    if statistics:  # that library's own, between the env and the preprocessing
        library = gymnasium if make_ours is gymnasium.make else vecgym
        ours_base = library.wrappers.RecordEpisodeStatistics(ours_base)
        theirs_base = gymnasium.wrappers.RecordEpisodeStatistics(theirs_base)
    ours = FrameStackObservation(AtariPreprocessing(ours_base, **options), 4)
    theirs = gymnasium.wrappers.FrameStackObservation(
        gymnasium.wrappers.AtariPreprocessing(theirs_base, **options), 4
    )
    _, seen = _spy_obs_types(ours)
    ours_record, theirs_record = rollout(ours, 11, 150), rollout(theirs, 11, 150)
    assert_same_rollouts(ours_record, theirs_record, ignore_wall_time=statistics)
    assert "ram" in seen
    if statistics:  # the statistics wrapper between saw episodes end
        assert any("episode" in result[-1] for result in ours_record if len(result) == 5)
