"""Rendering wrappers.

* :class:`RenderCollection` collects a frame after every ``reset`` and ``step`` so that ``render``
  returns the list of frames since it was last called (``make`` applies it for render modes
  ending in ``"_list"``, e.g. ``render_mode="rgb_array_list"``);
* :class:`RecordVideo` saves chosen episodes (or step ranges) as mp4 files, through the optional
  ``video`` extra (imageio-ffmpeg, imported lazily);
* :class:`HumanRendering` shows an ``rgb_array`` environment's frames in a window, through the
  optional ``human`` extra (pygame, imported lazily);
* :class:`AddWhiteNoise` replaces random pixels of each rendered frame with noise;
* :class:`ObstructView` covers random square patches of each rendered frame with noise.

Both optional dependencies are imported only when they are needed, and a missing one raises
:class:`vecgym.error.DependencyNotInstalled` naming the extra that installs it.
"""

from __future__ import annotations

import copy
import gc
import numbers
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any, Generic, SupportsFloat, cast

import numpy as np

from vecgym import error, logger
from vecgym._extras import import_extra
from vecgym.core.env import ActType, Env, ObsType, RenderFrame, Wrapper
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.utils.save_video import capped_cubic_video_schedule as capped_cubic_video_schedule
from vecgym.utils.save_video import load_video_encoder as load_video_encoder

__all__ = [
    "AddWhiteNoise",
    "HumanRendering",
    "ObstructView",
    "RecordVideo",
    "RenderCollection",
    "capped_cubic_video_schedule",
    "load_video_encoder",
]

LIST_SUFFIX = "_list"
NO_RENDER_MODE_MSG = (
    "RenderCollection needs an environment with a render_mode, got render_mode=None"
)
LIST_RENDER_MODE_MSG = (
    "RenderCollection builds the frame list itself, so the environment's render_mode must not be a "
    "'_list' mode, got '{render_mode}'"
)

HUMAN_EXTRA_MSG = (
    "HumanRendering shows frames with pygame, which vecgym does not depend on; "
    'install it with `pip install "vecgym[human]"`'
)
VIDEO_RENDER_MODE_MSG = (
    "RecordVideo records the images env.render() returns, so the environment needs an image "
    "render_mode such as 'rgb_array', got render_mode={render_mode}"
)
VIDEO_LENGTH_MSG = "Expected `video_length` to be a non-negative integer, got {value!r}"
VIDEO_FOLDER_EXISTS_MSG = (
    "The folder {folder} already exists: videos recorded there replace any with the same name "
    "(give RecordVideo another `video_folder` to keep them)"
)
EMPTY_RENDER_LIST_MSG = (
    "No frame was recorded for this step: env.render() returned an empty list, as render() had "
    "already been called since the step"
)
NOT_A_FRAME_MSG = (
    "RecordVideo stopped recording: env.render() must return a numpy array frame, got {type}"
)
NO_FRAMES_MSG = "No video was saved: the recording had no frames"
NOT_RECORDING_MSG = "stop_recording() may only be called while a recording is in progress"
UNSAVED_VIDEO_MSG = (
    "RecordVideo is being deleted during a recording, whose frames are lost; call close() or "
    "stop_recording() to save it"
)
HUMAN_RENDER_MODE_MSG = (
    "HumanRendering needs an environment whose render_mode is one of {accepted}, got "
    "'{render_mode}'"
)
NO_RENDER_FPS_MSG = (
    "HumanRendering paces its window with env.metadata['render_fps'], which the wrapped "
    "environment does not set"
)
HUMAN_FRAME_TYPE_MSG = (
    "HumanRendering can only show numpy array frames, but env.render() returned {type}"
)
HUMAN_FRAME_SHAPE_MSG = (
    "HumanRendering needs frames of one size: the window is {old} but the new frame is {new}"
)
NOISE_PROBABILITY_MSG = "`probability_of_noise_per_pixel` must be in [0, 1), got {value}"
OBSTRUCTED_RATIO_MSG = "`obstructed_pixels_ratio` must be in [0, 1), got {value}"
OBSTRUCTION_WIDTH_MSG = "`obstruction_width` must be at least 1, got {value}"
OBSTRUCTION_WIDTH_TYPE_MSG = "Expected `obstruction_width` to be an integer, got {type}"

