"""Taxi: drive to the passenger, pick them up and drop them off at their destination.

Behaviour, transition table, random draws, action masks and ``"ansi"`` text are Gymnasium 1.4's
``Taxi-v4`` (including the ``is_rainy`` and ``fickle_passenger`` variants); frames are drawn with
numpy (no pygame).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.core.spaces.discrete import Discrete
from vecgym.envs.rendering.font import draw_text, text_size
from vecgym.envs.rendering.raster import draw_line, fill_circle, fill_polygon, fill_rect
from vecgym.envs.toy_text._base import TabularEnv
from vecgym.envs.toy_text._vector_base import InfoColumn, InfoColumns, TabularVectorEnv
from vecgym.utils.colorize import colorize
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["MAP", "WINDOW_SIZE", "TaxiEnv", "TaxiVectorEnv"]

#: The city: ``|`` is a wall, ``:`` an open crossing between two columns.
MAP = [
    "+---------+",
    "|R: | : :G|",
    "| : | : : |",
    "| : : : : |",
    "| | : | : |",
    "|Y| : |B: |",
    "+---------+",
]
#: The frame size ``(width, height)`` in pixels (Gymnasium's).
WINDOW_SIZE = (536, 456)
#: Where the grid's top-left cell starts, and the size of a cell ``(width, height)``.
GRID_ORIGIN = (48, 128)
CELL_SIZE = (88, 56)

SOUTH, NORTH, EAST, WEST, PICKUP, DROPOFF = range(6)
_ACTION_NAMES = ("South", "North", "East", "West", "Pickup", "Dropoff")
_NUM_ROWS = _NUM_COLS = 5
_NUM_STATES = 500
_IN_TAXI = 4
# (forward, left-hand drift, right-hand drift) of each move, as (d_row, d_col).
_RAINY_MOVES = {
    SOUTH: ((1, 0), (0, 1), (0, -1)),
    NORTH: ((-1, 0), (0, -1), (0, 1)),
    EAST: ((0, 1), (-1, 0), (1, 0)),
    WEST: ((0, -1), (1, 0), (-1, 0)),
}

# Frame colours.
_CANVAS = (250, 250, 246)
_ROAD = (200, 200, 196)
_LANE = (235, 235, 230)
_WALL = (70, 60, 60)
_TAXI = (250, 200, 30)
_TAXI_DARK = (120, 90, 10)
_PASSENGER = (60, 90, 200)
_SKIN = (240, 200, 160)
_DEST = (200, 40, 160)
_TEXT = (30, 30, 30)


class TaxiEnv(TabularEnv):
    """Pick a passenger up at one of four stands (R, G, Y, B) and drop them at their destination.

    The state ``((taxi_row * 5 + taxi_col) * 5 + passenger_location) * 4 + destination`` (see
    :meth:`encode` / :meth:`decode`; passenger location 4 means "in the taxi") is the observation,
    a Python ``int``. Actions: ``0`` south, ``1`` north, ``2`` east, ``3`` west, ``4`` pickup,
    ``5`` dropoff. Every step costs -1, an illegal pickup or dropoff -10, and delivering the
    passenger gives +20 and terminates. ``info`` holds ``"prob"`` (the probability of the
    transition taken) and ``"action_mask"`` (``int8``, 1 for actions that change the state).

    With ``is_rainy`` a move goes ahead with probability ``rainy_probability`` and drifts to
    either side otherwise; with ``fickle_passenger`` the passenger may, with probability
    ``fickle_probability`` per episode, change destination once after the first move with them
    on board.

    Args:
        render_mode: ``None``, ``"human"``, ``"ansi"`` or ``"rgb_array"``.
        is_rainy: whether moves may drift sideways.
        fickle_passenger: whether the passenger may change their destination.
        rainy_probability: the probability that a move goes where intended when rainy.
        fickle_probability: the per-episode probability that the passenger is fickle.

    Example:
        >>> env = TaxiEnv()
        >>> obs, info = env.reset(seed=3)
        >>> env.decode(obs), info["action_mask"].tolist()
        ((0, 2, 0, 2), [1, 0, 1, 0, 0, 0])
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        render_mode: str | None = None,
        is_rainy: bool = False,
        fickle_passenger: bool = False,
        rainy_probability: float = 0.8,
        fickle_probability: float = 0.3,
    ) -> None:
        self.desc: npt.NDArray[np.bytes_] = np.asarray(MAP, dtype="c")
        self.locs = [(0, 0), (0, 4), (4, 0), (4, 3)]
        self.locs_colors = [(255, 0, 0), (0, 255, 0), (255, 255, 0), (0, 0, 255)]
        self.rainy_probability = rainy_probability
        self._rainy_lateral_probability = (1.0 - rainy_probability) / 2.0
        self.fickle_probability = fickle_probability
        self.max_row = _NUM_ROWS - 1
        self.max_col = _NUM_COLS - 1

        self.initial_state_distrib = np.zeros(_NUM_STATES)
        self.P: dict[int, dict[int, list[tuple[float, int, int, bool]]]] = {}
        for row in range(_NUM_ROWS):
            for col in range(_NUM_COLS):
                for pass_idx in range(len(self.locs) + 1):
                    for dest_idx in range(len(self.locs)):
                        state = self.encode(row, col, pass_idx, dest_idx)
                        if pass_idx < _IN_TAXI and pass_idx != dest_idx:
                            self.initial_state_distrib[state] += 1
                        self.P[state] = {
                            action: self._outcomes(row, col, pass_idx, dest_idx, action, is_rainy)
                            for action in range(6)
                        }
        self.initial_state_distrib /= self.initial_state_distrib.sum()
        self.action_space = Discrete(6)
        self.observation_space = Discrete(_NUM_STATES)

        self.fickle_passenger = fickle_passenger
        self.fickle_step = False
        self.lastaction: Any = None
        self.cell_size = CELL_SIZE
        self.taxi_orientation = 0
        self._init_rendering(render_mode, *WINDOW_SIZE)

    # --- state coding -----------------------------------------------------------------------------
    def encode(self, taxi_row: Any, taxi_col: Any, pass_loc: Any, dest_idx: Any) -> Any:
        """Return the state number of a taxi position, passenger location and destination."""
        return ((taxi_row * 5 + taxi_col) * 5 + pass_loc) * 4 + dest_idx

    def decode(self, i: Any) -> tuple[int, int, int, int]:
        """Return ``(taxi_row, taxi_col, passenger_location, destination)`` of state ``i``."""
        i, dest_idx = divmod(i, 4)
        i, pass_loc = divmod(i, 5)
        taxi_row, taxi_col = divmod(i, 5)
        assert 0 <= taxi_row < 5
        return taxi_row, taxi_col, pass_loc, dest_idx

    def action_mask(self, state: int) -> npt.NDArray[np.int8]:
        """Return an ``int8`` mask of the actions that change ``state`` (1) or not (0).

        Moves blocked by the city's edge or a wall, and pickups or dropoffs that would be
        penalised, are masked out.
        """
        mask = np.zeros(6, dtype=np.int8)
        row, col, pass_loc, _ = self.decode(state)
        mask[SOUTH] = row < self.max_row
        mask[NORTH] = row > 0
        mask[EAST] = self._open_east(row, col)
        mask[WEST] = self._open_west(row, col)
        mask[PICKUP] = pass_loc < _IN_TAXI and (row, col) == self.locs[pass_loc]
        mask[DROPOFF] = pass_loc == _IN_TAXI and (row, col) in self.locs
        return mask

    # --- dynamics ---------------------------------------------------------------------------------
    def step(self, a: Any) -> tuple[int, int, bool, bool, dict[str, Any]]:
        """Apply action ``a``.

        Draws one uniform number from :attr:`np_random` to pick the transition, and, when a
        fickle passenger changes their mind on this step, one more to pick the new destination.

        Raises:
            InvalidAction: ``a`` is not in ``{0, ..., 5}``.
        """
        prob, state, reward, terminated = self._sample_transition(a)
        self.lastaction = a

        old_row, old_col, old_pass, old_dest = self.decode(self.s)
        row, col, pass_loc, _ = self.decode(state)
        moved = row != old_row or col != old_col
        if self.fickle_passenger and self.fickle_step and old_pass == _IN_TAXI and moved:
            self.fickle_step = False
            others = [d for d in range(len(self.locs)) if d != old_dest]
            state = self.encode(row, col, pass_loc, self.np_random.choice(others))

        self.s = state
        if self.render_mode == "human":
            self.render()
        return (
            int(state),
            reward,
            terminated,
            False,
            {"prob": prob, "action_mask": self.action_mask(state)},
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Start a new episode (one uniform draw, plus one more when ``fickle_passenger``).

        ``options`` is ignored.
        """
        self._reset_state(seed)
        self.fickle_step = (
            self.fickle_passenger and self.np_random.random() < self.fickle_probability
        )
        self.taxi_orientation = 0
        if self.render_mode == "human":
            self.render()
        return int(self.s), {"prob": 1.0, "action_mask": self.action_mask(self.s)}

    def _open_east(self, row: int, col: int) -> bool:
        return bool(col < self.max_col and self.desc[1 + row, 2 * col + 2] == b":")

    def _open_west(self, row: int, col: int) -> bool:
        return bool(col > 0 and self.desc[1 + row, 2 * col] == b":")

    def _drift(self, row: int, col: int, d_row: int, d_col: int) -> tuple[int, int]:
        """Where a sideways drift ``(d_row, d_col)`` from ``(row, col)`` ends (walls stop it)."""
        if d_col == 1:
            return (row, col + 1) if self._open_east(row, col) else (row, col)
        if d_col == -1:
            return (row, col - 1) if self._open_west(row, col) else (row, col)
        return min(max(row + d_row, 0), self.max_row), col

    def _can_move(self, row: int, col: int, action: int) -> bool:
        if action == SOUTH:
            return row < self.max_row
        if action == NORTH:
            return row > 0
        if action == EAST:
            return self._open_east(row, col)
        return self._open_west(row, col)

    def _service(
        self, row: int, col: int, pass_idx: int, dest_idx: int, action: int
    ) -> tuple[int, int, bool]:
        """Outcome ``(new_pass_idx, reward, terminated)`` of a pickup or dropoff."""
        here = (row, col)
        if action == PICKUP:
            if pass_idx < _IN_TAXI and here == self.locs[pass_idx]:
                return _IN_TAXI, -1, False
            return pass_idx, -10, False
        if pass_idx == _IN_TAXI and here == self.locs[dest_idx]:
            return dest_idx, 20, True
        if pass_idx == _IN_TAXI and here in self.locs:
            return self.locs.index(here), -1, False
        return pass_idx, -10, False

    def _outcomes(
        self, row: int, col: int, pass_idx: int, dest_idx: int, action: int, is_rainy: bool
    ) -> list[tuple[float, int, int, bool]]:
        """The ``(probability, next_state, reward, terminated)`` outcomes of one state-action."""
        if action >= PICKUP:
            new_pass, reward, terminated = self._service(row, col, pass_idx, dest_idx, action)
            return [(1.0, self.encode(row, col, new_pass, dest_idx), reward, terminated)]
        if not self._can_move(row, col, action):
            ahead = left = right = (row, col)
        else:
            forward, left_drift, right_drift = _RAINY_MOVES[action]
            ahead = (row + forward[0], col + forward[1])
            left = self._drift(row, col, *left_drift)
            right = self._drift(row, col, *right_drift)
        ahead_state = self.encode(*ahead, pass_idx, dest_idx)
        if not is_rainy:
            return [(1.0, ahead_state, -1, False)]
        lateral = self._rainy_lateral_probability
        return [
            (self.rainy_probability, ahead_state, -1, False),
            (lateral, self.encode(*left, pass_idx, dest_idx), -1, False),
            (lateral, self.encode(*right, pass_idx, dest_idx), -1, False),
        ]

    # --- rendering --------------------------------------------------------------------------------
    def _render_text(self) -> str:
        cells = [[c.decode("utf-8") for c in line] for line in self.desc.tolist()]
        row, col, pass_idx, dest_idx = self.decode(self.s)
        taxi = (1 + row, 2 * col + 1)
        if pass_idx < _IN_TAXI:
            cells[taxi[0]][taxi[1]] = colorize(cells[taxi[0]][taxi[1]], "yellow", highlight=True)
            p_row, p_col = self.locs[pass_idx]
            cell = cells[1 + p_row][2 * p_col + 1]
            cells[1 + p_row][2 * p_col + 1] = colorize(cell, "blue", bold=True)
        else:
            cell = cells[taxi[0]][taxi[1]]
            cell = "_" if cell == " " else cell
            cells[taxi[0]][taxi[1]] = colorize(cell, "green", highlight=True)
        d_row, d_col = self.locs[dest_idx]
        cells[1 + d_row][2 * d_col + 1] = colorize(cells[1 + d_row][2 * d_col + 1], "magenta")
        text = "\n".join("".join(line) for line in cells) + "\n"
        if self.lastaction is not None:
            return text + f"  ({_ACTION_NAMES[self.lastaction]})\n"
        return text + "\n"

    def get_surf_loc(self, map_loc: tuple[int, int]) -> tuple[int, int]:
        """The top-left pixel ``(x, y)`` of grid cell ``map_loc = (row, col)`` in a frame
        (Gymnasium's name for it; it scales with :attr:`cell_size`)."""
        width, height = self.cell_size
        return GRID_ORIGIN[0] + map_loc[1] * width, GRID_ORIGIN[1] + map_loc[0] * height

    def _draw_frame(self) -> npt.NDArray[np.uint8]:
        canvas = self._new_canvas(_CANVAS)
        self._draw_city(canvas)
        row, col, pass_idx, dest_idx = self.decode(self.s)
        x, y = self.get_surf_loc(self.locs[dest_idx])
        cw, ch = CELL_SIZE
        for inset in range(4):
            _outline(
                canvas, x + 4 + inset, y + 4 + inset, x + cw - 4 - inset, y + ch - 4 - inset, _DEST
            )
        if pass_idx < _IN_TAXI:
            px, py = self.get_surf_loc(self.locs[pass_idx])
            _draw_person(canvas, px + cw * 0.78, py + ch * 0.5, ch)
        if self.lastaction in (SOUTH, NORTH, EAST, WEST):
            self.taxi_orientation = int(self.lastaction)
        tx, ty = self.get_surf_loc((row, col))
        _draw_taxi(canvas, tx + cw / 2, ty + ch / 2, self.taxi_orientation, pass_idx == _IN_TAXI)
        return canvas

    def _draw_city(self, canvas: npt.NDArray[np.uint8]) -> None:
        """Paint the title, the road grid, the four stands with their letters, and the walls."""
        title = "TAXI"
        tw, _ = text_size(title, 4)
        draw_text(canvas, title, (WINDOW_SIZE[0] - tw) // 2, 40, 4, _TEXT)
        cw, ch = CELL_SIZE
        x0, y0 = GRID_ORIGIN
        x1, y1 = x0 + 5 * cw, y0 + 5 * ch
        fill_rect(canvas, x0, y0, x1, y1, _ROAD)
        for k in range(1, 5):
            draw_line(canvas, (x0 + k * cw, y0), (x0 + k * cw, y1), _LANE, 1)
            draw_line(canvas, (x0, y0 + k * ch), (x1, y0 + k * ch), _LANE, 1)
        for (row, col), color, letter in zip(self.locs, self.locs_colors, "RGYB", strict=True):
            x, y = self.get_surf_loc((row, col))
            fill_rect(canvas, x + 2, y + 2, x + cw - 2, y + ch - 2, color)
            draw_text(canvas, letter, x + 8, y + 8, 3, _TEXT)
        for row in range(5):
            for col in range(4):
                if self.desc[1 + row, 2 * col + 2] == b"|":
                    wx = x0 + (col + 1) * cw
                    fill_rect(canvas, wx - 3, y0 + row * ch, wx + 3, y0 + (row + 1) * ch, _WALL)
        for inset in range(6):
            _outline(canvas, x0 - 6 + inset, y0 - 6 + inset, x1 + 6 - inset, y1 + 6 - inset, _WALL)


def _outline(
    canvas: npt.NDArray[np.uint8],
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    color: tuple[int, int, int],
) -> None:
    """Paint a one-pixel rectangle outline."""
    fill_rect(canvas, x0, y0, x1, y0 + 1, color)
    fill_rect(canvas, x0, y1 - 1, x1, y1, color)
    fill_rect(canvas, x0, y0, x0 + 1, y1, color)
    fill_rect(canvas, x1 - 1, y0, x1, y1, color)


def _draw_person(canvas: npt.NDArray[np.uint8], cx: float, cy: float, size: float) -> None:
    """Paint a waiting passenger standing at ``(cx, cy)``."""
    fill_circle(canvas, cx, cy - 0.22 * size, 0.12 * size, _SKIN)
    body = [
        (cx - 0.14 * size, cy + 0.35 * size),
        (cx + 0.14 * size, cy + 0.35 * size),
        (cx + 0.1 * size, cy - 0.08 * size),
        (cx - 0.1 * size, cy - 0.08 * size),
    ]
    fill_polygon(canvas, body, _PASSENGER)


def _draw_taxi(
    canvas: npt.NDArray[np.uint8], cx: float, cy: float, orientation: int, full: bool
) -> None:
    """Paint the taxi centred on ``(cx, cy)``, facing its last move; a passenger shows inside."""
    vertical = orientation in (SOUTH, NORTH)
    half_len, half_wid = (22.0, 14.0) if vertical else (30.0, 18.0)
    hw, hh = (half_wid, half_len) if vertical else (half_len, half_wid)
    fill_rect(canvas, cx - hw, cy - hh, cx + hw, cy + hh, _TAXI_DARK)
    fill_rect(canvas, cx - hw + 2, cy - hh + 2, cx + hw - 2, cy + hh - 2, _TAXI)
    # The windscreen marks the front of the taxi.
    front = {SOUTH: (0.0, 1.0), NORTH: (0.0, -1.0), EAST: (1.0, 0.0), WEST: (-1.0, 0.0)}[
        orientation
    ]
    fx, fy = cx + front[0] * (hw - 7), cy + front[1] * (hh - 7)
    fill_rect(canvas, fx - 5, fy - 5, fx + 5, fy + 5, _TAXI_DARK)
    if full:
        fill_circle(canvas, cx - front[0] * 6, cy - front[1] * 6, 6, _PASSENGER)


class TaxiVectorEnv(TabularVectorEnv):
    """``num_envs`` taxis stepped together with numpy, each one a :class:`TaxiEnv` with a time
    limit, seed for seed.

    After ``reset(seed=s)`` sub-environment ``i`` follows ``make("Taxi-v4")`` (with the same
    kwargs) reset with ``seed=s + i`` and fed the same actions: observations, rewards,
    terminations, truncations and infos (``"prob"`` and the ``int8`` ``"action_mask"``, batched
    as :class:`~vecgym.vector.SyncVectorEnv` batches them), autoresetting as a ``SyncVectorEnv``
    of those envs would in the chosen ``autoreset_mode``. A fickle passenger's change of
    destination draws from that env's generator, as the single env does. :meth:`render` returns
    one frame (``"rgb_array"``) or text (``"ansi"``) per env.

    Args:
        num_envs: the number of taxis.
        max_episode_steps: truncate an episode after this many steps (``None``: never;
            ``make_vec`` passes the registered limit, 200).
        render_mode: ``None``, ``"rgb_array"`` or ``"ansi"``.
        is_rainy: as :class:`TaxiEnv`.
        fickle_passenger: as :class:`TaxiEnv`.
        rainy_probability: as :class:`TaxiEnv`.
        fickle_probability: as :class:`TaxiEnv`.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = TaxiVectorEnv(num_envs=2)
        >>> obs, infos = envs.reset(seed=3)
        >>> obs, infos["prob"], infos["action_mask"].shape
        (array([ 42, 468]), array([1., 1.]), (2, 6))
    """

    _reset_prob_is_int = False

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        is_rainy: bool = False,
        fickle_passenger: bool = False,
        rainy_probability: float = 0.8,
        fickle_probability: float = 0.3,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        single = TaxiEnv(
            is_rainy=is_rainy,
            fickle_passenger=fickle_passenger,
            rainy_probability=rainy_probability,
            fickle_probability=fickle_probability,
        )
        self._painter = single
        self.fickle_passenger = fickle_passenger
        self.fickle_probability = fickle_probability
        self.single_observation_space = Discrete(_NUM_STATES)
        self.single_action_space = Discrete(6)
        self._batch_spaces()
        self._build_tables(single)
        self._action_masks = np.stack([single.action_mask(s) for s in range(_NUM_STATES)])
        #: Whether each env's passenger may still change their destination this episode.
        self.fickle_step = np.zeros(self.num_envs, dtype=np.bool_)
        #: Each env's taxi heading in its frames (updated when it is drawn, as in TaxiEnv).
        self.taxi_orientation = np.zeros(self.num_envs, dtype=np.int64)

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: Any) -> None:
        """A start state (one draw), then for a fickle passenger one more draw, per env."""
        draws: list[float] = []
        fickle: list[bool] = []
        for i in indices.tolist():
            rng = self._draws(i)
            draws.append(rng.random())
            if self.fickle_passenger:
                fickle.append(rng.random() < self.fickle_probability)
        self.s[indices] = self._initial_states(draws)
        self.fickle_step[indices] = fickle if self.fickle_passenger else False
        self.lastaction[indices] = -1
        self.taxi_orientation[indices] = 0

    def _after_transition(
        self, old_states: npt.NDArray[np.int64], actions: np.ndarray, pending: Any
    ) -> None:
        """A fickle passenger on board changes destination after the taxi's first move."""
        if not self.fickle_passenger:
            return
        new_states = self.s
        moved = old_states // 20 != new_states // 20  # taxi_row * 5 + taxi_col differs
        on_board = (old_states // 4) % 5 == _IN_TAXI
        changing = self.fickle_step & on_board & moved
        if pending is not None:
            changing[pending] = False
        for i in np.flatnonzero(changing).tolist():
            self.fickle_step[i] = False
            old_dest = int(old_states[i]) % 4
            others = [d for d in range(len(self.locs)) if d != old_dest]
            new_dest = int(self._rng(i).choice(others))
            new_states[i] += new_dest - new_states[i] % 4

    @property
    def locs(self) -> list[tuple[int, int]]:
        """The four passenger stands ``(row, col)``: R, G, Y, B."""
        return self._painter.locs  # type: ignore[attr-defined]

    def _step_info(self) -> InfoColumns:
        return {
            "prob": InfoColumn(self._step_prob, self._step_prob_is_int),
            "action_mask": InfoColumn(self._action_masks[self._step_state]),
        }

    def _reset_info(self) -> InfoColumns:
        columns = super()._reset_info()
        columns["action_mask"] = InfoColumn(self._action_masks[self.s])
        return columns

    def _load_painter(self, i: int) -> None:
        super()._load_painter(i)
        self._painter.taxi_orientation = int(self.taxi_orientation[i])  # type: ignore[attr-defined]

    def _unload_painter(self, i: int) -> None:
        self.taxi_orientation[i] = self._painter.taxi_orientation  # type: ignore[attr-defined]
