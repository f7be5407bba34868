"""Honest step-rate measurement, shared by ``vecgym bench``, ``vecgym autotune`` and benchmarks.

The rules every figure here follows:

* actions are generated before the clock starts (sampling is not part of stepping);
* a warm-up runs before timing (first-touch page faults, lazy imports, worker wake-up);
* only real env steps count: under the ``NEXT_STEP`` autoreset mode the step after an episode
  ended only resets that env, so it is subtracted (the *pending mask* of the previous step);
  under ``SAME_STEP`` every step is an env step (the reset rides along); under ``DISABLED``
  ended envs are reset explicitly (``reset_mask``), outside the count; a runtime that returns
  a batch of some of its envs (EnvPool-style ``send`` / ``recv``) counts its own real steps
  (:data:`COUNT_SELF`: by env id for vecgym, EnvPool's ``elapsed_step`` for EnvPool);
* the clock is read after every step, so a run stops within one step of its budget.

A runtime is driven through a :class:`Stepper`: three callables that adapt a vector env of
any library (vecgym, Gymnasium, Stable-Baselines3, PufferLib) to one loop.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

# The one definition of "usable cores" (AsyncVectorEnv's default num_workers), re-exported here.
from vecgym.vector.async_vector_env import usable_cores as usable_cores

__all__ = [
    "COUNT_ALL",
    "COUNT_NEXT_STEP",
    "COUNT_SELF",
    "Measurement",
    "Stepper",
    "measure_pool",
    "measure_single_env",
    "measure_stepper",
    "observation_shape",
    "pool_stepper",
    "usable_cores",
]

COUNT_NEXT_STEP = "next_step"
"""Counting rule: an env whose previous step ended its episode is only reset, not stepped."""
COUNT_ALL = "all"
"""Counting rule: every env of every step is a real env step (``SAME_STEP``, ``DISABLED``)."""
COUNT_SELF = "self"
"""Counting rule: ``step`` returns how many real env steps it took (batches of some of the envs,
whose resets only the runtime can tell apart)."""
POOL_MODES = ("NextStep", "SameStep")
"""The autoreset modes send / recv collection runs under (``DISABLED`` would leave ended envs
waiting for a reset)."""
POOL_DISABLED_MSG = (
    "send / recv collection needs an autoreset mode (NextStep or SameStep), not {mode}: "
    "ended envs would wait for a reset"
)

WARMUP_FRACTION = 0.2
"""Warm-up time as a fraction of the timed run (at least :data:`MIN_WARMUP_STEPS` steps)."""
MAX_WARMUP_S = 0.5
"""Longest warm-up, however long the timed run."""
MIN_WARMUP_STEPS = 2
"""Fewest warm-up steps, however short the timed run."""
SECONDS_MSG = "seconds must be a number > 0, got {!r}"


@dataclass(frozen=True)
class Measurement:
    """One timed run.

    Attributes:
        env_steps: real env steps taken while the clock ran.
        elapsed_s: seconds the timed part took.
        calls: ``step`` (or ``recv``) calls made while the clock ran.
    """

    env_steps: int
    elapsed_s: float
    calls: int

    @property
    def steps_per_s(self) -> float:
        """Env steps per second (0 when nothing was timed)."""
        return self.env_steps / self.elapsed_s if self.elapsed_s > 0 else 0.0


@dataclass
class Stepper:
    """A vector env of any library, adapted to :func:`measure_stepper`.

    Attributes:
        num_envs: how many sub-environments one step advances.
        reset: ``reset(seed)`` resets every env.
        step: ``step(actions)`` steps every env and returns the boolean "episode ended" mask
            (terminated or truncated); under :data:`COUNT_SELF` it steps some of them and
            returns the number of real env steps taken.
        close: releases the env (processes, shared memory).
        counting: :data:`COUNT_NEXT_STEP`, :data:`COUNT_ALL` or :data:`COUNT_SELF`.
        reset_done: for envs without autoreset (``DISABLED``): ``reset_done(mask)`` resets the
            envs in ``mask``; ``None`` when the env resets by itself.
        observation_shape: the shape of one env's observation, where the runtime says (see
            :func:`observation_shape`); a runtime whose shape differs from the single env's runs
            another workload (EnvPool's Atari envs preprocess their frames, for one).
    """

    num_envs: int
    reset: Callable[[int], Any]
    step: Callable[[Any], Any]
    close: Callable[[], Any]
    counting: str = COUNT_NEXT_STEP
    reset_done: Callable[[npt.NDArray[np.bool_]], Any] | None = None
    observation_shape: tuple[int, ...] | None = None


def observation_shape(space: Any) -> tuple[int, ...] | None:
    """``space.shape`` as a tuple of ints, or ``None`` for a space without a fixed shape.

    Example:
        >>> from vecgym.spaces import Box, Dict
        >>> observation_shape(Box(0, 1, (4, 84, 84))), observation_shape(Dict({}))
        ((4, 84, 84), None)
    """
    shape = getattr(space, "shape", None)
    if not isinstance(shape, tuple) or not all(isinstance(size, int) for size in shape):
        return None
    return shape


def _check_seconds(seconds: float) -> None:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(SECONDS_MSG.format(seconds))


def _warmup_s(seconds: float) -> float:
    return min(MAX_WARMUP_S, WARMUP_FRACTION * seconds)


def _run_steps(
    stepper: Stepper,
    actions: Sequence[Any],
    seconds: float,
    min_calls: int,
    index: int,
    pending: npt.NDArray[np.bool_],
) -> tuple[Measurement, int, npt.NDArray[np.bool_]]:
    """Step until ``seconds`` passed and at least ``min_calls`` calls were made.

    ``pending`` is the previous step's "episode ended" mask (all false after a reset); the
    returned index and mask continue the stream, so a warm-up and a timed run chain exactly.
    """
    count = len(actions)
    counting = stepper.counting
    env_steps = 0
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        result = stepper.step(actions[index % count])
        index += 1
        calls += 1
        if counting == COUNT_SELF:
            env_steps += int(result)
        elif counting == COUNT_NEXT_STEP:
            env_steps += stepper.num_envs - int(np.count_nonzero(pending))
            pending = np.asarray(result, dtype=bool)
        else:
            env_steps += stepper.num_envs
            if stepper.reset_done is not None:
                done = np.asarray(result, dtype=bool)
                if done.any():
                    stepper.reset_done(done)
        now = time.perf_counter()
        if now >= deadline and calls >= min_calls:
            return Measurement(env_steps, now - start, calls), index, pending


def measure_stepper(
    stepper: Stepper, actions: Sequence[Any], seconds: float, seed: int = 0
) -> Measurement:
    """Reset, warm up, then time ``stepper`` for about ``seconds``.

    Args:
        stepper: the adapted vector env (not closed here).
        actions: pre-generated action batches, cycled.
        seconds: length of the timed run.
        seed: the reset seed.

    Returns:
        The timed run. The warm-up and the timed run are one stream of steps after one reset,
        so the first timed step already knows which envs are only being reset.
    """
    _check_seconds(seconds)
    stepper.reset(seed)
    pending = np.zeros(stepper.num_envs, dtype=bool)
    _, index, pending = _run_steps(
        stepper, actions, _warmup_s(seconds), MIN_WARMUP_STEPS, 0, pending
    )
    measurement, _, _ = _run_steps(stepper, actions, seconds, 1, index, pending)
    return measurement


def measure_single_env(
    env: Any, actions: Sequence[Any], seconds: float, seed: int = 0
) -> Measurement:
    """Time one env stepped in a plain loop (reset when an episode ends, resets not counted).

    This is the per-core reference: the physical bound of a vector runtime is this rate times
    the cores it can use.

    Args:
        env: a single environment (not closed here).
        actions: pre-generated actions, cycled.
        seconds: length of the timed run.
        seed: the first reset's seed.
    """
    _check_seconds(seconds)
    env.reset(seed=seed)
    count = len(actions)
    i = 0
    warm_deadline = time.perf_counter() + _warmup_s(seconds)
    while time.perf_counter() < warm_deadline or i < MIN_WARMUP_STEPS:
        _, _, terminated, truncated, _ = env.step(actions[i % count])
        i += 1
        if terminated or truncated:
            env.reset()
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        _, _, terminated, truncated, _ = env.step(actions[i % count])
        i += 1
        steps += 1
        if terminated or truncated:
            env.reset()
        now = time.perf_counter()
        if now >= deadline:
            return Measurement(steps, now - start, steps)


def pool_stepper(envs: Any) -> Stepper:
    """A vecgym :class:`~vecgym.vector.AsyncVectorEnv` collected EnvPool-style, as a stepper.

    Each ``step(batch)`` sends the envs of the last ``recv`` (every env, the first time) the
    first actions of ``batch`` (a batch of ``num_envs`` actions) and receives the next
    ``batch_size`` envs, so every env stays in flight. It returns the real env steps of the
    batch received (:data:`COUNT_SELF`): under ``NEXT_STEP``, an env whose previous batch ended
    its episode was only reset. ``reset`` and ``close`` first receive what is still in flight.

    Args:
        envs: the vector env, under the ``NEXT_STEP`` or ``SAME_STEP`` autoreset mode (any
            ``batch_size``).

    Raises:
        ValueError: the ``DISABLED`` autoreset mode.
    """
    mode = _autoreset_name(envs)
    if mode not in POOL_MODES:
        raise ValueError(POOL_DISABLED_MSG.format(mode=mode))
    counts_pending = mode == "NextStep"
    pending = np.zeros(envs.num_envs, dtype=bool)
    last: list[Any] = [None]  # the ids of the last recv; None: nothing in flight

    def reset(seed: int) -> None:
        _drain(envs)
        envs.reset(seed=seed)
        pending[:] = False
        last[0] = None

    def step(batch: Any) -> int:
        ids = last[0]
        if ids is None:
            envs.send(batch)
        else:
            envs.send(_first(batch, len(ids)), ids)
        _, _, terminated, truncated, _, ids = envs.recv()
        last[0] = ids
        if not counts_pending:
            return len(ids)
        stepped = len(ids) - int(np.count_nonzero(pending[ids]))
        pending[ids] = terminated | truncated
        return stepped

    def close() -> None:
        with contextlib.suppress(Exception):  # a broken or closed env: close it all the same
            _drain(envs)
        envs.close()

    return Stepper(
        envs.num_envs,
        reset,
        step,
        close,
        counting=COUNT_SELF,
        observation_shape=observation_shape(envs.single_observation_space),
    )


def measure_pool(envs: Any, actions: Sequence[Any], seconds: float, seed: int = 0) -> Measurement:
    """Time EnvPool-style collection (:func:`pool_stepper`): ``send`` the envs of the last
    batch, ``recv`` the next. Nothing is left in flight afterwards.

    Args:
        envs: a vecgym :class:`~vecgym.vector.AsyncVectorEnv` under the ``NEXT_STEP`` or
            ``SAME_STEP`` autoreset mode (not closed here).
        actions: pre-generated action batches of ``num_envs`` actions, cycled.
        seconds: length of the timed run.
        seed: the reset seed.
    """
    measurement = measure_stepper(pool_stepper(envs), actions, seconds, seed)
    _drain(envs)
    return measurement


def _drain(envs: Any) -> None:
    """Receive every env still in flight, so the env can be closed or reused cleanly."""
    from vecgym import error

    for _ in range(-(-envs.num_envs // envs.batch_size)):
        try:
            envs.recv()
        except error.NoAsyncCallError:
            return


def _first(batch: Any, n: int) -> Any:
    """The first ``n`` actions of a batch (arrays, or dicts / tuples of arrays)."""
    if isinstance(batch, dict):
        return {key: _first(value, n) for key, value in batch.items()}
    if isinstance(batch, tuple):
        return tuple(_first(value, n) for value in batch)
    return batch[:n]


def _autoreset_name(envs: Any) -> str:
    """The autoreset mode's value (``"NextStep"``, ...) of a vector env of any library."""
    mode = getattr(envs, "metadata", {}).get("autoreset_mode", "NextStep")
    return str(getattr(mode, "value", mode))
