"""Gymnasium's exceptions, raised by envs that vecgym runs, are caught by ``except vecgym.error.X``.

An env from Gymnasium raises Gymnasium's classes. Wherever vecgym lets such an exception out (the
adapter, ``make``, the vector envs' ``step`` and ``reset``, a worker's or the parent slice's
error) it is the same exception object, now also an instance of ``vecgym.error``'s class of its
name: ``except gymnasium.error.X`` keeps catching it, and so does ``except vecgym.error.X``.
"""

from __future__ import annotations

import inspect
import pickle
import traceback
from collections.abc import Iterator
from typing import Any

import cloudpickle
import numpy as np
import pytest

import vecgym
from vecgym.core.gymnasium_errors import adopt_gymnasium_error
from vecgym.core.interop import GymnasiumEnv
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv
from vecgym.vector.async_vector_env import RemoteTraceback
from vecgym.vector.gymnasium_vector_env import GymnasiumVectorEnv

gymnasium = pytest.importorskip("gymnasium")

from tests.support.gymnasium_envs import RAISING_MSG, GymRaisingEnv  # noqa: E402

ENV_ID = "VgTest/GymRaising-v0"
STEP_MSG = RAISING_MSG.format(what="step")


def _gymnasium_error_classes() -> list[type[BaseException]]:
    return [
        cls
        for _, cls in inspect.getmembers(gymnasium.error, inspect.isclass)
        if issubclass(cls, BaseException) and cls.__module__ == "gymnasium.error"
    ]


def _instance(cls: type[BaseException]) -> BaseException:
    try:
        return cls("boom")
    except TypeError:  # AlreadyPendingCallError and NoAsyncCallError also take the call's name
        return cls("boom", "step")


@pytest.fixture
def registered() -> Iterator[str]:
    vecgym.register(ENV_ID, entry_point=GymRaisingEnv)
    try:
        yield ENV_ID
    finally:
        vecgym.registry.pop(ENV_ID, None)


# --- the twins --------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", _gymnasium_error_classes(), ids=lambda cls: cls.__name__)
def test_every_gymnasium_error_becomes_also_vecgym_s_class_of_its_name(
    cls: type[BaseException],
) -> None:
    exc = _instance(cls)
    exc.custom = "an attribute"  # kept, as a note is (notes: Python 3.11 and later)
    notes = ["a note"] if hasattr(exc, "add_note") else []
    for note in notes:
        exc.add_note(note)
    args = exc.args
    assert adopt_gymnasium_error(exc) is exc
    ours = getattr(vecgym.error, cls.__name__)
    assert isinstance(exc, ours)
    assert isinstance(exc, cls)
    assert exc.args == args
    assert getattr(exc, "__notes__", []) == notes
    assert traceback.format_exception_only(exc)[0].startswith(f"vecgym.error.{cls.__name__}: ")
    twin = type(exc)
    assert adopt_gymnasium_error(exc) is exc  # adopting twice changes nothing
    assert type(exc) is twin
    for dumps, loads in ((pickle.dumps, pickle.loads), (cloudpickle.dumps, cloudpickle.loads)):
        loaded = loads(dumps(exc))
        assert type(loaded) is type(exc)
        assert loaded.args == args
        assert getattr(loaded, "__notes__", []) == notes
        assert loaded.custom == "an attribute"
        assert vars(loaded) == vars(exc)


def test_other_exceptions_are_left_alone() -> None:
    for exc in (ValueError("x"), vecgym.error.InvalidAction("x"), KeyError("x")):
        cls = type(exc)
        assert adopt_gymnasium_error(exc) is exc
        assert type(exc) is cls


# --- where they leave vecgym ------------------------------------------------------------------
def test_the_adapter_and_make_let_gymnasium_errors_out_as_vecgym_s(registered: str) -> None:
    for env in (GymnasiumEnv(GymRaisingEnv()), vecgym.make(registered)):
        env.reset(seed=0)
        with pytest.raises(vecgym.error.InvalidAction, match=STEP_MSG) as info:
            env.step(1)
        assert isinstance(info.value, gymnasium.error.InvalidAction)
        assert info.traceback[-1].name == "step"  # the env's own frame, where it was raised
        with pytest.raises(vecgym.error.ResetNeeded) as reset_info:
            env.reset(options={"fail": True})
        assert isinstance(reset_info.value, gymnasium.error.ResetNeeded)
        env.close()
    with pytest.raises(vecgym.error.InvalidMetadata, match=RAISING_MSG.format(what="construction")):
        vecgym.make(registered, fail_init=True)


def test_a_real_gymnasium_env_s_invalid_action_is_vecgym_s() -> None:
    """CarRacing-v3 in its discrete mode refuses a continuous action with Gymnasium's error."""
    pytest.importorskip("Box2D", reason="CarRacing-v3 needs the `box2d` extra")
    env = vecgym.make("CarRacing-v3", continuous=False)
    try:
        env.reset(seed=0)
        with pytest.raises(vecgym.error.InvalidAction) as info:
            env.step(np.array([0.1, 0.2, 0.3]))
        assert isinstance(info.value, gymnasium.error.InvalidAction)
    finally:
        env.close()


@pytest.mark.parametrize(
    "make_vector",
    [
        lambda fns: SyncVectorEnv(fns),
        lambda fns: AsyncVectorEnv(fns, num_workers=1),
        lambda fns: AsyncVectorEnv(fns, num_workers=1, parent_envs=1),
    ],
    ids=["sync", "async-worker", "async-parent-slice"],
)
def test_vector_envs_let_gymnasium_errors_out_as_vecgym_s(make_vector: Any) -> None:
    envs = make_vector([GymRaisingEnv, GymRaisingEnv])
    try:
        envs.reset(seed=0)
        envs.step(np.array([0, 0]))
        # The last env raises: the worker's in "async-worker", the parent's own in the slice case.
        with pytest.raises(vecgym.error.InvalidAction, match=STEP_MSG) as info:
            envs.step(np.array([0, 1]))
        assert isinstance(info.value, gymnasium.error.InvalidAction)
        if isinstance(envs, AsyncVectorEnv):
            assert isinstance(info.value.__cause__, RemoteTraceback)
            assert "sub-environment 1" in str(info.value)
        with pytest.raises(vecgym.error.ResetNeeded) as reset_info:
            envs.reset(seed=0, options={"fail": True})
        assert isinstance(reset_info.value, gymnasium.error.ResetNeeded)
    finally:
        envs.close()


def test_the_gymnasium_vector_env_adapter_lets_them_out_as_vecgym_s() -> None:
    envs = GymnasiumVectorEnv(gymnasium.vector.SyncVectorEnv([GymRaisingEnv, GymRaisingEnv]))
    try:
        envs.reset(seed=0)
        with pytest.raises(vecgym.error.InvalidAction) as info:
            envs.step(np.array([1, 0]))
        assert isinstance(info.value, gymnasium.error.InvalidAction)
        with pytest.raises(vecgym.error.ResetNeeded):
            envs.reset(options={"fail": True})
    finally:
        envs.close()
