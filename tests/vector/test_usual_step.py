"""The usual ``step``'s short path (:mod:`vecgym.vector._async.usual`) gives the general path's
results, is the path plain steps take, and hands every unusual step over to the general path.

Each test runs an AsyncVectorEnv whose short path is on beside one whose short path is switched
off (``_usual = None``: every step goes through the scheduler, the pool and the supervisor) and
SyncVectorEnv, with the same seeds and actions, and counts how each step went. Where a test
counts the steps the short path finished, the parent's spin window is made long enough
(:data:`LONG_SPIN_S`) for every worker to finish within it however loaded the machine, so that
no count depends on timing.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.support.crashing_envs import DyingEnv, RaisingEnv
from tests.support.info_envs import info_env_fns
from tests.support.slow_env import SlowEnv
from tests.vector.helpers import assert_same_batch
from vecgym import error
from vecgym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from vecgym.vector._async.usual import UsualStep

NUM_ENVS = 6
LONG_SPIN_S = 30.0
GATE_TIMEOUT_S = 30.0


class _Counted:
    """Counts the short path's posts and finishes (``None`` results: handed over)."""

    def __init__(self, usual: UsualStep) -> None:
        self.posted = self.refused = self.finished = self.handed_over = 0
        post, finish = usual.post, usual.finish

        def counted_post(actions: Any) -> Any:
            workers = post(actions)
            if workers is None:
                self.refused += 1
            else:
                self.posted += 1
            return workers

        def counted_finish(*args: Any) -> Any:
            infos = finish(*args)
            if infos is None:
                self.handed_over += 1
            else:
                self.finished += 1
            return infos

        usual.post = counted_post  # type: ignore[method-assign]
        usual.finish = counted_finish  # type: ignore[method-assign, assignment]


def _trio(
    fns: Sequence[Callable[[], Any]], mode: AutoresetMode, parent_envs: int, spin_s: float | None
) -> tuple[AsyncVectorEnv, AsyncVectorEnv, SyncVectorEnv, _Counted]:
    """(short path on, short path off, SyncVectorEnv) and the counter of the first, whose spin
    window is ``spin_s`` (``None``: the default)."""
    kwargs: dict[str, Any] = {"autoreset_mode": mode, "parent_envs": parent_envs}
    kwargs["num_workers"] = 1 if parent_envs else 2
    short = AsyncVectorEnv(fns, **kwargs)
    general = AsyncVectorEnv(fns, **kwargs)
    assert short._usual is not None
    if spin_s is not None:
        short._pool.parent_spin_s = spin_s
    general._usual = None
    return short, general, SyncVectorEnv(fns, autoreset_mode=mode), _Counted(short._usual)


@pytest.mark.parametrize("parent_envs", [0, 3])
@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_the_short_path_gives_the_general_path_s_results(
    mode: AutoresetMode, parent_envs: int
) -> None:
    # Numeric infos that change schema (a late key, a dtype that flips), termination and
    # truncation every few steps, SAME_STEP's final infos, DISABLED's masked resets.
    short, general, sync, counted = _trio(
        info_env_fns(NUM_ENVS, True), mode, parent_envs, LONG_SPIN_S
    )
    envs = (short, general, sync)
    try:
        for env in envs:
            env.action_space.seed(5)
        results = [env.reset(seed=11) for env in envs]
        assert_same_batch(results[0], results[2])
        assert_same_batch(results[1], results[2])
        ended = 0
        for t in range(80):
            actions = sync.action_space.sample()
            expected = sync.step(actions)
            assert_same_batch(short.step(actions), expected, f"short path, step {t}")
            assert_same_batch(general.step(actions), expected, f"general path, step {t}")
            done = expected[2] | expected[3]
            ended += int(done.sum())
            if mode is AutoresetMode.DISABLED and done.any():
                for env in envs:
                    env.reset(options={"reset_mask": done})
        assert ended > 20
        # Refused: the steps after a new info schema was learned (the general post hands the new
        # layout over). Handed over: the steps that met a new schema (a reply proposes it).
        assert counted.posted + counted.refused == 80
        assert counted.finished + counted.handed_over == counted.posted
        assert counted.refused <= 10
        assert counted.handed_over <= 10
    finally:
        for env in envs:
            env.close()


