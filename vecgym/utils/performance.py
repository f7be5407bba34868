"""Rough throughput benchmarks for environments, for chasing performance regressions.

Each benchmark repeats an operation until ``target_duration`` seconds have passed (finishing the
operation under way, so it runs slightly over) and returns operations per second. The clock is
read through this module's own ``time`` attribute, once before the loop and once after every
operation, with :func:`time.time` as Gymnasium does; tests may therefore replace
``vecgym.utils.performance.time.time`` (or the ``time`` attribute itself) with a fake clock.

Example:
    >>> import vecgym
    >>> from vecgym.utils.performance import benchmark_step
    >>> env = vecgym.make("CartPole-v1")  # doctest: +SKIP
    >>> steps_per_second = benchmark_step(env, target_duration=1, seed=0)  # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover - typing only
    from vecgym.core.env import Env
    from vecgym.vector.vector_env import VectorEnv

__all__ = ["benchmark_init", "benchmark_render", "benchmark_step", "benchmark_vector_step"]

# The values of ``vecgym.vector.AutoresetMode.NEXT_STEP`` and ``.DISABLED`` (and Gymnasium's).
_NEXT_STEP = "NextStep"
_DISABLED = "Disabled"


def benchmark_step(env: Env[Any, Any], target_duration: int = 5, seed: int | None = None) -> float:
    """Measure how many ``step`` calls per second an environment sustains with random actions.

    The environment is reset with ``seed`` before the clock starts and again (unseeded) whenever
    an episode ends; those resets count towards the elapsed time but not as steps.

    Args:
        env: the environment to benchmark.
        target_duration: how long to run, in seconds (the last step may run over).
        seed: seeds the first reset and, when not ``None``, the action space as well.

    Returns:
        The average number of steps per second.

    Example:
        >>> throughput_old = benchmark_step(old_env)  # doctest: +SKIP
        >>> throughput_new = benchmark_step(new_env)  # doctest: +SKIP
        >>> slowdown = throughput_old / throughput_new  # doctest: +SKIP
    """
    env.reset(seed=seed)
    if seed is not None:
        env.action_space.seed(seed)
    env.action_space.sample()  # warm up the sampler outside the timed loop

    steps = 0
    start = time.time()
    while True:
        steps += 1
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
        end = time.time()
        if end - start > target_duration:
            return steps / (end - start)


def _autoreset_mode(env: VectorEnv[Any, Any, Any]) -> str:
    """The value of the vector environment's autoreset mode (``"NextStep"`` when unset).

    The mode is compared by its value (``AutoresetMode.NEXT_STEP.value == "NextStep"``), so this
    module, in the layer below :mod:`vecgym.vector`, never imports it; a plain string in the
    metadata (as some third-party vector environments use) is read the same way.
    """
    mode = env.metadata.get("autoreset_mode", _NEXT_STEP)
    return str(getattr(mode, "value", mode))


def benchmark_vector_step(
    env: VectorEnv[Any, Any, Any], target_duration: int = 5, seed: int | None = None
) -> float:
    """Measure how many sub-environment steps per second a vector environment sustains.

    Before the clock starts the action space is seeded, the environment reset, stepped once (to
    get lazy initialisation such as compilation out of the way) and reset again. Steps are
    counted honestly for the environment's autoreset mode: under ``NEXT_STEP`` a sub-environment
    that ended its episode on the previous step spends the next one resetting, which is not
    counted; under ``DISABLED`` finished sub-environments are reset through
    ``options={"reset_mask": ...}``.

    Args:
        env: the vector environment to benchmark.
        target_duration: how long to run, in seconds (the last step may run over).
        seed: seeds the action space and the resets.

    Returns:
        The average number of sub-environment steps per second.
    """
    env.action_space.seed(seed)
    env.reset(seed=seed)
    env.step(env.action_space.sample())
    env.reset(seed=seed)

    mode = _autoreset_mode(env)
    previous_done = np.zeros(env.num_envs, dtype=np.bool_)
    steps = 0
    start = time.time()
    while True:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        done = np.logical_or(terminated, truncated)
        if mode == _NEXT_STEP:
            steps += env.num_envs - int(np.count_nonzero(previous_done))
            previous_done = done
        else:
            steps += env.num_envs
        if mode == _DISABLED and np.any(done):
            env.reset(options={"reset_mask": done})
        end = time.time()
        if end - start > target_duration:
            return steps / (end - start)


def benchmark_init(
    env_lambda: Callable[[], Env[Any, Any]],
    target_duration: int = 5,
    seed: int | None = None,
) -> float:
    """Measure how many environments per second can be created and reset for the first time.

    Args:
        env_lambda: builds a new environment on each call.
        target_duration: how long to run, in seconds (the last creation may run over).
        seed: the seed of each first reset.

    Returns:
        The average number of creations (each with its first reset) per second.
    """
    inits = 0
    start = time.time()
    while True:
        inits += 1
        env = env_lambda()
        env.reset(seed=seed)
        end = time.time()
        if end - start > target_duration:
            return inits / (end - start)


def benchmark_render(env: Env[Any, Any], target_duration: int = 5) -> float:
    """Measure how many ``render`` calls per second an environment sustains.

    Not meaningful for ``render_mode="human"``, which paces itself to the display rate.

    Args:
        env: the environment to benchmark, created with a render mode and already reset.
        target_duration: how long to run, in seconds (the last render may run over).

    Returns:
        The average number of renders per second.
    """
    renders = 0
    start = time.time()
    while True:
        renders += 1
        env.render()
        end = time.time()
        if end - start > target_duration:
            return renders / (end - start)
