"""Invasive checks of an environment: :func:`check_env` and the checks it is made of.

Unlike the passive checks of :mod:`vecgym.core.passive_env_checker`, these drive the environment
(reset with several seeds, step, render, close twice) to find API violations: a ``reset`` that
ignores its seed, a ``step`` that is not deterministic given the seed, returned types that are
wrong, render modes that do not work, a second ``close()`` that raises. Warnings go through
:func:`vecgym.logger.warn`; violations raise Gymnasium 1.4's exception types
(:class:`AssertionError`, :class:`vecgym.error.Error`, ``TypeError``, ``AttributeError``),
raised explicitly so that they also fire under ``python -O``. The messages are vecgym's own.

Differences from Gymnasium, on purpose:

* a ``reset`` that takes ``**kw`` under any name counts as accepting ``seed`` and ``options``
  (Gymnasium only recognises a variadic keyword parameter literally called ``kwargs``);
* :func:`check_step_determinism` accepts ``numpy.False_`` as a first-step ``truncated``, which
  the passive step check accepts as a boolean but Gymnasium's determinism check rejected
  (``truncated is False``);
* an environment without ``_np_random`` gets the checker's assertion message rather than an
  ``AttributeError``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from copy import deepcopy
from itertools import combinations
from typing import Any

import numpy as np

from vecgym import error, logger
from vecgym.core.env import Env, _adapt_env
from vecgym.core.passive_env_checker import (
    _accepts_keyword,
    _fail,
    check_action_space,
    check_observation_space,
    data_shares_objects,
    env_render_passive_checker,
    env_reset_passive_checker,
    env_step_passive_checker,
)
from vecgym.core.spaces import Box, Dict, Space, Tuple

__all__ = [
    "check_env",
    "check_reset_options",
    "check_reset_return_info_deprecation",
    "check_reset_return_type",
    "check_reset_seed_determinism",
    "check_returned_data_not_reused",
    "check_seed_deprecation",
    "check_space_limit",
    "check_step_determinism",
    "data_equivalence",
]

# ---------------------------------------------------------------------------------------------
# Message templates. The exception types and warning categories are Gymnasium 1.4's; the
# wording is vecgym's own. Tests match these through the constants, never through copied text.
# ---------------------------------------------------------------------------------------------
MSG_RESET_OBS_OUTSIDE = "`env.reset({call})` returned an observation outside the observation space."
MSG_RESET_RNG_NOT_SEEDED = (
    "After `env.reset(seed=...)` the environment must have a seeded random generator "
    "(`_np_random`), but it has none; its `reset` must call `super().reset(seed=seed)`."
)
MSG_RESET_OBS_NOT_DETERMINISTIC = (
    "Two `env.reset(seed=123)` calls must return the same observation, got different ones."
)
MSG_RESET_THEN_RESET_NOT_DETERMINISTIC = (
    "An unseeded `env.reset()` right after `env.reset(seed=123)` must return the same "
    "observation every time, got different ones."
)
MSG_RESET_OBS_ONLY_CLOSE = (
    "Two `env.reset(seed=123)` calls returned observations that are close but not identical."
)
MSG_RESET_THEN_RESET_ONLY_CLOSE = (
    "Unseeded `env.reset()` calls right after `env.reset(seed=123)` returned observations that "
    "are close but not identical."
)
MSG_RESET_SAME_SEED_RNG_DIFFERS = (
    "Two resets with the same seed must leave the random generator in the same state, got "
    "different states; `reset` must call `super().reset(seed=seed)`."
)
MSG_RESET_OTHER_SEED_RNG_SAME = (
    "Resets with different seeds must leave the random generator in different states, got "
    "the same state; `reset` must call `super().reset(seed=seed)`."
)
MSG_RESET_SEED_TYPE_ERROR = (
    "`env.reset(seed=...)` raised TypeError although the signature of `reset` accepts `seed` "
    "(or `**kwargs`); the error: {exc}"
)
MSG_RESET_SEED_DEFAULT = (
    "The `seed` parameter of `reset` must default to None, otherwise every reset without a "
    "seed replays the same episode; got the default {default}"
)
MSG_RESET_NO_SEED = (
    "`reset` must accept a `seed` keyword argument (directly or through `**kwargs`)."
)
MSG_RESET_OPTIONS_TYPE_ERROR = (
    "`env.reset(options=...)` raised TypeError although the signature of `reset` accepts "
    "`options` (or `**kwargs`); the error: {exc}"
)
MSG_RESET_NO_OPTIONS = (
    "`reset` must accept an `options` keyword argument (directly or through `**kwargs`)."
)

MSG_RNG_NOT_INITIALISED = (
    "After `env.reset(seed=...)` and one step the environment must have a random generator "
    "(`_np_random`), but it has none."
)
MSG_STEP_RNG_NOT_UPDATED = (
    "The same seeded reset and action must leave the random generator in the same state after "
    "the step, got different states."
)
MSG_STEP_NOT_EQUIVALENT = (
    "The same seeded reset and action must give the same step {what}, got different ones."
)
MSG_STEP_ONLY_CLOSE = "The same seeded reset and action gave close but not identical step {what}."
MSG_STEP_TRUNCATES = (
    "The first step after a seeded reset must return False for `truncated`; an episode "
    "cut short after one step means the environment is broken."
)

MSG_DATA_REUSED_OBS = (
    "`{source_1}` and `{source_2}` returned observations that share a mutable object, so "
    "changing one changes the other. Return newly allocated observation data from every call: "
    "callers keep what they receive."
)
MSG_DATA_REUSED_INFO = (
    "`{source_1}` and `{source_2}` returned infos that share a mutable object, so changing one "
    "changes the other. Return newly allocated info data from every call: callers keep what "
    "they receive."
)

MSG_RETURN_INFO_DEPRECATED = (
    "`reset` has a `return_info` parameter, which is no longer part of the API: `reset` must "
    "always return `(obs, info)` with `info` a dict."
)
MSG_SEED_FN_DEPRECATED = (
    "The environment has a `seed()` method, which nothing calls any more; seed it with "
    "`env.reset(seed=...)` instead."
)
MSG_RESET_NOT_TUPLE = (
    "`env.reset()` must return a tuple `(obs, info)` whose `info` is a dict, got `{actual}`"
)
MSG_RESET_NOT_PAIR = (
    "`env.reset()` must return a pair `(obs, info)`, got a tuple of length {length}"
)
MSG_RESET_FIRST_OUTSIDE = (
    "`env.reset()` returned an observation (its first element) outside the observation space."
)
MSG_RESET_INFO_NOT_DICT = (
    "`env.reset()` must return a dict as its info (second element), got {actual}"
)

MSG_BOX_LOW_INFINITE = (
    "A Box {space_type} space has a lower bound of -infinity; learning algorithms usually "
    "need finite bounds."
)
MSG_BOX_HIGH_INFINITE = (
    "A Box {space_type} space has an upper bound of +infinity; learning algorithms usually "
    "need finite bounds."
)
MSG_BOX_ACTION_NOT_NORMALISED = (
    "A Box action space suits most algorithms best when it is symmetric and within [-1, 1] "
    "(or within [0, 1]); rescale the actions inside the environment."
)

MSG_WARN_IGNORED = "The `warn` argument of `check_env` has no effect and is ignored."
MSG_LEGACY_GYM_ENV = (
    "The environment subclasses the old `gym` package's Env or Wrapper, which vecgym does not "
    "accept; make it subclass `vecgym.Env` instead."
)
MSG_NOT_AN_ENV = "`check_env` must be given a `vecgym.Env`, got an instance of {actual}."
MSG_WRAPPED_ENV = (
    "The environment {env} is wrapped (its unwrapped environment is {unwrapped}); wrappers "
    "can hide or cause problems, so pass `env.unwrapped` to `check_env`."
)
MSG_NO_ACTION_SPACE = (
    "The environment must define `action_space`, the space of its valid actions (usually set "
    "in `__init__`)."
)
MSG_NO_OBSERVATION_SPACE = (
    "The environment must define `observation_space`, the space its observations lie in "
    "(usually set in `__init__`)."
)
MSG_NO_SPEC_FOR_RENDER = (
    "The other render modes were not checked: the environment has no spec to build copies "
    "from. Create it with `vecgym.make` to check them too."
)
MSG_CLOSE_TWICE_RAISED = (
    "Closing an environment that is already closed must not raise, but a second "
    "`env.close()` raised: {exc}"
)

_LEGACY_GYM_BASES = ("<class 'gym.core.Env'>", "<class 'gym.core.Wrapper'>")
_ARRAY_TOLERANCE = 1e-5

#: ``metadata`` flag -> the name of the wrapper (in :mod:`vecgym.wrappers`) that converts the
#: environment to numpy before checking it. The wrapper is found through the lookup that
#: :mod:`vecgym.wrappers` installs with :func:`install_wrapper_lookup`, so this module never
#: imports the wrappers layer, not even lazily.
_TO_NUMPY_WRAPPERS = (("jax", "JaxToNumpy"), ("torch", "TorchToNumpy"))
NO_WRAPPER_LOOKUP_MSG = (
    "check_env needs the {wrapper} wrapper for an environment with metadata[{flag!r}] set; "
    "`import vecgym.wrappers` first."
)

#: ``name -> wrapper class``, installed by :mod:`vecgym.wrappers` when it is imported.
_wrapper_lookup: Callable[[str], Any] | None = None


def install_wrapper_lookup(lookup: Callable[[str], Any]) -> None:
    """Install the function that finds a wrapper of :mod:`vecgym.wrappers` by name.

    Called once by :mod:`vecgym.wrappers`; :func:`check_env` uses it to convert jax or torch
    environments to numpy without this (core) module importing the wrappers layer.
    """
    global _wrapper_lookup
    _wrapper_lookup = lookup


# ---------------------------------------------------------------------------------------------
# data_equivalence
# ---------------------------------------------------------------------------------------------
def _arrays_equivalent(array_1: np.ndarray, array_2: np.ndarray, exact: bool) -> bool:
    """Compare two arrays of the same type: shape and dtype must match, then the values."""
    if array_1.shape != array_2.shape or array_1.dtype != array_2.dtype:
        return False
    if array_1.dtype == object:
        return all(data_equivalence(a, b, exact) for a, b in zip(array_1, array_2, strict=True))
    if exact:
        return bool(np.all(array_1 == array_2))
    return bool(np.allclose(array_1, array_2, rtol=_ARRAY_TOLERANCE, atol=_ARRAY_TOLERANCE))


def data_equivalence(data_1: Any, data_2: Any, exact: bool = False) -> bool:
    """Whether two pieces of environment data (observations, actions, infos) are equivalent.

    Both must have exactly the same type at every level. Dicts must have the same keys and
    equivalent values, tuples and lists the same length and equivalent elements, numpy arrays
    the same shape and dtype and values that are equal (``exact=True``) or close within an
    absolute and relative tolerance of ``1e-5`` (:func:`numpy.allclose`); object arrays are
    compared element by element. Anything else is compared with ``==``.

    Args:
        data_1: the first piece of data.
        data_2: the second piece of data.
        exact: compare array values exactly instead of with a tolerance.

    Returns:
        ``True`` when the two are equivalent.

    Example:
        >>> import numpy as np
        >>> a = {"pos": np.array([1.0, 2.0]), "id": (3, "x")}
        >>> b = {"pos": np.array([1.0, 2.0 + 1e-9]), "id": (3, "x")}
        >>> data_equivalence(a, b), data_equivalence(a, b, exact=True)
        (True, False)
    """
    if type(data_1) is not type(data_2):
        return False
    if isinstance(data_1, dict):
        return data_1.keys() == data_2.keys() and all(
            data_equivalence(data_1[key], data_2[key], exact) for key in data_1
        )
    if isinstance(data_1, (tuple, list)):
        return len(data_1) == len(data_2) and all(
            data_equivalence(a, b, exact) for a, b in zip(data_1, data_2, strict=True)
        )
    if isinstance(data_1, np.ndarray):
        return _arrays_equivalent(data_1, data_2, exact)
    # `==` may return a numpy boolean (or an array-like), hence the `bool`.
    return bool(data_1 == data_2)


# ---------------------------------------------------------------------------------------------
# reset checks
# ---------------------------------------------------------------------------------------------
def _rng_of(env: Env[Any, Any]) -> np.random.Generator | None:
    """The base environment's random generator, or ``None`` when it has none yet."""
    return getattr(env.unwrapped, "_np_random", None)


