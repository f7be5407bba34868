"""Passive checks of an environment: they watch what it returns and never change it.

These are the checks :class:`vecgym.wrappers.PassiveEnvChecker` runs on the first ``reset``,
``step`` and ``render`` of every environment built by ``make``, and that
:func:`vecgym.utils.env_checker.check_env` reuses. Each check either warns through
:func:`vecgym.logger.warn` (something unusual but usable) or raises (something that breaks the
API), with Gymnasium 1.4's exception types and warning categories, so code that catches or
filters them by type keeps working. The messages are vecgym's own.

Where Gymnasium uses a bare ``assert`` these checks raise :class:`AssertionError` explicitly, so
they still run under ``python -O``.

Differences from Gymnasium, on purpose:

* a ``reset`` that takes ``**kw`` under any name counts as accepting ``seed`` and ``options``
  (Gymnasium only recognises a parameter literally called ``kwargs``);
* a render mode that is not a string, or ``metadata["render_modes"]`` that has no length, is
  reported with a warning instead of crashing the checker with an unrelated ``TypeError``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn, SupportsFloat, TypeVar

import numpy as np

from vecgym import error, logger
from vecgym.core.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Space, Tuple

if TYPE_CHECKING:  # pragma: no cover - typing only
    from vecgym.core.env import Env

__all__ = [
    "check_action_space",
    "check_obs",
    "check_observation_space",
    "check_space",
    "data_shares_objects",
    "env_data_reuse_passive_checker",
    "env_render_passive_checker",
    "env_reset_passive_checker",
    "env_step_passive_checker",
]

_ObsT = TypeVar("_ObsT")
_ActT = TypeVar("_ActT")

# ---------------------------------------------------------------------------------------------
# Message templates. The exception types and warning categories are Gymnasium 1.4's; the
# wording is vecgym's own. Tests match these through the constants, never through copied text.
# ---------------------------------------------------------------------------------------------
MSG_LEGACY_GYM_SPACE = (
    "The {space_type}_space subclasses the old `gym` package's Space (the Gymnasium "
    "equivalent is `{replacement}`), which vecgym does not accept; build it from "
    "`vecgym.spaces` instead."
)
MSG_NOT_A_SPACE = "The {space_type} space must be a `vecgym.spaces.Space`, got {actual}"
MSG_BOX_LOW_SHAPE = {
    "observation": "The `low` bound of a Box observation space must have the space's shape "
    "{shape}, got shape {bound_shape}",
    "action": "The `low` bound of a Box action space must have the space's shape {shape}, "
    "got shape {bound_shape}",
}
MSG_BOX_HIGH_SHAPE = {
    "observation": "The `high` bound of a Box observation space must have the space's shape "
    "{shape}, got shape {bound_shape}",
    "action": "The `high` bound of a Box action space must have the space's shape {shape}, "
    "got shape {bound_shape}",
}
MSG_BOX_BOUNDS_EQUAL = (
    "A Box {space_type} space has a dimension whose `low` equals its `high`, so it can only "
    "take one value."
)
MSG_BOX_LOW_ABOVE_HIGH = (
    "A Box observation space has a `low` bound above its `high` bound; every dimension needs "
    "low <= high."
)
MSG_DISCRETE_N = "A Discrete {space_type} space must have n > 0, got n={n}"
MSG_DISCRETE_SHAPE = "A Discrete {space_type} space must have the empty shape (), got {shape}"
MSG_MULTI_DISCRETE_SHAPE = (
    "A MultiDiscrete {space_type} space must have the shape of its nvec, {nvec_shape}, got {shape}"
)
MSG_MULTI_DISCRETE_NVEC = (
    "Every entry of a MultiDiscrete {space_type} space's nvec must be positive, got {nvec}"
)
MSG_MULTI_BINARY_SHAPE = (
    "Every dimension of a MultiBinary {space_type} space's shape must be positive, got {shape}"
)
MSG_EMPTY_TUPLE = "A Tuple {space_type} space must contain at least one subspace."
MSG_EMPTY_DICT = "A Dict {space_type} space must contain at least one subspace."

MSG_OBS_PREFIX = "Observation from `{method_name}()`"
MSG_OBS_DISCRETE_TYPE = "{pre}: expected an int or np.int64 for a Discrete space, got {actual}"
MSG_OBS_NOT_ARRAY = "{pre}: expected a numpy array, got {actual}"
MSG_OBS_DTYPE = "{pre}: expected dtype {expected}, got {actual}"
MSG_OBS_NOT_TUPLE = "{pre}: expected a tuple for a Tuple space, got {actual}"
MSG_OBS_TUPLE_LENGTH = (
    "{pre}: expected {space_length} elements, one per subspace of the Tuple space, got {obs_length}"
)
MSG_OBS_NOT_DICT = "{pre}: expected a dict for a Dict space, got {actual}"
MSG_OBS_DICT_KEYS = "{pre}: expected the Dict space's keys {space_keys}, got {obs_keys}"
MSG_OBS_OUTSIDE = "{pre} lies outside the observation space."
MSG_OBS_OUTSIDE_EXCEPTION = (
    "{pre} could not be checked against the observation space, whose `contains` raised: {exc}"
)

MSG_DATA_REUSE_OBS = (
    "`{previous_source}` and the next `{source}` returned observations that share a mutable "
    "object, so changing one changes the other. Return newly allocated observation data from "
    "every call: callers keep what they receive (in replay buffers, for instance)."
)
MSG_DATA_REUSE_INFO = (
    "`{previous_source}` and the next `{source}` returned infos that share a mutable object, "
    "so changing one changes the other. Return newly allocated info data from every call: "
    "callers keep what they receive (in replay buffers, for instance)."
)

MSG_RESET_NO_SEED = (
    "`Env.reset` must accept a `seed` keyword argument: the environment's random generator is "
    "seeded through `reset(seed=...)`, not through a separate `seed()` method."
)
MSG_RESET_SEED_DEFAULT = (
    "The `seed` parameter of `Env.reset` must default to None, otherwise every reset without "
    "a seed replays the same episode; got `{param}`"
)
MSG_RESET_NO_OPTIONS = (
    "`Env.reset` must accept an `options` keyword argument, through which callers pass extra "
    "settings for the new episode."
)
MSG_RESET_NOT_TUPLE = (
    "`env.reset()` must return a tuple `(obs, info)` whose `info` is a dict, got `{actual}`"
)
MSG_RESET_BAD_LENGTH = (
    "`env.reset()` must return a pair `(obs, info)` whose `info` is a dict, got a tuple of "
    "another length."
)
MSG_RESET_INFO_NOT_DICT = (
    "`env.reset()` must return a dict as its info (second element), got {actual}"
)

MSG_STEP_NOT_TUPLE = "`env.step()` must return a tuple, got {actual}"
MSG_STEP_OLD_API = (
    "`env.step()` returned the 4 values `(obs, reward, done, info)` of the old step API; "
    "return the 5 values `(obs, reward, terminated, truncated, info)` instead."
)
MSG_STEP_SIGNAL_NOT_BOOL = (
    "The `{signal}` value returned by `env.step()` must be a bool, got {actual}"
)
MSG_STEP_BAD_LENGTH = (
    "`env.step()` must return 5 values (or 4 with the old step API), got {length}."
)
MSG_REWARD_TYPE = (
    "`env.step()` must return a real-number reward (int, float, np.integer or np.floating), "
    "got {actual}"
)
MSG_REWARD_NAN = "`env.step()` returned a NaN reward."
MSG_REWARD_INF = "`env.step()` returned an infinite reward."
MSG_STEP_INFO_NOT_DICT = "`env.step()` must return a dict as its info (last element), got {actual}"

MSG_NO_RENDER_MODES = (
    "The environment lists no render modes (`metadata['render_modes']` is missing or None), "
    "so `render()` may not behave as expected."
)
MSG_RENDER_MODES_NOT_SEQUENCE = "`metadata['render_modes']` must be a list or tuple, got {actual}"
MSG_RENDER_MODES_NOT_STR = (
    "Every entry of `metadata['render_modes']` must be a str, got entries of types {actual}"
)
MSG_NO_RENDER_FPS = (
    "The environment lists render modes but no frame rate (`metadata['render_fps']` is "
    "missing or None), so rendered frames may not play back at a steady speed."
)
MSG_RENDER_FPS_TYPE = "`metadata['render_fps']` must be an int or a float, got {actual}"
MSG_RENDER_FPS_POSITIVE = "`metadata['render_fps']` must be positive, got {value}"
MSG_RENDER_MODE_WITHOUT_MODES = (
    "`env.render_mode` must be None when `metadata['render_modes']` is empty, got {render_mode}"
)
MSG_RENDER_MODE_UNSUPPORTED = (
    "`env.render_mode` must be one of the declared render modes {render_modes}, got {render_mode}"
)
MSG_RENDER_MODE_NOT_STR = "`env.render_mode` must be a str, got {actual}"
MSG_RENDER_HUMAN = "Rendering in 'human' mode must return None, got {actual}"
MSG_RENDER_RGB_NOT_ARRAY = "An 'rgb_array' frame must be a numpy array, got {actual}"
MSG_RENDER_RGB_DTYPE = "An 'rgb_array' frame must have dtype uint8, got {actual}"
MSG_RENDER_RGB_NDIM = "An 'rgb_array' frame must have 3 dimensions (height, width, 3), got {actual}"
MSG_RENDER_RGB_CHANNELS = (
    "An 'rgb_array' frame must have 3 colour channels in its last dimension, got {actual}"
)
MSG_RENDER_DEPTH_NOT_ARRAY = "A 'depth_array' frame must be a numpy array, got {actual}"
MSG_RENDER_DEPTH_NDIM = "A 'depth_array' frame must have 2 dimensions (height, width), got {actual}"
MSG_RENDER_ANSI = "A text render ('ansi' or 'ascii' mode) must be a str, got {actual}"
MSG_RENDER_LIST = "Render mode `{render_mode}` must return a list of frames, got {actual}"

_LEGACY_GYM_SPACE_BASE = "<class 'gym.spaces.space.Space'>"
_TEXT_RENDER_MODES = ("ansi", "ascii")
_LIST_SUFFIX = "_list"


def _fail(message: str) -> NoReturn:
    """Raise the :class:`AssertionError` a failed API check reports (survives ``python -O``)."""
    raise AssertionError(message)


# ---------------------------------------------------------------------------------------------
# Spaces
# ---------------------------------------------------------------------------------------------
def _check_box_bound_shapes(space: Box, space_type: str) -> None:
    """Raise if ``low`` or ``high`` of a Box do not have the Box's own shape."""
    if space.low.shape != space.shape:
        _fail(MSG_BOX_LOW_SHAPE[space_type].format(bound_shape=space.low.shape, shape=space.shape))
    if space.high.shape != space.shape:
        _fail(
            MSG_BOX_HIGH_SHAPE[space_type].format(bound_shape=space.high.shape, shape=space.shape)
        )


