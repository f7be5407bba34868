"""Batches in the parent: actions written into shared memory (after their checks), observations
copied or selected by env, and the workers' replies merged into one info dict."""

from __future__ import annotations

import copy as copy_module
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym.core.spaces.space import Space
from vecgym.vector._async.protocol import Reply, SharedViews
from vecgym.vector._boundary import ActionBoundsCheck
from vecgym.vector.utils import batch_space, concatenate, create_empty_array, iterate

__all__ = [
    "ActionWriter",
    "copy_rows",
    "copy_tree",
    "merge_replies",
    "select_info",
    "select_rows",
    "select_tree",
    "stack_trees",
]

ACTION_SHAPE_MSG = "actions must have shape {expected} (a batch for {count} env(s)), got {got}"
ACTION_SCALAR_MSG = (
    "actions must be a batch of {count} action(s) with shape {expected}, got a scalar {got!r}: it "
    "cannot be iterated over"
)
ACTION_DTYPE_MSG = "actions must be castable to {expected} (same kind), got dtype {got}"
ACTION_STRUCTURE_MSG = "actions must be a {expected} matching the action space, got {got}"
ACTION_COUNT_MSG = "expected {expected} actions (one per env), got {got}"

#: ``add_info(infos, info, env_index) -> infos``: :meth:`VectorEnv._add_info`.
AddInfo = Callable[[dict[str, Any], dict[str, Any], int], dict[str, Any]]
#: ``merge_infos([(env_index, info), ...]) -> infos``: :meth:`VectorEnv._merge_infos`.
MergeInfos = Callable[[list[tuple[int, dict[str, Any]]]], dict[str, Any]]


