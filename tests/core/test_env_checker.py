"""The invasive env checker: a correct env passes silently, each violation gets Gymnasium's
exception type or warning category, with vecgym's own message (matched through its constant)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support import checker_envs as ce
from tests.support.checker_envs import CheckerEnv
from tests.support.messages import exact_pattern, message_pattern
from vecgym import error
from vecgym.core import env_checker as ec
from vecgym.core import passive_env_checker as pec
from vecgym.core.env_checker import (
    MSG_RESET_NO_OPTIONS,
    MSG_RESET_OBS_NOT_DETERMINISTIC,
    MSG_STEP_NOT_EQUIVALENT,
    MSG_STEP_RNG_NOT_UPDATED,
)
from vecgym.core.passive_env_checker import MSG_RENDER_MODE_UNSUPPORTED
from vecgym.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Tuple
from vecgym.utils import env_checker as public_ec


def recorded(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> list[str]:
    """Run ``fn`` and return the messages of every warning it raised (colour codes removed)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args, **kwargs)
    return [_plain(str(w.message)) for w in caught]


def _plain(message: str) -> str:
    return re.sub(r"\x1b\[\d+m", "", message).removeprefix("WARN: ")


def assert_messages(messages: list[str], patterns: list[str]) -> None:
    """``messages`` (from :func:`recorded`) match ``patterns`` one to one, each in full."""
    assert len(messages) == len(patterns), messages
    for message, pattern in zip(messages, patterns, strict=True):
        assert re.fullmatch(pattern, message), (message, pattern)


class FakeSpec:
    """Just enough of an ``EnvSpec`` for ``check_env``: ``id``, ``nondeterministic``, ``make``."""

    def __init__(self, factory: Callable[..., Any], nondeterministic: bool = False) -> None:
        self.id = "Checker-v0"
        self.nondeterministic = nondeterministic
        self.factory = factory
        self.made: list[dict[str, Any]] = []

    def make(self, **kwargs: Any) -> Any:
        self.made.append(kwargs)
        return self.factory(**kwargs)


def env(**kwargs: Any) -> CheckerEnv:
    kwargs.setdefault("observation_space", Box(0.0, 1.0, (2,), np.float32))
    kwargs.setdefault("action_space", Discrete(2))
    return CheckerEnv(**kwargs)


NO_SPEC_RENDER = message_pattern(ec.MSG_NO_SPEC_FOR_RENDER)


def test_public_paths_are_the_core_objects() -> None:
    for name in (
        "check_env",
        "check_reset_options",
        "check_reset_return_info_deprecation",
        "check_reset_return_type",
        "check_reset_seed_determinism",
        "check_seed_deprecation",
        "check_step_determinism",
        "check_space_limit",
        "check_returned_data_not_reused",
        "data_equivalence",
    ):
        assert getattr(public_ec, name) is getattr(ec, name)


