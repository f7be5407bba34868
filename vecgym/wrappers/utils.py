"""Helpers shared by the wrappers: running statistics, zero values, box rescaling, resizing.

* :class:`RunningMeanStd` keeps a running mean and variance (Chan et al.'s parallel update), used
  by the observation and reward normalisers;
* :func:`create_zero_array` gives, per space (``functools.singledispatch``), the valid value of
  the space closest to zero; a new space registers its own function;
* :func:`rescale_box` builds the affine map between a :class:`~vecgym.spaces.Box` and new bounds;
* :func:`resize_image` resizes an image with OpenCV's ``cv2.resize(..., INTER_AREA)`` (what
  Gymnasium's ``AtariPreprocessing`` and ``ResizeObservation`` call) when OpenCV is installed (the
  ``atari`` extra), so observations equal Gymnasium's bit for bit; without OpenCV it falls back to
  numpy alone (area averaging), which agrees with OpenCV to within rounding.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache, singledispatch
from typing import Any

import numpy as np

from vecgym.error import CustomSpaceError, DependencyNotInstalled
from vecgym.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    GraphInstance,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
)

__all__ = ["RunningMeanStd", "create_zero_array", "update_mean_var_count_from_moments"]

NO_ZERO_ARRAY_MSG = (
    "`create_zero_array` has no implementation for spaces of type {type}: add one with "
    "`@create_zero_array.register({type_name})`"
)
NOT_A_SPACE_MSG = "`create_zero_array` expected a vecgym Space instance, got {type}: {value!r}"
RESCALE_NOT_BOX_MSG = "rescale_box needs a Box space, got {type}"
REQUIRES_BOX_MSG = "{wrapper} works on Box {kind} spaces only, got {type}"
RESCALE_BOUND_TYPE_MSG = "`{name}` must be a number (int or float) or a numpy array, got {type}"
RESCALE_BOUND_SHAPE_MSG = (
    "`{name}` must be a scalar or an array of the Box's shape {expected}, got shape {actual}"
)
RESCALE_INFINITE_MSG = (
    "new_min and new_max must equal the Box's bounds wherever either of the two is infinite"
)
RESCALE_ORDER_MSG = (
    "new_min must not exceed new_max in any component, got new_min={new_min}, new_max={new_max}"
)
RESCALE_BOX_ORDER_MSG = (
    "The Box's low must not exceed its high in any component, got low={low}, high={high}"
)
RESIZE_NDIM_MSG = "resize_image expected an image with 2 or 3 dimensions, got shape {shape}"
RESIZE_SHAPE_MSG = "resize_image expected `shape` to be two positive integers, got {shape}"
OPENCV_MISSING_MSG = 'resize_image(use_opencv=True) needs OpenCV: pip install "vecgym[atari]"'


class RunningMeanStd:
    """The running mean, variance and count of a stream of arrays.

    Batches are merged with the parallel variance formula (Chan, Golub and LeVeque), so feeding
    the values one at a time or in batches gives the same statistics. The count starts at
    ``epsilon`` (not zero) so that the first merge never divides by zero; the mean starts at 0 and
    the variance at 1.

    Example:
        >>> import numpy as np
        >>> rms = RunningMeanStd(shape=(2,))
        >>> rms.update(np.array([[1.0, 2.0], [3.0, 4.0]]))
        >>> np.round(rms.mean, 3), np.round(rms.var, 3)
        (array([2., 3.]), array([1., 1.]))
    """

    def __init__(
        self, epsilon: float = 1e-4, shape: tuple[int, ...] = (), dtype: Any = np.float64
    ) -> None:
        """Start the statistics.

        Args:
            epsilon: the starting count (a small prior weight on mean 0, variance 1).
            shape: the shape of one value.
            dtype: the dtype of the mean and variance arrays.
        """
        self.mean: Any = np.zeros(shape, dtype=dtype)
        self.var: Any = np.ones(shape, dtype=dtype)
        self.count: Any = epsilon

    def update(self, x: Any) -> None:
        """Merge a batch of values (stacked along axis 0) into the statistics."""
        self.update_from_moments(np.mean(x, axis=0), np.var(x, axis=0), x.shape[0])

    def update_from_moments(self, batch_mean: Any, batch_var: Any, batch_count: Any) -> None:
        """Merge a batch given by its mean, (population) variance and number of values."""
        self.mean, self.var, self.count = update_mean_var_count_from_moments(
            self.mean, self.var, self.count, batch_mean, batch_var, batch_count
        )


def require_box(space: Any, wrapper: str, kind: str) -> Box:
    """``space`` when it is a :class:`Box`, else a ``TypeError`` naming ``wrapper``.

    Args:
        space: the space the wrapper needs to be a Box.
        wrapper: the wrapper's name, for the message.
        kind: what the space is (``"action"``, ``"observation"``, ``"single observation"``).
    """
    if not isinstance(space, Box):
        raise TypeError(REQUIRES_BOX_MSG.format(wrapper=wrapper, kind=kind, type=type(space)))
    return space


def update_mean_var_count_from_moments(
    mean: Any, var: Any, count: Any, batch_mean: Any, batch_var: Any, batch_count: Any
) -> tuple[Any, Any, Any]:
    """Combine two sets of statistics (mean, population variance, count) into one.

    Args:
        mean: the mean so far.
        var: the variance so far.
        count: how many values (weight) the statistics so far stand for.
        batch_mean: the new batch's mean.
        batch_var: the new batch's variance.
        batch_count: how many values are in the new batch.

    Returns:
        ``(mean, var, count)`` of the union of both sets.
    """
    delta = batch_mean - mean
    total = count + batch_count
    merged_mean = mean + delta * batch_count / total
    sum_sq = var * count + batch_var * batch_count + np.square(delta) * count * batch_count / total
    return merged_mean, sum_sq / total, total


# --------------------------------------------------------------------------------------------
# create_zero_array


@singledispatch
def create_zero_array(space: Space[Any]) -> Any:
    """The value of ``space`` closest to zero: a valid sample, unlike ``create_empty_array``.

    A :class:`Box` whose bounds exclude zero gives its nearest bound, a :class:`Discrete` its
    ``start``, a :class:`Text` its shortest string of its first character, and so on per space.
    Other space types register their own function with ``create_zero_array.register``.

    Args:
        space: the space to build the value for.

    Returns:
        a member of ``space``.

    Raises:
        CustomSpaceError: ``space`` is a Space type with no registered function.
        TypeError: ``space`` is not a Space.

    Example:
        >>> import numpy as np
        >>> from vecgym.spaces import Box
        >>> create_zero_array(Box(np.array([1.0, -2.0]), np.array([3.0, -1.0]), dtype=np.float64))
        array([ 1., -1.])
    """
    if isinstance(space, Space):
        raise CustomSpaceError(
            NO_ZERO_ARRAY_MSG.format(type=type(space), type_name=type(space).__name__)
        )
    raise TypeError(NOT_A_SPACE_MSG.format(type=type(space), value=space))


@create_zero_array.register(Box)
def _zero_box(space: Box) -> np.ndarray:
    zeros = np.zeros(space.shape, dtype=space.dtype)
    clipped = np.where(space.low > 0, space.low, zeros)
    return np.where(space.high < 0, space.high, clipped).astype(space.dtype, copy=False)


@create_zero_array.register(Discrete)
def _zero_discrete(space: Discrete) -> Any:
    return space.start


@create_zero_array.register(MultiDiscrete)
def _zero_multi_discrete(space: MultiDiscrete) -> np.ndarray:
    return np.array(space.start, dtype=space.dtype, copy=True)


@create_zero_array.register(MultiBinary)
def _zero_multi_binary(space: MultiBinary) -> np.ndarray:
    return np.zeros(space.shape, dtype=space.dtype)


@create_zero_array.register(Tuple)
def _zero_tuple(space: Tuple) -> tuple[Any, ...]:
    return tuple(create_zero_array(sub) for sub in space.spaces)


@create_zero_array.register(Dict)
def _zero_dict(space: Dict) -> dict[str, Any]:
    return {key: create_zero_array(sub) for key, sub in space.spaces.items()}


@create_zero_array.register(Sequence)
def _zero_sequence(space: Sequence) -> Any:
    if space.stack:
        return create_zero_array(space.stacked_feature_space)
    return ()


@create_zero_array.register(Text)
def _zero_text(space: Text) -> str:
    return space.characters[0] * space.min_length


@create_zero_array.register(Graph)
def _zero_graph(space: Graph) -> GraphInstance:
    from vecgym.vector.utils import batch_space

    nodes = create_zero_array(batch_space(space.node_space, 1))
    if space.edge_space is None:
        return GraphInstance(nodes=nodes, edges=None, edge_links=None)
    edges = create_zero_array(batch_space(space.edge_space, 1))
    return GraphInstance(nodes=nodes, edges=edges, edge_links=np.zeros((1, 2), dtype=np.int64))


@create_zero_array.register(OneOf)
def _zero_one_of(space: OneOf) -> tuple[int, Any]:
    return 0, create_zero_array(space.spaces[0])


# --------------------------------------------------------------------------------------------
# rescale_box


def _bound_array(box: Box, value: Any, name: str) -> np.ndarray:
    """``value`` as an array of ``box``'s shape (a scalar is broadcast), with checks."""
    if not isinstance(value, np.ndarray):
        if not (np.issubdtype(type(value), np.integer) or np.issubdtype(type(value), np.floating)):
            raise TypeError(RESCALE_BOUND_TYPE_MSG.format(name=name, type=type(value)))
        value = np.full(box.shape, value)
    if value.shape != box.shape:
        raise ValueError(
            RESCALE_BOUND_SHAPE_MSG.format(name=name, expected=box.shape, actual=value.shape)
        )
    return value


