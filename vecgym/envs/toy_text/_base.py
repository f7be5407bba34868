"""The render and action plumbing shared by the toy-text environments.

Each environment draws its scene into a numpy canvas (``_draw_frame``) and, where Gymnasium has
one, writes a text picture (``_render_text``); :class:`ToyTextEnv` turns those into Gymnasium's
``render()`` contract: ``"rgb_array"`` returns the frame, ``"ansi"`` the text, ``"human"`` shows the
frame in a window through the optional ``human`` extra (pygame, imported lazily) and returns
``None``, and no render mode warns and returns ``None``.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from vecgym.core.spaces.space import Space
from vecgym.envs._render_base import (
    INVALID_ACTION_MSG as INVALID_ACTION_MSG,
)
from vecgym.envs._render_base import (
    NO_RENDER_MODE_MSG as NO_RENDER_MODE_MSG,
)
from vecgym.envs._render_base import (
    UNSUPPORTED_RENDER_MODE_MSG as UNSUPPORTED_RENDER_MODE_MSG,
)
from vecgym.envs._render_base import RenderedEnv
from vecgym.envs.toy_text.utils import categorical_sample

__all__ = [
    "INVALID_ACTION_MSG",
    "NO_RENDER_MODE_MSG",
    "UNSUPPORTED_RENDER_MODE_MSG",
    "TabularEnv",
    "ToyTextEnv",
]

ObsT = TypeVar("ObsT")


class ToyTextEnv(RenderedEnv[ObsT, Any], Generic[ObsT]):
    """A :class:`~vecgym.envs._render_base.RenderedEnv` with a :class:`Discrete` action space,
    numpy-drawn frames and, where Gymnasium has one, an ``"ansi"`` text picture.

    Subclasses call :meth:`_init_rendering` in ``__init__``, implement :meth:`_draw_frame` (and
    :meth:`_render_text` when ``"ansi"`` is a render mode), and call ``self.render()`` at the end
    of ``reset``/``step`` when ``render_mode == "human"``. ``render()`` returns a new ``uint8``
    frame of shape ``(height, width, 3)`` in ``"rgb_array"`` mode and the text picture Gymnasium
    prints in ``"ansi"`` mode; before the first ``reset`` there is nothing to draw and it returns
    ``None``.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}

    action_space: Space[Any]
    observation_space: Space[Any]
    #: The current state (set by ``reset``).
    s: Any

    def _check_action(self, action: Any) -> int:
        """Return ``action`` as an ``int`` index into the transition table.

        Raises:
            InvalidAction: ``action`` is not an element of :attr:`action_space`.
        """
        self._check_discrete_action(action)
        return int(action)

    def _render_output(self) -> npt.NDArray[np.uint8] | str | None:
        if not self._has_state():
            return None
        if self.render_mode == "ansi":
            return self._render_text()
        return self._draw_frame()

    def _has_state(self) -> bool:
        """Whether ``reset`` has been called, so that there is a state to draw."""
        return hasattr(self, "s")

    def _new_canvas(self, color: tuple[int, int, int]) -> npt.NDArray[np.uint8]:
        """Return a blank frame of this environment's size."""
        height, width = self._frame_size
        canvas = np.empty((height, width, 3), dtype=np.uint8)
        canvas[...] = np.asarray(color, dtype=np.uint8)
        return canvas

    def _draw_frame(self) -> npt.NDArray[np.uint8]:
        """Return the current frame."""
        raise NotImplementedError

    def _render_text(self) -> str:
        """Return the ``"ansi"`` picture of the current state."""
        raise NotImplementedError


class TabularEnv(ToyTextEnv[int]):
    """A :class:`ToyTextEnv` driven by a transition table, as CliffWalking, FrozenLake and Taxi
    are.

    Subclasses fill ``P[state][action]`` with ``(prob, next_state, reward, terminated)``
    transitions and ``initial_state_distrib`` with the start-state probabilities in
    ``__init__``, and set ``lastaction = None``.
    """

    #: ``P[state][action]``: the ``(prob, next_state, reward, terminated)`` transitions.
    P: dict[int, dict[int, list[tuple[float, Any, Any, bool]]]]
    #: The probability of starting in each state.
    initial_state_distrib: npt.NDArray[np.float64]
    #: The last action taken (``None`` after ``reset``).
    lastaction: Any

    def step(self, a: Any) -> tuple[int, Any, bool, bool, dict[str, Any]]:
        """Take action ``a``: one uniform draw from :attr:`np_random` picks its transition.

        Returns:
            ``(next_state, reward, terminated, False, {"prob": prob})``.

        Raises:
            InvalidAction: ``a`` is not an element of :attr:`action_space`.
        """
        prob, state, reward, terminated = self._sample_transition(a)
        self.s = state
        self.lastaction = a
        if self.render_mode == "human":
            self.render()
        return int(state), reward, terminated, False, {"prob": prob}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Draw the start state from ``initial_state_distrib`` (one uniform draw); ``options`` is
        ignored.

        Returns:
            ``(state, {"prob": 1})``.
        """
        self._reset_state(seed)
        if self.render_mode == "human":
            self.render()
        return int(self.s), {"prob": 1}

    def _sample_transition(self, a: Any) -> tuple[float, Any, Any, bool]:
        """Check ``a`` and draw one of its transitions (one uniform draw from
        :attr:`np_random`)."""
        transitions = self.P[self.s][self._check_action(a)]
        return transitions[categorical_sample([t[0] for t in transitions], self.np_random)]

    def _reset_state(self, seed: int | None) -> None:
        """Reseed when ``seed`` is given, draw the start state and forget the last action."""
        super().reset(seed=seed)
        self.s = categorical_sample(self.initial_state_distrib, self.np_random)
        self.lastaction = None