def _reset_inside(env: Env[Any, Any], call: str, **kwargs: Any) -> Any:
    """Reset ``env`` with ``kwargs``; raise unless the observation lies in the observation space.

    Returns a deep copy of the observation, so that an environment that reuses its observation
    buffer cannot change it under the caller's feet.
    """
    obs, _ = env.reset(**kwargs)
    if obs not in env.observation_space:
        _fail(MSG_RESET_OBS_OUTSIDE.format(call=call))
    return deepcopy(obs)


def _check_reset_obs_determinism(obs_1: Any, obs_2: Any, obs_3: Any, obs_4: Any) -> None:
    """Check that two ``reset(seed=123)``, ``reset()`` sequences gave the same observations."""
    if not data_equivalence(obs_1, obs_3):
        _fail(MSG_RESET_OBS_NOT_DETERMINISTIC)
    if not data_equivalence(obs_2, obs_4):
        _fail(MSG_RESET_THEN_RESET_NOT_DETERMINISTIC)
    if not data_equivalence(obs_1, obs_3, exact=True):
        logger.warn(MSG_RESET_OBS_ONLY_CLOSE)
    if not data_equivalence(obs_2, obs_4, exact=True):
        logger.warn(MSG_RESET_THEN_RESET_ONLY_CLOSE)


