"""Drawing helpers for the built-in environments' ``rgb_array`` frames (numpy only).

:mod:`vecgym.envs.rendering.raster` paints filled shapes and lines into ``uint8`` ``(H, W, 3)``
canvases; :mod:`vecgym.envs.rendering.display` shows frames in a window for ``"human"`` mode
through the optional ``human`` extra.
"""

from __future__ import annotations

from vecgym.envs.rendering import raster
from vecgym.envs.rendering.raster import (
    Canvas as Canvas,
)
from vecgym.envs.rendering.raster import (
    Color as Color,
)
from vecgym.envs.rendering.raster import (
    draw_arc as draw_arc,
)
from vecgym.envs.rendering.raster import (
    draw_line as draw_line,
)
from vecgym.envs.rendering.raster import (
    draw_polyline as draw_polyline,
)
from vecgym.envs.rendering.raster import (
    fill_circle as fill_circle,
)
from vecgym.envs.rendering.raster import (
    fill_polygon as fill_polygon,
)
from vecgym.envs.rendering.raster import (
    fill_rect as fill_rect,
)
from vecgym.envs.rendering.raster import (
    flip_vertical as flip_vertical,
)
from vecgym.envs.rendering.raster import (
    new_canvas as new_canvas,
)

#: The drawing API is the raster module's.
__all__ = list(raster.__all__)