def _check_box_observation_space(observation_space: Box) -> None:
    """Check that a Box observation space has consistent shapes and a non-empty interval.

    Args:
        observation_space: the Box to check.

    Raises:
        AssertionError: ``low`` or ``high`` has a shape other than the Box's.
    """
    _check_box_bound_shapes(observation_space, "observation")
    if np.any(observation_space.low == observation_space.high):
        logger.warn(MSG_BOX_BOUNDS_EQUAL.format(space_type="observation"))
    elif np.any(observation_space.high < observation_space.low):
        logger.warn(MSG_BOX_LOW_ABOVE_HIGH)


def _check_box_action_space(action_space: Box) -> None:
    """Check that a Box action space has consistent shapes and no single-valued dimension.

    Args:
        action_space: the Box to check.

    Raises:
        AssertionError: ``low`` or ``high`` has a shape other than the Box's.
    """
    _check_box_bound_shapes(action_space, "action")
    if np.any(action_space.low == action_space.high):
        logger.warn(MSG_BOX_BOUNDS_EQUAL.format(space_type="action"))


def _reject_non_space(space: object, space_type: str) -> NoReturn:
    """Raise the ``TypeError`` for an object that is not a vecgym space."""
    base = str(space.__class__.__base__)
    if base == _LEGACY_GYM_SPACE_BASE:
        raise TypeError(
            MSG_LEGACY_GYM_SPACE.format(
                space_type=space_type, replacement=base.replace("gym", "gymnasium")
            )
        )
    raise TypeError(MSG_NOT_A_SPACE.format(space_type=space_type, actual=type(space)))


