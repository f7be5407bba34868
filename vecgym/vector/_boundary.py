"""Checks at the boundary of the vector envs, shared by SyncVectorEnv and AsyncVectorEnv.

* :class:`ActionBoundsCheck`: a vectorised "is every action of the batch inside the action space"
  test. Discrete (``start .. start + n - 1``), MultiDiscrete and MultiBinary leaves, Box leaves
  (NaN always; ``low`` / ``high`` only when ``strict``), and Tuple / Dict of those, are checked
  with a couple of numpy reductions per leaf; other spaces fall back to ``space.contains`` per
  env. Box bounds are not enforced by default because Gymnasium accepts out-of-bounds continuous
  actions and many environments clip them (code written for Gymnasium relies on that); an integer
  action outside its range or a NaN can only be a bug. Cost measured on the 2-core development
  machine: ~1 us for 64 Discrete actions (one unsigned ``argmax``), ~2-4 us for 64 Box(4)
  actions, i.e. 0.5-1% of a 64-env CartPole step (210-390 us per batch, depending on load).
* :func:`check_not_before_reset`: ``step`` before the envs were reset raises
  :class:`vecgym.error.ResetNeeded` naming the envs.
* :func:`find_unpicklable`: a pre-flight ``cloudpickle.dumps`` of each env constructor (for the
  ``spawn`` / ``forkserver`` start methods) whose error names the member that cannot be pickled.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error

__all__ = [
    "INVALID_ACTION_MSG",
    "STEP_BEFORE_RESET_MSG",
    "UNPICKLABLE_ENV_FN_MSG",
    "ActionBoundsCheck",
    "check_env_fns_picklable",
    "check_not_before_reset",
    "find_unpicklable",
    "make_action_check",
]

INVALID_ACTION_MSG = (
    "the actions of sub-environment(s) {envs} must lie in the action space {space}{rule}, "
    "got {values}"
)
NAN_RULE = " (and must not be NaN)"
CHECK_ACTIONS_MSG = "check_actions must be True, False or 'strict', got {!r}"
STEP_BEFORE_RESET_MSG = (
    "sub-environment(s) {envs} must be reset before they are stepped: call `reset()` first"
)
UNPICKLABLE_ENV_FN_MSG = (
    "env_fns[{index}] must be picklable (with cloudpickle) for the {method!r} start method: "
    "{path} of type {type_name} cannot be pickled ({reason}); build that object inside the "
    "function, or use context='fork'"
)
_MAX_SHOWN = 4
_SEARCH_DEPTH = 6


# --- action bounds --------------------------------------------------------------------------------
LeafCheck = Callable[[np.ndarray], "npt.NDArray[np.bool_]"]
"""Given a batch of one leaf's actions (first axis: env), the per-env "outside the space" mask."""


def _rows(bad: Any) -> npt.NDArray[np.bool_]:
    """Reduce an element-wise mask to one flag per env (the first axis)."""
    bad = np.asarray(bad)
    if bad.ndim <= 1:
        return bad
    return np.asarray(bad.reshape(bad.shape[0], -1).any(axis=1))


def _nan_check(batch: np.ndarray) -> tuple[Callable[[np.ndarray], bool], LeafCheck]:
    def ok(batch: np.ndarray) -> bool:
        kind = batch.dtype.kind
        if kind not in "fc":
            return True
        if kind == "f" and batch.size:
            # The largest value is NaN exactly when some value is NaN (``argmax`` stops at the
            # first NaN, with no arithmetic that could overflow or warn): one pass, no temporary
            # mask, and a third of the fixed cost of a ``max`` reduction.
            flat = batch.ravel()
            top = flat[flat.argmax()]
            return bool(top == top)
        return not bool(np.isnan(batch).any())

    def bad(batch: np.ndarray) -> npt.NDArray[np.bool_]:
        if batch.dtype.kind not in "fc":
            return np.zeros(len(batch), dtype=np.bool_)
        return _rows(np.isnan(batch))

    return ok, bad


def _box_check(space: Any, strict: bool) -> tuple[Callable[[np.ndarray], bool], LeafCheck]:
    if not strict:
        return _nan_check(space)
    low, high = np.asarray(space.low), np.asarray(space.high)

    def ok(batch: np.ndarray) -> bool:
        return bool(((batch >= low) & (batch <= high)).all())

    def bad(batch: np.ndarray) -> npt.NDArray[np.bool_]:
        return _rows(~((batch >= low) & (batch <= high)))

    return ok, bad


