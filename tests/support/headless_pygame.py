"""The real pygame on SDL's dummy video driver, with a record of what the window was given.

The ``pygame_window`` fixture (``tests/conftest.py``) skips where pygame is missing, selects the
dummy video and audio drivers (a window that exists without a screen), and returns a
:class:`PygameRecord`. Every call goes to pygame itself; the record only notes, on the way
through, each array handed to ``surfarray.make_surface`` and each frame rate handed to a
``time.Clock``'s ``tick``. What the window finally holds is read back from pygame
(:meth:`PygameRecord.window_pixels`).
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

__all__ = ["PygameRecord", "pygame_window_record"]


class PygameRecord:
    """What a display drew through the real ``pygame``: ``shown`` arrays and ``ticks``.

    ``shown[i]`` is the i-th array passed to ``pygame.surfarray.make_surface``: pygame's
    column-major ``(width, height, 3)`` layout, so ``shown[i][x, y]`` is pixel (row y, column x).
    """

    def __init__(self, pygame: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pygame = pygame
        self.shown: list[np.ndarray] = []
        self.ticks: list[float] = []
        make_surface = pygame.surfarray.make_surface
        clock_type = pygame.time.Clock
        record = self

        def recording_make_surface(array: Any) -> Any:
            record.shown.append(np.array(array))
            return make_surface(array)

        class RecordingClock:
            """A real ``pygame.time.Clock`` whose ``tick`` calls are noted."""

            def __init__(self) -> None:
                self._clock = clock_type()

            def tick(self, framerate: float = 0) -> int:
                record.ticks.append(framerate)
                return int(self._clock.tick(framerate))

        monkeypatch.setattr(pygame.surfarray, "make_surface", recording_make_surface)
        monkeypatch.setattr(pygame.time, "Clock", RecordingClock)

    def window_pixels(self) -> np.ndarray:
        """The open window's pixels as a ``(height, width, 3)`` array, read back from pygame."""
        surface = self.pygame.display.get_surface()
        assert surface is not None, "no window is open"
        return np.asarray(self.pygame.surfarray.array3d(surface)).transpose(1, 0, 2)

    @property
    def window_open(self) -> bool:
        """Whether pygame's display module is initialised (a window may be open)."""
        return bool(self.pygame.display.get_init())


def pygame_window_record(monkeypatch: pytest.MonkeyPatch) -> Iterator[PygameRecord]:
    """The body of the ``pygame_window`` fixture: real pygame, headless, recorded."""
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    try:
        yield PygameRecord(pygame, monkeypatch)
    finally:
        pygame.quit()  # whatever the test left open
