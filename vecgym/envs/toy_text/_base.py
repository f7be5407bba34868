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

from vecgym import error, logger
from vecgym.core.env import Env
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.space import Space
from vecgym.envs.rendering.display import HumanDisplay

__all__ = ["INVALID_ACTION_MSG", "NO_RENDER_MODE_MSG", "UNSUPPORTED_RENDER_MODE_MSG", "ToyTextEnv"]

ObsT = TypeVar("ObsT")

#: Gymnasium's wording, kept so that warning filters written for it keep matching.
NO_RENDER_MODE_MSG = (
    "You are calling render method without specifying any render mode. "
    "You can specify the render_mode at initialization, "
    'e.g. gym.make("{}", render_mode="rgb_array")'
)
UNSUPPORTED_RENDER_MODE_MSG = "render_mode must be None or one of {}, got {!r}"
INVALID_ACTION_MSG = "action must be an element of {}, got {!r} ({})"

_PLAIN_INT_TYPES = (int, np.int64)


class ToyTextEnv(Env[ObsT, Any], Generic[ObsT]):
    """An :class:`~vecgym.Env` with a :class:`Discrete` action space and numpy-drawn frames.

    Subclasses call :meth:`_init_rendering` in ``__init__``, implement :meth:`_draw_frame` (and
    :meth:`_render_text` when ``"ansi"`` is a render mode), and call ``self.render()`` at the end
    of ``reset``/``step`` when ``render_mode == "human"``.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}

    _display: HumanDisplay | None = None
    action_space: Space[Any]
    observation_space: Space[Any]
    #: The current state (set by ``reset``).
    s: Any

    def _init_rendering(self, render_mode: str | None, width: int, height: int) -> None:
        """Validate and store ``render_mode``; remember the frame size.

        Raises:
            UnsupportedMode: ``render_mode`` is neither ``None`` nor in
                ``metadata["render_modes"]``.
        """
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise error.UnsupportedMode(UNSUPPORTED_RENDER_MODE_MSG.format(modes, render_mode))
        self.render_mode = render_mode
        self._frame_size = (int(height), int(width))
        self._display = None

    def _check_action(self, action: Any) -> int:
        """Return ``action`` as an ``int`` index into the transition table.

        Raises:
            InvalidAction: ``action`` is not an element of :attr:`action_space`.
        """
        space = self.action_space
        assert isinstance(space, Discrete)
        if type(action) in _PLAIN_INT_TYPES:
            if 0 <= action < int(space.n):
                return int(action)
        elif space.contains(action):
            return int(action)
        raise error.InvalidAction(INVALID_ACTION_MSG.format(space, action, type(action).__name__))

    def render(self) -> npt.NDArray[np.uint8] | str | None:
        """Draw the current state in :attr:`render_mode`.

        Returns:
            ``"rgb_array"``: a new ``uint8`` array of shape ``(height, width, 3)``; ``"ansi"``: the
            text picture Gymnasium prints; ``"human"``: ``None`` (the frame is shown in a window).
            Without a render mode a warning is issued and ``None`` is returned. Before the first
            ``reset`` there is nothing to draw and ``None`` is returned.

        Raises:
            DependencyNotInstalled: ``"human"`` mode without pygame (the ``human`` extra).
        """
        if self.render_mode is None:
            env_id = self.spec.id if self.spec is not None else type(self).__name__
            logger.warn(NO_RENDER_MODE_MSG.format(env_id))
            return None
        if not self._has_state():
            return None
        if self.render_mode == "ansi":
            return self._render_text()
        frame = self._draw_frame()
        if self.render_mode != "human":
            return frame
        if self._display is None:
            height, width = self._frame_size
            self._display = HumanDisplay(width, height, self.metadata["render_fps"])
        self._display.show(frame)
        return None

    def close(self) -> None:
        """Close the ``"human"`` window if one is open; safe to call more than once."""
        if self._display is not None:
            self._display.close()
            self._display = None

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
