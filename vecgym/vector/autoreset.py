"""The one autoreset state machine of vecgym.

Every vectoriser steps its sub-environments through :class:`AutoresetEnv`: :class:`SyncVectorEnv` in
its loop, the async worker in its process, so the three autoreset modes behave the same everywhere.
(Their loops call ``inner_step`` themselves while no reset is pending, apply ``TimeLimit``'s count,
and hand a step that ends an episode to :meth:`AutoresetEnv.end_episode`, which is what
:meth:`AutoresetEnv.step` does, less two Python calls per env step.) Numpy-vectorised environments,
which step all their copies at once, use the mask form of the same rules: :class:`BatchAutoreset`
(built on :func:`next_autoreset_mask`), which
:class:`~vecgym.vector.numpy_vector_env.NumpyVectorEnv` drives.

The three modes (:class:`~vecgym.vector.vector_env.AutoresetMode`), for one sub-environment:

``NEXT_STEP`` (the default)
    A step that ends the episode (``terminated or truncated``) returns as usual and leaves a reset
    pending. The next ``step`` ignores its action, resets the environment and returns
    ``(reset_obs, 0.0, False, False, reset_info)``.

``SAME_STEP``
    A step that ends the episode resets at once and returns
    ``(reset_obs, reward, terminated, truncated, info)`` with
    ``info = {"final_obs": <copy of the last obs>, "final_info": <step info>, **reset_info}``.

``DISABLED``
    Nothing is reset automatically. Stepping an environment whose episode has ended raises
    :class:`vecgym.error.ResetNeeded`: reset it first, for a vector env with
    ``reset(options={"reset_mask": mask})``.

A manual :meth:`AutoresetEnv.reset` always clears a pending reset.

Steps past idle wrappers
------------------------
``make`` wraps an environment in ``TimeLimit(OrderEnforcing(PassiveEnvChecker(env)))``. Once an
episode has begun, ``OrderEnforcing`` has nothing left to enforce and ``PassiveEnvChecker`` has done
its one-time checks: both only hand the step on, a Python call each (two for ``OrderEnforcing``).
:attr:`AutoresetEnv.env_step` steps past them: from the first reset where those wrappers are idle,
the innermost of them's ``env.step``, with ``TimeLimit``'s count (``_elapsed_steps``,
``_max_episode_steps``) applied on the same wrapper object; until then, and for any other chain,
``env.step`` itself. The loops take it in parts (:func:`step_parts`): they call ``inner_step`` and
apply the count on ``limit`` themselves, which saves the call of the closure that applies it, and
also ``TimeLimit``'s own ``step`` where nothing below it is idle. The results, the wrappers' state
and the errors are those of ``env.step``; only the idle frames are gone (about 0.4 us of a 3 us
CartPole-v1 step). Only vecgym's and Gymnasium's own classes qualify (:data:`TIME_LIMITS`,
:data:`IDLE_WRAPPERS`), matched exactly by module and name (not subclasses), never an instance with
a ``step`` of its own, and only at the top of the chain.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Generic, SupportsFloat

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.env import ActType, Env, ObsType
from vecgym.vector.vector_env import AutoresetMode

__all__ = [
    "AutoresetEnv",
    "BatchAutoreset",
    "direct_step",
    "final_obs_infos",
    "next_autoreset_mask",
    "same_step_info",
    "step_parts",
]

STEP_AFTER_END_MSG = (
    "sub-environment {index}'s episode has ended and autoreset_mode is DISABLED: it must be reset "
    "before it is stepped again, e.g. with `envs.reset(options={{'reset_mask': mask}})` where "
    "`mask[{index}]` is True"
)
UNKNOWN_MODE_MSG = "autoreset mode must be an AutoresetMode, got {!r}"

StepResult = tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]
StepFn = Callable[[Any], StepResult]


def _order_enforcing_idle(wrapper: Any) -> bool:
    return bool(wrapper._has_reset)


def _env_checker_idle(wrapper: Any) -> bool:
    # (Gymnasium releases without the data-reuse check pass every step on after the first.)
    return bool(wrapper.checked_step and getattr(wrapper, "checked_data_reuse", True))


#: The modules of the classes below: vecgym's own wrappers and Gymnasium's.
_WRAPPER_MODULES = ("vecgym.wrappers.common", "gymnasium.wrappers.common")
#: The wrappers that only hand the step on to ``env.step`` once the test stored here holds for
#: the instance (it stays true from then on), by ``module.qualname``: named, not imported, since
#: vecgym's wrappers sit in a layer above this one and Gymnasium need not be installed.
IDLE_WRAPPERS: dict[str, Callable[[Any], bool]] = {
    f"{module}.{name}": idle
    for module in _WRAPPER_MODULES
    for name, idle in (
        ("OrderEnforcing", _order_enforcing_idle),
        ("PassiveEnvChecker", _env_checker_idle),
    )
}
#: The wrappers whose ``step`` is ``TimeLimit``'s: ``env.step``, then ``_elapsed_steps += 1``
#: and ``truncated = True`` from ``_max_episode_steps`` on.
TIME_LIMITS: frozenset[str] = frozenset(f"{module}.TimeLimit" for module in _WRAPPER_MODULES)


def _qualified_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _counted(limit: Any, step: StepFn) -> StepFn:
    """``step`` with the count of the ``TimeLimit`` wrapper ``limit`` applied to its result, as
    ``limit.step`` would (on ``limit`` itself)."""

    def step_counted(action: Any) -> StepResult:
        obs, reward, terminated, truncated, info = step(action)
        limit._elapsed_steps += 1
        if limit._elapsed_steps >= limit._max_episode_steps:
            truncated = True
        return obs, reward, terminated, truncated, info

    return step_counted


def direct_step(env: Any) -> tuple[StepFn, bool]:
    """The callable that steps ``env`` as ``env.step`` does, past its idle wrappers (see the
    module docstring), and whether the answer is final: ``False`` while a wrapper of the chain that
    will become idle is not yet (then ask again after the next reset).

    Example:
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1")
        >>> step, final = direct_step(env)
        >>> step == env.step, final  # not reset: no wrapper is idle yet
        (True, False)
        >>> _ = env.reset(seed=0)
        >>> for _ in range(2):  # PassiveEnvChecker checks the first two steps
        ...     _ = env.step(0)
        >>> step, final = direct_step(env)
        >>> step == env.step, final
        (False, True)
        >>> step(0)[1:4], env.get_wrapper_attr("_elapsed_steps")
        ((1.0, False, False), 3)
    """
    step, limit, final = step_parts(env)
    return _joined(step, limit), final


def _joined(step: StepFn, limit: Any) -> StepFn:
    """The one callable for :func:`step_parts`' ``step`` and ``limit``."""
    if limit is None:
        return step  # (env.step itself where nothing is idle)
    if step == limit.env.step:  # nothing idle below the limit: its own step is as short
        return limit.step
    return _counted(limit, step)