DEFAULT_VIDEO_FPS = 30
# Weights of the red, green and blue channels in the grayscale noise (ITU-R BT.601 luma).
GRAYSCALE_WEIGHTS = np.array([0.2989, 0.5870, 0.1140])


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


# --- video ----------------------------------------------------------------------------------------
class VideoRecorderMixin:
    """The recording state machine shared by the single and vector ``RecordVideo``.

    The host sets the attributes below in ``__init__`` (``video_length`` is ``inf`` for
    whole-episode recordings) and captures frames into ``recorded_frames`` while ``recording``.
    """

    episode_trigger: Callable[[int], bool] | None
    gc_trigger: Callable[[int], bool] | None
    disable_logger: bool
    video_folder: str
    frames_per_sec: int
    name_prefix: str
    video_length: float
    recording: bool
    recorded_frames: list[Any]
    _video_name: str | None
    episode_id: int

    def _new_episode(self) -> None:
        """Count a new episode: save a whole-episode recording, then maybe start a recording."""
        self.episode_id += 1
        if self.recording and self.video_length == float("inf"):
            self.stop_recording()
        if self.episode_trigger is not None and self.episode_trigger(self.episode_id):
            self.start_recording(f"{self.name_prefix}-episode-{self.episode_id}")

    def start_recording(self, video_name: str) -> None:
        """Start recording into ``{video_name}.mp4``, saving the recording in progress first."""
        if self.recording:
            self.stop_recording()
        self.recording = True
        self._video_name = video_name

    def stop_recording(self) -> None:
        """Save the recording in progress (warns instead if it has no frames) and stop recording.

        Raises:
            RuntimeError: if no recording is in progress.
        """
        if not self.recording:
            raise RuntimeError(NOT_RECORDING_MSG)
        if not self.recorded_frames:
            logger.warn(NO_FRAMES_MSG)
        else:
            encode = load_video_encoder()
            path = os.path.join(self.video_folder, f"{self._video_name}.mp4")
            encode(
                cast(list[np.ndarray], self.recorded_frames),
                path,
                self.frames_per_sec,
                self.disable_logger,
            )
        self.recorded_frames = []
        self.recording = False
        self._video_name = None
        if self.gc_trigger is not None and self.gc_trigger(self.episode_id):
            gc.collect()

    def __del__(self) -> None:
        """Warn when frames of an unsaved recording are being dropped."""
        if getattr(self, "recorded_frames", None):
            logger.warn(UNSAVED_VIDEO_MSG)


