"""The passive checks: each kind of violation gives Gymnasium 1.4's warning category or
exception type, with vecgym's own message (matched through its constant)."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.checker_envs import (
    CheckerEnv,
    env_class_for,
    reset_default_seed,
    reset_returning,
    reset_var_keyword,
    reset_without_options,
    reset_without_seed,
    step_returning,
)
from tests.support.messages import exact_pattern, message_pattern
from vecgym import error
from vecgym.core import passive_env_checker as pec
from vecgym.core.spaces.box import CAST_WARNING
from vecgym.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Tuple
from vecgym.utils import passive_env_checker as public_pec


def recorded(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> list[tuple[type, str]]:
    """Run ``fn`` and return every warning it raised as ``(category, message)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args, **kwargs)
    return [(w.category, str(w.message)) for w in caught]


def warned(template: str, category: type = UserWarning, **fields: Any) -> list[tuple[type, str]]:
    """The single warning ``vecgym.logger`` gives for ``template``: ``(category, pattern)``."""
    return [(category, "WARN: " + message_pattern(template, **fields))]


def assert_warnings(actual: list[tuple[type, str]], expected: list[tuple[type, str]]) -> None:
    """``actual`` (from :func:`recorded`) has the categories of ``expected``, each message
    matching its pattern (from :func:`warned`) in full."""
    assert [category for category, _ in actual] == [category for category, _ in expected], actual
    for (_, message), (_, pattern) in zip(actual, expected, strict=True):
        assert re.fullmatch(pattern, message), (message, pattern)


def env(**kwargs: Any) -> CheckerEnv:
    kwargs.setdefault("observation_space", Box(0.0, 1.0, (2,), np.float32))
    kwargs.setdefault("action_space", Discrete(2))
    return CheckerEnv(**kwargs)


def with_attr(space: Any, name: str, value: Any) -> Any:
    """Corrupt a space behind its back (spaces validate their arguments, so set the attribute)."""
    object.__setattr__(space, name, value)
    return space


def test_public_paths_are_the_core_objects() -> None:
    for name in (
        "check_action_space",
        "check_obs",
        "check_observation_space",
        "env_render_passive_checker",
        "env_reset_passive_checker",
        "env_step_passive_checker",
        "data_shares_objects",
        "env_data_reuse_passive_checker",
        "check_space",
    ):
        assert getattr(public_pec, name) is getattr(pec, name)


# ---- spaces ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("space", "expected"),
    [
        (
            Box(np.zeros(5), np.zeros(5), dtype=np.float64),
            warned(pec.MSG_BOX_BOUNDS_EQUAL, space_type="observation"),
        ),
        (
            with_attr(Box(np.zeros(5), np.ones(5), dtype=np.float64), "high", np.full(5, -1.0)),
            warned(pec.MSG_BOX_LOW_ABOVE_HIGH),
        ),
    ],
)
def test_observation_space_warnings(space: Any, expected: list[tuple[type, str]]) -> None:
    assert_warnings(recorded(pec.check_observation_space, space), expected)


def test_action_space_equal_bounds_warns_but_inverted_bounds_do_not() -> None:
    assert_warnings(
        recorded(pec.check_action_space, Box(np.zeros(5), np.zeros(5), dtype=np.float64)),
        warned(pec.MSG_BOX_BOUNDS_EQUAL, space_type="action"),
    )
    inverted = with_attr(Box(np.zeros(5), np.ones(5), dtype=np.float64), "high", np.full(5, -1.0))
    assert recorded(pec.check_action_space, inverted) == []


