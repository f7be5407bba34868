"""RenderCollection."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.messages import message_pattern
from tests.support.registry_envs import ArgEnv
from vecgym.core.registration import Registry, registry
from vecgym.envs.registration import make, register
from vecgym.wrappers import RenderCollection
from vecgym.wrappers.rendering import LIST_RENDER_MODE_MSG, NO_RENDER_MODE_MSG


@pytest.fixture
def restore_registry() -> Iterator[Registry]:
    saved = registry.own_specs()
    yield registry
    registry.clear()
    registry.update(saved)


def _counts(frames: list[Any]) -> list[int]:
    return [int(frame[0, 0, 0]) for frame in frames]


def _run(env: RenderCollection, steps: int) -> None:
    for _ in range(steps):
        env.step(0)


def test_pop_frames() -> None:
    env = RenderCollection(ArgEnv(render_mode="rgb_array"))
    env.reset(seed=0)
    _run(env, 3)
    assert _counts(env.render()) == [0, 1, 2, 3]
    assert env.render() == []
    _run(env, 1)
    assert _counts(env.render()) == [4]


def test_keep_frames() -> None:
    env = RenderCollection(ArgEnv(render_mode="rgb_array"), pop_frames=False)
    env.reset(seed=0)
    _run(env, 2)
    assert _counts(env.render()) == [0, 1, 2]
    assert _counts(env.render()) == [0, 1, 2]
    env.reset()  # reset_clean: starts a new collection
    _run(env, 1)
    assert _counts(env.render()) == [0, 1]


def test_keep_frames_across_resets() -> None:
    env = RenderCollection(ArgEnv(render_mode="rgb_array"), pop_frames=False, reset_clean=False)
    env.reset(seed=0)
    _run(env, 2)
    env.reset()
    _run(env, 1)
    assert _counts(env.render()) == [0, 1, 2, 0, 1]
    assert len(env.render()) == 5


def test_render_mode_and_metadata() -> None:
    base = ArgEnv(render_mode="ansi")
    env = RenderCollection(base)
    assert env.render_mode == "ansi_list"
    assert env.metadata["render_modes"] == ["rgb_array", "ansi", "ansi_list"]
    assert env.metadata["render_fps"] == 4
    assert ArgEnv.metadata["render_modes"] == ["rgb_array", "ansi"]  # the env's is untouched
    assert base.metadata["render_modes"] == ["rgb_array", "ansi"]
    env.reset(seed=0)
    env.step(0)
    assert env.render() == ["count=0", "count=1"]


def test_tuple_render_modes_are_accepted() -> None:
    class TupleModesEnv(ArgEnv):
        metadata = {"render_modes": ("rgb_array",), "render_fps": 4}

    env = RenderCollection(TupleModesEnv(render_mode="rgb_array"))
    assert env.metadata["render_modes"] == ["rgb_array", "rgb_array_list"]


def test_invalid_inner_render_mode() -> None:
    with pytest.raises(ValueError, match=message_pattern(NO_RENDER_MODE_MSG)):
        RenderCollection(ArgEnv())
    with pytest.raises(
        ValueError, match=message_pattern(LIST_RENDER_MODE_MSG, render_mode="rgb_array_list")
    ):
        RenderCollection(ArgEnv(render_mode="rgb_array_list"))


def test_recorded_args_and_spec(restore_registry: Registry) -> None:
    register("RenderSpec-v0", entry_point=ArgEnv)
    env = make("RenderSpec-v0", render_mode="rgb_array_list")
    assert isinstance(env, RenderCollection)
    assert env._saved_kwargs == {"pop_frames": True, "reset_clean": True}
    assert env.spec is not None
    assert env.spec.additional_wrappers[-1].name == "RenderCollection"
    assert env.spec.additional_wrappers[-1].kwargs == {"pop_frames": True, "reset_clean": True}
    rebuilt = make(env.spec)
    assert str(rebuilt) == str(env)
    assert rebuilt.render_mode == "rgb_array_list"


def test_matches_gymnasium_constructor() -> None:
    gym_wrappers = pytest.importorskip("gymnasium.wrappers")
    import inspect

    ours = inspect.signature(RenderCollection.__init__)
    theirs = inspect.signature(gym_wrappers.RenderCollection.__init__)
    assert [(p.name, p.default) for p in ours.parameters.values()] == [
        (p.name, p.default) for p in theirs.parameters.values()
    ]
