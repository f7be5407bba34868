"""vecgym.utils.env_match against Gymnasium's ``check_environments_match``.

Each case is a pair of probe environments that differ in one way (or not at all) and the options
of the check. Gymnasium's check and vecgym's run on fresh copies of the same pair, of vecgym's
and of Gymnasium's classes: where Gymnasium's passes, vecgym's passes; where Gymnasium's raises,
vecgym's raises an instance of the same type, and always an ``AssertionError``. Both checks feed
the envs the same actions. The documented differences (lists of frames, ``python -O``) are shown
next to Gymnasium's behaviour.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.utils.env_match import (
    ACTION_SPACES_DIFFER_MSG,
    INFO_KEY_MISSING_MSG,
    INFO_KEYS_MISSING_MSG,
    INFO_VALUE_DIFFERS_MSG,
    INFOS_DIFFER_MSG,
    OBS_DIFFER_MSG,
    OBSERVATION_SPACES_DIFFER_MSG,
    RENDER_SHAPES_DIFFER_MSG,
    RENDERS_DIFFER_MSG,
    REWARDS_DIFFER_MSG,
    TERMINATED_DIFFER_MSG,
    TRUNCATED_DIFFER_MSG,
    UNKNOWN_INFO_COMPARISON_MSG,
    check_environments_match,
)

LIBRARIES = ["vecgym", "gymnasium"]


def library(name: str) -> Any:
    """``vecgym`` or ``gymnasium`` (the test is skipped where Gymnasium is missing)."""
    return pytest.importorskip(name)


def probe_env(
    lib: Any,
    *,
    obs_shift: float = 0.0,
    from_step: int = 0,
    later_reset_shift: float = 0.0,
    obs_high: float = 10.0,
    actions: int = 3,
    reward_scale: float = 1.0,
    end_at: int | None = None,
    truncate_at: int | None = None,
    info_value: int = 0,
    info_extra: dict[str, Any] | None = None,
    render_mode: str | None = "rgb_array",
    render_value: int = 0,
    render_shape: tuple[int, ...] = (4, 5, 3),
) -> Any:
    """A probe of ``lib`` that differs from the default one as its arguments say.

    ``obs_shift`` is added to the observations and ``render_value`` to the frames from the step at
    which ``t`` reaches ``from_step`` (0: from the first reset); ``later_reset_shift`` to the
    observations of every reset but the first. Episodes end at ``end_at`` (terminated) or
    ``truncate_at`` (truncated) steps.
    """

    class Probe(lib.Env):  # type: ignore[misc,name-defined]
        metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 4}

        def __init__(self) -> None:
            self.render_mode = render_mode
            self.observation_space = lib.spaces.Box(-10.0, obs_high, (2,), dtype=np.float32)
            self.action_space = lib.spaces.Discrete(actions)
            self.received: list[int] = []
            self.resets = 0
            self.t = 0
            self.x = np.zeros(2, dtype=np.float32)

        def _obs(self) -> np.ndarray:
            shift = obs_shift if self.t >= from_step else 0.0
            shift += later_reset_shift if self.resets > 1 else 0.0
            return (self.x + shift).astype(np.float32)

        def _info(self) -> dict[str, Any]:
            return {"t": self.t, "v": info_value, **(info_extra or {})}

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            super().reset(seed=seed)
            self.resets += 1
            self.t = 0
            self.x = self.np_random.uniform(-1, 1, size=2).astype(np.float32)
            return self._obs(), self._info()

        def step(self, action: Any) -> Any:
            self.received.append(int(action))
            self.t += 1
            self.x = self.x + np.float32(0.1 * (int(action) - 1))
            terminated = end_at is not None and self.t >= end_at
            truncated = truncate_at is not None and self.t >= truncate_at
            return self._obs(), float(action) * reward_scale, terminated, truncated, self._info()

        def render(self) -> np.ndarray:
            value = render_value if self.t >= from_step else 0
            return np.full(render_shape, value + self.t, dtype=np.uint8)

    return Probe()


def gymnasium_check() -> Callable[..., None]:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_match import check_environments_match as theirs

    return theirs  # type: ignore[no-any-return]


def outcome(check: Callable[..., None], env_a: Any, env_b: Any, **kwargs: Any) -> Any:
    """The exception ``check(env_a, env_b, **kwargs)`` raised, or ``None``."""
    try:
        check(env_a, env_b, **kwargs)
    except Exception as exc:
        return exc
    return None


#: (id, env_a's arguments, env_b's arguments, the check's options, what vecgym raises or None,
#: the message template vecgym's error matches and its fields)
CASES: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any], Any, Any]] = [
    ("identical", {}, {}, {}, None, None),
    ("identical-0-steps", {}, {}, {"num_steps": 0}, None, None),
    ("episodes-end", {"end_at": 3}, {"end_at": 3}, {}, None, None),
    (
        "obs-from-step-3",
        {},
        {"obs_shift": 0.5, "from_step": 3},
        {},
        AssertionError,
        (OBS_DIFFER_MSG, {"when": "at step 2"}),
    ),
    (
        "obs-at-reset",
        {},
        {"obs_shift": 0.5},
        {},
        AssertionError,
        (OBS_DIFFER_MSG, {"when": "after the first reset"}),
    ),
    ("obs-skipped", {}, {"obs_shift": 0.5}, {"skip_obs": True}, None, None),
    (
        "obs-at-a-later-reset",
        {"end_at": 3},
        {"end_at": 3, "later_reset_shift": 1.0},
        {},
        AssertionError,
        (OBS_DIFFER_MSG, {"when": "at the reset after step 2"}),
    ),
    (
        "obs-space",
        {},
        {"obs_high": 20.0},
        {},
        AssertionError,
        (OBSERVATION_SPACES_DIFFER_MSG, {}),
    ),
    ("obs-space-skipped", {}, {"obs_high": 20.0}, {"skip_obs": True}, None, None),
    ("action-space", {}, {"actions": 4}, {}, AssertionError, (ACTION_SPACES_DIFFER_MSG, {})),
    (
        "action-space-not-skipped-by-skip-obs",
        {},
        {"actions": 4},
        {"skip_obs": True},
        AssertionError,
        (ACTION_SPACES_DIFFER_MSG, {}),
    ),
    ("reward", {}, {"reward_scale": 2.0}, {}, AssertionError, (REWARDS_DIFFER_MSG, {})),
    ("reward-skipped", {}, {"reward_scale": 2.0}, {"skip_rew": True}, None, None),
    (
        "terminated",
        {},
        {"end_at": 5},
        {},
        AssertionError,
        (TERMINATED_DIFFER_MSG, {"when": "at step 4", "a": False, "b": True}),
    ),
    ("terminated-skipped", {}, {"end_at": 5}, {"skip_terminal": True}, None, None),
    (
        "truncated",
        {},
        {"truncate_at": 3},
        {},
        AssertionError,
        (TRUNCATED_DIFFER_MSG, {"when": "at step 2", "a": False, "b": True}),
    ),
    ("truncated-skipped", {}, {"truncate_at": 3}, {"skip_truncated": True}, None, None),
    ("info-value", {}, {"info_value": 1}, {}, AssertionError, (INFOS_DIFFER_MSG, {})),
    (
        "info-value-superset",
        {},
        {"info_value": 1},
        {"info_comparison": "superset"},
        AssertionError,
        (INFO_VALUE_DIFFERS_MSG, {"key": "v", "when": "after the first reset"}),
    ),
    (
        "info-value-keys-equivalence",
        {},
        {"info_value": 1},
        {"info_comparison": "keys-equivalence"},
        None,
        None,
    ),
    ("info-value-skip", {}, {"info_value": 1}, {"info_comparison": "skip"}, None, None),
    ("info-b-has-more", {}, {"info_extra": {"more": 1}}, {}, AssertionError, None),
    (
        "info-b-has-more-superset",
        {},
        {"info_extra": {"more": 1}},
        {"info_comparison": "superset"},
        None,
        None,
    ),
    (
        "info-b-has-more-keys-equivalence",
        {},
        {"info_extra": {"more": 1}},
        {"info_comparison": "keys-equivalence"},
        AssertionError,
        None,
    ),
    (
        "info-b-has-more-keys-superset",
        {},
        {"info_extra": {"more": 1}},
        {"info_comparison": "keys-superset"},
        None,
        None,
    ),
    (
        # Gymnasium's lookup raises KeyError: vecgym's AssertionError is a KeyError too
        "info-a-has-more-superset",
        {"info_extra": {"more": 1}},
        {},
        {"info_comparison": "superset"},
        KeyError,
        (INFO_KEY_MISSING_MSG, {"key": "more", "when": "after the first reset"}),
    ),
    (
        "info-a-has-more-keys-superset",
        {"info_extra": {"more": 1}},
        {},
        {"info_comparison": "keys-superset"},
        AssertionError,
        (INFO_KEYS_MISSING_MSG, {"missing": ["more"]}),
    ),
    (
        "render",
        {},
        {"render_value": 1},
        {},
        AssertionError,
        (RENDERS_DIFFER_MSG, {"when": "after the first reset"}),
    ),
    ("render-skipped", {}, {"render_value": 1}, {"skip_render": True}, None, None),
    ("render-mode-none", {}, {"render_value": 1, "render_mode": None}, {}, None, None),
    ("render-mode-human", {"render_mode": "human"}, {"render_value": 1}, {}, None, None),
    (
        # numpy cannot broadcast the frames in Gymnasium (ValueError): vecgym's is one too
        "render-shape",
        {},
        {"render_shape": (5, 4, 3)},
        {},
        ValueError,
        (RENDER_SHAPES_DIFFER_MSG, {"a": (4, 5, 3), "b": (5, 4, 3)}),
    ),
]


@pytest.mark.parametrize("lib_name", LIBRARIES)
@pytest.mark.parametrize(
    ("kwargs_a", "kwargs_b", "options", "expected", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_check_matches_gymnasium(
    lib_name: str,
    kwargs_a: dict[str, Any],
    kwargs_b: dict[str, Any],
    options: dict[str, Any],
    expected: Any,
    message: Any,
) -> None:
    lib = library(lib_name)
    options = {"num_steps": 12, "seed": 3, **options}
    received = []
    outcomes = []
    for check in (check_environments_match, gymnasium_check()):
        env_a, env_b = probe_env(lib, **kwargs_a), probe_env(lib, **kwargs_b)
        outcomes.append(outcome(check, env_a, env_b, **options))
        received.append((env_a.received, env_b.received))
    ours, theirs = outcomes
    assert received[0] == received[1]  # the same actions, as far as each check went
    if theirs is None:
        assert ours is None
        assert expected is None
        assert len(received[0][0]) == options["num_steps"]
        return
    assert isinstance(ours, type(theirs)), f"Gymnasium raised {theirs!r}, vecgym {ours!r}"
    assert isinstance(ours, AssertionError)
    assert isinstance(ours, expected)
    if message is not None:
        template, fields = message
        assert re.search(message_pattern(template, **fields), str(ours)), str(ours)


def test_the_same_seed_gives_the_same_actions() -> None:
    """Both checks seed ``env_a``'s action space and send its samples to both envs."""
    runs = []
    for check in (check_environments_match, gymnasium_check()):
        env_a, env_b = probe_env(vecgym), probe_env(vecgym)
        check(env_a, env_b, num_steps=30, seed=11)
        runs.append((env_a.received, env_b.received))
    assert runs[0] == runs[1]
    assert runs[0][0] == runs[0][1]
    assert len(set(runs[0][0])) == 3