def test_importing_the_checker_keeps_upper_layers_unloaded() -> None:
    code = (
        "import sys, vecgym.core.env_checker, vecgym.core.passive_env_checker;"
        "print(sorted(m for m in sys.modules if m.startswith(('vecgym.wrappers', "
        "'vecgym.envs', 'vecgym.vector'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# ---- data_equivalence ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b", "close", "exact"),
    [
        (1, 1, True, True),
        (1, 1.0, False, False),  # types must match
        (np.int8(3), np.int8(3), True, True),
        ("x", "x", True, True),
        (np.zeros(3), np.zeros(3), True, True),
        (np.zeros(3), np.zeros(3) + 1e-7, True, False),
        (np.zeros(3), np.zeros(3) + 1e-3, False, False),
        (np.zeros(3), np.zeros(4), False, False),
        (np.zeros(3, np.float32), np.zeros(3, np.float64), False, False),
        ({"a": np.ones(2), "b": (1, [2, 3])}, {"b": (1, [2, 3]), "a": np.ones(2)}, True, True),
        ({"a": 1}, {"a": 1, "b": 2}, False, False),
        ({"a": np.ones(2)}, {"a": np.ones(2) * (1 + 1e-9)}, True, False),
        ((1, 2), (1, 2, 3), False, False),
        ((1, 2), [1, 2], False, False),
        ([np.zeros(1), {"x": ()}], [np.zeros(1), {"x": ()}], True, True),
        (
            np.array([np.zeros(2), None], dtype=object),
            np.array([np.zeros(2), None], dtype=object),
            True,
            True,
        ),
        (
            np.array([np.zeros(2), 1], dtype=object),
            np.array([np.zeros(2) + 1e-8, 1], dtype=object),
            True,
            False,
        ),
        (
            np.array([np.zeros(2), 1], dtype=object),
            np.array([np.zeros(2), 2], dtype=object),
            False,
            False,
        ),
        (None, None, True, True),
    ],
)
def test_data_equivalence(a: Any, b: Any, close: bool, exact: bool) -> None:
    assert ec.data_equivalence(a, b) is close
    assert ec.data_equivalence(b, a) is close
    assert ec.data_equivalence(a, b, exact=True) is exact


# ---- check_env on correct environments -------------------------------------------------------
CORRECT_OBSERVATION_SPACES = [
    Box(0.0, 1.0, (2,), np.float32),
    Discrete(5),
    MultiDiscrete([2, 3]),
    MultiBinary(3),
    Dict(a=Discrete(10), b=Box(np.zeros(2), np.ones(2), dtype=np.float64)),
    Tuple([Discrete(10), Box(np.zeros(2), np.ones(2), dtype=np.float64)]),
    Dict(a=Tuple([Discrete(10), Box(np.zeros(2), np.ones(2), dtype=np.float64)]), b=MultiBinary(2)),
]


@pytest.mark.parametrize("observation_space", CORRECT_OBSERVATION_SPACES, ids=repr)
def test_correct_env_passes_without_warnings(observation_space: Any) -> None:
    test_env = env(observation_space=observation_space, spec=FakeSpec(lambda **kw: env(**kw)))
    assert recorded(ec.check_env, test_env) == []


def test_correct_env_passes_with_box_action_space() -> None:
    test_env = env(action_space=Box(-1.0, 1.0, (3,), np.float32))
    assert recorded(ec.check_env, test_env, skip_render_check=True) == []


def test_without_spec_the_render_modes_cannot_be_tested() -> None:
    assert_messages(recorded(ec.check_env, env()), [NO_SPEC_RENDER])
    assert recorded(ec.check_env, env(), skip_render_check=True) == []


def test_render_modes_are_each_tried_on_a_fresh_env_from_the_spec() -> None:
    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def render(self: Any) -> Any:
        return "text" if self.render_mode == "ansi" else None

    def factory(**kwargs: Any) -> CheckerEnv:
        return env(metadata=metadata, render=render, **kwargs)

    spec = FakeSpec(factory)
    test_env = env(metadata=metadata, render=render, render_mode="human", spec=spec)
    assert recorded(ec.check_env, test_env) == []
    # one env per render mode, then one for the close-twice check
    assert spec.made == [{"render_mode": "human"}, {"render_mode": "ansi"}, {}]


def test_bad_render_of_a_declared_mode_is_reported() -> None:
    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}
    spec = FakeSpec(lambda **kw: env(metadata=metadata, render=lambda self: None, **kw))
    test_env = env(metadata=metadata, spec=spec)
    assert_messages(
        recorded(ec.check_env, test_env),
        [message_pattern(pec.MSG_RENDER_RGB_NOT_ARRAY, actual=type(None))],
    )


def test_unsupported_render_mode_raises() -> None:
    test_env = env(metadata={"render_modes": ["human"], "render_fps": 4}, render_mode="rgb_array")
    with pytest.raises(AssertionError, match=message_pattern(MSG_RENDER_MODE_UNSUPPORTED)):
        ec.check_env(test_env)