def copy_tree(value: Any) -> Any:
    """A copy of a batch structure (arrays copied, other values deep-copied)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if type(value) is dict:
        return {key: copy_tree(sub) for key, sub in value.items()}
    if type(value) is tuple:  # not namedtuples such as GraphInstance: deepcopy keeps their type
        return tuple(copy_tree(sub) for sub in value)
    return copy_module.deepcopy(value)


def select_tree(value: Any, ids: Any) -> Any:
    """Rows ``ids`` (a slice or an index array) of every array of a batch structure."""
    if isinstance(value, np.ndarray):
        return value[ids]
    if isinstance(value, dict):
        return {key: select_tree(sub, ids) for key, sub in value.items()}
    return tuple(select_tree(sub, ids) for sub in value)


def select_info(infos: dict[str, Any], ids: npt.NDArray[np.intp]) -> dict[str, Any]:
    """Rows ``ids`` of every array of a batched info dict (nested dicts too)."""
    out: dict[str, Any] = {}
    for key, value in infos.items():
        out[key] = select_info(value, ids) if isinstance(value, dict) else value[ids]
    return out


def select_rows(value: Any, rows: Any) -> Any:
    """Rows ``rows`` (a slice or an index array) of every array of a batch tree (views for
    slices)."""
    if isinstance(value, np.ndarray):
        return value[rows]
    if isinstance(value, dict):
        return {key: select_rows(sub, rows) for key, sub in value.items()}
    if isinstance(value, tuple):
        return tuple(select_rows(sub, rows) for sub in value)
    return np.asarray(value)[rows]


def copy_rows(dst: Any, rows: Any, src: Any) -> None:
    """``dst[rows] = src`` for every array of a batch tree, in place (a worker's write of one
    env's value into shared memory, a Ray host's rows into the driver's batch)."""
    if isinstance(dst, np.ndarray):
        dst[rows] = src
    elif isinstance(dst, dict):
        for key, sub in dst.items():
            copy_rows(sub, rows, src[key])
    else:
        for sub, part in zip(dst, src, strict=False):
            copy_rows(sub, rows, part)


def stack_trees(template: Any, leading: int) -> Any:
    """A new batch tree shaped like ``template`` with a leading dimension ``leading`` added."""
    if isinstance(template, np.ndarray):
        return np.empty((leading, *template.shape), dtype=template.dtype)
    if isinstance(template, dict):
        return {key: stack_trees(sub, leading) for key, sub in template.items()}
    if isinstance(template, tuple):
        return tuple(stack_trees(sub, leading) for sub in template)
    array = np.asarray(template)
    return np.empty((leading, *array.shape), dtype=array.dtype)


def fold_replies(
    replies: list[tuple[int, Reply | None]], last_obs: list[Any]
) -> tuple[list[tuple[int, dict[str, Any]]], bool]:
    """Fold the replies' observations into ``last_obs`` and gather their pickled infos.

    Returns:
        ``(entries, changed)``: the ``(env index, info)`` pairs in reply order, and whether some
        reply carried observations.
    """
    entries: list[tuple[int, dict[str, Any]]] = []
    changed = False
    for _, reply in replies:
        assert reply is not None
        if reply.observations:
            for i, obs in reply.observations:
                last_obs[i] = obs
            changed = True
        entries.extend(reply.infos)
    return entries, changed


def merge_replies(
    replies: list[tuple[int, Reply | None]], last_obs: list[Any], merge_infos: MergeInfos
) -> tuple[dict[str, Any], bool]:
    """:func:`fold_replies`, then the infos batched in one go, key by key (``merge_infos``,
    :meth:`VectorEnv._merge_infos`), not env by env.

    Returns:
        ``(infos, changed)``: ``changed`` when some reply carried observations.
    """
    entries, changed = fold_replies(replies, last_obs)
    return (merge_infos(entries) if entries else {}), changed


def pick_observations(
    observations: Any,
    last_obs: list[Any],
    single_space: Space[Any],
    take: list[int],
    *,
    in_shm: bool,
    copy: bool,
) -> Any:
    """The observations of the envs ``take`` (ascending): views of the shared buffers when they
    are contiguous and ``copy`` is off, else new arrays."""
    ids = np.asarray(take, dtype=np.intp)
    contiguous = take == list(range(take[0], take[0] + len(take)))
    selector: Any = slice(take[0], take[0] + len(take)) if contiguous else ids
    if not in_shm:
        return concatenate(
            single_space,
            [last_obs[i] for i in take],
            create_empty_array(single_space, n=len(take), fn=np.zeros),
        )
    obs = select_tree(observations, selector)
    return copy_tree(obs) if copy and contiguous else obs


class ActionWriter:
    """Checks a batch of actions and puts it where the workers read it.

    Args:
        views: the shared views (``None`` while the action space has no fixed size).
        single_space: the action space of one env.
        num_envs: the number of envs.
        check: the ``check_actions`` checker, or ``None``.
    """

    def __init__(
        self,
        views: SharedViews | None,
        single_space: Space[Any],
        num_envs: int,
        check: ActionBoundsCheck | None,
    ) -> None:
        self.views = views
        self.single_space = single_space
        self.space = batch_space(single_space, num_envs)
        self.num_envs = num_envs
        self.check = check

    def write(self, actions: Any, ids: npt.NDArray[np.intp] | None) -> dict[int, Any] | None:
        """Check ``actions`` (for all envs, or for ``ids``) and store them.

        Returns:
            ``None`` when the actions went into shared memory, else ``{env_index: action}`` for
            the pickled request.
        """
        views = self.views
        if ids is None and views is not None and type(actions) is np.ndarray:
            # The usual step: one array of exactly the shared leaf's shape and dtype.
            leaf = views.actions
            if (
                type(leaf) is np.ndarray
                and actions.shape == leaf.shape
                and actions.dtype == leaf.dtype
            ):
                if self.check is not None:
                    self.check.check_leaves((actions,))
                leaf[...] = actions
                return None
        count = self.num_envs if ids is None else len(ids)
        env_ids = None if ids is None else ids.tolist()
        if views is None:
            items = self._items(actions, ids, count)
            if self.check is not None:
                self.check.check_items(items, env_ids)
            return self._by_env(items, env_ids)
        arrays: list[np.ndarray] = []
        try:
            _check_tree(actions, views.actions, count, arrays)
        except _DoesNotFit:
            # One env's action of another shape than the shared rows' (a (n,) batch for a
            # Box((1,)) space, say): each env gets its row as the caller gave it, through the
            # pipe, as SyncVectorEnv and Gymnasium hand it over, after SyncVectorEnv's check.
            if self.check is not None:
                self.check.check_batch(actions, count, env_ids)
            return self._by_env(self._items(actions, ids, count), env_ids)
        if self.check is not None:
            self.check.check_leaves(arrays, env_ids)
        rows: Any = slice(None) if ids is None else ids
        for leaf, value in zip(views.action_leaves, arrays, strict=False):
            leaf[rows] = value
        return None

    def _items(self, actions: Any, ids: npt.NDArray[np.intp] | None, count: int) -> list[Any]:
        """The batch split into one action per env (``ValueError`` unless ``count`` of them)."""
        space = self.space if ids is None else batch_space(self.single_space, count)
        items = list(iterate(space, actions))
        if len(items) != count:
            raise ValueError(ACTION_COUNT_MSG.format(expected=count, got=len(items)))
        return items

    def _by_env(self, items: list[Any], env_ids: list[int] | None) -> dict[int, Any]:
        """``{env_index: action}`` for the pickled request."""
        targets = range(self.num_envs) if env_ids is None else env_ids
        return dict(zip(targets, items, strict=False))


class _DoesNotFit(ValueError):
    """A batch of the right length whose actions do not have the shared rows' shape."""


def _check_tree(value: Any, views: Any, count: int, out: list[np.ndarray]) -> None:
    """Check the structure, shapes and dtypes of ``value`` against ``views``; collect its arrays."""
    if isinstance(views, np.ndarray):
        array = value if isinstance(value, np.ndarray) else np.asarray(value)
        expected = (count, *views.shape[1:])
        if array.ndim == 0:  # Gymnasium cannot iterate over a scalar batch: a TypeError
            raise TypeError(ACTION_SCALAR_MSG.format(count=count, expected=expected, got=value))
        if array.shape != expected:
            # A batch of ``count`` actions of another shape goes through the pipe instead.
            kind = _DoesNotFit if array.shape[0] == count else ValueError
            raise kind(ACTION_SHAPE_MSG.format(expected=expected, count=count, got=array.shape))
        if array.dtype != views.dtype and not np.can_cast(
            array.dtype, views.dtype, casting="same_kind"
        ):
            raise TypeError(ACTION_DTYPE_MSG.format(expected=views.dtype, got=array.dtype))
        out.append(array)
    elif isinstance(views, dict):
        if not isinstance(value, dict) or set(value) != set(views):
            raise TypeError(ACTION_STRUCTURE_MSG.format(expected="dict", got=value))
        for key, sub in views.items():
            _check_tree(value[key], sub, count, out)
    else:
        if not isinstance(value, (tuple, list)) or len(value) != len(views):
            raise TypeError(ACTION_STRUCTURE_MSG.format(expected="tuple", got=value))
        for item, sub in zip(value, views, strict=False):
            _check_tree(item, sub, count, out)