def test_replies_hand_the_step_over_with_the_same_results() -> None:
    # Strings in the infos travel pickled: every step replies, so every step is handed over.
    short, general, sync, counted = _trio(info_env_fns(4), AutoresetMode.NEXT_STEP, 2, LONG_SPIN_S)
    envs = (short, general, sync)
    try:
        for env in envs:
            env.action_space.seed(1)
            env.reset(seed=2)
        for t in range(12):
            actions = sync.action_space.sample()
            expected = sync.step(actions)
            assert_same_batch(short.step(actions), expected, f"short path, step {t}")
            assert_same_batch(general.step(actions), expected, f"general path, step {t}")
        assert counted.posted + counted.refused == 12
        assert counted.posted >= 10
        assert (counted.finished, counted.handed_over) == (0, counted.posted)
    finally:
        for env in envs:
            env.close()


class _GatedEnv(SlowEnv):
    """A :class:`SlowEnv` whose ``n``-th step waits until the file ``gate/n`` exists."""

    def __init__(self, gate: Path) -> None:
        super().__init__()
        self.gate = gate

    def step(self, action: Any) -> Any:
        opened = self.gate / str(self.count + 1)
        deadline = time.monotonic() + GATE_TIMEOUT_S
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.001)
        return super().step(action)


def test_a_worker_busy_past_the_spin_is_waited_for_by_the_general_wait(tmp_path: Path) -> None:
    # The worker's envs step only once the general wait has started: the short path's spin
    # cannot see them finish, however the machine is loaded.
    general = AsyncVectorEnv([SlowEnv] * 4, num_workers=1, parent_envs=2)
    general._usual = None
    sync = SyncVectorEnv([SlowEnv] * 4)
    gated = AsyncVectorEnv(
        [lambda: _GatedEnv(tmp_path)] * 2 + [SlowEnv] * 2, num_workers=1, parent_envs=2
    )
    assert gated._usual is not None
    counted = _Counted(gated._usual)
    collect = gated._collect
    steps = [0]

    def opening(*args: Any, **kwargs: Any) -> Any:
        steps[0] += 1
        (tmp_path / str(steps[0])).touch()
        return collect(*args, **kwargs)

    envs = (gated, general, sync)
    try:
        for env in envs:
            env.reset(seed=0)
        gated._collect = opening  # type: ignore[method-assign]
        for t in range(5):
            actions = np.array([t % 2] * 4)
            expected = sync.step(actions)
            assert_same_batch(gated.step(actions), expected, f"short path, step {t}")
            assert_same_batch(general.step(actions), expected, f"general path, step {t}")
        assert (counted.posted, counted.finished, counted.handed_over) == (5, 0, 5)
    finally:
        for env in envs:
            env.close()


def test_actions_that_are_not_one_array_of_the_leaf_go_the_general_way() -> None:
    fns = [SlowEnv] * 4
    short, general, sync, counted = _trio(fns, AutoresetMode.NEXT_STEP, 2, LONG_SPIN_S)
    envs = (short, general, sync)
    try:
        for env in envs:
            env.reset(seed=0)
        batches: list[Any] = [[0, 1, 1, 0], np.array([1, 0, 0, 1], dtype=np.int32), (1, 1, 0, 0)]
        for t, actions in enumerate(batches):
            expected = sync.step(actions)
            assert_same_batch(short.step(actions), expected, f"short path, step {t}")
            assert_same_batch(general.step(actions), expected, f"general path, step {t}")
        assert (counted.refused, counted.posted) == (3, 0)
        expected = sync.step(np.array([0, 0, 1, 1]))
        assert_same_batch(short.step(np.array([0, 0, 1, 1])), expected)
        assert (counted.refused, counted.posted, counted.finished) == (3, 1, 1)
    finally:
        for env in envs:
            env.close()