class RecordVideo(
    VideoRecorderMixin,
    Wrapper[ObsType, ActType, ObsType, ActType],
    Generic[ObsType, ActType],
    RecordConstructorArgs,
):
    """Save chosen episodes, or runs of steps, as mp4 videos of the environment's frames.

    A recording starts on a ``reset`` when ``episode_trigger(episode_id)`` is true (file
    ``{name_prefix}-episode-{episode_id}.mp4``) or on a ``step`` when ``step_trigger(step_id)``
    is true (file ``{name_prefix}-step-{step_id}.mp4``); ids count from 0 over the wrapper's
    lifetime, and steps are counted across episodes. Without either trigger,
    :func:`capped_cubic_video_schedule` is the episode trigger. While recording, a frame is
    captured after every ``reset`` and ``step``. With ``video_length=0`` a recording ends at the
    next ``reset`` (one episode per video); otherwise it ends once it holds more than
    ``video_length`` frames, which may span episodes. A trigger firing during a recording saves
    that recording and starts a new one; ``close`` saves the recording in progress.

    The environment's render mode must produce images (``rgb_array`` or ``rgb_array_list``).
    Encoding needs the optional ``video`` extra (imageio-ffmpeg): ``pip install "vecgym[video]"``.

    Example:
        >>> import os
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1", render_mode="rgb_array")
        >>> env = RecordVideo(env, "videos", episode_trigger=lambda ep: ep == 1)  # doctest: +SKIP
        >>> for episode in range(2):  # doctest: +SKIP
        ...     _ = env.reset(seed=episode)
        ...     done = False
        ...     while not done:
        ...         _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        ...         done = terminated or truncated
        >>> env.close()
        >>> sorted(os.listdir("videos"))  # doctest: +SKIP
        ['rl-video-episode-1.mp4']
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        video_folder: str,
        episode_trigger: Callable[[int], bool] | None = None,
        step_trigger: Callable[[int], bool] | None = None,
        video_length: int = 0,
        name_prefix: str = "rl-video",
        fps: int | None = None,
        disable_logger: bool = True,
        gc_trigger: Callable[[int], bool] | None = lambda episode: True,
    ) -> None:
        """Wrap ``env`` and create ``video_folder`` if needed.

        Args:
            env: the environment to record; its render mode must produce images.
            video_folder: the folder the videos are written to (warns if it already exists).
            episode_trigger: given an episode id, whether to start recording at its reset.
            step_trigger: given a step id, whether to start recording at that step.
            video_length: the number of frames after which a recording stops (beyond the first);
                ``0`` records whole episodes.
            name_prefix: the start of each video's file name.
            fps: the video's frame rate; ``None`` takes ``metadata["render_fps"]``, else 30.
            disable_logger: keep the encoder quiet (only errors are printed).
            gc_trigger: given the episode id when a recording is saved, whether to run the garbage
                collector afterwards (``None``: never).

        Raises:
            ValueError: if the render mode is ``None``, ``"human"`` or ``"ansi"``, or
                ``video_length`` is not a non-negative integer.
            DependencyNotInstalled: if the ``video`` extra is not installed.
        """
        RecordConstructorArgs.__init__(
            self,
            video_folder=video_folder,
            episode_trigger=episode_trigger,
            step_trigger=step_trigger,
            video_length=video_length,
            name_prefix=name_prefix,
            fps=fps,
            disable_logger=disable_logger,
            gc_trigger=gc_trigger,
        )
        Wrapper.__init__(self, env)

        if env.render_mode in {None, "human", "ansi"}:
            raise ValueError(VIDEO_RENDER_MODE_MSG.format(render_mode=env.render_mode))
        if (
            isinstance(video_length, bool)
            or not isinstance(video_length, numbers.Integral)
            or video_length < 0
        ):
            raise ValueError(VIDEO_LENGTH_MSG.format(value=video_length))
        load_video_encoder()  # fail now, not when the first video is saved

        if episode_trigger is None and step_trigger is None:
            episode_trigger = capped_cubic_video_schedule
        self.episode_trigger: Callable[[int], bool] | None = episode_trigger
        self.step_trigger: Callable[[int], bool] | None = step_trigger
        self.disable_logger: bool = disable_logger
        self.gc_trigger: Callable[[int], bool] | None = gc_trigger

        self.video_folder: str = os.path.abspath(video_folder)
        if os.path.isdir(self.video_folder):
            logger.warn(VIDEO_FOLDER_EXISTS_MSG.format(folder=self.video_folder))
        os.makedirs(self.video_folder, exist_ok=True)

        self.frames_per_sec: int = (
            fps if fps is not None else self.metadata.get("render_fps", DEFAULT_VIDEO_FPS)
        )
        self.name_prefix: str = name_prefix
        self._video_name: str | None = None
        self.video_length: float = int(video_length) if video_length != 0 else float("inf")
        self.recording: bool = False
        self.recorded_frames: list[RenderFrame] = []
        self.render_history: list[RenderFrame] = []

        self.step_id: int = -1
        self.episode_id: int = -1

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment; save a whole-episode recording; maybe start a recording.

        The reset starts episode ``episode_id + 1``; if ``episode_trigger`` fires for it, a
        recording named after the episode starts, and the reset frame is its first frame.
        """
        result = super().reset(seed=seed, options=options)
        self._new_episode()
        self._record_frame()
        return result

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the environment, maybe start a recording, and capture a frame while recording."""
        result = self.env.step(action)
        self.step_id += 1
        if self.step_trigger is not None and self.step_trigger(self.step_id):
            self.start_recording(f"{self.name_prefix}-step-{self.step_id}")
        self._record_frame()
        return result

    def render(self) -> RenderFrame | list[RenderFrame]:
        """Render the environment.

        In a list render mode, the frames the wrapper's own captures took from the environment
        since the last ``render`` are returned first, followed by the environment's list (which,
        while recording, is also added to the recording).
        """
        render_out = super().render()
        if self.recording and isinstance(render_out, list):
            self.recorded_frames += render_out
        if self.render_history:
            history, self.render_history = self.render_history, []
            return history + cast(list[RenderFrame], render_out)
        return cast(RenderFrame, render_out)

    def close(self) -> None:
        """Close the environment, then save the recording in progress."""
        super().close()
        if self.recording:
            self.stop_recording()

    def _record_frame(self) -> None:
        """While recording, capture a frame and stop once the recording is long enough."""
        if not self.recording:
            return
        self._capture_frame()
        if len(self.recorded_frames) > self.video_length:
            self.stop_recording()

    def _capture_frame(self) -> None:
        """Add the environment's current frame to the recording.

        In a list render mode the environment's whole list is kept for the user's next
        ``render`` and its last frame is recorded. A frame that is not an array stops the
        recording with a warning.
        """
        assert self.recording, "_capture_frame is only called while recording"
        frame = self.env.render()
        if isinstance(frame, list):
            if not frame:
                logger.warn(EMPTY_RENDER_LIST_MSG)
                return
            self.render_history += frame
            frame = frame[-1]
        if isinstance(frame, np.ndarray):
            self.recorded_frames.append(frame)
        else:
            self.stop_recording()
            logger.warn(NOT_A_FRAME_MSG.format(type=type(frame)))


# --- human display --------------------------------------------------------------------------------
def import_pygame() -> ModuleType:
    """Import pygame, the backend of the ``human`` extra.

    Raises:
        DependencyNotInstalled: pygame is missing; the message names the ``human`` extra.
    """
    return import_extra("pygame", HUMAN_EXTRA_MSG)


class HumanWindowMixin:
    """The pygame window shared by the single and vector ``HumanRendering``.

    The host sets ``window``, ``clock`` and ``screen_size`` (``None`` until known) in
    ``__init__``.
    """

    ACCEPTED_RENDER_MODES = [
        "rgb_array",
        "rgb_array_list",
        "depth_array",
        "depth_array_list",
    ]

    window: Any
    clock: Any
    screen_size: Any
    metadata: dict[str, Any]

    def _check_renderable(self, render_mode: str | None, metadata: dict[str, Any]) -> None:
        """Check the wrapped env can be shown, and add ``"human"`` to the wrapper's render modes.

        Raises:
            ValueError: if the render mode is not accepted or ``render_fps`` is missing.
        """
        if render_mode not in self.ACCEPTED_RENDER_MODES:
            raise ValueError(
                HUMAN_RENDER_MODE_MSG.format(
                    accepted=self.ACCEPTED_RENDER_MODES, render_mode=render_mode
                )
            )
        if "render_fps" not in metadata:
            raise ValueError(NO_RENDER_FPS_MSG)
        if "human" not in metadata.get("render_modes", []):
            with_human = copy.deepcopy(metadata)
            with_human["render_modes"] = [*with_human.get("render_modes", []), "human"]
            self.metadata = with_human

    def _show_in_window(self, pygame: ModuleType, columns_first: np.ndarray) -> None:
        """Draw a ``(width, height, 3)`` image in the window (opened on first use), at
        ``metadata["render_fps"]``."""
        if self.window is None:
            pygame.display.init()
            self.window = pygame.display.set_mode(self.screen_size)
        if self.clock is None:
            self.clock = pygame.time.Clock()
        self.window.blit(pygame.surfarray.make_surface(columns_first), (0, 0))
        pygame.event.pump()
        self.clock.tick(self.metadata["render_fps"])
        pygame.display.flip()

    def _close_window(self) -> None:
        """Close the window, if one was opened."""
        if self.window is not None:
            pygame = import_pygame()
            pygame.display.quit()
            pygame.quit()
            self.window = None
            self.clock = None


class HumanRendering(
    HumanWindowMixin, Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs
):
    """Show an image-rendering environment's frames in a window (``render_mode="human"``).

    After every ``reset`` and ``step`` the environment's frame (the last of the list in a list
    mode, which empties the environment's own list) is drawn in a window opened on the first
    frame, at ``metadata["render_fps"]``. The wrapper's :attr:`render_mode` is ``"human"`` and
    its ``render`` returns ``None``. ``make(..., render_mode="human")`` applies it to
    environments that only render ``rgb_array``.

    Showing frames needs the optional ``human`` extra (pygame): ``pip install "vecgym[human]"``;
    without it the first ``reset`` raises :class:`vecgym.error.DependencyNotInstalled`.

    Example:
        >>> import vecgym
        >>> env = HumanRendering(vecgym.make("CartPole-v1", render_mode="rgb_array"))
        >>> env.render_mode
        'human'
        >>> _ = env.reset(seed=0)  # doctest: +SKIP
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to show; its render mode must be one of
                :attr:`ACCEPTED_RENDER_MODES` and its metadata must have ``"render_fps"``.

        Raises:
            ValueError: if the render mode is not accepted or ``render_fps`` is missing.
        """
        RecordConstructorArgs.__init__(self)
        Wrapper.__init__(self, env)

        self.screen_size: tuple[int, ...] | None = None
        self.window: Any = None
        self.clock: Any = None

        self._check_renderable(self.env.render_mode, self.env.metadata)

    @property
    def render_mode(self) -> str:  # type: ignore[override]
        """Always ``"human"``."""
        return "human"

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the environment, then show its frame."""
        result = super().step(action)
        self._render_frame()
        return result

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment, then show its frame."""
        result = super().reset(seed=seed, options=options)
        self._render_frame()
        return result

    def render(self) -> None:
        """Nothing to do: frames are shown by ``reset`` and ``step``."""
        return None

    def close(self) -> None:
        """Close the window, if one was opened, then the environment."""
        self._close_window()
        super().close()

    def _render_frame(self) -> None:
        """Draw the environment's latest frame in the window, opening it on the first frame.

        Raises:
            DependencyNotInstalled: pygame is missing.
            TypeError: the environment's frame is not a numpy array.
            ValueError: the frame's size differs from the first frame's.
        """
        pygame = import_pygame()
        frame = self.env.render()
        if isinstance(frame, list):
            frame = frame[-1]
        if not isinstance(frame, np.ndarray):
            raise TypeError(HUMAN_FRAME_TYPE_MSG.format(type=type(frame)))

        columns_first = np.transpose(frame, axes=(1, 0, 2))  # pygame surfaces are (x, y)
        size = tuple(columns_first.shape[:2])
        if self.screen_size is None:
            self.screen_size = size
        if self.screen_size != size:
            raise ValueError(HUMAN_FRAME_SHAPE_MSG.format(old=self.screen_size, new=size))

        self._show_in_window(pygame, columns_first)


# --- noise ----------------------------------------------------------------------------------------
def _noise_like(frame: np.ndarray, rng: np.random.Generator, grayscale: bool) -> np.ndarray:
    """Random pixels of ``frame``'s shape drawn from ``rng``, in ``frame``'s dtype.

    Colour noise draws each channel uniformly from ``[0, 255)``; grayscale noise draws each
    channel from ``[0, 255 * weight)`` with the luma weights and uses their sum on all three
    channels.
    """
    if grayscale:
        channels = rng.integers(
            (0, 0, 0), 255 * GRAYSCALE_WEIGHTS, size=frame.shape, dtype=np.uint8
        )
        noise = channels.sum(-1, keepdims=True).repeat(3, -1)
    else:
        noise = rng.integers(0, 255, size=frame.shape, dtype=np.uint8)
    return noise.astype(frame.dtype, copy=False)


class AddWhiteNoise(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Replace each pixel of a rendered frame with random noise, with a given probability.

    The noise and the choice of pixels come from the environment's ``np_random``, so a seeded
    ``reset`` makes them reproducible. Combined with ``AddRenderObservation`` this makes the
    observations noisy (and possibly the problem partially observable).

    Grayscale noise has the frame's dtype (Gymnasium 1.4 returns such frames as ``uint64``, the
    dtype its channel sum produces; the pixel values are the same).

    Example:
        >>> import vecgym
        >>> env = AddWhiteNoise(vecgym.make("CartPole-v1", render_mode="rgb_array"), 0.5)
        >>> _ = env.reset(seed=0)
        >>> frame = env.render()
        >>> frame.shape, frame.dtype
        ((400, 600, 3), dtype('uint8'))
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        probability_of_noise_per_pixel: float,
        is_noise_grayscale: bool = False,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: an environment rendering ``(height, width, 3)`` frames.
            probability_of_noise_per_pixel: the chance each pixel is replaced, in ``[0, 1)``.
            is_noise_grayscale: use gray noise instead of coloured noise.

        Raises:
            InvalidProbability: if the probability is outside ``[0, 1)``.
        """
        if not 0 <= probability_of_noise_per_pixel < 1:
            raise error.InvalidProbability(
                NOISE_PROBABILITY_MSG.format(value=probability_of_noise_per_pixel)
            )
        RecordConstructorArgs.__init__(
            self,
            probability_of_noise_per_pixel=probability_of_noise_per_pixel,
            is_noise_grayscale=is_noise_grayscale,
        )
        Wrapper.__init__(self, env)
        self.probability_of_noise_per_pixel = probability_of_noise_per_pixel
        self.is_noise_grayscale = is_noise_grayscale

    def render(self) -> np.ndarray:
        """The environment's frame with random pixels replaced by noise.

        The noise is drawn first, then the pixel mask (one uniform number per pixel).
        """
        frame = cast(np.ndarray, super().render())
        noise = _noise_like(frame, self.np_random, self.is_noise_grayscale)
        mask = self.np_random.random(frame.shape[0:2]) < self.probability_of_noise_per_pixel
        return np.where(mask[..., None], noise, frame)


