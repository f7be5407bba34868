"""vecgym.utils.play against Gymnasium's, with the real pygame (headless) and matplotlib (Agg).

Every ``play`` loop here is driven by real pygame events that the environment's ``render`` posts
(``tests/support/play_driver.py``) and ends with a ``QUIT`` after a known number of turns. The
differential tests run Gymnasium's ``play`` and vecgym's on the same environment with the same
script and compare the transitions handed to the callback, the frames handed to pygame, the
clock's frame rates and the window's pixels. Where vecgym differs on purpose (the reset pair that
Gymnasium hands the first step of an episode, the empty key combination, an empty
``rgb_array_list`` render while waiting), the tests show Gymnasium's behaviour next to vecgym's.
"""

from __future__ import annotations

import importlib
import re
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.headless_pygame import PygameRecord
from tests.support.messages import message_pattern
from tests.support.play_driver import (
    PlayRun,
    down,
    echo_env,
    episode_starts,
    escape,
    gymnasium_play,
    library,
    resized,
    run_differences,
    run_play,
    scripted,
    up,
    without_reset_pairs,
)
from vecgym import error
from vecgym.utils import play as play_module
from vecgym.utils.play import (
    FRAME_MSG,
    KEY_ACTION_MSG,
    KEY_TYPE_MSG,
    KEYS_NONE_MSG,
    KEYS_NOT_DICT_MSG,
    METRIC_COUNT_MSG,
    MISSING_KEYS_MSG,
    NO_FRAME_MSG,
    PLAY_PLOT_EXTRA_MSG,
    PLAY_PYGAME_EXTRA_MSG,
    PLAY_RENDER_MODE_MSG,
    PLAY_ZOOM_MSG,
    RENDER_FPS_MSG,
    SIZE_FRAME_MSG,
    MissingKeysToAction,
    PlayableGame,
    PlayPlot,
    display_arr,
    play,
)

LIBRARIES = ["vecgym", "gymnasium"]
KEYS = {"a": 1, "b": 2, "ab": 3, (ord("c"),): 4}

#: Presses, releases and combinations over three episodes of the echo env (4 steps each, a reset
#: turn between): a, then a+b, b, an unbound key held with b, nothing, c, then b before a.
BASIC_SCRIPT = {
    1: [down("a")],
    2: [down("b")],
    3: [up("a")],
    4: [down("z")],
    5: [up("b")],
    6: [down("c")],
    7: [up("c"), down("b")],
    8: [down("a")],
    9: [up("a"), up("b"), up("z")],
}

#: Keys held on some turns only, for ``wait_on_player``: the loop steps only while one is held.
WAIT_SCRIPT = {
    2: [down("a")],
    3: [up("a")],
    6: [down("b")],
    8: [up("b")],
    9: [down("a"), down("b")],
    10: [up("a"), up("b")],
}


def make_env(lib_name: str, kind: str, **kwargs: Any) -> Any:
    """A fresh environment of a library: the echo env, CartPole or the echo env collecting its
    frames (``rgb_array_list``, through ``RenderCollection``)."""
    lib = library(lib_name)
    if kind == "echo":
        return echo_env(lib, **kwargs)
    if kind == "echo-list":
        return lib.wrappers.RenderCollection(echo_env(lib, **kwargs))
    return lib.make("CartPole-v1", render_mode="rgb_array", **kwargs)


def both_runs(
    record: PygameRecord,
    lib_name: str,
    kind: str,
    script: dict[int, Any],
    quit_on: int,
    env_kwargs: dict[str, Any] | None = None,
    **play_kwargs: Any,
) -> tuple[PlayRun, PlayRun]:
    """(vecgym's run, Gymnasium's run) of the same script on two fresh copies of the same env."""
    gym_play = gymnasium_play().play
    lib = library(lib_name)
    runs = []
    for play_fn in (play, gym_play):
        env = scripted(lib, make_env(lib_name, kind, **(env_kwargs or {})), script, quit_on)
        runs.append(run_play(play_fn, env, record, **play_kwargs))
        env.close()
    return runs[0], runs[1]