@pytest.mark.parametrize("lib_name", LIBRARIES)
def test_real_environments(lib_name: str) -> None:
    lib = library(lib_name)
    for check in (check_environments_match, gymnasium_check()):
        check(lib.make("CartPole-v1"), lib.make("CartPole-v1"), num_steps=200, seed=1)
        with pytest.raises(AssertionError):
            check(
                lib.make("CartPole-v1"),
                lib.make("CartPole-v1", max_episode_steps=7),
                num_steps=20,
                seed=1,
            )
        check(
            lib.make("CartPole-v1", render_mode="rgb_array"),
            lib.make("CartPole-v1", render_mode="rgb_array"),
            num_steps=5,
        )


def test_a_vecgym_env_matches_gymnasiums_in_both_libraries_checks() -> None:
    """vecgym's spaces equal Gymnasium's equal spaces (either way round) and its CartPole steps as
    Gymnasium's, seed for seed: both libraries' checks pass on the pair, and fail on spaces that
    differ."""
    gymnasium = pytest.importorskip("gymnasium")
    for check in (check_environments_match, gymnasium_check()):
        check(vecgym.make("CartPole-v1"), gymnasium.make("CartPole-v1"), num_steps=50, seed=3)
        check(gymnasium.make("CartPole-v1"), vecgym.make("CartPole-v1"), num_steps=50, seed=3)
        with pytest.raises(AssertionError):
            check(vecgym.make("CartPole-v1"), gymnasium.make("MountainCar-v0"), num_steps=5)
    with pytest.raises(AssertionError, match=message_pattern(ACTION_SPACES_DIFFER_MSG)):
        check_environments_match(
            vecgym.make("CartPole-v1"), gymnasium.make("MountainCar-v0"), num_steps=5
        )


