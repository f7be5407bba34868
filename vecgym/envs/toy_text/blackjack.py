"""Blackjack: beat the dealer by drawing cards that sum closer to 21 without going over.

Behaviour and random draws are Gymnasium 1.4's ``Blackjack-v1`` (Sutton and Barto's Example 5.1
with ``sab=True``); frames are drawn with numpy (no pygame).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.tuple import Tuple
from vecgym.envs.rendering.font import draw_text, text_size
from vecgym.envs.rendering.raster import fill_circle, fill_polygon, fill_rect
from vecgym.envs.toy_text._base import ToyTextEnv
from vecgym.envs.toy_text._vector_base import ToyTextVectorEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = [
    "BlackjackEnv",
    "BlackjackVectorEnv",
    "cmp",
    "deck",
    "draw_card",
    "draw_hand",
    "is_bust",
    "is_natural",
    "score",
    "sum_hand",
    "usable_ace",
]

#: An infinite deck's card values: ace = 1, 2-10, and jack, queen, king = 10.
deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]

#: The frame size ``(width, height)`` in pixels (Gymnasium's).
SCREEN_SIZE = (384, 376)

_FELT = (196, 216, 158)
_INK = (30, 50, 30)
_CARD = (252, 252, 248)
_CARD_EDGE = (60, 60, 60)
_CARD_BACK = (60, 80, 170)
_CARD_BACK_PATTERN = (110, 130, 210)
_RED = (200, 30, 40)
_BLACK = (20, 20, 20)
_CARD_W, _CARD_H = 80, 112
_DEALER_CARD_POS = (96, 72)
_HIDDEN_CARD_POS = (208, 72)


def cmp(a: float, b: float) -> float:
    """Return ``1.0`` if ``a > b``, ``-1.0`` if ``a < b`` and ``0.0`` otherwise."""
    return float(a > b) - float(a < b)


def draw_card(np_random: np.random.Generator) -> int:
    """Draw one card value from the infinite deck (one uniform choice)."""
    return int(np_random.choice(deck))


def draw_hand(np_random: np.random.Generator) -> list[int]:
    """Draw a starting hand of two cards."""
    return [draw_card(np_random), draw_card(np_random)]


def usable_ace(hand: list[int]) -> int:
    """``1`` when the hand holds an ace that can count as 11 without busting, else ``0``."""
    return int(1 in hand and sum(hand) + 10 <= 21)


def sum_hand(hand: list[int]) -> int:
    """The hand's total, counting a usable ace as 11."""
    return sum(hand) + 10 if usable_ace(hand) else sum(hand)


def is_bust(hand: list[int]) -> bool:
    """Whether the hand's total is over 21."""
    return sum_hand(hand) > 21


def score(hand: list[int]) -> int:
    """The hand's total, or 0 when it is bust."""
    return 0 if is_bust(hand) else sum_hand(hand)


def is_natural(hand: list[int]) -> bool:
    """Whether the hand is a natural blackjack: exactly an ace and a ten-valued card."""
    return sorted(hand) == [1, 10]