def assert_same_as_gymnasium(ours: PlayRun, theirs: PlayRun) -> None:
    """The runs agree, once the reset pairs Gymnasium hands as ``obs_t`` are undone; those are
    exactly the first steps of the episodes, and vecgym hands plain observations there."""
    fixed, pair_indices = without_reset_pairs(theirs)
    assert pair_indices == episode_starts(theirs)
    assert pair_indices, "the run should have steps"
    assert all(not isinstance(t[0], tuple) for t in ours.transitions)
    assert run_differences(ours, fixed) == []


# --- differential: play ---------------------------------------------------------------------------
@pytest.mark.parametrize("lib_name", LIBRARIES)
@pytest.mark.parametrize("kind", ["echo", "cartpole", "echo-list"])
def test_play_matches_gymnasium(pygame_window: PygameRecord, lib_name: str, kind: str) -> None:
    ours, theirs = both_runs(
        pygame_window,
        lib_name,
        kind,
        BASIC_SCRIPT,
        quit_on=13,
        keys_to_action=KEYS if kind != "cartpole" else {"a": 1, "b": 0, "ab": 1},
        seed=5,
        fps=1000,
    )
    assert_same_as_gymnasium(ours, theirs)
    assert ours.turns == 13
    assert len(ours.shown) == 13
    assert ours.ticks == [1000] * 13


@pytest.mark.parametrize("lib_name", LIBRARIES)
def test_actions_follow_the_keys_held(pygame_window: PygameRecord, lib_name: str) -> None:
    """The echo env's actions are exactly the keys of BASIC_SCRIPT (see its comment)."""
    ours, theirs = both_runs(
        pygame_window, lib_name, "echo", BASIC_SCRIPT, quit_on=13, keys_to_action=KEYS, seed=5
    )
    assert_same_as_gymnasium(ours, theirs)
    actions = [transition[2] for transition in ours.transitions]
    # turns 2-5 step, 6 resets, 7-10 step, 11 resets, 12-13 step
    assert actions == [1, 3, 2, 2, 4, 2, 3, 0, 0, 0]
    assert [t[3] for t in ours.transitions] == [float(a) for a in actions]
    assert [t[4] for t in ours.transitions] == [False, False, False, True] * 2 + [False] * 2
    # one seed for every reset: every episode starts alike
    starts = {int(t[0][0]) for t in ours.transitions}
    assert len(starts) == 1


@pytest.mark.parametrize("lib_name", LIBRARIES)
def test_wait_on_player_steps_only_while_keys_are_held(
    pygame_window: PygameRecord, lib_name: str
) -> None:
    ours, theirs = both_runs(
        pygame_window,
        lib_name,
        "echo",
        WAIT_SCRIPT,
        quit_on=12,
        keys_to_action=KEYS,
        seed=1,
        wait_on_player=True,
    )
    assert_same_as_gymnasium(ours, theirs)
    assert [t[2] for t in ours.transitions] == [1, 2, 2, 3]
    assert ours.turns == 12
    assert len(ours.shown) == 12  # a frame every turn, stepped or not


@pytest.mark.parametrize("lib_name", LIBRARIES)
@pytest.mark.parametrize(
    ("keys", "zoom", "transpose"),
    [
        ({(ord("a"),): 1, ("b",): 2, (ord("a"), "b"): 3, ord("c"): 4}, 3, True),
        ({"ba": 3, ("a",): 1, "b": 2, "c": 4}, 2.5, False),
        (KEYS, None, None),
    ],
)
def test_key_forms_zoom_and_transpose_match_gymnasium(
    pygame_window: PygameRecord, lib_name: str, keys: dict[Any, int], zoom: Any, transpose: Any
) -> None:
    ours, theirs = both_runs(
        pygame_window,
        lib_name,
        "echo",
        BASIC_SCRIPT,
        quit_on=10,
        keys_to_action=keys,
        seed=3,
        zoom=zoom,
        transpose=transpose,
    )
    assert_same_as_gymnasium(ours, theirs)
    assert [t[2] for t in ours.transitions][:6] == [1, 3, 2, 2, 4, 2]
    width, height = 10, 6
    scale = zoom or 1
    assert ours.pixels[0].shape == (int(height * scale), int(width * scale), 3)
    expected_shown = (width, height, 3) if transpose else (height, width, 3)
    assert ours.shown[0].shape == expected_shown


