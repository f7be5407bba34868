"""Workers started without ``fork`` find the ids the parent registered (``_async.registries``).

Gymnasium's and SB3's subprocess vector envs fail here with ``NameNotFound`` whenever the id was
registered anywhere but at the top of an importable ``__main__``. The ids below are registered
inside the tests, as a notebook or a ``main()`` function registers them, and built in workers
started with ``forkserver`` and ``spawn``; the carry itself is restored in a fresh interpreter,
with warnings as errors.
"""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import pickle
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vecgym
from vecgym.vector import AsyncVectorEnv
from vecgym.vector._async.registries import carried_registries

gymnasium = pytest.importorskip("gymnasium")

PLUGIN = "tests.support.plugin_with_envs"
METHODS = [m for m in ("forkserver", "spawn") if m in multiprocessing.get_all_start_methods()]
LOCAL_ID = "CarriedLocal-v0"
STRING_ID = "CarriedString-v0"
UNPICKLABLE_ID = "CarriedUnpicklable-v0"
REPO = Path(__file__).resolve().parents[2]


def _forget(module: str, ids: list[tuple[dict[str, Any], list[str]]]) -> None:
    sys.modules.pop(module, None)
    for registry, env_ids in ids:
        for env_id in env_ids:
            registry.pop(env_id, None)


@pytest.fixture
def registered() -> Iterator[Any]:
    """The plugin imported and three ids registered at run time; all of it removed afterwards."""
    gym_registry = gymnasium.envs.registration.registry
    own_registry = vecgym.envs.registration.registry
    ids = [
        (gym_registry, ["PluginOwn-v0", LOCAL_ID, UNPICKLABLE_ID]),
        (own_registry, ["PluginOwnVec-v0", STRING_ID]),
    ]
    _forget(PLUGIN, ids)
    plugin = importlib.import_module(PLUGIN)

    class LocalEnv(plugin.PluginEnv):  # defined here: it travels by value
        def step(self, action: Any) -> Any:
            obs, *rest = super().step(action)
            return obs * 10, *rest

    lock = threading.Lock()
    gymnasium.register(LOCAL_ID, entry_point=LocalEnv, max_episode_steps=5)
    gymnasium.register(UNPICKLABLE_ID, entry_point=lambda: (lock, LocalEnv)[1]())
    vecgym.register(
        STRING_ID,
        entry_point=f"{PLUGIN}:PluginEnv",  # a string, of a module that does not register it
        max_episode_steps=2,
    )
    try:
        yield plugin
    finally:
        _forget(PLUGIN, ids)


def _truncations(envs: Any, steps: int) -> list[list[bool]]:
    envs.reset(seed=0)
    out = []
    for _ in range(steps):
        _, _, _, truncated, _ = envs.step(np.zeros(envs.num_envs, dtype=np.int64))
        out.append(truncated.tolist())
    return out


@pytest.mark.parametrize("context", METHODS)
def test_ids_registered_at_run_time_are_found_in_fresh_workers(
    registered: Any, context: str
) -> None:
    fns = [
        lambda: gymnasium.make("PluginOwn-v0"),  # max 3
        lambda: vecgym.make("PluginOwnVec-v0"),  # max 4
        lambda: gymnasium.make(LOCAL_ID),  # max 5, observations times 10
        lambda: vecgym.make(STRING_ID),  # max 2
    ]
    envs = AsyncVectorEnv(fns, num_workers=2, context=context)
    try:
        truncations = np.array(_truncations(envs, 5))  # (step, env)
        assert truncations.argmax(axis=0).tolist() == [2, 3, 4, 1]  # each env's first truncation
        envs.reset(seed=0)
        obs, *_ = envs.step(np.zeros(4, dtype=np.int64))
        assert obs[:3, 0].tolist() == [1.0, 1.0, 10.0]
    finally:
        envs.close()


def test_fork_workers_carry_nothing(registered: Any) -> None:
    """A forked worker is a copy of the parent: its registries came with it."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    envs = AsyncVectorEnv([lambda: gymnasium.make(LOCAL_ID)] * 2, context="fork")
    try:
        assert envs.context == "fork"
        assert _truncations(envs, 5)[-1] == [True, True]
    finally:
        envs.close()


def test_the_carry_leaves_out_what_cannot_travel_and_names_loaded_modules(
    registered: Any,
) -> None:
    carried = {(name, env_id): module for name, env_id, module, _ in carried_registries().specs}
    assert ("gymnasium", UNPICKLABLE_ID) not in carried  # its entry point holds a lock
    assert carried[("gymnasium", "PluginOwn-v0")] == PLUGIN
    assert carried[("vecgym", "PluginOwnVec-v0")] == PLUGIN
    assert carried[("gymnasium", LOCAL_ID)] == ""  # a class: carried by value, nothing to import
    assert carried[("vecgym", STRING_ID)] == PLUGIN
    assert ("vecgym", "CartPole-v1") in carried
    assert ("gymnasium", "CartPole-v1") in carried


RESTORE = """
import pickle, sys, warnings
warnings.simplefilter("error")
from vecgym.vector._async.registries import restore_registries
import vecgym
vecgym.register(  # registered here first, as a spawn worker's __main__ would: it is kept
    "CarriedString-v0", entry_point="tests.support.registry_envs:ArgEnv", max_episode_steps=9
)
restore_registries(pickle.loads(sys.stdin.buffer.read()))
import gymnasium
plugin = sys.modules.get("tests.support.plugin_with_envs")
gym_registry = gymnasium.envs.registration.registry
own_registry = vecgym.envs.registration.registry
print(plugin is not None)
print(gym_registry["PluginOwn-v0"] is plugin.REGISTERED[0])
print(own_registry["PluginOwnVec-v0"] is plugin.REGISTERED[1])
print(gymnasium.make("CarriedLocal-v0").spec.max_episode_steps)
print(vecgym.make("CarriedString-v0").spec.max_episode_steps)
print(vecgym.make("CartPole-v1").spec.max_episode_steps)
print("CarriedUnpicklable-v0" in gym_registry)
"""


def test_a_fresh_interpreter_gets_the_ids_by_importing_what_registered_them(
    registered: Any,
) -> None:
    """The plugin is imported (its own spec objects, no second registration) rather than copied;
    ids nothing registers in a fresh process are copied, ids it registered itself are kept;
    vecgym's built-ins come from their own import, so nothing warns of an id registered twice."""
    result = subprocess.run(
        [sys.executable, "-c", RESTORE],
        input=pickle.dumps(carried_registries()),
        capture_output=True,
        timeout=120,
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    lines = result.stdout.decode().split()
    assert lines == ["True", "True", "True", "5", "9", "500", "False"]


def test_the_carry_stays_small_enough_to_travel_inline_with_a_ray_actor(registered: Any) -> None:
    """Ray keeps constructor arguments under 100 KiB inline, and restarts an actor from them;
    larger ones go to its object store, from which a restart can fail. Gymnasium's ids and
    ALE's (when installed) pickle to about 210 KB, and travel compressed."""
    with contextlib.suppress(ImportError):
        gymnasium.register_envs(importlib.import_module("ale_py"))
    carried = carried_registries()
    assert len(carried.specs) >= len(gymnasium.envs.registration.registry)
    assert len(pickle.dumps(carried)) < 100 * 1024