class BlackjackEnv(ToyTextEnv[tuple[int, int, int]]):
    """Play one hand of blackjack against a dealer who draws to 17, from an infinite deck.

    The observation is ``(player_sum, dealer_showing_card, usable_ace)`` as Python ``int``s;
    actions are ``0`` stick and ``1`` hit. Hitting past 21 loses (-1.0) and terminates; sticking
    lets the dealer play and terminates with +1.0 (win), 0.0 (draw) or -1.0 (loss). With
    ``natural`` a winning natural blackjack pays 1.5; with ``sab`` (Sutton and Barto's rules,
    overriding ``natural``) a player's natural wins outright unless the dealer has one too.
    ``info`` is always empty.

    Args:
        render_mode: ``None``, ``"human"`` or ``"rgb_array"``.
        natural: pay 1.5 for a winning natural blackjack.
        sab: follow Sutton and Barto's rules exactly.

    Example:
        >>> env = BlackjackEnv(sab=True)
        >>> env.reset(seed=1)
        ((20, 7, 0), {})
        >>> env.step(0)
        ((20, 7, 0), 1.0, True, False, {})
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": 4}

    def __init__(self, render_mode: str | None = None, natural: bool = False, sab: bool = False):
        self.action_space = Discrete(2)
        self.observation_space = Tuple((Discrete(32), Discrete(11), Discrete(2)))
        self.natural = natural
        self.sab = sab
        self._init_rendering(render_mode, *SCREEN_SIZE)

    def step(self, action: Any) -> tuple[tuple[int, int, int], float, bool, bool, dict[str, Any]]:
        """Hit (draw a card) or stick (the dealer draws to 17 and the hands are scored).

        Raises:
            InvalidAction: ``action`` is not ``0`` or ``1``.
        """
        if self._check_action(action):
            self.player.append(draw_card(self.np_random))
            terminated = is_bust(self.player)
            reward = -1.0 if terminated else 0.0
        else:
            terminated = True
            while sum_hand(self.dealer) < 17:
                self.dealer.append(draw_card(self.np_random))
            reward = cmp(score(self.player), score(self.dealer))
            if self.sab:
                if is_natural(self.player) and not is_natural(self.dealer):
                    reward = 1.0
            elif self.natural and is_natural(self.player) and reward == 1.0:
                reward = 1.5
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), reward, terminated, False, {}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[tuple[int, int, int], dict[str, Any]]:
        """Deal two cards to the dealer, then two to the player; ``options`` is ignored.

        After the four card draws, one more draw picks the suit of the dealer's showing card and,
        when it is worth 10, another picks its face (J, Q or K), as in Gymnasium.
        """
        super().reset(seed=seed)
        self.dealer = draw_hand(self.np_random)
        self.player = draw_hand(self.np_random)
        showing = self.dealer[0]
        self.dealer_top_card_suit = self.np_random.choice(["C", "D", "H", "S"])
        if showing == 1:
            self.dealer_top_card_value_str = "A"
        elif showing == 10:
            self.dealer_top_card_value_str = self.np_random.choice(["J", "Q", "K"])
        else:
            self.dealer_top_card_value_str = str(showing)
        if self.render_mode == "human":
            self.render()
        return self._get_obs(), {}

    def _get_obs(self) -> tuple[int, int, int]:
        return sum_hand(self.player), self.dealer[0], usable_ace(self.player)

    # --- rendering --------------------------------------------------------------------------------
    def _has_state(self) -> bool:
        return hasattr(self, "player")

    def _draw_frame(self) -> npt.NDArray[np.uint8]:
        canvas = self._new_canvas(_FELT)
        player_sum, showing, ace = self._get_obs()
        draw_text(canvas, f"DEALER: {showing}", 40, 32, 3, _INK)
        _draw_card(
            canvas, *_DEALER_CARD_POS, self.dealer_top_card_value_str, self.dealer_top_card_suit
        )
        _draw_card_back(canvas, *_HIDDEN_CARD_POS)
        draw_text(canvas, "PLAYER", 40, 208, 3, _INK)
        digits = str(player_sum)
        width, _ = text_size(digits, 8)
        draw_text(canvas, digits, (SCREEN_SIZE[0] - width) // 2, 248, 8, _INK)
        if ace:
            label = "USABLE ACE"
            width, _ = text_size(label, 3)
            draw_text(canvas, label, (SCREEN_SIZE[0] - width) // 2, 328, 3, _INK)
        return canvas


def _draw_card(canvas: npt.NDArray[np.uint8], x: int, y: int, rank: str, suit: str) -> None:
    """Paint a face-up card with its rank in the corners and its suit in the middle."""
    fill_rect(canvas, x - 2, y - 2, x + _CARD_W + 2, y + _CARD_H + 2, _CARD_EDGE)
    fill_rect(canvas, x, y, x + _CARD_W, y + _CARD_H, _CARD)
    color = _RED if suit in ("D", "H") else _BLACK
    draw_text(canvas, rank, x + 6, y + 6, 2, color)
    width, height = text_size(rank, 2)
    draw_text(canvas, rank, x + _CARD_W - 6 - width, y + _CARD_H - 6 - height, 2, color)
    _draw_suit(canvas, x + _CARD_W / 2, y + _CARD_H / 2, suit, color)


def _draw_card_back(canvas: npt.NDArray[np.uint8], x: int, y: int) -> None:
    """Paint a face-down card."""
    fill_rect(canvas, x - 2, y - 2, x + _CARD_W + 2, y + _CARD_H + 2, _CARD_EDGE)
    fill_rect(canvas, x, y, x + _CARD_W, y + _CARD_H, _CARD_BACK)
    for row in range(y + 8, y + _CARD_H - 8, 12):
        for col in range(x + 8, x + _CARD_W - 8, 12):
            fill_rect(canvas, col, row, col + 6, row + 6, _CARD_BACK_PATTERN)


def _draw_suit(
    canvas: npt.NDArray[np.uint8], cx: float, cy: float, suit: str, color: tuple[int, int, int]
) -> None:
    """Paint a suit symbol (clubs, diamonds, hearts or spades) about 28 pixels across."""
    r = 14.0
    if suit == "D":
        fill_polygon(
            canvas, [(cx, cy - r * 1.3), (cx + r, cy), (cx, cy + r * 1.3), (cx - r, cy)], color
        )
    elif suit == "H":
        fill_circle(canvas, cx - r / 2, cy - r / 3, r / 2 + 1, color)
        fill_circle(canvas, cx + r / 2, cy - r / 3, r / 2 + 1, color)
        fill_polygon(canvas, [(cx - r, cy - r / 6), (cx + r, cy - r / 6), (cx, cy + r)], color)
    elif suit == "S":
        fill_circle(canvas, cx - r / 2, cy + r / 4, r / 2 + 1, color)
        fill_circle(canvas, cx + r / 2, cy + r / 4, r / 2 + 1, color)
        fill_polygon(canvas, [(cx - r, cy + r / 6), (cx + r, cy + r / 6), (cx, cy - r)], color)
        fill_polygon(canvas, [(cx, cy + r / 4), (cx + r / 3, cy + r), (cx - r / 3, cy + r)], color)
    else:
        for dx, dy in ((0.0, -r / 2), (-r / 2, r / 5), (r / 2, r / 5)):
            fill_circle(canvas, cx + dx, cy + dy, r / 2.2, color)
        fill_polygon(canvas, [(cx, cy), (cx + r / 3, cy + r), (cx - r / 3, cy + r)], color)


#: ``deck`` as an array, indexed by the draw ``np_random.choice(deck)`` makes.
_DECK = np.array(deck, dtype=np.int64)
_SUITS = ("C", "D", "H", "S")
_FACES = ("J", "Q", "K")


class BlackjackVectorEnv(ToyTextVectorEnv):
    """``num_envs`` blackjack tables played together, each one a :class:`BlackjackEnv`, seed for
    seed.

    After ``reset(seed=s)`` sub-environment ``i`` follows ``make("Blackjack-v1")`` (with the same
    ``natural`` / ``sab``) reset with ``seed=s + i`` and fed the same actions, autoresetting as a
    :class:`~vecgym.vector.SyncVectorEnv` of those envs would in the chosen ``autoreset_mode``.
    Hands are kept as card totals, ace flags and card counts (all that scoring needs); every card
    is drawn from its env's generator in the single env's order. A card drawn with
    ``np_random.choice(deck)`` is the draw ``deck[np_random.integers(0, 13)]`` (NumPy's ``choice``
    picks an index with ``integers``), which is what is drawn here, through
    :class:`~vecgym.envs.toy_text._vector_base.Draws` (bit for bit the same, much cheaper).

    Observations are a tuple of three ``int64`` arrays (player sum, dealer's showing card,
    usable ace), as ``SyncVectorEnv`` batches the single env's tuple; infos are empty except for
    ``SAME_STEP``'s ``final_obs`` / ``final_info``. :meth:`render` returns one frame per env.

    Args:
        num_envs: the number of tables.
        max_episode_steps: truncate an episode after this many steps (``None``: never, as the
            registered id).
        render_mode: ``None`` or ``"rgb_array"``.
        natural: as :class:`BlackjackEnv`.
        sab: as :class:`BlackjackEnv`.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Example:
        >>> envs = BlackjackVectorEnv(num_envs=2, sab=True)
        >>> envs.reset(seed=1)
        ((array([20,  6]), array([ 7, 10]), array([0, 0])), {})
        >>> obs, rewards, terminated, truncated, infos = envs.step(np.array([0, 1]))
        >>> obs[0], rewards, terminated
        (array([20, 12]), array([1., 0.]), array([ True, False]))
    """

    metadata: dict[str, Any] = {
        "render_modes": ["rgb_array"],
        "render_fps": 4,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        natural: bool = False,
        sab: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        super().__init__(num_envs, max_episode_steps, render_mode, autoreset_mode)
        self._painter = BlackjackEnv(natural=natural, sab=sab)
        self.natural = natural
        self.sab = sab
        self.single_action_space = Discrete(2)
        self.single_observation_space = Tuple((Discrete(32), Discrete(11), Discrete(2)))
        self._batch_spaces()
        n = self.num_envs
        #: The player's card total counting aces as 1, whether they hold an ace, their card count.
        self.player_sum = np.zeros(n, dtype=np.int64)
        self.player_ace = np.zeros(n, dtype=np.bool_)
        self.player_cards = np.zeros(n, dtype=np.int64)
        #: The dealer's total (aces as 1), whether they hold an ace, and their showing card.
        self.dealer_sum = np.zeros(n, dtype=np.int64)
        self.dealer_ace = np.zeros(n, dtype=np.bool_)
        self.dealer_showing = np.zeros(n, dtype=np.int64)
        #: Whether the dealer's two first cards are a natural blackjack.
        self.dealer_natural = np.zeros(n, dtype=np.bool_)
        #: The showing card's suit and rank as drawn in frames.
        self.dealer_top_card_suit = ["C"] * n
        self.dealer_top_card_value_str = ["2"] * n

    # --- dynamics ---------------------------------------------------------------------------------
    def _reset_envs(self, indices: npt.NDArray[np.intp], params: Any) -> None:
        """Deal dealer then player two cards each, then the suit (and face) of the showing card."""
        for i in indices.tolist():
            integers = self._draws(i).integers
            d1, d2, p1, p2 = (deck[integers(13)] for _ in range(4))
            self.dealer_showing[i] = d1
            self.dealer_sum[i] = d1 + d2
            self.dealer_ace[i] = d1 == 1 or d2 == 1
            self.dealer_natural[i] = sorted((d1, d2)) == [1, 10]
            self.player_sum[i] = p1 + p2
            self.player_ace[i] = p1 == 1 or p2 == 1
            self.player_cards[i] = 2
            self.dealer_top_card_suit[i] = _SUITS[integers(4)]
            if d1 == 1:
                self.dealer_top_card_value_str[i] = "A"
            elif d1 == 10:
                self.dealer_top_card_value_str[i] = _FACES[integers(3)]
            else:
                self.dealer_top_card_value_str[i] = str(d1)

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]]:
        """Deal a card to each hitting player; let the dealer play against each sticking one."""
        active = np.ones(self.num_envs, dtype=np.bool_)
        if pending is not None:
            active[pending] = False
        hit = active & (actions == 1)
        stick = active & (actions != 1)
        for i in np.flatnonzero(hit).tolist():
            card = deck[self._draws(i).integers(13)]
            self.player_sum[i] += card
            self.player_ace[i] |= card == 1
            self.player_cards[i] += 1
        for i in np.flatnonzero(stick).tolist():
            self._dealer_plays(i)
        player_score = _scores(self.player_sum, self.player_ace)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        bust = player_score == 0
        rewards[hit & bust] = -1.0
        dealer_score = _scores(self.dealer_sum, self.dealer_ace)
        outcome = np.sign(player_score - dealer_score).astype(np.float64)
        player_natural = (self.player_cards == 2) & self.player_ace & (self.player_sum == 11)
        if self.sab:
            outcome[player_natural & ~self.dealer_natural] = 1.0
        elif self.natural:
            outcome[player_natural & (outcome == 1.0)] = 1.5
        rewards[stick] = outcome[stick]
        return rewards, stick | (hit & bust)

    def _dealer_plays(self, i: int) -> None:
        """The dealer of env ``i`` draws until their hand is worth 17 or more."""
        total, ace = int(self.dealer_sum[i]), bool(self.dealer_ace[i])
        integers = None
        while (total + 10 if ace and total + 10 <= 21 else total) < 17:
            if integers is None:
                integers = self._draws(i).integers
            card = deck[integers(13)]
            total += card
            ace = ace or card == 1
        self.dealer_sum[i], self.dealer_ace[i] = total, ace

    # --- observations -----------------------------------------------------------------------------
    def _observations(self) -> np.ndarray:
        usable = self.player_ace & (self.player_sum + 10 <= 21)
        player = np.where(usable, self.player_sum + 10, self.player_sum)
        return np.stack((player, self.dealer_showing, usable.astype(np.int64)), axis=1)

    def _present(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        player, showing, ace = (observations[:, k].copy() for k in range(3))
        return player, showing, ace

    def _single_obs(self, row: Any) -> tuple[int, int, int]:
        player, showing, ace = (int(v) for v in row)
        return player, showing, ace

    # --- rendering --------------------------------------------------------------------------------
    def _load_painter(self, i: int) -> None:
        painter: Any = self._painter
        # Any hand with the same total and ace flag draws and scores the same.
        total = int(self.player_sum[i])
        painter.player = [1, total - 1] if self.player_ace[i] else [total]
        painter.dealer = [int(self.dealer_showing[i])]
        painter.dealer_top_card_suit = self.dealer_top_card_suit[i]
        painter.dealer_top_card_value_str = self.dealer_top_card_value_str[i]


def _scores(totals: npt.NDArray[np.int64], aces: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """:func:`score` of many hands given as totals (aces as 1) and ace flags."""
    usable = aces & (totals + 10 <= 21)
    values = np.where(usable, totals + 10, totals)
    return np.where(values > 21, 0, values)