def test_closing_twice_must_not_raise() -> None:
    class CloseOnce(CheckerEnv):
        closed = False

        def close(self) -> None:
            if self.closed:
                raise RuntimeError("already closed")
            self.closed = True

    spec = FakeSpec(lambda **kw: CloseOnce(Box(0.0, 1.0, (2,), np.float32), Discrete(2), **kw))
    test_env = env(spec=spec)
    assert_messages(
        recorded(ec.check_env, test_env),
        [message_pattern(ec.MSG_CLOSE_TWICE_RAISED, exc="already closed")],
    )
    assert recorded(ec.check_env, test_env, skip_close_check=True) == []


def test_warn_argument_is_ignored_with_a_warning() -> None:
    assert_messages(
        recorded(ec.check_env, env(), warn=True, skip_render_check=True),
        [message_pattern(ec.MSG_WARN_IGNORED)],
    )


def test_wrapped_env_warns() -> None:
    wrapped = vecgym.Wrapper(env())
    assert_messages(
        recorded(ec.check_env, wrapped, skip_render_check=True),
        [message_pattern(ec.MSG_WRAPPED_ENV, env=wrapped, unwrapped=wrapped.unwrapped)],
    )


def test_not_an_env() -> None:
    with pytest.raises(TypeError, match=exact_pattern(ec.MSG_NOT_AN_ENV, actual=str)):
        ec.check_env("Error")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"action_space": None}, ec.MSG_NO_ACTION_SPACE),
        ({"observation_space": None}, ec.MSG_NO_OBSERVATION_SPACE),
    ],
)
def test_missing_spaces(kwargs: dict[str, Any], message: str) -> None:
    test_env = CheckerEnv(
        observation_space=kwargs.get("observation_space", Box(0.0, 1.0, (2,), np.float32)),
        action_space=kwargs.get("action_space", Discrete(2)),
    )
    with pytest.raises(AttributeError, match=exact_pattern(message)):
        ec.check_env(test_env)


def test_space_checks_run_first() -> None:
    with pytest.raises(
        AssertionError, match=exact_pattern(pec.MSG_EMPTY_DICT, space_type="action")
    ):
        ec.check_env(env(action_space=Dict()))


# ---- check_reset_seed_determinism ------------------------------------------------------------
@pytest.mark.parametrize(
    ("reset", "kind", "pattern"),
    [
        (lambda self: (self.sample_obs(), {}), error.Error, exact_pattern(ec.MSG_RESET_NO_SEED)),
        (ce.reset_ignoring_seed, AssertionError, exact_pattern(ec.MSG_RESET_RNG_NOT_SEEDED)),
        (ce.reset_own_generator, AssertionError, exact_pattern(ec.MSG_RESET_SAME_SEED_RNG_DIFFERS)),
        (ce.reset_fixed_seed, AssertionError, exact_pattern(ec.MSG_RESET_OTHER_SEED_RNG_SAME)),
        (
            ce.reset_returning(lambda self: (np.full(2, 5.0, np.float32), {})),
            AssertionError,
            exact_pattern(ec.MSG_RESET_OBS_OUTSIDE, call="seed=123"),
        ),
    ],
)
def test_check_reset_seed_determinism_errors(reset: Any, kind: type, pattern: str) -> None:
    with pytest.raises(kind, match=pattern):
        ec.check_reset_seed_determinism(env(reset=reset))


def test_check_reset_seed_determinism_default_seed_warns() -> None:
    assert_messages(
        recorded(ec.check_reset_seed_determinism, env(reset=ce.reset_default_seed)),
        [message_pattern(ec.MSG_RESET_SEED_DEFAULT, default=23)],
    )


def test_check_reset_seed_determinism_accepts_any_var_keyword_name() -> None:
    assert recorded(ec.check_reset_seed_determinism, env(reset=ce.reset_var_keyword)) == []
    assert recorded(ec.check_reset_options, env(reset=ce.reset_var_keyword)) == []