@pytest.mark.parametrize("lib_name", LIBRARIES)
@pytest.mark.parametrize(("render_fps", "ticks"), [(500, 500), (None, 30), (np.int64(400), 400)])
def test_fps_defaults_to_the_metadata(
    pygame_window: PygameRecord, lib_name: str, render_fps: Any, ticks: int
) -> None:
    lib = library(lib_name)
    if isinstance(render_fps, np.integer):
        # Gymnasium refuses a numpy integer (TypeError); vecgym takes it
        env = scripted(lib, echo_env(lib, render_fps=render_fps), {}, 3)
        with pytest.raises(TypeError):
            run_play(gymnasium_play().play, env, pygame_window, keys_to_action=KEYS)
        pygame_window.pygame.quit()  # Gymnasium's play leaves its window open when it raises
        env = scripted(lib, echo_env(lib, render_fps=render_fps), {}, 3)
        ours = run_play(play, env, pygame_window, keys_to_action=KEYS)
        assert ours.ticks == [ticks] * 3
        return
    ours, theirs = both_runs(
        pygame_window,
        lib_name,
        "echo",
        {},
        quit_on=3,
        env_kwargs={"render_fps": render_fps},
        keys_to_action=KEYS,
        seed=0,
    )
    assert run_differences(ours, without_reset_pairs(theirs)[0]) == []
    assert ours.ticks == [ticks] * 3


@pytest.mark.parametrize("lib_name", LIBRARIES)
def test_escape_ends_the_game_unless_it_is_bound(
    pygame_window: PygameRecord, lib_name: str
) -> None:
    pygame = pygame_window.pygame
    ours, theirs = both_runs(
        pygame_window, lib_name, "echo", {3: [escape()]}, quit_on=50, keys_to_action=KEYS, seed=0
    )
    assert_same_as_gymnasium(ours, theirs)
    assert ours.turns == 3

    bound = {**KEYS, (pygame.K_ESCAPE,): 4}
    script = {3: [escape()], 4: [up(pygame.K_ESCAPE)]}
    ours, theirs = both_runs(
        pygame_window, lib_name, "echo", script, quit_on=6, keys_to_action=bound, seed=0
    )
    assert_same_as_gymnasium(ours, theirs)
    assert ours.turns == 6
    assert [t[2] for t in ours.transitions] == [0, 0, 4, 0]


@pytest.mark.parametrize("lib_name", LIBRARIES)
def test_resizing_the_window_rescales_the_frames(
    pygame_window: PygameRecord, lib_name: str
) -> None:
    script = {2: [resized(45, 12)], 4: [resized(7, 40)], 6: [resized(30, 18)]}
    ours, theirs = both_runs(
        pygame_window, lib_name, "echo", script, quit_on=8, keys_to_action=KEYS, zoom=3, seed=2
    )
    assert_same_as_gymnasium(ours, theirs)
    # the dummy window keeps its size (30 x 18); the frames drawn on turn 3 (seen at the callback
    # of turn 4, the third step) are 20 x 12, centred between black bars
    window = ours.pixels[2]
    assert window.shape == (18, 30, 3)
    assert not window[:3].any()
    assert not window[:, :5].any()
    assert window[9, 15].any()


def test_a_gymnasium_env_plays_in_vecgym_and_the_reverse(pygame_window: PygameRecord) -> None:
    """vecgym's play takes Gymnasium's envs (and Gymnasium's takes vecgym's): the same seeds give
    the same CartPole transitions in all four pairings."""
    gym_play = gymnasium_play().play
    runs = {}
    for play_name, play_fn in [("vecgym", play), ("gymnasium", gym_play)]:
        for env_name in LIBRARIES:
            lib = library(env_name)
            env = scripted(lib, make_env(env_name, "cartpole"), BASIC_SCRIPT, 12)
            run = run_play(play_fn, env, pygame_window, keys_to_action={"a": 1}, seed=9, fps=999)
            env.close()
            runs[play_name, env_name] = without_reset_pairs(run)[0]
    reference = runs["vecgym", "vecgym"].transitions
    for run in runs.values():
        assert len(run.transitions) == len(reference)
        for ours, theirs in zip(run.transitions, reference, strict=True):
            assert np.array_equal(ours[1], theirs[1])
            assert ours[2:5] == theirs[2:5]


