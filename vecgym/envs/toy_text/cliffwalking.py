"""CliffWalking: walk along a cliff edge from the start to the goal without falling off.

Behaviour, transition table, random draws and ``"ansi"`` text are Gymnasium 1.4's
``CliffWalking-v1`` / ``CliffWalkingSlippery-v1``; frames are drawn with numpy (no pygame).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.core.spaces.discrete import Discrete
from vecgym.envs.rendering.font import draw_text
from vecgym.envs.rendering.raster import fill_circle, fill_polygon, fill_rect
from vecgym.envs.toy_text._base import TabularEnv
from vecgym.envs.toy_text._vector_base import TabularVectorEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = [
    "DOWN",
    "LEFT",
    "POSITION_MAPPING",
    "RIGHT",
    "UP",
    "CliffWalkingEnv",
    "CliffWalkingVectorEnv",
]

UP = 0
RIGHT = 1
DOWN = 2
LEFT = 3

#: The ``[d_row, d_col]`` of each action.
POSITION_MAPPING = {UP: [-1, 0], RIGHT: [0, 1], DOWN: [1, 0], LEFT: [0, -1]}

_CELL = 64

# Frame colours.
_GROUND = (150, 200, 110)
_GRID = (120, 170, 90)
_CLIFF = (110, 80, 60)
_CLIFF_DARK = (70, 50, 40)
_LETTER = (30, 50, 30)
_FLAG = (220, 40, 40)
_POLE = (90, 70, 50)
_AGENT = (40, 90, 200)
_AGENT_FACE = (250, 220, 180)


class CliffWalkingEnv(TabularEnv):
    """Walk a 4x12 grid from the bottom-left corner to the bottom-right one, avoiding the cliff.

    Observations are the agent's cell ``row * 12 + col`` (a Python ``int``); actions are
    ``0`` up, ``1`` right, ``2`` down, ``3`` left. Every step costs -1; stepping onto the cliff
    (the bottom row between start and goal) costs -100 and sends the agent back to the start
    without ending the episode; reaching the goal terminates it. With ``is_slippery`` the agent
    moves as intended or to either side with probability 1/3 each. ``info["prob"]`` is the
    probability of the transition taken (``1`` after ``reset``).

    The table :attr:`P` maps ``P[state][action]`` to a list of
    ``(probability, next_state, reward, terminated)`` tuples, as in Gymnasium.

    Args:
        render_mode: ``None``, ``"human"``, ``"rgb_array"`` or ``"ansi"``.
        is_slippery: whether moves may slip sideways.

    Example:
        >>> env = CliffWalkingEnv()
        >>> env.reset(seed=0)
        (36, {'prob': 1})
        >>> env.step(RIGHT)
        (36, -100, False, False, {'prob': 1.0})
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array", "ansi"], "render_fps": 4}

    def __init__(self, render_mode: str | None = None, is_slippery: bool = False) -> None:
        self.shape = (4, 12)
        self.start_state_index = np.ravel_multi_index((3, 0), self.shape)
        self.nS = np.prod(self.shape)
        self.nA = 4
        self.is_slippery = is_slippery
        self._cliff = np.zeros(self.shape, dtype=bool)
        self._cliff[3, 1:-1] = True

        self.P: dict[int, dict[int, list[tuple[float, Any, int, bool]]]] = {}
        for s in range(self.nS):
            position = np.unravel_index(s, self.shape)
            self.P[s] = {a: self._outcomes(position, a) for a in (UP, RIGHT, DOWN, LEFT)}
        self.initial_state_distrib = np.zeros(self.nS)
        self.initial_state_distrib[self.start_state_index] = 1.0

        self.observation_space = Discrete(self.nS)
        self.action_space = Discrete(self.nA)
        self.cell_size = (_CELL, _CELL)
        self.window_size = (self.shape[1] * _CELL, self.shape[0] * _CELL)
        self._init_rendering(render_mode, *self.window_size)
        self.lastaction: Any = None

    def _outcomes(self, position: Any, move: int) -> list[tuple[float, Any, int, bool]]:
        """The ``(probability, next_state, reward, terminated)`` outcomes of ``move``.

        Slippery moves try the direction 90 degrees anticlockwise of the intended one, the
        intended one, then 90 degrees the other way, each with probability 1/3.
        """
        moves = [(move - 1) % 4, move, (move + 1) % 4] if self.is_slippery else [move]
        goal = (self.shape[0] - 1, self.shape[1] - 1)
        outcomes: list[tuple[float, Any, int, bool]] = []
        for direction in moves:
            d_row, d_col = POSITION_MAPPING[direction]
            row = min(max(int(position[0]) + d_row, 0), self.shape[0] - 1)
            col = min(max(int(position[1]) + d_col, 0), self.shape[1] - 1)
            prob = 1 / len(moves)
            if self._cliff[row, col]:
                outcomes.append((prob, self.start_state_index, -100, False))
            else:
                state = np.ravel_multi_index((row, col), self.shape)
                outcomes.append((prob, state, -1, (row, col) == goal))
        return outcomes

    # --- rendering --------------------------------------------------------------------------------
    def _render_text(self) -> str:
        rows, cols = self.shape
        lines = []
        for row in range(rows):
            cells = []
            for col in range(cols):
                s = row * cols + col
                if s == self.s:
                    cells.append("x")
                elif (row, col) == (3, 11):
                    cells.append("T")
                elif self._cliff[row, col]:
                    cells.append("C")
                else:
                    cells.append("o")
            lines.append("  ".join(cells) + "\n")
        return "".join(lines) + "\n"

    def _draw_frame(self) -> npt.NDArray[np.uint8]:
        canvas = self._new_canvas(_GROUND)
        rows, cols = self.shape
        for row in range(rows):
            for col in range(cols):
                x, y = col * _CELL, row * _CELL
                if self._cliff[row, col]:
                    _draw_cliff(canvas, x, y, col)
                fill_rect(canvas, x, y, x + _CELL, y + 1, _GRID)
                fill_rect(canvas, x, y, x + 1, y + _CELL, _GRID)
        start_row, start_col = np.unravel_index(self.start_state_index, self.shape)
        draw_text(canvas, "S", int(start_col) * _CELL + 8, int(start_row) * _CELL + 8, 2, _LETTER)
        gx, gy = (cols - 1) * _CELL, (rows - 1) * _CELL
        draw_text(canvas, "G", gx + 8, gy + 8, 2, _LETTER)
        fill_rect(canvas, gx + 30, gy + 16, gx + 33, gy + 56, _POLE)
        fill_polygon(canvas, [(gx + 33, gy + 16), (gx + 52, gy + 24), (gx + 33, gy + 32)], _FLAG)
        row, col = divmod(int(self.s), cols)
        _draw_agent(canvas, col * _CELL + _CELL / 2, row * _CELL + _CELL / 2)
        return canvas


