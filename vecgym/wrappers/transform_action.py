"""Stateless wrappers that change the action before it reaches the environment.

* :class:`TransformAction` applies any function to the action (and may declare a new action space);
* :class:`ClipAction` clips a ``Box`` action into the environment's bounds;
* :class:`RescaleAction` maps a ``Box`` action from ``[min_action, max_action]`` onto the
  environment's bounds, affinely;
* :class:`DiscretizeAction` offers a ``Discrete`` (or ``MultiDiscrete``) action space whose
  actions select the centres of a uniform grid over a bounded ``Box``.

Each records its constructor arguments, so ``vecgym.make(env.spec)`` rebuilds the same stack.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.env import ActionWrapper, ActType, Env, ObsType, WrapperActType
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.discrete import Discrete
from vecgym.core.spaces.multi_discrete import MultiDiscrete
from vecgym.core.spaces.space import Space
from vecgym.wrappers.utils import require_box, rescale_box

__all__ = ["ClipAction", "DiscretizeAction", "RescaleAction", "TransformAction"]

# --- message templates ----------------------------------------------------------------------------
FUNC_NOT_CALLABLE_MSG = "TransformAction func must be callable, got {type}"
ACTION_SPACE_TYPE_MSG = "TransformAction action_space must be a Space or None, got {type}"
RESCALE_BOUND_TYPE_MSG = (
    "RescaleAction {name} must be a number (int or float) or a numpy array, got {type}"
)
RESCALE_BOUND_SHAPE_MSG = (
    "RescaleAction {name} must be a scalar or an array of the action space's shape {expected}, "
    "got shape {actual}"
)
RESCALE_ORDER_MSG = (
    "RescaleAction min_action must be strictly smaller than max_action in every component "
    "(the rescaling is inverted on every step), got min_action={low}, max_action={high}"
)
DISCRETIZE_INFINITE_MSG = (
    "DiscretizeAction can only split finite intervals: every bound of the Box action space must be "
    "finite, got low={low}, high={high}"
)
DISCRETIZE_BINS_TYPE_MSG = (
    "DiscretizeAction bins must be an integer or a sequence of integers, got {value!r}"
)
DISCRETIZE_BINS_LEN_MSG = (
    "DiscretizeAction bins must have one entry per action dimension: expected {expected}, "
    "got {actual}"
)
DISCRETIZE_BINS_VALUE_MSG = "DiscretizeAction bins must all be at least 1, got {value}"


class TransformAction(ActionWrapper[ObsType, WrapperActType, ActType], RecordConstructorArgs):
    """Pass every action through ``func`` before the wrapped environment sees it.

    When ``func`` changes what an action looks like, give the space of the actions the wrapper
    accepts as ``action_space``; with ``None`` the wrapper keeps the environment's action space.

    Example:
        >>> import numpy as np
        >>> from vecgym.core.spaces.box import Box
        >>> from tests.support.generic_env import GenericTestEnv
        >>> seen = []
        >>> def record(self, action):
        ...     seen.append(action)
        ...     return np.zeros(1, dtype=np.float32), 0.0, False, False, {}
        >>> env = TransformAction(GenericTestEnv(step_func=record), lambda a: 2 * a, None)
        >>> _ = env.reset(seed=0)
        >>> _ = env.step(np.array([0.25]))
        >>> seen
        [array([0.5])]
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        func: Callable[[WrapperActType], ActType],
        action_space: Space[WrapperActType] | None,
    ) -> None:
        """Wrap ``env`` so that each action is ``func(action)`` by the time ``env`` steps.

        Args:
            env: the environment to wrap.
            func: maps an action of the wrapper to an action of ``env``.
            action_space: the wrapper's action space, or ``None`` to keep ``env``'s.

        Raises:
            TypeError: ``func`` is not callable, or ``action_space`` is neither a space nor
                ``None``.
        """
        if not callable(func):
            raise TypeError(FUNC_NOT_CALLABLE_MSG.format(type=type(func)))
        if action_space is not None and not isinstance(action_space, Space):
            raise TypeError(ACTION_SPACE_TYPE_MSG.format(type=type(action_space)))
        RecordConstructorArgs.__init__(self, func=func, action_space=action_space)
        ActionWrapper.__init__(self, env)
        if action_space is not None:
            self.action_space = action_space
        self.func = func

    def action(self, action: WrapperActType) -> ActType:
        """Return ``func(action)``."""
        return self.func(action)


