"""Vector-env edges tried as Gymnasium 1.4 code would try them, side by side with Gymnasium.

Custom (non-Gymnasium-type) spaces, a float32 scalar action handed to ``time.sleep``, an env's
exception logged through the logger, and the action checks (kept on purpose, with
``check_actions=False`` to follow Gymnasium).
"""

from __future__ import annotations

import multiprocessing
import re
import time
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import pytest

import vecgym
from vecgym import error
from vecgym.vector._async.exits import REMOTE_ERROR_LOG_MSG, RemoteTraceback
from vecgym.vector._async.options import CUSTOM_SPACE_SHARED_MSG

LIBRARIES = {"gymnasium": gymnasium, "vecgym": vecgym}
ACTIONS = ("action-1", "action-2", "action-3", "action-4")


class _CustomSpaceBehaviour:
    """Gymnasium's own minimal custom space (its test suite's), for either library."""

    np_random: np.random.Generator

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        return self.np_random.integers(0, 10, ())

    def contains(self, x: Any) -> bool:
        return bool(0 <= x <= 10)  # raises TypeError for the str actions below

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _CustomSpaceBehaviour)

    __hash__ = object.__hash__


class GymnasiumCustomSpace(_CustomSpaceBehaviour, gymnasium.Space):  # type: ignore[misc]
    pass


class VecgymCustomSpace(_CustomSpaceBehaviour, vecgym.Space):  # type: ignore[misc]
    pass


class _CustomSpaceEnvBehaviour:
    space_type: type

    def __init__(self) -> None:
        self.observation_space = self.space_type()
        self.action_space = self.space_type()

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        super().reset(seed=seed)  # type: ignore[misc]
        return "reset", {}

    def step(self, action: Any) -> Any:
        return f"step({action:s})", 0.0, False, False, {}


class GymnasiumCustomSpaceEnv(_CustomSpaceEnvBehaviour, gymnasium.Env):  # type: ignore[misc]
    space_type = GymnasiumCustomSpace


class VecgymCustomSpaceEnv(_CustomSpaceEnvBehaviour, vecgym.Env):  # type: ignore[misc]
    space_type = VecgymCustomSpace


class _EchoEnvBehaviour:
    """Rewards the action it is given, whatever it is; counts its steps."""

    spaces: ModuleType

    def __init__(self) -> None:
        self.observation_space = self.spaces.Box(0, 1, shape=(1,), dtype=np.float32)
        self.action_space = self.spaces.Discrete(2)
        self.steps = 0

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        return np.zeros(1, dtype=np.float32), {}

    def step(self, action: Any) -> Any:
        self.steps += 1
        return np.zeros(1, dtype=np.float32), float(action), False, False, {}


class GymnasiumEchoEnv(_EchoEnvBehaviour, gymnasium.Env):  # type: ignore[misc]
    spaces = gymnasium.spaces


class VecgymEchoEnv(_EchoEnvBehaviour, vecgym.Env):  # type: ignore[misc]
    spaces = vecgym.spaces


CUSTOM_SPACE_ENVS = {gymnasium: GymnasiumCustomSpaceEnv, vecgym: VecgymCustomSpaceEnv}


class _SleepEnvBehaviour:
    """Gymnasium's step-timeout test env: ``step`` sleeps for the action (a float32 scalar)."""

    spaces: ModuleType

    def __init__(self) -> None:
        self.observation_space = self.spaces.Box(0, 1, shape=(1,), dtype=np.float32)
        self.action_space = self.spaces.Box(0.0, 1.0, shape=(), dtype=np.float32)

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        return np.zeros(1, dtype=np.float32), {}

    def step(self, action: Any) -> Any:
        time.sleep(action)  # refuses a np.float32 scalar: not a float, not an index
        return np.zeros(1, dtype=np.float32), 0.0, False, False, {}


class GymnasiumSleepEnv(_SleepEnvBehaviour, gymnasium.Env):  # type: ignore[misc]
    spaces = gymnasium.spaces


