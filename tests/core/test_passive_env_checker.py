"""The passive checks: each kind of violation gives Gymnasium 1.4's warning or error."""

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


def warned(message: str, category: type = UserWarning) -> list[tuple[type, str]]:
    """The single warning ``vecgym.logger`` gives for ``message``."""
    return [(category, f"WARN: {message}")]


def exactly(message: str) -> str:
    """A ``match`` pattern for exactly ``message``."""
    return f"^{re.escape(message)}$"


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
    ("space", "message"),
    [
        (
            Box(np.zeros(5), np.zeros(5), dtype=np.float64),
            "A Box observation space maximum and minimum values are equal.",
        ),
        (
            with_attr(Box(np.zeros(5), np.ones(5), dtype=np.float64), "high", np.full(5, -1.0)),
            "A Box observation space low value is greater than a high value.",
        ),
    ],
)
def test_observation_space_warnings(space: Any, message: str) -> None:
    assert recorded(pec.check_observation_space, space) == warned(message)


def test_action_space_equal_bounds_warns_but_inverted_bounds_do_not() -> None:
    message = "A Box action space maximum and minimum values are equal."
    assert recorded(
        pec.check_action_space, Box(np.zeros(5), np.zeros(5), dtype=np.float64)
    ) == warned(message)
    inverted = with_attr(Box(np.zeros(5), np.ones(5), dtype=np.float64), "high", np.full(5, -1.0))
    assert recorded(pec.check_action_space, inverted) == []


