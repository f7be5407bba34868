"""The invasive env checker: a correct env passes silently, each violation gets "
"Gymnasium's error."""

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
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core import env_checker as ec
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


def exactly(message: str) -> str:
    return f"^{re.escape(message)}$"


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


NO_SPEC_RENDER = (
    "Not able to test alternative render modes due to the environment not having a spec. "
    "Try instantiating the environment through `gymnasium.make`"
)


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
    assert recorded(ec.check_env, env()) == [NO_SPEC_RENDER]
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
    assert recorded(ec.check_env, test_env) == [
        "RGB-array rendering should return a numpy array, got <class 'NoneType'>"
    ]


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
    assert recorded(ec.check_env, test_env) == [
        "Calling `env.close()` on the closed environment should be allowed, but it raised an "
        "exception: already closed"
    ]
    assert recorded(ec.check_env, test_env, skip_close_check=True) == []


def test_warn_argument_is_ignored_with_a_warning() -> None:
    assert recorded(ec.check_env, env(), warn=True, skip_render_check=True) == [
        "`check_env(warn=...)` parameter is now ignored."
    ]


def test_wrapped_env_warns() -> None:
    wrapped = vecgym.Wrapper(env())
    messages = recorded(ec.check_env, wrapped, skip_render_check=True)
    assert len(messages) == 1
    assert messages[0].startswith(
        f"The environment ({wrapped}) is different from the unwrapped version"
    )


def test_not_an_env() -> None:
    with pytest.raises(
        TypeError,
        match=exactly(
            "The environment must inherit from the gymnasium.Env class, actual class: "
            "<class 'str'>. "
            "See https://gymnasium.farama.org/introduction/create_custom_env/ for more info."
        ),
    ):
        ec.check_env("Error")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"action_space": None},
            (
                "The environment must specify an action space. See "
                "https://gymnasium.farama.org/introduction/create_custom_env/ for more info."
            ),
        ),
        (
            {"observation_space": None},
            (
                "The environment must specify an observation space. See "
                "https://gymnasium.farama.org/introduction/create_custom_env/ for more info."
            ),
        ),
    ],
)
def test_missing_spaces(kwargs: dict[str, Any], message: str) -> None:
    test_env = CheckerEnv(
        observation_space=kwargs.get("observation_space", Box(0.0, 1.0, (2,), np.float32)),
        action_space=kwargs.get("action_space", Discrete(2)),
    )
    with pytest.raises(AttributeError, match=exactly(message)):
        ec.check_env(test_env)


def test_space_checks_run_first() -> None:
    with pytest.raises(AssertionError, match=exactly("An empty Dict action space is not allowed.")):
        ec.check_env(env(action_space=Dict()))


# ---- check_reset_seed_determinism ------------------------------------------------------------
@pytest.mark.parametrize(
    ("reset", "kind", "message"),
    [
        (
            lambda self: (self.sample_obs(), {}),
            error.Error,
            "The `reset` method does not provide a `seed` or `**kwargs` keyword argument.",
        ),
        (
            ce.reset_ignoring_seed,
            AssertionError,
            (
                "Expects the random number generator to have been generated given a seed was "
                "passed to reset. Most likely the environment reset function does not call "
                "`super().reset(seed=seed)`."
            ),
        ),
        (
            ce.reset_own_generator,
            AssertionError,
            (
                "Most likely the environment reset function does not call "
                "`super().reset(seed=seed)` as the random generates are not same when the "
                "same seeds are passed to `env.reset`."
            ),
        ),
        (
            ce.reset_fixed_seed,
            AssertionError,
            (
                "Most likely the environment reset function does not call "
                "`super().reset(seed=seed)` as the random number generators are not "
                "different when different seeds are passed to `env.reset`."
            ),
        ),
        (
            ce.reset_returning(lambda self: (np.full(2, 5.0, np.float32), {})),
            AssertionError,
            (
                "The observation returned by `env.reset(seed=123)` is not within the "
                "observation space."
            ),
        ),
    ],
)
def test_check_reset_seed_determinism_errors(reset: Any, kind: type, message: str) -> None:
    with pytest.raises(kind, match=exactly(message)):
        ec.check_reset_seed_determinism(env(reset=reset))


