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

__all__ = [
    "BlackjackEnv",
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
