"""Real environments of Gymnasium's registry through every vecgym runtime, against Gymnasium's
``SyncVectorEnv``: observations, rewards, flags and infos (keys, order, dtypes, masks, values),
step for step, in every autoreset mode.

The envs return numeric infos on every step (MuJoCo's ``x_position`` / ``reward_ctrl`` ...,
Atari's ``lives`` / ``frame_number``), so the async runtimes carry them through the shared
slots; each env gets its own time limit, so episodes end on different steps (Hopper also
terminates on its own), and SAME_STEP's ``final_obs`` / ``final_info`` and DISABLED's masked
resets meet envs that did not end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from tests.vector.helpers import assert_same_batch
from vecgym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

gymnasium = pytest.importorskip("gymnasium")

#: Time limits, one per env in turn: short and different, so that episodes end out of step.
LIMITS = [5, 9, 7, 12]
NUM_ENVS = 4
STEPS = 30

#: How each vecgym runtime is built from the env functions and the autoreset mode.
RUNTIMES: dict[str, Callable[[list[Callable[[], Any]], AutoresetMode], Any]] = {
    "sync": lambda fns, mode: SyncVectorEnv(fns, autoreset_mode=mode),
    "async, two workers": lambda fns, mode: AsyncVectorEnv(fns, autoreset_mode=mode, num_workers=2),
    "async, parent slice": lambda fns, mode: AsyncVectorEnv(
        fns, autoreset_mode=mode, num_workers=1, parent_envs=2
    ),
}


def _env_fns(env_id: str) -> list[Callable[[], Any]]:
    def make(limit: int) -> Callable[[], Any]:
        return lambda: gymnasium.make(env_id, max_episode_steps=limit)

    return [make(LIMITS[i % len(LIMITS)]) for i in range(NUM_ENVS)]


def _registered(env_id: str) -> str:
    """``env_id``, after skipping unless its package is installed (and registering ALE's)."""
    if env_id.startswith("ALE/"):
        ale_py = pytest.importorskip("ale_py")
        gymnasium.register_envs(ale_py)
    else:
        pytest.importorskip("mujoco")
    return env_id


@pytest.mark.parametrize("runtime", list(RUNTIMES))
@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("env_id", ["Hopper-v5", "ALE/Pong-v5"])
def test_registry_envs_step_like_gymnasium_sync(
    env_id: str, mode: AutoresetMode, runtime: str
) -> None:
    fns = _env_fns(_registered(env_id))
    theirs = gymnasium.vector.SyncVectorEnv(
        fns, autoreset_mode=gymnasium.vector.AutoresetMode(mode.value)
    )
    ours = RUNTIMES[runtime](fns, mode)
    try:
        assert_same_batch(ours.reset(seed=11), theirs.reset(seed=11), "reset")
        theirs.action_space.seed(5)
        ended = np.zeros(NUM_ENVS, dtype=np.bool_)
        seen: set[str] = set()
        for t in range(STEPS):
            if mode is AutoresetMode.DISABLED and ended.any():
                mask = ended.copy()
                assert_same_batch(
                    ours.reset(options={"reset_mask": mask}),
                    theirs.reset(options={"reset_mask": mask.copy()}),
                    f"reset {t}",
                )
            actions = theirs.action_space.sample()
            result = ours.step(actions)
            assert_same_batch(result, theirs.step(actions), f"step {t}")
            ended = result[2] | result[3]
            if ended.any() and not ended.all():
                seen.add("some envs ended")
            seen.update(key for key in ("final_info", "lives", "x_position") if key in result[4])
        if isinstance(ours, AsyncVectorEnv):  # the infos came through the shared slots
            registry = ours._info_registry
            assert registry is not None
            assert registry.layout.schemas
    finally:
        ours.close()
        theirs.close()
    assert "some envs ended" in seen
    assert ("lives" if env_id.startswith("ALE/") else "x_position") in seen
    if mode is AutoresetMode.SAME_STEP:
        assert "final_info" in seen
