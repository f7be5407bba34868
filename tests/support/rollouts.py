"""Seeded rollouts of a vecgym env and its Gymnasium counterpart, and their comparison.

Both sides are driven the same way (``action_space.seed(seed)``, ``reset(seed=seed)``, sampled
actions), so for equal envs the recorded results are equal step for step.
"""

from __future__ import annotations

from typing import Any

from vecgym.utils.env_checker import data_equivalence

__all__ = ["assert_same_rollouts", "rollout", "vector_rollout", "without_wall_time"]


def rollout(env: Any, seed: int, steps: int) -> list[Any]:
    """Reset with ``seed``, then step ``steps`` seeded random actions (resetting on episode end);
    every result, in order. The env is closed."""
    env.action_space.seed(seed)
    record: list[Any] = [env.reset(seed=seed)]
    for _ in range(steps):
        result = env.step(env.action_space.sample())
        record.append(result)
        if result[2] or result[3]:
            record.append(env.reset())
    env.close()
    return record


def vector_rollout(envs: Any, seed: int, steps: int) -> list[Any]:
    """Reset the vector env with ``seed``, then step ``steps`` seeded random batched actions;
    every result, in order. The vector env is closed."""
    envs.action_space.seed(seed)
    record: list[Any] = [envs.reset(seed=seed)]
    record += [envs.step(envs.action_space.sample()) for _ in range(steps)]
    envs.close()
    return record


def without_wall_time(result: Any) -> Any:
    """``result`` without RecordEpisodeStatistics' episode wall-clock times (never equal)."""
    info = result[-1]
    if "episode" in info:
        info["episode"] = {k: v for k, v in info["episode"].items() if k not in ("t", "_t")}
    return result


def assert_same_rollouts(
    ours: list[Any], theirs: list[Any], *, ignore_wall_time: bool = False
) -> None:
    """The two records have the same length and equal results, step for step (episode wall
    times left out with ``ignore_wall_time``)."""
    assert len(ours) == len(theirs)
    for mine, ref in zip(ours, theirs, strict=True):
        if ignore_wall_time:
            mine, ref = without_wall_time(mine), without_wall_time(ref)
        assert data_equivalence(mine, ref)