def test_check_reset_seed_determinism_wraps_type_errors() -> None:
    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        raise TypeError("bad seed type")

    with pytest.raises(
        AssertionError, match=exact_pattern(ec.MSG_RESET_SEED_TYPE_ERROR, exc="bad seed type")
    ) as info:
        ec.check_reset_seed_determinism(env(reset=reset))
    assert isinstance(info.value.__cause__, TypeError)


def test_reset_observations_must_be_deterministic_for_a_deterministic_spec() -> None:
    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        self.seed_base(seed)
        return np.random.uniform(size=2).astype(np.float32), {}

    spec = FakeSpec(lambda **kw: env(**kw))
    with pytest.raises(
        AssertionError,
        match="^" + message_pattern(MSG_RESET_OBS_NOT_DETERMINISTIC) + "$",
    ):
        ec.check_reset_seed_determinism(env(reset=reset, spec=spec))
    # a nondeterministic spec (or no spec) skips the observation comparison
    ec.check_reset_seed_determinism(env(reset=reset, spec=FakeSpec(env, nondeterministic=True)))
    ec.check_reset_seed_determinism(env(reset=reset))


def test_reset_observations_only_close_warns() -> None:
    calls = iter(range(100))

    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        self.seed_base(seed)
        return np.full(2, 0.5 + next(calls) * 1e-7, np.float64), {}

    test_env = env(
        observation_space=Box(0.0, 1.0, (2,), np.float64), reset=reset, spec=FakeSpec(env)
    )
    assert_messages(
        recorded(ec.check_reset_seed_determinism, test_env),
        [
            message_pattern(ec.MSG_RESET_OBS_ONLY_CLOSE),
            message_pattern(ec.MSG_RESET_THEN_RESET_ONLY_CLOSE),
        ],
    )


# ---- other reset checks ----------------------------------------------------------------------
def test_check_reset_options() -> None:
    with pytest.raises(
        error.Error,
        match="^" + message_pattern(MSG_RESET_NO_OPTIONS) + "$",
    ):
        ec.check_reset_options(env(reset=ce.reset_without_options))

    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        if options is not None:
            raise TypeError("no options please")
        return self.sample_obs(), {}

    with pytest.raises(
        AssertionError,
        match=exact_pattern(ec.MSG_RESET_OPTIONS_TYPE_ERROR, exc="no options please"),
    ):
        ec.check_reset_options(env(reset=reset))


def test_check_env_reports_missing_options_after_seed_checks() -> None:
    with pytest.raises(error.Error, match=message_pattern(MSG_RESET_NO_OPTIONS)):
        ec.check_env(env(reset=ce.reset_without_options))


def test_check_reset_return_info_deprecation() -> None:
    assert_messages(
        recorded(ec.check_reset_return_info_deprecation, env(reset=ce.reset_with_return_info)),
        [message_pattern(ec.MSG_RETURN_INFO_DEPRECATED)],
    )
    assert recorded(ec.check_reset_return_info_deprecation, env()) == []


def test_check_seed_deprecation() -> None:
    test_env = env()
    test_env.seed = lambda seed=None: None  # type: ignore[attr-defined]
    assert_messages(
        recorded(ec.check_seed_deprecation, test_env),
        [message_pattern(ec.MSG_SEED_FN_DEPRECATED)],
    )
    for not_callable in ([], 123):
        test_env.seed = not_callable  # type: ignore[attr-defined]
        assert recorded(ec.check_seed_deprecation, test_env) == []
    del test_env.seed  # type: ignore[attr-defined]
    assert recorded(ec.check_seed_deprecation, test_env) == []