class ClipAction(TransformAction[ObsType, WrapperActType, ActType], RecordConstructorArgs):
    """Clip each action into the bounds of the environment's ``Box`` action space.

    The wrapper accepts any real action of the right shape, so its action space is the
    environment's with infinite bounds (same shape and dtype).

    Example:
        >>> import numpy as np
        >>> from vecgym.core.spaces.box import Box
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = ClipAction(GenericTestEnv(action_space=Box(-1.0, 1.0, (2,))))
        >>> env.action_space
        Box(-inf, inf, (2,), float32)
        >>> env.action(np.array([3.0, -0.5], dtype=np.float32))
        array([ 1. , -0.5], dtype=float32)
    """

    def __init__(self, env: Env[ObsType, ActType]) -> None:
        """Wrap ``env``, whose action space must be a :class:`Box`.

        Args:
            env: the environment to wrap.

        Raises:
            TypeError: ``env``'s action space is not a ``Box``.
        """
        box = require_box(env.action_space, "ClipAction", "action")
        RecordConstructorArgs.__init__(self)
        TransformAction.__init__(  # type: ignore[misc]
            self,
            env=env,
            func=self._clip,
            action_space=Box(-np.inf, np.inf, shape=box.shape, dtype=box.dtype),
        )

    def _clip(self, action: Any) -> Any:
        """``action`` clipped into the wrapped environment's current bounds."""
        box = self.env.action_space
        return np.clip(action, box.low, box.high)  # type: ignore[attr-defined]


def _rescale_bound(name: str, value: Any, shape: tuple[int, ...]) -> npt.NDArray[Any]:
    """``value`` (a number or an array of ``shape``) as a float array of ``shape``."""
    if isinstance(value, np.ndarray):
        if value.shape != shape:
            raise ValueError(
                RESCALE_BOUND_SHAPE_MSG.format(name=name, expected=shape, actual=value.shape)
            )
        return value
    if isinstance(value, bool) or not (
        np.issubdtype(type(value), np.integer) or np.issubdtype(type(value), np.floating)
    ):
        raise TypeError(RESCALE_BOUND_TYPE_MSG.format(name=name, type=type(value)))
    return np.full(shape, value)


