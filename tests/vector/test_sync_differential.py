"""SyncVectorEnv against gymnasium.vector.SyncVectorEnv: same seeds and actions, same results."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.vector.helpers import assert_same_batch
from vecgym.vector import AutoresetMode, SyncVectorEnv

gymnasium = pytest.importorskip("gymnasium")

NUM_ENVS = 3


def _pair(env_id: str, mode: AutoresetMode, **kwargs: Any) -> tuple[Any, Any]:
    ours = SyncVectorEnv(
        [lambda: vecgym.make(env_id, **kwargs) for _ in range(NUM_ENVS)], autoreset_mode=mode
    )
    theirs = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(env_id, **kwargs) for _ in range(NUM_ENVS)],
        autoreset_mode=gymnasium.vector.AutoresetMode(mode.value),
    )
    return ours, theirs


def _actions(space: Any, steps: int) -> list[Any]:
    space.seed(123)
    return [space.sample() for _ in range(steps)]


@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize(
    ("env_id", "steps", "kwargs"),
    [("CartPole-v1", 150, {}), ("Pendulum-v1", 210, {"max_episode_steps": 30})],
)
def test_same_results_as_gymnasium(
    env_id: str, steps: int, kwargs: dict[str, Any], mode: AutoresetMode
) -> None:
    ours, theirs = _pair(env_id, mode, **kwargs)
    assert repr(ours.observation_space) == repr(theirs.observation_space)
    assert repr(ours.action_space) == repr(theirs.action_space)
    assert_same_batch(ours.reset(seed=[4, None, 6])[1], theirs.reset(seed=[4, None, 6])[1])
    obs, infos = ours.reset(seed=11)
    gym_obs, gym_infos = theirs.reset(seed=11)
    assert_same_batch((obs, infos), (gym_obs, gym_infos))
    ended = np.zeros(NUM_ENVS, dtype=bool)
    ends = 0
    for t, actions in enumerate(_actions(ours.action_space, steps)):
        if mode is AutoresetMode.DISABLED and ended.any():
            options = {"reset_mask": ended}
            result = ours.reset(options=options)
            gym_result = theirs.reset(options=dict(options))
            assert_same_batch(result, gym_result, f"reset before step {t}")
        elif t % 40 == 39:  # a manual partial reset, which also clears pending autoresets
            mask = np.array([True, False, True])
            assert_same_batch(
                ours.reset(seed=[t, None, t + 1], options={"reset_mask": mask}),
                theirs.reset(seed=[t, None, t + 1], options={"reset_mask": mask.copy()}),
                f"partial reset at {t}",
            )
        result = ours.step(actions)
        gym_result = theirs.step(actions)
        assert_same_batch(result, gym_result, f"step {t}")
        ended = result[2] | result[3]
        ends += int(ended.sum())
    assert ends > 0  # episodes did end, so autoreset was exercised
    ours.close()
    theirs.close()


def test_call_and_attributes_match_gymnasium() -> None:
    ours, theirs = _pair("CartPole-v1", AutoresetMode.NEXT_STEP)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    assert ours.np_random_seed == theirs.np_random_seed
    assert ours.get_attr("gravity") == theirs.get_attr("gravity")
    ours.set_attr("gravity", [1.0, 2.0, 3.0])
    theirs.set_attr("gravity", [1.0, 2.0, 3.0])
    assert ours.call("gravity") == theirs.call("gravity")
    assert ours.metadata == {**theirs.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
    ours.close()
    theirs.close()