def rescale_box(
    box: Box, new_min: Any, new_max: Any
) -> tuple[Box, Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """The affine map that takes ``box``'s bounds onto ``[new_min, new_max]``.

    Components with an infinite bound keep it: there the target bound must equal the original
    one, and the map is a shift (gradient 1) that matches the finite bound, if any.

    A component whose original bounds coincide (``low == high``, a single point) maps onto
    ``new_min``, with its inverse giving back ``low``. (Gymnasium divides by zero there and
    produces NaN.)

    Args:
        box: the original box.
        new_min: the new lower bound (a scalar, or an array of ``box.shape``).
        new_max: the new upper bound (same).

    Returns:
        ``(new_box, forward, backward)``: the rescaled box, and functions mapping values from the
        original box to the new one and back.

    Raises:
        TypeError: ``box`` is not a Box, or a bound is not a number or array.
        ValueError: a bound has the wrong shape, infinite bounds differ, or a lower bound exceeds
            its upper bound.
    """
    if not isinstance(box, Box):
        raise TypeError(RESCALE_NOT_BOX_MSG.format(type=type(box)))
    new_min = _bound_array(box, new_min, "new_min")
    new_max = _bound_array(box, new_max, "new_max")
    if not np.all((new_min == box.low)[np.isinf(new_min) | np.isinf(box.low)]):
        raise ValueError(RESCALE_INFINITE_MSG)
    if not np.all((new_max == box.high)[np.isinf(new_max) | np.isinf(box.high)]):
        raise ValueError(RESCALE_INFINITE_MSG)
    if not np.all(new_min <= new_max):
        raise ValueError(RESCALE_ORDER_MSG.format(new_min=new_min, new_max=new_max))
    if not np.all(box.low <= box.high):
        raise ValueError(RESCALE_BOX_ORDER_MSG.format(low=box.low, high=box.high))

    min_finite = np.isfinite(new_min)
    max_finite = np.isfinite(new_max)
    both_finite = min_finite & max_finite
    # The width is taken in extended precision (where the platform has it) so that wide float64
    # boxes do not overflow to inf.
    width = np.asarray(box.high[both_finite], dtype=np.longdouble) - np.asarray(
        box.low[both_finite], dtype=np.longdouble
    )
    new_width = new_max[both_finite] - new_min[both_finite]
    point = width == 0
    safe_width = np.where(point, 1, width)

    gradient = np.ones_like(new_min, dtype=box.dtype)
    gradient[both_finite] = np.where(point, 0, new_width / safe_width)
    intercept = np.zeros_like(new_min, dtype=box.dtype)
    # Where both bounds are finite the lower one fixes the intercept (it is assigned last).
    intercept[max_finite] = new_max[max_finite] - box.high[max_finite]
    intercept[min_finite] = gradient[min_finite] * -box.low[min_finite] + new_min[min_finite]

    degenerate = np.zeros(box.shape, dtype=bool)
    degenerate[both_finite] = point
    box_low = box.low

    def forward(obs: np.ndarray) -> np.ndarray:
        return gradient * obs + intercept

    def backward(obs: np.ndarray) -> np.ndarray:
        safe_gradient = np.where(degenerate, 1, gradient)
        return np.where(degenerate, box_low, (obs - intercept) / safe_gradient)

    new_box = Box(low=new_min, high=new_max, shape=box.shape, dtype=box.dtype)
    return new_box, forward, backward


# --------------------------------------------------------------------------------------------
# resize_image


def _axis_weights(size_in: int, size_out: int, area: bool) -> np.ndarray:
    """The ``(size_out, size_in)`` matrix that resamples one axis as ``INTER_AREA``; rows sum to 1.

    With ``area`` (OpenCV's choice when no axis grows), output cell ``i`` covers the input
    interval ``[i * s, (i + 1) * s)`` with ``s = size_in / size_out``, and each input cell weighs
    by how much of it lies inside. Otherwise (some axis grows) each output cell blends at most two
    input cells: cell ``x = floor(i * s)`` and, with weight ``f``, the next one, where ``f`` is
    the part of the output cell past the start of cell ``x + 1``, in output units (edges
    replicated). On a growing axis the two rules coincide: an integer factor repeats pixels and
    other factors blend only at the boundaries. The entries are non-negative and their supports
    move right row by row, so constant lines stay constant and monotone lines stay monotone.
    """
    if size_out == size_in:
        return np.eye(size_out)
    scale = size_in / size_out
    rows = np.arange(size_out)
    if area:
        cells = np.arange(size_in)
        overlap = np.minimum((rows[:, None] + 1) * scale, cells[None, :] + 1) - np.maximum(
            rows[:, None] * scale, cells[None, :]
        )
        weights = np.clip(overlap, 0.0, None)
        return weights / weights.sum(axis=1, keepdims=True)
    left = np.floor(rows * scale).astype(np.int64)
    frac = (rows + 1) - (left + 1) / scale
    frac = np.where(frac <= 0, 0.0, frac - np.floor(frac))
    weights = np.zeros((size_out, size_in))
    np.add.at(weights, (rows, np.clip(left, 0, size_in - 1)), 1.0 - frac)
    np.add.at(weights, (rows, np.clip(left + 1, 0, size_in - 1)), frac)
    return weights


#: The dtypes ``cv2.resize`` handles with ``INTER_AREA``; other images use the numpy path.
_OPENCV_DTYPES = frozenset(
    np.dtype(t) for t in (np.uint8, np.int8, np.uint16, np.int16, np.float32, np.float64)
)
_OPENCV_MAX_CHANNELS = 512


@cache
def _opencv() -> Any | None:
    """The ``cv2`` module, or ``None`` when OpenCV is not installed (looked up once)."""
    try:
        return importlib.import_module("cv2")
    except ImportError:
        return None


def opencv_available() -> bool:
    """Whether :func:`resize_image` resizes with OpenCV (``cv2`` is importable)."""
    return _opencv() is not None


def resize_image(
    image: np.ndarray, shape: tuple[int, int], *, use_opencv: bool | None = None
) -> np.ndarray:
    """Resize ``image`` (``(H, W)`` or ``(H, W, C)``) to ``shape = (height, width)``.

    With OpenCV (the ``atari`` extra installs ``opencv-python-headless``), this is
    ``cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)``, the call of Gymnasium's
    ``AtariPreprocessing`` and ``ResizeObservation``, so the pixels are Gymnasium's exactly (a
    single channel that OpenCV drops is restored). Images of a dtype OpenCV cannot resize
    (``bool``, 64-bit integers, ...) and every image when OpenCV is missing take the numpy path:
    each axis is resampled separately with ``INTER_AREA``'s weights (see :func:`_axis_weights`:
    area averaging when no axis grows). The work is
    done in float64; integer images are rounded to the nearest integer and clipped to their
    dtype's range. The numpy results agree with OpenCV's to within rounding (one grey level),
    not bit for bit. Either way the result keeps the input's dtype.

    Args:
        image: the image; channels, if any, on the last axis.
        shape: the new ``(height, width)``.
        use_opencv: ``None`` (default): OpenCV when it is installed; ``False``: the numpy path;
            ``True``: OpenCV, which must be installed.

    Returns:
        the resized image, ``shape + image.shape[2:]``, same dtype as ``image``.

    Raises:
        ValueError: ``image`` is not 2-D or 3-D, or ``shape`` is not two positive integers.
        vecgym.error.DependencyNotInstalled: ``use_opencv=True`` without OpenCV installed.

    Example:
        >>> import numpy as np
        >>> resize_image(np.arange(4, dtype=np.uint8).reshape(1, 4) * 10, (1, 2))
        array([[ 5, 25]], dtype=uint8)
    """
    image = np.asarray(image)
    if image.ndim not in (2, 3):
        raise ValueError(RESIZE_NDIM_MSG.format(shape=image.shape))
    if len(shape) != 2 or not all(int(size) == size and size > 0 for size in shape):
        raise ValueError(RESIZE_SHAPE_MSG.format(shape=shape))
    height, width = int(shape[0]), int(shape[1])
    cv2 = _opencv() if use_opencv is not False else None
    if use_opencv and cv2 is None:
        raise DependencyNotInstalled(OPENCV_MISSING_MSG)
    if (
        cv2 is not None
        and image.dtype in _OPENCV_DTYPES
        and image.size > 0
        and (image.ndim == 2 or image.shape[2] <= _OPENCV_MAX_CHANNELS)
    ):
        resized = cv2.resize(
            np.ascontiguousarray(image), (width, height), interpolation=cv2.INTER_AREA
        )
        return np.asarray(resized).reshape((height, width, *image.shape[2:]))
    return _resize_numpy(image, height, width)


def _resize_numpy(image: np.ndarray, height: int, width: int) -> np.ndarray:
    """:func:`resize_image`'s numpy path (``image`` already checked)."""
    area = height <= image.shape[0] and width <= image.shape[1]
    rows = _axis_weights(image.shape[0], height, area)
    cols = _axis_weights(image.shape[1], width, area)
    data = image.astype(np.float64)
    resized = np.tensordot(rows, data, axes=(1, 0))
    resized = np.moveaxis(np.tensordot(cols, resized, axes=(1, 1)), 0, 1)
    if np.issubdtype(image.dtype, np.integer):
        info = np.iinfo(image.dtype)
        # Rounding to 9 decimals first removes float noise (weights summing to 1 - 1e-16), so
        # that equal inputs always round the same way, halves included.
        resized = np.clip(np.rint(np.round(resized, 9)), info.min, info.max)
    elif image.dtype == np.bool_:
        resized = resized >= 0.5
    return resized.astype(image.dtype)