def check_space(
    space: Space[Any], space_type: str, check_box_space_fn: Callable[[Box], None]
) -> None:
    """Check that a space is well defined, recursing into Tuple and Dict spaces.

    Args:
        space: the space to check.
        space_type: ``"observation"`` or ``"action"``, used in the messages.
        check_box_space_fn: the check applied to every Box found.

    Raises:
        TypeError: ``space`` (or a subspace) is not a :class:`vecgym.spaces.Space`.
        AssertionError: a Discrete, MultiDiscrete or MultiBinary space has non-positive sizes or
            an inconsistent shape, or a Tuple or Dict space is empty.
    """
    if not isinstance(space, Space):
        _reject_non_space(space, space_type)
    if isinstance(space, Box):
        check_box_space_fn(space)
    elif isinstance(space, Discrete):
        if not space.n > 0:
            _fail(MSG_DISCRETE_N.format(space_type=space_type, n=space.n))
        if space.shape != ():
            _fail(MSG_DISCRETE_SHAPE.format(space_type=space_type, shape=space.shape))
    elif isinstance(space, MultiDiscrete):
        if space.shape != space.nvec.shape:
            _fail(
                MSG_MULTI_DISCRETE_SHAPE.format(
                    space_type=space_type, shape=space.shape, nvec_shape=space.nvec.shape
                )
            )
        if not np.all(space.nvec > 0):
            _fail(MSG_MULTI_DISCRETE_NVEC.format(space_type=space_type, nvec=space.nvec))
    elif isinstance(space, MultiBinary):
        if not np.all(np.asarray(space.shape) > 0):
            _fail(MSG_MULTI_BINARY_SHAPE.format(space_type=space_type, shape=space.shape))
    elif isinstance(space, Tuple):
        if len(space.spaces) == 0:
            _fail(MSG_EMPTY_TUPLE.format(space_type=space_type))
        for subspace in space.spaces:
            check_space(subspace, space_type, check_box_space_fn)
    elif isinstance(space, Dict):
        if len(space.spaces) == 0:
            _fail(MSG_EMPTY_DICT.format(space_type=space_type))
        for subspace in space.spaces.values():
            check_space(subspace, space_type, check_box_space_fn)