# --- differences on purpose -----------------------------------------------------------------------
@pytest.mark.parametrize("lib_name", LIBRARIES)
def test_the_empty_combination_binds_the_no_key_action(
    pygame_window: PygameRecord, lib_name: str
) -> None:
    """MountainCar's own mapping binds ``()``; Gymnasium's play refuses it, vecgym's plays it."""
    lib = library(lib_name)
    script = {2: [down(276)], 3: [down(275)], 4: [up(276)], 5: [up(275)]}

    env = scripted(lib, lib.make("MountainCar-v0", render_mode="rgb_array"), script, 7)
    with pytest.raises(ValueError):
        run_play(gymnasium_play().play, env, pygame_window, fps=999)
    env.close()

    env = scripted(lib, lib.make("MountainCar-v0", render_mode="rgb_array"), script, 7)
    run = run_play(play, env, pygame_window, fps=999, seed=0)
    env.close()
    assert [t[2] for t in run.transitions] == [1, 0, 1, 2, 1, 1]

    env = scripted(lib, echo_env(lib), {1: [down("a")], 2: [up("a")]}, 4)
    run = run_play(play, env, pygame_window, keys_to_action={"": 3, "a": 1}, seed=0)
    assert [t[2] for t in run.transitions] == [1, 3, 3]


def test_waiting_keeps_the_last_frame_of_an_rgb_array_list_env(
    pygame_window: PygameRecord,
) -> None:
    """Gymnasium's play indexes the empty list an ``rgb_array_list`` env renders when it has not
    stepped; vecgym's shows the last frame again."""
    gym_play = gymnasium_play().play

    def env() -> Any:
        return scripted(vecgym, make_env("vecgym", "echo-list"), WAIT_SCRIPT, 12)

    with pytest.raises(IndexError):
        run_play(gym_play, env(), pygame_window, keys_to_action=KEYS, wait_on_player=True)
    pygame_window.pygame.quit()  # Gymnasium's play leaves the window open when it raises

    listed = run_play(play, env(), pygame_window, keys_to_action=KEYS, wait_on_player=True, seed=4)
    plain_env = scripted(vecgym, make_env("vecgym", "echo"), WAIT_SCRIPT, 12)
    plain = run_play(
        play, plain_env, pygame_window, keys_to_action=KEYS, wait_on_player=True, seed=4
    )
    assert run_differences(listed, plain) == []
    assert [t[2] for t in listed.transitions] == [1, 2, 2, 3]


@pytest.mark.parametrize("wait_on_player", [0, None])
def test_wait_on_player_is_read_by_truth_value(
    pygame_window: PygameRecord, wait_on_player: Any
) -> None:
    env = scripted(vecgym, echo_env(vecgym), {}, 4)
    run = run_play(play, env, pygame_window, keys_to_action=KEYS, wait_on_player=wait_on_player)
    assert [t[2] for t in run.transitions] == [0, 0, 0]  # steps with noop: no waiting


def test_play_closes_the_window_when_the_callback_raises(pygame_window: PygameRecord) -> None:
    env = scripted(vecgym, echo_env(vecgym), {}, 20)

    def callback(*transition: Any) -> None:
        raise RuntimeError("from the callback")

    with pytest.raises(RuntimeError, match="from the callback"):
        play(env, keys_to_action=KEYS, callback=callback)
    assert not pygame_window.window_open


