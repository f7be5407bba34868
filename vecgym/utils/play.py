"""Play an environment from the keyboard: Gymnasium's ``gymnasium.utils.play`` module.

* :func:`play` shows an environment's ``rgb_array`` (or ``rgb_array_list``) frames in a pygame
  window and steps it with the action bound to the keys held down, ``noop`` when the held keys
  make no bound combination;
* :class:`PlayableGame` is the window and the set of keys held down (it is what :func:`play`
  feeds pygame's events to);
* :func:`display_arr` draws one frame into the window, scaled to a size and centred;
* :class:`PlayPlot` turns a function of one transition into live matplotlib plots: pass its
  :meth:`PlayPlot.callback` as ``play``'s ``callback``;
* :class:`MissingKeysToAction` is raised when no key mapping is given and the environment has
  none of its own (no ``get_keys_to_action`` method).

pygame (the ``human`` extra) and matplotlib (the ``plot`` extra) are imported the first time they
are needed, so importing this module needs neither; when one is missing, the call that needs it
raises :class:`vecgym.error.DependencyNotInstalled` naming the extra.

Differences from Gymnasium, on purpose (CHANGELOG, "Differs from Gymnasium on purpose"):

* the callback's ``obs_t`` is always an observation. Gymnasium hands the first step of every
  episode the ``(observation, info)`` pair that ``reset`` returned;
* the empty key combination (``()`` or ``""``) is accepted: it binds the action taken while no
  bound key is held, in place of ``noop``. Gymnasium refuses it with ``ValueError``, although its
  own environments use it (``MountainCar-v0``'s ``get_keys_to_action``), so ``play`` fails on them;
* with ``wait_on_player=True``, an ``rgb_array_list`` environment keeps its last frame on the
  screen while no key is held (Gymnasium's ``play`` takes the last item of the empty list that
  ``render`` then returns and raises ``IndexError``);
* importing the module leaves matplotlib's backend alone (Gymnasium's switches it to ``TkAgg``,
  which fails where there is no display, and imports pygame and matplotlib);
* the window is also closed when :func:`play` ends with an exception (a callback's, or a bad
  ``render_fps``);
* ``wait_on_player`` is read by truth value (Gymnasium tests ``is False``, so ``0`` or ``None``
  wait for the player);
* a ``render_fps`` of a numpy integer type is accepted;
* :class:`MissingKeysToAction` derives from :class:`vecgym.error.Error`. It is also raised for an
  environment without a ``spec`` (where Gymnasium's ``play`` raises ``ValueError`` and its
  ``PlayableGame`` fails an ``assert``), as a subclass that is a ``ValueError`` too;
* :class:`PlayableGame` takes a key mapping in every form :func:`play` takes;
* a frame that is not a ``uint8`` array raises :class:`vecgym.error.InvalidArgument` (a
  ``ValueError`` and a ``TypeError``; Gymnasium fails a bare ``assert``);
* :meth:`PlayPlot.callback` checks the number of metrics before it records any (Gymnasium records
  the first ones, then raises), and :attr:`PlayPlot.ax` is always a list of axes.
"""

from __future__ import annotations

import numbers
from collections import deque
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from vecgym import error
from vecgym._extras import import_extra
from vecgym.core.env import ActType, Env

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.collections import PathCollection
    from matplotlib.figure import Figure
    from pygame import Surface
    from pygame.event import Event

__all__ = ["MissingKeysToAction", "PlayPlot", "PlayableGame", "display_arr", "play"]

PLAY_PYGAME_EXTRA_MSG = (
    "playing an environment from the keyboard needs pygame, which vecgym does not depend on; "
    'install it with `pip install "vecgym[human]"`'
)
PLAY_PLOT_EXTRA_MSG = (
    "PlayPlot draws with matplotlib, which vecgym does not depend on; "
    'install it with `pip install "vecgym[plot]"`'
)
PLAY_RENDER_MODE_MSG = (
    "playing shows the frames of render_mode 'rgb_array' or 'rgb_array_list'; "
    "this environment was made with render_mode={mode!r}"
)
PLAY_ZOOM_MSG = "zoom must be None or a number above zero, got {zoom!r}"
MISSING_KEYS_MSG = (
    "{env} binds no keys to actions (it has no get_keys_to_action method); "
    "give play a mapping: play(env, keys_to_action={{...}})"
)
KEYS_NONE_MSG = "get_keys_to_action() returned None instead of a dict of key combinations"
KEYS_NOT_DICT_MSG = "keys_to_action maps key combinations to actions in a dict, not a {type}"
KEY_TYPE_MSG = (
    "a key combination in keys_to_action is a key code (int), a string of characters or a tuple "
    "of key codes and single characters; got {key!r}"
)
KEY_ACTION_MSG = (
    "keys_to_action binds {key!r} to {action!r}, which is not in the environment's action "
    "space {space}"
)
FRAME_MSG = "a frame to display must be a numpy uint8 array, got {kind}"
SIZE_FRAME_MSG = "the window is sized from a frame, a numpy array of 2 or 3 dimensions; got {kind}"
NO_FRAME_MSG = "render() returned an empty list before any frame was shown"
RENDER_FPS_MSG = "env.metadata['render_fps'] must be an integer frame rate, got {value!r}"
METRIC_COUNT_MSG = (
    "the PlayPlot callback returned {count} values for {plots} plots; it must return one per plot"
)