def test_check_reset_seed_determinism_default_seed_warns() -> None:
    assert recorded(ec.check_reset_seed_determinism, env(reset=ce.reset_default_seed)) == [
        "The default seed argument in reset should be `None`, otherwise the environment will by "
        "default always be deterministic. Actual default: 23"
    ]


def test_check_reset_seed_determinism_accepts_any_var_keyword_name() -> None:
    assert recorded(ec.check_reset_seed_determinism, env(reset=ce.reset_var_keyword)) == []
    assert recorded(ec.check_reset_options, env(reset=ce.reset_var_keyword)) == []


def test_check_reset_seed_determinism_wraps_type_errors() -> None:
    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        raise TypeError("bad seed type")

    with pytest.raises(AssertionError, match=r"The error was: bad seed type$") as info:
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
    assert recorded(ec.check_reset_seed_determinism, test_env) == [
        "Using `env.reset(seed=123)` observations are not equal although similar.",
        (
            "Using `env.reset(seed=123)` then `env.reset()` observations are not equal "
            "although similar."
        ),
    ]


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

    with pytest.raises(AssertionError, match=r"The error was: no options please$"):
        ec.check_reset_options(env(reset=reset))


def test_check_env_reports_missing_options_after_seed_checks() -> None:
    with pytest.raises(error.Error, match=message_pattern(MSG_RESET_NO_OPTIONS)):
        ec.check_env(env(reset=ce.reset_without_options))


def test_check_reset_return_info_deprecation() -> None:
    assert recorded(
        ec.check_reset_return_info_deprecation, env(reset=ce.reset_with_return_info)
    ) == [
        "`return_info` is deprecated as an optional argument to `reset`. `reset`should now always "
        "return `obs, info` where `obs` is an observation, and `info` is a dictionarycontaining "
        "additional information."
    ]
    assert recorded(ec.check_reset_return_info_deprecation, env()) == []


def test_check_seed_deprecation() -> None:
    test_env = env()
    test_env.seed = lambda seed=None: None  # type: ignore[attr-defined]
    assert recorded(ec.check_seed_deprecation, test_env) == [
        "Official support for the `seed` function is dropped. Standard practice is to reset "
        "gymnasium environments using `env.reset(seed=<desired seed>)`"
    ]
    for not_callable in ([], 123):
        test_env.seed = not_callable  # type: ignore[attr-defined]
        assert recorded(ec.check_seed_deprecation, test_env) == []
    del test_env.seed  # type: ignore[attr-defined]
    assert recorded(ec.check_seed_deprecation, test_env) == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            lambda self: [self.sample_obs(), {}],
            (
                "The result returned by `env.reset()` was not a tuple of the form `(obs, "
                "info)`, where `obs` is a observation and `info` is a dictionary containing "
                "additional information. Actual type: `<class 'list'>`"
            ),
        ),
        ((1, 2, 3), "Calling the reset method did not return a 2-tuple, actual length: 3"),
        (
            lambda self: (self.sample_obs() + 2, {}),
            "The first element returned by `env.reset()` is not within the observation space.",
        ),
        (
            lambda self: (self.sample_obs(), ["key", "value"]),
            (
                "The second element returned by `env.reset()` was not a dictionary, actual "
                "type: <class 'list'>"
            ),
        ),
    ],
)
def test_check_reset_return_type(value: Any, message: str) -> None:
    with pytest.raises(AssertionError, match=exactly(message)):
        ec.check_reset_return_type(env(reset=ce.reset_returning(value)))


def test_check_env_rejects_wrong_obs_dtype() -> None:
    wrong_dtype = ce.reset_returning(lambda self: (np.zeros(2, np.float64), {}))
    with pytest.raises(AssertionError, match="not within the observation space"):
        ec.check_env(env(reset=wrong_dtype))