@pytest.mark.parametrize(
    ("space", "kind", "pattern"),
    [
        (
            "error",
            TypeError,
            exact_pattern(pec.MSG_NOT_A_SPACE, space_type="observation", actual=str),
        ),
        (
            with_attr(Box(np.zeros(2), np.ones(2), dtype=np.float64), "low", np.zeros(3)),
            AssertionError,
            exact_pattern(pec.MSG_BOX_LOW_SHAPE["observation"], bound_shape=(3,), shape=(2,)),
        ),
        (
            with_attr(Box(np.zeros(2), np.ones(2), dtype=np.float64), "high", np.ones(3)),
            AssertionError,
            exact_pattern(pec.MSG_BOX_HIGH_SHAPE["observation"], bound_shape=(3,), shape=(2,)),
        ),
        (
            with_attr(Discrete(5), "n", -1),
            AssertionError,
            exact_pattern(pec.MSG_DISCRETE_N, space_type="observation", n=-1),
        ),
        (
            with_attr(MultiDiscrete([2, 2]), "nvec", np.array([2, -1])),
            AssertionError,
            exact_pattern(
                pec.MSG_MULTI_DISCRETE_NVEC, space_type="observation", nvec=np.array([2, -1])
            ),
        ),
        (
            with_attr(MultiDiscrete([2, 2]), "_shape", (2, 1, 2)),
            AssertionError,
            exact_pattern(
                pec.MSG_MULTI_DISCRETE_SHAPE,
                space_type="observation",
                shape=(2, 1, 2),
                nvec_shape=(2,),
            ),
        ),
        (
            with_attr(MultiBinary((2, 2)), "_shape", (2, -1)),
            AssertionError,
            exact_pattern(pec.MSG_MULTI_BINARY_SHAPE, space_type="observation", shape=(2, -1)),
        ),
        (Tuple([]), AssertionError, exact_pattern(pec.MSG_EMPTY_TUPLE, space_type="observation")),
        (Dict(), AssertionError, exact_pattern(pec.MSG_EMPTY_DICT, space_type="observation")),
        (
            Dict(a=Tuple([Discrete(2), Dict()])),
            AssertionError,
            exact_pattern(pec.MSG_EMPTY_DICT, space_type="observation"),
        ),
    ],
)
def test_observation_space_errors(space: Any, kind: type, pattern: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(kind, match=pattern):
            pec.check_observation_space(space)


@pytest.mark.parametrize(
    ("space", "kind", "pattern"),
    [
        ("error", TypeError, exact_pattern(pec.MSG_NOT_A_SPACE, space_type="action", actual=str)),
        (
            with_attr(Box(np.zeros(2), np.ones(2), dtype=np.float64), "low", np.zeros(3)),
            AssertionError,
            exact_pattern(pec.MSG_BOX_LOW_SHAPE["action"], bound_shape=(3,), shape=(2,)),
        ),
        (
            with_attr(Box(np.zeros(2), np.ones(2), dtype=np.float64), "high", np.ones(3)),
            AssertionError,
            exact_pattern(pec.MSG_BOX_HIGH_SHAPE["action"], bound_shape=(3,), shape=(2,)),
        ),
        (
            with_attr(Discrete(5), "n", 0),
            AssertionError,
            exact_pattern(pec.MSG_DISCRETE_N, space_type="action", n=0),
        ),
        (
            with_attr(MultiDiscrete([2, 2]), "_shape", (2, -1)),
            AssertionError,
            exact_pattern(
                pec.MSG_MULTI_DISCRETE_SHAPE, space_type="action", shape=(2, -1), nvec_shape=(2,)
            ),
        ),
        (Tuple([]), AssertionError, exact_pattern(pec.MSG_EMPTY_TUPLE, space_type="action")),
        (Dict(), AssertionError, exact_pattern(pec.MSG_EMPTY_DICT, space_type="action")),
    ],
)
def test_action_space_errors(space: Any, kind: type, pattern: str) -> None:
    with pytest.raises(kind, match=pattern):
        pec.check_action_space(space)


def test_well_formed_nested_spaces_pass_silently() -> None:
    space = Dict(
        a=Tuple([Discrete(3), MultiDiscrete([2, 3]), MultiBinary(4)]),
        b=Box(-1.0, 1.0, (3,), np.float32),
    )
    assert recorded(pec.check_observation_space, space) == []
    assert recorded(pec.check_action_space, space) == []


# ---- observations ----------------------------------------------------------------------------
PRE = pec.MSG_OBS_PREFIX.format(method_name="testing")


@pytest.mark.parametrize(
    ("obs", "space", "expected"),
    [
        (3, Discrete(2), warned(pec.MSG_OBS_OUTSIDE, pre=PRE)),
        (
            np.uint8(0),
            Discrete(1),
            warned(pec.MSG_OBS_DISCRETE_TYPE, pre=PRE, actual=np.uint8),
        ),
        (
            np.full(2, 2.0, np.float32),
            Box(0.0, 1.0, (2,), np.float32),
            warned(pec.MSG_OBS_OUTSIDE, pre=PRE),
        ),
        (
            [0, 1],
            Tuple([Discrete(1), Discrete(2)]),
            warned(pec.MSG_OBS_NOT_TUPLE, pre=PRE, actual=list),
        ),
    ],
)
def test_check_obs_warnings(obs: Any, space: Any, expected: list[tuple[type, str]]) -> None:
    assert_warnings(recorded(pec.check_obs, obs, space, "testing"), expected)


def test_check_obs_box_type_and_dtype() -> None:
    # A list is cast by ``Box.contains`` (which warns itself) and then lies inside the space.
    assert_warnings(
        recorded(pec.check_obs, [0.5, 0.5], Box(0.0, 1.0, (2,)), "testing"),
        [*warned(pec.MSG_OBS_NOT_ARRAY, pre=PRE, actual=list), *warned(CAST_WARNING)],
    )
    # float64 cannot be cast safely to float32, so the observation is also outside the space.
    assert_warnings(
        recorded(pec.check_obs, np.zeros(2), Box(0.0, 1.0, (2,), np.float32), "testing"),
        [
            *warned(
                pec.MSG_OBS_DTYPE,
                pre=PRE,
                expected=np.dtype(np.float32),
                actual=np.dtype(np.float64),
            ),
            *warned(pec.MSG_OBS_OUTSIDE, pre=PRE),
        ],
    )
    # A scalar Box skips the type checks (the 0-d array is inside the space).
    assert (
        recorded(pec.check_obs, np.array(0.5, np.float64), Box(0.0, 1.0, (), np.float64), "t") == []
    )


def test_check_obs_warns_for_each_problem_of_a_multi_binary_list() -> None:
    messages = [m for _, m in recorded(pec.check_obs, [0, 1], MultiBinary(2), "testing")]
    assert messages[0] == "WARN: " + pec.MSG_OBS_NOT_ARRAY.format(pre=PRE, actual=list)


@pytest.mark.parametrize(
    ("obs", "space", "pattern"),
    [
        (
            (1, 2, 3),
            Tuple([Discrete(1), Discrete(2)]),
            exact_pattern(pec.MSG_OBS_TUPLE_LENGTH, pre=PRE, obs_length=3, space_length=2),
        ),
        (
            {1, 2, 3},
            Dict(a=Discrete(1), b=Discrete(2)),
            exact_pattern(pec.MSG_OBS_NOT_DICT, pre=PRE, actual=set),
        ),
        (
            {"a": 1, "c": 2},
            Dict(a=Discrete(1), b=Discrete(2)),
            exact_pattern(
                pec.MSG_OBS_DICT_KEYS, pre=PRE, obs_keys=["a", "c"], space_keys=["a", "b"]
            ),
        ),
    ],
)
def test_check_obs_errors(obs: Any, space: Any, pattern: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AssertionError, match=pattern):
            pec.check_obs(obs, space, "testing")


def test_check_obs_reports_an_exception_from_contains() -> None:
    class Exploding(Discrete):
        def contains(self, x: Any) -> bool:
            raise RuntimeError("boom")

    assert_warnings(
        recorded(pec.check_obs, 0, Exploding(2), "testing"),
        warned(pec.MSG_OBS_OUTSIDE_EXCEPTION, pre=PRE, exc="boom"),
    )


def test_check_obs_accepts_valid_nested_observations() -> None:
    space = Dict(a=Tuple([Discrete(3), Box(0.0, 1.0, (2,), np.float32)]), b=MultiBinary(2))
    obs = {"a": (1, np.zeros(2, np.float32)), "b": np.array([0, 1], np.int8)}
    assert recorded(pec.check_obs, obs, space, "step") == []


# ---- reset -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reset", "expected"),
    [
        (reset_without_seed, warned(pec.MSG_RESET_NO_SEED, DeprecationWarning)),
        (
            reset_default_seed,
            warned(pec.MSG_RESET_SEED_DEFAULT, param="seed: 'int | None' = 23"),
        ),
        (reset_without_options, warned(pec.MSG_RESET_NO_OPTIONS, DeprecationWarning)),
        (
            reset_returning(lambda self: [self.sample_obs(), {}]),
            warned(pec.MSG_RESET_NOT_TUPLE, actual=list),
        ),
        (reset_returning(lambda self: (1, 2, 3)), warned(pec.MSG_RESET_BAD_LENGTH)),
        (
            reset_returning(lambda self: (np.zeros(2), {})),
            [
                *warned(
                    pec.MSG_OBS_DTYPE,
                    pre=pec.MSG_OBS_PREFIX.format(method_name="reset"),
                    expected=np.dtype(np.float32),
                    actual=np.dtype(np.float64),
                ),
                *warned(pec.MSG_OBS_OUTSIDE, pre=pec.MSG_OBS_PREFIX.format(method_name="reset")),
            ],
        ),
        (reset_var_keyword, []),
    ],
)
def test_reset_checker_warnings(reset: Any, expected: list[tuple[type, str]]) -> None:
    assert_warnings(recorded(pec.env_reset_passive_checker, env(reset=reset)), expected)