class ObstructView(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Cover random square patches of a rendered frame with random noise.

    ``int(height * width * obstructed_pixels_ratio / obstruction_width**2)`` patch centres are
    drawn uniformly over the pixels (with replacement, so patches may overlap; patches are
    clipped at the borders, so the covered share is at most ``obstructed_pixels_ratio``). The
    centres and the noise come from the environment's ``np_random``.

    Example:
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1", render_mode="rgb_array")
        >>> env = ObstructView(env, obstructed_pixels_ratio=0.5, obstruction_width=50)
        >>> _ = env.reset(seed=0)
        >>> env.render().shape
        (400, 600, 3)
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        obstructed_pixels_ratio: float,
        obstruction_width: int,
        is_noise_grayscale: bool = False,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: an environment rendering ``(height, width, 3)`` frames.
            obstructed_pixels_ratio: the share of pixels to cover, in ``[0, 1)``.
            obstruction_width: the side of the square patches in pixels (``>= 1``).
            is_noise_grayscale: use gray noise instead of coloured noise.

        Raises:
            ValueError: if the ratio is outside ``[0, 1)`` or the width is below 1.
            TypeError: if the width is not an integer.
        """
        if not 0 <= obstructed_pixels_ratio < 1:
            raise ValueError(OBSTRUCTED_RATIO_MSG.format(value=obstructed_pixels_ratio))
        if isinstance(obstruction_width, bool) or not isinstance(
            obstruction_width, numbers.Integral
        ):
            raise TypeError(OBSTRUCTION_WIDTH_TYPE_MSG.format(type=type(obstruction_width)))
        if obstruction_width < 1:
            raise ValueError(OBSTRUCTION_WIDTH_MSG.format(value=obstruction_width))
        RecordConstructorArgs.__init__(
            self,
            obstructed_pixels_ratio=obstructed_pixels_ratio,
            obstruction_width=obstruction_width,
            is_noise_grayscale=is_noise_grayscale,
        )
        Wrapper.__init__(self, env)
        self.obstruction_centers_ratio: float = obstructed_pixels_ratio / obstruction_width**2
        self.obstruction_width: int = int(obstruction_width)
        self.is_noise_grayscale: bool = is_noise_grayscale

    def render(self) -> np.ndarray:
        """The environment's frame with noise patches; centres are drawn before the noise."""
        frame = cast(np.ndarray, super().render())
        mask = self._patch_mask(frame.shape[0], frame.shape[1])
        noise = _noise_like(frame, self.np_random, self.is_noise_grayscale)
        return np.where(mask[..., None], noise, frame)

    def _patch_mask(self, height: int, width: int) -> np.ndarray:
        """A ``(height, width)`` mask of the pixels covered by freshly drawn patches."""
        n_pixels = height * width
        n_patches = int(n_pixels * self.obstruction_centers_ratio)
        flat_centres = self.np_random.integers(0, n_pixels, n_patches)
        rows, cols = np.unravel_index(flat_centres, (height, width))
        mask = np.zeros((height, width), dtype=bool)
        before = self.obstruction_width // 2
        after = self.obstruction_width - before
        for row, col in zip(rows, cols, strict=True):
            mask[
                max(row - before, 0) : min(row + after, height),
                max(col - before, 0) : min(col + after, width),
            ] = True
        return mask