class VecgymSleepEnv(_SleepEnvBehaviour, vecgym.Env):  # type: ignore[misc]
    spaces = vecgym.spaces


SLEEP_ENVS = {gymnasium: GymnasiumSleepEnv, vecgym: VecgymSleepEnv}


def _raising_env(lib: ModuleType) -> Any:
    env = lib.make("CartPole-v1")

    class Raising(lib.Wrapper):  # type: ignore[name-defined,misc]
        def step(self, action: Any) -> Any:
            raise ValueError("boom from the env")

    return Raising(env)


def _vector(lib: ModuleType, kind: str, fns: list[Any], **kwargs: Any) -> Any:
    if kind == "sync":
        return lib.vector.SyncVectorEnv(fns, **kwargs)
    return lib.vector.AsyncVectorEnv(fns, context="fork", **kwargs)


# --- custom spaces --------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_custom_spaces_reset_and_step_as_in_gymnasium(kind: str) -> None:
    """Custom spaces' ``contains`` is user code: vecgym does not run it on actions either."""
    results = {}
    for name, lib in LIBRARIES.items():
        kwargs = {} if kind == "sync" else {"shared_memory": False}
        envs = _vector(lib, kind, [CUSTOM_SPACE_ENVS[lib]] * 4, **kwargs)
        try:
            obs, _ = envs.reset(seed=0)
            step_obs, rewards, *_ = envs.step(ACTIONS)
            results[name] = (obs, step_obs, rewards.tolist())
        finally:
            envs.close()
    assert results["vecgym"] == results["gymnasium"]
    assert results["vecgym"][1] == tuple(f"step({a})" for a in ACTIONS)


def test_custom_space_with_shared_memory_is_refused_at_construction() -> None:
    with pytest.raises(ValueError):
        gymnasium.vector.AsyncVectorEnv([GymnasiumCustomSpaceEnv] * 2, shared_memory=True)
    expected = re.escape(CUSTOM_SPACE_SHARED_MSG.format("VecgymCustomSpace"))
    with pytest.raises(ValueError, match=expected):
        vecgym.vector.AsyncVectorEnv([VecgymCustomSpaceEnv] * 2, shared_memory=True)


# --- a float32 scalar action in the worker --------------------------------------------------------
@pytest.mark.parametrize("lib_name", list(LIBRARIES))
def test_a_float32_scalar_action_can_be_slept_on(lib_name: str) -> None:
    lib = LIBRARIES[lib_name]
    envs = _vector(lib, "async", [SLEEP_ENVS[lib]] * 4)
    try:
        envs.reset(seed=0)
        _, rewards, *_ = envs.step(np.array([0.001, 0.001, 0.002, 0.001]))
        assert rewards.tolist() == [0.0] * 4
        envs.step_async(np.array([0.0, 0.0, 0.9, 0.0]))
        expected = error.WaitTimeout if lib is vecgym else multiprocessing.TimeoutError
        with pytest.raises(expected):
            envs.step_wait(timeout=0.0)
    finally:
        envs.close(terminate=True)


# --- an env's exception ---------------------------------------------------------------------------
@pytest.mark.parametrize("lib_name", list(LIBRARIES))
def test_an_env_exception_is_logged_and_reraised(lib_name: str) -> None:
    lib = LIBRARIES[lib_name]
    envs = _vector(lib, "async", [lambda: _raising_env(lib)] * 2)
    try:
        envs.reset(seed=0)
        with (
            pytest.warns(UserWarning, match="ERROR") as logged,
            pytest.raises(ValueError, match="boom") as info,
        ):
            envs.step(np.array([0, 1]))
    finally:
        envs.close(terminate=True)
    messages = [str(w.message) for w in logged]
    assert any("ERROR" in m and "boom from the env" in m for m in messages)
    if lib is vecgym:
        assert isinstance(info.value.__cause__, RemoteTraceback)
        head = REMOTE_ERROR_LOG_MSG.split("{traceback}")[0].format(
            env=0, worker=0, type_name="builtins.ValueError"
        )
        assert any(head in m for m in messages)