class RescaleAction(TransformAction[ObsType, WrapperActType, ActType], RecordConstructorArgs):
    """Accept actions in ``[min_action, max_action]`` and map them affinely onto the env's ``Box``.

    ``min_action`` and ``max_action`` are scalars or arrays of the action space's shape. An
    action at ``min_action`` reaches the environment as its ``low`` and one at ``max_action`` as
    its ``high``. Components that are unbounded in the environment must be given the same
    infinite bound here (they pass through shifted, not scaled).

    Example:
        >>> import numpy as np
        >>> from vecgym.core.spaces.box import Box
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = RescaleAction(GenericTestEnv(action_space=Box(-2.0, 2.0, (1,))), 0, 1)
        >>> env.action_space
        Box(0.0, 1.0, (1,), float32)
        >>> env.action(np.array([0.75], dtype=np.float32))
        array([1.], dtype=float32)
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        min_action: float | int | np.floating[Any] | np.integer[Any] | npt.NDArray[Any],
        max_action: float | int | np.floating[Any] | np.integer[Any] | npt.NDArray[Any],
    ) -> None:
        """Wrap ``env``, whose action space must be a :class:`Box`.

        Args:
            env: the environment to wrap.
            min_action: the lowest action the wrapper accepts (scalar or array).
            max_action: the highest action the wrapper accepts (scalar or array).

        Raises:
            TypeError: ``env``'s action space is not a ``Box``, or a bound is not a number or array.
            ValueError: a bound array has the wrong shape, or an infinite bound does not match
                the environment's.
            vecgym.error.InvalidBound: ``min_action`` is not strictly below ``max_action``
                everywhere (also a ``ValueError``).
        """
        box = require_box(env.action_space, "RescaleAction", "action")
        low = _rescale_bound("min_action", min_action, box.shape)
        high = _rescale_bound("max_action", max_action, box.shape)
        if not np.all(low < high):
            raise error.InvalidBound(RESCALE_ORDER_MSG.format(low=min_action, high=max_action))
        RecordConstructorArgs.__init__(self, min_action=min_action, max_action=max_action)
        action_space, _, to_env = rescale_box(box, low, high)
        TransformAction.__init__(self, env=env, func=to_env, action_space=action_space)  # type: ignore[misc,arg-type]


def _bins_per_dim(bins: Any, n_dims: int) -> npt.NDArray[np.int64]:
    """``bins`` (one integer for all, or one per dimension) as an array of ``n_dims`` counts."""

    def is_count(value: Any) -> bool:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_)

    if is_count(bins):
        counts = [int(bins)] * n_dims
    elif isinstance(bins, Sequence | np.ndarray) and all(is_count(b) for b in bins):
        if len(bins) != n_dims:
            raise ValueError(DISCRETIZE_BINS_LEN_MSG.format(expected=n_dims, actual=len(bins)))
        counts = [int(b) for b in bins]
    else:
        raise TypeError(DISCRETIZE_BINS_TYPE_MSG.format(value=bins))
    if any(count < 1 for count in counts):
        raise ValueError(DISCRETIZE_BINS_VALUE_MSG.format(value=bins))
    return np.array(counts, dtype=np.int64)


class DiscretizeAction(TransformAction[ObsType, WrapperActType, ActType], RecordConstructorArgs):
    """Replace a bounded ``Box`` action space by a grid of evenly spaced actions.

    Each dimension ``i`` of the ``Box`` is cut into ``bins[i]`` equal intervals, and an index
    selects the centre of its interval. With ``multidiscrete=False`` (the default) the wrapper's
    action space is ``Discrete(prod(bins))`` and an action is the row-major (C order) flat index
    of the per-dimension indices, the last dimension varying fastest; with ``multidiscrete=True``
    it is ``MultiDiscrete(bins)`` and an action is the vector of indices. Out-of-range indices are
    clamped to the nearest bin.

    Example:
        >>> import numpy as np
        >>> from vecgym.core.spaces.box import Box
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = DiscretizeAction(GenericTestEnv(action_space=Box(-1.0, 1.0, (2,))), bins=4)
        >>> env.action_space
        Discrete(16)
        >>> env.action(6)
        array([-0.25,  0.25], dtype=float32)
        >>> env.revert_action(np.array([-0.3, 0.2]))
        np.int64(6)
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        bins: int | tuple[int, ...],
        multidiscrete: bool = False,
    ) -> None:
        """Wrap ``env``, whose action space must be a ``Box`` with finite bounds.

        Args:
            env: the environment to wrap.
            bins: the number of bins for every dimension, or one number per dimension (in the
                order of the flattened ``Box``).
            multidiscrete: offer a ``MultiDiscrete`` action space instead of one ``Discrete``.

        Raises:
            TypeError: the action space is not a ``Box``, or ``bins`` is not an integer or a
                sequence of integers.
            ValueError: the ``Box`` has an infinite bound, ``bins`` has the wrong length, or a
                bin count is below one.
        """
        box = require_box(env.action_space, "DiscretizeAction", "action")
        self.low: npt.NDArray[Any] = np.ravel(box.low)
        self.high: npt.NDArray[Any] = np.ravel(box.high)
        self.n_dims = int(self.low.size)
        if not (np.all(np.isfinite(self.low)) and np.all(np.isfinite(self.high))):
            raise ValueError(DISCRETIZE_INFINITE_MSG.format(low=self.low, high=self.high))
        self.bins = _bins_per_dim(bins, self.n_dims)
        self.multidiscrete = multidiscrete

        RecordConstructorArgs.__init__(self, bins=bins, multidiscrete=multidiscrete)
        new_space: Space[Any] = (
            MultiDiscrete(self.bins) if multidiscrete else Discrete(int(np.prod(self.bins)))
        )
        TransformAction.__init__(self, env=env, func=self._to_env, action_space=new_space)  # type: ignore[arg-type]
        self.bin_centers: list[npt.NDArray[Any]] = [
            self._centres(lo, hi, int(n))
            for lo, hi, n in zip(self.low, self.high, self.bins, strict=True)
        ]

    @staticmethod
    def _centres(low: Any, high: Any, count: int) -> npt.NDArray[Any]:
        """The midpoints of ``count`` equal intervals that tile ``[low, high]``.

        ``low`` and ``high`` are numpy scalars of the ``Box``'s dtype; numpy picks the dtype of
        the computation from them (float32 for a float32 ``Box`` under numpy 2), as Gymnasium does.
        """
        edges = np.linspace(low, high, count + 1)
        return 0.5 * (edges[:-1] + edges[1:])

    def _indices(self, action: Any) -> list[Any]:
        """The per-dimension bin indices that ``action`` selects."""
        if self.multidiscrete:
            return list(np.asarray(action, dtype=int))
        remaining = action
        reversed_indices = []
        for count in self.bins[::-1]:
            reversed_indices.append(remaining % count)
            remaining = remaining // count
        return reversed_indices[::-1]

    def _to_env(self, action: Any) -> npt.NDArray[Any]:
        """The continuous action (bin centres, in the env's shape and dtype) for ``action``."""
        box = self.env.action_space
        values = [
            centres[min(max(index, 0), count - 1)]
            for centres, count, index in zip(
                self.bin_centers, self.bins, self._indices(action), strict=True
            )
        ]
        return np.array(values, dtype=box.dtype).reshape(box.shape)

    def action(self, act: Any) -> Any:
        """The env's continuous action for the discrete action ``act`` (its bins' centres).

        The argument keeps Gymnasium's name, ``act``, so that a call by keyword binds the same.
        """
        return self._to_env(act)

    def revert_action(self, action: Any) -> Any:
        """The wrapper action whose bin centres are nearest to the continuous ``action``.

        Args:
            action: an action of the wrapped environment's ``Box``.

        Returns:
            The flat ``Discrete`` index, or the ``MultiDiscrete`` index vector.
        """
        flat = np.ravel(action)
        indices = [
            np.argmin(np.abs(centres - flat[i])) for i, centres in enumerate(self.bin_centers)
        ]
        if self.multidiscrete:
            return np.array(indices, dtype=int)
        return np.ravel_multi_index(indices, self.bins)