def test_reset_checker_info_not_dict() -> None:
    test_env = env(reset=reset_returning(lambda self: (np.zeros(2, np.float32), {1, 2})))
    with pytest.raises(
        AssertionError, match=exact_pattern(pec.MSG_RESET_INFO_NOT_DICT, actual=set)
    ):
        pec.env_reset_passive_checker(test_env)


def test_reset_checker_passes_kwargs_and_returns_result_unchanged() -> None:
    seen: dict[str, Any] = {}
    result = (np.zeros(2, np.float32), {"k": 1})

    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        seen.update(seed=seed, options=options)
        return result

    assert pec.env_reset_passive_checker(env(reset=reset), seed=3, options={"x": 1}) is result
    assert seen == {"seed": 3, "options": {"x": 1}}


# ---- step ------------------------------------------------------------------------------------
def step_result(
    obs: Any = None,
    reward: Any = 0.0,
    terminated: Any = False,
    truncated: Any = False,
    info: Any = None,
    old_api: bool = False,
) -> Callable[[Any], Any]:
    def make(self: Any) -> Any:
        o = self.sample_obs() if obs is None else obs
        i = {} if info is None else info
        return (o, reward, terminated, i) if old_api else (o, reward, terminated, truncated, i)

    return make


DEPRECATED_OLD_API = warned(pec.MSG_STEP_OLD_API, DeprecationWarning)
STEP_PRE = pec.MSG_OBS_PREFIX.format(method_name="step")


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (
            step_result(terminated="error", old_api=True),
            [
                *DEPRECATED_OLD_API,
                *warned(pec.MSG_STEP_SIGNAL_NOT_BOOL, signal="done", actual=str),
            ],
        ),
        (
            step_result(terminated="error"),
            warned(pec.MSG_STEP_SIGNAL_NOT_BOOL, signal="terminated", actual=str),
        ),
        (
            step_result(truncated=1),
            warned(pec.MSG_STEP_SIGNAL_NOT_BOOL, signal="truncated", actual=int),
        ),
        (step_result(reward="error"), warned(pec.MSG_REWARD_TYPE, actual=str)),
        (step_result(reward=np.nan), warned(pec.MSG_REWARD_NAN)),
        (step_result(reward=-np.inf), warned(pec.MSG_REWARD_INF)),
        (step_result(obs=np.zeros(3, np.float32)), warned(pec.MSG_OBS_OUTSIDE, pre=STEP_PRE)),
        (step_result(reward=np.float32(1), terminated=np.bool_(True), truncated=np.False_), []),
        (step_result(reward=np.int8(1)), []),
    ],
)
def test_step_checker_warnings(result: Any, expected: list[tuple[type, str]]) -> None:
    assert_warnings(
        recorded(pec.env_step_passive_checker, env(step=step_returning(result)), 0), expected
    )


