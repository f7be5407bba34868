"""The rendering plumbing shared by the classic-control environments.

Each environment draws its scene into a numpy canvas (:mod:`vecgym.envs.rendering.raster`);
this base class turns that into Gymnasium's ``render()`` contract: ``"rgb_array"`` returns the
frame, ``"human"`` shows it in a window (through the optional ``human`` extra) and returns
``None``, and no render mode warns and returns ``None``.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from vecgym.envs._render_base import (
    INVALID_ACTION_MSG as INVALID_ACTION_MSG,
)
from vecgym.envs._render_base import (
    NO_RENDER_MODE_MSG as NO_RENDER_MODE_MSG,
)
from vecgym.envs._render_base import (
    UNSUPPORTED_RENDER_MODE_MSG as UNSUPPORTED_RENDER_MODE_MSG,
)
from vecgym.envs._render_base import RenderedEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = [
    "LEGACY_SCALAR_PROMOTION",
    "NO_RENDER_MODE_MSG",
    "UNSUPPORTED_RENDER_MODE_MSG",
    "ClassicControlEnv",
    "vector_metadata",
]

#: Whether a ``float32`` numpy scalar combined with a Python number gives a ``float64`` scalar, as
#: numpy 1's value-based promotion does (numpy 2's NEP 50 rules keep ``float32``). The single
#: classic-control envs compute with numpy scalars, so their roundings follow the installed
#: numpy; the vectorised envs, bit-exact copies, read this to do the same. Measured, not read
#: from the version string.
LEGACY_SCALAR_PROMOTION: bool = type(np.float32(1) * 1.0) is np.float64

ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")


class ClassicControlEnv(RenderedEnv[ObsT, ActT], Generic[ObsT, ActT]):
    """A :class:`~vecgym.envs._render_base.RenderedEnv` whose frames are drawn by
    :meth:`_draw_frame`, with Gymnasium's ``isopen`` flag.

    Subclasses call :meth:`_init_rendering` in ``__init__``, implement :meth:`_draw_frame`, and
    call ``self.render()`` at the end of ``reset``/``step`` when ``render_mode == "human"``.
    ``render()`` returns a new ``uint8`` frame of shape ``(height, width, 3)`` in
    ``"rgb_array"`` mode, or ``None`` before the first ``reset``.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "rgb_array"], "render_fps": 30}

    def _init_rendering(self, render_mode: str | None, width: int, height: int) -> None:
        """Validate and store ``render_mode``, remember the frame size, and set ``isopen``.

        Raises:
            UnsupportedMode: ``render_mode`` is neither ``None`` nor in
                ``metadata["render_modes"]``.
        """
        super()._init_rendering(render_mode, width, height)
        self.isopen = True

    def close(self) -> None:
        """Close the ``"human"`` window if one is open (clearing ``isopen``); safe to call more
        than once."""
        if self._display is not None:
            super().close()
            self.isopen = False

    def _render_output(self) -> npt.NDArray[np.uint8] | None:
        return self._draw_frame()

    def _draw_frame(self) -> npt.NDArray[np.uint8] | None:
        """Return the current frame, or ``None`` when there is no state to draw yet."""
        raise NotImplementedError


def vector_metadata(render_fps: int) -> dict[str, Any]:
    """A new ``metadata`` dict for a numpy vector env: ``"rgb_array"`` frames at ``render_fps``
    and ``NEXT_STEP`` autoresets by default."""
    return {
        "render_modes": ["rgb_array"],
        "render_fps": render_fps,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }


def rotate(points: npt.ArrayLike, angle: float) -> npt.NDArray[np.float64]:
    """Rotate ``(x, y)`` points counter-clockwise by ``angle`` radians about the origin."""
    pts = np.asarray(points, dtype=np.float64)
    cos, sin = np.cos(angle), np.sin(angle)
    return np.stack([pts[:, 0] * cos - pts[:, 1] * sin, pts[:, 0] * sin + pts[:, 1] * cos], 1)