@pytest.mark.parametrize(
    ("space", "kind", "message"),
    [
        (
            "error",
            TypeError,
            (
                "observation space does not inherit from `gymnasium.spaces.Space`, actual "
                "type: <class 'str'>"
            ),
        ),
        (
            with_attr(Box(np.zeros(2), np.ones(2), dtype=np.float64), "low", np.zeros(3)),
            AssertionError,
            (
                "The Box observation space shape and low shape have different shapes, low "
                "shape: (3,), box shape: (2,)"
            ),
        ),
        (
            with_attr(Box(np.zeros(2), np.ones(2), dtype=np.float64), "high", np.ones(3)),
            AssertionError,
            (
                "The Box observation space shape and high shape have have different shapes, "
                "high shape: (3,), box shape: (2,)"
            ),
        ),
        (
            with_attr(Discrete(5), "n", -1),
            AssertionError,
            (
                "Discrete observation space's number of elements must be positive, actual "
                "number of elements: -1"
            ),
        ),
        (
            with_attr(MultiDiscrete([2, 2]), "nvec", np.array([2, -1])),
            AssertionError,
            (
                "Multi-discrete observation space's all nvec elements must be greater than "
                "0, actual nvec: [ 2 -1]"
            ),
        ),
        (
            with_attr(MultiDiscrete([2, 2]), "_shape", (2, 1, 2)),
            AssertionError,
            (
                "Multi-discrete observation space's shape must be equal to the nvec shape, "
                "space shape: (2, 1, 2), nvec shape: (2,)"
            ),
        ),
        (
            with_attr(MultiBinary((2, 2)), "_shape", (2, -1)),
            AssertionError,
            (
                "Multi-binary observation space's all shape elements must be greater than 0, "
                "actual shape: (2, -1)"
            ),
        ),
        (Tuple([]), AssertionError, "An empty Tuple observation space is not allowed."),
        (Dict(), AssertionError, "An empty Dict observation space is not allowed."),
        (
            Dict(a=Tuple([Discrete(2), Dict()])),
            AssertionError,
            "An empty Dict observation space is not allowed.",
        ),
    ],
)
def test_observation_space_errors(space: Any, kind: type, message: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(kind, match=exactly(message)):
            pec.check_observation_space(space)


@pytest.mark.parametrize(
    ("space", "kind", "message"),
    [
        (
            "error",
            TypeError,
            (
                "action space does not inherit from `gymnasium.spaces.Space`, actual type: "
                "<class 'str'>"
            ),
        ),
        (
            with_attr(Box(np.zeros(2), np.ones(2), dtype=np.float64), "low", np.zeros(3)),
            AssertionError,
            (
                "The Box action space shape and low shape have have different shapes, low "
                "shape: (3,), box shape: (2,)"
            ),
        ),
        (
            with_attr(Box(np.zeros(2), np.ones(2), dtype=np.float64), "high", np.ones(3)),
            AssertionError,
            (
                "The Box action space shape and high shape have different shapes, high "
                "shape: (3,), box shape: (2,)"
            ),
        ),
        (
            with_attr(Discrete(5), "n", 0),
            AssertionError,
            (
                "Discrete action space's number of elements must be positive, actual number "
                "of elements: 0"
            ),
        ),
        (
            with_attr(MultiDiscrete([2, 2]), "_shape", (2, -1)),
            AssertionError,
            (
                "Multi-discrete action space's shape must be equal to the nvec shape, space "
                "shape: (2, -1), nvec shape: (2,)"
            ),
        ),
        (Tuple([]), AssertionError, "An empty Tuple action space is not allowed."),
        (Dict(), AssertionError, "An empty Dict action space is not allowed."),
    ],
)
def test_action_space_errors(space: Any, kind: type, message: str) -> None:
    with pytest.raises(kind, match=exactly(message)):
        pec.check_action_space(space)


def test_well_formed_nested_spaces_pass_silently() -> None:
    space = Dict(
        a=Tuple([Discrete(3), MultiDiscrete([2, 3]), MultiBinary(4)]),
        b=Box(-1.0, 1.0, (3,), np.float32),
    )
    assert recorded(pec.check_observation_space, space) == []
    assert recorded(pec.check_action_space, space) == []


# ---- observations ----------------------------------------------------------------------------
PRE = "The obs returned by the `testing()` method"


@pytest.mark.parametrize(
    ("obs", "space", "message"),
    [
        (3, Discrete(2), f"{PRE} is not within the observation space."),
        (
            np.uint8(0),
            Discrete(1),
            f"{PRE} should be an int or np.int64, actual type: <class 'numpy.uint8'>",
        ),
        (
            np.full(2, 2.0, np.float32),
            Box(0.0, 1.0, (2,), np.float32),
            f"{PRE} is not within the observation space.",
        ),
        (
            [0, 1],
            Tuple([Discrete(1), Discrete(2)]),
            f"{PRE} was expecting a tuple, actual type: <class 'list'>",
        ),
    ],
)
def test_check_obs_warnings(obs: Any, space: Any, message: str) -> None:
    assert recorded(pec.check_obs, obs, space, "testing") == warned(message)


def test_check_obs_box_type_and_dtype() -> None:
    # A list is cast by ``Box.contains`` (which warns itself) and then lies inside the space.
    assert recorded(pec.check_obs, [0.5, 0.5], Box(0.0, 1.0, (2,)), "testing") == [
        *warned(f"{PRE} was expecting a numpy array, actual type: <class 'list'>"),
        *warned(CAST_WARNING),
    ]
    # float64 cannot be cast safely to float32, so the observation is also outside the space.
    assert recorded(pec.check_obs, np.zeros(2), Box(0.0, 1.0, (2,), np.float32), "testing") == [
        *warned(f"{PRE} was expecting numpy array dtype to be float32, actual type: float64"),
        *warned(f"{PRE} is not within the observation space."),
    ]
    # A scalar Box skips the type checks (the 0-d array is inside the space).
    assert (
        recorded(pec.check_obs, np.array(0.5, np.float64), Box(0.0, 1.0, (), np.float64), "t") == []
    )


def test_check_obs_warns_for_each_problem_of_a_multi_binary_list() -> None:
    messages = [m for _, m in recorded(pec.check_obs, [0, 1], MultiBinary(2), "testing")]
    assert messages[0] == f"WARN: {PRE} was expecting a numpy array, actual type: <class 'list'>"


@pytest.mark.parametrize(
    ("obs", "space", "message"),
    [
        (
            (1, 2, 3),
            Tuple([Discrete(1), Discrete(2)]),
            (
                f"{PRE} length is not same as the observation space length, obs length: 3, "
                "space length: 2"
            ),
        ),
        (
            {1, 2, 3},
            Dict(a=Discrete(1), b=Discrete(2)),
            f"{PRE} must be a dict, actual type: <class 'set'>",
        ),
        (
            {"a": 1, "c": 2},
            Dict(a=Discrete(1), b=Discrete(2)),
            (
                f"{PRE} observation keys is not same as the observation space keys, obs keys: "
                "['a', 'c'], space keys: ['a', 'b']"
            ),
        ),
    ],
)
def test_check_obs_errors(obs: Any, space: Any, message: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AssertionError, match=exactly(message)):
            pec.check_obs(obs, space, "testing")


def test_check_obs_reports_an_exception_from_contains() -> None:
    class Exploding(Discrete):
        def contains(self, x: Any) -> bool:
            raise RuntimeError("boom")

    assert recorded(pec.check_obs, 0, Exploding(2), "testing") == warned(
        f"{PRE} is not within the observation space with exception: boom"
    )


def test_check_obs_accepts_valid_nested_observations() -> None:
    space = Dict(a=Tuple([Discrete(3), Box(0.0, 1.0, (2,), np.float32)]), b=MultiBinary(2))
    obs = {"a": (1, np.zeros(2, np.float32)), "b": np.array([0, 1], np.int8)}
    assert recorded(pec.check_obs, obs, space, "step") == []


# ---- reset -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reset", "expected"),
    [
        (
            reset_without_seed,
            warned(
                (
                    "Current gymnasium version requires that `Env.reset` can be passed a "
                    "`seed` instead of using `Env.seed` for resetting the environment random "
                    "number generator."
                ),
                DeprecationWarning,
            ),
        ),
        (
            reset_default_seed,
            warned(
                "The default seed argument in `Env.reset` should be `None`, otherwise "
                "the environment will by default always be deterministic. Actual "
                "default: seed: 'int | None' = 23"
            ),
        ),
        (
            reset_without_options,
            warned(
                (
                    "Current gymnasium version requires that `Env.reset` can be passed "
                    "`options` to allow the environment initialisation to be passed "
                    "additional information."
                ),
                DeprecationWarning,
            ),
        ),
        (
            reset_returning(lambda self: [self.sample_obs(), {}]),
            warned(
                "The result returned by `env.reset()` was not a tuple of the form `(obs, "
                "info)`, where `obs` is a observation and `info` is a dictionary "
                "containing additional information. Actual type: `<class 'list'>`"
            ),
        ),
        (
            reset_returning(lambda self: (1, 2, 3)),
            warned(
                "The result returned by `env.reset()` should be `(obs, info)` by "
                "default, , where `obs` is a observation and `info` is a dictionary "
                "containing additional information."
            ),
        ),
        (
            reset_returning(lambda self: (np.zeros(2), {})),
            [
                *warned(
                    "The obs returned by the `reset()` method was expecting numpy array "
                    "dtype to be float32, actual type: float64"
                ),
                *warned(
                    "The obs returned by the `reset()` method is not within the observation space."
                ),
            ],
        ),
        (reset_var_keyword, []),
    ],
)
def test_reset_checker_warnings(reset: Any, expected: list[tuple[type, str]]) -> None:
    assert recorded(pec.env_reset_passive_checker, env(reset=reset)) == expected