def _run_reset_seed_sequence(env: Env[Any, Any]) -> None:
    """Reset with seeds 123, none, 123, none, 456 and check observations and generator states."""
    obs_1 = _reset_inside(env, "seed=123", seed=123)
    rng = _rng_of(env)
    if rng is None:
        _fail(MSG_RESET_RNG_NOT_SEEDED)
    rng_after_first = deepcopy(rng)

    obs_2 = _reset_inside(env, "")
    obs_3 = _reset_inside(env, "seed=123", seed=123)
    rng_after_second = deepcopy(_rng_of(env))
    obs_4 = _reset_inside(env, "")

    if env.spec is not None and env.spec.nondeterministic is False:
        _check_reset_obs_determinism(obs_1, obs_2, obs_3, obs_4)

    if rng_after_second is None or (
        rng_after_first.bit_generator.state != rng_after_second.bit_generator.state
    ):
        _fail(MSG_RESET_SAME_SEED_RNG_DIFFERS)

    _reset_inside(env, "seed=456", seed=456)
    rng_other_seed = _rng_of(env)
    if (
        rng_other_seed is not None
        and rng_other_seed.bit_generator.state == rng_after_first.bit_generator.state
    ):
        _fail(MSG_RESET_OTHER_SEED_RNG_SAME)


