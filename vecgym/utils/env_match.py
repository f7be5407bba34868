"""Check that two environments behave alike: Gymnasium's ``gymnasium.utils.env_match`` module.

:func:`check_environments_match` runs two environments side by side with the same seed and the
same random actions, and raises ``AssertionError`` at the first difference it is asked to look
for: spaces, observations, rewards, ``terminated`` / ``truncated`` flags, infos and frames. A
typical use is checking a new version of an environment against the old one, or a port against
the original.

Differences from Gymnasium, on purpose (CHANGELOG, "Differs from Gymnasium on purpose"):

* every check raises its ``AssertionError`` explicitly, so the checks also run under
  ``python -O`` (Gymnasium's are ``assert`` statements, which ``-O`` removes);
* ``rgb_array_list`` renders are compared frame by frame. Gymnasium compares the two lists with
  ``==``, which for two lists of arrays raises numpy's ``ValueError`` about the truth value of an
  array, whether or not the frames match;
* frames of different shapes fail the check with an ``AssertionError`` that is also a
  ``ValueError`` (the error numpy raises in Gymnasium when it cannot broadcast the two);
* with ``info_comparison="superset"``, a key of ``info_a`` missing from ``info_b`` fails the check
  with an ``AssertionError`` that is also a ``KeyError`` (Gymnasium's lookup raises a bare
  ``KeyError``);
* an unknown ``info_comparison`` raises :class:`vecgym.error.InvalidArgument` (a ``ValueError``;
  Gymnasium fails an ``assert``), before either environment is touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from vecgym import error
from vecgym.core.env import Env
from vecgym.core.env_checker import data_equivalence

__all__ = ["check_environments_match"]

INFO_COMPARISONS = ("equivalence", "superset", "skip", "keys-equivalence", "keys-superset")
"""The values ``info_comparison`` takes."""

UNKNOWN_INFO_COMPARISON_MSG = "info_comparison must be one of {options}, got {value!r}"
ACTION_SPACES_DIFFER_MSG = "the action spaces differ: env_a has {a}, env_b has {b}"
OBSERVATION_SPACES_DIFFER_MSG = "the observation spaces differ: env_a has {a}, env_b has {b}"
OBS_DIFFER_MSG = "the observations differ {when}: env_a gave {a!r}, env_b gave {b!r}"
REWARDS_DIFFER_MSG = "the rewards differ {when}: env_a gave {a!r}, env_b gave {b!r}"
TERMINATED_DIFFER_MSG = "the terminated flags differ {when}: env_a gave {a!r}, env_b gave {b!r}"
TRUNCATED_DIFFER_MSG = "the truncated flags differ {when}: env_a gave {a!r}, env_b gave {b!r}"
INFOS_DIFFER_MSG = "the infos differ {when}: env_a gave {a!r}, env_b gave {b!r}"
INFO_VALUE_DIFFERS_MSG = (
    "info[{key!r}] differs {when}: env_a gave {a!r}, env_b gave {b!r} (info_comparison='superset')"
)
INFO_KEY_MISSING_MSG = (
    "info_b lacks the key {key!r} of info_a {when} (info_comparison='superset'); "
    "info_b's keys: {keys}"
)
INFO_KEYS_DIFFER_MSG = "the info keys differ {when}: env_a gave {a}, env_b gave {b}"
INFO_KEYS_MISSING_MSG = "info_b lacks the keys {missing} of info_a {when} (keys-superset)"
RENDERS_DIFFER_MSG = "the renders differ {when}"
RENDER_SHAPES_DIFFER_MSG = "the renders differ {when}: frames of shape {a} and {b}"


class _InfoKeyMissing(AssertionError, KeyError):
    """``info_b`` lacks a key of ``info_a`` (``"superset"``); also the ``KeyError`` that
    Gymnasium's lookup raises."""

    def __str__(self) -> str:  # KeyError would show the message's repr
        return str(self.args[0]) if self.args else ""


class _RenderShapesDiffer(AssertionError, ValueError):
    """The two renders have different shapes; also the ``ValueError`` numpy raises in Gymnasium
    when it compares arrays that do not broadcast."""