# --- errors ---------------------------------------------------------------------------------------
def _both_raise(
    record: PygameRecord, env_factory: Any, expected: type[BaseException], **kwargs: Any
) -> list[BaseException]:
    """Run vecgym's play and Gymnasium's on fresh envs; both raise ``expected``. Returns
    (vecgym's exception, Gymnasium's)."""
    raised = []
    for play_fn in (play, gymnasium_play().play):
        with pytest.raises(expected) as info:
            play_fn(scripted(vecgym, env_factory(), {}, 3), **kwargs)
        raised.append(info.value)
        record.pygame.quit()
    return raised


@pytest.mark.parametrize(
    ("keys", "expected", "template"),
    [
        ([("a", 1)], TypeError, KEYS_NOT_DICT_MSG),
        ({2.5: 1}, TypeError, KEY_TYPE_MSG),
        ({("a", 2.5): 1}, TypeError, KEY_TYPE_MSG),
        ({("ab",): 1}, TypeError, KEY_TYPE_MSG),
        ({"a": 7}, ValueError, KEY_ACTION_MSG),
        ({("a",): -1}, ValueError, KEY_ACTION_MSG),
    ],
)
def test_bad_keys_to_action_raise_gymnasiums_types(
    pygame_window: PygameRecord, keys: Any, expected: type[Exception], template: str
) -> None:
    ours, _ = _both_raise(pygame_window, lambda: echo_env(vecgym), expected, keys_to_action=keys)
    assert re.search(message_pattern(template), str(ours))


def test_keys_none_from_the_env_is_a_value_error(pygame_window: PygameRecord) -> None:
    class NoneKeys(vecgym.Wrapper):  # type: ignore[type-arg]
        def get_keys_to_action(self) -> None:
            return None

    ours, _ = _both_raise(pygame_window, lambda: NoneKeys(echo_env(vecgym)), ValueError)
    assert str(ours) == KEYS_NONE_MSG


def test_missing_keys_mapping(pygame_window: PygameRecord) -> None:
    gym_play_module = gymnasium_play()
    env = vecgym.make("CartPole-v1", render_mode="rgb_array")
    with pytest.raises(
        MissingKeysToAction, match=message_pattern(MISSING_KEYS_MSG, env="CartPole-v1")
    ):
        play(env)
    with pytest.raises(gym_play_module.MissingKeysToAction):
        gym_play_module.play(env)
    env.close()
    # without a spec, Gymnasium raises ValueError: vecgym's MissingKeysToAction is one too
    ours, theirs = _both_raise(pygame_window, lambda: echo_env(vecgym), ValueError)
    assert isinstance(ours, MissingKeysToAction)
    assert not isinstance(theirs, gym_play_module.MissingKeysToAction)
    with pytest.raises(MissingKeysToAction):
        PlayableGame(echo_env(vecgym))  # not reset: the mapping is checked before the first frame
    assert not pygame_window.window_open


@pytest.mark.parametrize("render_mode", [None, "human", "ansi"])
def test_render_mode_must_be_an_array_mode(
    pygame_window: PygameRecord, render_mode: str | None
) -> None:
    ours, _ = _both_raise(
        pygame_window,
        lambda: echo_env(vecgym, render_mode=render_mode),
        ValueError,
        keys_to_action=KEYS,
    )
    assert str(ours) == PLAY_RENDER_MODE_MSG.format(mode=render_mode)


@pytest.mark.parametrize("zoom", [0, -1.5])
def test_zoom_must_be_positive(pygame_window: PygameRecord, zoom: float) -> None:
    ours, _ = _both_raise(
        pygame_window, lambda: echo_env(vecgym), ValueError, keys_to_action=KEYS, zoom=zoom
    )
    assert str(ours) == PLAY_ZOOM_MSG.format(zoom=zoom)


@pytest.mark.parametrize("render_fps", [12.5, "30"])
def test_render_fps_must_be_an_integer(pygame_window: PygameRecord, render_fps: Any) -> None:
    ours, _ = _both_raise(
        pygame_window,
        lambda: echo_env(vecgym, render_fps=render_fps),
        TypeError,
        keys_to_action=KEYS,
    )
    assert str(ours) == RENDER_FPS_MSG.format(value=render_fps)