def check_reset_seed_determinism(env: Env[Any, Any]) -> None:
    """Check that ``reset(seed=...)`` seeds the environment's random generator reproducibly.

    Resets with ``seed=123``, without a seed, with ``seed=123`` again, without a seed, then with
    ``seed=456``. Every observation must lie in the observation space; the generator must exist
    after a seeded reset, be in the same state after both ``seed=123`` resets and in another
    state after ``seed=456``. When the environment's spec says it is deterministic
    (``nondeterministic=False``) the matching observations must also be equivalent (a warning
    when they are only close). Warns when ``seed`` defaults to something other than ``None``.

    Args:
        env: the environment to check.

    Raises:
        AssertionError: one of the rules above is broken, or ``reset`` raised ``TypeError``
            although its signature accepts ``seed``.
        vecgym.error.Error: ``reset`` accepts neither ``seed`` nor ``**kwargs``.
    """
    signature = inspect.signature(env.reset)
    if not _accepts_keyword(signature, "seed"):
        raise error.Error(MSG_RESET_NO_SEED)
    try:
        _run_reset_seed_sequence(env)
    except TypeError as exc:
        raise AssertionError(MSG_RESET_SEED_TYPE_ERROR.format(exc=exc)) from exc

    seed_param = signature.parameters.get("seed")
    if seed_param is not None and seed_param.default is not None:
        logger.warn(MSG_RESET_SEED_DEFAULT.format(default=seed_param.default))


def check_reset_options(env: Env[Any, Any]) -> None:
    """Check that ``reset`` accepts ``options`` (it is called with ``options={}``).

    Args:
        env: the environment to check.

    Raises:
        AssertionError: ``reset(options={})`` raised ``TypeError`` although the signature accepts
            ``options``.
        vecgym.error.Error: ``reset`` accepts neither ``options`` nor ``**kwargs``.
    """
    signature = inspect.signature(env.reset)
    if not _accepts_keyword(signature, "options"):
        raise error.Error(MSG_RESET_NO_OPTIONS)
    try:
        env.reset(options={})
    except TypeError as exc:
        raise AssertionError(MSG_RESET_OPTIONS_TYPE_ERROR.format(exc=exc)) from exc