#: Check an observation space (see :func:`check_space`); Box spaces also get a warning when a
#: lower bound exceeds its upper bound.
check_observation_space: Callable[[Space[Any]], None] = partial(
    check_space, space_type="observation", check_box_space_fn=_check_box_observation_space
)
#: Check an action space (see :func:`check_space`).
check_action_space: Callable[[Space[Any]], None] = partial(
    check_space, space_type="action", check_box_space_fn=_check_box_action_space
)


# ---------------------------------------------------------------------------------------------
# Observations
# ---------------------------------------------------------------------------------------------
def _check_obs_structure(
    obs: Any, observation_space: Space[Any], pre: str, method_name: str
) -> None:
    """Type and structure checks of ``obs`` for the space kinds that have them."""
    if isinstance(observation_space, Discrete):
        if not isinstance(obs, (np.int64, int)):
            logger.warn(MSG_OBS_DISCRETE_TYPE.format(pre=pre, actual=type(obs)))
    elif isinstance(observation_space, Box):
        if observation_space.shape == ():
            return
        if not isinstance(obs, np.ndarray):
            logger.warn(MSG_OBS_NOT_ARRAY.format(pre=pre, actual=type(obs)))
        elif obs.dtype != observation_space.dtype:
            logger.warn(
                MSG_OBS_DTYPE.format(pre=pre, expected=observation_space.dtype, actual=obs.dtype)
            )
    elif isinstance(observation_space, (MultiBinary, MultiDiscrete)):
        if not isinstance(obs, np.ndarray):
            logger.warn(MSG_OBS_NOT_ARRAY.format(pre=pre, actual=type(obs)))
    elif isinstance(observation_space, Tuple):
        if not isinstance(obs, tuple):
            logger.warn(MSG_OBS_NOT_TUPLE.format(pre=pre, actual=type(obs)))
        if len(obs) != len(observation_space.spaces):
            _fail(
                MSG_OBS_TUPLE_LENGTH.format(
                    pre=pre, obs_length=len(obs), space_length=len(observation_space.spaces)
                )
            )
        for sub_obs, sub_space in zip(obs, observation_space.spaces, strict=True):
            check_obs(sub_obs, sub_space, method_name)
    elif isinstance(observation_space, Dict):
        if not isinstance(obs, dict):
            _fail(MSG_OBS_NOT_DICT.format(pre=pre, actual=type(obs)))
        if obs.keys() != observation_space.spaces.keys():
            _fail(
                MSG_OBS_DICT_KEYS.format(
                    pre=pre,
                    obs_keys=list(obs.keys()),
                    space_keys=list(observation_space.spaces.keys()),
                )
            )
        for key, sub_space in observation_space.spaces.items():
            check_obs(obs[key], sub_space, method_name)