@pytest.mark.parametrize(
    ("result", "kind", "pattern"),
    [
        (lambda self: "error", AssertionError, exact_pattern(pec.MSG_STEP_NOT_TUPLE, actual=str)),
        (lambda self: (1, 2, 3), error.Error, exact_pattern(pec.MSG_STEP_BAD_LENGTH, length=3)),
        (
            step_result(info="error"),
            AssertionError,
            exact_pattern(pec.MSG_STEP_INFO_NOT_DICT, actual=str),
        ),
    ],
)
def test_step_checker_errors(result: Any, kind: type, pattern: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(kind, match=pattern):
            pec.env_step_passive_checker(env(step=step_returning(result)), 0)


def test_step_checker_returns_result_unchanged() -> None:
    result = (np.zeros(2, np.float32), 1.0, False, False, {})
    assert pec.env_step_passive_checker(env(step=step_returning(lambda self: result)), 1) is result


# ---- render ----------------------------------------------------------------------------------
def render_returning(value: Any) -> Callable[[Any], Any]:
    return lambda self: value


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"metadata": {}}, warned(pec.MSG_NO_RENDER_MODES)),
        (
            {"metadata": {"render_modes": ("a", 1), "render_fps": 1}},
            warned(pec.MSG_RENDER_MODES_NOT_STR, actual=[str, int]),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array"]},
                "render_mode": "rgb_array",
                "render": render_returning(np.zeros((2, 2, 3), np.uint8)),
            },
            warned(pec.MSG_NO_RENDER_FPS),
        ),
        (
            {"metadata": {"render_modes": ["human"], "render_fps": "fps"}},
            warned(pec.MSG_RENDER_FPS_TYPE, actual=str),
        ),
        (
            {
                "metadata": {"render_modes": ["human"], "render_fps": 30},
                "render_mode": "human",
                "render": render_returning(0),
            },
            warned(pec.MSG_RENDER_HUMAN, actual=int),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array"], "render_fps": 30},
                "render_mode": "rgb_array",
                "render": render_returning(None),
            },
            warned(pec.MSG_RENDER_RGB_NOT_ARRAY, actual=type(None)),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array"], "render_fps": 30},
                "render_mode": "rgb_array",
                "render": render_returning(np.zeros((2, 2, 4), np.float32)),
            },
            [
                *warned(pec.MSG_RENDER_RGB_DTYPE, actual=np.dtype(np.float32)),
                *warned(pec.MSG_RENDER_RGB_CHANNELS, actual=4),
            ],
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array"], "render_fps": 30},
                "render_mode": "rgb_array",
                "render": render_returning(np.zeros((2, 2), np.uint8)),
            },
            warned(pec.MSG_RENDER_RGB_NDIM, actual=2),
        ),
        (
            {
                "metadata": {"render_modes": ["depth_array"], "render_fps": 30},
                "render_mode": "depth_array",
                "render": render_returning(np.zeros((2, 2, 1))),
            },
            warned(pec.MSG_RENDER_DEPTH_NDIM, actual=3),
        ),
        (
            {
                "metadata": {"render_modes": ["depth_array"], "render_fps": 30},
                "render_mode": "depth_array",
                "render": render_returning([]),
            },
            warned(pec.MSG_RENDER_DEPTH_NOT_ARRAY, actual=list),
        ),
        (
            {
                "metadata": {"render_modes": ["ansi"], "render_fps": 30},
                "render_mode": "ansi",
                "render": render_returning(b"x"),
            },
            warned(pec.MSG_RENDER_ANSI, actual=bytes),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array_list"], "render_fps": 30},
                "render_mode": "rgb_array_list",
                "render": render_returning(np.zeros((2, 2, 3), np.uint8)),
            },
            warned(pec.MSG_RENDER_LIST, render_mode="rgb_array_list", actual=np.ndarray),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array_list"], "render_fps": 30},
                "render_mode": "rgb_array_list",
                "render": render_returning([np.zeros((2, 2, 3), np.uint8), "x"]),
            },
            warned(pec.MSG_RENDER_RGB_NOT_ARRAY, actual=str),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array", "ansi"], "render_fps": 30.0},
                "render_mode": "ansi",
                "render": render_returning("text"),
            },
            [],
        ),
        ({"metadata": {"render_modes": []}}, []),
    ],
)
def test_render_checker_warnings(kwargs: dict[str, Any], expected: list[tuple[type, str]]) -> None:
    assert_warnings(recorded(pec.env_render_passive_checker, env(**kwargs)), expected)