def _fast_plan(dtype: np.dtype[Any], low: int, high: int) -> tuple[np.dtype[Any], Any] | None:
    """``(unsigned view dtype, shift)`` for the one-reduction range test, or ``None``."""
    if dtype.kind not in "iu":
        return None
    info = np.iinfo(dtype)
    if not (info.min <= low and high <= info.max):
        return None
    return np.dtype(f"u{dtype.itemsize}"), None if low == 0 else dtype.type(low)


def _range_check(low: Any, high: Any) -> tuple[Callable[[np.ndarray], bool], LeafCheck]:
    """Integer values in ``[low, high]`` (scalars or arrays broadcast over the batch)."""
    scalar = np.ndim(low) == 0 and np.ndim(high) == 0
    span = int(high) - int(low) if scalar else 0
    plans: dict[np.dtype[Any], tuple[np.dtype[Any], Any] | None] = {}

    def ok(batch: np.ndarray) -> bool:
        if batch.size == 0:
            return True
        if scalar:
            dtype = batch.dtype
            if dtype not in plans:
                plans[dtype] = _fast_plan(dtype, int(low), int(high))
            plan = plans[dtype]
            if plan is not None:
                # One pass: ``batch - low`` read as unsigned lies in [0, span] exactly for the
                # values in range (wrap-around maps every other value above span). ``argmax``
                # finds the largest at a third of the fixed cost of a ``max`` reduction.
                view, shift = plan
                shifted = batch if shift is None else batch - shift
                unsigned = shifted.view(view)
                if unsigned.ndim != 1:
                    unsigned = unsigned.ravel()
                return bool(unsigned[unsigned.argmax()] <= span)
        return bool(((batch >= low) & (batch <= high)).all())

    def bad(batch: np.ndarray) -> npt.NDArray[np.bool_]:
        return _rows((batch < low) | (batch > high))

    return ok, bad


def _leaf_check(
    space: Any, strict: bool = True
) -> tuple[Callable[[np.ndarray], bool], LeafCheck] | None:
    from vecgym.core.spaces.box import Box
    from vecgym.core.spaces.discrete import Discrete
    from vecgym.core.spaces.multi_binary import MultiBinary
    from vecgym.core.spaces.multi_discrete import MultiDiscrete

    if isinstance(space, Box):
        return _box_check(space, strict)
    if isinstance(space, Discrete):
        start = int(space.start)
        return _range_check(start, start + int(space.n) - 1)
    if isinstance(space, MultiDiscrete):
        first = np.asarray(space.start)
        return _range_check(first, first + np.asarray(space.nvec) - 1)
    if isinstance(space, MultiBinary):
        return _range_check(0, 1)
    return None


def _leaf_spaces(space: Any) -> list[Any] | None:
    """The leaves of a fixed-size space in shared-memory order, or ``None`` if not fixed-size."""
    from vecgym.core.spaces.dict import Dict
    from vecgym.core.spaces.tuple import Tuple

    if _leaf_check(space) is not None:
        return [space]
    if isinstance(space, (Tuple, Dict)):
        children = space.spaces if isinstance(space, Tuple) else list(space.spaces.values())
        leaves: list[Any] = []
        for child in children:
            sub = _leaf_spaces(child)
            if sub is None:
                return None
            leaves.extend(sub)
        return leaves
    return None