def check_obs(obs: Any, observation_space: Space[Any], method_name: str) -> None:
    """Check an observation an environment returned against its observation space.

    Warns when the observation has an unexpected Python/numpy type or dtype, or lies outside the
    space (including when the space's ``contains`` raised). Tuple and Dict observations are
    checked element by element.

    Args:
        obs: the observation.
        observation_space: the environment's observation space.
        method_name: the method that returned ``obs`` (``"reset"`` or ``"step"``), for messages.

    Raises:
        AssertionError: a Tuple observation has the wrong length, or a Dict observation is not a
            ``dict`` or has other keys than the space.
    """
    pre = MSG_OBS_PREFIX.format(method_name=method_name)
    _check_obs_structure(obs, observation_space, pre, method_name)
    try:
        inside = obs in observation_space
    except Exception as exc:
        logger.warn(MSG_OBS_OUTSIDE_EXCEPTION.format(pre=pre, exc=exc))
        return
    if not inside:
        logger.warn(MSG_OBS_OUTSIDE.format(pre=pre))


# ---------------------------------------------------------------------------------------------
# Returned data reused between calls
# ---------------------------------------------------------------------------------------------
def data_shares_objects(data_1: Any, data_2: Any) -> bool:
    """Whether two pieces of returned data share a mutable object (compared by identity).

    Dicts and object arrays share when they are the same object or share an element; numeric
    arrays share when their memory overlaps (which also catches a fresh view of one reused
    buffer); tuples share when an element at the same position does. Immutable or unknown values
    never count, since equal small values are routinely the same object.

    Args:
        data_1: the first observation or info.
        data_2: the second, expected to have the same structure.

    Returns:
        ``True`` when modifying one in place could modify the other.
    """
    if type(data_1) is not type(data_2):
        return False
    if isinstance(data_1, dict):
        if data_1 is data_2:
            return True
        common = data_1.keys() & data_2.keys()
        return any(data_shares_objects(data_1[key], data_2[key]) for key in common)
    if isinstance(data_1, tuple):
        return any(data_shares_objects(a, b) for a, b in zip(data_1, data_2, strict=False))
    if isinstance(data_1, np.ndarray):
        if data_1.dtype == object:
            if data_1 is data_2:
                return True
            return any(
                data_shares_objects(a, b) for a, b in zip(data_1.flat, data_2.flat, strict=False)
            )
        return bool(np.shares_memory(data_1, data_2))
    return False