def test_render_modes_not_a_sequence() -> None:
    messages = recorded(
        pec.env_render_passive_checker,
        env(metadata={"render_modes": "Testing mode", "render_fps": 4}),
    )
    assert_warnings(messages, warned(pec.MSG_RENDER_MODES_NOT_SEQUENCE, actual=str))
    messages = recorded(pec.env_render_passive_checker, env(metadata={"render_modes": 3}))
    assert_warnings(messages, warned(pec.MSG_RENDER_MODES_NOT_SEQUENCE, actual=int))


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        (
            {"metadata": {"render_modes": [], "render_fps": 30}, "render_mode": "Test"},
            exact_pattern(pec.MSG_RENDER_MODE_WITHOUT_MODES, render_mode="Test"),
        ),
        (
            {
                "metadata": {"render_modes": ["Testing mode"], "render_fps": 30},
                "render_mode": "Non mode",
            },
            exact_pattern(
                pec.MSG_RENDER_MODE_UNSUPPORTED,
                render_mode="Non mode",
                render_modes=["Testing mode"],
            ),
        ),
        (
            {"metadata": {"render_modes": ["human"], "render_fps": 0}},
            exact_pattern(pec.MSG_RENDER_FPS_POSITIVE, value=0),
        ),
    ],
)
def test_render_checker_errors(kwargs: dict[str, Any], pattern: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AssertionError, match=pattern):
            pec.env_render_passive_checker(env(**kwargs))


