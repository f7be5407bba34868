"""Rendering of the toy-text environments: frame sizes, frames that follow the state, modes."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.headless_pygame import PygameRecord
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.envs._render_base import NO_RENDER_MODE_MSG, UNSUPPORTED_RENDER_MODE_MSG
from vecgym.envs.rendering.display import HUMAN_EXTRA_MSG
from vecgym.envs.rendering.font import SCALE_MSG, draw_text, text_size
from vecgym.envs.toy_text import BlackjackEnv, CliffWalkingEnv, FrozenLakeEnv, TaxiEnv

# (class, kwargs, expected frame shape (height, width, 3)) — Gymnasium's window sizes.
FRAMES: list[tuple[type[Any], dict[str, Any], tuple[int, int, int]]] = [
    (FrozenLakeEnv, {}, (256, 256, 3)),
    (FrozenLakeEnv, {"map_name": "8x8"}, (512, 512, 3)),
    (FrozenLakeEnv, {"desc": ["SFFFFFFFFF"] * 9 + ["FFFFFFFFFG"]}, (512, 512, 3)),
    (FrozenLakeEnv, {"desc": ["SF", "FF", "HG"]}, (192, 128, 3)),
    (TaxiEnv, {}, (456, 536, 3)),
    (CliffWalkingEnv, {}, (256, 768, 3)),
    (BlackjackEnv, {}, (376, 384, 3)),
]


@pytest.mark.parametrize(("cls", "kwargs", "shape"), FRAMES, ids=lambda v: str(v))
def test_rgb_array_frames_have_gymnasium_size_and_follow_state(
    cls: type[Any], kwargs: dict[str, Any], shape: tuple[int, int, int]
) -> None:
    env = cls(render_mode="rgb_array", **kwargs)
    assert env.render() is None  # nothing to draw before the first reset
    env.reset(seed=0)
    first = env.render()
    assert isinstance(first, np.ndarray)
    assert first.dtype == np.uint8
    assert first.shape == shape
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 3  # a scene, not a blank frame
    assert np.array_equal(env.render(), first)  # same state, same frame
    assert env.render() is not env.render()  # a new array each time
    changed = False
    for seed in range(1, 6):
        env.reset(seed=seed)
        for action in (1, 2, 1, 2, 0):
            env.step(action % int(env.action_space.n))
            frame = env.render()
            assert frame.shape == shape
            changed |= not np.array_equal(frame, first)
    assert changed


def test_frozen_lake_frame_moves_with_agent() -> None:
    env = FrozenLakeEnv(render_mode="rgb_array", is_slippery=False)
    env.reset(seed=0)
    at_start = env.render()
    env.step(2)  # right: from tile 0 to tile 1
    moved = env.render()
    diff = np.any(at_start != moved, axis=2)
    rows, cols = np.nonzero(diff)
    assert rows.max() < 64
    assert cols.min() >= 0
    assert cols.max() < 128


def test_cliff_walking_frame_follows_the_agent() -> None:
    env = CliffWalkingEnv(render_mode="rgb_array")
    env.reset(seed=0)
    before = env.render()
    env.step(0)  # up: from (3, 0) to (2, 0)
    after = env.render()
    rows, cols = np.nonzero(np.any(before != after, axis=2))
    assert rows.min() >= 128
    assert cols.max() < 64


def test_taxi_frame_shows_pickup() -> None:
    env = TaxiEnv(render_mode="rgb_array")
    env.reset(seed=0)
    # Drive to the passenger along a shortest path found in the transition table.
    row, col, pass_idx, _ = env.decode(env.s)
    target = env.locs[pass_idx]
    before = None
    for _ in range(30):
        if (row, col) == target:
            before = env.render()
            env.step(4)
            break
        mask = env.action_mask(env.s)
        action = _towards(env, row, col, target, mask)
        env.step(action)
        row, col, pass_idx, _ = env.decode(env.s)
    assert before is not None
    assert env.decode(env.s)[2] == 4
    after: Any = env.render()
    assert not np.array_equal(before, after)


def test_taxi_get_surf_loc_is_gymnasiums_cell_origin() -> None:
    """Gymnasium's public ``TaxiEnv.get_surf_loc``: the frame pixel of each grid cell (following
    ``cell_size``), where the taxi is drawn."""
    gymnasium = pytest.importorskip("gymnasium")
    ours, theirs = TaxiEnv(render_mode="rgb_array"), gymnasium.make("Taxi-v4").unwrapped
    cells = [(row, col) for row in range(5) for col in range(5)]
    assert [ours.get_surf_loc(cell) for cell in cells] == [theirs.get_surf_loc(c) for c in cells]
    ours.reset(seed=3)
    width, height = ours.cell_size

    def cell_pixels(taxi: tuple[int, int], cell: tuple[int, int]) -> Any:
        ours.s = ours.encode(*taxi, 2, 0)
        frame: Any = ours.render()
        x, y = ours.get_surf_loc(cell)
        return frame[y : y + height, x : x + width]

    assert not np.array_equal(cell_pixels((1, 1), (1, 1)), cell_pixels((3, 2), (1, 1)))
    assert np.array_equal(cell_pixels((1, 1), (3, 3)), cell_pixels((3, 2), (3, 3)))
    ours.cell_size = theirs.cell_size = (width * 2, height * 3)
    assert [ours.get_surf_loc(cell) for cell in cells] == [theirs.get_surf_loc(c) for c in cells]


def _towards(env: TaxiEnv, row: int, col: int, target: tuple[int, int], mask: Any) -> int:
    """A move that shortens the breadth-first distance to ``target`` (ignoring the passenger)."""
    dist = {target: 0}
    frontier = [target]
    while frontier:
        nxt = []
        for r, c in frontier:
            state = env.encode(r, c, 0, 1)
            for a in range(4):
                r2, c2, _, _ = env.decode(env.P[state][a][0][1])
                if (r2, c2) not in dist:
                    dist[(r2, c2)] = dist[(r, c)] + 1
                    nxt.append((r2, c2))
        frontier = nxt
    state = env.encode(row, col, 0, 1)
    for a in range(4):
        r2, c2, _, _ = env.decode(env.P[state][a][0][1])
        if mask[a] and dist[(r2, c2)] < dist[(row, col)]:
            return a
    raise AssertionError("no move towards the target")


def test_blackjack_frame_shows_the_sum_and_card() -> None:
    env = BlackjackEnv(render_mode="rgb_array")
    frames: dict[Any, Any] = {}
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        frames.setdefault((obs, env.dealer_top_card_value_str), env.render())
    distinct = {frame.tobytes() for frame in frames.values()}
    assert len(distinct) == len(frames)


@pytest.mark.parametrize("cls", [FrozenLakeEnv, TaxiEnv, CliffWalkingEnv, BlackjackEnv])
def test_no_render_mode_warns(cls: type[Any]) -> None:
    env = cls()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match=message_pattern(NO_RENDER_MODE_MSG)):
        assert env.render() is None


def test_unsupported_render_mode_is_rejected() -> None:
    with pytest.raises(error.UnsupportedMode, match=message_pattern(UNSUPPORTED_RENDER_MODE_MSG)):
        BlackjackEnv(render_mode="ansi")  # Blackjack has no text picture
    with pytest.raises(error.UnsupportedMode, match="got 'rgb'"):
        TaxiEnv(render_mode="rgb")


@pytest.mark.parametrize("cls", [FrozenLakeEnv, TaxiEnv, CliffWalkingEnv, BlackjackEnv])
def test_human_mode_without_the_extra_names_it(
    cls: type[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)  # importing pygame fails
    env = cls(render_mode="human")  # constructing never needs the extra
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(HUMAN_EXTRA_MSG)):
        env.reset(seed=0)
    env.close()


@pytest.mark.parametrize(("cls", "kwargs", "shape"), FRAMES[:1] + FRAMES[4:], ids=str)
def test_human_mode_shows_each_frame(
    cls: type[Any],
    kwargs: dict[str, Any],
    shape: tuple[int, int, int],
    pygame_window: PygameRecord,
) -> None:
    env = cls(render_mode="human", **kwargs)
    env.reset(seed=0)
    env.step(1)
    assert env.render() is None
    assert len(pygame_window.shown) == 3  # reset, step, render
    assert pygame_window.shown[0].shape == (shape[1], shape[0], 3)  # surfaces are (width, height)
    assert pygame_window.ticks == [cls.metadata["render_fps"]] * 3
    twin = cls(render_mode="rgb_array", **kwargs)
    twin.reset(seed=0)
    twin.step(1)
    np.testing.assert_array_equal(pygame_window.window_pixels(), twin.render())
    twin.close()
    env.close()
    env.close()
    assert not pygame_window.window_open


def test_ansi_through_make_and_render_collection() -> None:
    env = vecgym.make("FrozenLake-v1", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert text.startswith("\n")
    assert "\x1b[41m" in text
    frames = vecgym.make("Taxi-v4", render_mode="rgb_array_list")
    frames.reset(seed=0)
    frames.step(0)
    collected: Any = frames.render()
    assert len(collected) == 2
    assert all(f.shape == (456, 536, 3) for f in collected)


def test_font_text_size_and_clipping() -> None:
    assert text_size("AB", 2) == (22, 14)
    canvas = np.full((10, 10, 3), 255, dtype=np.uint8)
    draw_text(canvas, "8", -2, 5, 2, (0, 0, 0))  # partly outside: clipped, no error
    assert (canvas == 0).any()
    with pytest.raises(ValueError, match=message_pattern(SCALE_MSG)):
        draw_text(canvas, "8", 0, 0, 0, (0, 0, 0))