def step_parts(env: Any) -> tuple[StepFn, Any, bool]:
    """``(step, limit, final)``: :func:`direct_step`'s answer in parts, for the loops that apply
    ``TimeLimit``'s count themselves. ``limit`` is the ``TimeLimit`` wrapper at the top of the
    chain once it has been reset, else ``None``; ``step`` steps ``env`` past the idle wrappers, and
    also past ``limit`` when there is one: then each call must be followed by ``TimeLimit``'s
    count on ``limit`` (``limit._elapsed_steps += 1``, and ``truncated = True`` from
    ``limit._max_episode_steps`` on).

    Example:
        >>> import vecgym
        >>> env = vecgym.make("CartPole-v1")
        >>> _ = env.reset(seed=0)
        >>> step, limit, final = step_parts(env)
        >>> checker = env.env.env  # past OrderEnforcing; the checker has two steps to check
        >>> step == checker.step, limit is env, final
        (True, True, False)
    """
    limit = None
    inner = env
    if _qualified_name(type(env)) in TIME_LIMITS and "step" not in vars(env):
        if env._elapsed_steps is None:  # never reset: step raises through the whole chain
            return env.step, None, False
        limit, inner = env, env.env
    final = True
    while (idle := IDLE_WRAPPERS.get(_qualified_name(type(inner)))) is not None:
        if "step" in vars(inner):
            break
        if not idle(inner):
            final = False
            break
        inner = inner.env
    return inner.step, limit, final