#: The frame rate :func:`play` keeps when neither ``fps`` nor ``env.metadata["render_fps"]`` is set.
DEFAULT_PLAY_FPS = 30

_ObsT = TypeVar("_ObsT")
_ActT = TypeVar("_ActT")


class MissingKeysToAction(error.Error):
    """:func:`play` (or :class:`PlayableGame`) was given no key mapping, and the environment has
    none of its own (no ``get_keys_to_action`` method)."""


class _MissingKeysWithoutSpec(MissingKeysToAction, ValueError):
    """:class:`MissingKeysToAction` for an environment without a ``spec``; also the
    ``ValueError`` that Gymnasium's ``play`` raises for it."""


class _NoFrameYet(error.Error, IndexError):
    """An ``rgb_array_list`` environment rendered an empty list before any frame was shown; also
    the ``IndexError`` of Gymnasium's ``rendered[-1]``."""


# --- optional dependencies ------------------------------------------------------------------------
def _import_pygame() -> ModuleType:
    """pygame, or :class:`~vecgym.error.DependencyNotInstalled` naming the ``human`` extra."""
    return import_extra("pygame", PLAY_PYGAME_EXTRA_MSG)


def _import_pyplot() -> ModuleType:
    """``matplotlib.pyplot``, or :class:`~vecgym.error.DependencyNotInstalled` naming the ``plot``
    extra. The backend is matplotlib's choice (``MPLBACKEND``, ``matplotlibrc``, ...)."""
    return import_extra("matplotlib.pyplot", PLAY_PLOT_EXTRA_MSG)


# --- key mappings ---------------------------------------------------------------------------------
def _default_keys_to_action(env: Any) -> Any:
    """The environment's own key mapping (``get_keys_to_action()``, on any layer).

    Raises:
        MissingKeysToAction: no layer has ``get_keys_to_action`` (also a ``ValueError`` when the
            environment has no ``spec``).
    """
    if env.has_wrapper_attr("get_keys_to_action"):
        return env.get_wrapper_attr("get_keys_to_action")()
    spec = getattr(env, "spec", None)
    if spec is None:
        raise _MissingKeysWithoutSpec(MISSING_KEYS_MSG.format(env=env))
    raise MissingKeysToAction(MISSING_KEYS_MSG.format(env=spec.id))


def _key_code(key: Any, combination: Any) -> int:
    """The pygame key code of one key: an ``int`` as it is, a character by its code point."""
    if isinstance(key, str) and len(key) == 1:
        return ord(key)
    if isinstance(key, int):
        return key
    raise TypeError(KEY_TYPE_MSG.format(key=combination))


def _combination_codes(combination: Any) -> tuple[int, ...]:
    """A key combination as its sorted tuple of key codes.

    ``97``, ``"a"``, ``("a",)`` and ``(97,)`` are the one key ``a``; ``"ab"``, ``("b", "a")`` and
    ``(97, 98)`` are ``a`` and ``b`` together; ``()`` and ``""`` are no key at all.

    Raises:
        TypeError: ``combination`` is none of these forms.
    """
    if isinstance(combination, int):
        keys: Iterable[Any] = (combination,)
    elif isinstance(combination, (str, tuple)):
        keys = combination
    else:
        raise TypeError(KEY_TYPE_MSG.format(key=combination))
    return tuple(sorted(_key_code(key, combination) for key in keys))