class ActionBoundsCheck:
    """A vectorised test that a batch of actions lies inside the single-env action space.

    Args:
        single_space: the action space of one sub-environment.
        strict: also enforce Box ``low`` / ``high`` (otherwise Box actions are only checked for
            NaN); spaces checked with ``contains`` are always checked fully.

    Example:
        >>> from vecgym.spaces import Discrete
        >>> check = ActionBoundsCheck(Discrete(3, start=1))
        >>> check.check_leaves([np.array([1, 3, 2])])
        >>> check.check_leaves([np.array([1, 4, 0])])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        vecgym.error.InvalidAction: the actions of sub-environment(s) [1, 2] must lie in ...
    """

    def __init__(self, single_space: Any, strict: bool = True) -> None:
        self.space = single_space
        self.strict = strict
        leaves = _leaf_spaces(single_space)
        self.vectorised = leaves is not None
        self._leaves: list[tuple[Callable[[np.ndarray], bool], LeafCheck]] = []
        self._single_array = leaves is not None and len(leaves) == 1 and leaves[0] is single_space
        # A non-empty float Box checked for NaN only: its dtype, for callers that run the test
        # (``_nan_check``'s) inline on a batch of it.
        self.nan_tested_dtype: np.dtype[Any] | None = None
        if self._single_array and not strict:
            from vecgym.core.spaces.box import Box

            box = isinstance(single_space, Box)
            if box and single_space.dtype.kind == "f" and all(single_space.shape):
                self.nan_tested_dtype = np.dtype(single_space.dtype)
        if leaves is not None:
            for leaf in leaves:
                checks = _leaf_check(leaf, strict)
                assert checks is not None
                self._leaves.append(checks)

    def check_leaves(
        self, arrays: Sequence[np.ndarray], env_ids: Sequence[int] | None = None
    ) -> None:
        """Check one batch per leaf (as laid out in shared memory).

        Args:
            arrays: one array per leaf, first axis the env.
            env_ids: the env index of each row (``None``: row ``i`` is env ``i``).

        Raises:
            InvalidAction: some action lies outside the space; names the envs.
        """
        leaves = self._leaves
        if len(leaves) == 1 and len(arrays) == 1:
            if leaves[0][0](arrays[0]):
                return
        elif all(ok(array) for (ok, _), array in zip(leaves, arrays, strict=True)):
            return
        bad = np.zeros(len(arrays[0]), dtype=np.bool_)
        for (_, leaf_rows), array in zip(leaves, arrays, strict=True):
            bad |= leaf_rows(array)
        rows = np.flatnonzero(bad)
        self._raise(rows, env_ids, [_row(arrays, int(i)) for i in rows])

    def discrete_span(self, dtype: np.dtype[Any]) -> tuple[np.dtype[Any], int] | None:
        """For a :class:`~vecgym.spaces.Discrete` space starting at 0 and a batch of ``dtype``
        integers that can hold its values: ``(unsigned, span)``, where the batch lies in the space
        exactly when its largest value, read as ``unsigned``, is at most ``span`` (the one-pass
        test of :meth:`check_leaves`, for callers that run it inline on the usual batch); else
        ``None``.

        Example:
            >>> from vecgym.spaces import Discrete
            >>> ActionBoundsCheck(Discrete(3)).discrete_span(np.dtype(np.int64))
            (dtype('uint64'), 2)
        """
        from vecgym.core.spaces.discrete import Discrete

        space = self.space
        if not isinstance(space, Discrete) or int(space.start) != 0:
            return None
        plan = _fast_plan(np.dtype(dtype), 0, int(space.n) - 1)
        return None if plan is None else (plan[0], int(space.n) - 1)

    def check_items(self, items: Sequence[Any], env_ids: Sequence[int] | None = None) -> None:
        """Check one action per env with ``space.contains`` (spaces without a vectorised test)."""
        bad = [i for i, item in enumerate(items) if not self.space.contains(item)]
        if bad:
            self._raise(np.asarray(bad), env_ids, [items[i] for i in bad])

    def check_batch(self, actions: Any, count: int, env_ids: Sequence[int] | None = None) -> None:
        """Check a batch given as the user passed it (arrays, or Tuple / Dict structures).

        Batches whose structure does not fit are left to the caller's own checks. ``env_ids``:
        the env index of each row (``None``: row ``i`` is env ``i``).
        """
        if self.vectorised:
            if self._single_array and type(actions) is np.ndarray:
                # The usual batch: one array for a Box / Discrete / MultiDiscrete / MultiBinary.
                if actions.ndim and len(actions) == count and actions.dtype != object:
                    self.check_leaves((actions,), env_ids)
                return
            arrays: list[np.ndarray] = []
            if _flatten(actions, self.space, arrays) and all(len(a) == count for a in arrays):
                self.check_leaves(arrays, env_ids)
            return
        if isinstance(actions, (list, tuple)) and len(actions) == count:
            self.check_items(list(actions), env_ids)

    def _raise(self, rows: np.ndarray, env_ids: Sequence[int] | None, values: list[Any]) -> None:
        envs = rows.tolist() if env_ids is None else [int(env_ids[i]) for i in rows.tolist()]
        shown = values[:_MAX_SHOWN] + (["..."] if len(values) > _MAX_SHOWN else [])
        rule = "" if self.strict else NAN_RULE
        raise error.InvalidAction(
            INVALID_ACTION_MSG.format(envs=envs, space=self.space, rule=rule, values=_show(shown))
        )