def test_reset_checker_info_not_dict() -> None:
    test_env = env(reset=reset_returning(lambda self: (np.zeros(2, np.float32), {1, 2})))
    with pytest.raises(
        AssertionError,
        match=exactly(
            "The second element returned by `env.reset()` was not a dictionary, actual "
            "type: <class 'set'>"
        ),
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


DEPRECATED_OLD_API = (
    DeprecationWarning,
    "WARN: Core environment is written in old step API which returns one bool instead of two. "
    "It is recommended to rewrite the environment with new step API. ",
)


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (
            step_result(terminated="error", old_api=True),
            [
                DEPRECATED_OLD_API,
                *warned("Expects `done` signal to be a boolean, actual type: <class 'str'>"),
            ],
        ),
        (
            step_result(terminated="error"),
            warned("Expects `terminated` signal to be a boolean, actual type: <class 'str'>"),
        ),
        (
            step_result(truncated=1),
            warned("Expects `truncated` signal to be a boolean, actual type: <class 'int'>"),
        ),
        (
            step_result(reward="error"),
            warned(
                "The reward returned by `step()` must be a float, int, np.integer or "
                "np.floating, actual type: <class 'str'>"
            ),
        ),
        (step_result(reward=np.nan), warned("The reward is a NaN value.")),
        (step_result(reward=-np.inf), warned("The reward is an inf value.")),
        (
            step_result(obs=np.zeros(3, np.float32)),
            warned("The obs returned by the `step()` method is not within the observation space."),
        ),
        (step_result(reward=np.float32(1), terminated=np.bool_(True), truncated=np.False_), []),
        (step_result(reward=np.int8(1)), []),
    ],
)
def test_step_checker_warnings(result: Any, expected: list[tuple[type, str]]) -> None:
    assert recorded(pec.env_step_passive_checker, env(step=step_returning(result)), 0) == expected