@pytest.mark.parametrize(
    ("value", "pattern"),
    [
        (lambda self: [self.sample_obs(), {}], exact_pattern(ec.MSG_RESET_NOT_TUPLE, actual=list)),
        ((1, 2, 3), exact_pattern(ec.MSG_RESET_NOT_PAIR, length=3)),
        (lambda self: (self.sample_obs() + 2, {}), exact_pattern(ec.MSG_RESET_FIRST_OUTSIDE)),
        (
            lambda self: (self.sample_obs(), ["key", "value"]),
            exact_pattern(ec.MSG_RESET_INFO_NOT_DICT, actual=list),
        ),
    ],
)
def test_check_reset_return_type(value: Any, pattern: str) -> None:
    with pytest.raises(AssertionError, match=pattern):
        ec.check_reset_return_type(env(reset=ce.reset_returning(value)))


def test_check_env_rejects_wrong_obs_dtype() -> None:
    wrong_dtype = ce.reset_returning(lambda self: (np.zeros(2, np.float64), {}))
    with pytest.raises(AssertionError, match=exact_pattern(ec.MSG_RESET_FIRST_OUTSIDE)):
        ec.check_env(env(reset=wrong_dtype))


# ---- step checks -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("step", "pattern"),
    [
        (ce.step_unseeded_obs, exact_pattern(ec.MSG_STEP_NOT_EQUIVALENT, what="observations")),
        (ce.step_unseeded_reward, exact_pattern(ec.MSG_STEP_NOT_EQUIVALENT, what="rewards")),
        (ce.step_unseeded_info, exact_pattern(ec.MSG_STEP_NOT_EQUIVALENT, what="info")),
        (
            ce.step_returning(
                lambda self: (
                    self.sample_obs(),
                    0.0,
                    self.__dict__.setdefault("t", []).append(1) or len(self.t) == 1,
                    False,
                    {},
                )
            ),
            exact_pattern(ec.MSG_STEP_NOT_EQUIVALENT, what="termination"),
        ),
        (
            ce.step_returning(lambda self: (self.sample_obs(), 0.0, False, True, {})),
            exact_pattern(ec.MSG_STEP_TRUNCATES),
        ),
        (
            ce.step_returning(lambda self: (self.sample_obs(), 0.0, False, np.True_, {})),
            exact_pattern(ec.MSG_STEP_TRUNCATES),
        ),
        (
            ce.step_returning(lambda self: (self.sample_obs(), 0.0, False, 0, {})),
            exact_pattern(ec.MSG_STEP_TRUNCATES),
        ),
    ],
)
def test_check_step_determinism_errors(step: Any, pattern: str) -> None:
    with pytest.raises(AssertionError, match=pattern):
        ec.check_step_determinism(env(step=step))


def test_check_step_determinism_accepts_numpy_false_truncation() -> None:
    step = ce.step_returning(lambda self: (self.sample_obs(), 0.0, np.False_, np.False_, {}))
    assert recorded(ec.check_step_determinism, env(step=step)) == []


def test_check_step_determinism_generator_must_follow_the_seed() -> None:
    def step(self: Any, action: Any) -> Any:
        self.np_random = np.random.default_rng()  # replaces the seeded generator
        return np.zeros(2, np.float32), 0.0, False, False, {}

    with pytest.raises(AssertionError, match="^" + message_pattern(MSG_STEP_RNG_NOT_UPDATED) + "$"):
        ec.check_step_determinism(env(step=step))


def test_check_step_determinism_close_values_warn() -> None:
    calls = iter(range(100))

    def step(self: Any, action: Any) -> Any:
        delta = next(calls) * 1e-8
        return (
            np.full(2, 0.5 + delta),
            np.array(1.0 + delta),
            False,
            False,
            {"x": np.array([delta])},
        )

    test_env = env(observation_space=Box(0.0, 1.0, (2,), np.float64), step=step)
    assert_messages(
        recorded(ec.check_step_determinism, test_env),
        [
            message_pattern(ec.MSG_STEP_ONLY_CLOSE, what="observations"),
            message_pattern(ec.MSG_STEP_ONLY_CLOSE, what="rewards"),
            message_pattern(ec.MSG_STEP_ONLY_CLOSE, what="info"),
        ],
    )


