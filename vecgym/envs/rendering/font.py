"""A tiny 5x7 bitmap font for labels in rendered frames (digits, capitals and a few signs).

Each glyph is five columns by seven rows; :func:`draw_text` paints a string into a canvas with
every glyph pixel blown up to a ``scale x scale`` block and one blank column between glyphs.
Lower-case letters are drawn as capitals; characters without a glyph are drawn as blanks.

Example:
    >>> from vecgym.envs.rendering.raster import new_canvas
    >>> canvas = new_canvas(7, 5)
    >>> draw_text(canvas, "1", 0, 0, 1, (0, 0, 0))
    >>> (canvas[:, :, 0] == 0).astype(int)
    array([[0, 0, 1, 0, 0],
           [0, 1, 1, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 1, 1, 1, 0]])
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from vecgym.envs.rendering.raster import Canvas, Color

__all__ = ["GLYPH_HEIGHT", "GLYPH_WIDTH", "draw_text", "text_mask", "text_size"]

GLYPH_WIDTH = 5
GLYPH_HEIGHT = 7
#: Blank columns between two glyphs (in glyph pixels, before scaling).
GLYPH_GAP = 1

SCALE_MSG = "scale must be a positive integer, got {!r}"

# Each glyph: seven rows of five characters, "#" for an inked pixel.
_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": (".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": ("#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."),
    "A": (".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "B": ("####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."),
    "C": (".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."),
    "D": ("###..", "#..#.", "#...#", "#...#", "#...#", "#..#.", "###.."),
    "E": ("#####", "#....", "#....", "####.", "#....", "#....", "#####"),
    "F": ("#####", "#....", "#....", "####.", "#....", "#....", "#...."),
    "G": (".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"),
    "H": ("#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "I": (".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "J": ("..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."),
    "K": ("#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"),
    "L": ("#....", "#....", "#....", "#....", "#....", "#....", "#####"),
    "M": ("#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"),
    "N": ("#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"),
    "O": (".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "P": ("####.", "#...#", "#...#", "####.", "#....", "#....", "#...."),
    "Q": (".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"),
    "R": ("####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"),
    "S": (".####", "#....", "#....", ".###.", "....#", "....#", "####."),
    "T": ("#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."),
    "U": ("#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "V": ("#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."),
    "W": ("#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."),
    "X": ("#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"),
    "Y": ("#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."),
    "Z": ("#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"),
    ":": (".....", "..#..", "..#..", ".....", "..#..", "..#..", "....."),
    "-": (".....", ".....", ".....", "#####", ".....", ".....", "....."),
    "+": (".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."),
    "?": (".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."),
    " ": (".....",) * GLYPH_HEIGHT,
}


@cache
def _glyph(char: str) -> npt.NDArray[np.bool_]:
    """Return the ``(7, 5)`` boolean bitmap of ``char`` (blank when there is no glyph)."""
    rows = _GLYPHS.get(char.upper(), _GLYPHS[" "])
    return np.array([[c == "#" for c in row] for row in rows], dtype=np.bool_)


def _check_scale(scale: int) -> int:
    if isinstance(scale, bool) or int(scale) != scale or scale < 1:
        raise ValueError(SCALE_MSG.format(scale))
    return int(scale)


def text_size(text: str, scale: int = 1) -> tuple[int, int]:
    """Return the ``(width, height)`` in pixels that :func:`draw_text` covers for ``text``.

    Raises:
        ValueError: ``scale`` is not a positive integer.
    """
    scale = _check_scale(scale)
    if not text:
        return 0, GLYPH_HEIGHT * scale
    columns = len(text) * GLYPH_WIDTH + (len(text) - 1) * GLYPH_GAP
    return columns * scale, GLYPH_HEIGHT * scale


def text_mask(text: str, scale: int = 1) -> npt.NDArray[np.bool_]:
    """Return the inked pixels of ``text`` as a boolean array of shape ``(height, width)``.

    Raises:
        ValueError: ``scale`` is not a positive integer.
    """
    scale = _check_scale(scale)
    width, height = text_size(text, 1)
    mask = np.zeros((height, width), dtype=np.bool_)
    for index, char in enumerate(text):
        left = index * (GLYPH_WIDTH + GLYPH_GAP)
        mask[:, left : left + GLYPH_WIDTH] = _glyph(char)
    if scale > 1:
        mask = np.repeat(np.repeat(mask, scale, axis=0), scale, axis=1)
    return mask


def draw_text(canvas: Canvas, text: str, x: int, y: int, scale: int, color: Color) -> None:
    """Paint ``text`` with its top-left corner at pixel ``(x, y)``; what falls outside is clipped.

    Args:
        canvas: the ``uint8`` ``(H, W, 3)`` frame to paint into.
        text: the characters to draw (capitals, digits, ``: - + ?`` and spaces).
        x: the column of the text's left edge.
        y: the row of the text's top edge.
        scale: the side in pixels of one glyph pixel.
        color: the ink colour.

    Raises:
        ValueError: ``scale`` is not a positive integer.
    """
    mask = text_mask(text, scale)
    height, width = canvas.shape[:2]
    x, y = int(x), int(y)
    top, left = max(y, 0), max(x, 0)
    bottom, right = min(y + mask.shape[0], height), min(x + mask.shape[1], width)
    if top >= bottom or left >= right:
        return
    visible = mask[top - y : bottom - y, left - x : right - x]
    canvas[top:bottom, left:right][visible] = np.asarray(color, dtype=np.uint8)