# ---- step checks -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("step", "message"),
    [
        (
            ce.step_unseeded_obs,
            "Deterministic step observations are not equivalent for the same seed and action",
        ),
        (
            ce.step_unseeded_reward,
            "Deterministic step rewards are not equivalent for the same seed and action",
        ),
        (
            ce.step_unseeded_info,
            "Deterministic step info are not equivalent for the same seed and action",
        ),
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
            "Deterministic step termination are not equivalent for the same seed and action",
        ),
        (
            ce.step_returning(lambda self: (self.sample_obs(), 0.0, False, True, {})),
            "Environment truncates after 1 step, something has gone very wrong.",
        ),
        (
            ce.step_returning(lambda self: (self.sample_obs(), 0.0, False, np.True_, {})),
            "Environment truncates after 1 step, something has gone very wrong.",
        ),
        (
            ce.step_returning(lambda self: (self.sample_obs(), 0.0, False, 0, {})),
            "Environment truncates after 1 step, something has gone very wrong.",
        ),
    ],
)
def test_check_step_determinism_errors(step: Any, message: str) -> None:
    with pytest.raises(AssertionError, match=exactly(message)):
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
    assert recorded(ec.check_step_determinism, test_env) == [
        "Step observations are not equal although similar given the same seed and action",
        "Step rewards are not equal although similar given the same seed and action",
        "Step info are not equal although similar given the same seed and action",
    ]


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
        match=exactly(
            "The observations returned by `env.step() (call 2)` and `env.step() (call "
            "3)` share an object, "
            "therefore, modifying one will modify the other. Environments must return "
            "new observation data "
            "on every call as users keep the data returned to them."
        ),
    ):
        ec.check_returned_data_not_reused(env(step=reused_obs))

    shared_info: dict[str, Any] = {}

    def reset(self: Any, *, seed: Any = None, options: Any = None) -> Any:
        self.seed_base(seed)
        return self.sample_obs(), shared_info

    with pytest.raises(
        AssertionError,
        match=re.escape("The infos returned by `env.reset() (call 1)` and `env.reset() (call 4)`"),
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
    with pytest.raises(AssertionError, match="share an object"):
        ec.check_env(env(step=reused), skip_render_check=True)


# ---- check_space_limit -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("space", "space_type", "expected"),
    [
        (
            Box(-np.inf, np.inf, (2,), np.float32),
            "observation",
            [
                "A Box observation space minimum value is -infinity. This is probably too low.",
                "A Box observation space maximum value is infinity. This is probably too high.",
            ],
        ),
        (
            Box(-np.inf, np.inf, (2,), np.float32),
            "action",
            [
                "A Box action space minimum value is -infinity. This is probably too low.",
                "A Box action space maximum value is infinity. This is probably too high.",
                (
                    "For Box action spaces, we recommend using a symmetric and normalized "
                    "space (range=[-1, 1] or [0, 1]). See "
                    "https://stable-baselines3.readthedocs.io/en/master/guide/rl_tips.html "
                    "for more information."
                ),
            ],
        ),
        (
            Box(-2.0, 2.0, (2,), np.float32),
            "action",
            [
                (
                    "For Box action spaces, we recommend using a symmetric and normalized "
                    "space (range=[-1, 1] or [0, 1]). See "
                    "https://stable-baselines3.readthedocs.io/en/master/guide/rl_tips.html "
                    "for more information."
                ),
            ],
        ),
        (
            Box(-0.5, 1.0, (2,), np.float32),
            "action",
            [
                (
                    "For Box action spaces, we recommend using a symmetric and normalized "
                    "space (range=[-1, 1] or [0, 1]). See "
                    "https://stable-baselines3.readthedocs.io/en/master/guide/rl_tips.html "
                    "for more information."
                ),
            ],
        ),
        (Box(-2.0, 2.0, (2,), np.float32), "observation", []),
        (Box(-2.0, 2.0, (2, 2), np.float32), "action", []),  # only vector boxes are checked
        (Box(0.0, 0.5, (2,), np.float32), "action", []),
        (Box(-0.5, 0.5, (2,), np.float32), "action", []),
        (
            Dict(a=Tuple([Box(-np.inf, 0.0, (1,), np.float32)])),
            "observation",
            [
                "A Box observation space minimum value is -infinity. This is probably too low.",
            ],
        ),
        (Discrete(3), "action", []),
    ],
)
def test_check_space_limit(space: Any, space_type: str, expected: list[str]) -> None:
    assert recorded(ec.check_space_limit, space, space_type) == expected


