"""SyncVectorEnv's contract: seeding, partial resets, autoreset, copies, attributes, closing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.counting_env import CountingEnv
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.spaces import Box, Discrete, Text
from vecgym.vector import AutoresetMode, SyncVectorEnv
from vecgym.vector.sync_vector_env import (
    ACTION_SPACE_MSG,
    CLOSED_MSG,
    DIFFERENT_SPACE_MSG,
    OBS_MODE_MSG,
    OBS_MODE_SPACES_MSG,
    RESET_MASK_DTYPE_MSG,
    RESET_MASK_EMPTY_MSG,
    RESET_MASK_SHAPE_MSG,
    RESET_MASK_TYPE_MSG,
    SAME_SPACE_MSG,
    SEED_LENGTH_MSG,
    SET_ATTR_LENGTH_MSG,
)


def make_envs(num_envs: int = 3, **kwargs: Any) -> SyncVectorEnv:
    env_kwargs = kwargs.pop("env_kwargs", {})
    return SyncVectorEnv([lambda: CountingEnv(**env_kwargs) for _ in range(num_envs)], **kwargs)


@pytest.fixture
def envs() -> Any:
    vector_env = make_envs()
    yield vector_env
    vector_env.close()


def test_attributes(envs: SyncVectorEnv) -> None:
    assert envs.num_envs == 3
    assert envs.single_observation_space == Box(0, 1000, shape=(1,), dtype=np.float32)
    assert envs.observation_space == Box(0, 1000, shape=(3, 1), dtype=np.float32)
    assert envs.single_action_space == Discrete(3)
    assert repr(envs.action_space) == "MultiDiscrete([3 3 3])"
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert "autoreset_mode" not in CountingEnv.metadata
    assert envs.render_mode is None
    assert envs.spec is None
    assert repr(envs) == "SyncVectorEnv(num_envs=3)"
    assert envs.autoreset_mode is AutoresetMode.NEXT_STEP


def test_autoreset_mode_from_string() -> None:
    envs = make_envs(autoreset_mode="SameStep")
    assert envs.autoreset_mode is AutoresetMode.SAME_STEP
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    envs.close()
    with pytest.raises(ValueError, match="AutoresetMode"):
        make_envs(autoreset_mode="Sometimes")


def test_no_envs() -> None:
    with pytest.raises(error.NoEnvironments, match="at least one") as info:
        SyncVectorEnv([])
    assert isinstance(info.value, (ValueError, IndexError))  # IndexError: what Gymnasium raises


@pytest.mark.parametrize(
    ("seed", "expected"),
    [(7, (7, 8, 9)), ([3, 1, 4], (3, 1, 4)), (np.int64(2), (2, 3, 4)), ((5, 6, 7), (5, 6, 7))],
)
def test_reset_seeds(envs: SyncVectorEnv, seed: Any, expected: tuple[int, ...]) -> None:
    envs.reset(seed=seed)
    assert envs.np_random_seed == expected
    assert len(envs.np_random) == 3
    assert all(isinstance(rng, np.random.Generator) for rng in envs.np_random)


def test_reset_seed_none_and_mixed(envs: SyncVectorEnv) -> None:
    envs.reset(seed=[None, 5, None])
    seeds = envs.np_random_seed
    assert seeds[1] == 5
    envs.reset()  # seed=None keeps each env's generator, as Env.reset does
    assert envs.np_random_seed == seeds


@pytest.mark.parametrize("seed", [[1, 2], [1, 2, 3, 4]])
def test_reset_seed_length(envs: SyncVectorEnv, seed: list[int]) -> None:
    with pytest.raises(ValueError, match=message_pattern(SEED_LENGTH_MSG, 3, len(seed))):
        envs.reset(seed=seed)


@pytest.mark.parametrize("seed", ["abc", 1.5, True])
def test_reset_seed_type(envs: SyncVectorEnv, seed: Any) -> None:
    with pytest.raises(TypeError, match="seed"):
        envs.reset(seed=seed)


def test_reset_mask_partial_reset() -> None:
    envs = make_envs(env_kwargs={"terminate_at": None, "info_every": 1})
    envs.reset(seed=0)
    for _ in range(3):
        envs.step(np.array([1, 1, 1]))
    mask = np.array([True, False, True])
    options = {"reset_mask": mask, "start": 10}
    obs, infos = envs.reset(seed=[1, None, 2], options=options)
    np.testing.assert_array_equal(obs, [[10.0], [3.0], [10.0]])
    assert options == {"reset_mask": mask, "start": 10}  # the caller's dict is untouched
    assert envs.get_attr("last_options") == ({"start": 10}, None, {"start": 10})
    assert envs.get_attr("reset_count") == (2, 1, 2)
    np.testing.assert_array_equal(infos["count"], [10, 0, 10])
    np.testing.assert_array_equal(infos["_count"], [True, False, True])
    assert envs.np_random_seed[0] == 1
    assert envs.np_random_seed[2] == 2
    envs.close()


def test_options_without_mask_passed_through(envs: SyncVectorEnv) -> None:
    options = {"start": 4}
    obs, _ = envs.reset(options=options)
    np.testing.assert_array_equal(obs, [[4.0]] * 3)
    assert envs.get_attr("last_options") == (options,) * 3
    assert options == {"start": 4}


@pytest.mark.parametrize(
    ("mask", "exc", "match"),
    [
        ([True, False, True], TypeError, message_pattern(RESET_MASK_TYPE_MSG)),
        (np.array([True, False]), ValueError, message_pattern(RESET_MASK_SHAPE_MSG, 3, (2,))),
        (np.array([[True, False, True]]), ValueError, message_pattern(RESET_MASK_SHAPE_MSG, 3)),
        (np.array([1, 0, 1]), TypeError, message_pattern(RESET_MASK_DTYPE_MSG)),
        (np.zeros(3, dtype=bool), ValueError, message_pattern(RESET_MASK_EMPTY_MSG)),
    ],
)
def test_reset_mask_errors(envs: SyncVectorEnv, mask: Any, exc: type, match: str) -> None:
    envs.reset(seed=0)
    with pytest.raises(exc, match=match):
        envs.reset(options={"reset_mask": mask})


def test_step_results_and_infos() -> None:
    envs = make_envs(env_kwargs={"terminate_at": 3, "info_every": 2})
    obs, infos = envs.reset(seed=0)
    np.testing.assert_array_equal(obs, np.zeros((3, 1)))
    assert list(infos) == ["count", "_count"]
    obs, rewards, terminations, truncations, infos = envs.step(np.array([0, 1, 2]))
    np.testing.assert_array_equal(obs, [[1.0]] * 3)
    np.testing.assert_array_equal(rewards, [0.0, 1.0, 2.0])
    assert rewards.dtype == np.float64
    assert terminations.dtype == np.bool_
    assert truncations.dtype == np.bool_
    assert infos == {}  # no env had an info this step
    _, _, _, _, infos = envs.step(np.array([0, 1, 2]))
    np.testing.assert_array_equal(infos["count"], [2, 2, 2])
    envs.close()


def test_next_step_autoreset() -> None:
    envs = make_envs(env_kwargs={"terminate_at": 2, "info_every": 0})
    envs.reset(seed=0)
    envs.step(np.array([1, 1, 1]))
    envs.reset(options={"reset_mask": np.array([False, True, False])})
    obs, rewards, terminations, _, _ = envs.step(np.array([1, 1, 1]))
    np.testing.assert_array_equal(obs, [[2.0], [1.0], [2.0]])
    np.testing.assert_array_equal(terminations, [True, False, True])
    obs, rewards, terminations, _, _ = envs.step(np.array([2, 2, 2]))
    np.testing.assert_array_equal(obs, [[0.0], [2.0], [0.0]])
    np.testing.assert_array_equal(rewards, [0.0, 2.0, 0.0])
    np.testing.assert_array_equal(terminations, [False, True, False])
    envs.close()


def test_manual_reset_clears_pending_autoreset() -> None:
    envs = make_envs(env_kwargs={"terminate_at": 1, "info_every": 0})
    envs.reset(seed=0)
    envs.step(np.array([1, 1, 1]))  # every env ends: autoreset pending
    envs.reset(options={"reset_mask": np.array([True, False, False]), "start": 5})
    obs, rewards, terminations, _, _ = envs.step(np.array([1, 1, 1]))
    np.testing.assert_array_equal(obs, [[6.0], [0.0], [0.0]])  # env 0 steps, 1 and 2 autoreset
    np.testing.assert_array_equal(rewards, [1.0, 0.0, 0.0])
    np.testing.assert_array_equal(terminations, [True, False, False])
    envs.close()


def test_same_step_autoreset() -> None:
    envs = make_envs(autoreset_mode=AutoresetMode.SAME_STEP, env_kwargs={"terminate_at": 2})
    envs.reset(seed=0)
    envs.reset(options={"reset_mask": np.array([False, True, False]), "start": 1})
    obs, rewards, terminations, _, infos = envs.step(np.array([1, 2, 1]))
    np.testing.assert_array_equal(obs, [[1.0], [0.0], [1.0]])
    np.testing.assert_array_equal(terminations, [False, True, False])
    np.testing.assert_array_equal(rewards, [1.0, 2.0, 1.0])
    assert list(infos) == [
        "final_obs",
        "_final_obs",
        "final_info",
        "_final_info",
        "count",
        "_count",
    ]
    np.testing.assert_array_equal(infos["_final_obs"], [False, True, False])
    np.testing.assert_array_equal(infos["final_obs"][1], [2.0])
    assert infos["final_obs"][0] is None
    np.testing.assert_array_equal(infos["final_info"]["count"], [0, 2, 0])
    np.testing.assert_array_equal(infos["count"], [0, 0, 0])  # the reset info of env 1
    np.testing.assert_array_equal(infos["_count"], [False, True, False])
    final = infos["final_obs"][1]
    envs.step(np.array([1, 1, 1]))
    np.testing.assert_array_equal(final, [2.0])  # a copy, not the env's reused array
    envs.close()


def test_disabled_autoreset() -> None:
    envs = make_envs(autoreset_mode=AutoresetMode.DISABLED, env_kwargs={"terminate_at": 1})
    envs.reset(seed=0)
    _, _, terminations, _, _ = envs.step(np.array([1, 1, 1]))
    assert terminations.all()
    envs.reset(options={"reset_mask": np.array([True, True, False])})
    with pytest.raises(error.ResetNeeded, match="sub-environment 2"):
        envs.step(np.array([1, 1, 1]))
    assert envs.get_attr("count") == (0, 0, 1)  # nothing stepped
    envs.reset(options={"reset_mask": np.array([False, False, True])})
    obs, *_ = envs.step(np.array([1, 1, 1]))
    np.testing.assert_array_equal(obs, [[1.0]] * 3)
    envs.close()


def test_wrong_number_of_actions(envs: SyncVectorEnv) -> None:
    envs.reset()
    with pytest.raises(ValueError, match="batch of 3 actions"):
        envs.step(np.array([1, 1]))


def test_copy_true_returns_independent_arrays(envs: SyncVectorEnv) -> None:
    obs0, _ = envs.reset(seed=0)
    obs1, *_ = envs.step(np.array([1, 1, 1]))
    assert obs1 is not obs0
    np.testing.assert_array_equal(obs0, np.zeros((3, 1)))
    obs1[:] = 99
    obs2, *_ = envs.step(np.array([1, 1, 1]))
    np.testing.assert_array_equal(obs2, [[2.0]] * 3)


def test_copy_false_aliases_the_buffer() -> None:
    envs = make_envs(copy=False, env_kwargs={"terminate_at": None})
    obs0, _ = envs.reset(seed=0)
    obs1, *_ = envs.step(np.array([1, 1, 1]))
    assert obs1 is obs0  # the one batch buffer, overwritten in place
    np.testing.assert_array_equal(obs0, [[1.0]] * 3)
    assert obs1 in envs.observation_space
    envs.close()


def test_discrete_observations() -> None:
    envs = make_envs(env_kwargs={"obs_type": "discrete", "terminate_at": None})
    obs, _ = envs.reset(seed=0)
    obs, *_ = envs.step(np.array([0, 0, 0]))
    np.testing.assert_array_equal(obs, [1, 1, 1])
    assert obs.dtype == np.int64
    assert obs in envs.observation_space
    envs.close()


class _TextEnv(vecgym.Env[str, Any]):
    """An env with a Text observation: batched as a tuple of strings."""

    def __init__(self) -> None:
        self.observation_space = Text(8)
        self.action_space = Discrete(2)
        self.text = ""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        super().reset(seed=seed)
        self.text = "a"
        return self.text, {}

    def step(self, action: Any) -> Any:
        self.text += "b"
        return self.text, 0.0, len(self.text) >= 3, False, {}


@pytest.mark.parametrize("copy", [True, False])
def test_text_observations(copy: bool) -> None:
    envs = SyncVectorEnv([_TextEnv, _TextEnv], copy=copy)
    obs, _ = envs.reset(seed=0)
    assert obs == ("a", "a")
    envs.reset(options={"reset_mask": np.array([True, False])})
    assert envs.step(np.array([0, 0]))[0] == ("ab", "ab")
    assert envs.step(np.array([0, 0]))[0] == ("abb", "abb")
    assert envs.step(np.array([0, 0]))[0] == ("a", "a")
    envs.close()


class _BoundedEnv(CountingEnv):
    def __init__(self, high: float, dtype: Any = np.float32) -> None:
        super().__init__()
        self.observation_space = Box(0, high, shape=(1,), dtype=dtype)


def test_observation_mode_different() -> None:
    envs = SyncVectorEnv(
        [lambda: _BoundedEnv(5.0), lambda: _BoundedEnv(9.0)], observation_mode="different"
    )
    np.testing.assert_array_equal(envs.observation_space.high, [[5.0], [9.0]])
    assert envs.single_observation_space == Box(0, 5.0, shape=(1,), dtype=np.float32)
    envs.close()


def test_observation_mode_same_rejects_differing_spaces() -> None:
    with pytest.raises(RuntimeError, match=message_pattern(SAME_SPACE_MSG)):
        SyncVectorEnv([lambda: _BoundedEnv(5.0), lambda: _BoundedEnv(9.0)])


def test_observation_mode_different_rejects_other_dtype() -> None:
    with pytest.raises(ValueError, match="dtype"):
        SyncVectorEnv(
            [lambda: _BoundedEnv(5.0), lambda: _BoundedEnv(5.0, np.float64)],
            observation_mode="different",
        )
    single = Box(0, 1, shape=(1,), dtype=np.float64)
    batched = Box(0, 1, shape=(2, 1), dtype=np.float64)
    with pytest.raises(RuntimeError, match=message_pattern(DIFFERENT_SPACE_MSG)):
        SyncVectorEnv([CountingEnv, CountingEnv], observation_mode=(batched, single))


def test_observation_mode_custom_spaces() -> None:
    single = Box(-1, 2000, shape=(1,), dtype=np.float32)
    batched = Box(-1, 2000, shape=(2, 1), dtype=np.float32)
    envs = SyncVectorEnv([CountingEnv, CountingEnv], observation_mode=(batched, single))
    assert envs.observation_space is batched
    assert envs.single_observation_space is single
    envs.close()
    with pytest.raises(TypeError, match=message_pattern(OBS_MODE_SPACES_MSG, Box, str)):
        SyncVectorEnv([CountingEnv], observation_mode=(batched, "box"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message_pattern(OBS_MODE_MSG, "mixed")):
        SyncVectorEnv([CountingEnv], observation_mode="mixed")


def test_action_spaces_must_match() -> None:
    with pytest.raises(RuntimeError, match=message_pattern(ACTION_SPACE_MSG)):
        SyncVectorEnv([CountingEnv, lambda: CountingEnv(action_space=Discrete(4))])


def test_failed_construction_closes_the_envs() -> None:
    closed: list[str] = []

    class Closing(CountingEnv):
        def close(self) -> None:
            closed.append("closed")

    def broken() -> CountingEnv:
        raise OSError("cannot make env")

    with pytest.raises(OSError, match="cannot make env"):
        SyncVectorEnv([Closing, Closing, broken])
    assert closed == ["closed", "closed"]
    with pytest.raises(RuntimeError, match=message_pattern(ACTION_SPACE_MSG)):
        SyncVectorEnv([Closing, lambda: CountingEnv(action_space=Discrete(4))])
    assert len(closed) == 3


def test_call_get_attr_set_attr(envs: SyncVectorEnv) -> None:
    envs.reset(seed=0)
    envs.step(np.array([1, 1, 1]))
    assert envs.call("get_count") == (1, 1, 1)
    assert envs.call("get_count", 5) == (6, 6, 6)
    assert envs.call("get_count", offset=2, indices=[2, 0]) == (3, 3)
    assert envs.call("terminate_at") == (5, 5, 5)  # a non-callable attribute is returned
    assert envs.get_attr("count") == (1, 1, 1)
    assert envs.get_attr("get_count", indices=1) == (1,)  # as in Gymnasium: a method is called
    envs.set_attr("count", 7)
    assert envs.get_attr("count") == (7, 7, 7)
    envs.set_attr("count", [1, 2, 3])
    assert envs.get_attr("count") == (1, 2, 3)
    envs.set_attr("count", [9], indices=[-1])
    assert envs.get_attr("count") == (1, 2, 9)
    with pytest.raises(ValueError, match=message_pattern(SET_ATTR_LENGTH_MSG)):
        envs.set_attr("count", [1, 2])
    with pytest.raises(IndexError, match=r"\[0, 3\)"):
        envs.get_attr("count", indices=[3])
    with pytest.raises(TypeError, match="indices"):
        envs.call("get_count", indices="0")
    with pytest.raises(AttributeError):
        envs.get_attr("no_such_attribute")


def test_render() -> None:
    envs = SyncVectorEnv([lambda: CountingEnv(render_mode="ansi")] * 2)
    assert envs.render_mode == "ansi"
    envs.reset(seed=0)
    assert envs.render() == ("count=0", "count=0")
    envs.close()


def test_close() -> None:
    envs = make_envs()
    envs.reset(seed=0)
    envs.close()
    assert envs.closed
    envs.close()  # idempotent
    for operation in (
        lambda: envs.reset(),
        lambda: envs.step(np.array([0, 0, 0])),
        lambda: envs.call("get_count"),
        lambda: envs.get_attr("count"),
        lambda: envs.set_attr("count", 1),
        lambda: envs.render(),
    ):
        with pytest.raises(
            error.ClosedEnvironmentError, match=message_pattern(CLOSED_MSG, "SyncVectorEnv")
        ):
            operation()


def test_close_closes_sub_envs() -> None:
    closed: list[int] = []

    class Closing(CountingEnv):
        def close(self) -> None:
            closed.append(1)

    envs = SyncVectorEnv([Closing, Closing])
    envs.close()
    envs.close()
    assert closed == [1, 1]


def test_env_fns_may_be_an_iterator() -> None:
    envs = SyncVectorEnv(CountingEnv for _ in range(2))
    assert envs.num_envs == 2
    envs.close()