@pytest.mark.parametrize("failing", [0, 3], ids=["in a worker", "in the parent's slice"])
def test_an_env_error_on_the_short_path_is_raised_as_on_the_general_one(failing: int) -> None:
    fns: list[Callable[[], Any]] = [RaisingEnv] * 4
    fns[failing] = lambda: RaisingEnv(fail_at=3)
    short = AsyncVectorEnv(fns, num_workers=1, parent_envs=2)
    short._pool.parent_spin_s = LONG_SPIN_S
    assert short._usual is not None
    counted = _Counted(short._usual)
    try:
        short.reset(seed=0)
        actions = np.zeros(4, dtype=np.int64)
        short.step(actions)
        short.step(actions)
        with pytest.raises(ValueError, match=f"step 3 .*sub-environment {failing}") as raised:
            short.step(actions)
        assert "boom at step 3" in str(raised.value.__cause__)
        assert (counted.posted, counted.finished, counted.handed_over) == (3, 2, 1)
        short.reset(seed=0)  # usable again, as after the general path's error
        obs, *_ = short.step(actions)
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
    finally:
        short.close()


@pytest.mark.parametrize("bad", [5, 2, -1, np.iinfo(np.int64).min])
def test_an_invalid_action_on_the_short_path_steps_nothing(bad: int) -> None:
    short = AsyncVectorEnv([SlowEnv] * 4, num_workers=1, parent_envs=2)  # Discrete(2) actions
    short._pool.parent_spin_s = LONG_SPIN_S
    assert short._usual is not None
    assert short._usual.unsigned is not None  # the inline test
    counted = _Counted(short._usual)
    try:
        short.reset(seed=0)
        with pytest.raises(error.InvalidAction, match=r"\[2\]"):
            short.step(np.array([0, 1, bad, 0]))
        assert short.get_attr("count") == (0, 0, 0, 0)
        obs, *_ = short.step(np.array([0, 1, 1, 0]))
        np.testing.assert_array_equal(obs[:, 0], [1, 1, 1, 1])
        assert (counted.refused, counted.posted, counted.finished) == (0, 1, 1)
    finally:
        short.close()


def test_a_restart_is_reported_once_when_the_next_step_takes_the_short_path() -> None:
    # Empty infos: nothing keeps the step after the restart off the short path.
    fns: list[Callable[[], Any]] = [DyingEnv] * 4
    envs = AsyncVectorEnv(fns, num_workers=1, parent_envs=2, on_worker_failure="restart")
    assert envs._usual is not None
    counted = _Counted(envs._usual)
    try:
        envs.reset(seed=0)
        envs.set_attr("die_at", 2, indices=[0])
        actions = np.zeros(4, dtype=np.int64)
        envs.step(actions)
        *_, truncated, infos = envs.step(actions)  # worker 0 dies in this step and is replaced
        np.testing.assert_array_equal(truncated, [True, True, False, False])
        np.testing.assert_array_equal(infos["worker_restarted"], [True, True, False, False])
        finished = counted.finished
        envs._pool.parent_spin_s = LONG_SPIN_S  # (not before: a dead worker is seen after it)
        *_, truncated, infos = envs.step(actions)
        assert counted.finished == finished + 1
        assert not truncated.any()
        assert "worker_restarted" not in infos
    finally:
        envs.close()


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_a_partial_step_clears_the_flags_of_the_envs_it_steps(mode: AutoresetMode) -> None:
    # send/recv of two of one worker's four envs (a partial step mask): each recv's flags are
    # that step's, never left from an earlier one, in every autoreset mode.
    fns = info_env_fns(4, True)
    envs = AsyncVectorEnv(fns, num_workers=1, batch_size=2, autoreset_mode=mode)
    singles = [fn() for fn in fns[:2]]
    try:
        envs.reset(seed=4)
        for i, single in enumerate(singles):
            single.reset(seed=4 + i)
        pending = [False, False]  # NEXT_STEP: the next step of the env is its reset
        ended = 0
        action = np.zeros(2, dtype=np.float32)
        for t in range(30):
            envs.send(np.stack([action] * 2), env_ids=[0, 1])
            _, _, terminated, truncated, _, ids = envs.recv()
            np.testing.assert_array_equal(ids, [0, 1])
            for row, single in enumerate(singles):
                if pending[row]:
                    single.reset()
                    pending[row], term, trunc = False, False, False
                else:
                    _, _, term, trunc, _ = single.step(action)
                assert (terminated[row], truncated[row]) == (term, trunc), f"env {row}, step {t}"
                if term or trunc:
                    ended += 1
                    pending[row] = mode is AutoresetMode.NEXT_STEP
                    if not pending[row]:
                        single.reset()
                    if mode is AutoresetMode.DISABLED:
                        envs.reset(options={"reset_mask": np.arange(4) == row})
        assert ended > 3
    finally:
        envs.close()