def test_check_step_determinism_skipped_for_nondeterministic_spec() -> None:
    test_env = env(step=ce.step_unseeded_obs, spec=FakeSpec(env, nondeterministic=True))
    assert recorded(ec.check_step_determinism, test_env) == []


def test_check_env_catches_nondeterministic_step() -> None:
    with pytest.raises(
        AssertionError, match=message_pattern(MSG_STEP_NOT_EQUIVALENT, what="observations")
    ):
        ec.check_env(env(step=ce.step_unseeded_obs), skip_render_check=True)


# ---- returned data must not be reused --------------------------------------------------------
def test_check_returned_data_not_reused() -> None:
    buffer = np.zeros(2, np.float32)
    reused_obs = ce.step_returning(lambda self: (buffer, 0.0, False, False, {}))
    with pytest.raises(
        AssertionError,
        match=exact_pattern(
            ec.MSG_DATA_REUSED_OBS, source_1="env.step() (call 2)", source_2="env.step() (call 3)"
        ),
    ):
        ec.check_returned_data_not_reused(env(step=reused_obs))

    shared_info: dict[str, Any] = {}

    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        self.seed_base(seed)
        return self.sample_obs(), shared_info

    with pytest.raises(
        AssertionError,
        match=exact_pattern(
            ec.MSG_DATA_REUSED_INFO,
            source_1="env.reset() (call 1)",
            source_2="env.reset() (call 4)",
        ),
    ):
        ec.check_returned_data_not_reused(env(reset=reset))


def test_check_returned_data_not_reused_stops_at_episode_end() -> None:
    steps: list[int] = []

    def step(self: Any, action: Any) -> Any:
        steps.append(1)
        return self.sample_obs(), 0.0, True, False, {}

    ec.check_returned_data_not_reused(env(step=step))
    assert len(steps) == 1


def test_check_env_catches_reused_buffers() -> None:
    buffer = np.zeros(2, np.float32)
    reused = ce.step_returning(lambda self: (buffer, 0.0, False, False, {}))
    with pytest.raises(AssertionError, match=exact_pattern(ec.MSG_DATA_REUSED_OBS)):
        ec.check_env(env(step=reused), skip_render_check=True)


# ---- check_space_limit -----------------------------------------------------------------------
def _low_infinite(space_type: str) -> str:
    return message_pattern(ec.MSG_BOX_LOW_INFINITE, space_type=space_type)


def _high_infinite(space_type: str) -> str:
    return message_pattern(ec.MSG_BOX_HIGH_INFINITE, space_type=space_type)


NOT_NORMALISED = message_pattern(ec.MSG_BOX_ACTION_NOT_NORMALISED)


@pytest.mark.parametrize(
    ("space", "space_type", "expected"),
    [
        (
            Box(-np.inf, np.inf, (2,), np.float32),
            "observation",
            [_low_infinite("observation"), _high_infinite("observation")],
        ),
        (
            Box(-np.inf, np.inf, (2,), np.float32),
            "action",
            [_low_infinite("action"), _high_infinite("action"), NOT_NORMALISED],
        ),
        (Box(-2.0, 2.0, (2,), np.float32), "action", [NOT_NORMALISED]),
        (Box(-0.5, 1.0, (2,), np.float32), "action", [NOT_NORMALISED]),
        (Box(-2.0, 2.0, (2,), np.float32), "observation", []),
        (Box(-2.0, 2.0, (2, 2), np.float32), "action", []),  # only vector boxes are checked
        (Box(0.0, 0.5, (2,), np.float32), "action", []),
        (Box(-0.5, 0.5, (2,), np.float32), "action", []),
        (
            Dict(a=Tuple([Box(-np.inf, 0.0, (1,), np.float32)])),
            "observation",
            [_low_infinite("observation")],
        ),
        (Discrete(3), "action", []),
    ],
)
def test_check_space_limit(space: Any, space_type: str, expected: list[str]) -> None:
    assert_messages(recorded(ec.check_space_limit, space, space_type), expected)


