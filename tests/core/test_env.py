"""`vecgym.Env`: seeding, defaults, string form, context manager and wrapper-attribute helpers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vecgym
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.env import Env
from vecgym.core.registration import EnvSpec
from vecgym.core.seeding import SEED_TYPE_MSG, SEED_VALUE_MSG
from vecgym.core.spaces.space import Space

SEEDS = [0, 1, 42, 2**31 - 1, 2**63 + 5]


class SeededEnv(Env[int, int]):
    """Minimal env: observations are draws from ``np_random``."""

    observation_space = Space(shape=(), dtype=np.int64)
    action_space = Space(shape=(), dtype=np.int64)

    def __init__(self) -> None:
        self.closed = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        super().reset(seed=seed)
        return int(self.np_random.integers(1000)), {}

    def close(self) -> None:
        self.closed += 1


@pytest.mark.parametrize("seed", SEEDS)
def test_reset_seed_gives_gymnasiums_stream(seed: int) -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")
    env, reference = Env(), gymnasium.Env()
    env.reset(seed=seed)
    reference.reset(seed=seed)
    np.testing.assert_array_equal(env.np_random.random(16), reference.np_random.random(16))
    assert env.np_random_seed == reference.np_random_seed == seed


def test_reset_without_seed_keeps_generator() -> None:
    env = Env()
    env.reset(seed=7)
    rng = env.np_random
    first = rng.random()
    env.reset()
    assert env.np_random is rng
    assert env.np_random_seed == 7
    expected = np.random.Generator(np.random.PCG64(np.random.SeedSequence(7)))
    expected.random()
    assert env.np_random.random() == expected.random()
    assert first != env.np_random.random()


def test_reset_with_seed_replaces_generator() -> None:
    env = Env()
    env.reset(seed=3)
    a = env.np_random.random(4)
    env.reset(seed=3)
    np.testing.assert_array_equal(env.np_random.random(4), a)


def test_base_reset_returns_none() -> None:
    assert Env().reset(seed=1) is None


def test_np_random_is_lazy_and_consistent_with_its_seed() -> None:
    env = Env()
    assert env._np_random is None
    rng = env.np_random
    assert isinstance(rng, np.random.Generator)
    assert env.np_random is rng
    seed = env.np_random_seed
    assert isinstance(seed, int)
    assert seed >= 0
    replay, _ = vecgym.utils.seeding.np_random(seed)
    np.testing.assert_array_equal(rng.random(3), replay.random(3))


def test_np_random_seed_first_creates_generator() -> None:
    env = Env()
    seed = env.np_random_seed
    assert env._np_random is not None
    assert env.np_random_seed == seed


def test_assigning_generator_sets_seed_to_minus_one() -> None:
    env = Env()
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    env.np_random = rng
    assert env.np_random is rng
    assert env.np_random_seed == -1
    env.reset(seed=5)
    assert env.np_random_seed == 5


def test_np_random_seed_matches_gymnasium_after_assignment() -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")
    env, reference = Env(), gymnasium.Env()
    env.np_random = np.random.default_rng(1)
    reference.np_random = np.random.default_rng(1)
    assert env.np_random_seed == reference.np_random_seed == -1


@pytest.mark.parametrize(
    ("seed", "message"),
    [(-1, SEED_VALUE_MSG), (1.5, SEED_TYPE_MSG), ("3", SEED_TYPE_MSG), (True, SEED_TYPE_MSG)],
)
def test_reset_rejects_bad_seed(seed: Any, message: str) -> None:
    with pytest.raises(error.Error, match=message_pattern(message)):
        Env().reset(seed=seed)


def test_class_defaults() -> None:
    env = Env()
    assert env.metadata == {"render_modes": []}
    assert env.render_mode is None
    assert env.spec is None
    assert env.unwrapped is env
    env.close()


def test_step_and_render_are_abstract() -> None:
    env = Env()
    with pytest.raises(NotImplementedError):
        env.step(0)
    with pytest.raises(NotImplementedError):
        env.render()


def test_str_without_and_with_spec() -> None:
    env = SeededEnv()
    assert str(env) == "<SeededEnv instance>"
    env.spec = EnvSpec("Seeded-v3", entry_point="tests.core.test_env:SeededEnv")
    assert str(env) == "<SeededEnv<Seeded-v3>>"


def test_str_matches_gymnasium() -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")

    class Plain(gymnasium.Env):
        pass

    class PlainV(Env):
        pass

    assert str(Plain()).replace("Plain", "X") == str(PlainV()).replace("PlainV", "X")


def test_context_manager_closes() -> None:
    with SeededEnv() as env:
        assert isinstance(env, SeededEnv)
        assert env.closed == 0
    assert env.closed == 1


def test_context_manager_closes_and_propagates_exceptions() -> None:
    env = SeededEnv()
    with pytest.raises(KeyError), env:
        raise KeyError("boom")
    assert env.closed == 1


def test_env_is_generic_with_defaults() -> None:
    assert Env[np.ndarray] is not None
    assert Env[np.ndarray, int] is not None


def test_wrapper_attr_helpers_on_plain_env() -> None:
    env = SeededEnv()
    assert env.has_wrapper_attr("closed")
    assert not env.has_wrapper_attr("missing")
    assert env.get_wrapper_attr("closed") == 0
    with pytest.raises(AttributeError):
        env.get_wrapper_attr("missing")
    assert env.set_wrapper_attr("closed", 4) is True
    assert env.closed == 4
    assert env.set_wrapper_attr("missing", 1, force=False) is False
    assert not hasattr(env, "missing")
    assert env.set_wrapper_attr("missing", 1) is True
    assert env.missing == 1  # type: ignore[attr-defined]


def test_core_exports_gymnasium_core_names() -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")
    import vecgym.core

    for name in [
        "Env",
        "Wrapper",
        "ObservationWrapper",
        "ActionWrapper",
        "RewardWrapper",
        "ObsType",
        "ActType",
        "RenderFrame",
        "WrapperObsType",
        "WrapperActType",
    ]:
        assert hasattr(gymnasium.core, name)
        assert getattr(vecgym.core, name) is getattr(vecgym.core.env, name)
    assert vecgym.Env is vecgym.core.Env


def test_generic_test_env_defaults_follow_gymnasium() -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")
    from tests.support.generic_env import GenericTestEnv

    env = GenericTestEnv()
    assert env.spec is not None
    assert (env.spec.id, env.spec.max_episode_steps) == ("TestingEnv-v0", 100)
    assert env.metadata == {"render_modes": []}
    assert env.render_mode is None
    assert env.render() is None
    obs, info = env.reset(seed=11, options={"k": 1})
    assert info == {"options": {"k": 1}}

    reference = gymnasium.Env()
    reference.reset(seed=11)
    space = gymnasium.spaces.Box(0, 1, (1,))
    space.seed(reference.np_random_seed)
    np.testing.assert_array_equal(obs, space.sample())
    assert env.step(env.action_space.sample())[1:] == (0, False, False, {})


def test_generic_test_env_none_leaves_placeholders() -> None:
    from tests.support.generic_env import GenericTestEnv

    env = GenericTestEnv(
        action_space=None,
        observation_space=None,
        reset_func=None,
        step_func=None,
        render_func=None,
        spec=None,
    )
    assert not hasattr(env, "action_space")
    assert not hasattr(env, "observation_space")
    assert env.spec is None
    for call in (env.reset, lambda: env.step(0), env.render):
        with pytest.raises(NotImplementedError):
            call()