class _PhaseEnv(SlowEnv):
    """Every env returns the same info keys at each step, with values that change every step:
    ``x`` and ``n`` always, and also ``extra`` at steps 4 and 5 of an episode (a new key, so a
    new info layout, after which the first keys come back alone). Env 0's episodes terminate
    after 7 steps, env 1's are truncated after 9, the others' do not end. Resets return the same
    keys as steps (so a ``SAME_STEP`` step where an episode ends has one schema in every env)."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
        obs, _ = super().reset(seed=seed, options=options)
        return obs, {"x": -1.0 - self.index, "n": np.int32(0)}

    def step(self, action: Any) -> Any:
        obs, reward, _, _, _ = super().step(action)
        info: dict[str, Any] = {"x": self.count + self.index / 10, "n": np.int32(self.count)}
        if self.count in (4, 5):
            info["extra"] = np.float32(self.index)
        terminated = self.index == 0 and self.count == 7
        truncated = self.index == 1 and self.count == 9
        return obs, reward, terminated, truncated, info


@pytest.mark.parametrize("parent_envs", [0, 2])
@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_the_usual_infos_are_read_from_the_current_layout(
    mode: AutoresetMode, parent_envs: int
) -> None:
    # The short path keeps its plan for the infos from step to step. A new key (a new layout,
    # other slots) and then the old keys again must be read from the new layout's slots, not from
    # the ones the plan was first made for; each step's arrays are its own (the next step leaves
    # them as they were); SAME_STEP's episode ends keep their final infos.
    fns = [lambda i=i: _PhaseEnv(i) for i in range(4)]
    short, general, sync, counted = _trio(fns, mode, parent_envs, LONG_SPIN_S)
    envs = (short, general, sync)
    try:
        for env in envs:
            env.reset(seed=3)
        actions = np.zeros(4, dtype=np.int64)
        kept = []
        for t in range(24):
            expected = sync.step(actions)
            ours = short.step(actions)
            assert_same_batch(ours, expected, f"short path, step {t}")
            assert_same_batch(general.step(actions), expected, f"general path, step {t}")
            kept.append((ours[4], copy.deepcopy(expected[4])))
            assert not np.shares_memory(ours[4]["_x"], ours[4]["_n"])
            done = expected[2] | expected[3]
            if mode is AutoresetMode.DISABLED and done.any():
                for env in envs:
                    env.reset(options={"reset_mask": done})
        for t, (infos, expected_infos) in enumerate(kept):
            assert_same_batch(infos, expected_infos, f"step {t}, after the later steps")
        keys = {key for infos, _ in kept for key in infos}
        assert "extra" in keys
        assert ("final_info" in keys) is (mode is AutoresetMode.SAME_STEP)
        assert counted.finished >= 12
    finally:
        for env in envs:
            env.close()
