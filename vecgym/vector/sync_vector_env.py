"""A vector environment that steps its sub-environments one after another in this process."""

from __future__ import annotations

import copy as copy_module
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic

import numpy as np
import numpy.typing as npt

from vecgym import error
from vecgym.core.env import ActType, Env, ObsType, RenderFrame
from vecgym.core.gymnasium_errors import adopt_gymnasium_error
from vecgym.core.interop import as_vecgym_env, stepping_target
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.space import Space
from vecgym.core.spaces.utils import is_space_dtype_shape_equiv
from vecgym.vector._arguments import ACTIONS_LENGTH_MSG as ACTIONS_LENGTH_MSG
from vecgym.vector._arguments import CLOSED_MSG as CLOSED_MSG
from vecgym.vector._arguments import INDICES_RANGE_MSG as INDICES_RANGE_MSG
from vecgym.vector._arguments import INDICES_TYPE_MSG as INDICES_TYPE_MSG
from vecgym.vector._arguments import OBS_MODE_MSG as OBS_MODE_MSG
from vecgym.vector._arguments import OBS_MODE_SPACES_MSG as OBS_MODE_SPACES_MSG
from vecgym.vector._arguments import RESET_MASK_DTYPE_MSG as RESET_MASK_DTYPE_MSG
from vecgym.vector._arguments import RESET_MASK_EMPTY_MSG as RESET_MASK_EMPTY_MSG
from vecgym.vector._arguments import RESET_MASK_SHAPE_MSG as RESET_MASK_SHAPE_MSG
from vecgym.vector._arguments import RESET_MASK_TYPE_MSG as RESET_MASK_TYPE_MSG
from vecgym.vector._arguments import SEED_LENGTH_MSG as SEED_LENGTH_MSG
from vecgym.vector._arguments import SEED_TYPE_MSG as SEED_TYPE_MSG
from vecgym.vector._arguments import SET_ATTR_LENGTH_MSG as SET_ATTR_LENGTH_MSG
from vecgym.vector._arguments import check_reset_mask as check_reset_mask
from vecgym.vector._arguments import normalize_indices as normalize_indices
from vecgym.vector._arguments import normalize_seeds as normalize_seeds
from vecgym.vector._arguments import split_reset_options as split_reset_options
from vecgym.vector._boundary import check_not_before_reset, make_action_check
from vecgym.vector._env_call import call_env
from vecgym.vector._info_merge import RepeatedScalarInfos
from vecgym.vector.autoreset import AutoresetEnv
from vecgym.vector.utils.space_utils import (
    batch_differing_spaces,
    batch_space,
    concatenate,
    create_empty_array,
    is_array_batchable,
    iterate,
    make_batch_writer,
)
from vecgym.vector.vector_env import AutoresetMode, SubEnvsVectorEnv, VectorEnv

__all__ = [
    "SyncVectorEnv",
    "check_reset_mask",
    "normalize_indices",
    "normalize_seeds",
    "split_reset_options",
]

NO_ENVS_MSG = "env_fns must contain at least one environment factory, got none"
SAME_SPACE_MSG = (
    "observation_mode='same' requires every sub-environment to have the single observation space "
    "{}, but sub-environment {} has {}; pass observation_mode='different' if the spaces are meant "
    "to differ"
)
DIFFERENT_SPACE_MSG = (
    "observation_mode='different' (or a given pair of spaces) requires every sub-environment's "
    "observation space to have the shape and dtype of {}, but sub-environment {} has {}"
)
ACTION_SPACE_MSG = (
    "sub-environment {} has the action space {}, expected the single action space {}: actions are "
    "batched, so every sub-environment must have the same action space"
)


