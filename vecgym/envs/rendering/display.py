"""An on-screen window for ``render_mode="human"``, through the optional ``human`` extra.

vecgym draws every frame itself (see :mod:`vecgym.envs.rendering.raster`); only showing a frame
in a window needs a display library. :class:`HumanDisplay` imports pygame lazily, the first time
a frame is shown, so constructing an environment with ``render_mode="human"`` never fails; the
first ``reset``/``render`` raises :class:`vecgym.error.DependencyNotInstalled` naming the extra
when pygame is missing.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym._extras import import_extra

__all__ = ["HUMAN_EXTRA_MSG", "HumanDisplay", "import_display_backend"]

HUMAN_EXTRA_MSG = (
    'render_mode="human" needs pygame, which vecgym does not depend on; '
    'install it with `pip install "vecgym[human]"`'
)
FRAME_SHAPE_MSG = "a frame must be a uint8 array of shape {}, got {} of shape {}"


def import_display_backend() -> ModuleType:
    """Import and return pygame, the display backend of the ``human`` extra.

    Raises:
        DependencyNotInstalled: pygame cannot be imported; the message names the extra.
    """
    return import_extra("pygame", HUMAN_EXTRA_MSG)


class HumanDisplay:
    """A window that shows ``(height, width, 3)`` ``uint8`` frames at a fixed frame rate.

    The window opens on the first :meth:`show`; :meth:`close` closes it (and is safe to call
    any number of times, also when nothing was ever shown).

    Args:
        width: the window's width in pixels.
        height: the window's height in pixels.
        fps: the frame rate :meth:`show` keeps to (it sleeps between frames as needed).
    """

    def __init__(self, width: int, height: int, fps: float) -> None:
        self.width = int(width)
        self.height = int(height)
        self.fps = fps
        self._pygame: Any = None
        self._screen: Any = None
        self._clock: Any = None

    @property
    def is_open(self) -> bool:
        """Whether the window is currently open."""
        return self._screen is not None

    def show(self, frame: npt.NDArray[np.uint8]) -> None:
        """Show ``frame`` in the window, opening it first if needed, then wait for the next tick.

        Raises:
            DependencyNotInstalled: pygame is missing (the message names the ``human`` extra).
            ValueError: ``frame`` is not a ``uint8`` array of the window's shape.
        """
        expected = (self.height, self.width, 3)
        if not isinstance(frame, np.ndarray) or frame.shape != expected or frame.dtype != np.uint8:
            raise ValueError(
                FRAME_SHAPE_MSG.format(
                    expected, type(frame).__name__, getattr(frame, "shape", None)
                )
            )
        if self._screen is None:
            self._open()
        pygame = self._pygame
        surface = pygame.surfarray.make_surface(np.transpose(frame, (1, 0, 2)))
        self._screen.blit(surface, (0, 0))
        pygame.event.pump()
        self._clock.tick(self.fps)
        pygame.display.flip()

    def close(self) -> None:
        """Close the window if it is open."""
        if self._screen is not None and self._pygame is not None:
            self._pygame.display.quit()
            self._pygame.quit()
        self._screen = None
        self._clock = None

    def _open(self) -> None:
        pygame = import_display_backend()
        pygame.init()
        pygame.display.init()
        self._screen = pygame.display.set_mode((self.width, self.height))
        self._clock = pygame.time.Clock()
        self._pygame = pygame
