"""FrozenLake: walk across a frozen lake from the start tile to the goal without falling in a hole.

Behaviour, transition table, random draws and ``"ansi"`` text are Gymnasium 1.4's
``FrozenLake-v1``; frames are drawn with numpy (no pygame).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.core import seeding
from vecgym.core.spaces.discrete import Discrete
from vecgym.envs.rendering.font import draw_text
from vecgym.envs.rendering.raster import draw_line, fill_circle, fill_polygon, fill_rect
from vecgym.envs.toy_text._base import TabularEnv
from vecgym.envs.toy_text._vector_base import TabularVectorEnv
from vecgym.utils.colorize import colorize
from vecgym.vector.vector_env import AutoresetMode

__all__ = [
    "DOWN",
    "LEFT",
    "MAPS",
    "RIGHT",
    "UP",
    "FrozenLakeEnv",
    "FrozenLakeVectorEnv",
    "generate_random_map",
    "is_valid",
]

LEFT = 0
DOWN = 1
RIGHT = 2
UP = 3

#: The built-in maps selected by ``map_name``.
MAPS: dict[str, list[str]] = {
    "4x4": ["SFFF", "FHFH", "FFFH", "HFFG"],
    "8x8": [
        "SFFFFFFF",
        "FFFFFFFF",
        "FFFHFFFF",
        "FFFFFHFF",
        "FFFHFFFF",
        "FHHFFFHF",
        "FHFFHFHF",
        "FFFHFFFG",
    ],
}

MAP_NAME_MSG = "map_name must be one of {} (or None with desc=None for a random map), got {!r}"
DESC_MSG = "desc must be a rectangular grid of tile letters with at least one 'S', got {!r}"
MAP_SIZE_MSG = "size must be an integer >= 2, got {!r}"
MAP_P_MSG = "p (the probability of a frozen tile) must be > 0, got {!r}"

_ACTION_NAMES = ("Left", "Down", "Right", "Up")
_MOVES = {LEFT: (0, -1), DOWN: (1, 0), RIGHT: (0, 1), UP: (-1, 0)}

# Frame colours.
_ICE = (206, 232, 245)
_ICE_EDGE = (180, 200, 230)
_CRACK = (160, 190, 215)
_HOLE = (28, 54, 92)
_HOLE_RIM = (100, 140, 180)
_FLAG = (220, 40, 40)
_POLE = (90, 70, 50)
_LETTER = (40, 70, 120)
_AGENT = (240, 140, 40)
_AGENT_FACE = (250, 220, 180)
_BACKGROUND = (0, 0, 0)


def is_valid(board: Sequence[Sequence[str]] | npt.NDArray[np.str_], max_size: int) -> bool:
    """Whether a goal tile ``"G"`` can be reached from ``(0, 0)`` without crossing a hole ``"H"``.

    Args:
        board: the map, indexed ``board[row][col]``.
        max_size: the side of the square board.

    Returns:
        ``True`` when some path of up/down/left/right moves joins ``(0, 0)`` to a ``"G"``.
    """
    seen = {(0, 0)}
    stack = [(0, 0)]
    while stack:
        row, col = stack.pop()
        for d_row, d_col in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            r, c = row + d_row, col + d_col
            if not (0 <= r < max_size and 0 <= c < max_size) or (r, c) in seen:
                continue
            tile = board[r][c]
            if tile == "G":
                return True
            if tile != "H":
                seen.add((r, c))
                stack.append((r, c))
    return False


def generate_random_map(size: int = 8, p: float = 0.8, seed: int | None = None) -> list[str]:
    """Return a random ``size x size`` map that has a path from start to goal.

    Tiles are frozen with probability ``p`` (holes otherwise), the top-left tile is the start and
    the bottom-right the goal; boards without a path are drawn again. With the same ``seed`` the
    map is the one Gymnasium's ``generate_random_map`` returns.

    Gymnasium loops forever for ``size < 2`` or ``p <= 0`` (no board can ever be valid); here those
    raise ``ValueError``.

    Args:
        size: the side of the square map.
        p: the probability that a tile is frozen (values above 1 count as 1).
        seed: seed for the generator, or ``None`` for OS entropy.

    Returns:
        The map as a list of row strings of ``"S"``, ``"F"``, ``"H"`` and ``"G"``.

    Raises:
        ValueError: ``size < 2`` or ``p <= 0``.

    Example:
        >>> generate_random_map(size=3, seed=1)
        ['SFF', 'FFF', 'FFG']
    """
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 2:
        raise ValueError(MAP_SIZE_MSG.format(size))
    if not p > 0:
        raise ValueError(MAP_P_MSG.format(p))
    rng, _ = seeding.np_random(seed)
    frozen = min(1, p)
    while True:
        board = rng.choice(["F", "H"], (size, size), p=[frozen, 1 - frozen])
        board[0][0] = "S"
        board[-1][-1] = "G"
        if is_valid(board, size):
            return ["".join(row) for row in board]


class FrozenLakeEnv(TabularEnv):
    """Cross a frozen lake from the start ``S`` to the goal ``G`` without falling into a hole ``H``.

    Observations are the agent's tile ``row * ncol + col`` (a Python ``int``); actions are
    ``0`` left, ``1`` down, ``2`` right, ``3`` up. On slippery ice the agent moves in the chosen
    direction with probability ``success_rate`` and to either side of it with the rest split
    evenly. Reaching the goal or a hole terminates the episode; the rewards for landing on a goal,
    hole or frozen tile are ``reward_schedule``. ``info["prob"]`` is the probability of the
    transition taken (``1`` after ``reset``).

    The table :attr:`P` maps ``P[state][action]`` to a list of
    ``(probability, next_state, reward, terminated)`` tuples, as in Gymnasium.

    Args:
        render_mode: ``None``, ``"human"``, ``"ansi"`` or ``"rgb_array"``.
        desc: a custom map (list of row strings); ``None`` uses ``map_name``.
        map_name: ``"4x4"`` or ``"8x8"``; with ``desc=None`` and ``map_name=None`` a random 8x8
            map is generated.
        is_slippery: whether moves may slip sideways.
        success_rate: the probability of moving as intended on slippery ice.
        reward_schedule: the rewards for reaching a goal, a hole and a frozen tile.

    Raises:
        ValueError: ``map_name`` is unknown or ``desc`` is not a grid with a start tile.

    Example:
        >>> env = FrozenLakeEnv(is_slippery=False)
        >>> env.reset(seed=0)
        (0, {'prob': 1})
        >>> env.step(RIGHT)
        (1, 0, False, False, {'prob': 1.0})
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        render_mode: str | None = None,
        desc: list[str] | None = None,
        map_name: str = "4x4",
        is_slippery: bool = True,
        success_rate: float = 1.0 / 3.0,
        reward_schedule: tuple[int, int, int] = (1, 0, 0),
    ) -> None:
        if desc is None and map_name is None:
            desc = generate_random_map()
        elif desc is None:
            if map_name not in MAPS:
                raise ValueError(MAP_NAME_MSG.format(sorted(MAPS), map_name))
            desc = MAPS[map_name]
        grid = _as_grid(desc)
        self.desc: npt.NDArray[np.bytes_] = grid
        self.nrow, self.ncol = nrow, ncol = grid.shape
        self.reward_range = (min(reward_schedule), max(reward_schedule))

        starts = np.array(grid == b"S").astype("float64").ravel()
        starts /= starts.sum()
        self.initial_state_distrib = starts

        self.P = _transition_table(grid, is_slippery, success_rate, reward_schedule)
        self.observation_space = Discrete(nrow * ncol)
        self.action_space = Discrete(4)

        self.window_size = (min(64 * ncol, 512), min(64 * nrow, 512))
        self.cell_size = (self.window_size[0] // ncol, self.window_size[1] // nrow)
        self._init_rendering(render_mode, *self.window_size)
        self.lastaction: Any = None

    # --- rendering --------------------------------------------------------------------------------
    def _render_text(self) -> str:
        rows = [[c.decode("utf-8") for c in line] for line in self.desc.tolist()]
        row, col = int(self.s) // self.ncol, int(self.s) % self.ncol
        rows[row][col] = colorize(rows[row][col], "red", highlight=True)
        header = f"  ({_ACTION_NAMES[self.lastaction]})\n" if self.lastaction is not None else "\n"
        return header + "\n".join("".join(line) for line in rows) + "\n"

    def _draw_frame(self) -> npt.NDArray[np.uint8]:
        canvas = self._new_canvas(_BACKGROUND)
        cw, ch = self.cell_size
        for row in range(self.nrow):
            for col in range(self.ncol):
                _draw_tile(canvas, bytes(self.desc[row, col]), col * cw, row * ch, cw, ch, row, col)
        row, col = int(self.s) // self.ncol, int(self.s) % self.ncol
        if self.desc[row, col] != b"H":
            _draw_agent(canvas, col * cw + cw / 2, row * ch + ch / 2, min(cw, ch))
        return canvas


def _as_grid(desc: Any) -> npt.NDArray[np.bytes_]:
    """Return ``desc`` as a 2-D array of single-byte tile letters.

    Raises:
        ValueError: ``desc`` is not rectangular, is empty or has no ``"S"`` tile.
    """
    try:
        grid = np.asarray(desc, dtype="c")
    except (ValueError, TypeError, UnicodeEncodeError) as exc:
        raise ValueError(DESC_MSG.format(desc)) from exc
    if grid.ndim != 2 or grid.size == 0 or not (grid == b"S").any():
        raise ValueError(DESC_MSG.format(desc))
    return grid


def _transition_table(
    grid: npt.NDArray[np.bytes_],
    is_slippery: bool,
    success_rate: float,
    reward_schedule: tuple[Any, Any, Any],
) -> dict[int, dict[int, list[tuple[Any, int, Any, bool]]]]:
    """Build ``P[state][action]``: the ``(probability, next_state, reward, terminated)`` outcomes.

    Goal and hole tiles are absorbing (reward 0). Elsewhere a slippery move tries the direction
    90 degrees clockwise of the intended one, then the intended one, then 90 degrees the other way.
    """
    nrow, ncol = grid.shape
    slip_rate = (1.0 - success_rate) / 2.0

    def outcome(row: int, col: int, direction: int) -> tuple[int, Any, bool]:
        d_row, d_col = _MOVES[direction]
        r = min(max(row + d_row, 0), nrow - 1)
        c = min(max(col + d_col, 0), ncol - 1)
        tile = bytes(grid[r, c])
        reward = reward_schedule[0 if tile == b"G" else 1 if tile == b"H" else 2]
        return r * ncol + c, reward, tile in (b"G", b"H")

    table: dict[int, dict[int, list[tuple[Any, int, Any, bool]]]] = {}
    for row in range(nrow):
        for col in range(ncol):
            state = row * ncol + col
            absorbing = bytes(grid[row, col]) in (b"G", b"H")
            table[state] = {}
            for action in range(4):
                if absorbing:
                    table[state][action] = [(1.0, state, 0, True)]
                elif is_slippery:
                    table[state][action] = [
                        (success_rate if d == action else slip_rate, *outcome(row, col, d))
                        for d in ((action - 1) % 4, action, (action + 1) % 4)
                    ]
                else:
                    table[state][action] = [(1.0, *outcome(row, col, action))]
    return table


def _draw_tile(
    canvas: npt.NDArray[np.uint8],
    tile: bytes,
    x: int,
    y: int,
    w: int,
    h: int,
    row: int,
    col: int,
) -> None:
    """Paint one map tile with its top-left corner at ``(x, y)``."""
    if tile == b"H":
        fill_rect(canvas, x, y, x + w, y + h, _ICE)
        hole = [
            (x + 0.15 * w, y + 0.5 * h),
            (x + 0.3 * w, y + 0.22 * h),
            (x + 0.7 * w, y + 0.2 * h),
            (x + 0.87 * w, y + 0.48 * h),
            (x + 0.72 * w, y + 0.8 * h),
            (x + 0.3 * w, y + 0.82 * h),
        ]
        fill_polygon(canvas, [(px - 2, py - 2) for px, py in hole], _HOLE_RIM)
        fill_polygon(canvas, hole, _HOLE)
    else:
        fill_rect(canvas, x, y, x + w, y + h, _ICE)
        if tile == b"F" and (col * 3 + row * 5) % 7 < 2:
            draw_line(canvas, (x + 0.2 * w, y + 0.3 * h), (x + 0.45 * w, y + 0.5 * h), _CRACK, 2)
            draw_line(canvas, (x + 0.45 * w, y + 0.5 * h), (x + 0.4 * w, y + 0.75 * h), _CRACK, 2)
        elif tile in (b"S", b"G"):
            scale = max(1, min(w, h) // 32)
            margin = max(1, round(w * 0.06))
            draw_text(canvas, tile.decode(), x + margin, y + margin, scale, _LETTER)
            if tile == b"G":
                pole_x = x + 0.5 * w
                fill_rect(canvas, pole_x - 1, y + 0.25 * h, pole_x + 1, y + 0.85 * h, _POLE)
                flag = [(pole_x + 1, y + 0.25 * h), (pole_x + 0.3 * w, y + 0.35 * h)]
                fill_polygon(canvas, [*flag, (pole_x + 1, y + 0.45 * h)], _FLAG)
    # One-pixel grid line round the tile.
    fill_rect(canvas, x, y, x + w, y + 1, _ICE_EDGE)
    fill_rect(canvas, x, y + h - 1, x + w, y + h, _ICE_EDGE)
    fill_rect(canvas, x, y, x + 1, y + h, _ICE_EDGE)
    fill_rect(canvas, x + w - 1, y, x + w, y + h, _ICE_EDGE)


def _draw_agent(canvas: npt.NDArray[np.uint8], cx: float, cy: float, cell: int) -> None:
    """Paint the agent (a hooded figure) centred on ``(cx, cy)``."""
    body = [
        (cx - 0.25 * cell, cy + 0.3 * cell),
        (cx + 0.25 * cell, cy + 0.3 * cell),
        (cx + 0.12 * cell, cy - 0.05 * cell),
        (cx - 0.12 * cell, cy - 0.05 * cell),
    ]
    fill_polygon(canvas, body, _AGENT)
    fill_circle(canvas, cx, cy - 0.15 * cell, 0.16 * cell, _AGENT)
    fill_circle(canvas, cx, cy - 0.14 * cell, 0.1 * cell, _AGENT_FACE)


class FrozenLakeVectorEnv(TabularVectorEnv):
    """``num_envs`` frozen lakes stepped together with numpy, each one a :class:`FrozenLakeEnv`
    with a time limit, seed for seed.

    After ``reset(seed=s)`` sub-environment ``i`` follows ``make("FrozenLake-v1")`` reset with
    ``seed=s + i`` and fed the same actions (observations, rewards, terminations, truncations and
    infos), autoresetting as a :class:`~vecgym.vector.SyncVectorEnv` of those envs would in the
    chosen ``autoreset_mode`` (the rules of :mod:`vecgym.vector.autoreset`). Every env walks the
    same map. Infos are the single env's ``{"prob": ...}``, batched as ``SyncVectorEnv`` batches
    them. :meth:`render` returns one frame (``"rgb_array"``) or text (``"ansi"``) per env.

    Args:
        num_envs: the number of lakes.
        max_episode_steps: truncate an episode after this many steps (``None``: never;
            ``make_vec`` passes the registered limit, 100 for ``FrozenLake-v1``).
        render_mode: ``None``, ``"rgb_array"`` or ``"ansi"``.
        desc: as :class:`FrozenLakeEnv` (a random map is drawn once, for all envs).
        map_name: as :class:`FrozenLakeEnv`.
        is_slippery: as :class:`FrozenLakeEnv`.
        success_rate: as :class:`FrozenLakeEnv`.
        reward_schedule: as :class:`FrozenLakeEnv`.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = FrozenLakeVectorEnv(num_envs=2, is_slippery=False)
        >>> envs.reset(seed=0)
        (array([0, 0]), {'prob': array([1, 1]), '_prob': array([ True,  True])})
        >>> obs, rewards, terminated, truncated, infos = envs.step(np.array([RIGHT, DOWN]))
        >>> obs, infos["prob"]
        (array([1, 4]), array([1., 1.]))
    """

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        desc: list[str] | None = None,
        map_name: str = "4x4",
        is_slippery: bool = True,
        success_rate: float = 1.0 / 3.0,
        reward_schedule: tuple[int, int, int] = (1, 0, 0),
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        single = FrozenLakeEnv(
            desc=desc,
            map_name=map_name,
            is_slippery=is_slippery,
            success_rate=success_rate,
            reward_schedule=reward_schedule,
        )
        self._painter = single
        self.desc = single.desc
        self.nrow, self.ncol = single.nrow, single.ncol
        self.single_observation_space = Discrete(self.nrow * self.ncol)
        self.single_action_space = Discrete(4)
        self._batch_spaces()
        self._build_tables(single)