def env_data_reuse_passive_checker(
    previous_data: tuple[Any, dict[str, Any]] | None,
    data: tuple[Any, dict[str, Any]],
    previous_source: str,
    source: str,
) -> None:
    """Warn when two calls returned observations or infos that share a mutable object.

    Users keep what an environment returns (replay and rollout buffers), so an environment that
    refills and returns the same buffer silently corrupts data already handed out.

    Args:
        previous_data: ``(obs, info)`` of the earlier call; nothing is checked when ``None``.
        data: ``(obs, info)`` of the later call.
        previous_source: the earlier call's name (``"reset"`` or ``"step"``), for the message.
        source: the later call's name, for the message.
    """
    if previous_data is None:
        return
    previous_obs, previous_info = previous_data
    obs, info = data
    names = {"previous_source": previous_source, "source": source}
    if data_shares_objects(previous_obs, obs):
        logger.warn(MSG_DATA_REUSE_OBS.format(**names))
    if data_shares_objects(previous_info, info):
        logger.warn(MSG_DATA_REUSE_INFO.format(**names))


# ---------------------------------------------------------------------------------------------
# reset / step / render
# ---------------------------------------------------------------------------------------------
def _accepts_keyword(signature: inspect.Signature, name: str) -> bool:
    """Whether a callable with ``signature`` accepts the keyword argument ``name``."""
    parameter = signature.parameters.get(name)
    if parameter is not None and parameter.kind in (
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        inspect.Parameter.KEYWORD_ONLY,
    ):
        return True
    return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values())


def _check_reset_signature(env: Env[Any, Any]) -> None:
    """Warn when ``env.reset`` cannot take ``seed``/``options`` or defaults ``seed`` to a value."""
    signature = inspect.signature(env.reset)
    if not _accepts_keyword(signature, "seed"):
        logger.deprecation(MSG_RESET_NO_SEED)
    else:
        seed_param = signature.parameters.get("seed")
        if seed_param is not None and seed_param.default is not None:
            logger.warn(MSG_RESET_SEED_DEFAULT.format(param=seed_param))
    if not _accepts_keyword(signature, "options"):
        logger.deprecation(MSG_RESET_NO_OPTIONS)


def env_reset_passive_checker(env: Env[_ObsT, Any], **kwargs: Any) -> tuple[_ObsT, dict[str, Any]]:
    """Call ``env.reset(**kwargs)``, check its signature and result, and return the result as is.

    Warns (``DeprecationWarning``) when ``reset`` cannot be passed ``seed`` or ``options``, warns
    when ``seed`` defaults to something other than ``None``, when the result is not a 2-tuple,
    and about the observation (see :func:`check_obs`).

    Args:
        env: the environment (usually the one a :class:`PassiveEnvChecker` wraps).
        **kwargs: passed to ``env.reset``.

    Returns:
        Whatever ``env.reset`` returned, unchanged.

    Raises:
        AssertionError: the info is not a ``dict`` (or see :func:`check_obs`).
    """
    _check_reset_signature(env)
    result = env.reset(**kwargs)
    if not isinstance(result, tuple):
        logger.warn(MSG_RESET_NOT_TUPLE.format(actual=type(result)))
    elif len(result) != 2:
        logger.warn(MSG_RESET_BAD_LENGTH)
    else:
        obs, info = result
        check_obs(obs, env.observation_space, "reset")
        if not isinstance(info, dict):
            _fail(MSG_RESET_INFO_NOT_DICT.format(actual=type(info)))
    return result


def _is_bool(value: object) -> bool:
    """Whether ``value`` is a Python or numpy boolean."""
    return isinstance(value, (bool, np.bool_))


