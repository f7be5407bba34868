"""A small numpy rasteriser for drawing environment frames without any display library.

Frames are ``uint8`` arrays of shape ``(height, width, 3)`` (RGB), the layout ``render()`` returns
in ``"rgb_array"`` mode. Every drawing function paints into such a canvas in place, vectorised
over the pixels of the shape's bounding box, so a typical classic-control frame takes a few
milliseconds.

Coordinates are floats in pixel units with the origin at the top-left corner of the canvas, ``x``
growing to the right and ``y`` growing downwards; pixel ``(col, row)`` covers the unit square whose
centre is ``(col + 0.5, row + 0.5)``. A pixel is painted when its centre lies inside the shape.
Scenes described with ``y`` growing upwards (as the classic-control environments are) can be drawn
as they are and turned the right way up at the end with :func:`flip_vertical`.

Shapes may lie partly or wholly outside the canvas; what falls outside is clipped.

Example:
    >>> canvas = new_canvas(4, 6)
    >>> fill_rect(canvas, 1, 1, 3, 3, (0, 0, 0))
    >>> canvas[:, :, 0]
    array([[255, 255, 255, 255, 255, 255],
           [255,   0,   0, 255, 255, 255],
           [255,   0,   0, 255, 255, 255],
           [255, 255, 255, 255, 255, 255]], dtype=uint8)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = [
    "Canvas",
    "Color",
    "draw_arc",
    "draw_line",
    "draw_polyline",
    "fill_circle",
    "fill_polygon",
    "fill_rect",
    "flip_vertical",
    "new_canvas",
]

#: A frame being drawn: ``uint8``, shape ``(height, width, 3)``.
Canvas = npt.NDArray[np.uint8]
#: An RGB colour, each channel in ``[0, 255]``.
Color = tuple[int, int, int]
#: A point ``(x, y)`` in pixel coordinates.
Point = tuple[float, float]

WHITE: Color = (255, 255, 255)

CANVAS_SIZE_MSG = "canvas height and width must be positive integers, got {}x{}"
CANVAS_TYPE_MSG = "canvas must be a uint8 array of shape (height, width, 3), got {} of shape {}"
POLYGON_MSG = "a polygon needs at least 3 points given as (x, y) pairs, got shape {}"
POLYLINE_MSG = "a polyline needs at least 2 points given as (x, y) pairs, got shape {}"


def new_canvas(height: int, width: int, color: Color = WHITE) -> Canvas:
    """Return a new canvas filled with one colour.

    Args:
        height: number of pixel rows.
        width: number of pixel columns.
        color: the background colour.

    Returns:
        A ``uint8`` array of shape ``(height, width, 3)``.

    Raises:
        ValueError: ``height`` or ``width`` is not a positive integer.
    """
    if int(height) != height or int(width) != width or height <= 0 or width <= 0:
        raise ValueError(CANVAS_SIZE_MSG.format(height, width))
    canvas = np.empty((int(height), int(width), 3), dtype=np.uint8)
    canvas[...] = np.asarray(color, dtype=np.uint8)
    return canvas


def flip_vertical(canvas: Canvas) -> Canvas:
    """Return a contiguous copy of ``canvas`` upside down (row ``r`` becomes row ``H - 1 - r``)."""
    return np.ascontiguousarray(canvas[::-1])


def fill_rect(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, color: Color) -> None:
    """Paint the axis-aligned rectangle with corners ``(x0, y0)`` and ``(x1, y1)``.

    Args:
        canvas: the frame to paint into.
        x0: one corner's ``x``.
        y0: one corner's ``y``.
        x1: the opposite corner's ``x``.
        y1: the opposite corner's ``y``.
        color: the fill colour.
    """
    _check_canvas(canvas)
    height, width = canvas.shape[:2]
    cols = _span(min(x0, x1), max(x0, x1), width)
    rows = _span(min(y0, y1), max(y0, y1), height)
    if cols is None or rows is None:
        return
    canvas[rows[0] : rows[1], cols[0] : cols[1]] = np.asarray(color, dtype=np.uint8)


def fill_polygon(canvas: Canvas, points: Sequence[Point] | npt.ArrayLike, color: Color) -> None:
    """Paint a polygon (convex or not) with the even-odd rule.

    The polygon is closed automatically (the last point joins the first).

    Args:
        canvas: the frame to paint into.
        points: the vertices, an ``(n, 2)`` array-like of ``(x, y)`` with ``n >= 3``.
        color: the fill colour.

    Raises:
        ValueError: ``points`` is not an ``(n, 2)`` array-like with at least 3 points.
    """
    _check_canvas(canvas)
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] < 3:
        raise ValueError(POLYGON_MSG.format(pts.shape))
    height, width = canvas.shape[:2]
    xs, ys = pts[:, 0], pts[:, 1]
    rows = _span(float(ys.min()), float(ys.max()), height)
    cols = _span(float(xs.min()), float(xs.max()), width)
    if rows is None or cols is None:
        return
    mask = _polygon_mask(xs, ys, rows, cols)
    region = canvas[rows[0] : rows[1], cols[0] : cols[1]]
    region[mask] = np.asarray(color, dtype=np.uint8)


def fill_circle(canvas: Canvas, cx: float, cy: float, radius: float, color: Color) -> None:
    """Paint a filled disc.

    Args:
        canvas: the frame to paint into.
        cx: the centre's ``x``.
        cy: the centre's ``y``.
        radius: the radius in pixels (a disc of radius 0 paints nothing).
        color: the fill colour.
    """
    _check_canvas(canvas)
    height, width = canvas.shape[:2]
    rows = _span(cy - radius, cy + radius, height)
    cols = _span(cx - radius, cx + radius, width)
    if rows is None or cols is None:
        return
    yc = np.arange(rows[0], rows[1], dtype=np.float64)[:, None] + 0.5 - cy
    xc = np.arange(cols[0], cols[1], dtype=np.float64)[None, :] + 0.5 - cx
    mask = xc * xc + yc * yc <= radius * radius
    canvas[rows[0] : rows[1], cols[0] : cols[1]][mask] = np.asarray(color, dtype=np.uint8)


def draw_line(canvas: Canvas, start: Point, end: Point, color: Color, width: float = 1.0) -> None:
    """Paint a straight line segment of the given thickness with round ends.

    Args:
        canvas: the frame to paint into.
        start: the first end point ``(x, y)``.
        end: the second end point ``(x, y)``.
        color: the line colour.
        width: the thickness in pixels (at least one pixel is always painted across the line).
    """
    _check_canvas(canvas)
    half = max(float(width), 1.0) / 2.0
    (x0, y0), (x1, y1) = (float(start[0]), float(start[1])), (float(end[0]), float(end[1]))
    height, canvas_width = canvas.shape[:2]
    rows = _span(min(y0, y1) - half, max(y0, y1) + half, height)
    cols = _span(min(x0, x1) - half, max(x0, x1) + half, canvas_width)
    if rows is None or cols is None:
        return
    py = np.arange(rows[0], rows[1], dtype=np.float64)[:, None] + 0.5
    px = np.arange(cols[0], cols[1], dtype=np.float64)[None, :] + 0.5
    mask = _segment_distance_sq(px, py, x0, y0, x1, y1) <= half * half
    canvas[rows[0] : rows[1], cols[0] : cols[1]][mask] = np.asarray(color, dtype=np.uint8)


def draw_polyline(
    canvas: Canvas,
    points: Sequence[Point] | npt.ArrayLike,
    color: Color,
    width: float = 1.0,
    closed: bool = False,
) -> None:
    """Paint connected line segments through ``points``.

    Args:
        canvas: the frame to paint into.
        points: an ``(n, 2)`` array-like of ``(x, y)`` with ``n >= 2``.
        color: the line colour.
        width: the thickness in pixels.
        closed: also join the last point to the first.

    Raises:
        ValueError: ``points`` is not an ``(n, 2)`` array-like with at least 2 points.
    """
    pts = np.asarray(points, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] < 2:
        raise ValueError(POLYLINE_MSG.format(pts.shape))
    ends = np.concatenate([pts[1:], pts[:1]]) if closed else pts[1:]
    for start, end in zip(pts[: len(ends)].tolist(), ends.tolist(), strict=True):
        draw_line(canvas, (start[0], start[1]), (end[0], end[1]), color, width)


def draw_arc(
    canvas: Canvas,
    cx: float,
    cy: float,
    radius: float,
    start_angle: float,
    end_angle: float,
    color: Color,
    width: float = 1.0,
) -> None:
    """Paint a circular arc of the given thickness.

    Angles are in radians, measured from the ``+x`` axis towards ``+y``; the arc runs from
    ``start_angle`` to ``end_angle`` in that direction (a sweep of ``2*pi`` or more is a full ring).

    Args:
        canvas: the frame to paint into.
        cx: the centre's ``x``.
        cy: the centre's ``y``.
        radius: the radius of the arc's mid-line.
        start_angle: where the arc begins.
        end_angle: where the arc ends.
        color: the line colour.
        width: the thickness in pixels.
    """
    _check_canvas(canvas)
    half = max(float(width), 1.0) / 2.0
    outer = radius + half
    height, canvas_width = canvas.shape[:2]
    rows = _span(cy - outer, cy + outer, height)
    cols = _span(cx - outer, cx + outer, canvas_width)
    if rows is None or cols is None:
        return
    dy = np.arange(rows[0], rows[1], dtype=np.float64)[:, None] + 0.5 - cy
    dx = np.arange(cols[0], cols[1], dtype=np.float64)[None, :] + 0.5 - cx
    dist = np.sqrt(dx * dx + dy * dy)
    mask = np.abs(dist - radius) <= half
    sweep = end_angle - start_angle
    if sweep < 2 * math.pi:
        offset = np.mod(np.arctan2(dy, dx) - start_angle, 2 * math.pi)
        mask &= offset <= sweep
    canvas[rows[0] : rows[1], cols[0] : cols[1]][mask] = np.asarray(color, dtype=np.uint8)


# --- helpers --------------------------------------------------------------------------------------
def _check_canvas(canvas: Canvas) -> None:
    """Raise ``ValueError`` unless ``canvas`` is a ``(H, W, 3)`` ``uint8`` array."""
    if (
        not isinstance(canvas, np.ndarray)
        or canvas.dtype != np.uint8
        or canvas.ndim != 3
        or canvas.shape[2] != 3
    ):
        shape = getattr(canvas, "shape", None)
        raise ValueError(CANVAS_TYPE_MSG.format(type(canvas).__name__, shape))


def _span(lo: float, hi: float, size: int) -> tuple[int, int] | None:
    """Return the half-open range of pixel indices whose centres lie in ``[lo, hi]``, clipped.

    ``None`` when no pixel of ``[0, size)`` qualifies (or a bound is not finite).
    """
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return None
    first = max(math.ceil(lo - 0.5), 0)
    last = min(math.floor(hi - 0.5), size - 1)
    if first > last:
        return None
    return first, last + 1


def _polygon_mask(
    xs: npt.NDArray[np.float64],
    ys: npt.NDArray[np.float64],
    rows: tuple[int, int],
    cols: tuple[int, int],
) -> npt.NDArray[np.bool_]:
    """Even-odd inside test of the pixel centres in ``rows x cols`` against a closed polygon.

    Each edge that crosses a row's centre line toggles every pixel whose centre lies right of
    the crossing; a cumulative sum of the toggles along the row gives the crossing parity.
    """
    yc = np.arange(rows[0], rows[1], dtype=np.float64) + 0.5
    x1, y1 = xs[:, None], ys[:, None]
    x2, y2 = np.roll(xs, -1)[:, None], np.roll(ys, -1)[:, None]
    crosses = ((y1 <= yc) & (yc < y2)) | ((y2 <= yc) & (yc < y1))
    edge_idx, row_idx = np.nonzero(crosses)
    ya, yb = y1[edge_idx, 0], y2[edge_idx, 0]
    xa, xb = x1[edge_idx, 0], x2[edge_idx, 0]
    x_cross = xa + (yc[row_idx] - ya) * (xb - xa) / (yb - ya)
    ncols = cols[1] - cols[0]
    first_inside = np.clip(np.ceil(x_cross - 0.5).astype(np.int64) - cols[0], 0, ncols)
    toggles = np.zeros((rows[1] - rows[0], ncols + 1), dtype=np.int32)
    np.add.at(toggles, (row_idx, first_inside), 1)
    return (np.cumsum(toggles[:, :ncols], axis=1) & 1).astype(np.bool_)


def _segment_distance_sq(
    px: npt.NDArray[np.float64],
    py: npt.NDArray[np.float64],
    x0: float,
    y0: float,
    x1: float,
    y1: float,
) -> npt.NDArray[np.float64]:
    """Squared distance from points ``(px, py)`` (broadcast) to the segment ``(x0,y0)-(x1,y1)``."""
    dx, dy = x1 - x0, y1 - y0
    length_sq = dx * dx + dy * dy
    if length_sq == 0.0:
        t: npt.NDArray[np.float64] | float = 0.0
    else:
        t = np.clip(((px - x0) * dx + (py - y0) * dy) / length_sq, 0.0, 1.0)
    ex = px - (x0 + t * dx)
    ey = py - (y0 + t * dy)
    return ex * ex + ey * ey
