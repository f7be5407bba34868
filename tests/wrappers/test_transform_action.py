"""TransformAction, ClipAction, RescaleAction and DiscretizeAction."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.generic_env import GenericTestEnv
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.spaces import Box, Discrete, MultiDiscrete
from vecgym.core.spaces.box import BOUND_PRECISION_MSG
from vecgym.wrappers.transform_action import (
    ACTION_SPACE_TYPE_MSG,
    DISCRETIZE_BINS_TYPE_MSG,
    DISCRETIZE_BINS_VALUE_MSG,
    DISCRETIZE_INFINITE_MSG,
    FUNC_NOT_CALLABLE_MSG,
    RESCALE_BOUND_TYPE_MSG,
    RESCALE_ORDER_MSG,
    ClipAction,
    DiscretizeAction,
    RescaleAction,
    TransformAction,
)
from vecgym.wrappers.utils import REQUIRES_BOX_MSG


def recording_env(action_space: Any) -> tuple[GenericTestEnv, list[Any]]:
    """A GenericTestEnv that records every action it is stepped with."""
    seen: list[Any] = []

    def step(self: GenericTestEnv, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        seen.append(action)
        return self.observation_space.sample(), 0.0, False, False, {}

    return GenericTestEnv(action_space=action_space, step_func=step), seen


def run_actions(env: Any, actions: list[Any], seed: int = 7) -> list[Any]:
    obs, _ = env.reset(seed=seed)
    out = [obs]
    for action in actions:
        out.append(env.step(action)[0])
    return out


def assert_same_trajectory(a: list[Any], b: list[Any]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


# --- TransformAction ------------------------------------------------------------------------------
def test_transform_action_applies_func_and_keeps_space() -> None:
    env, seen = recording_env(Box(-1.0, 1.0, (2,)))
    wrapped = TransformAction(env, lambda a: a * 2, None)
    assert wrapped.action_space is env.action_space
    wrapped.reset(seed=0)
    wrapped.step(np.array([0.25, -0.5]))
    np.testing.assert_array_equal(seen[0], [0.5, -1.0])


def test_transform_action_sets_new_space() -> None:
    env, seen = recording_env(Box(-1.0, 1.0, (1,)))
    wrapped = TransformAction(env, lambda a: np.array([a - 1.0]), Discrete(3))
    assert wrapped.action_space == Discrete(3)
    assert env.action_space == Box(-1.0, 1.0, (1,))
    wrapped.reset(seed=0)
    wrapped.step(2)  # type: ignore[arg-type]
    np.testing.assert_array_equal(seen[0], [1.0])


def test_transform_action_bad_arguments() -> None:
    env, _ = recording_env(Box(-1.0, 1.0, (1,)))
    with pytest.raises(TypeError, match=message_pattern(FUNC_NOT_CALLABLE_MSG)):
        TransformAction(env, 3, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message_pattern(ACTION_SPACE_TYPE_MSG)):
        TransformAction(env, lambda a: a, "Box")  # type: ignore[arg-type]


def test_transform_action_spec_round_trip() -> None:
    env = TransformAction(
        vecgym.make("MountainCarContinuous-v0"), lambda a: 0.5 * a + 0.1, Box(-1.0, 1.0, (1,))
    )
    assert env.spec is not None
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, TransformAction)
    assert rebuilt.action_space == env.action_space
    actions = [np.array([v], dtype=np.float32) for v in (-1.0, 0.3, 1.0)]
    assert_same_trajectory(run_actions(env, actions), run_actions(rebuilt, actions))


# --- ClipAction -----------------------------------------------------------------------------------
def test_clip_action_space_and_clipping() -> None:
    env, seen = recording_env(Box(np.array([-1.0, 0.0]), np.array([1.0, 2.0]), dtype=np.float64))
    wrapped = ClipAction(env)
    assert wrapped.action_space == Box(-np.inf, np.inf, (2,), np.float64)
    wrapped.reset(seed=0)
    wrapped.step(np.array([5.0, -3.0]))
    np.testing.assert_array_equal(seen[0], [1.0, 0.0])
    assert wrapped.spec is not None
    assert wrapped.spec.additional_wrappers[-1].kwargs == {}


def test_clip_action_requires_box() -> None:
    with pytest.raises(
        TypeError, match=message_pattern(REQUIRES_BOX_MSG, wrapper="ClipAction", kind="action")
    ):
        ClipAction(vecgym.make("CartPole-v1"))


def test_clip_action_matches_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import ClipAction as GymClipAction

    actions = [np.array([v], dtype=np.float32) for v in (3.0, -5.0, 0.5, 2.0, -0.1)]
    ours = run_actions(ClipAction(vecgym.make("MountainCarContinuous-v0")), actions)
    theirs = run_actions(GymClipAction(gymnasium.make("MountainCarContinuous-v0")), actions)
    assert_same_trajectory(ours, theirs)


def test_clip_action_spec_round_trip() -> None:
    env = ClipAction(vecgym.make("Pendulum-v1"))
    assert env.spec is not None
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, ClipAction)
    actions = [np.array([v], dtype=np.float32) for v in (9.0, -9.0)]
    assert_same_trajectory(run_actions(env, actions), run_actions(rebuilt, actions))


# --- RescaleAction --------------------------------------------------------------------------------
def test_rescale_action_maps_bounds() -> None:
    env, seen = recording_env(Box(-2.0, 2.0, (2,)))
    wrapped = RescaleAction(env, min_action=0, max_action=np.array([1.0, 4.0], dtype=np.float32))
    assert wrapped.action_space == Box(0, np.array([1.0, 4.0], dtype=np.float32), dtype=np.float32)
    wrapped.reset(seed=0)
    wrapped.step(np.array([0.0, 4.0], dtype=np.float32))
    wrapped.step(np.array([0.5, 1.0], dtype=np.float32))
    np.testing.assert_allclose(seen[0], [-2.0, 2.0])
    np.testing.assert_allclose(seen[1], [0.0, -1.0])


@pytest.mark.parametrize(
    ("low", "high"),
    [(0, 1), (np.float32(-0.5), np.array([0.0, 0.5, 0.75], dtype=np.float32)), (-3, 7)],
)
def test_rescale_action_matches_gymnasium(low: Any, high: Any) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.spaces import Box as GymBox
    from gymnasium.wrappers import RescaleAction as GymRescaleAction

    from tests.support.generic_env import GenericTestEnv as Ours

    space_args = (
        np.array([-1.0, 0.0, -2.0], dtype=np.float32),
        np.array([1.0, 3.0, 2.0], dtype=np.float32),
    )
    ours, seen = recording_env(Box(*space_args, dtype=np.float32))
    ours_wrapped: Any = RescaleAction(ours, low, high)

    import gymnasium

    gym_seen: list[Any] = []

    class GymEnv(gymnasium.Env):
        action_space = GymBox(*space_args, dtype=np.float32)
        observation_space = GymBox(0, 1, (1,))

        def step(self, action: Any) -> Any:
            gym_seen.append(action)
            return np.zeros(1, dtype=np.float32), 0.0, False, False, {}

        def reset(self, *, seed: Any = None, options: Any = None) -> Any:
            return np.zeros(1, dtype=np.float32), {}

    theirs_wrapped: Any = GymRescaleAction(GymEnv(), low, high)
    assert ours_wrapped.action_space.low.tolist() == theirs_wrapped.action_space.low.tolist()
    assert ours_wrapped.action_space.high.tolist() == theirs_wrapped.action_space.high.tolist()
    rng = np.random.default_rng(3)
    for _ in range(10):
        action = rng.uniform(ours_wrapped.action_space.low, ours_wrapped.action_space.high).astype(
            np.float32
        )
        ours_wrapped.step(action)
        theirs_wrapped.step(action)
    for x, y in zip(seen, gym_seen, strict=True):
        assert x.dtype == y.dtype
        np.testing.assert_array_equal(x, y)
    assert Ours is GenericTestEnv


def test_rescale_action_float_bounds_warn_like_gymnasium() -> None:
    # Gymnasium 1.4 builds the new Box from float64 bounds and so warns about the cast; same here.
    env, _ = recording_env(Box(-1.0, 1.0, (2,)))
    with pytest.warns(UserWarning, match=message_pattern(BOUND_PRECISION_MSG)):
        RescaleAction(env, 0.0, 1.0)


def test_rescale_action_spec_round_trip() -> None:
    env = RescaleAction(vecgym.make("Pendulum-v1"), min_action=-1, max_action=1)
    assert env.spec is not None
    assert env.spec.additional_wrappers[-1].kwargs == {"min_action": -1, "max_action": 1}
    assert env.spec is not None
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, RescaleAction)
    actions = [np.array([v], dtype=np.float32) for v in (1.0, -0.25)]
    assert_same_trajectory(run_actions(env, actions), run_actions(rebuilt, actions))


def test_rescale_action_errors() -> None:
    box_env, _ = recording_env(Box(-1.0, 1.0, (2,)))
    with pytest.raises(
        TypeError, match=message_pattern(REQUIRES_BOX_MSG, wrapper="RescaleAction", kind="action")
    ):
        RescaleAction(vecgym.make("CartPole-v1"), 0, 1)
    with pytest.raises(error.InvalidBound, match=message_pattern(RESCALE_ORDER_MSG)):
        RescaleAction(box_env, 1.0, 0.0)
    with pytest.raises(error.InvalidBound, match=message_pattern(RESCALE_ORDER_MSG)):
        RescaleAction(box_env, 1, 1)
    with pytest.raises(
        ValueError, match=message_pattern(RESCALE_ORDER_MSG)
    ):  # InvalidBound is a ValueError
        RescaleAction(box_env, np.array([0.0, 1.0]), np.array([1.0, 1.0]))
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        RescaleAction(box_env, np.zeros(3), 1.0)
    with pytest.raises(TypeError, match=message_pattern(RESCALE_BOUND_TYPE_MSG)):
        RescaleAction(box_env, "0", 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message_pattern(RESCALE_BOUND_TYPE_MSG)):
        RescaleAction(box_env, [0.0, 0.0], 1.0)  # type: ignore[arg-type]


# --- DiscretizeAction -----------------------------------------------------------------------------
def test_discretize_action_spaces() -> None:
    env, _ = recording_env(Box(-1.0, 1.0, (2,)))
    assert DiscretizeAction(env, bins=4).action_space == Discrete(16)
    assert DiscretizeAction(env, bins=(3, 5)).action_space == Discrete(15)
    assert DiscretizeAction(env, bins=(3, 5), multidiscrete=True).action_space == MultiDiscrete(
        [3, 5]
    )
    assert DiscretizeAction(env, bins=1).action_space == Discrete(1)


def test_discretize_action_bin_centres_and_clamping() -> None:
    env, seen = recording_env(
        Box(np.array([-1.0, 0.0], np.float32), np.array([1.0, 3.0], np.float32), dtype=np.float32)
    )
    wrapped = DiscretizeAction(env, bins=(2, 3))
    wrapped.reset(seed=0)
    wrapped.step(0)
    wrapped.step(5)
    np.testing.assert_allclose(seen[0], [-0.5, 0.5])
    np.testing.assert_allclose(seen[1], [0.5, 2.5])
    assert seen[0].dtype == np.float32
    multi = DiscretizeAction(env, bins=(2, 3), multidiscrete=True)
    np.testing.assert_allclose(multi.action(np.array([9, -4])), [0.5, 0.5])
    assert wrapped.revert_action(np.array([0.4, 1.4])) == 4
    np.testing.assert_array_equal(multi.revert_action(np.array([0.4, 1.4])), [1, 1])


@pytest.mark.parametrize("multidiscrete", [False, True])
def test_discretize_action_matches_gymnasium(multidiscrete: bool) -> None:
    pytest.importorskip("gymnasium")
    import gymnasium
    from gymnasium.spaces import Box as GymBox
    from gymnasium.wrappers import DiscretizeAction as GymDiscretizeAction

    low = np.array([[-1.0, 0.1], [-2.0, -0.3]], dtype=np.float32)
    high = np.array([[1.0, 0.7], [3.0, 0.9]], dtype=np.float32)

    class GymEnv(gymnasium.Env):
        action_space = GymBox(low, high, dtype=np.float32)
        observation_space = GymBox(0, 1, (1,))

    env, _ = recording_env(Box(low, high, dtype=np.float32))
    bins = (3, 2, 5, 4)
    ours = DiscretizeAction(env, bins=bins, multidiscrete=multidiscrete)
    theirs = GymDiscretizeAction(GymEnv(), bins=bins, multidiscrete=multidiscrete)
    if multidiscrete:
        indices: list[Any] = [np.array(i) for i in np.ndindex(*bins)]
    else:
        indices = list(range(int(np.prod(bins))))
    for index in indices:
        a, b = ours.action(act=index), theirs.action(act=index)  # Gymnasium's argument name
        assert a.dtype == b.dtype
        assert a.shape == b.shape == (2, 2)
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(ours.revert_action(a), theirs.revert_action(b))


def test_discretize_action_matches_gymnasium_on_pendulum() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.wrappers import DiscretizeAction as GymDiscretizeAction

    actions = [3, 0, 9, 5, 7]
    ours = run_actions(DiscretizeAction(vecgym.make("Pendulum-v1"), bins=10), actions)
    theirs = run_actions(GymDiscretizeAction(gymnasium.make("Pendulum-v1"), bins=10), actions)
    assert_same_trajectory(ours, theirs)


def test_discretize_action_spec_round_trip() -> None:
    env = DiscretizeAction(vecgym.make("Pendulum-v1"), bins=(7,), multidiscrete=True)
    assert env.spec is not None
    rebuilt = vecgym.make(env.spec)
    assert isinstance(rebuilt, DiscretizeAction)
    assert rebuilt.action_space == MultiDiscrete([7])
    actions = [np.array([i]) for i in (0, 6, 3)]
    assert_same_trajectory(run_actions(env, actions), run_actions(rebuilt, actions))


def test_discretize_action_errors() -> None:
    env, _ = recording_env(Box(-1.0, 1.0, (2,)))
    with pytest.raises(
        TypeError,
        match=message_pattern(REQUIRES_BOX_MSG, wrapper="DiscretizeAction", kind="action"),
    ):
        DiscretizeAction(vecgym.make("CartPole-v1"), bins=3)
    with pytest.raises(ValueError, match=message_pattern(DISCRETIZE_INFINITE_MSG)):
        DiscretizeAction(recording_env(Box(-np.inf, 1.0, (1,)))[0], bins=3)
    with pytest.raises(ValueError, match="expected 2, got 3"):
        DiscretizeAction(env, bins=(2, 2, 2))
    with pytest.raises(ValueError, match=message_pattern(DISCRETIZE_BINS_VALUE_MSG)):
        DiscretizeAction(env, bins=0)
    with pytest.raises(ValueError, match=message_pattern(DISCRETIZE_BINS_VALUE_MSG)):
        DiscretizeAction(env, bins=(3, -1))
    with pytest.raises(TypeError, match=message_pattern(DISCRETIZE_BINS_TYPE_MSG)):
        DiscretizeAction(env, bins=2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=message_pattern(DISCRETIZE_BINS_TYPE_MSG)):
        DiscretizeAction(env, bins=True)