def _is_real_number_type(value: object) -> bool:
    """Whether ``type(value)`` is an integer or floating type in numpy's sense (not bool)."""
    kind = type(value)
    try:
        return bool(np.issubdtype(kind, np.integer) or np.issubdtype(kind, np.floating))
    except TypeError:
        return False


def _check_reward(reward: object) -> None:
    """Warn when the reward is not a real number, or is NaN or infinite."""
    if not _is_real_number_type(reward):
        logger.warn(MSG_REWARD_TYPE.format(actual=type(reward)))
        return
    if np.isnan(reward):  # type: ignore[call-overload]
        logger.warn(MSG_REWARD_NAN)
    if np.isinf(reward):  # type: ignore[call-overload]
        logger.warn(MSG_REWARD_INF)


def env_step_passive_checker(
    env: Env[_ObsT, _ActT], action: _ActT
) -> tuple[_ObsT, SupportsFloat, bool, bool, dict[str, Any]]:
    """Call ``env.step(action)``, check the result, and return it as is.

    The action itself is not checked, since some environments accept out-of-space actions.
    Warns (``DeprecationWarning``) for the old 4-tuple ``done`` API, warns when the termination
    signals are not booleans, when the reward is not a finite real number, and about the
    observation (see :func:`check_obs`).

    Args:
        env: the environment (usually the one a :class:`PassiveEnvChecker` wraps).
        action: passed to ``env.step``.

    Returns:
        Whatever ``env.step`` returned, unchanged.

    Raises:
        AssertionError: the result is not a tuple, or the info is not a ``dict``.
        vecgym.error.Error: the result does not have four or five elements.
    """
    result: Any = env.step(action)
    if not isinstance(result, tuple):
        _fail(MSG_STEP_NOT_TUPLE.format(actual=type(result)))
    if len(result) == 4:
        logger.deprecation(MSG_STEP_OLD_API)
        obs, reward, done, info = result
        if not _is_bool(done):
            logger.warn(MSG_STEP_SIGNAL_NOT_BOOL.format(signal="done", actual=type(done)))
    elif len(result) == 5:
        obs, reward, terminated, truncated, info = result
        if not _is_bool(terminated):
            logger.warn(
                MSG_STEP_SIGNAL_NOT_BOOL.format(signal="terminated", actual=type(terminated))
            )
        if not _is_bool(truncated):
            logger.warn(MSG_STEP_SIGNAL_NOT_BOOL.format(signal="truncated", actual=type(truncated)))
    else:
        raise error.Error(MSG_STEP_BAD_LENGTH.format(length=len(result)))

    check_obs(obs, env.observation_space, "step")
    _check_reward(reward)
    if not isinstance(info, dict):
        _fail(MSG_STEP_INFO_NOT_DICT.format(actual=type(info)))
    return result


def _check_rgb_frame(frame: object) -> None:
    """Warn unless ``frame`` is a ``uint8`` array of shape ``(height, width, 3)``."""
    if not isinstance(frame, np.ndarray):
        logger.warn(MSG_RENDER_RGB_NOT_ARRAY.format(actual=type(frame)))
        return
    if frame.dtype != np.uint8:
        logger.warn(MSG_RENDER_RGB_DTYPE.format(actual=frame.dtype))
    if frame.ndim != 3:
        logger.warn(MSG_RENDER_RGB_NDIM.format(actual=frame.ndim))
    elif frame.shape[2] != 3:
        logger.warn(MSG_RENDER_RGB_CHANNELS.format(actual=frame.shape[2]))


def _check_depth_frame(frame: object) -> None:
    """Warn unless ``frame`` is a two-dimensional array."""
    if not isinstance(frame, np.ndarray):
        logger.warn(MSG_RENDER_DEPTH_NOT_ARRAY.format(actual=type(frame)))
    elif frame.ndim != 2:
        logger.warn(MSG_RENDER_DEPTH_NDIM.format(actual=frame.ndim))