def _codes_to_actions(keys_to_action: Any, action_space: Any = None) -> dict[tuple[int, ...], Any]:
    """``keys_to_action`` with every combination as its sorted tuple of key codes.

    Combinations that name the same keys bind the action of the last of them. With an
    ``action_space``, every action must be in it.

    Raises:
        ValueError: ``keys_to_action`` is ``None``, or an action is not in ``action_space``.
        TypeError: ``keys_to_action`` is not a dict, or a combination is of no accepted form.
    """
    if keys_to_action is None:
        raise ValueError(KEYS_NONE_MSG)
    if not isinstance(keys_to_action, dict):
        raise TypeError(KEYS_NOT_DICT_MSG.format(type=type(keys_to_action).__name__))
    codes: dict[tuple[int, ...], Any] = {}
    for combination, action in keys_to_action.items():
        combination_codes = _combination_codes(combination)
        if action_space is not None and action not in action_space:
            raise ValueError(
                KEY_ACTION_MSG.format(key=combination, action=action, space=action_space)
            )
        codes[combination_codes] = action
    return codes


# --- frames ---------------------------------------------------------------------------------------
def _checked_frame(frame: Any) -> np.ndarray:
    """``frame`` if it is a numpy ``uint8`` array, else :class:`~vecgym.error.InvalidArgument`
    (a ``TypeError`` and a ``ValueError``)."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        kind = f"{frame.dtype} array" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise error.InvalidArgument(FRAME_MSG.format(kind=kind))
    return frame


def _array_frame(frame: Any) -> np.ndarray:
    """``frame`` if it is a numpy array of at least two dimensions (a size can be read from it),
    else :class:`~vecgym.error.InvalidArgument`; its dtype is checked when it is drawn."""
    if not isinstance(frame, np.ndarray) or frame.ndim < 2:
        kind = f"{frame.ndim}-d array" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise error.InvalidArgument(SIZE_FRAME_MSG.format(kind=kind))
    return frame


def _latest_frame(
    rendered: Any,
    shown: np.ndarray | None,
    check: Callable[[Any], np.ndarray] = _checked_frame,
) -> np.ndarray:
    """The frame to show for ``render()``'s result (``check``-ed): the last of a list, or
    ``shown`` (the frame on the screen) when the list is empty, as an ``rgb_array_list``
    environment's is when it has not stepped since its last ``render``."""
    if isinstance(rendered, list):
        if rendered:
            return check(rendered[-1])
        if shown is None:
            raise _NoFrameYet(NO_FRAME_MSG)
        return shown
    return check(rendered)


def display_arr(
    screen: Surface,
    arr: np.typing.NDArray[np.uint8],
    video_size: tuple[int, int],
    transpose: bool | None,
) -> None:
    """Draw the image ``arr`` on ``screen``, scaled to ``video_size`` and centred.

    The rest of the screen is black (bars where ``video_size`` is smaller than the screen).

    Args:
        screen: the pygame surface to draw on (the window's, for :func:`play`).
        arr: the image, a ``uint8`` array. Environments render ``(height, width, 3)`` arrays;
            pygame's surfaces are indexed ``(x, y)``, so such an array needs ``transpose``.
        video_size: ``(width, height)`` of the image on the screen.
        transpose: swap the array's first two axes before drawing it.

    Raises:
        InvalidArgument: ``arr`` is not a numpy ``uint8`` array (a ``ValueError`` and a
            ``TypeError``).
        DependencyNotInstalled: pygame is missing (the ``human`` extra).
    """
    frame = _checked_frame(arr)
    pygame = _import_pygame()
    image = pygame.surfarray.make_surface(frame.swapaxes(0, 1) if transpose else frame)
    image = pygame.transform.scale(image, video_size)
    screen_width, screen_height = screen.get_size()
    corner = ((screen_width - video_size[0]) / 2, (screen_height - video_size[1]) / 2)
    screen.fill((0, 0, 0))
    screen.blit(image, corner)