# --- action checks: kept on purpose, check_actions=False follows Gymnasium ------------------------
@pytest.mark.parametrize("kind", ["sync", "async"])
@pytest.mark.parametrize("action", [0, np.int64(1)])
def test_a_scalar_action_for_a_one_env_batch_is_a_type_error(kind: str, action: Any) -> None:
    for lib in LIBRARIES.values():
        envs = _vector(lib, kind, [lambda lib=lib: lib.make("CartPole-v1")])
        try:
            envs.reset(seed=0)
            with pytest.raises(TypeError):
                envs.step(action)
        finally:
            envs.close()


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_out_of_space_actions_are_refused_unless_checks_are_off(kind: str) -> None:
    """Gymnasium hands any action to the env; vecgym refuses one outside the action space before
    anything is stepped, and ``check_actions=False`` hands it over as Gymnasium does."""
    bad, good = np.array([0, 5]), np.array([1, 0])
    reference = _vector(gymnasium, kind, [GymnasiumEchoEnv] * 2)
    checked = _vector(vecgym, kind, [VecgymEchoEnv] * 2)
    unchecked = _vector(vecgym, kind, [VecgymEchoEnv] * 2, check_actions=False)
    try:
        for envs in (reference, checked, unchecked):
            envs.reset(seed=0)
        assert unchecked.step(bad)[1].tolist() == reference.step(bad)[1].tolist() == [0.0, 5.0]
        with pytest.raises(error.InvalidAction):
            checked.step(bad)
        assert checked.step(good)[1].tolist() == [1.0, 0.0]
        assert [env_steps for env_steps in checked.get_attr("steps")] == [1, 1]
    finally:
        for envs in (reference, checked, unchecked):
            envs.close()


# --- observation_mode="different": spaces that cannot be batched ------------------------------
def _space_env(lib: ModuleType, space: Any) -> Any:
    """An env of ``lib`` with observation space ``space`` (never stepped)."""

    class SpaceEnv(lib.Env):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            self.observation_space = space
            self.action_space = lib.spaces.Discrete(2)

    return SpaceEnv()


@pytest.mark.parametrize(
    "pair",
    [
        lambda spaces: [spaces.Box(0, 1, (1,)), spaces.Box(0, 1, (2,))],
        lambda spaces: [spaces.Box(0, 1, (3,)), spaces.Discrete(5)],
    ],
    ids=["box-shapes", "box-and-discrete"],
)
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_different_mode_refuses_unbatchable_spaces_with_gymnasium_s_type(
    kind: str, pair: Any
) -> None:
    """Gymnasium's Sync and Async raise the ``ValueError`` or ``TypeError`` of batching the
    spaces; so do vecgym's (the async one's workers used to raise a ``RuntimeError``)."""
    raised = {}
    for name, lib in LIBRARIES.items():
        fns = [lambda lib=lib, space=space: _space_env(lib, space) for space in pair(lib.spaces)]
        with pytest.raises((ValueError, TypeError)) as info:
            _vector(lib, kind, fns, observation_mode="different").close()
        raised[name] = info.value
    assert isinstance(raised["vecgym"], type(raised["gymnasium"]))
    assert not isinstance(raised["vecgym"], RuntimeError)


# --- a batch of actions of another shape than the action space's ------------------------------
class _ShapeEchoBehaviour:
    """Action space ``Box(0, 1, (1,))``; rewards the action's first value and reports the shape
    it was handed in its info; ends its episode every fifth step."""

    spaces: ModuleType

    def __init__(self) -> None:
        self.observation_space = self.spaces.Box(0, 1, shape=(1,), dtype=np.float32)
        self.action_space = self.spaces.Box(0.0, 1.0, shape=(1,), dtype=np.float32)
        self.steps = 0

    def reset(self, *, seed: Any = None, options: Any = None) -> Any:
        self.steps = 0
        return np.zeros(1, dtype=np.float32), {}

    def step(self, action: Any) -> Any:
        self.steps += 1
        value = float(np.asarray(action).reshape(-1)[0])
        info = {"rank": np.ndim(action)}
        return np.full(1, self.steps, dtype=np.float32), value, self.steps == 5, False, info