@pytest.mark.parametrize(
    ("result", "kind", "message"),
    [
        (
            lambda self: "error",
            AssertionError,
            "Expects step result to be a tuple, actual type: <class 'str'>",
        ),
        (
            lambda self: (1, 2, 3),
            error.Error,
            (
                "Expected `Env.step` to return a four or five element tuple, actual number "
                "of elements returned: 3."
            ),
        ),
        (
            step_result(info="error"),
            AssertionError,
            (
                "The `info` returned by `step()` must be a python dictionary, actual type: "
                "<class 'str'>"
            ),
        ),
    ],
)
def test_step_checker_errors(result: Any, kind: type, message: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(kind, match=exactly(message)):
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
        (
            {"metadata": {}},
            warned(
                "No render modes was declared in the environment "
                "(env.metadata['render_modes'] is None or not defined), you may have "
                "trouble when calling `.render()`."
            ),
        ),
        (
            {"metadata": {"render_modes": ("a", 1), "render_fps": 1}},
            warned(
                "Expects all render modes to be strings, actual types: [<class 'str'>, "
                "<class 'int'>]"
            ),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array"]},
                "render_mode": "rgb_array",
                "render": render_returning(np.zeros((2, 2, 3), np.uint8)),
            },
            warned(
                "No render fps was declared in the environment "
                "(env.metadata['render_fps'] is None or not defined), rendering may "
                "occur at inconsistent fps."
            ),
        ),
        (
            {"metadata": {"render_modes": ["human"], "render_fps": "fps"}},
            warned(
                "Expects the `env.metadata['render_fps']` to be an integer or a float, "
                "actual type: <class 'str'>"
            ),
        ),
        (
            {
                "metadata": {"render_modes": ["human"], "render_fps": 30},
                "render_mode": "human",
                "render": render_returning(0),
            },
            warned("Human rendering should return `None`, got <class 'int'>"),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array"], "render_fps": 30},
                "render_mode": "rgb_array",
                "render": render_returning(None),
            },
            warned("RGB-array rendering should return a numpy array, got <class 'NoneType'>"),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array"], "render_fps": 30},
                "render_mode": "rgb_array",
                "render": render_returning(np.zeros((2, 2, 4), np.float32)),
            },
            [
                *warned(
                    "RGB-array rendering should return a numpy array with dtype uint8, got float32"
                ),
                *warned(
                    "RGB-array rendering should return a numpy array in which the last "
                    "axis has three dimensions, got 4"
                ),
            ],
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array"], "render_fps": 30},
                "render_mode": "rgb_array",
                "render": render_returning(np.zeros((2, 2), np.uint8)),
            },
            warned("RGB-array rendering should return a numpy array with three axes, got 2"),
        ),
        (
            {
                "metadata": {"render_modes": ["depth_array"], "render_fps": 30},
                "render_mode": "depth_array",
                "render": render_returning(np.zeros((2, 2, 1))),
            },
            warned("Depth-array rendering should return a numpy array with two axes, got 3"),
        ),
        (
            {
                "metadata": {"render_modes": ["depth_array"], "render_fps": 30},
                "render_mode": "depth_array",
                "render": render_returning([]),
            },
            warned("Depth-array rendering should return a numpy array, got <class 'list'>"),
        ),
        (
            {
                "metadata": {"render_modes": ["ansi"], "render_fps": 30},
                "render_mode": "ansi",
                "render": render_returning(b"x"),
            },
            warned("ANSI/ASCII rendering should produce a string, got <class 'bytes'>"),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array_list"], "render_fps": 30},
                "render_mode": "rgb_array_list",
                "render": render_returning(np.zeros((2, 2, 3), np.uint8)),
            },
            warned(
                "Render mode `rgb_array_list` should produce a list, got <class 'numpy.ndarray'>"
            ),
        ),
        (
            {
                "metadata": {"render_modes": ["rgb_array_list"], "render_fps": 30},
                "render_mode": "rgb_array_list",
                "render": render_returning([np.zeros((2, 2, 3), np.uint8), "x"]),
            },
            warned("RGB-array rendering should return a numpy array, got <class 'str'>"),
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
    assert recorded(pec.env_render_passive_checker, env(**kwargs)) == expected


def test_render_modes_not_a_sequence() -> None:
    messages = recorded(
        pec.env_render_passive_checker,
        env(metadata={"render_modes": "Testing mode", "render_fps": 4}),
    )
    assert messages == warned(
        "Expects the render_modes to be a sequence (i.e. list, tuple), actual type: <class 'str'>"
    )
    messages = recorded(pec.env_render_passive_checker, env(metadata={"render_modes": 3}))
    assert messages == warned(
        "Expects the render_modes to be a sequence (i.e. list, tuple), actual type: <class 'int'>"
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"metadata": {"render_modes": [], "render_fps": 30}, "render_mode": "Test"},
            "With no render_modes, expects the Env.render_mode to be None, actual value: Test",
        ),
        (
            {
                "metadata": {"render_modes": ["Testing mode"], "render_fps": 30},
                "render_mode": "Non mode",
            },
            (
                "The environment was initialized successfully however with an unsupported "
                "render mode. Render mode: Non mode, modes: ['Testing mode']"
            ),
        ),
        (
            {"metadata": {"render_modes": ["human"], "render_fps": 0}},
            "Expects the `env.metadata['render_fps']` to be greater than zero, actual value: 0",
        ),
    ],
)
def test_render_checker_errors(kwargs: dict[str, Any], message: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AssertionError, match=exactly(message)):
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
    assert recorded(
        pec.env_data_reuse_passive_checker, (obs, info), (obs, info), "step", "step"
    ) == [
        *warned(
            "The observations returned by `step` and the following `step` share an "
            "object, therefore, modifying one will modify the other. Environments should "
            "return new observation data on every call as users commonly keep the data "
            "returned to them."
        ),
        *warned(
            "The infos returned by `step` and the following `step` share an object, "
            "therefore, modifying one will modify the other. Environments should return "
            "new info data on every call as users commonly keep the data returned to "
            "them."
        ),
    ]