def find_custom_space(space: Any) -> Any:
    """The first space in ``space`` (itself or a subspace) whose type is not one of vecgym's
    spaces, or ``None``: such a space's values and ``contains`` are user code."""
    from vecgym.core.spaces import (
        Box,
        Dict,
        Discrete,
        Graph,
        MultiBinary,
        MultiDiscrete,
        OneOf,
        Text,
        Tuple,
    )
    from vecgym.core.spaces import Sequence as SequenceSpace

    if isinstance(space, (Box, Discrete, MultiDiscrete, MultiBinary, Text, Graph)):
        return None
    children: list[Any]
    if isinstance(space, Tuple | OneOf):
        children = list(space.spaces)
    elif isinstance(space, Dict):
        children = list(space.spaces.values())
    elif isinstance(space, SequenceSpace):
        children = [space.feature_space]
    else:
        return None if _subclasses_gymnasium_builtin(space) else space
    for child in children:
        found = find_custom_space(child)
        if found is not None:
            return found
    return None


def _subclasses_gymnasium_builtin(space: Any) -> bool:
    """Whether ``space`` stands for a subclass of one of Gymnasium's own space types (kept as a
    proxy by :func:`vecgym.core.interop.as_vecgym_space`): Gymnasium handles those as built-ins."""
    from vecgym.core.interop import GymnasiumSpace

    gymnasium_spaces = sys.modules.get("gymnasium.spaces")
    if not isinstance(space, GymnasiumSpace) or gymnasium_spaces is None:
        return False
    names = ("Box", "Discrete", "MultiDiscrete", "MultiBinary", "Text", "Graph", "Tuple", "Dict")
    builtins = tuple(getattr(gymnasium_spaces, name) for name in (*names, "Sequence", "OneOf"))
    return isinstance(space.space, builtins)


def make_action_check(single_space: Any, check_actions: Any) -> ActionBoundsCheck | None:
    """The checker for a vector env's ``check_actions`` argument (``None`` when off, and for an
    action space that is or holds a custom space: its ``contains`` is user code, left unrun as
    Gymnasium leaves it).

    Raises:
        ValueError: ``check_actions`` is not ``True``, ``False`` or ``"strict"``.
    """
    if check_actions is False:
        return None
    if check_actions is True or check_actions == "strict":
        if find_custom_space(single_space) is not None:
            return None
        return ActionBoundsCheck(single_space, strict=check_actions == "strict")
    raise ValueError(CHECK_ACTIONS_MSG.format(check_actions))


def _row(arrays: Sequence[np.ndarray], i: int) -> Any:
    return arrays[0][i] if len(arrays) == 1 else tuple(array[i] for array in arrays)


def _show(values: list[Any]) -> str:
    def one(value: Any) -> str:
        if isinstance(value, np.ndarray):
            return np.array2string(value, separator=", ")
        if isinstance(value, np.generic):
            return repr(value.item())
        if isinstance(value, tuple):
            return "(" + ", ".join(one(v) for v in value) + ")"
        return str(value)

    return "[" + ", ".join(one(v) for v in values) + "]"


