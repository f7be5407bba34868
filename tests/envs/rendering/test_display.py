"""``HumanDisplay`` shows frames through the optional pygame backend, imported lazily."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from tests.support.headless_pygame import PygameRecord
from tests.support.messages import message_pattern
from tests.support.processes import python_stdout
from vecgym import error
from vecgym.envs.rendering.display import HUMAN_EXTRA_MSG, HumanDisplay, import_display_backend


def test_missing_backend_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(HUMAN_EXTRA_MSG)):
        import_display_backend()
    display = HumanDisplay(4, 3, fps=10)  # constructing needs no backend
    with pytest.raises(error.DependencyNotInstalled, match=message_pattern(HUMAN_EXTRA_MSG)):
        display.show(np.zeros((3, 4, 3), dtype=np.uint8))
    display.close()


def test_show_blits_the_frame_transposed_and_ticks(pygame_window: PygameRecord) -> None:
    display = HumanDisplay(4, 3, fps=12)
    assert not display.is_open
    frame = np.arange(36, dtype=np.uint8).reshape(3, 4, 3)
    display.show(frame)
    display.show(frame[::-1].copy())
    assert display.is_open
    assert len(pygame_window.shown) == 2
    np.testing.assert_array_equal(pygame_window.shown[0], frame.transpose(1, 0, 2))  # (x, y)
    np.testing.assert_array_equal(pygame_window.window_pixels(), frame[::-1])  # the last one
    assert pygame_window.ticks == [12, 12]
    display.close()
    display.close()  # idempotent
    assert not display.is_open
    assert not pygame_window.window_open


def test_show_rejects_a_frame_of_the_wrong_shape(pygame_window: PygameRecord) -> None:
    display = HumanDisplay(4, 3, fps=10)
    with pytest.raises(ValueError, match=r"shape \(3, 4, 3\)"):
        display.show(np.zeros((4, 3, 3), dtype=np.uint8))


@pytest.mark.parametrize("preset", [None, ""])
def test_importing_vecgym_hides_pygames_banner(preset: str | None) -> None:
    pytest.importorskip("pygame")
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    if preset is not None:
        env["PYGAME_HIDE_SUPPORT_PROMPT"] = preset
    code = "import os, vecgym, pygame; print(repr(os.environ['PYGAME_HIDE_SUPPORT_PROMPT']))"
    out = python_stdout(code, env=env)
    assert out == repr("hide" if preset is None else preset)  # a value the user set is kept
    assert "pygame" not in out  # as after `import gymnasium`: no banner
    reference = python_stdout("import pygame", env={**env, "PYTHONPATH": ""})
    assert ("pygame" in reference) is (preset is None)  # without vecgym, pygame prints it