def test_check_env_reports_space_limits() -> None:
    test_env = env(observation_space=Box(-np.inf, np.inf, (2,), np.float32))
    assert_messages(
        recorded(ec.check_env, test_env, skip_render_check=True),
        [_low_infinite("observation"), _high_infinite("observation")],
    )


# ---- comparisons with Gymnasium --------------------------------------------------------------
# Gymnasium's check_env must give the same warning categories (in the same order and number) and
# raise the same exception type; vecgym's messages are its own, checked through their constants.
def recorded_categories(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> list[type]:
    """Run ``fn`` and return the category of every warning it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args, **kwargs)
    return [w.category for w in caught]


# ---- built-in environments -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("env_id", "expected"),
    [
        ("CartPole-v1", [_low_infinite("observation"), _high_infinite("observation")]),
        ("MountainCar-v0", []),
        ("Pendulum-v1", [NOT_NORMALISED]),
        ("Taxi-v4", []),
    ],
)
def test_builtin_envs_warn_as_in_gymnasium(env_id: str, expected: list[str]) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env as gymnasium_check_env

    # rendering "human" needs pygame, an optional extra
    skip_render = importlib.util.find_spec("pygame") is None
    made = vecgym.make(env_id, disable_env_checker=True)
    reference = gymnasium.make(env_id, disable_env_checker=True)
    try:
        ours = recorded(ec.check_env, made.unwrapped, skip_render_check=skip_render)
        our_categories = recorded_categories(
            ec.check_env, made.unwrapped, skip_render_check=skip_render
        )
        their_categories = recorded_categories(
            gymnasium_check_env, reference.unwrapped, skip_render_check=skip_render
        )
    finally:
        made.close()
        reference.close()
    assert our_categories == their_categories
    assert_messages(ours, expected)


# ---- differential: the same environments through Gymnasium's check_env -----------------------
_REUSED_BUFFER = message_pattern(
    ec.MSG_DATA_REUSED_OBS, source_1="env.step() (call 2)", source_2="env.step() (call 3)"
)

#: case -> (env kwargs, vecgym's warning patterns, vecgym's exception pattern or None)
DIFFERENTIAL_CASES: dict[str, tuple[dict[str, Any], list[str], str | None]] = {
    "correct": ({}, [NO_SPEC_RENDER], None),
    "correct-with-spec": ({"spec": True}, [], None),
    "ignores-seed": (
        {"reset": ce.reset_ignoring_seed},
        [],
        message_pattern(ec.MSG_RESET_RNG_NOT_SEEDED),
    ),
    "own-generator": (
        {"reset": ce.reset_own_generator},
        [],
        message_pattern(ec.MSG_RESET_SAME_SEED_RNG_DIFFERS),
    ),
    "fixed-seed": (
        {"reset": ce.reset_fixed_seed},
        [],
        message_pattern(ec.MSG_RESET_OTHER_SEED_RNG_SAME),
    ),
    "default-seed": (
        {"reset": ce.reset_default_seed},
        [
            message_pattern(ec.MSG_RESET_SEED_DEFAULT, default=23),
            message_pattern(pec.MSG_RESET_SEED_DEFAULT),
            NO_SPEC_RENDER,
        ],
        None,
    ),
    "no-options": ({"reset": ce.reset_without_options}, [], message_pattern(MSG_RESET_NO_OPTIONS)),
    "return-info": (
        {"reset": ce.reset_with_return_info},
        [message_pattern(ec.MSG_RETURN_INFO_DEPRECATED), NO_SPEC_RENDER],
        None,
    ),
    "unseeded-step": (
        {"step": ce.step_unseeded_obs},
        [],
        message_pattern(ec.MSG_STEP_NOT_EQUIVALENT, what="observations"),
    ),
    "unseeded-reward": (
        {"step": ce.step_unseeded_reward},
        [],
        message_pattern(ec.MSG_STEP_NOT_EQUIVALENT, what="rewards"),
    ),
    "reward-nan": (
        {
            "step": ce.step_returning(
                lambda self: (self.sample_obs(), float("nan"), False, False, {})
            )
        },
        [message_pattern(pec.MSG_REWARD_NAN)],
        message_pattern(ec.MSG_STEP_NOT_EQUIVALENT, what="rewards"),
    ),
    "obs-outside": (
        {"step": ce.step_returning(lambda self: (self.sample_obs() + 3, 0.0, False, False, {}))},
        [
            message_pattern(pec.MSG_OBS_OUTSIDE, pre=pec.MSG_OBS_PREFIX.format(method_name="step")),
            NO_SPEC_RENDER,
        ],
        None,
    ),
    "reused-buffer": (
        {
            "step": ce.step_returning(
                lambda self: (
                    self.__dict__.setdefault("buf", self.sample_obs()),
                    0.0,
                    False,
                    False,
                    {},
                )
            )
        },
        [],
        _REUSED_BUFFER,
    ),
    "infinite-box": (
        {"observation_space": "inf-box"},
        [_low_infinite("observation"), _high_infinite("observation"), NO_SPEC_RENDER],
        None,
    ),
    "list-reset": (
        {"reset": ce.reset_returning(lambda self: [self.sample_obs(), {}])},
        [],
        message_pattern(ec.MSG_RESET_NOT_TUPLE, actual=list),
    ),
    "bad-render-mode": (
        {"render_mode": "rgb_array", "metadata": {"render_modes": ["human"], "render_fps": 3}},
        [],
        message_pattern(
            MSG_RENDER_MODE_UNSUPPORTED, render_mode="rgb_array", render_modes=["human"]
        ),
    ),
}


def _outcome(api: Any, case: dict[str, Any]) -> tuple[list[tuple[type, str]], Any]:
    """Run ``api``'s check_env on the case built with ``api``'s Env and spaces.

    Returns the warnings as ``(category, message)`` and the exception as ``(type name, message)``
    (``None`` when nothing was raised).
    """
    kwargs = dict(case)
    spaces = api.spaces
    if kwargs.get("observation_space") == "inf-box":
        kwargs["observation_space"] = spaces.Box(-np.inf, np.inf, (2,), np.float32)
    kwargs.setdefault("observation_space", spaces.Box(0.0, 1.0, (2,), np.float32))
    kwargs.setdefault("action_space", spaces.Discrete(2))
    env_class = ce.env_class_for(api.Env)
    if kwargs.get("spec"):
        kwargs["spec"] = FakeSpec(
            lambda **kw: env_class(spaces.Box(0.0, 1.0, (2,), np.float32), spaces.Discrete(2), **kw)
        )
    checker = api.utils.env_checker if api is vecgym else sys.modules["gymnasium.utils.env_checker"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            checker.check_env(env_class(**kwargs))
            raised = None
        except Exception as exc:
            raised = (type(exc).__name__, str(exc))
    return [(w.category, _plain(str(w.message))) for w in caught], raised


@pytest.mark.parametrize("case", list(DIFFERENTIAL_CASES), ids=str)
def test_differential_against_gymnasium(case: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    pytest.importorskip("gymnasium.utils.env_checker")
    kwargs, own_warnings, own_error = DIFFERENTIAL_CASES[case]
    ours, our_error = _outcome(vecgym, kwargs)
    theirs, their_error = _outcome(gymnasium, kwargs)

    assert [category for category, _ in ours] == [category for category, _ in theirs]
    assert (our_error and our_error[0]) == (their_error and their_error[0])

    assert_messages([message for _, message in ours], own_warnings)
    if own_error is None:
        assert our_error is None
    else:
        assert our_error is not None
        assert re.fullmatch(own_error, our_error[1]), our_error
