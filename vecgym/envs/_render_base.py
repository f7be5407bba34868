"""The render-mode and action plumbing shared by every built-in single environment.

Each built-in environment draws its scene into a numpy canvas; :class:`RenderedEnv` turns that
into Gymnasium's ``render()`` contract: ``"human"`` shows the frame in a window (through the
optional ``human`` extra, pygame imported lazily) and returns ``None``, every other mode returns
what :meth:`RenderedEnv._render_output` gives, and no render mode warns and returns ``None``.
The classic-control (:mod:`vecgym.envs.classic_control._base`) and toy-text
(:mod:`vecgym.envs.toy_text._base`) families build on it.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np

from vecgym import error, logger
from vecgym.core.env import Env, RenderFrame
from vecgym.core.spaces.discrete import Discrete
from vecgym.envs.rendering.display import HumanDisplay

__all__ = [
    "INVALID_ACTION_MSG",
    "NO_RENDER_MODE_MSG",
    "UNSUPPORTED_RENDER_MODE_MSG",
    "RenderedEnv",
]

ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")

NO_RENDER_MODE_MSG = (
    "render() was called, but the environment has no render_mode; choose one when making it, e.g. "
    'vecgym.make("{}", render_mode="rgb_array")'
)
UNSUPPORTED_RENDER_MODE_MSG = "render_mode must be None or one of {}, got {!r}"
INVALID_ACTION_MSG = "action must be an element of {}, got {!r} ({})"

#: Action types checked without going through ``Space.contains`` (same verdict, less overhead).
_PLAIN_INT_TYPES = (int, np.int64)


class RenderedEnv(Env[ObsT, ActT], Generic[ObsT, ActT]):
    """An :class:`~vecgym.Env` whose output in its render mode comes from :meth:`_render_output`.

    Subclasses call :meth:`_init_rendering` in ``__init__``, implement :meth:`_render_output`
    (a frame, the ``"ansi"`` text, or ``None`` when there is nothing to draw yet), and call
    ``self.render()`` at the end of ``reset``/``step`` when ``render_mode == "human"``.
    """

    _display: HumanDisplay | None = None
    _action_range: tuple[Any, int, int] | None = None

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

    def _check_discrete_action(self, action: Any) -> None:
        """Raise :class:`~vecgym.error.InvalidAction` unless ``action`` is in ``action_space``.

        Plain ``int`` / ``numpy.int64`` actions against an ``int64`` :class:`Discrete` space take
        a shortcut giving the same verdict as ``action_space.contains``.
        """
        space = self.action_space
        cached = self._action_range
        if cached is None or cached[0] is not space:
            if isinstance(space, Discrete) and space.dtype == np.int64:
                start = int(space.start)
                cached = (space, start, start + int(space.n))
            else:
                cached = (space, 0, -1)
            self._action_range = cached
        if type(action) in _PLAIN_INT_TYPES and cached[2] > cached[1]:
            if cached[1] <= action < cached[2]:
                return
        elif space.contains(action):
            return
        raise error.InvalidAction(INVALID_ACTION_MSG.format(space, action, type(action).__name__))

    def render(self) -> RenderFrame | None:
        """Draw the current state in :attr:`render_mode`.

        Returns:
            In ``"human"`` mode ``None`` (the frame is shown in a window); in the other modes
            what :meth:`_render_output` returns. Without a render mode a warning is issued and
            ``None`` is returned.

        Raises:
            DependencyNotInstalled: ``"human"`` mode without pygame (the ``human`` extra).
        """
        if self.render_mode is None:
            env_id = self.spec.id if self.spec is not None else type(self).__name__
            logger.warn(NO_RENDER_MODE_MSG.format(env_id))
            return None
        output = self._render_output()
        if output is None or self.render_mode != "human":
            return output
        if self._display is None:
            height, width = self._frame_size
            self._display = HumanDisplay(width, height, self.metadata["render_fps"])
        assert isinstance(output, np.ndarray), "human mode draws frames"
        self._display.show(output)
        return None

    def close(self) -> None:
        """Close the ``"human"`` window if one is open; safe to call more than once."""
        if self._display is not None:
            self._display.close()
            self._display = None

    def _render_output(self) -> RenderFrame | None:
        """Return the current frame (or text), or ``None`` when there is nothing to draw yet."""
        raise NotImplementedError