def _draw_cliff(canvas: npt.NDArray[np.uint8], x: int, y: int, col: int) -> None:
    """Paint one cliff cell: a dark drop with jagged rock."""
    fill_rect(canvas, x, y, x + _CELL, y + _CELL, _CLIFF_DARK)
    offset = 8 if col % 2 else 0
    teeth: list[tuple[float, float]] = [(x, y + 20)]
    for k in range(5):
        teeth.append((x + k * 16 + offset / 2, y + 8 + (k % 2) * 10))
    teeth.extend([(x + _CELL, y + 18), (x + _CELL, y), (x, y)])
    fill_polygon(canvas, teeth, _CLIFF)


def _draw_agent(canvas: npt.NDArray[np.uint8], cx: float, cy: float) -> None:
    """Paint the walker centred on ``(cx, cy)``."""
    fill_polygon(
        canvas,
        [(cx - 14, cy + 20), (cx + 14, cy + 20), (cx + 8, cy - 2), (cx - 8, cy - 2)],
        _AGENT,
    )
    fill_circle(canvas, cx, cy - 10, 10, _AGENT)
    fill_circle(canvas, cx, cy - 9, 6, _AGENT_FACE)


class CliffWalkingVectorEnv(TabularVectorEnv):
    """``num_envs`` cliff walks stepped together with numpy, each one a :class:`CliffWalkingEnv`
    (with a time limit when one is given), seed for seed.

    After ``reset(seed=s)`` sub-environment ``i`` follows ``make("CliffWalking-v1")`` (or the
    slippery variant) reset with ``seed=s + i`` and fed the same actions, observations, rewards,
    terminations, truncations and ``{"prob": ...}`` infos included, autoresetting as a
    :class:`~vecgym.vector.SyncVectorEnv` of those envs would in the chosen ``autoreset_mode``.
    :meth:`render` returns one frame (``"rgb_array"``) or text (``"ansi"``) per env.

    Args:
        num_envs: the number of walkers.
        max_episode_steps: truncate an episode after this many steps (``None``: never, as the
            registered ids).
        render_mode: ``None``, ``"rgb_array"`` or ``"ansi"``.
        is_slippery: as :class:`CliffWalkingEnv`.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = CliffWalkingVectorEnv(num_envs=2)
        >>> envs.reset(seed=0)[0]
        array([36, 36])
        >>> obs, rewards, terminated, truncated, infos = envs.step(np.array([UP, RIGHT]))
        >>> obs, rewards
        (array([24, 36]), array([  -1., -100.]))
    """

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        is_slippery: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        single = CliffWalkingEnv(is_slippery=is_slippery)
        self._painter = single
        self.shape = single.shape
        self.is_slippery = is_slippery
        self.single_observation_space = Discrete(int(single.nS))
        self.single_action_space = Discrete(single.nA)
        self._batch_spaces()
        self._build_tables(single)