def check_reset_return_info_deprecation(env: Env[Any, Any]) -> None:
    """Warn when ``reset`` still has the removed ``return_info`` parameter.

    Args:
        env: the environment to check.
    """
    if "return_info" in inspect.signature(env.reset).parameters:
        logger.warn(MSG_RETURN_INFO_DEPRECATED)


def check_seed_deprecation(env: Env[Any, Any]) -> None:
    """Warn when the environment still has a callable ``seed`` method (seed ``reset`` instead).

    Args:
        env: the environment to check.
    """
    if callable(getattr(env, "seed", None)):
        logger.warn(MSG_SEED_FN_DEPRECATED)


def check_reset_return_type(env: Env[Any, Any]) -> None:
    """Check that ``reset()`` returns ``(obs, info)`` with ``obs`` in the space and a dict info.

    Args:
        env: the environment to check.

    Raises:
        AssertionError: the result is not a 2-tuple, the observation is outside the observation
            space or the info is not a ``dict``.
    """
    result = env.reset()
    if not isinstance(result, tuple):
        _fail(MSG_RESET_NOT_TUPLE.format(actual=type(result)))
    if len(result) != 2:
        _fail(MSG_RESET_NOT_PAIR.format(length=len(result)))
    obs, info = result
    if obs not in env.observation_space:
        _fail(MSG_RESET_FIRST_OUTSIDE)
    if not isinstance(info, dict):
        _fail(MSG_RESET_INFO_NOT_DICT.format(actual=type(info)))


# ---------------------------------------------------------------------------------------------
# step checks
# ---------------------------------------------------------------------------------------------
def _require_equivalent(first: Any, second: Any, what: str, warn_if_inexact: bool) -> None:
    """Raise when two step outputs differ; optionally warn when they are only close."""
    if not data_equivalence(first, second, exact=not warn_if_inexact):
        _fail(MSG_STEP_NOT_EQUIVALENT.format(what=what))
    if warn_if_inexact and not data_equivalence(first, second, exact=True):
        logger.warn(MSG_STEP_ONLY_CLOSE.format(what=what))


def _is_false(value: object) -> bool:
    """Whether ``value`` is a Python or numpy boolean ``False``."""
    return isinstance(value, (bool, np.bool_)) and not value


def check_step_determinism(env: Env[Any, Any], seed: int = 123) -> None:
    """Check that one step after ``reset(seed=seed)`` is reproducible.

    Samples one action (from the action space seeded with ``seed``), then twice resets with
    ``seed`` and steps with that action. Observations, rewards and infos must be equivalent
    (a warning when only close), terminations equal, neither step may truncate, and the random
    generator must be in the same state after both steps. Skipped when the environment's spec
    says it is ``nondeterministic``. Assumes :func:`check_reset_seed_determinism` passed.

    Args:
        env: the environment to check.
        seed: the seed for the resets and the action space.

    Raises:
        AssertionError: one of the rules above is broken.
    """
    if env.spec is not None and env.spec.nondeterministic is True:
        return

    env.action_space.seed(seed)
    action = env.action_space.sample()

    env.reset(seed=seed)
    obs_0, rew_0, term_0, trunc_0, info_0 = env.step(action)
    obs_0 = deepcopy(obs_0)
    rng = _rng_of(env)
    if rng is None:
        _fail(MSG_RNG_NOT_INITIALISED)
    rng_after_first = deepcopy(rng)

    env.reset(seed=seed)
    obs_1, rew_1, term_1, trunc_1, info_1 = env.step(action)
    rng = _rng_of(env)
    if rng is None:
        _fail(MSG_RNG_NOT_INITIALISED)
    if rng.bit_generator.state != rng_after_first.bit_generator.state:
        _fail(MSG_STEP_RNG_NOT_UPDATED)

    _require_equivalent(obs_0, obs_1, "observations", warn_if_inexact=True)
    _require_equivalent(rew_0, rew_1, "rewards", warn_if_inexact=True)
    _require_equivalent(term_0, term_1, "termination", warn_if_inexact=False)
    if not (_is_false(trunc_0) and _is_false(trunc_1)):
        _fail(MSG_STEP_TRUNCATES)
    _require_equivalent(info_0, info_1, "info", warn_if_inexact=True)