# ---- differential: the same checks through Gymnasium ----------------------------------------
def _plain(message: str) -> str:
    return re.sub(r"\x1b\[\d+m", "", message).removeprefix("WARN: ")


PASSIVE_CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "step-old-api": ("step", {"step": step_returning(step_result(terminated=1, old_api=True))}),
    "step-bad-signals": (
        "step",
        {"step": step_returning(step_result(terminated=1, truncated="x"))},
    ),
    "step-inf-reward": ("step", {"step": step_returning(step_result(reward=np.inf))}),
    "step-bool-reward": ("step", {"step": step_returning(step_result(reward=True))}),
    "step-info": ("step", {"step": step_returning(step_result(info=[]))}),
    "reset-no-seed": ("reset", {"reset": reset_without_seed}),
    "reset-list": ("reset", {"reset": reset_returning(lambda self: [1, {}])}),
    "reset-triple": ("reset", {"reset": reset_returning(lambda self: (1, 2, 3))}),
    "render-none": ("render", {"metadata": {}}),
    "render-rgb": (
        "render",
        {
            "metadata": {"render_modes": ["rgb_array"], "render_fps": 2},
            "render_mode": "rgb_array",
            "render": render_returning(np.zeros((1, 1, 4), np.int64)),
        },
    ),
    "render-list": (
        "render",
        {
            "metadata": {"render_modes": ["ansi_list"]},
            "render_mode": "ansi_list",
            "render": render_returning(["a", 1]),
        },
    ),
}


def _passive_outcome(api: Any, module: Any, method: str, case: dict[str, Any]) -> Any:
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
    method, kwargs = PASSIVE_CASES[case]
    assert _passive_outcome(vecgym, pec, method, kwargs) == _passive_outcome(
        gymnasium, gymnasium_pec, method, kwargs
    )
