"""Rendering wrappers.

* :class:`RenderCollection` collects a frame after every ``reset`` and ``step`` so that ``render``
  returns the list of frames since it was last called (``make`` applies it for render modes
  ending in ``"_list"``, e.g. ``render_mode="rgb_array_list"``).
"""

from __future__ import annotations

import copy
from typing import Any, Generic, SupportsFloat, cast

from vecgym.core.env import ActType, Env, ObsType, RenderFrame, Wrapper
from vecgym.core.record_constructor import RecordConstructorArgs

__all__ = ["RenderCollection"]

LIST_SUFFIX = "_list"
NO_RENDER_MODE_MSG = "Expected env.render_mode to be not None"
LIST_RENDER_MODE_MSG = "Expected env.render_mode to not end with '_list', got '{render_mode}'"


class RenderCollection(
    Wrapper[ObsType, ActType, ObsType, ActType],
    Generic[ObsType, ActType],
    RecordConstructorArgs,
):
    """Collect a frame after each ``reset`` and ``step``; ``render`` returns the collected list.

    The wrapper's :attr:`render_mode` is the inner mode with ``"_list"`` appended, and that mode
    is added to its (copied) ``metadata["render_modes"]``.

    Example:
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1", render_mode="rgb_array_list")
        >>> env.render_mode
        'rgb_array_list'
        >>> _ = env.reset(seed=0)
        >>> _ = env.step(0)
        >>> len(env.render())  # the reset frame and one step frame
        2
        >>> env.render()
        []
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        pop_frames: bool = True,
        reset_clean: bool = True,
    ) -> None:
        """Wrap ``env``, whose render mode must be set and must not already be a list mode.

        Args:
            env: the environment to wrap.
            pop_frames: empty the collection each time ``render`` returns it.
            reset_clean: empty the collection on ``reset`` (before the reset frame is added).

        Raises:
            ValueError: if ``env.render_mode`` is ``None`` or ends with ``"_list"``.
        """
        RecordConstructorArgs.__init__(self, pop_frames=pop_frames, reset_clean=reset_clean)
        Wrapper.__init__(self, env)

        inner_mode = env.render_mode
        if inner_mode is None:
            raise ValueError(NO_RENDER_MODE_MSG)
        if inner_mode.endswith(LIST_SUFFIX):
            raise ValueError(LIST_RENDER_MODE_MSG.format(render_mode=inner_mode))

        self.frame_list: list[RenderFrame] = []
        self.pop_frames = pop_frames
        self.reset_clean = reset_clean

        metadata = copy.deepcopy(self.env.metadata)
        render_modes = list(metadata.get("render_modes", []))
        if f"{inner_mode}{LIST_SUFFIX}" not in render_modes:
            render_modes.append(f"{inner_mode}{LIST_SUFFIX}")
        metadata["render_modes"] = render_modes
        self.metadata = metadata

    @property
    def render_mode(self) -> str:  # type: ignore[override]
        """The inner render mode followed by ``"_list"``."""
        return f"{self.env.render_mode}{LIST_SUFFIX}"

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the environment, then collect a frame."""
        result = super().step(action)
        self._collect()
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment, empty the collection if ``reset_clean``, then collect a frame."""
        result = super().reset(seed=seed, options=options)
        if self.reset_clean:
            self.frame_list = []
        self._collect()
        return result

    def render(self) -> list[RenderFrame]:
        """The frames collected so far; the collection is emptied if ``pop_frames``."""
        frames = self.frame_list
        if self.pop_frames:
            self.frame_list = []
        return frames

    def _collect(self) -> None:
        """Render the inner environment and keep whatever it returns as one frame."""
        self.frame_list.append(cast(RenderFrame, self.env.render()))
