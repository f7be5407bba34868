"""The counting rules of :mod:`vecgym.cli.measure`: only real env steps count."""

from __future__ import annotations

import signal
from typing import Any

import numpy as np
import pytest

from tests.support.messages import message_pattern
from vecgym.cli import output
from vecgym.cli.measure import (
    COUNT_ALL,
    COUNT_SELF,
    POOL_DISABLED_MSG,
    SECONDS_MSG,
    Measurement,
    Stepper,
    measure_pool,
    measure_single_env,
    measure_stepper,
    pool_stepper,
)
from vecgym.cli.runtimes import (
    BenchTarget,
    Unavailable,
    compare_runtimes,
    vecgym_runtimes,
    vector_stepper,
)
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

from .test_cli import GoodEnv

N = 3


def one_step_envs(cls: Any, mode: str, **kwargs: Any) -> Any:
    """Envs whose every real step ends the episode (length 1)."""
    return cls([lambda: GoodEnv(length=1)] * N, autoreset_mode=mode, **kwargs)


def test_next_step_reset_steps_are_not_counted() -> None:
    # length 1: a real step ends the episode, the next step only resets -> half the calls count
    envs = one_step_envs(SyncVectorEnv, "NextStep")
    stepper, actions = _stepper(envs)
    try:
        m = measure_stepper(stepper, actions, 0.02)
    finally:
        envs.close()
    assert m.calls > 4
    assert abs(m.env_steps - N * m.calls / 2) <= N
    assert m.steps_per_s == pytest.approx(m.env_steps / m.elapsed_s)


@pytest.mark.parametrize("mode", ["SameStep", "Disabled"])
def test_every_step_counts_when_resets_ride_along_or_are_explicit(mode: str) -> None:
    envs = one_step_envs(SyncVectorEnv, mode)
    stepper, actions = _stepper(envs)
    try:
        m = measure_stepper(stepper, actions, 0.02)
    finally:
        envs.close()
    assert stepper.counting == COUNT_ALL
    assert m.env_steps == N * m.calls


@pytest.mark.parametrize(("mode", "batch_size"), [("NextStep", 1), ("SameStep", 2)])
def test_pool_counts_per_env(mode: str, batch_size: int) -> None:
    envs = one_step_envs(AsyncVectorEnv, mode, num_workers=N, batch_size=batch_size)
    try:
        envs.action_space.seed(0)
        actions = [envs.action_space.sample() for _ in range(4)]
        m = measure_pool(envs, actions, 0.05)
        if mode == "NextStep":
            # every env alternates real step / reset step, whatever the order batches come in
            assert abs(m.env_steps - m.calls / 2) <= N
        else:  # every env of every batch stepped (and reset within the step)
            assert m.env_steps == batch_size * m.calls
        envs.reset(seed=0)  # nothing left in flight
    finally:
        envs.close()


def test_pool_stepper_refuses_the_disabled_mode() -> None:
    envs = one_step_envs(AsyncVectorEnv, "Disabled", num_workers=1)
    try:
        with pytest.raises(ValueError, match=message_pattern(POOL_DISABLED_MSG, mode="Disabled")):
            pool_stepper(envs)
    finally:
        envs.close()


def test_send_recv_runtime_counts_by_env_and_closes_with_envs_in_flight() -> None:
    runtime = next(r for r in compare_runtimes() if r.name == "send-recv")
    assert runtime.uses_workers
    stepper, actions = runtime.build(BenchTarget("CartPole-v1"), 4, 2)
    try:
        assert (stepper.num_envs, stepper.counting) == (4, COUNT_SELF)
        stepper.reset(0)
        counts = [stepper.step(actions[i % len(actions)]) for i in range(200)]
        stepper.reset(1)  # with envs in flight: they are received first
        counts.append(stepper.step(actions[0]))
    finally:
        stepper.close()  # with envs in flight, too
    assert set(counts) <= {0, 1, 2}  # batches of 2, less the envs that were only reset
    assert 2 in counts
    assert sum(counts) < 2 * len(counts)  # some CartPole episode ended: a reset, not counted


def test_send_recv_runtime_needs_an_autoreset_mode() -> None:
    runtime = next(r for r in compare_runtimes() if r.name == "send-recv")
    with pytest.raises(Unavailable, match=message_pattern(POOL_DISABLED_MSG, mode="Disabled")):
        runtime.build(BenchTarget("CartPole-v1", autoreset_mode="Disabled"), 2, 1)


def test_single_env_counts_steps_not_resets() -> None:
    env = GoodEnv(length=1)
    m = measure_single_env(env, [0, 1], 0.02)
    assert m.env_steps == m.calls > 0


def test_seconds_must_be_positive() -> None:
    with pytest.raises(ValueError, match=message_pattern(SECONDS_MSG, 0)):
        measure_single_env(GoodEnv(), [0], 0)


def test_measurement_rate_of_nothing_is_zero() -> None:
    assert Measurement(0, 0.0, 0).steps_per_s == 0.0


def test_runtimes_build_closable_steppers() -> None:
    target = BenchTarget("CartPole-v1")
    for runtime in vecgym_runtimes():
        stepper, actions = runtime.build(target, 2, 1 if runtime.uses_workers else None)
        try:
            assert stepper.num_envs == 2
            assert len(actions) > 0
            stepper.reset(0)
            done = stepper.step(actions[0])
            assert done.shape == (2,)
            assert done.dtype == np.bool_
        finally:
            stepper.close()


def _stepper(envs: Any) -> tuple[Stepper, list[Any]]:
    return vector_stepper(envs, BenchTarget("unused"))


# --- Ctrl-C that sticks ---------------------------------------------------------------------------
class _RaisesSigintWhenFreed:
    """Presses Ctrl-C while it is being freed: CPython prints and drops the KeyboardInterrupt
    that the handler raises inside ``__del__``."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_ctrl_c_dropped_in_a_finalizer_is_raised_by_the_next_progress_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with output.Progress(3, "measuring") as progress:
        progress.start("first")
        freed = _RaisesSigintWhenFreed()
        del freed  # the interrupt is dropped here ...
        assert progress.interrupted
        with pytest.raises(KeyboardInterrupt):
            progress.advance("first: done")  # ... and raised again here
        with pytest.raises(KeyboardInterrupt):
            progress.start("second")
    assert "[1/3] first: done" in capsys.readouterr().err  # the finished step was still shown
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored


def test_progress_leaves_a_custom_sigint_handler_alone() -> None:
    calls: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
    try:
        with output.Progress(1, "measuring") as progress:
            signal.raise_signal(signal.SIGINT)
            progress.advance("done")
        assert calls == [signal.SIGINT]
        assert not progress.interrupted
    finally:
        signal.signal(signal.SIGINT, previous)