# --- differences on purpose -----------------------------------------------------------------------
def test_lists_of_frames_are_compared_frame_by_frame() -> None:
    """``rgb_array_list`` renders: Gymnasium's ``==`` on two lists of arrays raises numpy's
    ValueError whether or not they match; vecgym compares them."""
    wrap = vecgym.wrappers.RenderCollection
    with pytest.raises(ValueError, match="truth value"):
        gymnasium_check()(wrap(probe_env(vecgym)), wrap(probe_env(vecgym)), num_steps=3)
    check_environments_match(wrap(probe_env(vecgym)), wrap(probe_env(vecgym)), num_steps=8)
    env_b = wrap(probe_env(vecgym, render_value=1))
    pattern = message_pattern(RENDERS_DIFFER_MSG, when="after the first reset")
    with pytest.raises(AssertionError, match=pattern):
        check_environments_match(wrap(probe_env(vecgym)), env_b, num_steps=8)
    env_b = wrap(probe_env(vecgym, render_value=1, from_step=2))
    with pytest.raises(AssertionError, match=message_pattern(RENDERS_DIFFER_MSG, when="at step 1")):
        check_environments_match(wrap(probe_env(vecgym)), env_b, num_steps=8)


def test_checks_survive_python_O() -> None:
    """Gymnasium's ``assert`` statements vanish under ``python -O``; vecgym's checks do not."""
    pytest.importorskip("gymnasium")
    code = (
        "import vecgym\n"
        "from gymnasium.utils.env_match import check_environments_match as theirs\n"
        "from vecgym.utils.env_match import check_environments_match as ours\n"
        "def pair():\n"
        "    return vecgym.make('CartPole-v1'), vecgym.make('CartPole-v1', max_episode_steps=3)\n"
        "theirs(*pair(), num_steps=10)\n"
        "try:\n"
        "    ours(*pair(), num_steps=10)\n"
        "except AssertionError as exc:\n"
        "    print('raised:', exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("raised: the truncated flags differ at step 2")


def test_an_unknown_info_comparison_is_an_invalid_argument() -> None:
    """Gymnasium fails an ``assert``; vecgym raises its typed error for a bad argument, before
    touching the envs (tests/test_exception_compat.py has the row)."""
    env_a, env_b = probe_env(vecgym), probe_env(vecgym)
    pattern = message_pattern(UNKNOWN_INFO_COMPARISON_MSG, value="nope")
    with pytest.raises(error.InvalidArgument, match=pattern):
        check_environments_match(env_a, env_b, num_steps=3, info_comparison="nope")
    assert env_a.resets == env_b.resets == 0
    with pytest.raises(AssertionError):
        gymnasium_check()(env_a, env_b, num_steps=3, info_comparison="nope")


def test_key_error_hybrid_reads_as_a_message() -> None:
    env_a, env_b = probe_env(vecgym, info_extra={"more": 1}), probe_env(vecgym)
    with pytest.raises(KeyError) as info:
        check_environments_match(env_a, env_b, num_steps=1, info_comparison="superset")
    assert str(info.value).startswith("info_b lacks the key 'more'")