class AutoresetEnv(Generic[ObsType, ActType]):
    """One sub-environment of a vector env together with its autoreset state.

    Args:
        env: the environment stepped.
        mode: the autoreset mode (see the module docstring for the rules of each).
        index: the environment's index in its vector env, only used in error messages.

    Attributes:
        env: the environment stepped.
        mode: the autoreset mode.
        needs_reset: ``NEXT_STEP``: the next :meth:`step` resets instead of stepping; ``DISABLED``:
            the episode has ended and :meth:`step` raises until :meth:`reset` is called. Always
            ``False`` in ``SAME_STEP`` mode.
        env_step: steps :attr:`env` as ``env.step`` does, past the wrappers that have become idle
            (see the module docstring).
        inner_step, limit: :attr:`env_step` in parts (:func:`step_parts`), what the loops call:
            ``inner_step``, then ``TimeLimit``'s count on ``limit`` where it is not ``None``.
            This saves the call of a closure per env step (about 0.1 us, 3% of a CartPole-v1
            step).
        settled: ``False`` while a wrapper of the chain may still become idle: every reset then
            looks again (:meth:`episode_started`).

    Example:
        >>> from vecgym.vector.vector_env import AutoresetMode
        >>> from vecgym.envs.classic_control.cartpole import CartPoleEnv
        >>> auto = AutoresetEnv(CartPoleEnv(), AutoresetMode.NEXT_STEP)
        >>> _ = auto.reset(seed=0)
        >>> while not auto.needs_reset:
        ...     _ = auto.step(1)
        >>> obs, reward, terminated, truncated, info = auto.step(1)  # the reset step
        >>> reward, terminated, truncated
        (0.0, False, False)
    """

    __slots__ = (
        "env",
        "env_step",
        "index",
        "inner_step",
        "limit",
        "mode",
        "needs_reset",
        "settled",
    )

    def __init__(self, env: Env[ObsType, ActType], mode: AutoresetMode, *, index: int = 0) -> None:
        if not isinstance(mode, AutoresetMode):
            raise TypeError(UNKNOWN_MODE_MSG.format(mode))
        self.env = env
        self.mode = mode
        self.index = index
        self.needs_reset = False
        self._look()

    def __getstate__(self) -> dict[str, Any]:
        # env_step may close over this env's wrappers: a copy or an unpickled one looks again.
        return {
            "env": self.env,
            "mode": self.mode,
            "index": self.index,
            "needs_reset": self.needs_reset,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.env, self.mode, self.index = state["env"], state["mode"], state["index"]
        self.needs_reset = state["needs_reset"]
        self._look()

    def _look(self) -> None:
        """Find the way past the idle wrappers (:func:`step_parts`) and set the step attributes."""
        self.inner_step, self.limit, self.settled = step_parts(self.env)
        self.env_step = _joined(self.inner_step, self.limit)

    def begin_episode(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """``env.reset(seed=seed, options=options)``, then :meth:`episode_started`: every reset of
        :attr:`env` goes through here (the autoreset state is the caller's)."""
        obs, info = self.env.reset(seed=seed, options=options)
        self.episode_started()
        return obs, info

    def episode_started(self) -> None:
        """After a reset of :attr:`env`: steps past the wrappers that have become idle
        (:func:`direct_step`), until the answer is final."""
        if not self.settled:
            self._look()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the environment (a manual reset), clearing any pending autoreset.

        Args:
            seed: passed to ``env.reset``.
            options: passed to ``env.reset``.

        Returns:
            ``env.reset``'s ``(obs, info)``.
        """
        obs, info = self.begin_episode(seed=seed, options=options)
        self.needs_reset = False
        return obs, info

    def step(self, action: ActType) -> StepResult:
        """Step the environment, autoresetting according to :attr:`mode`.

        Args:
            action: the action; ignored by a ``NEXT_STEP`` reset step.

        Returns:
            ``(obs, reward, terminated, truncated, info)``, see the module docstring for what each
            mode returns when an episode ends.

        Raises:
            ResetNeeded: ``DISABLED`` mode and the episode has ended (reset the env first).
        """
        if self.needs_reset:
            if self.mode is AutoresetMode.NEXT_STEP:
                obs, info = self.begin_episode()
                self.needs_reset = False
                return obs, 0.0, False, False, info
            raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=self.index))
        obs, reward, terminated, truncated, info = self.env_step(action)
        if terminated or truncated:
            return self.end_episode(obs, reward, terminated, truncated, info)
        return obs, reward, terminated, truncated, info

    def end_episode(
        self, obs: Any, reward: SupportsFloat, terminated: bool, truncated: bool, info: Any
    ) -> StepResult:
        """Apply the mode's rules to a step of :attr:`env` that ended the episode.

        ``step`` is :attr:`env_step` followed by this when the episode ends. A loop over many envs
        saves calls per env step by doing the same itself: while :attr:`needs_reset` is
        ``False`` it calls ``auto.inner_step(action)``, applies ``TimeLimit``'s count on
        ``auto.limit`` when that is not ``None`` (:func:`step_parts`), and hands a result with
        ``terminated or truncated`` to this method; otherwise it calls :meth:`step`.

        Args:
            obs: the step's observation.
            reward: the step's reward.
            terminated: the step's termination.
            truncated: the step's truncation.
            info: the step's info.

        Returns:
            What :meth:`step` returns for this step.
        """
        if self.mode is AutoresetMode.SAME_STEP:
            # Copy before resetting: the env may write its next observation into the same array.
            final_obs = copy.deepcopy(obs)
            obs, reset_info = self.begin_episode()
            info = same_step_info(final_obs, info, reset_info)
        else:
            self.needs_reset = True
        return obs, reward, terminated, truncated, info

    def __repr__(self) -> str:
        return f"AutoresetEnv({self.env}, {self.mode}, needs_reset={self.needs_reset})"


def same_step_info(final_obs: Any, final_info: Any, reset_info: dict[str, Any]) -> dict[str, Any]:
    """The info a ``SAME_STEP`` step returns for an env whose episode ended: the last
    observation and info under ``final_obs`` / ``final_info``, then the reset info's keys (which
    win where they share a name).

    Example:
        >>> same_step_info(3, {"x": 1}, {"start": 0})
        {'final_obs': 3, 'final_info': {'x': 1}, 'start': 0}
    """
    return {"final_obs": final_obs, "final_info": final_info, **reset_info}


def next_autoreset_mask(
    mode: AutoresetMode,
    terminated: npt.NDArray[np.bool_],
    truncated: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """The envs that a numpy-vectorised env must treat as "needs reset" after a step.

    The vectorised form of :attr:`AutoresetEnv.needs_reset`: ``terminated | truncated`` in
    ``NEXT_STEP`` mode (those envs reset on the next step) and in ``DISABLED`` mode (those envs must
    be reset by the user), all ``False`` in ``SAME_STEP`` mode (those envs were reset already).

    Args:
        mode: the autoreset mode.
        terminated: the step's terminations, shape ``(num_envs,)``.
        truncated: the step's truncations, shape ``(num_envs,)``.

    Returns:
        A new boolean array of shape ``(num_envs,)``.
    """
    if mode is AutoresetMode.SAME_STEP:
        return np.zeros(np.shape(terminated), dtype=np.bool_)
    if not isinstance(mode, AutoresetMode):
        raise TypeError(UNKNOWN_MODE_MSG.format(mode))
    return np.logical_or(terminated, truncated)


class BatchAutoreset:
    """The autoreset state of ``num_envs`` environments stepped together as arrays.

    The rules are those of :class:`AutoresetEnv`, applied to whole batches: a numpy-vectorised
    env calls :meth:`begin_step` before advancing its state, :meth:`finish_step` after, and
    :meth:`clear` when the user resets some envs. The env supplies two callables, ``reset_envs``
    (draw a new initial state for the given env indices, as ``reset()`` without options would) and
    ``observe`` (the batched observations of the current state, a new array).

    Args:
        mode: the autoreset mode.
        num_envs: the number of environments.

    Attributes:
        mode: the autoreset mode.
        needs_reset: a ``(num_envs,)`` bool array, :attr:`AutoresetEnv.needs_reset` for each env.

    Example:
        >>> from vecgym.vector.vector_env import AutoresetMode
        >>> auto = BatchAutoreset(AutoresetMode.NEXT_STEP, 3)
        >>> auto.begin_step() is None  # nothing pending
        True
        >>> obs = np.zeros((3, 1))
        >>> rewards = np.ones(3)
        >>> ended = np.array([False, True, False])
        >>> obs, infos = auto.finish_step(
        ...     None, rewards, ended, np.zeros(3, bool), lambda idx: None, lambda: obs.copy()
        ... )
        >>> auto.begin_step()  # env 1 resets on this step
        array([1])
    """

    __slots__ = ("mode", "needs_reset")

    def __init__(self, mode: AutoresetMode, num_envs: int) -> None:
        if not isinstance(mode, AutoresetMode):
            raise TypeError(UNKNOWN_MODE_MSG.format(mode))
        self.mode = mode
        self.needs_reset = np.zeros(num_envs, dtype=np.bool_)

    def clear(self, indices: npt.NDArray[np.intp] | slice = slice(None)) -> None:
        """Forget the pending reset / ended episode of the envs ``indices`` (a manual reset)."""
        self.needs_reset[indices] = False

    def begin_step(self) -> npt.NDArray[np.intp] | None:
        """Check that a step may happen and say which envs it resets instead of stepping.

        Returns:
            In ``NEXT_STEP`` mode the indices of the envs whose episode ended on the previous
            step (they are reset by this step, their action ignored), or ``None`` when there is
            none; ``None`` in the other modes.

        Raises:
            ResetNeeded: ``DISABLED`` mode and some env's episode has ended without a reset since
                (the error names the first such env); the caller must not step anything then.
        """
        needs_reset = self.needs_reset
        if not needs_reset.any():
            return None
        if self.mode is AutoresetMode.DISABLED:
            raise error.ResetNeeded(STEP_AFTER_END_MSG.format(index=int(np.argmax(needs_reset))))
        if self.mode is AutoresetMode.NEXT_STEP:
            return np.flatnonzero(needs_reset)
        return None  # pragma: no cover - SAME_STEP never leaves a reset pending

    def finish_step(
        self,
        pending: npt.NDArray[np.intp] | None,
        rewards: np.ndarray,
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        reset_envs: Callable[[npt.NDArray[np.intp]], None],
        observe: Callable[[], np.ndarray],
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Apply the mode's rules to a step whose state update has been done.

        ``rewards``, ``terminated`` and ``truncated`` are modified in place: in ``NEXT_STEP`` mode
        the ``pending`` envs (from :meth:`begin_step`) are reset and get ``0`` / ``False`` /
        ``False``; in ``SAME_STEP`` mode envs whose episode ended are reset now and the
        observation they ended on is reported, copied, in ``infos["final_obs"]`` (with an empty
        ``final_info``), batched as :meth:`VectorEnv._add_info` batches it.

        Args:
            pending: what :meth:`begin_step` returned.
            rewards: the step's rewards.
            terminated: the step's terminations.
            truncated: the step's truncations.
            reset_envs: resets the given envs' state (as an autoreset: no options).
            observe: returns the batched observations of the current state, a new array.

        Returns:
            ``(observations, infos)``.
        """
        if pending is not None:
            reset_envs(pending)
            rewards[pending] = 0
            terminated[pending] = False
            truncated[pending] = False
        observations = observe()
        infos: dict[str, Any] = {}
        if self.mode is AutoresetMode.SAME_STEP:
            ended = np.flatnonzero(terminated | truncated)
            if ended.size:
                final_observations = observations[ended]  # fancy indexing copies
                reset_envs(ended)
                observations[ended] = observe()[ended]
                infos = final_obs_infos(final_observations, ended, len(terminated))
        self.needs_reset = next_autoreset_mask(self.mode, terminated, truncated)
        return observations, infos


def final_obs_infos(
    final_observations: np.ndarray, ended: npt.NDArray[np.intp], num_envs: int
) -> dict[str, Any]:
    """The batched ``SAME_STEP`` infos of envs whose step and reset infos are empty.

    The same dict :class:`~vecgym.vector.SyncVectorEnv` builds from ``{"final_obs": obs,
    "final_info": {}}`` for each ended env: ``final_obs`` is an object array holding each ended
    env's last observation (``None`` elsewhere), ``final_info`` an empty dict, and the masks
    ``_final_obs`` / ``_final_info`` mark the ended envs.

    Args:
        final_observations: the last observations of the ended envs, one row each.
        ended: the ended envs' indices, in the order of ``final_observations``' rows.
        num_envs: the number of envs.
    """
    final_obs = np.full(num_envs, None, dtype=object)
    for row, index in enumerate(ended.tolist()):
        final_obs[index] = final_observations[row]
    mask = np.zeros(num_envs, dtype=np.bool_)
    mask[ended] = True
    infos: dict[str, Any] = {"final_obs": final_obs, "_final_obs": mask}
    infos["final_info"], infos["_final_info"] = {}, mask.copy()
    return infos