def test_frames_must_be_uint8_arrays(pygame_window: PygameRecord) -> None:
    pygame = pygame_window.pygame
    screen = pygame.Surface((10, 6))
    with pytest.raises(
        error.InvalidArgument, match=message_pattern(FRAME_MSG, kind="float64 array")
    ):
        display_arr(screen, np.zeros((6, 10, 3)), (10, 6), True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message_pattern(FRAME_MSG, kind="list")):
        display_arr(screen, [[0]], (10, 6), True)  # type: ignore[arg-type]
    with pytest.raises(AssertionError):  # Gymnasium's bare assert
        gymnasium_play().display_arr(screen, np.zeros((6, 10, 3)), (10, 6), True)
    with pytest.raises(IndexError, match=message_pattern(NO_FRAME_MSG)):
        play_module._latest_frame([], None)
    with pytest.raises(TypeError, match=message_pattern(FRAME_MSG, kind="NoneType")):
        play_module._latest_frame([None], None)


# --- display_arr and PlayableGame -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("screen_size", "video_size", "transpose"),
    [
        ((10, 6), (10, 6), True),
        ((31, 20), (20, 12), True),
        ((12, 12), (25, 15), True),
        ((9, 13), (6, 9), False),
    ],
)
def test_display_arr_matches_gymnasium(
    pygame_window: PygameRecord,
    screen_size: tuple[int, int],
    video_size: tuple[int, int],
    transpose: bool,
) -> None:
    pygame = pygame_window.pygame
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 256, size=(6, 9, 3) if transpose else (9, 6, 3), dtype=np.uint8)
    screens = []
    for display in (display_arr, gymnasium_play().display_arr):
        screen = pygame.Surface(screen_size)
        screen.fill((7, 8, 9))
        display(screen, frame, video_size, transpose)
        screens.append(pygame.surfarray.array3d(screen))
    assert np.array_equal(screens[0], screens[1])
    assert np.array_equal(pygame_window.shown[0], pygame_window.shown[1])


def test_playable_game_tracks_keys_like_gymnasiums(pygame_window: PygameRecord) -> None:
    pygame = pygame_window.pygame
    events = [
        pygame.event.Event(pygame.KEYDOWN, key=ord("a")),
        pygame.event.Event(pygame.KEYDOWN, key=ord("q")),  # not bound: ignored
        pygame.event.Event(pygame.KEYDOWN, key=ord("b")),
        pygame.event.Event(pygame.KEYUP, key=ord("a")),
        pygame.event.Event(pygame.KEYUP, key=ord("q")),
        pygame.event.Event(pygame.WINDOWRESIZED, x=55, y=21),
        pygame.event.Event(pygame.MOUSEMOTION, pos=(1, 1), rel=(1, 1), buttons=(0, 0, 0)),
    ]
    keys = {(ord("a"),): 1, (ord("a"), ord("b")): 3}
    states = []
    for game_type in (PlayableGame, gymnasium_play().PlayableGame):
        env = echo_env(vecgym)
        env.reset(seed=0)
        game = game_type(env, keys, zoom=2)
        seen = [(set(game.pressed_keys), game.video_size, game.running)]
        for event in events:
            game.process_event(event)
            seen.append((set(game.pressed_keys), game.video_size, game.running))
        game.process_event(pygame.event.Event(pygame.QUIT))
        seen.append((set(game.pressed_keys), game.video_size, game.running))
        states.append((seen, game.relevant_keys, game.original_video_size))
        assert pygame.display.get_surface().get_size() == (20, 12)
        pygame.quit()
    assert states[0] == states[1]
    assert states[0][0][-2][1] == (35, 21)


def test_playable_game_sizes_its_window_from_a_frame_of_any_dtype(
    pygame_window: PygameRecord,
) -> None:
    """Like Gymnasium's, the game only reads the size of the first frame; the uint8 check waits
    for the drawing (Gymnasium's own tests build games over float frames)."""
    sizes = []
    for game_type in (PlayableGame, gymnasium_play().PlayableGame):
        env = echo_env(vecgym)
        env.render = lambda: np.ones((6, 10, 3))  # float64
        sizes.append(game_type(env, KEYS, zoom=2).video_size)
        pygame_window.pygame.quit()
    assert sizes == [(20, 12), (20, 12)]
    env = echo_env(vecgym)
    env.render = lambda: np.ones(3)  # no size to read
    with pytest.raises(
        error.InvalidArgument, match=message_pattern(SIZE_FRAME_MSG, kind="1-d array")
    ):
        PlayableGame(env, KEYS)