# --- the window -----------------------------------------------------------------------------------
class PlayableGame:
    """A pygame window that shows an environment's frames and tracks the keys held down.

    Constructing it opens the window (at the size of the environment's current frame, times
    ``zoom``), so the environment must have been reset. :meth:`process_event` is fed pygame's
    events: it keeps :attr:`pressed_keys` and clears :attr:`running` when the window is closed or
    Escape is pressed.

    Args:
        env: the environment, made with ``render_mode="rgb_array"`` or ``"rgb_array_list"``.
        keys_to_action: the key mapping, in any form :func:`play` takes; only its keys are tracked.
            ``None`` takes the environment's ``get_keys_to_action()``.
        zoom: the factor from the frame's size to the window's; ``None`` for 1.

    Raises:
        ValueError: another render mode, or a ``zoom`` that is not above zero.
        MissingKeysToAction: no ``keys_to_action`` and the environment has no mapping of its own.
        TypeError: ``keys_to_action`` is not a dict of key combinations.
        DependencyNotInstalled: pygame is missing (the ``human`` extra).
    """

    #: The environment played.
    env: Env
    #: The key codes of the mapping: the only keys tracked.
    relevant_keys: set[int]
    #: ``(width, height)`` of the window as opened; resizes scale from it.
    original_video_size: tuple[int, int]
    #: ``(width, height)`` that frames are drawn at (changed by resizing the window).
    video_size: tuple[int, int]
    #: The window's surface.
    screen: Surface
    #: The tracked keys held down now.
    pressed_keys: set[int]
    #: ``False`` once the window was closed or Escape pressed.
    running: bool

    def __init__(
        self,
        env: Env,
        keys_to_action: dict[tuple[int, ...], int] | None = None,
        zoom: float | None = None,
    ) -> None:
        pygame = _import_pygame()
        if env.render_mode not in {"rgb_array", "rgb_array_list"}:
            raise ValueError(PLAY_RENDER_MODE_MSG.format(mode=env.render_mode))
        if zoom is not None and not zoom > 0:
            raise ValueError(PLAY_ZOOM_MSG.format(zoom=zoom))
        self.env = env
        self.relevant_keys = self._get_relevant_keys(keys_to_action)
        self.original_video_size = self._get_video_size(zoom)
        self.video_size = self.original_video_size
        self.screen = pygame.display.set_mode(self.video_size, pygame.RESIZABLE)
        self.pressed_keys = set()
        self.running = True

    def _get_relevant_keys(
        self, keys_to_action: dict[tuple[int, ...], int] | None = None
    ) -> set[int]:
        """Every key code that some combination of the mapping uses."""
        if keys_to_action is None:
            keys_to_action = _default_keys_to_action(self.env)
        return {code for codes in _codes_to_actions(keys_to_action) for code in codes}

    def _get_video_size(self, zoom: float | None = None) -> tuple[int, int]:
        """``(width, height)`` of the environment's current frame, times ``zoom``.

        Only the frame's size is read here: as in Gymnasium, a frame of another dtype than
        ``uint8`` is refused when it is drawn (:func:`display_arr`), not when the game is built.
        """
        frame = _latest_frame(self.env.render(), None, _array_frame)
        width, height = frame.shape[1], frame.shape[0]
        if zoom is None:
            return width, height
        return int(width * zoom), int(height * zoom)

    def process_event(self, event: Event) -> None:
        """Take one pygame event into account.

        A tracked key pressed or released is added to or removed from :attr:`pressed_keys`;
        Escape (when the mapping does not use it) and closing the window clear :attr:`running`;
        resizing the window sets :attr:`video_size` to the largest size of the original aspect
        ratio that fits in it. Other events are ignored.

        Args:
            event: the event, as ``pygame.event.get()`` returns it.
        """
        pygame = _import_pygame()
        if event.type == pygame.KEYDOWN:
            if event.key in self.relevant_keys:
                self.pressed_keys.add(event.key)
            elif event.key == pygame.K_ESCAPE:
                self.running = False
        elif event.type == pygame.KEYUP:
            self.pressed_keys.discard(event.key)
        elif event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.WINDOWRESIZED:
            width, height = self.original_video_size
            scale = min(event.x / width, event.y / height)
            self.video_size = (round(width * scale), round(height * scale))


# --- play -----------------------------------------------------------------------------------------
def _metadata_fps(env: Any) -> Any:
    """``env.metadata["render_fps"]``, or :data:`DEFAULT_PLAY_FPS` when it is not set.

    Raises:
        TypeError: the value is not an integer.
    """
    value = env.metadata.get("render_fps", DEFAULT_PLAY_FPS)
    if not isinstance(value, numbers.Integral):
        raise TypeError(RENDER_FPS_MSG.format(value=value))
    return value