class SyncVectorEnv(SubEnvsVectorEnv[ObsType, ActType, np.ndarray], Generic[ObsType, ActType]):
    """Runs several environments one after another in the calling process.

    Gymnasium's ``SyncVectorEnv`` with the same constructor, results and seeding; faster (each
    observation is written straight into a preallocated batch, empty infos cost nothing, the
    infos of a step are batched key by key, not env by env, and infos that repeat the last
    step's scalar keys in a few passes), with :meth:`call`, :meth:`get_attr` and
    :meth:`set_attr` taking optional ``indices``.

    Args:
        env_fns: functions that create the sub-environments, one per env. They may return
            ``gymnasium.Env`` objects: see :func:`vecgym.core.interop.as_vecgym_env`.
        copy: ``True``: :meth:`reset` and :meth:`step` return observations the caller owns.
            ``False``: they return the vector env's own batch buffer, which the next ``reset`` /
            ``step`` overwrites in place (for array observation spaces the same object each time).
        observation_mode: how the observation spaces are batched: ``"same"`` (every env has the
            same space, batched with :func:`batch_space`), ``"different"`` (spaces of one shape and
            dtype but other parameters, batched with :func:`batch_differing_spaces`), or a tuple
            ``(batched_space, single_space)`` given by the caller.
        autoreset_mode: an :class:`AutoresetMode` (or its value string), see
            :mod:`vecgym.vector.autoreset`.
        check_actions: a vecgym addition: check the actions before anything is stepped
            (:class:`vecgym.error.InvalidAction`): ``True`` rejects integer actions outside their
            Discrete / MultiDiscrete / MultiBinary range and NaN in Box actions, ``"strict"``
            also Box actions outside ``low`` / ``high``, ``False`` nothing.

    Raises:
        ValueError: ``env_fns`` is empty, or ``observation_mode`` / ``autoreset_mode`` is invalid.
        TypeError: ``observation_mode`` is a tuple whose items are not spaces.
        RuntimeError: a sub-environment's spaces do not match the first one's as the mode requires.

    Example:
        >>> import numpy as np
        >>> import vecgym as gym
        >>> envs = SyncVectorEnv([lambda: gym.make("CartPole-v1") for _ in range(2)])
        >>> obs, infos = envs.reset(seed=42)
        >>> obs.shape, infos
        ((2, 4), {})
        >>> obs, rewards, terminations, truncations, infos = envs.step(np.array([0, 1]))
        >>> rewards, terminations
        (array([1., 1.]), array([False, False]))
        >>> envs.close()
    """

    env_fns: Sequence[Callable[[], Env[Any, Any]]]
    envs: list[Env[Any, Any]]
    copy: bool
    observation_mode: str | tuple[Space[Any], Space[Any]]
    autoreset_mode: AutoresetMode

    def __init__(
        self,
        env_fns: Iterable[Callable[[], Env[Any, Any]]],
        copy: bool = True,
        observation_mode: str | tuple[Space[Any], Space[Any]] = "same",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        check_actions: bool | str = True,
    ) -> None:
        self.env_fns = env_fns if isinstance(env_fns, Sequence) else list(env_fns)
        self.copy = copy
        self.check_actions = check_actions
        self.observation_mode = observation_mode
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        if len(self.env_fns) == 0:
            raise error.NoEnvironments(NO_ENVS_MSG)

        self.envs = []
        try:
            for env_fn in self.env_fns:
                # A Gymnasium env gets an adapter with its spaces converted once.
                self.envs.append(as_vecgym_env(env_fn()))
            self._setup()
        except BaseException:
            # Gymnasium leaves the envs already made open; close them before re-raising.
            for env in self.envs:
                env.close()
            raise

    # --- construction -----------------------------------------------------------------------------
    def _setup(self) -> None:
        """Read the spaces and metadata from the envs and allocate the batch buffers."""
        first = self.envs[0]
        self.num_envs = len(self.envs)
        # A copy, so that the (often class-level) metadata of the sub-environment is left alone.
        self.metadata = dict(first.metadata)
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.render_mode = first.render_mode

        self.single_action_space = first.action_space
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space, self.observation_space = self._observation_spaces()
        self._check_spaces()

        self._autoreset_envs = [
            AutoresetEnv(stepping_target(env), self.autoreset_mode, index=i)
            for i, env in enumerate(self.envs)
        ]
        self._was_reset = np.zeros(self.num_envs, dtype=np.bool_)
        self._all_reset = False
        self._action_check = make_action_check(self.single_action_space, self.check_actions)
        # The dtype of the actions whose check is only ActionBoundsCheck's NaN test (a float Box,
        # check_actions=True), which ``step`` runs inline for a batch of the usual shape.
        self._nan_tested_dtype = (
            None if self._action_check is None else self._action_check.nan_tested_dtype
        )
        self._actions_shape = (self.num_envs, *(self.single_action_space.shape or ()))
        # The shortcut for step infos, unless a subclass batches infos its own way.
        own_way = (
            type(self)._add_info is not VectorEnv._add_info
            or type(self)._merge_infos is not VectorEnv._merge_infos
        )
        self._repeated_infos = None if own_way else RepeatedScalarInfos(self.num_envs)
        # Whether ``iterate`` walks an array of these actions row by row, as ``Box``'s does: the
        # step loop then iterates such an array itself, without the dispatch.
        self._array_actions = iterate.dispatch(type(self.action_space)) is iterate.dispatch(Box)
        self._observations: Any = create_empty_array(
            self.single_observation_space, n=self.num_envs, fn=np.zeros
        )
        # One view per env's row of a single array of observations of one or more dimensions:
        # ``row[...] = obs`` stores as ``batch[i] = obs`` does (the same copy into the same view)
        # without parsing the index, as the async workers' loops do. (Scalar observations keep
        # ``batch[i] = obs``: a 0-d view takes a one-element array, which ``batch[i] = obs``
        # refuses on numpy 2.4.)
        observations = self._observations
        self._obs_rows: list[np.ndarray] | None = (
            list(observations)
            if type(observations) is np.ndarray and observations.ndim > 1
            else None
        )
        if is_array_batchable(self.single_observation_space):
            self._write_obs: Callable[[int, Any], None] | None = make_batch_writer(
                self.single_observation_space, observations
            )
            self._env_obs: list[Any] | None = None
        else:
            # Text, Graph, Sequence, OneOf and custom spaces are batched as tuples of the values.
            self._write_obs = None
            self._env_obs = [None] * self.num_envs

    # --- construction -----------------------------------------------------------------------------
    def _observation_spaces(self) -> tuple[Space[Any], Space[Any]]:
        """``(single_observation_space, observation_space)`` according to ``observation_mode``."""
        mode = self.observation_mode
        if isinstance(mode, tuple) and len(mode) == 2:
            batched, single = mode
            if not isinstance(batched, Space) or not isinstance(single, Space):
                raise TypeError(OBS_MODE_SPACES_MSG.format(type(batched), type(single)))
            return single, batched
        single = self.envs[0].observation_space
        if isinstance(mode, str) and mode == "same":
            return single, batch_space(single, self.num_envs)
        if isinstance(mode, str) and mode == "different":
            return single, batch_differing_spaces([env.observation_space for env in self.envs])
        raise ValueError(OBS_MODE_MSG.format(mode))

    def _check_spaces(self) -> None:
        """Check each sub-environment's spaces against the single spaces."""
        same = isinstance(self.observation_mode, str) and self.observation_mode == "same"
        for i, env in enumerate(self.envs):
            if same:
                if env.observation_space != self.single_observation_space:
                    raise RuntimeError(
                        SAME_SPACE_MSG.format(
                            self.single_observation_space, i, env.observation_space
                        )
                    )
            elif not is_space_dtype_shape_equiv(
                env.observation_space, self.single_observation_space
            ):
                raise RuntimeError(
                    DIFFERENT_SPACE_MSG.format(
                        self.single_observation_space, i, env.observation_space
                    )
                )
            if env.action_space != self.single_action_space:
                raise RuntimeError(
                    ACTION_SPACE_MSG.format(i, env.action_space, self.single_action_space)
                )

    # --- seeding ----------------------------------------------------------------------------------
    # --- the step API -----------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[ObsType, dict[str, Any]]:
        """Reset the sub-environments and return the batched observations and infos.

        A reset clears any pending autoreset (``NEXT_STEP``) or ended episode (``DISABLED``) of
        the envs it resets.

        Args:
            seed: ``None`` (each env seeds itself randomly), an ``int`` ``s`` (env ``i`` gets
                ``s + i``), or a list with one ``int`` / ``None`` per env.
            options: passed to every reset env's ``reset``, without the key ``"reset_mask"``: a
                numpy bool array of shape ``(num_envs,)`` with at least one ``True``; only the envs
                it marks are reset, the others keep their observation in the batch. The caller's
                dict is not modified (Gymnasium pops ``"reset_mask"`` from it).

        Returns:
            ``(observations, infos)``; see ``copy`` in the class docstring for what the
            observations alias.

        Raises:
            ValueError: a seed list of the wrong length; a ``reset_mask`` of the wrong shape or
                with no ``True``.
            TypeError: a ``reset_mask`` that is not a numpy bool array.
            ClosedEnvironmentError: the vector env is closed.
        """
        self._check_open()
        seeds = normalize_seeds(seed, self.num_envs)
        reset_mask, env_options = split_reset_options(options, self.num_envs)
        indices: list[int] = (
            list(range(self.num_envs))
            if reset_mask is None
            else np.flatnonzero(reset_mask).tolist()
        )
        env_infos: list[tuple[int, dict[str, Any]]] = []
        write, env_obs, autoreset_envs = self._write_obs, self._env_obs, self._autoreset_envs
        try:
            for i in indices:
                obs, info = autoreset_envs[i].reset(seed=seeds[i], options=env_options)
                if write is not None:
                    write(i, obs)
                else:
                    assert env_obs is not None
                    env_obs[i] = obs
                if info:
                    env_infos.append((i, info))
        except Exception as exc:  # a Gymnasium env's error is also vecgym's class of its name
            adopt_gymnasium_error(exc)
            raise
        self._was_reset[indices] = True
        self._all_reset = bool(self._was_reset.all())
        infos = self._merge_infos(env_infos) if env_infos else {}
        return self._batched_observations(), infos

    def step(
        self, actions: ActType
    ) -> tuple[
        ObsType,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Step every sub-environment with its action and return the batched results.

        Episodes that end are handled by ``autoreset_mode`` (see :mod:`vecgym.vector.autoreset`):
        ``NEXT_STEP`` resets them on the next call (ignoring their action, with reward ``0`` and
        ``terminated = truncated = False``), ``SAME_STEP`` resets them within this call (the last
        observation and info in ``infos["final_obs"]`` / ``infos["final_info"]``), ``DISABLED``
        requires a ``reset(options={"reset_mask": ...})`` of them before the next step.

        Args:
            actions: a batch of actions, an element of :attr:`action_space`.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``; the reward and flag
            arrays are new on every call, the observations as ``copy`` (class docstring) says.

        Raises:
            ValueError: an action array whose first dimension is not ``num_envs``.
            ResetNeeded: some env was never reset, or ``DISABLED`` mode and some env's episode
                ended without a reset since. Nothing is stepped then.
            InvalidAction: ``check_actions`` is on and some action lies outside the action space
                (a vectorised bounds test; the message names the envs). Nothing is stepped then.
            ClosedEnvironmentError: the vector env is closed.
        """
        self._check_open()
        num_envs = self.num_envs
        self._check_step_actions(actions)
        autoreset_envs = self._autoreset_envs
        if self.autoreset_mode is AutoresetMode.DISABLED:
            for auto in autoreset_envs:
                if auto.needs_reset:
                    auto.step(None)  # raises ResetNeeded naming the env, before anything steps

        rewards = np.empty(num_envs, dtype=np.float64)
        # Flags are stored only where set: one zeroed array costs less than a store per env.
        terminations = np.zeros(num_envs, dtype=np.bool_)
        truncations = np.zeros(num_envs, dtype=np.bool_)
        step_infos: list[dict[str, Any]] = []
        write, env_obs, rows = self._write_obs, self._env_obs, self._obs_rows
        if self._array_actions and type(actions) is np.ndarray:
            actions_iter: Any = actions
        else:
            actions_iter = iterate(self.action_space, actions)
        try:
            for i, (auto, action) in enumerate(zip(autoreset_envs, actions_iter, strict=True)):
                # AutoresetEnv.step, inlined (see AutoresetEnv.end_episode and step_parts).
                if auto.needs_reset:
                    obs, reward, terminated, truncated, info = auto.step(action)
                    terminations[i], truncations[i] = terminated, truncated
                else:
                    obs, reward, terminated, truncated, info = auto.inner_step(action)
                    if (limit := auto.limit) is not None:  # TimeLimit's count, inlined
                        limit._elapsed_steps += 1
                        if limit._elapsed_steps >= limit._max_episode_steps:
                            truncated = True
                    if terminated or truncated:
                        obs, reward, terminated, truncated, info = auto.end_episode(
                            obs, reward, terminated, truncated, info
                        )
                        terminations[i], truncations[i] = terminated, truncated
                rewards[i] = reward
                if rows is not None:
                    rows[i][...] = obs
                elif write is not None:
                    write(i, obs)
                else:
                    assert env_obs is not None
                    env_obs[i] = obs
                step_infos.append(info)
        except Exception as exc:  # a Gymnasium env's error is also vecgym's class of its name
            adopt_gymnasium_error(exc)
            raise
        infos = self._step_infos(step_infos)
        return self._batched_observations(), rewards, terminations, truncations, infos

    def _check_step_actions(self, actions: Any) -> None:
        """What ``step`` checks before it steps anything: the batch's length (``ValueError``),
        that every env was reset (``ResetNeeded``), then the actions (``InvalidAction``)."""
        num_envs = self.num_envs
        # The usual batch for a float Box with the default check: ActionBoundsCheck's NaN test
        # runs inline (the largest value is NaN exactly when one of them is).
        nan_test = (
            type(actions) is np.ndarray
            and actions.dtype is self._nan_tested_dtype
            and actions.shape == self._actions_shape
        )
        if (
            not nan_test
            and isinstance(actions, np.ndarray)
            and (actions.ndim == 0 or len(actions) != num_envs)
        ):
            raise ValueError(ACTIONS_LENGTH_MSG.format(num_envs, actions.shape))
        if not self._all_reset:
            check_not_before_reset(self._was_reset)
        if nan_test:
            flat = actions.reshape(-1)
            top = flat[flat.argmax()]
            if top != top:  # the check names the envs
                self._action_check.check_batch(actions, num_envs)  # type: ignore[union-attr]
        elif self._action_check is not None:
            self._action_check.check_batch(actions, num_envs)

    def _step_infos(self, step_infos: list[dict[str, Any]]) -> dict[str, Any]:
        """The infos of a step batched once, key by key (:meth:`VectorEnv._merge_infos`); when
        every env returned one, first through the shortcut for repeated scalar infos."""
        if self._repeated_infos is not None and all(step_infos):
            infos = self._repeated_infos(step_infos)
            if infos is not None:
                return infos
        entries = [(i, info) for i, info in enumerate(step_infos) if info]
        return self._merge_infos(entries) if entries else {}

    def _batched_observations(self) -> Any:
        """The batch to return: the buffer itself, or a copy when ``copy`` is on."""
        if self._env_obs is not None:
            self._observations = concatenate(
                self.single_observation_space, self._env_obs, self._observations
            )
            return copy_module.deepcopy(self._observations) if self.copy else self._observations
        observations = self._observations
        if self.copy:
            if type(observations) is np.ndarray:
                return observations.copy()
            return _copy_arrays(observations)
        return observations

    def render(self) -> tuple[RenderFrame, ...]:
        """Each sub-environment's ``render()`` result, in env order."""
        self._check_open()
        return tuple(env.render() for env in self.envs)  # type: ignore[misc]

    # --- attributes -------------------------------------------------------------------------------
    def call(
        self, name: str, *args: Any, indices: int | Sequence[int] | None = None, **kwargs: Any
    ) -> tuple[Any, ...]:
        """Call method ``name`` of each sub-environment (through its wrappers) and collect results.

        An attribute that is not callable is returned as it is.

        Args:
            name: the method's name.
            *args: positional arguments of the method.
            indices: a vecgym addition: only these envs (an index or a sequence of them, results
                in that order); ``None`` for all. ``indices`` is consumed here, so it cannot be
                passed on to the method as a keyword argument.
            **kwargs: keyword arguments of the method.

        Returns:
            One result per selected env.

        Raises:
            ClosedEnvironmentError: the vector env is closed.
        """
        self._check_open()
        results = []
        for i in normalize_indices(indices, self.num_envs):
            results.append(call_env(self.envs[i], name, args, kwargs))
        return tuple(results)

    def get_attr(self, name: str, *, indices: int | Sequence[int] | None = None) -> tuple[Any, ...]:
        """Attribute ``name`` of each sub-environment (looked up through its wrappers).

        As in Gymnasium, this is :meth:`call` without arguments: a callable attribute (a method)
        is called and its result returned.

        Args:
            name: the attribute's name.
            indices: a vecgym addition: only these envs; ``None`` for all.

        Returns:
            One value per selected env.
        """
        return self.call(name, indices=indices)

    def set_attr(
        self, name: str, values: Any, *, indices: int | Sequence[int] | None = None
    ) -> None:
        """Set attribute ``name`` of each sub-environment (on the layer that has it).

        Args:
            name: the attribute's name.
            values: a list or tuple with one value per selected env, or any other value, which is
                set on every selected env.
            indices: a vecgym addition: only these envs; ``None`` for all.

        Raises:
            ValueError: ``values`` is a list or tuple of the wrong length.
        """
        self._check_open()
        selected = normalize_indices(indices, self.num_envs)
        if not isinstance(values, (list, tuple)):
            values = [values] * len(selected)
        if len(values) != len(selected):
            raise ValueError(SET_ATTR_LENGTH_MSG.format(len(values), len(selected)))
        for i, value in zip(selected, values, strict=True):
            self.envs[i].set_wrapper_attr(name, value)

    # --- closing ----------------------------------------------------------------------------------
    def close_extras(self, **kwargs: Any) -> None:
        """Close every sub-environment."""
        for env in getattr(self, "envs", ()):
            env.close()

    def _check_open(self) -> None:
        if self.closed:
            raise error.ClosedEnvironmentError(CLOSED_MSG.format(type(self).__name__))


def _copy_arrays(value: Any) -> Any:
    """Copy a batch of arrays (nested in tuples / dicts) into new arrays of the same structure."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple):
        return tuple(_copy_arrays(part) for part in value)
    if isinstance(value, dict):
        return {key: _copy_arrays(part) for key, part in value.items()}
    return copy_module.deepcopy(value)