def test_playable_game_takes_every_key_form(pygame_window: PygameRecord) -> None:
    env = echo_env(vecgym, keys={"ab": 1, ("c", 100): 2, 101: 3})
    env.reset(seed=0)
    assert PlayableGame(env).relevant_keys == {97, 98, 99, 100, 101}
    assert PlayableGame(env, {"x": 0}).relevant_keys == {ord("x")}  # type: ignore[dict-item]


# --- mutants --------------------------------------------------------------------------------------
MUTANTS = {
    "noop off by one": (
        "codes_to_action.get(tuple(sorted(game.pressed_keys)), noop)",
        "codes_to_action.get(tuple(sorted(game.pressed_keys)), noop + 1)",
    ),
    "a combination of keys never matches": (
        "codes_to_action.get(tuple(sorted(game.pressed_keys)), noop)",
        "codes_to_action.get(tuple(sorted(game.pressed_keys))[:1], noop)",
    ),
    "obs_t is the new observation": (
        "obs_t = obs\n",
        "obs_t = None\n",
    ),
    "wait_on_player is ignored": (
        "elif not wait_on_player or game.pressed_keys:",
        "elif True:",
    ),
    "released keys stay held": (
        "self.pressed_keys.discard(event.key)",
        "pass",
    ),
    "the seed is used at the first reset only": (
        "obs, _ = env.reset(seed=seed)",
        "obs, _ = env.reset()",
    ),
}


def _mutant(original: str, replacement: str) -> types.ModuleType:
    source = Path(play_module.__file__).read_text()
    assert source.count(original) >= 1, f"the mutation target is gone: {original!r}"
    module = types.ModuleType("vecgym.utils._play_mutant")
    module.__file__ = play_module.__file__
    sys.modules[module.__name__] = module
    try:
        exec(compile(source.replace(original, replacement), module.__file__, "exec"), vars(module))
    finally:
        del sys.modules[module.__name__]
    return module


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_a_mutant_of_play_fails_the_differential_check(
    pygame_window: PygameRecord, name: str
) -> None:
    """Each mutant of vecgym's play (an off-by-one in the noop, a key held forever, ...) differs
    from Gymnasium's on the scripts of the tests above."""
    mutant = _mutant(*MUTANTS[name])
    gym_play = gymnasium_play().play
    found = []
    for script, quit_on, wait in [(BASIC_SCRIPT, 13, False), (WAIT_SCRIPT, 12, True)]:
        runs = []
        for play_fn in (mutant.play, gym_play):
            env = scripted(vecgym, echo_env(vecgym), script, quit_on)
            runs.append(
                run_play(
                    play_fn, env, pygame_window, keys_to_action=KEYS, seed=5, wait_on_player=wait
                )
            )
        found += run_differences(runs[0], without_reset_pairs(runs[1])[0])
    assert found, f"the mutant {name!r} went unnoticed"