def _flatten(value: Any, space: Any, out: list[np.ndarray]) -> bool:
    """Append the leaf arrays of a batched value; ``False`` when the structure does not fit."""
    from vecgym.core.spaces.dict import Dict
    from vecgym.core.spaces.tuple import Tuple

    if isinstance(space, Tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(space.spaces):
            return False
        return all(_flatten(v, s, out) for v, s in zip(value, space.spaces, strict=True))
    if isinstance(space, Dict):
        if not isinstance(value, dict) or set(value) != set(space.spaces):
            return False
        return all(_flatten(value[key], sub, out) for key, sub in space.spaces.items())
    try:
        array = value if isinstance(value, np.ndarray) else np.asarray(value)
    except (ValueError, TypeError):
        return False
    if array.ndim == 0 or array.dtype == object:
        return False
    out.append(array)
    return True


# --- step before reset ----------------------------------------------------------------------------
def check_not_before_reset(was_reset: npt.NDArray[np.bool_], env_ids: Any = None) -> None:
    """Raise :class:`vecgym.error.ResetNeeded` if an env of ``env_ids`` was never reset.

    Args:
        was_reset: one flag per env of the vector env.
        env_ids: the envs about to be stepped (``None``: all).
    """
    selected = was_reset if env_ids is None else was_reset[env_ids]
    if selected.all():
        return
    envs = np.flatnonzero(~was_reset).tolist()
    if env_ids is not None:
        envs = sorted(set(envs) & {int(i) for i in np.asarray(env_ids).ravel()})
    raise error.ResetNeeded(STEP_BEFORE_RESET_MSG.format(envs=envs))


# --- pickling of env constructors -----------------------------------------------------------------
def _dumps(value: Any) -> Exception | None:
    import cloudpickle

    try:
        cloudpickle.dumps(value)
    except Exception as exc:  # pickling raises many types (TypeError, PicklingError, ...)
        return exc
    return None


def _members(value: Any) -> list[tuple[str, Any]]:
    """The parts of ``value`` that pickling it would pickle too (best effort)."""
    members: list[tuple[str, Any]] = []
    if isinstance(value, functools.partial):
        members.append((".func", value.func))
        members.extend((f".args[{i}]", arg) for i, arg in enumerate(value.args))
        members.extend((f".keywords[{k!r}]", v) for k, v in value.keywords.items())
        return members
    code = getattr(value, "__code__", None)
    if code is not None:
        cells = getattr(value, "__closure__", None) or ()
        for name, cell in zip(code.co_freevars, cells, strict=False):
            try:
                members.append((f" (closure variable {name!r})", cell.cell_contents))
            except ValueError:  # an empty cell
                continue
        for i, default in enumerate(getattr(value, "__defaults__", None) or ()):
            members.append((f".__defaults__[{i}]", default))
        for key, default in (getattr(value, "__kwdefaults__", None) or {}).items():
            members.append((f".__kwdefaults__[{key!r}]", default))
        module_globals = getattr(value, "__globals__", {})
        for name in code.co_names:
            if name in module_globals:
                members.append((f" (global {name!r})", module_globals[name]))
        return members
    if isinstance(value, dict):
        return [(f"[{key!r}]", item) for key, item in value.items()]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [(f"[{i}]", item) for i, item in enumerate(value)]
    state = getattr(value, "__dict__", None)
    if isinstance(state, dict) and not isinstance(value, type):
        return [(f".{key}", item) for key, item in state.items()]
    return members


def find_unpicklable(value: Any, name: str = "env_fn") -> tuple[str, Any, Exception] | None:
    """Find the innermost member of ``value`` that cannot be pickled with cloudpickle.

    Returns:
        ``(path, member, exception)`` — a readable path such as
        ``"env_fn (closure variable 'lock')"`` — or ``None`` when ``value`` pickles.
    """
    exc = _dumps(value)
    if exc is None:
        return None
    path, culprit, reason = name, value, exc
    seen = {id(value)}
    for _ in range(_SEARCH_DEPTH):
        for suffix, member in _members(culprit):
            if id(member) in seen:
                continue
            seen.add(id(member))
            member_exc = _dumps(member)
            if member_exc is not None:
                path, culprit, reason = path + suffix, member, member_exc
                break
        else:
            break
    return path, culprit, reason


def check_env_fns_picklable(env_fns: Sequence[Any], method: str) -> None:
    """Pre-flight check for the ``spawn`` / ``forkserver`` start methods.

    Raises:
        TypeError: an env constructor cannot be pickled; names it and the member at fault.
    """
    for index, env_fn in enumerate(env_fns):
        found = find_unpicklable(env_fn, f"env_fns[{index}]")
        if found is not None:
            path, culprit, reason = found
            raise TypeError(
                UNPICKLABLE_ENV_FN_MSG.format(
                    index=index,
                    method=method,
                    path=path,
                    type_name=type(culprit).__qualname__,
                    reason=reason,
                )
            )