def check_returned_data_not_reused(env: Env[Any, Any], seed: int = 123) -> None:
    """Check that no two calls return observations or infos sharing a mutable object.

    Collects the results of ``reset(seed=seed)``, up to two steps (stopping at the end of an
    episode) and a final ``reset(seed=seed)``, and compares every pair by identity (see
    :func:`vecgym.utils.passive_env_checker.data_shares_objects`). A constant array or dict must
    still be copied into each result, since neither the user nor this check can know it will
    never change.

    Args:
        env: the environment to check.
        seed: the seed for the resets and the action space.

    Raises:
        AssertionError: two calls returned data that share an object.
    """
    env.action_space.seed(seed)
    calls: list[tuple[str, tuple[Any, Any]]] = [("env.reset() (call 1)", env.reset(seed=seed))]
    for _ in range(2):
        obs, _, terminated, truncated, info = env.step(env.action_space.sample())
        calls.append((f"env.step() (call {len(calls) + 1})", (obs, info)))
        if terminated or truncated:
            break
    calls.append((f"env.reset() (call {len(calls) + 1})", env.reset(seed=seed)))

    for (source_1, (obs_1, info_1)), (source_2, (obs_2, info_2)) in combinations(calls, 2):
        if data_shares_objects(obs_1, obs_2):
            _fail(MSG_DATA_REUSED_OBS.format(source_1=source_1, source_2=source_2))
        if data_shares_objects(info_1, info_2):
            _fail(MSG_DATA_REUSED_INFO.format(source_1=source_1, source_2=source_2))


# ---------------------------------------------------------------------------------------------
# spaces
# ---------------------------------------------------------------------------------------------
def _box_action_not_normalised(space: Box) -> bool:
    """Whether a 1-D Box action space is neither ``[-a, a]``-symmetric/``[0, b]`` nor in [-1, 1]."""
    low, high = space.low, space.high
    asymmetric = np.logical_and(low != 0, np.abs(low) != np.abs(high))
    return bool(np.any(asymmetric) or np.any(low < -1) or np.any(high > 1))


def check_space_limit(space: Space[Any], space_type: str) -> None:
    """Warn about Box bounds that are likely to hurt learning (run only by :func:`check_env`).

    Warns when a Box (also inside Tuple and Dict spaces) has an infinite bound and, for 1-D Box
    action spaces, when the space is not symmetric and normalised (``[-1, 1]`` or ``[0, 1]``).

    Args:
        space: the space to check.
        space_type: ``"observation"`` or ``"action"``.
    """
    if isinstance(space, Box):
        if np.any(np.equal(space.low, -np.inf)):
            logger.warn(MSG_BOX_LOW_INFINITE.format(space_type=space_type))
        if np.any(np.equal(space.high, np.inf)):
            logger.warn(MSG_BOX_HIGH_INFINITE.format(space_type=space_type))
        if space_type == "action" and len(space.shape) == 1 and _box_action_not_normalised(space):
            logger.warn(MSG_BOX_ACTION_NOT_NORMALISED)
    elif isinstance(space, Tuple):
        for subspace in space.spaces:
            check_space_limit(subspace, space_type)
    elif isinstance(space, Dict):
        for subspace in space.spaces.values():
            check_space_limit(subspace, space_type)


# ---------------------------------------------------------------------------------------------
# check_env
# ---------------------------------------------------------------------------------------------
def _require_env(env: object) -> None:
    """Raise ``TypeError`` unless ``env`` is a :class:`vecgym.Env`."""
    if isinstance(env, Env):
        return
    if str(env.__class__.__base__) in _LEGACY_GYM_BASES:
        raise TypeError(MSG_LEGACY_GYM_ENV)
    raise TypeError(MSG_NOT_AN_ENV.format(actual=type(env)))


def _to_numpy(env: Env[Any, Any]) -> Env[Any, Any]:
    """Wrap a jax or torch environment (by its metadata flag) so the checks see numpy data.

    Raises:
        vecgym.error.Error: if the flag is set but :mod:`vecgym.wrappers` was never imported.
    """
    for flag, wrapper_name in _TO_NUMPY_WRAPPERS:
        if env.metadata.get(flag, False):
            if _wrapper_lookup is None:
                raise error.Error(NO_WRAPPER_LOOKUP_MSG.format(wrapper=wrapper_name, flag=flag))
            wrapper: Any = _wrapper_lookup(wrapper_name)
            wrapped: Env[Any, Any] = wrapper(env)
            return wrapped
    return env