def test_render_checker_returns_the_frame() -> None:
    frame = np.zeros((2, 2, 3), np.uint8)
    test_env = env(
        metadata={"render_modes": ["rgb_array"], "render_fps": 5},
        render_mode="rgb_array",
        render=render_returning(frame),
    )
    assert pec.env_render_passive_checker(test_env) is frame


# ---- data reuse ------------------------------------------------------------------------------
def test_data_shares_objects() -> None:
    buffer = np.zeros(4)
    info: dict[str, Any] = {"a": np.zeros(1)}
    assert pec.data_shares_objects(buffer, buffer)
    assert pec.data_shares_objects(buffer, buffer[1:])
    assert not pec.data_shares_objects(buffer, buffer.copy())
    assert pec.data_shares_objects(info, info)
    assert pec.data_shares_objects({"a": info["a"]}, info)
    assert not pec.data_shares_objects({"a": np.zeros(1)}, info)
    assert pec.data_shares_objects((1, buffer), (2, buffer))
    assert not pec.data_shares_objects(3, 3)
    assert not pec.data_shares_objects(buffer, [buffer])
    objects = np.empty(2, dtype=object)
    objects[:] = [buffer, 1]
    other = np.empty(2, dtype=object)
    other[:] = [buffer, 1]
    assert pec.data_shares_objects(objects, other)


def test_env_data_reuse_passive_checker() -> None:
    obs = np.zeros(2)
    info: dict[str, Any] = {}
    assert (
        recorded(pec.env_data_reuse_passive_checker, (obs, {}), (obs.copy(), {}), "reset", "step")
        == []
    )
    assert recorded(pec.env_data_reuse_passive_checker, None, (obs, info), "reset", "step") == []
    sources = {"previous_source": "step", "source": "step"}
    assert_warnings(
        recorded(pec.env_data_reuse_passive_checker, (obs, info), (obs, info), "step", "step"),
        [
            *warned(pec.MSG_DATA_REUSE_OBS, **sources),
            *warned(pec.MSG_DATA_REUSE_INFO, **sources),
        ],
    )


# ---- differential: the same checks through Gymnasium ----------------------------------------
# Gymnasium must give the same warning categories (in the same order and number) and raise the
# same exception type; vecgym's messages are its own, checked here through their constants.
def _plain(message: str) -> str:
    return re.sub(r"\x1b\[\d+m", "", message).removeprefix("WARN: ")