def _frames_match(render_a: Any, render_b: Any, when: str) -> bool:
    """Whether two renders are equal: lists frame by frame, arrays by shape and values.

    Raises:
        AssertionError: two frames have different shapes (the exception is also a ``ValueError``).
    """
    if isinstance(render_a, (list, tuple)) and isinstance(render_b, (list, tuple)):
        return len(render_a) == len(render_b) and all(
            _frames_match(a, b, when) for a, b in zip(render_a, render_b, strict=True)
        )
    array_a, array_b = np.asarray(render_a), np.asarray(render_b)
    if array_a.shape != array_b.shape:
        raise _RenderShapesDiffer(
            RENDER_SHAPES_DIFFER_MSG.format(when=when, a=array_a.shape, b=array_b.shape)
        )
    return bool(np.array_equal(array_a, array_b))


@dataclass(frozen=True)
class _Comparison:
    """The checks that :func:`check_environments_match` was asked to make."""

    env_a: Env
    env_b: Env
    skip_obs: bool
    skip_rew: bool
    skip_terminal: bool
    skip_truncated: bool
    skip_render: bool
    info_comparison: str

    def spaces(self) -> None:
        """The action spaces, and unless ``skip_obs`` the observation spaces, are equal."""
        a, b = self.env_a.action_space, self.env_b.action_space
        if a != b:
            raise AssertionError(ACTION_SPACES_DIFFER_MSG.format(a=a, b=b))
        a, b = self.env_a.observation_space, self.env_b.observation_space
        if not self.skip_obs and a != b:
            raise AssertionError(OBSERVATION_SPACES_DIFFER_MSG.format(a=a, b=b))

    def reset(self, seed: int, when: str) -> None:
        """Reset both with ``seed`` and compare the observations, the infos and the renders."""
        obs_a, info_a = self.env_a.reset(seed=seed)
        obs_b, info_b = self.env_b.reset(seed=seed)
        self.observations(obs_a, obs_b, when)
        self.infos(info_a, info_b, when)
        self.renders(when)

    def step(self, action: Any, when: str) -> bool:
        """Step both with ``action`` and compare what they return; whether an episode ended."""
        obs_a, rew_a, terminated_a, truncated_a, info_a = self.env_a.step(action)
        obs_b, rew_b, terminated_b, truncated_b, info_b = self.env_b.step(action)
        self.observations(obs_a, obs_b, when)
        if not self.skip_rew and not data_equivalence(rew_a, rew_b):
            raise AssertionError(REWARDS_DIFFER_MSG.format(when=when, a=rew_a, b=rew_b))
        if not self.skip_terminal and terminated_a != terminated_b:
            raise AssertionError(
                TERMINATED_DIFFER_MSG.format(when=when, a=terminated_a, b=terminated_b)
            )
        if not self.skip_truncated and truncated_a != truncated_b:
            raise AssertionError(
                TRUNCATED_DIFFER_MSG.format(when=when, a=truncated_a, b=truncated_b)
            )
        self.infos(info_a, info_b, when)
        self.renders(when)
        return bool(terminated_a or truncated_a or terminated_b or truncated_b)

    def observations(self, obs_a: Any, obs_b: Any, when: str) -> None:
        if not self.skip_obs and not data_equivalence(obs_a, obs_b):
            raise AssertionError(OBS_DIFFER_MSG.format(when=when, a=obs_a, b=obs_b))

    def infos(self, info_a: dict[str, Any], info_b: dict[str, Any], when: str) -> None:
        mode = self.info_comparison
        if mode == "equivalence" and not data_equivalence(info_a, info_b):
            raise AssertionError(INFOS_DIFFER_MSG.format(when=when, a=info_a, b=info_b))
        if mode == "superset":
            for key, value in info_a.items():
                if key not in info_b:
                    message = INFO_KEY_MISSING_MSG.format(key=key, when=when, keys=list(info_b))
                    raise _InfoKeyMissing(message)
                if not data_equivalence(value, info_b[key]):
                    raise AssertionError(
                        INFO_VALUE_DIFFERS_MSG.format(key=key, when=when, a=value, b=info_b[key])
                    )
        if mode == "keys-equivalence" and info_a.keys() != info_b.keys():
            raise AssertionError(
                INFO_KEYS_DIFFER_MSG.format(when=when, a=list(info_a), b=list(info_b))
            )
        if mode == "keys-superset" and not info_b.keys() >= info_a.keys():
            missing = [key for key in info_a if key not in info_b]
            raise AssertionError(INFO_KEYS_MISSING_MSG.format(missing=missing, when=when))

    def renders(self, when: str) -> None:
        if self.skip_render:
            return
        if not _frames_match(self.env_a.render(), self.env_b.render(), when):
            raise AssertionError(RENDERS_DIFFER_MSG.format(when=when))