def play(
    env: Env[Any, ActType],
    transpose: bool | None = True,
    fps: int | None = None,
    zoom: float | None = None,
    callback: Callable[..., Any] | None = None,
    keys_to_action: dict[Any, ActType] | None = None,
    seed: int | None = None,
    noop: ActType | int = 0,
    wait_on_player: bool = False,
) -> None:
    """Play ``env`` from the keyboard, in a pygame window, until the window is closed or Escape
    is pressed.

    Every turn of the loop either resets the environment (at the start, and after an episode
    ended) or steps it once, shows the frame it renders, reads the keyboard and waits for the
    next tick of ``fps``. A step takes the action that ``keys_to_action`` binds to the exact set
    of bound keys held down (keys that no combination uses are ignored), or ``noop`` when that set
    is bound to nothing. With ``wait_on_player``, no step is taken while no bound key is held.

    Args:
        env: the environment, made with ``render_mode="rgb_array"`` or ``"rgb_array_list"``
            (wrappers included: this is a way to check that preprocessing leaves a game playable).
        transpose: swap the frame's first two axes before drawing it; keep it for the
            ``(height, width, 3)`` frames that environments render.
        fps: the most steps per second; ``None`` takes ``env.metadata["render_fps"]``, or 30 when
            the metadata has none.
        zoom: the factor from the frame's size to the window's; ``None`` for 1.
        callback: called after every step with ``(obs_t, obs_tp1, action, rew, terminated,
            truncated, info)``: the observations before and after the step, the action taken and
            what ``step`` returned.
        keys_to_action: which keys held together take which action. A combination is a pygame key
            code (an ``int``), a string whose characters are the keys (``"wa"`` is ``w`` and ``a``
            together), or a tuple of key codes and single characters (``(ord("w"), " ")``). The
            order inside a combination does not matter; the empty combination is the action taken
            while no bound key is held. ``None`` takes the environment's
            ``get_keys_to_action()``.
        seed: the seed of every reset (so each episode starts alike); ``None`` for none.
        noop: the action taken while the keys held are bound to nothing.
        wait_on_player: step only while a bound key is held (for turn-based games).

    Raises:
        MissingKeysToAction: no ``keys_to_action`` and the environment has no mapping of its own.
        TypeError: ``keys_to_action`` is not a dict, a combination is of no accepted form, or the
            metadata's ``render_fps`` is not an integer.
        ValueError: an action of the mapping is not in the action space, the render mode is
            another, or ``zoom`` is not above zero.
        DependencyNotInstalled: pygame is missing (the ``human`` extra).

    Example:
        >>> import numpy as np
        >>> import vecgym
        >>> from vecgym.utils.play import play
        >>> env = vecgym.make("MountainCarContinuous-v0", render_mode="rgb_array")
        >>> keys = {
        ...     "a": np.array([-1.0], dtype=np.float32),
        ...     "d": np.array([1.0], dtype=np.float32),
        ... }
        >>> play(env, keys_to_action=keys, noop=np.array([0.0], dtype=np.float32))  # doctest: +SKIP

        To plot a metric live while playing, hand :class:`PlayPlot`'s callback to ``play``:

        >>> def reward(obs_t, obs_tp1, action, rew, terminated, truncated, info):
        ...     return [rew]
        >>> plotter = PlayPlot(reward, 150, ["reward"])  # doctest: +SKIP
        >>> play(env, keys_to_action=keys, callback=plotter.callback)  # doctest: +SKIP
        >>> env.close()
    """
    pygame = _import_pygame()
    env.reset(seed=seed)
    if keys_to_action is None:
        keys_to_action = _default_keys_to_action(env)
    codes_to_action = _codes_to_actions(keys_to_action, env.action_space)
    game = PlayableGame(env, codes_to_action, zoom)
    try:
        if fps is None:
            fps = _metadata_fps(env)
        _play_loop(
            pygame, game, codes_to_action, fps, transpose, callback, seed, noop, wait_on_player
        )
    finally:
        pygame.quit()


def _play_loop(
    pygame: ModuleType,
    game: PlayableGame,
    codes_to_action: dict[tuple[int, ...], Any],
    fps: Any,
    transpose: bool | None,
    callback: Callable[..., Any] | None,
    seed: int | None,
    noop: Any,
    wait_on_player: bool,
) -> None:
    """:func:`play`'s loop: one reset or step, one frame and one tick per turn."""
    env = game.env
    clock = pygame.time.Clock()
    obs: Any = None
    shown: np.ndarray | None = None
    episode_over = True
    while game.running:
        if episode_over:
            obs, _ = env.reset(seed=seed)
            episode_over = False
        elif not wait_on_player or game.pressed_keys:
            action = codes_to_action.get(tuple(sorted(game.pressed_keys)), noop)
            obs_t = obs
            obs, rew, terminated, truncated, info = env.step(action)
            episode_over = bool(terminated or truncated)
            if callback is not None:
                callback(obs_t, obs, action, rew, terminated, truncated, info)
        shown = _latest_frame(env.render(), shown)
        display_arr(game.screen, shown, video_size=game.video_size, transpose=transpose)
        for event in pygame.event.get():
            game.process_event(event)
        pygame.display.flip()
        clock.tick(fps)