#: case -> (method, env kwargs, vecgym's warning patterns, vecgym's exception pattern or None)
PASSIVE_CASES: dict[str, tuple[str, dict[str, Any], list[str], str | None]] = {
    "step-old-api": (
        "step",
        {"step": step_returning(step_result(terminated=1, old_api=True))},
        [
            message_pattern(pec.MSG_STEP_OLD_API),
            message_pattern(pec.MSG_STEP_SIGNAL_NOT_BOOL, signal="done", actual=int),
        ],
        None,
    ),
    "step-bad-signals": (
        "step",
        {"step": step_returning(step_result(terminated=1, truncated="x"))},
        [
            message_pattern(pec.MSG_STEP_SIGNAL_NOT_BOOL, signal="terminated", actual=int),
            message_pattern(pec.MSG_STEP_SIGNAL_NOT_BOOL, signal="truncated", actual=str),
        ],
        None,
    ),
    "step-inf-reward": (
        "step",
        {"step": step_returning(step_result(reward=np.inf))},
        [message_pattern(pec.MSG_REWARD_INF)],
        None,
    ),
    "step-bool-reward": (
        "step",
        {"step": step_returning(step_result(reward=True))},
        [message_pattern(pec.MSG_REWARD_TYPE, actual=bool)],
        None,
    ),
    "step-info": (
        "step",
        {"step": step_returning(step_result(info=[]))},
        [],
        message_pattern(pec.MSG_STEP_INFO_NOT_DICT, actual=list),
    ),
    "reset-no-seed": (
        "reset",
        {"reset": reset_without_seed},
        [message_pattern(pec.MSG_RESET_NO_SEED)],
        None,
    ),
    "reset-list": (
        "reset",
        {"reset": reset_returning(lambda self: [1, {}])},
        [message_pattern(pec.MSG_RESET_NOT_TUPLE, actual=list)],
        None,
    ),
    "reset-triple": (
        "reset",
        {"reset": reset_returning(lambda self: (1, 2, 3))},
        [message_pattern(pec.MSG_RESET_BAD_LENGTH)],
        None,
    ),
    "render-none": ("render", {"metadata": {}}, [message_pattern(pec.MSG_NO_RENDER_MODES)], None),
    "render-rgb": (
        "render",
        {
            "metadata": {"render_modes": ["rgb_array"], "render_fps": 2},
            "render_mode": "rgb_array",
            "render": render_returning(np.zeros((1, 1, 4), np.int64)),
        },
        [
            message_pattern(pec.MSG_RENDER_RGB_DTYPE, actual=np.dtype(np.int64)),
            message_pattern(pec.MSG_RENDER_RGB_CHANNELS, actual=4),
        ],
        None,
    ),
    "render-list": (
        "render",
        {
            "metadata": {"render_modes": ["ansi_list"]},
            "render_mode": "ansi_list",
            "render": render_returning(["a", 1]),
        },
        [message_pattern(pec.MSG_NO_RENDER_FPS), message_pattern(pec.MSG_RENDER_ANSI, actual=int)],
        None,
    ),
}


def _passive_outcome(
    api: Any, module: Any, method: str, case: dict[str, Any]
) -> tuple[list[tuple[type, str]], tuple[str, str] | None]:
    """The warnings ``(category, message)`` and the exception ``(type name, message)``."""
    kwargs = dict(case)
    kwargs.setdefault("observation_space", api.spaces.Box(0.0, 1.0, (2,), np.float32))
    kwargs.setdefault("action_space", api.spaces.Discrete(2))
    test_env = env_class_for(api.Env)(**kwargs)
    call = {
        "step": lambda: module.env_step_passive_checker(test_env, 0),
        "reset": lambda: module.env_reset_passive_checker(test_env),
        "render": lambda: module.env_render_passive_checker(test_env),
    }[method]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            call()
            raised = None
        except Exception as exc:
            raised = (type(exc).__name__, str(exc))
    return [(w.category, _plain(str(w.message))) for w in caught], raised


@pytest.mark.parametrize("case", list(PASSIVE_CASES), ids=str)
def test_differential_against_gymnasium(case: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    gymnasium_pec = pytest.importorskip("gymnasium.utils.passive_env_checker")
    method, kwargs, own_warnings, own_error = PASSIVE_CASES[case]
    ours, our_error = _passive_outcome(vecgym, pec, method, kwargs)
    theirs, their_error = _passive_outcome(gymnasium, gymnasium_pec, method, kwargs)

    assert [category for category, _ in ours] == [category for category, _ in theirs]
    assert (our_error and our_error[0]) == (their_error and their_error[0])

    assert len(ours) == len(own_warnings)
    for (_, message), pattern in zip(ours, own_warnings, strict=True):
        assert re.fullmatch(pattern, message), (message, pattern)
    if own_error is None:
        assert our_error is None
    else:
        assert our_error is not None
        assert re.fullmatch(own_error, our_error[1]), our_error
