"""The plumbing shared by the numpy-vectorised toy-text environments.

:class:`ToyTextVectorEnv` sits on :class:`~vecgym.vector.numpy_vector_env.NumpyVectorEnv` (which
owns seeding, ``reset_mask``, the time limit and the autoreset rules) and adds what the toy-text
envs need on top: their infos, batched exactly as :meth:`VectorEnv._add_info` batches the single
envs' infos in a :class:`~vecgym.vector.SyncVectorEnv` (including which env's value type sets an
array's dtype), observations that are not one array (Blackjack's tuple), ``"ansi"`` rendering,
and frames drawn by the single env's own drawing code. :class:`TabularVectorEnv` steps the envs
that are transition tables (FrozenLake, CliffWalking, Taxi) with array lookups.

Infos are described per key by an :class:`InfoColumn`: the value of every env (one row each) and,
for scalar values, whether each env's value is a Python ``int`` (else a ``float``). The batched
array of a key is an ``int`` array only when every contributing env's value is an ``int``, else a
``float`` array, as ``_add_info`` widens it (FrozenLake's ``reset`` gives ``{"prob": 1}``; a step's
``1/3`` beside it is kept, where Gymnasium would truncate it to 0).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from vecgym.envs.toy_text._base import ToyTextEnv
from vecgym.vector.numpy_vector_env import NumpyVectorEnv
from vecgym.vector.vector_env import AutoresetMode

__all__ = ["Draws", "InfoColumn", "TabularVectorEnv", "ToyTextVectorEnv", "batch_info", "draws_for"]

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
InfoColumns = dict[str, "InfoColumn"]


class Draws:
    """The two draws the toy-text envs make, taken from a generator's bit generator directly.

    ``random()`` is ``generator.random()`` and ``integers(n)`` is ``generator.integers(0, n)``
    (NumPy's Lemire rejection on 32-bit draws), bit for bit and leaving the generator in the
    same state, but called through the bit generator's C functions (``BitGenerator.ctypes``),
    which costs a fifth of the Generator methods' argument handling. :func:`draws_for` checks
    once that this NumPy draws as expected and falls back to the Generator methods if not.

    Args:
        generator: the generator drawn from.

    Attributes:
        generator: the generator drawn from.
        random: a callable returning a uniform float in ``[0, 1)``, as ``generator.random()``.
    """

    __slots__ = ("_next_uint32", "_state", "generator", "random")

    def __init__(self, generator: np.random.Generator) -> None:
        self.generator = generator
        functions = generator.bit_generator.ctypes
        self.random: Callable[[], float] = functools.partial(functions.next_double, functions.state)
        self._next_uint32: Callable[[Any], int] = functions.next_uint32
        self._state = functions.state

    def integers(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``0 < n < 2**32``), as ``generator.integers(0, n)``."""
        next_uint32, state = self._next_uint32, self._state
        scaled = next_uint32(state) * n
        low = scaled & 0xFFFFFFFF
        if low < n:
            threshold = (0x100000000 - n) % n
            while low < threshold:
                scaled = next_uint32(state) * n
                low = scaled & 0xFFFFFFFF
        return scaled >> 32


class _GeneratorDraws(Draws):
    """:class:`Draws` through the Generator's own methods (the fallback)."""

    def __init__(self, generator: np.random.Generator) -> None:
        self.generator = generator
        self.random = generator.random

    def integers(self, n: int) -> int:
        return int(self.generator.integers(0, n))


@functools.cache
def _direct_draws_agree() -> bool:
    """Whether :class:`Draws` reproduces the Generator methods with this NumPy."""
    try:
        ours, theirs = np.random.default_rng(2024), np.random.default_rng(2024)
        draws = Draws(ours)
        for k in range(400):
            n = (13, 4, 3, 2, 500)[k % 5]
            if draws.integers(n) != int(theirs.integers(0, n)):
                return False
            if k % 3 == 0 and draws.random() != theirs.random():
                return False
        return bool(ours.bit_generator.state == theirs.bit_generator.state)
    except (AttributeError, TypeError, ValueError, ImportError):  # pragma: no cover
        return False


def draws_for(generator: np.random.Generator) -> Draws:
    """The fastest exact :class:`Draws` of ``generator``."""
    if _direct_draws_agree():
        return Draws(generator)
    return _GeneratorDraws(generator)  # pragma: no cover - a NumPy that draws differently


class InfoColumn(NamedTuple):
    """One info key's values for every env.

    Attributes:
        values: one row per env (a scalar or an array each).
        is_int: for scalar infos, whether each env's value is a Python ``int`` (else ``float``);
            ``None`` for array infos, whose dtype is ``values.dtype``.
    """

    values: np.ndarray
    is_int: BoolArray | None = None


def batch_info(columns: InfoColumns, mask: BoolArray) -> dict[str, Any]:
    """The infos of the envs in ``mask`` batched as :meth:`VectorEnv._add_info` batches them.

    Args:
        columns: the value of each key for every env.
        mask: the envs that supply an info.

    Returns:
        ``{key: array, "_" + key: mask, ...}``, or ``{}`` when no env is in ``mask``.
    """
    if not mask.any():
        return {}
    infos: dict[str, Any] = {}
    for key, (values, is_int) in columns.items():
        if is_int is None:
            dtype: np.dtype[Any] = values.dtype
        else:
            dtype = np.dtype(int) if is_int[mask].all() else np.dtype(float)
        array = np.zeros(values.shape, dtype=dtype)
        array[mask] = values[mask]
        infos[key] = array
        infos[f"_{key}"] = mask.copy()
    return infos


def merge_columns(stepped: InfoColumns, reset: InfoColumns, was_reset: BoolArray) -> InfoColumns:
    """Per key, the reset info's value for the envs in ``was_reset`` and the step's elsewhere.

    Both must have the same keys (true of every toy-text env: reset and step infos agree).
    """
    assert stepped.keys() == reset.keys()
    merged: InfoColumns = {}
    for key, (values, is_int) in stepped.items():
        reset_values, reset_is_int = reset[key]
        rows = was_reset.reshape((-1,) + (1,) * (values.ndim - 1))
        merged_is_int = None
        if is_int is not None and reset_is_int is not None:
            merged_is_int = np.where(was_reset, reset_is_int, is_int)
        merged[key] = InfoColumn(np.where(rows, reset_values, values), merged_is_int)
    return merged


class ToyTextVectorEnv(NumpyVectorEnv):
    """A :class:`NumpyVectorEnv` with the single toy-text env's infos, observations and frames.

    Subclasses build :attr:`_painter` (an instance of the single env, whose drawing code renders
    every env's frame) and implement the :class:`NumpyVectorEnv` hooks plus
    :meth:`_step_info`, :meth:`_reset_info` and :meth:`_load_painter`; an env whose batched
    observation is not the internal ``(num_envs, ...)`` array also overrides
    :meth:`_present` and :meth:`_single_obs`.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["rgb_array", "ansi"],
        "render_fps": 4,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    _painter: ToyTextEnv[Any]
    _draw_cache: list[Draws | None] | None = None

    def _draws(self, i: int) -> Draws:
        """Env ``i``'s :class:`Draws`, of its current generator (:meth:`_rng`).

        Cached; a :meth:`reset` with a seed empties the cache (generators may be replaced).
        """
        cache = self._draw_cache
        if cache is None:
            cache = self._draw_cache = [None] * self.num_envs
        draws = cache[i]
        if draws is None:
            draws = cache[i] = draws_for(self._rng(i))
        return draws

    def __getstate__(self) -> dict[str, Any]:
        """The state to pickle: the :class:`Draws` (C pointers) are rebuilt after unpickling."""
        state = self.__dict__.copy()
        state["_draw_cache"] = None
        return state

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the sub-environments (all, or those in ``options["reset_mask"]``).

        As :meth:`NumpyVectorEnv.reset`; the infos are the reset envs' single-env reset infos,
        batched (the other envs are absent from every ``"_key"`` mask).
        """
        if seed is not None:
            self._draw_cache = None  # some envs get new generators
        observations, _ = super().reset(seed=seed, options=options)
        if options is not None and "reset_mask" in options:
            was_reset = np.array(options["reset_mask"], dtype=np.bool_)
        else:
            was_reset = np.ones(self.num_envs, dtype=np.bool_)
        return self._present(observations), batch_info(self._reset_info(), was_reset)

    def step(self, actions: npt.ArrayLike) -> tuple[Any, np.ndarray, BoolArray, BoolArray, dict]:
        """Step every env, autoresetting as :meth:`NumpyVectorEnv.step` states.

        The infos are each env's single-env info, batched: the step's info, or for an env reset by
        this step its reset info; in ``SAME_STEP`` mode an ended env's info is
        ``{"final_obs": ..., "final_info": <step info>, **<reset info>}`` as ``SyncVectorEnv``
        gives it.
        """
        pending = self.autoreset.needs_reset.copy()
        observations, rewards, terminated, truncated, infos = super().step(actions)
        if self.autoreset_mode is AutoresetMode.NEXT_STEP:
            was_reset = pending
        elif self.autoreset_mode is AutoresetMode.SAME_STEP:
            was_reset = terminated | truncated
        else:
            was_reset = np.zeros(self.num_envs, dtype=np.bool_)
        stepped = self._step_info()
        if not was_reset.any():
            new_infos = batch_info(stepped, np.ones(self.num_envs, dtype=np.bool_))
        else:
            merged = merge_columns(stepped, self._reset_info(), was_reset)
            new_infos = batch_info(merged, np.ones(self.num_envs, dtype=np.bool_))
            if "final_obs" in infos:
                final_obs = infos["final_obs"]
                for i in np.flatnonzero(was_reset).tolist():
                    final_obs[i] = self._single_obs(final_obs[i])
                final_info = batch_info(stepped, was_reset)
                new_infos = {
                    "final_obs": final_obs,
                    "_final_obs": infos["_final_obs"],
                    "final_info": final_info,
                    "_final_info": infos["_final_info"],
                    **new_infos,
                }
        return self._present(observations), rewards, terminated, truncated, new_infos

    def _render_env(self, i: int) -> Any:
        """Env ``i``'s frame or text, drawn by the single env's code from env ``i``'s state."""
        painter = self._painter
        self._load_painter(i)
        drawing: Any = (
            painter._render_text() if self.render_mode == "ansi" else painter._draw_frame()
        )
        self._unload_painter(i)
        return drawing

    # --- hooks ------------------------------------------------------------------------------------
    def _present(self, observations: np.ndarray) -> Any:
        """The batched observations as ``SyncVectorEnv`` gives them, from the internal array."""
        return observations

    def _single_obs(self, row: Any) -> Any:
        """One env's observation as the single env returns it, from its internal row."""
        return int(row)

    def _step_info(self) -> InfoColumns:
        """The info of the last step of every env (rows of envs not stepped are ignored)."""
        return {}

    def _reset_info(self) -> InfoColumns:
        """The reset info of every env from its current state (rows not reset are ignored)."""
        return {}

    def _load_painter(self, i: int) -> None:
        """Copy env ``i``'s state into :attr:`_painter`."""
        raise NotImplementedError

    def _unload_painter(self, i: int) -> None:
        """Keep whatever drawing changed in :attr:`_painter` (Taxi's orientation) for env ``i``."""


class TabularVectorEnv(ToyTextVectorEnv):
    """Toy-text envs given by a transition table ``P[state][action]`` of
    ``(probability, next_state, reward, terminated)`` outcomes and an initial distribution.

    Every step draws one uniform number from each stepped env's generator and picks the outcome
    whose cumulative probability first exceeds it, as ``categorical_sample`` does; the table is
    padded with zero-probability outcomes to a common length, which changes no pick. A reset
    draws one uniform number against the cumulative initial distribution.

    Subclasses build their single env in :attr:`_painter` and call :meth:`_build_tables`.
    """

    #: The current state of every env.
    s: IntArray
    #: The last action of every env, ``-1`` after a reset (the single env's ``None``).
    lastaction: IntArray
    #: ``info["prob"]`` of a reset: ``int`` (``1``) or ``float`` (``1.0``).
    _reset_prob_is_int: bool = True

    def _build_tables(self, single: Any) -> None:
        """Turn ``single.P`` and ``single.initial_state_distrib`` into flat arrays."""
        table = single.P
        num_states = len(table)
        num_actions = len(table[0])
        width = max(len(outcomes) for row in table.values() for outcomes in row.values())
        shape = (num_states * num_actions, width)
        probs = np.zeros(shape, dtype=np.float64)
        prob_is_int = np.zeros(shape, dtype=np.bool_)
        next_state = np.zeros(shape, dtype=np.int64)
        reward = np.zeros(shape, dtype=np.float64)
        terminated = np.zeros(shape, dtype=np.bool_)
        for state in range(num_states):
            for action in range(num_actions):
                row = state * num_actions + action
                for k, (p, s_next, r, done) in enumerate(table[state][action]):
                    probs[row, k] = p
                    prob_is_int[row, k] = type(p) is int
                    next_state[row, k], reward[row, k], terminated[row, k] = s_next, r, done
                # Outcomes past the last keep its next state: never picked.
                next_state[row, len(table[state][action]) :] = next_state[row, k]
        self._num_actions = num_actions
        self._width = width
        self._cum_probs = np.cumsum(probs, axis=1)
        self._probs = probs.ravel()
        self._prob_is_int = prob_is_int.ravel()
        self._next_state = next_state.ravel()
        self._reward = reward.ravel()
        self._terminated = terminated.ravel()
        self._cum_initial = np.cumsum(np.asarray(single.initial_state_distrib, dtype=np.float64))
        self.s = np.zeros(self.num_envs, dtype=np.int64)
        self.lastaction = np.full(self.num_envs, -1, dtype=np.int64)
        self._step_prob = np.ones(self.num_envs, dtype=np.float64)
        self._step_prob_is_int = np.zeros(self.num_envs, dtype=np.bool_)
        self._step_state = self.s.copy()

    def _uniforms(self, indices: Sequence[int]) -> list[float]:
        """One ``random()`` draw from each env in ``indices``, in order."""
        cache = self._draw_cache
        if cache is None:
            cache = self._draw_cache = [None] * self.num_envs
        make = self._draws
        return [(cache[i] or make(i)).random() for i in indices]

    def _initial_states(self, draws: Sequence[float]) -> IntArray:
        """The start states picked by uniform ``draws`` (``categorical_sample``'s rule)."""
        cum = self._cum_initial
        picked = np.searchsorted(cum, np.asarray(draws, dtype=np.float64), side="right")
        return np.where(picked >= len(cum), 0, picked)  # no cumulative value above: index 0

    def _reset_envs(self, indices: npt.NDArray[np.intp], params: Any) -> None:
        self.s[indices] = self._initial_states(self._uniforms(indices.tolist()))
        self.lastaction[indices] = -1

    def _step_all(
        self, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> tuple[np.ndarray, BoolArray]:
        """Pick every env's outcome from its row of the table (one draw per stepped env)."""
        num_envs = self.num_envs
        rows = self.s * self._num_actions + actions.astype(np.int64)
        if pending is None:
            draws = np.array(self._uniforms(range(num_envs)), dtype=np.float64)
        else:
            active = np.ones(num_envs, dtype=np.bool_)
            active[pending] = False
            draws = np.zeros(num_envs, dtype=np.float64)
            draws[active] = self._uniforms(np.flatnonzero(active).tolist())
        picked = np.argmax(self._cum_probs[rows] > draws[:, None], axis=1)
        flat = rows * self._width + picked
        old_states = self.s
        self.s = self._next_state[flat]
        self._step_prob = self._probs[flat]
        self._step_prob_is_int = self._prob_is_int[flat]
        self._after_transition(old_states, actions, pending)
        self._step_state = self.s.copy()
        self.lastaction = actions.astype(np.int64)
        return self._reward[flat], self._terminated[flat]

    def _after_transition(
        self, old_states: IntArray, actions: np.ndarray, pending: npt.NDArray[np.intp] | None
    ) -> None:
        """Change :attr:`s` after the table's transition (Taxi's fickle passenger)."""

    def _observations(self) -> np.ndarray:
        return self.s.copy()

    def _step_info(self) -> InfoColumns:
        return {"prob": InfoColumn(self._step_prob, self._step_prob_is_int)}

    def _reset_info(self) -> InfoColumns:
        is_int = np.full(self.num_envs, self._reset_prob_is_int, dtype=np.bool_)
        return {"prob": InfoColumn(np.ones(self.num_envs, dtype=np.float64), is_int)}

    def _load_painter(self, i: int) -> None:
        painter: Any = self._painter
        painter.s = int(self.s[i])
        action = int(self.lastaction[i])
        painter.lastaction = None if action < 0 else action
