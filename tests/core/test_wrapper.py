"""`Wrapper` and its three narrow subclasses: forwarding, overriding, attribute access, spec."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from tests.support.generic_env import GenericTestEnv
from tests.support.messages import message_pattern
from vecgym import error
from vecgym.core.env import (
    SPEC_COPY_FAILED_MSG,
    WRAPPER_ENV_TYPE_MSG,
    WRAPPER_NO_ATTR_MSG,
    WRAPPER_PRIVATE_RNG_MSG,
    ActionWrapper,
    Env,
    ObservationWrapper,
    RewardWrapper,
    Wrapper,
)
from vecgym.core.record_constructor import RecordConstructorArgs
from vecgym.core.registration import EnvSpec, WrapperSpec
from vecgym.core.seeding import SEED_VALUE_MSG
from vecgym.core.spaces.space import Space


def _space(n: int = 1) -> Space[Any]:
    return Space(shape=(n,), dtype=np.float32)


class RecordingEnv(GenericTestEnv):
    """GenericTestEnv that remembers the resets and actions it received."""

    def __init__(self, **kwargs: Any) -> None:
        self.resets: list[tuple[int | None, dict[str, Any] | None]] = []
        self.actions: list[Any] = []
        super().__init__(**kwargs)


def _reset(
    self: RecordingEnv, *, seed: int | None = None, options: dict[str, Any] | None = None
) -> tuple[Any, dict[str, Any]]:
    Env.reset(self, seed=seed)
    self.resets.append((seed, options))
    return 10, {"seed": seed}


def _step(self: RecordingEnv, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
    self.actions.append(action)
    return 20, 1.5, False, True, {"action": action}


def _render(self: RecordingEnv) -> str:
    return "frame"


def make_env(**kwargs: Any) -> RecordingEnv:
    """A GenericTestEnv with recording reset/step functions and placeholder spaces."""
    options: dict[str, Any] = {
        "action_space": _space(1),
        "observation_space": _space(2),
        "reset_func": _reset,
        "step_func": _step,
        "render_func": _render,
    }
    options.update(kwargs)
    return RecordingEnv(**options)


class Plain(Wrapper):
    pass


class Recorded(Wrapper, RecordConstructorArgs):
    def __init__(self, env: Env, scale: float = 1.0, tags: list[str] | None = None) -> None:
        RecordConstructorArgs.__init__(self, scale=scale, tags=tags)
        Wrapper.__init__(self, env)
        self.scale = scale


class RecordedWithEnv(Wrapper, RecordConstructorArgs):
    def __init__(self, env: Env, depth: int = 2) -> None:
        RecordConstructorArgs.__init__(self, env=env, depth=depth)
        Wrapper.__init__(self, env)


class Doubled(ObservationWrapper):
    def observation(self, observation: Any) -> Any:
        return 2 * observation


class Halved(RewardWrapper):
    def reward(self, reward: Any) -> Any:
        return reward / 2


class Offset(ActionWrapper):
    def action(self, action: Any) -> Any:
        return action + 100


# -- construction and forwarding ------------------------------------------------------------------


@pytest.mark.parametrize("not_env", [None, 3, object(), "CartPole-v1"])
def test_wrapper_rejects_non_env(not_env: Any) -> None:
    with pytest.raises(TypeError, match=message_pattern(WRAPPER_ENV_TYPE_MSG)):
        Plain(not_env)


def test_wrapper_forwards_methods() -> None:
    env = make_env()
    wrapper = Plain(env)
    assert wrapper.reset(seed=3, options={"a": 1}) == (10, {"seed": 3})
    assert env.resets == [(3, {"a": 1})]
    assert wrapper.step(7) == (20, 1.5, False, True, {"action": 7})
    assert wrapper.render() == "frame"
    closed = []
    env.close = lambda: closed.append(True)  # type: ignore[method-assign]
    wrapper.close()
    assert closed == [True]


def test_wrapper_forwards_attributes() -> None:
    env = make_env(metadata={"render_modes": ["ansi"], "render_fps": 4}, render_mode="ansi")
    wrapper = Plain(Plain(env))
    assert wrapper.action_space is env.action_space
    assert wrapper.observation_space is env.observation_space
    assert wrapper.metadata is env.metadata
    assert wrapper.render_mode == "ansi"
    assert wrapper.unwrapped is env
    assert wrapper.env.env is env  # type: ignore[attr-defined]
    env.reset(seed=9)
    assert wrapper.np_random is env.np_random
    assert wrapper.np_random_seed == 9


def test_wrapper_overrides_spaces_and_metadata_without_touching_env() -> None:
    env = make_env()
    inner_action, inner_obs, inner_meta = env.action_space, env.observation_space, env.metadata
    wrapper = Plain(env)
    new_action, new_obs = _space(3), _space(4)
    wrapper.action_space = new_action
    wrapper.observation_space = new_obs
    wrapper.metadata = {"render_modes": ["human"]}
    assert wrapper.action_space is new_action
    assert wrapper.observation_space is new_obs
    assert wrapper.metadata == {"render_modes": ["human"]}
    assert env.action_space is inner_action
    assert env.observation_space is inner_obs
    assert env.metadata is inner_meta
    outer = Plain(wrapper)
    assert outer.action_space is new_action
    assert outer.observation_space is new_obs


def test_render_mode_is_read_only_on_wrapper() -> None:
    wrapper = Plain(make_env(render_mode="ansi"))
    with pytest.raises(AttributeError):
        wrapper.render_mode = "human"  # type: ignore[misc]


def test_np_random_assignment_goes_to_inner_env() -> None:
    env = make_env()
    wrapper = Plain(Plain(env))
    rng = np.random.default_rng(0)
    wrapper.np_random = rng
    assert env.np_random is rng
    assert wrapper.np_random_seed == -1
    assert env.np_random_seed == -1


def test_reset_seed_through_wrapper_seeds_inner_env() -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")
    env = make_env()
    wrapper = Plain(env)
    wrapper.reset(seed=123)
    reference = gymnasium.Env()
    reference.reset(seed=123)
    np.testing.assert_array_equal(wrapper.np_random.random(5), reference.np_random.random(5))


def test_private_np_random_is_not_reachable_through_wrapper() -> None:
    wrapper = Plain(make_env())
    with pytest.raises(AttributeError, match=message_pattern(WRAPPER_PRIVATE_RNG_MSG)):
        _ = wrapper._np_random


def test_arbitrary_attributes_are_not_forwarded() -> None:
    env = make_env()
    env.custom = 5  # type: ignore[attr-defined]
    env._private = 6  # type: ignore[attr-defined]
    wrapper = Plain(env)
    with pytest.raises(AttributeError):
        _ = wrapper.custom  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        _ = wrapper._private  # type: ignore[attr-defined]


def test_attribute_access_matches_gymnasium() -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")

    class GymEnv(gymnasium.Env):
        custom = 5

    class VecEnv(Env):
        custom = 5

    gym_wrapper = gymnasium.Wrapper(GymEnv())
    vec_wrapper = Wrapper(VecEnv())
    for name in ["custom", "_np_random", "_private", "env", "spec", "metadata"]:
        assert hasattr(gym_wrapper, name) == hasattr(vec_wrapper, name), name
    assert gym_wrapper.np_random_seed is not None
    assert vec_wrapper._np_random_seed is gym_wrapper._np_random_seed is None


# -- get/set/has_wrapper_attr ---------------------------------------------------------------------


def test_get_wrapper_attr_searches_down_the_stack() -> None:
    env = make_env()
    env.depth_attr = "env"  # type: ignore[attr-defined]
    inner = Recorded(env, scale=2.0)
    outer = Plain(inner)
    assert outer.get_wrapper_attr("depth_attr") == "env"
    assert outer.get_wrapper_attr("scale") == 2.0
    assert outer.get_wrapper_attr("env") is inner


def test_get_wrapper_attr_missing_raises() -> None:
    outer = Plain(Recorded(make_env()))
    with pytest.raises(
        AttributeError, match=message_pattern(WRAPPER_NO_ATTR_MSG, "Plain", "nothing")
    ) as info:
        outer.get_wrapper_attr("nothing")
    assert WRAPPER_NO_ATTR_MSG.format("Plain", "nothing") == str(info.value)
    assert isinstance(info.value.__cause__, AttributeError)


def test_has_wrapper_attr() -> None:
    env = make_env()
    env.deep = 1  # type: ignore[attr-defined]
    wrapper = Plain(Recorded(env))
    assert wrapper.has_wrapper_attr("deep")
    assert wrapper.has_wrapper_attr("scale")
    assert not wrapper.has_wrapper_attr("nothing")


def test_set_wrapper_attr_sets_on_outermost_layer_that_has_it() -> None:
    env = make_env()
    env.deep = 1  # type: ignore[attr-defined]
    inner = Recorded(env, scale=2.0)
    outer = Plain(inner)
    assert outer.set_wrapper_attr("deep", 10) is True
    assert env.deep == 10  # type: ignore[attr-defined]
    assert "deep" not in vars(outer)
    assert "deep" not in vars(inner)
    assert outer.set_wrapper_attr("scale", 3.0) is True
    assert inner.scale == 3.0
    assert "scale" not in vars(outer)


def test_set_wrapper_attr_force_creates_on_outer_wrapper() -> None:
    env = make_env()
    outer = Plain(Plain(env))
    assert outer.set_wrapper_attr("fresh", 1) is True
    assert vars(outer)["fresh"] == 1
    assert not hasattr(outer.env, "fresh")
    assert not hasattr(env, "fresh")


def test_set_wrapper_attr_without_force_fails_for_missing() -> None:
    env = make_env()
    outer = Plain(Plain(env))
    assert outer.set_wrapper_attr("fresh", 1, force=False) is False
    assert not outer.has_wrapper_attr("fresh")


def test_set_wrapper_attr_on_property_reaches_env() -> None:
    env = make_env()
    wrapper = Plain(env)
    rng = np.random.default_rng(5)
    assert wrapper.set_wrapper_attr("np_random", rng) is True
    assert env.np_random is rng


# -- string form, spec ----------------------------------------------------------------------------


def test_str_and_repr() -> None:
    env = make_env()
    wrapper = Recorded(Plain(env))
    assert str(wrapper) == "<Recorded<Plain<RecordingEnv<TestingEnv-v0>>>>"
    assert repr(wrapper) == str(wrapper)
    bare = Plain(make_env(spec=None))
    assert str(bare) == "<Plain<RecordingEnv instance>>"


def test_str_matches_gymnasium() -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")

    class Base(gymnasium.Env):
        pass

    class VBase(Env):
        pass

    reference = str(gymnasium.Wrapper(gymnasium.Wrapper(Base())))
    assert str(Wrapper(Wrapper(VBase()))).replace("VBase", "Base") == reference


def test_class_name() -> None:
    assert Plain.class_name() == "Plain"
    assert Plain(make_env()).class_name() == "Plain"


def test_spec_is_none_without_env_spec() -> None:
    assert Recorded(make_env(spec=None)).spec is None


def test_spec_appends_wrapper_spec_with_recorded_kwargs() -> None:
    env = make_env()
    wrapper = RecordedWithEnv(Recorded(Plain(env), scale=0.5, tags=["a"]), depth=3)
    spec = wrapper.spec
    assert spec is not None
    assert spec.id == "TestingEnv-v0"
    assert spec.additional_wrappers == (
        WrapperSpec("Plain", f"{__name__}:Plain", None),
        WrapperSpec("Recorded", f"{__name__}:Recorded", {"scale": 0.5, "tags": ["a"]}),
        WrapperSpec("RecordedWithEnv", f"{__name__}:RecordedWithEnv", {"depth": 3}),
    )
    assert env.spec is not None
    assert env.spec.additional_wrappers == ()
    assert "env" in wrapper._saved_kwargs


def test_spec_is_cached() -> None:
    wrapper = Recorded(make_env(), scale=1.0)
    first = wrapper.spec
    assert first is not None
    assert wrapper.spec is first


def test_spec_matches_gymnasium() -> None:
    gymnasium: Any = pytest.importorskip("gymnasium")
    from gymnasium.envs.registration import EnvSpec as GymEnvSpec
    from gymnasium.utils import RecordConstructorArgs as GymRecord

    class GymRecorded(gymnasium.Wrapper, GymRecord):
        def __init__(self, env: Any, scale: float = 1.0) -> None:
            GymRecord.__init__(self, scale=scale)
            gymnasium.Wrapper.__init__(self, env)

    class VecRecorded(Wrapper, RecordConstructorArgs):
        def __init__(self, env: Any, scale: float = 1.0) -> None:
            RecordConstructorArgs.__init__(self, scale=scale)
            Wrapper.__init__(self, env)

    gym_env = gymnasium.Env()
    gym_env.spec = GymEnvSpec("Demo-v1", entry_point="x:Y", max_episode_steps=5)
    vec_env = Env()
    vec_env.spec = EnvSpec("Demo-v1", entry_point="x:Y", max_episode_steps=5)
    gym_spec = GymRecorded(gymnasium.Wrapper(gym_env), scale=2.0).spec
    vec_spec = VecRecorded(Wrapper(vec_env), scale=2.0).spec
    assert gym_spec is not None
    assert vec_spec is not None
    assert [(w.name, w.kwargs) for w in vec_spec.additional_wrappers] == [
        (w.name.replace("Gym", "Vec"), w.kwargs) for w in gym_spec.additional_wrappers
    ]


def test_spec_copy_failure_warns_and_returns_none() -> None:
    env = make_env()
    assert env.spec is not None
    env.spec.kwargs["unclonable"] = (i for i in range(3))  # generators cannot be deep-copied
    with pytest.warns(UserWarning, match=message_pattern(SPEC_COPY_FAILED_MSG)):
        assert Plain(env).spec is None


def test_wrapper_spec_classmethod() -> None:
    assert Recorded.wrapper_spec(scale=3) == WrapperSpec(
        "Recorded", f"{__name__}:Recorded", {"scale": 3}
    )


def test_wrapper_seeds_like_env_and_bad_seed_is_rejected() -> None:
    wrapper = Plain(make_env())
    with pytest.raises(error.Error, match=message_pattern(SEED_VALUE_MSG, -3)):
        wrapper.reset(seed=-3)


def test_wrapper_context_manager_closes_inner_env() -> None:
    env = make_env()
    closed = []
    env.close = lambda: closed.append(True)  # type: ignore[method-assign]
    with Plain(env) as wrapper:
        assert isinstance(wrapper, Plain)
    assert closed == [True]


def test_deepcopy_of_wrapper() -> None:
    wrapper = Recorded(make_env(), scale=4.0)
    clone = copy.deepcopy(wrapper)
    assert clone.scale == 4.0
    assert clone.env is not wrapper.env


# -- the narrow wrappers --------------------------------------------------------------------------


def test_observation_wrapper_maps_reset_and_step_observations() -> None:
    env = make_env()
    wrapper = Doubled(env)
    assert wrapper.reset(seed=1) == (20, {"seed": 1})
    assert wrapper.step(3) == (40, 1.5, False, True, {"action": 3})
    assert env.actions == [3]


def test_reward_wrapper_maps_only_reward() -> None:
    wrapper = Halved(make_env())
    assert wrapper.reset() == (10, {"seed": None})
    assert wrapper.step(3) == (20, 0.75, False, True, {"action": 3})


def test_action_wrapper_maps_only_action() -> None:
    env = make_env()
    wrapper = Offset(env)
    assert wrapper.reset() == (10, {"seed": None})
    assert wrapper.step(3) == (20, 1.5, False, True, {"action": 103})
    assert env.actions == [103]


@pytest.mark.parametrize(
    ("cls", "method", "arg"),
    [
        (ObservationWrapper, "observation", 1),
        (RewardWrapper, "reward", 1.0),
        (ActionWrapper, "action", 1),
    ],
)
def test_narrow_wrapper_hooks_are_abstract(cls: type[Wrapper], method: str, arg: Any) -> None:
    wrapper = cls(make_env())
    with pytest.raises(NotImplementedError):
        getattr(wrapper, method)(arg)


def test_narrow_wrappers_stack() -> None:
    env = make_env()
    wrapper = Halved(Doubled(Offset(env)))
    assert wrapper.step(1) == (40, 0.75, False, True, {"action": 101})
    assert str(wrapper) == "<Halved<Doubled<Offset<RecordingEnv<TestingEnv-v0>>>>>"