def check_environments_match(
    env_a: Env,
    env_b: Env,
    num_steps: int,
    seed: int = 0,
    skip_obs: bool = False,
    skip_rew: bool = False,
    skip_terminal: bool = False,
    skip_truncated: bool = False,
    skip_render: bool = False,
    info_comparison: str = "equivalence",
) -> None:
    """Check that ``env_a`` and ``env_b`` behave the same, step by step.

    The two must have equal action spaces, and equal observation spaces unless ``skip_obs``.
    ``env_a``'s action space is seeded with ``seed``; both environments are reset with ``seed``
    and stepped ``num_steps`` times with the same actions, sampled from that space. When either
    episode ends, both are reset with ``seed`` again. After every reset and step the results are
    compared: observations, rewards and infos with
    :func:`~vecgym.utils.env_checker.data_equivalence` (arrays within a small tolerance), the
    ``terminated`` and ``truncated`` flags with ``==``, the frames of ``render()`` exactly.

    Args:
        env_a: the first environment.
        env_b: the second environment.
        num_steps: how many steps to compare; 0 compares the first reset only.
        seed: the seed of the action space and of every reset.
        skip_obs: compare neither the observation spaces nor the observations.
        skip_rew: do not compare the rewards.
        skip_terminal: do not compare the ``terminated`` flags.
        skip_truncated: do not compare the ``truncated`` flags.
        skip_render: do not compare the renders. They are not compared either when either
            environment (unwrapped) has no render mode or renders in ``"human"`` mode.
        info_comparison: how the infos are compared:

            * ``"equivalence"``: the infos are equivalent;
            * ``"superset"``: every key of ``info_a`` is in ``info_b``, with an equivalent value;
            * ``"keys-equivalence"``: the infos have the same keys (the values are not compared);
            * ``"keys-superset"``: ``info_b`` has every key of ``info_a`` (and maybe more);
            * ``"skip"``: the infos are not compared.

    Raises:
        AssertionError: the first difference found; the message says what differs and when.
        InvalidArgument: ``info_comparison`` is none of the values above (a ``ValueError``).

    Example:
        >>> import vecgym
        >>> from vecgym.utils.env_match import check_environments_match
        >>> env_a = vecgym.make("CartPole-v1")
        >>> env_b = vecgym.make("CartPole-v1")
        >>> check_environments_match(env_a, env_b, num_steps=100)
        >>> env_c = vecgym.make("CartPole-v1", max_episode_steps=5)
        >>> check_environments_match(env_a, env_c, num_steps=10)
        Traceback (most recent call last):
            ...
        AssertionError: the truncated flags differ at step 4: env_a gave False, env_b gave True
        >>> for env in (env_a, env_b, env_c):
        ...     env.close()
    """
    if info_comparison not in INFO_COMPARISONS:
        raise error.InvalidArgument(
            UNKNOWN_INFO_COMPARISON_MSG.format(
                options=list(INFO_COMPARISONS), value=info_comparison
            )
        )
    skip_render = (
        skip_render
        or env_a.unwrapped.render_mode in (None, "human")
        or env_b.unwrapped.render_mode in (None, "human")
    )
    comparison = _Comparison(
        env_a=env_a,
        env_b=env_b,
        skip_obs=skip_obs,
        skip_rew=skip_rew,
        skip_terminal=skip_terminal,
        skip_truncated=skip_truncated,
        skip_render=skip_render,
        info_comparison=info_comparison,
    )
    comparison.spaces()
    env_a.action_space.seed(seed)
    comparison.reset(seed, "after the first reset")
    for step in range(num_steps):
        episode_over = comparison.step(env_a.action_space.sample(), f"at step {step}")
        if episode_over:
            comparison.reset(seed, f"at the reset after step {step}")