def test_check_env_reports_space_limits() -> None:
    test_env = env(observation_space=Box(-np.inf, np.inf, (2,), np.float32))
    assert recorded(ec.check_env, test_env, skip_render_check=True) == [
        "A Box observation space minimum value is -infinity. This is probably too low.",
        "A Box observation space maximum value is infinity. This is probably too high.",
    ]


# ---- built-in environments -------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ["CartPole-v1", "MountainCar-v0", "Pendulum-v1", "Taxi-v4"])
def test_builtin_envs_warn_as_in_gymnasium(env_id: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env as gymnasium_check_env

    made = vecgym.make(env_id, disable_env_checker=True)
    reference = gymnasium.make(env_id, disable_env_checker=True)
    # rendering "human" needs pygame, an optional extra
    skip_render = importlib.util.find_spec("pygame") is None
    try:
        ours = recorded(ec.check_env, made.unwrapped, skip_render_check=skip_render)
        theirs = recorded(gymnasium_check_env, reference.unwrapped, skip_render_check=skip_render)
    finally:
        made.close()
        reference.close()
    assert ours == theirs


# ---- differential: the same environments through Gymnasium's check_env -----------------------
DIFFERENTIAL_CASES: dict[str, dict[str, Any]] = {
    "correct": {},
    "correct-with-spec": {"spec": True},
    "ignores-seed": {"reset": ce.reset_ignoring_seed},
    "own-generator": {"reset": ce.reset_own_generator},
    "fixed-seed": {"reset": ce.reset_fixed_seed},
    "default-seed": {"reset": ce.reset_default_seed},
    "no-options": {"reset": ce.reset_without_options},
    "return-info": {"reset": ce.reset_with_return_info},
    "unseeded-step": {"step": ce.step_unseeded_obs},
    "unseeded-reward": {"step": ce.step_unseeded_reward},
    "reward-nan": {
        "step": ce.step_returning(lambda self: (self.sample_obs(), float("nan"), False, False, {}))
    },
    "obs-outside": {
        "step": ce.step_returning(lambda self: (self.sample_obs() + 3, 0.0, False, False, {}))
    },
    "reused-buffer": {
        "step": ce.step_returning(
            lambda self: (self.__dict__.setdefault("buf", self.sample_obs()), 0.0, False, False, {})
        )
    },
    "infinite-box": {"observation_space": "inf-box"},
    "list-reset": {"reset": ce.reset_returning(lambda self: [self.sample_obs(), {}])},
    "bad-render-mode": {
        "render_mode": "rgb_array",
        "metadata": {"render_modes": ["human"], "render_fps": 3},
    },
}


def _outcome(api: Any, case: dict[str, Any]) -> tuple[list[str], Any]:
    """Run ``api``'s check_env on the case built with ``api``'s Env and spaces."""
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
    return [_plain(str(w.message)) for w in caught], raised


@pytest.mark.parametrize("case", list(DIFFERENTIAL_CASES), ids=str)
def test_differential_against_gymnasium(case: str) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    pytest.importorskip("gymnasium.utils.env_checker")

    assert _outcome(vecgym, DIFFERENTIAL_CASES[case]) == _outcome(
        gymnasium, DIFFERENTIAL_CASES[case]
    )