# --- live plots -----------------------------------------------------------------------------------
class PlayPlot(Generic[_ObsT, _ActT]):
    """Live scatter plots of metrics of each step, for :func:`play`'s ``callback``.

    ``callback`` computes the metrics of one transition: it is called with ``(obs_t, obs_tp1,
    action, rew, terminated, truncated, info)`` and returns one number per plot. Hand
    :meth:`callback` (the method) to :func:`play`; each call adds a point to every plot and shows
    the last ``horizon_timesteps`` points, in a matplotlib figure with one axes per plot::

        >>> def metrics(obs_t, obs_tp1, action, rew, terminated, truncated, info):
        ...     return [rew, float(np.abs(obs_tp1).sum())]
        >>> plotter = PlayPlot(metrics, 200, ["reward", "|obs|"])  # doctest: +SKIP
        >>> play(env, callback=plotter.callback)  # doctest: +SKIP

    The figure is drawn with matplotlib's configured backend; on a non-interactive one (Agg) the
    plots are kept up to date without a window.

    Args:
        callback: the metrics of one transition, one per plot.
        horizon_timesteps: how many of the last steps the plots show.
        plot_names: the title of each plot.

    Raises:
        DependencyNotInstalled: matplotlib is missing (the ``plot`` extra).
    """

    #: The function that computes the metrics of a transition.
    data_callback: Callable[[_ObsT, _ObsT, _ActT, float, bool, bool, dict], Iterable[Any]]
    #: How many of the last steps the plots show.
    horizon_timesteps: int
    #: The title of each plot.
    plot_names: list[str]
    #: The figure.
    fig: Figure
    #: One axes per plot.
    ax: list[Axes]
    #: The number of steps seen.
    t: int
    #: The scatter of each plot (``None`` before the first step).
    cur_plot: list[PathCollection | None]
    #: The metrics of the last ``horizon_timesteps`` steps, one deque per plot.
    data: list[deque[Any]]

    def __init__(
        self,
        callback: Callable[[_ObsT, _ObsT, _ActT, float, bool, bool, dict], Iterable[Any]],
        horizon_timesteps: int,
        plot_names: list[str],
    ) -> None:
        pyplot = _import_pyplot()
        self.data_callback = callback
        self.horizon_timesteps = horizon_timesteps
        self.plot_names = plot_names
        count = len(plot_names)
        self.fig, axes = pyplot.subplots(count)
        self.ax = [axes] if count == 1 else list(axes)
        for axis, name in zip(self.ax, plot_names, strict=True):
            axis.set_title(name)
        self.t = 0
        self.cur_plot = [None] * count
        self.data = [deque(maxlen=horizon_timesteps) for _ in range(count)]

    def callback(
        self,
        obs_t: _ObsT,
        obs_tp1: _ObsT,
        action: _ActT,
        rew: float,
        terminated: bool,
        truncated: bool,
        info: dict,
    ) -> None:
        """Compute the transition's metrics, add one point to every plot and redraw.

        The arguments are those :func:`play` hands its callback.

        Args:
            obs_t: the observation before the step.
            obs_tp1: the observation after it.
            action: the action taken.
            rew: the reward.
            terminated: whether the episode terminated.
            truncated: whether it was truncated.
            info: the step's info.

        Raises:
            ValueError: the metrics function returned a number of values other than the number
                of plots (nothing is recorded then).
        """
        points = list(self.data_callback(obs_t, obs_tp1, action, rew, terminated, truncated, info))
        if len(points) != len(self.data):
            raise ValueError(METRIC_COUNT_MSG.format(count=len(points), plots=len(self.data)))
        for point, series in zip(points, self.data, strict=True):
            series.append(point)
        self.t += 1
        first = max(0, self.t - self.horizon_timesteps)
        for index, axis in enumerate(self.ax):
            previous = self.cur_plot[index]
            if previous is not None:
                previous.remove()
            self.cur_plot[index] = axis.scatter(
                range(first, self.t), list(self.data[index]), c="blue"
            )
            axis.set_xlim(first, self.t)
        _import_pyplot().pause(0.000001)