# --- PlayPlot -------------------------------------------------------------------------------------
@pytest.fixture
def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend; every figure a test opens is closed after it."""
    matplotlib = pytest.importorskip("matplotlib")
    gymnasium_play()  # first, so that its TkAgg request is undone
    matplotlib.use("Agg")
    module = importlib.import_module("matplotlib.pyplot")
    yield module
    module.close("all")


def _transitions(count: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(1)
    return [
        (rng.random(2), rng.random(2), int(i % 3), float(rng.random()), i % 4 == 3, False, {"i": i})
        for i in range(count)
    ]


def _plot_state(plotter: Any) -> Any:
    return (
        plotter.t,
        [list(series) for series in plotter.data],
        [axis.get_title() for axis in plotter.ax],
        [axis.get_xlim() for axis in plotter.ax],
        [np.asarray(scatter.get_offsets()).tolist() for scatter in plotter.cur_plot],
        [len(axis.collections) for axis in plotter.ax],
    )


@pytest.mark.parametrize("names", [["reward"], ["reward", "action", "info i"]])
def test_play_plot_matches_gymnasium(pyplot: Any, names: list[str]) -> None:
    def metrics(obs_t: Any, obs_tp1: Any, action: Any, rew: float, *rest: Any) -> list[float]:
        return [rew, float(action), float(rest[2]["i"])][: len(names)]

    plotters = [PlayPlot(metrics, 4, names), gymnasium_play().PlayPlot(metrics, 4, names)]
    for transition in _transitions(7):
        states = []
        for plotter in plotters:
            plotter.callback(*transition)
            states.append(_plot_state(plotter))
        assert states[0] == states[1]
    assert plotters[0].t == 7
    assert plotters[0].ax[0].get_xlim() == (3.0, 7.0)
    assert isinstance(plotters[0].ax, list)


def test_play_plot_checks_the_number_of_metrics(pyplot: Any) -> None:
    plotter: PlayPlot[Any, Any] = PlayPlot(lambda *t: [1.0], 5, ["a", "b"])
    with pytest.raises(ValueError, match=message_pattern(METRIC_COUNT_MSG, count=1, plots=2)):
        plotter.callback(*_transitions(1)[0])
    assert [list(series) for series in plotter.data] == [[], []]  # nothing recorded
    theirs = gymnasium_play().PlayPlot(lambda *t: [1.0], 5, ["a", "b"])
    with pytest.raises(ValueError):
        theirs.callback(*_transitions(1)[0])
    assert [list(series) for series in theirs.data] == [[1.0], []]  # Gymnasium recorded one


def test_play_plot_as_the_play_callback(pygame_window: PygameRecord, pyplot: Any) -> None:
    plotter: PlayPlot[Any, Any] = PlayPlot(lambda *t: [t[3]], 3, ["reward"])
    env = scripted(vecgym, echo_env(vecgym), BASIC_SCRIPT, 8)
    play(env, keys_to_action=KEYS, seed=5, callback=plotter.callback)
    assert plotter.t == 6
    assert list(plotter.data[0]) == [2.0, 4.0, 2.0]


# --- optional dependencies and module layout ------------------------------------------------------
def test_missing_pygame_and_matplotlib_name_the_extras(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    env = echo_env(vecgym)
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(PLAY_PYGAME_EXTRA_MSG)):
        play(env, keys_to_action=KEYS)
    with pytest.raises(error.DependencyNotInstalled, match=r"vecgym\[human\]"):
        display_arr(None, np.zeros((2, 2, 3), np.uint8), (2, 2), True)  # type: ignore[arg-type]
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(PLAY_PLOT_EXTRA_MSG)):
        PlayPlot(lambda *t: [0.0], 5, ["x"])
    assert "vecgym[plot]" in PLAY_PLOT_EXTRA_MSG


def test_importing_the_modules_needs_neither_pygame_nor_matplotlib() -> None:
    import subprocess

    code = (
        "import sys\n"
        "sys.modules['pygame'] = None\n"
        "sys.modules['matplotlib'] = None\n"
        "import vecgym.utils\n"
        "from vecgym.utils.play import play, PlayPlot, PlayableGame, display_arr\n"
        "from vecgym.utils.play import MissingKeysToAction\n"
        "from vecgym.utils.env_match import check_environments_match\n"
        "assert vecgym.utils.play.play is play\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_gymnasium_utils_re_exports_nothing_from_play() -> None:
    """Like ``gymnasium.utils``, ``vecgym.utils`` re-exports nothing of these modules; both are
    reached as ``vecgym.utils.play`` / ``vecgym.utils.env_match``."""
    gymnasium_utils = pytest.importorskip("gymnasium.utils")
    for name in ("play", "PlayPlot", "check_environments_match"):
        assert name not in gymnasium_utils.__all__
        assert name not in vecgym.utils.__all__
    assert vecgym.utils.play is play_module
    assert MissingKeysToAction.__module__ == "vecgym.utils.play"