class GymnasiumShapeEchoEnv(_ShapeEchoBehaviour, gymnasium.Env):  # type: ignore[misc]
    spaces = gymnasium.spaces


class VecgymShapeEchoEnv(_ShapeEchoBehaviour, vecgym.Env):  # type: ignore[misc]
    spaces = vecgym.spaces


SHAPE_ECHO_ENVS = {gymnasium: GymnasiumShapeEchoEnv, vecgym: VecgymShapeEchoEnv}


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("sync", {}),
        ("async", {}),
        ("async", {"shared_memory": False}),
        ("async", {"num_workers": 1, "parent_envs": 1}),
    ],
    ids=["sync", "async-shared", "async-pickled", "async-parent-slice"],
)
def test_actions_of_another_shape_reach_each_env_as_in_gymnasium(
    kind: str, options: dict[str, Any]
) -> None:
    """A ``(n,)`` or ``(n, 1, 1)`` batch for a ``Box((1,))`` space: each env gets its row as the
    caller gave it (a 0-d or a ``(1, 1)`` action), as Gymnasium hands it over. vecgym's
    AsyncVectorEnv sends such a batch through the pipes and goes back to the shared rows for the
    next batch that fits them; steps of either kind alternate here, across episode ends."""
    rng = np.random.default_rng(0)
    batches = []
    for i in range(12):
        shape = [(3,), (3, 1), (3, 1, 1), (3, 1)][i % 4]
        batches.append(rng.uniform(0, 1, shape).astype(np.float32))
    results = {}
    for lib in (gymnasium, vecgym):
        extra = options if lib is vecgym else {"shared_memory": options.get("shared_memory", True)}
        envs = _vector(lib, kind, [SHAPE_ECHO_ENVS[lib]] * 3, **(extra if kind == "async" else {}))
        try:
            envs.reset(seed=0)
            results[lib.__name__] = [envs.step(actions) for actions in batches]
        finally:
            envs.close()
    for ours, theirs in zip(results["vecgym"], results["gymnasium"], strict=True):
        for a, b in zip(ours[:4], theirs[:4], strict=True):
            np.testing.assert_array_equal(a, b)
        assert set(ours[4]) == set(theirs[4])
        for key in ours[4]:
            np.testing.assert_array_equal(ours[4][key], theirs[4][key])


def test_send_with_actions_of_another_shape_reaches_the_listed_envs() -> None:
    envs = vecgym.vector.AsyncVectorEnv([VecgymShapeEchoEnv] * 4, num_workers=2)
    try:
        envs.reset(seed=0)
        sent: dict[int, float] = {}
        envs.send(np.array([0.25, 0.5], dtype=np.float32), env_ids=[1, 2])  # (2,), not (2, 1)
        while len(sent) < 2:
            _, rewards, _, _, infos, ids = envs.recv(timeout=60)
            sent.update({int(i): float(r) for i, r in zip(ids, rewards, strict=True)})
            assert infos["rank"][infos["_rank"]].tolist() == [0] * int(infos["_rank"].sum())
        envs.send(np.array([[0.75], [1.0]], dtype=np.float32), env_ids=[0, 3])  # fits the rows
        while len(sent) < 4:
            _, rewards, _, _, infos, ids = envs.recv(timeout=60)
            sent.update({int(i): float(r) for i, r in zip(ids, rewards, strict=True)})
        assert sent == {0: 0.75, 1: 0.25, 2: 0.5, 3: 1.0}
        assert envs.get_attr("steps") == (1, 1, 1, 1)
        rewards = envs.step(np.full((4, 1), 0.5, dtype=np.float32))[1]
        assert rewards.tolist() == [0.5] * 4
    finally:
        envs.close()