def _check_spaces(env: Env[Any, Any]) -> None:
    """Check that the action and observation spaces exist and are well defined."""
    if not hasattr(env, "action_space"):
        raise AttributeError(MSG_NO_ACTION_SPACE)
    check_action_space(env.action_space)
    check_space_limit(env.action_space, "action")

    if not hasattr(env, "observation_space"):
        raise AttributeError(MSG_NO_OBSERVATION_SPACE)
    check_observation_space(env.observation_space)
    check_space_limit(env.observation_space, "observation")


def _check_render_modes(env: Env[Any, Any]) -> None:
    """Render ``env`` itself, then a fresh copy (from its spec) per declared render mode."""
    if env.render_mode is not None:
        env_render_passive_checker(env)
    if env.spec is None:
        logger.warn(MSG_NO_SPEC_FOR_RENDER)
        return
    for render_mode in env.metadata["render_modes"]:
        render_env = env.spec.make(render_mode=render_mode)
        render_env.reset()
        env_render_passive_checker(render_env)
        render_env.close()


def _check_close_twice(env: Env[Any, Any]) -> None:
    """Warn when closing an already closed environment (a fresh one from the spec) raises."""
    if env.spec is None:
        return
    fresh_env = env.spec.make()
    fresh_env.close()
    try:
        fresh_env.close()
    except Exception as exc:
        logger.warn(MSG_CLOSE_TWICE_RAISED.format(exc=exc))


def check_env(
    env: Env[Any, Any],
    warn: bool | None = None,
    skip_render_check: bool = False,
    skip_close_check: bool = False,
) -> None:
    """Check that an environment follows the Gymnasium (and vecgym) environment API.

    Checks the action and observation spaces, then drives the environment: ``reset`` (removed
    ``seed()``/``return_info`` API, return type, seed determinism, ``options``), the passive
    ``reset``/``step`` checks, step determinism, that returned data is never reused, ``render``
    (the environment's own render mode, then a fresh environment built from ``env.spec`` for
    every declared render mode) and that a second ``close()`` does not raise (also on a fresh
    environment from the spec). Run it on the raw environment (``env.unwrapped``): wrappers can
    hide or cause problems, and a warning says so. An environment whose metadata sets ``"jax"``
    or ``"torch"`` is checked through the matching ``*ToNumpy`` wrapper.

    Args:
        env: the environment to check (a ``gymnasium.Env`` is checked through
            :class:`~vecgym.core.interop.GymnasiumEnv`, the adapter vecgym runs it in).
        warn: ignored (kept for compatibility); passing anything but ``None`` warns.
        skip_render_check: skip the render checks.
        skip_close_check: skip the double-``close()`` check.

    Raises:
        TypeError: ``env`` is neither a :class:`vecgym.Env` nor a ``gymnasium.Env``.
        AttributeError: the environment has no action or observation space.
        AssertionError: an API rule is broken (see the individual checks).
        vecgym.error.Error: ``reset`` cannot be passed ``seed`` or ``options``, or ``step``
            returned a tuple of the wrong length.

    Example:
        >>> import numpy as np
        >>> import vecgym
        >>> from vecgym.spaces import Box, Discrete
        >>> class Coin(vecgym.Env):
        ...     metadata = {"render_modes": []}
        ...     observation_space = Discrete(2)
        ...     action_space = Discrete(1)
        ...     def reset(self, *, seed=None, options=None):
        ...         super().reset(seed=seed)
        ...         return int(self.np_random.integers(2)), {}
        ...     def step(self, action):
        ...         return int(self.np_random.integers(2)), 0.0, False, False, {}
        >>> check_env(Coin(), skip_render_check=True)
    """
    if warn is not None:
        logger.warn(MSG_WARN_IGNORED)
    env = _adapt_env(env)  # a gymnasium.Env is checked through vecgym's adapter
    _require_env(env)
    if env.unwrapped is not env:
        logger.warn(MSG_WRAPPED_ENV.format(env=env, unwrapped=env.unwrapped))
    env = _to_numpy(env)

    _check_spaces(env)

    check_seed_deprecation(env)
    check_reset_return_info_deprecation(env)
    check_reset_return_type(env)
    check_reset_seed_determinism(env)
    check_reset_options(env)

    env_reset_passive_checker(env)
    env_step_passive_checker(env, env.action_space.sample())

    check_step_determinism(env)
    check_returned_data_not_reused(env)

    if not skip_render_check:
        _check_render_modes(env)
    if not skip_close_check:
        _check_close_twice(env)
