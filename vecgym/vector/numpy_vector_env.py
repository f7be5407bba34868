"""The base class of vector envs that step all their copies at once with numpy arrays.

A :class:`NumpyVectorEnv` keeps the state of every copy in arrays and advances them together;
it owns everything that is not physics: argument checks, one random generator per copy (seeded
``seed + i`` as :class:`~vecgym.vector.SyncVectorEnv` seeds its envs), ``reset_mask`` partial
resets, step counting and truncation at ``max_episode_steps`` (the ``TimeLimit`` that ``make``
adds to the single env), the three autoreset modes (through
:class:`~vecgym.vector.autoreset.BatchAutoreset`), ``rgb_array`` rendering as a list of frames, and
the closed checks. A subclass supplies the spaces and five hooks:

- :meth:`NumpyVectorEnv._parse_reset_options`: validate a ``reset``'s options (without
  ``reset_mask``) into whatever :meth:`_reset_envs` needs;
- :meth:`NumpyVectorEnv._reset_envs`: draw new initial states for some envs, env ``i`` from
  ``self._rng(i)`` exactly as the single env's ``reset`` draws them;
- :meth:`NumpyVectorEnv._step_all`: advance every env's state, returning rewards and
  terminations;
- :meth:`NumpyVectorEnv._observations`: the batched observations, a new array;
- :meth:`NumpyVectorEnv._render_env`: one env's frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from vecgym import error, logger
from vecgym.core import seeding
from vecgym.core.spaces.box import Box
from vecgym.core.spaces.discrete import Discrete
from vecgym.vector._arguments import ACTIONS_LENGTH_MSG as ACTIONS_SHAPE_MSG
from vecgym.vector._arguments import CLOSED_MSG as CLOSED_MSG
from vecgym.vector._arguments import is_int, normalize_seeds, split_reset_options
from vecgym.vector.autoreset import BatchAutoreset
from vecgym.vector.utils import batch_space
from vecgym.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["NumpyVectorEnv"]

BoolArray = npt.NDArray[np.bool_]

RESET_NEEDED_MSG = "call reset() before step()"
NUM_ENVS_MSG = "num_envs must be a positive integer, got {!r}"
MAX_STEPS_MSG = "max_episode_steps must be a positive integer or None, got {!r}"
UNSUPPORTED_RENDER_MODE_MSG = "render_mode must be None or one of {}, got {!r}"
DISCRETE_ACTIONS_MSG = "actions must be integers in {{{}, ..., {}}} (an element of {}), got {!r}"
BOX_ACTIONS_DTYPE_MSG = "actions must be real numbers (an element of {}), got dtype {}"
NO_RENDER_MODE_MSG = (
    "render() returns None because this vector env was made without a render_mode; pass one when "
    'making it, e.g. gym.make_vec("{}", render_mode="rgb_array")'
)


class NumpyVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` copies of an environment whose states live in numpy arrays.

    Sub-environment ``i`` has its own generator (:meth:`_rng`), so that after ``reset(seed=s)``
    it draws the same random numbers as the single env reset with ``seed=s + i``. Episodes are
    truncated after ``max_episode_steps`` steps and autoreset per ``autoreset_mode``
    (``metadata["autoreset_mode"]``), with the rules of :mod:`vecgym.vector.autoreset`.

    Subclasses call ``super().__init__(...)`` first, then set :attr:`single_observation_space`
    and :attr:`single_action_space` and call :meth:`_batch_spaces`; they implement the hooks
    listed in the module docstring. The state arrays are theirs (allocated in ``__init__``, so
    that a first ``reset`` with a ``reset_mask`` leaves the unmasked envs at zero state);
    :attr:`steps` (steps taken in each env's episode) and :attr:`autoreset` (the pending-reset
    mask) are the base's.

    Args:
        num_envs: the number of copies.
        max_episode_steps: truncate an episode after this many steps (``None``: never).
        render_mode: ``None`` or one of ``metadata["render_modes"]``.
        autoreset_mode: an :class:`~vecgym.vector.AutoresetMode` or its value string.

    Raises:
        ValueError: ``num_envs`` or ``max_episode_steps`` is not a positive integer; an unknown
            ``autoreset_mode``.
        UnsupportedMode: an unsupported ``render_mode``.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["rgb_array"],
        "render_fps": 30,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        if not is_int(num_envs) or num_envs < 1:
            raise ValueError(NUM_ENVS_MSG.format(num_envs))
        if max_episode_steps is not None and (
            not is_int(max_episode_steps) or max_episode_steps < 1
        ):
            raise ValueError(MAX_STEPS_MSG.format(max_episode_steps))
        modes = self.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise error.UnsupportedMode(UNSUPPORTED_RENDER_MODE_MSG.format(modes, render_mode))
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = int(num_envs)
        self.max_episode_steps = None if max_episode_steps is None else int(max_episode_steps)
        self.render_mode = render_mode
        #: Steps taken in each env's current episode.
        self.steps = np.zeros(self.num_envs, dtype=np.int64)
        #: The autoreset state: which envs' episodes ended and await a reset.
        self.autoreset = BatchAutoreset(self.autoreset_mode, self.num_envs)
        self._has_state = False
        self._default_reset = self._parse_reset_options(None)
        self._rngs: list[np.random.Generator | None] = [None] * self.num_envs
        self._rng_seeds: list[int | None] = [None] * self.num_envs

    def _batch_spaces(self) -> None:
        """Set :attr:`observation_space` and :attr:`action_space` from the single spaces."""
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

    @property
    def needs_reset(self) -> npt.NDArray[np.bool_]:
        """Envs whose episode ended and that have not been reset since (a view)."""
        return self.autoreset.needs_reset

    # --- seeding ----------------------------------------------------------------------------------
    def _rng(self, i: int) -> np.random.Generator:
        """Env ``i``'s generator, created from OS entropy on first use (as ``Env.np_random``)."""
        rng = self._rngs[i]
        if rng is None:
            rng, self._rng_seeds[i] = seeding.np_random()
            self._rngs[i] = rng
        return rng

    @property  # type: ignore[misc]
    def np_random(self) -> tuple[np.random.Generator, ...]:  # type: ignore[override]
        """The sub-environments' generators, one per env (created on first access)."""
        return tuple(self._rng(i) for i in range(self.num_envs))

    @property
    def np_random_seed(self) -> tuple[int | None, ...]:  # type: ignore[override]
        """The seed of each sub-environment's generator."""
        for i in range(self.num_envs):
            self._rng(i)
        return tuple(self._rng_seeds)

    # --- the step API -----------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset the sub-environments (all, or those in ``options["reset_mask"]``).

        A reset clears any pending autoreset (``NEXT_STEP``) or ended episode (``DISABLED``) of
        the envs it resets; the other envs keep their state and their place in the batch.

        Args:
            seed: ``None`` (generators kept, or seeded from OS entropy on first use), an ``int``
                ``s`` (env ``i`` is seeded with ``s + i``), or a list with one ``int`` / ``None``
                per env.
            options: the single env's reset options (for this reset only; autoresets use none),
                and ``"reset_mask"``: a numpy bool array of shape ``(num_envs,)`` selecting the
                envs to reset. The caller's dict is not modified.

        Returns:
            ``(observations, infos)``: a new array and ``{}``.

        Raises:
            ValueError: bad options, a seed list of the wrong length, a bad ``reset_mask``.
            TypeError: a ``reset_mask`` that is not a numpy bool array; a seed of a bad type.
            ClosedEnvironmentError: the vector env is closed.
        """
        self._check_open()
        seeds = normalize_seeds(seed, self.num_envs)
        reset_mask, env_options = split_reset_options(options, self.num_envs)
        params = self._parse_reset_options(env_options)
        if reset_mask is None:
            indices: npt.NDArray[np.intp] = np.arange(self.num_envs)
        else:
            indices = np.flatnonzero(reset_mask)
        for i in indices.tolist():
            if seeds[i] is not None:
                self._rngs[i], self._rng_seeds[i] = seeding.np_random(seeds[i])
        self._reset_envs(indices, params)
        self._has_state = True
        self.steps[indices] = 0
        self.autoreset.clear(indices)
        return self._observations(), {}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[np.ndarray, np.ndarray, BoolArray, BoolArray, dict[str, Any]]:
        """Step every env and autoreset ended episodes per ``autoreset_mode``.

        Args:
            actions: one action per env, an element of :attr:`action_space`.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``, all new arrays;
            ``infos`` is ``{}`` except in ``SAME_STEP`` mode when an episode ended, where it holds
            ``final_obs`` / ``final_info`` and their masks as ``SyncVectorEnv`` batches them.

        Raises:
            ValueError: not one action per env.
            InvalidAction: an action outside a discrete action space.
            ResetNeeded: ``reset`` was never called; or ``DISABLED`` mode and an env's episode
                ended without a reset since (nothing is stepped then).
            ClosedEnvironmentError: the vector env is closed.
        """
        self._check_open()
        checked = self._check_actions(actions)
        if not self._has_state:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        autoreset = self.autoreset
        pending = autoreset.begin_step()
        rewards, terminated = self._step_all(checked, pending)
        steps = self.steps
        steps += 1
        if self.max_episode_steps is None:
            truncated = np.zeros(self.num_envs, dtype=np.bool_)
        else:
            truncated = steps >= self.max_episode_steps
        observations, infos = autoreset.finish_step(
            pending, rewards, terminated, truncated, self._autoreset_envs, self._observations
        )
        return observations, rewards, terminated, truncated, infos

    def _autoreset_envs(self, indices: npt.NDArray[np.intp]) -> None:
        self._reset_envs(indices, self._default_reset)
        self.steps[indices] = 0

    def _check_actions(self, actions: npt.ArrayLike) -> np.ndarray:
        """The actions as an array with one row per env, checked against the single space.

        :class:`Discrete` spaces need integers in range; :class:`Box` spaces need real numbers of
        the single space's shape (values are not checked: the envs clip them, as the single envs
        do). The array keeps its dtype, which the single envs' arithmetic depends on.
        """
        array = np.asarray(actions)
        space = self.single_action_space
        if array.shape != (self.num_envs, *(space.shape or ())):
            raise ValueError(ACTIONS_SHAPE_MSG.format(self.num_envs, array.shape))
        if isinstance(space, Discrete):
            start, n = int(space.start), int(space.n)
            if array.dtype == np.int64 and start == 0:
                # Negative values become huge once read as unsigned: one comparison checks both.
                bad = bool(np.count_nonzero(array.view(np.uint64) >= n))
            else:
                bad = array.dtype.kind not in "iu" or bool(
                    ((array < start) | (array >= start + n)).any()
                )
            if bad:
                raise error.InvalidAction(
                    DISCRETE_ACTIONS_MSG.format(start, start + n - 1, space, actions)
                )
        elif isinstance(space, Box) and array.dtype.kind not in "iuf":
            raise error.InvalidAction(BOX_ACTIONS_DTYPE_MSG.format(space, array.dtype))
        return array

    def _check_open(self) -> None:
        if self.closed:
            raise error.ClosedEnvironmentError(CLOSED_MSG.format(type(self).__name__))

    # --- rendering --------------------------------------------------------------------------------
    def render(self) -> list[npt.NDArray[np.uint8]] | None:  # type: ignore[override]
        """One ``uint8`` frame per env in ``"rgb_array"`` mode (a list), drawn as the single env.

        Without a render mode a warning is issued and ``None`` returned.

        Raises:
            ResetNeeded: ``reset`` was never called.
        """
        if self.render_mode is None:
            env_id = self.spec.id if self.spec is not None else type(self).__name__
            logger.warn(NO_RENDER_MODE_MSG.format(env_id))
            return None
        if not self._has_state:
            raise error.ResetNeeded(RESET_NEEDED_MSG)
        return [self._render_env(i) for i in range(self.num_envs)]

    # --- hooks ------------------------------------------------------------------------------------
    def _parse_reset_options(self, options: dict[str, Any] | None) -> Any:
        """Validate a reset's options (``reset_mask`` removed); ``None`` means no options.

        Called once in ``__init__`` with ``None`` for the autoreset parameters.
        """
        return options

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: Any) -> None:
        """Draw new initial states for the envs ``indices``, env ``i`` from ``self._rng(i)``."""
        raise NotImplementedError

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, npt.NDArray[np.bool_]]:
        """Advance every env by one step; return new ``(rewards, terminations)`` arrays.

        ``pending`` (``NEXT_STEP`` mode) lists the envs that the base resets right after: their
        new state is discarded, but an env drawing random numbers in its step must not draw
        for them (the single env would not have stepped).
        """
        raise NotImplementedError

    def _observations(self) -> np.ndarray:
        """The batched observations of the current state, a new array."""
        raise NotImplementedError

    def _render_env(self, i: int) -> npt.NDArray[np.uint8]:
        """Env ``i``'s frame, as the single env draws it."""
        raise NotImplementedError
