"""A stand-in for the pygame module, recording what a display shows (no window, no pygame).

Install it with ``monkeypatch.setitem(sys.modules, "pygame", make_fake_pygame())``; the returned
module's ``shown`` list holds every surface blitted to the screen (the arrays passed to
``surfarray.make_surface``), and ``ticks`` the frame rates passed to ``Clock.tick``.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np


class _Clock:
    def __init__(self, module: types.ModuleType) -> None:
        self._module = module

    def tick(self, fps: float) -> None:
        self._module.ticks.append(fps)


class _Screen:
    def __init__(self, module: types.ModuleType, size: tuple[int, int]) -> None:
        self._module = module
        self.size = size

    def blit(self, surface: np.ndarray, position: tuple[int, int]) -> None:
        self._module.shown.append(np.array(surface))


def make_fake_pygame() -> types.ModuleType:
    """Return a fresh fake ``pygame`` module with the calls ``HumanDisplay`` makes."""
    module = types.ModuleType("pygame")
    module.shown = []  # type: ignore[attr-defined]
    module.ticks = []  # type: ignore[attr-defined]
    module.events = []  # type: ignore[attr-defined]

    def record(name: str) -> Any:
        return lambda *args, **kwargs: module.events.append(name)  # type: ignore[attr-defined]

    module.init = record("init")  # type: ignore[attr-defined]
    module.quit = record("quit")  # type: ignore[attr-defined]
    module.display = types.SimpleNamespace(  # type: ignore[attr-defined]
        init=record("display.init"),
        quit=record("display.quit"),
        flip=record("display.flip"),
        set_mode=lambda size: _Screen(module, tuple(size)),
    )
    module.event = types.SimpleNamespace(pump=record("event.pump"))  # type: ignore[attr-defined]
    module.time = types.SimpleNamespace(Clock=lambda: _Clock(module))  # type: ignore[attr-defined]
    module.surfarray = types.SimpleNamespace(  # type: ignore[attr-defined]
        make_surface=lambda array: np.array(array)
    )
    return module
