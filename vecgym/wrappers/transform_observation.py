"""Stateless observation wrappers: each applies one function to every observation.

* :class:`TransformObservation` - applies a user function (the base of the others);
* :class:`FilterObservation` - keeps some keys of a ``Dict`` or indices of a ``Tuple``;
* :class:`FlattenObservation` - flattens the observation to a 1-D array;
* :class:`GrayscaleObservation` - RGB image to grayscale;
* :class:`ResizeObservation` - resizes an image (OpenCV when installed, else numpy);
* :class:`ReshapeObservation` - reshapes a ``Box`` observation;
* :class:`RescaleObservation` - affinely rescales a ``Box`` observation to new bounds;
* :class:`DtypeObservation` - casts an array observation to another dtype;
* :class:`AddRenderObservation` - adds (or swaps in) the rendered frame;
* :class:`DiscretizeObservation` - bins a bounded ``Box`` observation into ``Discrete`` cells.

Each records its constructor arguments, so ``make(env.spec)`` rebuilds it.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence as AbcSequence
from typing import Any, Final

import numpy as np

from vecgym import error
from vecgym.core.env import ActType, Env, ObservationWrapper, ObsType, WrapperObsType
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.core.spaces.space import Space
from vecgym.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Tuple
from vecgym.spaces.utils import flatten, flatten_space
from vecgym.wrappers.utils import require_box, rescale_box, resize_image

__all__ = [
    "AddRenderObservation",
    "DiscretizeObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformObservation",
]


FILTER_KEYS_TYPE_MSG = "`filter_keys` must be a sequence (list or tuple) of keys, got {type}"
FILTER_KEYS_STR_MSG = (
    "`filter_keys` must be a list or tuple of keys, not the str {keys!r} (wrap a single key in a "
    "list: [{keys!r}])"
)
FILTER_DICT_KEYS_MSG = (
    "A Dict observation is filtered by key name: every filter key must be a str, got {keys}"
)
FILTER_MISSING_KEYS_MSG = (
    "Every key in `filter_keys` must be a key of the observation space; not found: {missing}\n"
    "`filter_keys`: {keys}\n"
    "observation space keys: {obs_keys}"
)
FILTER_TUPLE_KEYS_MSG = (
    "A Tuple observation is filtered by position: every filter key must be an integer index, got "
    "{keys}"
)
FILTER_DUPLICATE_MSG = "`filter_keys` must not repeat an index, got {keys}"
FILTER_INDEX_MSG = (
    "Every index in `filter_keys` must lie within the Tuple observation of length {length}; out of "
    "range: {missing}\n"
    "`filter_keys`: {keys}"
)
FILTER_EMPTY_MSG = (
    "`filter_keys` must select at least one entry: filtering left the observation space empty"
)
FILTER_SPACE_MSG = "FilterObservation filters Dict and Tuple observation spaces only, got {type}"

GRAYSCALE_WEIGHTS: Final = (0.2125, 0.7154, 0.0721)
GRAYSCALE_SHAPE_MSG = (
    "GrayscaleObservation needs RGB images: the observation shape must be (height, width, 3), got "
    "{shape}"
)
GRAYSCALE_BOUNDS_MSG = "GrayscaleObservation needs a uint8 image space with low 0 and high 255"

RESIZE_NDIM_MSG = (
    "ResizeObservation needs image observations with 2 dimensions (gray) or 3 (colour), got shape "
    "{shape}"
)
RESIZE_BOUNDS_MSG = "ResizeObservation needs an image space with low 0 and high 255"
RESIZE_DTYPE_MSG = "ResizeObservation needs uint8 image observations, got dtype {dtype}"
RESIZE_SHAPE_TYPE_MSG = "ResizeObservation takes `shape` as a (height, width) tuple, got {type}"
RESIZE_SHAPE_LEN_MSG = (
    "ResizeObservation `shape` must have two entries (height, width), got {shape}"
)
RESIZE_SHAPE_INT_MSG = "ResizeObservation `shape` must hold integers, got {shape}"
RESIZE_SHAPE_VALUE_MSG = "ResizeObservation `shape` entries must be at least 1, got {shape}"

RESHAPE_TYPE_MSG = "ReshapeObservation takes the new `shape` as a tuple, got {type}"
RESHAPE_INT_MSG = "ReshapeObservation `shape` must hold integers, got {shape}"
RESHAPE_VALUE_MSG = (
    "ReshapeObservation `shape` entries must be positive, or -1 for one inferred dimension, got "
    "{shape}"
)
RESHAPE_SIZE_MSG = (
    "ReshapeObservation cannot reshape {old} into {new}: both shapes must hold the same number of "
    "elements"
)

DTYPE_SPACE_MSG = (
    "DtypeObservation can change the dtype of Box, Discrete, MultiDiscrete and MultiBinary spaces, "
    "not of {type}"
)

RENDER_MODE_MSG = (
    "AddRenderObservation needs an environment that returns frames: render_mode must be set and "
    "not 'human', got {mode}"
)
RENDER_TYPE_MSG = (
    "AddRenderObservation puts the frame of env.render() in the observation, so that frame must be "
    "a numpy array, got {type}"
)
RENDER_KEY_EXISTS_MSG = (
    "AddRenderObservation cannot add the key '{key}': the observation space has it already; pass "
    "another `render_key`"
)

DISCRETIZE_SPACE_MSG = (
    "DiscretizeObservation splits continuous observations: the observation space must be a Box, "
    "got {type}"
)
DISCRETIZE_FINITE_MSG = (
    "DiscretizeObservation can only split finite intervals: every bound of the observation space "
    "must be finite, got low={low}, high={high}"
)
DISCRETIZE_BINS_LEN_MSG = (
    "`bins` must give one count per observation dimension: expected {expected}, got {actual}"
)
DISCRETIZE_BINS_VALUE_MSG = (
    "`bins` must be an integer or a sequence of integers, each at least 1, got {bins}"
)


def _is_integer(value: Any) -> bool:
    """Whether ``value`` is a Python or numpy integer (``bool`` excluded)."""
    return not isinstance(value, (bool, np.bool_)) and np.issubdtype(type(value), np.integer)


class TransformObservation(
    ObservationWrapper[WrapperObsType, ActType, ObsType], RecordConstructorArgs
):
    """Passes every observation from ``reset`` and ``step`` through ``func``.

    When ``func``'s outputs leave the wrapped env's observation space, give the space they live
    in as ``observation_space``; ``None`` keeps the wrapped env's space.

    Example:
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1")
        >>> env = TransformObservation(env, lambda obs: obs * 2, None)
        >>> env.reset(seed=42)[0]
        array([ 0.05479121, -0.01222431,  0.07171959,  0.0394736 ], dtype=float32)
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        func: Callable[[ObsType], Any],
        observation_space: Space[WrapperObsType] | None,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap.
            func: the function applied to each observation.
            observation_space: the space of ``func``'s outputs, or ``None`` for ``env``'s space.
        """
        RecordConstructorArgs.__init__(self, func=func, observation_space=observation_space)
        ObservationWrapper.__init__(self, env)
        if observation_space is not None:
            self.observation_space = observation_space
        self.func = func

    def observation(self, observation: ObsType) -> Any:
        """``func(observation)``."""
        return self.func(observation)


def _filter_dict(space: Dict, filter_keys: AbcSequence[Any]) -> Dict:
    """The sub-``Dict`` of ``space`` with ``filter_keys``, checking the keys."""
    if not all(isinstance(key, str) for key in filter_keys):
        raise TypeError(FILTER_DICT_KEYS_MSG.format(keys=filter_keys))
    missing = [key for key in filter_keys if key not in space.spaces]
    if missing:
        raise ValueError(
            FILTER_MISSING_KEYS_MSG.format(
                keys=filter_keys, obs_keys=list(space.spaces), missing=missing
            )
        )
    return Dict({key: space[key] for key in filter_keys}, sort_keys=space.sort_keys)


def _filter_tuple(space: Tuple, filter_keys: AbcSequence[Any]) -> Tuple:
    """The sub-``Tuple`` of ``space`` at indices ``filter_keys``, checking the indices."""
    if not all(_is_integer(key) for key in filter_keys):
        raise TypeError(FILTER_TUPLE_KEYS_MSG.format(keys=filter_keys))
    if len(set(filter_keys)) != len(filter_keys):
        raise ValueError(FILTER_DUPLICATE_MSG.format(keys=filter_keys))
    length = len(space)
    missing = [key for key in filter_keys if not -length <= key < length]
    if missing:
        raise ValueError(FILTER_INDEX_MSG.format(keys=filter_keys, length=length, missing=missing))
    return Tuple([space[key] for key in filter_keys])


class FilterObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Keeps only some entries of a ``Dict`` (by key) or ``Tuple`` (by index) observation.

    The kept entries come in the order of ``filter_keys`` (a ``Dict`` that sorts its keys sorts
    them again). A bare string is refused as ``filter_keys`` (Gymnasium would read ``"abc"`` as
    the keys ``"a"``, ``"b"``, ``"c"``); pass ``["abc"]``.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Box, Dict, Discrete
        >>> from tests.support.generic_env import GenericTestEnv
        >>> space = Dict(pos=Box(0, 1, (2,)), tag=Discrete(3))
        >>> env = FilterObservation(GenericTestEnv(observation_space=space), ["tag"])
        >>> env.observation_space
        Dict('tag': Discrete(3))
    """

    def __init__(self, env: Env[ObsType, ActType], filter_keys: AbcSequence[str | int]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; its observation space must be a Dict or a Tuple.
            filter_keys: the keys (strings, for a Dict) or indices (integers, for a Tuple) to keep.

        Raises:
            TypeError: ``filter_keys`` is not a sequence, or holds the wrong key type.
            vecgym.error.InvalidArgument: ``filter_keys`` is a ``str`` (a ``TypeError`` and a
                ``ValueError``, the types Gymnasium raises for it).
            ValueError: the space is neither Dict nor Tuple, a key is missing or repeated, or no
                key is left.
        """
        if isinstance(filter_keys, str):
            # Gymnasium reads a str as its characters and raises TypeError or ValueError, or
            # filters by single-character keys: refused, with an error of both types
            raise error.InvalidArgument(FILTER_KEYS_STR_MSG.format(keys=filter_keys))
        if not isinstance(filter_keys, AbcSequence):
            raise TypeError(FILTER_KEYS_TYPE_MSG.format(type=type(filter_keys)))
        RecordConstructorArgs.__init__(self, filter_keys=filter_keys)
        space = env.observation_space
        new_space: Dict | Tuple
        func: Callable[[Any], Any]
        keys = list(filter_keys)
        if isinstance(space, Dict):
            new_space = _filter_dict(space, keys)

            def func(obs: Any) -> Any:
                return {key: obs[key] for key in keys}

        elif isinstance(space, Tuple):
            new_space = _filter_tuple(space, keys)

            def func(obs: Any) -> Any:
                return tuple(obs[key] for key in keys)

        else:
            raise ValueError(FILTER_SPACE_MSG.format(type=type(space)))
        if len(new_space) == 0:
            raise ValueError(FILTER_EMPTY_MSG)
        TransformObservation.__init__(self, env=env, func=func, observation_space=new_space)
        self.filter_keys: Final[AbcSequence[str | int]] = filter_keys


class FlattenObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Flattens each observation (:func:`vecgym.spaces.flatten`) and the observation space.

    Example:
        >>> import vecgym
        >>> from vecgym.spaces import Box, Discrete, Tuple
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = GenericTestEnv(observation_space=Tuple((Box(0, 1, (2,)), Discrete(3))))
        >>> FlattenObservation(env).observation_space
        Box(0.0, 1.0, (5,), float64)
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; its space must support ``flatten_space``.
        """
        RecordConstructorArgs.__init__(self)
        inner_space = env.observation_space
        TransformObservation.__init__(
            self,
            env=env,
            func=lambda obs: flatten(inner_space, obs),
            observation_space=flatten_space(inner_space),
        )


def _to_grayscale(image: np.ndarray) -> np.ndarray:
    """Luma of an ``(H, W, 3)`` uint8 RGB image, truncated (not rounded) to uint8."""
    red, green, blue = GRAYSCALE_WEIGHTS
    luma = image[..., 0] * red + image[..., 1] * green + image[..., 2] * blue
    return luma.astype(np.uint8)


class GrayscaleObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Turns ``(H, W, 3)`` uint8 RGB image observations into grayscale.

    Gray is ``0.2125 R + 0.7154 G + 0.0721 B`` (Gymnasium's weights), truncated to an integer as
    Gymnasium does, so results agree with it pixel for pixel. ``keep_dim`` keeps a channel axis
    of size 1.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Box
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = GenericTestEnv(observation_space=Box(0, 255, (8, 6, 3), np.uint8))
        >>> GrayscaleObservation(env).observation_space
        Box(0, 255, (8, 6), uint8)
        >>> GrayscaleObservation(env, keep_dim=True).observation_space
        Box(0, 255, (8, 6, 1), uint8)
    """

    def __init__(self, env: Env[ObsType, ActType], keep_dim: bool = False) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; observations must be a ``Box(0, 255, (H, W, 3), uint8)``.
            keep_dim: keep a trailing channel axis of size 1.

        Raises:
            TypeError: the observation space is not a Box.
            ValueError: it is not a 3-channel image with bounds 0..255 and dtype uint8.
        """
        space = require_box(env.observation_space, "GrayscaleObservation", "observation")
        if len(space.shape) != 3 or space.shape[-1] != 3:
            raise ValueError(GRAYSCALE_SHAPE_MSG.format(shape=space.shape))
        if not (np.all(space.low == 0) and np.all(space.high == 255) and space.dtype == np.uint8):
            raise ValueError(GRAYSCALE_BOUNDS_MSG)
        RecordConstructorArgs.__init__(self, keep_dim=keep_dim)
        self.keep_dim: Final[bool] = keep_dim
        new_shape = space.shape[:2] + ((1,) if keep_dim else ())
        new_space = Box(low=0, high=255, shape=new_shape, dtype=np.uint8)
        TransformObservation.__init__(
            self,
            env=env,
            func=lambda obs: _to_grayscale(np.asarray(obs)).reshape(new_shape),
            observation_space=new_space,
        )


def _check_resize_shape(shape: Any) -> tuple[int, int]:
    """``shape`` as a tuple of two positive ints, or a clear error."""
    if not isinstance(shape, tuple):
        raise TypeError(RESIZE_SHAPE_TYPE_MSG.format(type=type(shape)))
    if len(shape) != 2:
        raise ValueError(RESIZE_SHAPE_LEN_MSG.format(shape=shape))
    if not all(_is_integer(size) for size in shape):
        raise TypeError(RESIZE_SHAPE_INT_MSG.format(shape=shape))
    if not all(size > 0 for size in shape):
        raise ValueError(RESIZE_SHAPE_VALUE_MSG.format(shape=shape))
    return int(shape[0]), int(shape[1])


class ResizeObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Resizes uint8 image observations (``(H, W)`` or ``(H, W, C)``) to ``shape = (h, w)``.

    Resizing is :func:`vecgym.wrappers.utils.resize_image`: with OpenCV installed (the ``atari``
    extra) it is Gymnasium's ``cv2.resize(..., INTER_AREA)``, so observations equal Gymnasium's;
    without OpenCV, unlike Gymnasium, it still works, with a numpy stand-in that agrees with
    OpenCV to within one grey level.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Box
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = GenericTestEnv(observation_space=Box(0, 255, (96, 96, 3), np.uint8))
        >>> ResizeObservation(env, (32, 48)).observation_space
        Box(0, 255, (32, 48, 3), uint8)
    """

    def __init__(self, env: Env[ObsType, ActType], shape: tuple[int, int]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; observations must be a uint8 Box with bounds 0..255
                and 2 or 3 dimensions.
            shape: the new ``(height, width)``.

        Raises:
            TypeError: the space is not a Box, or ``shape`` is not a tuple of integers.
            ValueError: the space is not a 0..255 uint8 image, or ``shape`` is not two positive
                sizes.
        """
        space = require_box(env.observation_space, "ResizeObservation", "observation")
        if len(space.shape) not in (2, 3):
            raise ValueError(RESIZE_NDIM_MSG.format(shape=space.shape))
        if not (np.all(space.low == 0) and np.all(space.high == 255)):
            raise ValueError(RESIZE_BOUNDS_MSG)
        if space.dtype != np.uint8:
            raise ValueError(RESIZE_DTYPE_MSG.format(dtype=space.dtype))
        new_hw = _check_resize_shape(shape)
        RecordConstructorArgs.__init__(self, shape=shape)
        self.shape: Final[tuple[int, int]] = new_hw
        new_space = Box(low=0, high=255, shape=new_hw + space.shape[2:], dtype=np.uint8)
        TransformObservation.__init__(
            self,
            env=env,
            func=lambda obs: resize_image(np.asarray(obs, dtype=np.uint8), new_hw),
            observation_space=new_space,
        )


def _resolve_reshape(shape: Any, old_shape: tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with any ``-1`` resolved against ``old_shape``, or a clear error."""
    if not isinstance(shape, tuple):
        raise TypeError(RESHAPE_TYPE_MSG.format(type=type(shape)))
    if not all(_is_integer(size) for size in shape):
        raise TypeError(RESHAPE_INT_MSG.format(shape=shape))
    sizes = [int(size) for size in shape]
    if not all(size > 0 or size == -1 for size in sizes) or sizes.count(-1) > 1:
        raise ValueError(RESHAPE_VALUE_MSG.format(shape=shape))
    total = int(np.prod(old_shape))
    known = int(np.prod([size for size in sizes if size != -1]))
    if -1 in sizes:
        if known == 0 or total % known != 0:
            raise ValueError(RESHAPE_SIZE_MSG.format(old=old_shape, new=shape))
        sizes[sizes.index(-1)] = total // known
    elif known != total:
        raise ValueError(RESHAPE_SIZE_MSG.format(old=old_shape, new=shape))
    return tuple(sizes)


class ReshapeObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Reshapes ``Box`` observations (and their bounds) to ``shape``.

    One entry of ``shape`` may be ``-1``, standing for whatever size makes the element count
    match; the observation space then has the resolved shape. (Gymnasium advertises ``-1`` but
    its size check always rejects it.)

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Box
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = GenericTestEnv(observation_space=Box(0, 1, (6, 4)))
        >>> ReshapeObservation(env, (3, -1)).observation_space
        Box(0.0, 1.0, (3, 8), float32)
    """

    def __init__(self, env: Env[ObsType, ActType], shape: tuple[int, ...]) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; its observation space must be a Box.
            shape: the new shape, a tuple of positive integers with at most one ``-1``.

        Raises:
            TypeError: the space is not a Box, or ``shape`` is not a tuple of integers.
            ValueError: ``shape`` has other non-positive sizes, or a different element count.
        """
        space = require_box(env.observation_space, "ReshapeObservation", "observation")
        new_shape = _resolve_reshape(shape, space.shape)
        RecordConstructorArgs.__init__(self, shape=shape)
        self.shape = shape
        new_space = Box(
            low=np.reshape(space.low, new_shape),
            high=np.reshape(space.high, new_shape),
            shape=new_shape,
            dtype=space.dtype,
        )
        TransformObservation.__init__(
            self,
            env=env,
            func=lambda obs: np.reshape(np.asarray(obs), new_shape),
            observation_space=new_space,
        )


class RescaleObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Maps ``Box`` observations affinely from the env's bounds onto ``[min_obs, max_obs]``.

    Infinite components keep their infinite bound (the target must repeat it) and are only
    shifted. See :func:`vecgym.wrappers.utils.rescale_box`.

    Example:
        >>> import numpy as np
        >>> import vecgym
        >>> env = vecgym.make("Pendulum-v1")
        >>> env = RescaleObservation(env, np.float32(0), np.float32(1))
        >>> env.observation_space
        Box(0.0, 1.0, (3,), float32)
    """

    def __init__(self, env: Env[ObsType, ActType], min_obs: Any, max_obs: Any) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; its observation space must be a Box.
            min_obs: the new lower bound (a number, or an array of the space's shape).
            max_obs: the new upper bound (same).

        Raises:
            TypeError: the space is not a Box, or a bound is not a number or array.
            ValueError: see :func:`~vecgym.wrappers.utils.rescale_box`.
        """
        space = require_box(env.observation_space, "RescaleObservation", "observation")
        RecordConstructorArgs.__init__(self, min_obs=min_obs, max_obs=max_obs)
        new_space, forward, _ = rescale_box(space, min_obs, max_obs)
        TransformObservation.__init__(
            self, env=env, func=lambda obs: forward(np.asarray(obs)), observation_space=new_space
        )


def _cast_space(space: Space[Any], dtype: Any) -> Space[Any]:
    """The space of ``space``'s values cast to ``dtype``."""
    if isinstance(space, Box):
        return Box(low=space.low, high=space.high, shape=space.shape, dtype=dtype)
    if isinstance(space, Discrete):
        return Box(low=space.start, high=space.start + space.n - 1, shape=(), dtype=dtype)
    if isinstance(space, MultiDiscrete):
        return MultiDiscrete(space.nvec, dtype=dtype, start=space.start)
    if isinstance(space, MultiBinary):
        return Box(low=0, high=1, shape=space.shape, dtype=dtype)
    raise TypeError(DTYPE_SPACE_MSG.format(type=type(space)))


class DtypeObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Casts array observations to ``dtype``.

    A ``Box`` keeps its bounds, a ``MultiDiscrete`` stays one, a ``Discrete`` becomes a
    scalar ``Box(start, start + n - 1, ())`` and a ``MultiBinary`` a ``Box(0, 1)``.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Discrete
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = GenericTestEnv(observation_space=Discrete(5, start=2))
        >>> DtypeObservation(env, np.float32).observation_space
        Box(2.0, 6.0, (), float32)
    """

    def __init__(self, env: Env[ObsType, ActType], dtype: Any) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; a Box, Discrete, MultiDiscrete or MultiBinary space.
            dtype: the new dtype (a numpy scalar type, dtype object or string).

        Raises:
            TypeError: the space is of another type.
        """
        new_space = _cast_space(env.observation_space, dtype)
        self.dtype = dtype
        RecordConstructorArgs.__init__(self, dtype=dtype)
        scalar_type = new_space.dtype.type  # type: ignore[union-attr]
        TransformObservation.__init__(
            self, env=env, func=lambda obs: scalar_type(obs), observation_space=new_space
        )


class AddRenderObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Puts the rendered frame into the observation.

    With ``render_only`` (the default) the frame replaces the observation. Otherwise the
    observation becomes a ``Dict``: a Dict observation gains the key ``render_key``; any other
    observation goes under ``obs_key`` beside the frame under ``render_key``.

    The constructor resets ``env`` once (without a seed) and renders, to learn the frame's shape.
    The frame space is ``Box(0, 255, frame.shape, uint8)``.

    Example:
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1", render_mode="rgb_array")  # doctest: +SKIP
        >>> AddRenderObservation(env).observation_space  # doctest: +SKIP
        Box(0, 255, (400, 600, 3), uint8)
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        render_only: bool = True,
        render_key: str = "pixels",
        obs_key: str = "state",
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; its render mode must produce arrays (not ``None`` or
                ``"human"``).
            render_only: replace the observation with the frame instead of adding it.
            render_key: the frame's key in a Dict observation.
            obs_key: the original observation's key when it is not itself a Dict.

        Raises:
            ValueError: the render mode is ``None`` or ``"human"``, or ``render_key`` is already a
                key of a Dict observation space.
            TypeError: ``env.render()`` does not return a numpy array.
        """
        RecordConstructorArgs.__init__(
            self, render_only=render_only, render_key=render_key, obs_key=obs_key
        )
        if env.render_mode is None or env.render_mode == "human":
            raise ValueError(RENDER_MODE_MSG.format(mode=env.render_mode))
        env.reset()
        frame = env.render()
        if not isinstance(frame, np.ndarray):
            raise TypeError(RENDER_TYPE_MSG.format(type=type(frame)))
        frame_space = Box(low=0, high=255, shape=frame.shape, dtype=np.uint8)
        space = env.observation_space
        new_space: Space[Any]
        func: Callable[[Any], Any]
        if render_only:
            new_space = frame_space

            def func(obs: Any) -> Any:
                return self.render()

        elif isinstance(space, Dict):
            if render_key in space.spaces:
                raise ValueError(RENDER_KEY_EXISTS_MSG.format(key=render_key))
            new_space = Dict({render_key: frame_space, **space.spaces}, sort_keys=space.sort_keys)

            def func(obs: Any) -> Any:
                return {render_key: self.render(), **obs}

        else:
            new_space = Dict({obs_key: space, render_key: frame_space})

            def func(obs: Any) -> Any:
                return {obs_key: obs, render_key: self.render()}

        TransformObservation.__init__(self, env=env, func=func, observation_space=new_space)


def _check_bins(bins: Any, n_dims: int) -> np.ndarray:
    """``bins`` as one positive count per dimension, or a clear error."""
    if _is_integer(bins):
        counts = [int(bins)] * n_dims
    else:
        if not isinstance(bins, AbcSequence) and not isinstance(bins, np.ndarray):
            raise TypeError(DISCRETIZE_BINS_VALUE_MSG.format(bins=bins))
        if len(bins) != n_dims:
            raise ValueError(DISCRETIZE_BINS_LEN_MSG.format(expected=n_dims, actual=len(bins)))
        if not all(_is_integer(count) for count in bins):
            raise TypeError(DISCRETIZE_BINS_VALUE_MSG.format(bins=bins))
        counts = [int(count) for count in bins]
    if not all(count > 0 for count in counts):
        raise ValueError(DISCRETIZE_BINS_VALUE_MSG.format(bins=bins))
    return np.array(counts)


class DiscretizeObservation(TransformObservation[Any, ActType, ObsType], RecordConstructorArgs):
    """Cuts a bounded ``Box`` observation into a grid of equal cells and reports the cell.

    Each dimension ``i`` of the flattened observation is split into ``bins[i]`` equal intervals
    between its bounds (values outside are clipped to the bounds first; a value on an inner edge
    belongs to the upper interval). The observation becomes the cell's flat, row-major index in
    ``Discrete(prod(bins))``, or with ``multidiscrete=True`` the per-dimension indices in
    ``MultiDiscrete(bins)``. :meth:`revert_observation` gives a cell's bounds back.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Box
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = GenericTestEnv(observation_space=Box(0, 1, (2,)))
        >>> env = DiscretizeObservation(env, bins=(2, 5))
        >>> env.observation_space
        Discrete(10)
        >>> env.observation(np.array([0.75, 0.5], dtype=np.float32))
        7
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        bins: int | tuple[int, ...],
        multidiscrete: bool = False,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment to wrap; its observation space must be a Box with finite bounds.
            bins: the number of intervals, for every dimension or one per (flattened) dimension.
            multidiscrete: report per-dimension indices (``MultiDiscrete``) instead of one
                flat index (``Discrete``).

        Raises:
            TypeError: the space is not a Box, or ``bins`` is not made of integers.
            ValueError: a bound is infinite, ``bins`` has the wrong length or a count below 1.
        """
        space = env.observation_space
        if not isinstance(space, Box):
            raise TypeError(DISCRETIZE_SPACE_MSG.format(type=type(space)))
        self.low = np.ravel(space.low)
        self.high = np.ravel(space.high)
        self.n_dims = int(self.low.size)
        if not (np.all(np.isfinite(self.low)) and np.all(np.isfinite(self.high))):
            raise ValueError(DISCRETIZE_FINITE_MSG.format(low=self.low, high=self.high))
        self.bins = _check_bins(bins, self.n_dims)
        self.multidiscrete = multidiscrete
        RecordConstructorArgs.__init__(self, bins=bins, multidiscrete=multidiscrete)
        self.bin_edges = [
            np.linspace(self.low[i], self.high[i], self.bins[i] + 1)[1:-1]
            for i in range(self.n_dims)
        ]
        new_space: Space[Any] = (
            MultiDiscrete(self.bins) if multidiscrete else Discrete(int(np.prod(self.bins)))
        )
        TransformObservation.__init__(
            self, env=env, func=self._discretize, observation_space=new_space
        )

    def _discretize(self, observation: Any) -> Any:
        clipped = np.clip(np.ravel(observation), self.low, self.high)
        indices = [int(np.digitize(clipped[i], self.bin_edges[i])) for i in range(self.n_dims)]
        if self.multidiscrete:
            return np.array(indices, dtype=np.int64)
        return int(np.ravel_multi_index(indices, self.bins))

    def revert_observation(self, obs: Any) -> tuple[np.ndarray, np.ndarray]:
        """The ``(low, high)`` bounds (flattened, in the env's dtype) of the cell ``obs`` names."""
        if self.multidiscrete:
            indices = [int(index) for index in np.asarray(obs)]
        else:
            indices = [int(index) for index in np.unravel_index(int(obs), self.bins)]
        lows, highs = [], []
        for dim, index in enumerate(indices):
            edges = np.linspace(self.low[dim], self.high[dim], self.bins[dim] + 1)
            lows.append(edges[index])
            highs.append(edges[index + 1])
        dtype = self.env.observation_space.dtype
        return np.array(lows, dtype=dtype), np.array(highs, dtype=dtype)