def _check_render_return(render_mode: str, render_return: object) -> None:
    """Warn when what ``render()`` returned does not suit ``render_mode``.

    ``"<mode>_list"`` modes must return a list whose items each suit ``"<mode>"``. Modes other
    than the standard ones are not checked.
    """
    if render_mode == "human":
        if render_return is not None:
            logger.warn(MSG_RENDER_HUMAN.format(actual=type(render_return)))
    elif render_mode == "rgb_array":
        _check_rgb_frame(render_return)
    elif render_mode == "depth_array":
        _check_depth_frame(render_return)
    elif render_mode in _TEXT_RENDER_MODES:
        if not isinstance(render_return, str):
            logger.warn(MSG_RENDER_ANSI.format(actual=type(render_return)))
    elif render_mode.endswith(_LIST_SUFFIX):
        if not isinstance(render_return, list):
            logger.warn(MSG_RENDER_LIST.format(render_mode=render_mode, actual=type(render_return)))
            return
        base_mode = render_mode[: -len(_LIST_SUFFIX)]
        for item in render_return:
            _check_render_return(base_mode, item)


def _check_render_fps(render_fps: object) -> None:
    """Warn when ``render_fps`` is missing or not a number; raise when it is not positive."""
    if render_fps is None:
        logger.warn(MSG_NO_RENDER_FPS)
    elif not _is_real_number_type(render_fps):
        logger.warn(MSG_RENDER_FPS_TYPE.format(actual=type(render_fps)))
    elif not render_fps > 0:  # type: ignore[operator]
        _fail(MSG_RENDER_FPS_POSITIVE.format(value=render_fps))


def _check_render_metadata(env: Env[Any, Any]) -> None:
    """Check ``metadata["render_modes"]``, ``metadata["render_fps"]`` and ``env.render_mode``."""
    render_modes = env.metadata.get("render_modes")
    if render_modes is None:
        logger.warn(MSG_NO_RENDER_MODES)
        return
    if not isinstance(render_modes, (list, tuple)):
        logger.warn(MSG_RENDER_MODES_NOT_SEQUENCE.format(actual=type(render_modes)))
        if not hasattr(render_modes, "__len__"):
            return
    elif not all(isinstance(mode, str) for mode in render_modes):
        logger.warn(MSG_RENDER_MODES_NOT_STR.format(actual=[type(mode) for mode in render_modes]))

    if len(render_modes) > 0:
        _check_render_fps(env.metadata.get("render_fps"))
        if env.render_mode is not None and env.render_mode not in render_modes:
            _fail(
                MSG_RENDER_MODE_UNSUPPORTED.format(
                    render_mode=env.render_mode, render_modes=render_modes
                )
            )
    elif env.render_mode is not None:
        _fail(MSG_RENDER_MODE_WITHOUT_MODES.format(render_mode=env.render_mode))


def env_render_passive_checker(env: Env[Any, Any]) -> Any:
    """Check the environment's declared render modes and fps, call ``env.render()`` and return it.

    Warns when ``metadata["render_modes"]`` is missing or not a sequence of strings, when
    ``metadata["render_fps"]`` is missing or not a number (only required when some render mode
    is declared), and when the rendered value does not suit ``env.render_mode`` (``None`` for
    ``"human"``, a ``uint8`` ``(H, W, 3)`` array for ``"rgb_array"``, a 2-D array for
    ``"depth_array"``, a string for ``"ansi"``, a list of those for ``"*_list"``).

    Args:
        env: the environment (usually the one a :class:`PassiveEnvChecker` wraps).

    Returns:
        Whatever ``env.render()`` returned, unchanged.

    Raises:
        AssertionError: ``render_fps`` is not positive, or ``env.render_mode`` is not one of the
            declared render modes.
    """
    _check_render_metadata(env)
    result = env.render()
    render_mode = env.render_mode
    if render_mode is not None:
        if isinstance(render_mode, str):
            _check_render_return(render_mode, result)
        else:
            logger.warn(MSG_RENDER_MODE_NOT_STR.format(actual=type(render_mode)))
    return result
