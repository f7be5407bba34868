"""The numpy rasteriser paints the pixels whose centres lie inside each shape, clipped."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.messages import message_pattern
from vecgym.envs.rendering import raster
from vecgym.envs.rendering.raster import CANVAS_SIZE_MSG, CANVAS_TYPE_MSG, POLYGON_MSG, POLYLINE_MSG

BLACK = (0, 0, 0)
RED = (255, 0, 0)


def painted(canvas: np.ndarray, color: tuple[int, int, int] = BLACK) -> np.ndarray:
    return np.all(canvas == np.array(color, dtype=np.uint8), axis=-1)


def test_new_canvas_shape_dtype_and_colour() -> None:
    canvas = raster.new_canvas(3, 5, (1, 2, 3))
    assert canvas.shape == (3, 5, 3)
    assert canvas.dtype == np.uint8
    assert (canvas == np.array([1, 2, 3], dtype=np.uint8)).all()


@pytest.mark.parametrize(("height", "width"), [(0, 5), (5, -1), (2.5, 3)])
def test_new_canvas_rejects_bad_sizes(height: float, width: float) -> None:
    with pytest.raises(ValueError, match=message_pattern(CANVAS_SIZE_MSG)):
        raster.new_canvas(height, width)  # type: ignore[arg-type]


def test_drawing_rejects_a_non_canvas() -> None:
    with pytest.raises(ValueError, match=message_pattern(CANVAS_TYPE_MSG)):
        raster.fill_rect(np.zeros((4, 4, 3)), 0, 0, 2, 2, BLACK)  # type: ignore[arg-type]


def test_fill_rect_covers_pixel_centres_inside() -> None:
    canvas = raster.new_canvas(4, 6)
    raster.fill_rect(canvas, 3, 3, 1, 1, BLACK)  # corners in any order
    expected = np.zeros((4, 6), dtype=bool)
    expected[1:3, 1:3] = True
    assert (painted(canvas) == expected).all()


def test_fill_polygon_triangle_and_clipping() -> None:
    canvas = raster.new_canvas(8, 8)
    raster.fill_polygon(canvas, [(1, 1), (7, 1), (4, 7)], BLACK)
    mask = painted(canvas)
    assert mask[1, 1:7].all()  # the top edge row is full
    assert mask[5, 3:5].all()
    assert not mask[5, 2]
    assert not mask[5, 5]
    assert not mask[0].any()
    assert not mask[7].any()
    # A polygon hanging off the canvas is clipped, not an error.
    other = raster.new_canvas(4, 4)
    raster.fill_polygon(other, [(-10, -10), (10, -10), (10, 2), (-10, 2)], RED)
    assert painted(other, RED)[:2].all()
    assert not painted(other, RED)[2:].any()
    # One wholly outside paints nothing.
    outside = raster.new_canvas(4, 4)
    raster.fill_polygon(outside, [(10, 10), (20, 10), (15, 20)], RED)
    assert not painted(outside, RED).any()


def test_fill_polygon_non_convex_uses_even_odd() -> None:
    canvas = raster.new_canvas(10, 10)
    # A "U": the notch between the arms stays unpainted.
    u_shape = [(1, 1), (3, 1), (3, 7), (7, 7), (7, 1), (9, 1), (9, 9), (1, 9)]
    raster.fill_polygon(canvas, u_shape, BLACK)
    mask = painted(canvas)
    assert mask[4, 1:3].all()
    assert mask[4, 7:9].all()
    assert not mask[4, 3:7].any()
    assert mask[8, 1:9].all()


def test_fill_polygon_rejects_too_few_points() -> None:
    with pytest.raises(ValueError, match=message_pattern(POLYGON_MSG)):
        raster.fill_polygon(raster.new_canvas(4, 4), [(0, 0), (1, 1)], BLACK)


def test_fill_circle_is_symmetric_and_round() -> None:
    canvas = raster.new_canvas(9, 9)
    raster.fill_circle(canvas, 4.5, 4.5, 3, BLACK)
    mask = painted(canvas)
    assert (mask == mask[::-1]).all()
    assert (mask == mask[:, ::-1]).all()
    assert (mask == mask.T).all()
    assert mask[4, 2:7].all()
    assert not mask[1, 1]
    assert 20 < mask.sum() < 36  # close to pi * 3**2


def test_draw_line_connects_its_ends_and_has_width() -> None:
    canvas = raster.new_canvas(10, 20)
    raster.draw_line(canvas, (0.5, 0.5), (19.5, 9.5), BLACK)
    mask = painted(canvas)
    assert mask[0, 0]
    assert mask[9, 19]
    assert mask.any(axis=0).all()  # every column is touched: no gaps
    thick = raster.new_canvas(10, 20)
    raster.draw_line(thick, (0, 5), (20, 5), BLACK, width=4)
    assert painted(thick)[3:7].all()
    assert not painted(thick)[1].any()


def test_draw_polyline_and_arc() -> None:
    canvas = raster.new_canvas(10, 10)
    raster.draw_polyline(canvas, [(0.5, 0.5), (9.5, 0.5), (9.5, 9.5)], BLACK)
    mask = painted(canvas)
    assert mask[0].all()
    assert mask[:, 9].all()
    with pytest.raises(ValueError, match=message_pattern(POLYLINE_MSG)):
        raster.draw_polyline(canvas, [(0, 0)], BLACK)
    ring = raster.new_canvas(21, 21)
    raster.draw_arc(ring, 10.5, 10.5, 8, 0, 2 * np.pi, BLACK, width=2)
    ring_mask = painted(ring)
    assert ring_mask[10, 18]
    assert ring_mask[10, 2]
    assert not ring_mask[10, 10]
    half = raster.new_canvas(21, 21)
    raster.draw_arc(half, 10.5, 10.5, 8, 0, np.pi, BLACK, width=2)  # the +y half only
    assert painted(half)[18, 10]
    assert not painted(half)[2, 10]


def test_flip_vertical_returns_a_contiguous_copy() -> None:
    canvas = raster.new_canvas(3, 2)
    raster.fill_rect(canvas, 0, 0, 2, 1, BLACK)
    flipped = raster.flip_vertical(canvas)
    assert flipped.flags.c_contiguous
    assert painted(flipped)[2].all()
    assert not painted(flipped)[0].any()
    assert painted(canvas)[0].all()
