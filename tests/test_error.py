"""vecgym.error: one root, Gymnasium's names and relationships."""

from __future__ import annotations

import inspect
import multiprocessing
import pickle

import pytest

from vecgym import error


def _exception_classes() -> list[type[BaseException]]:
    return [
        obj
        for _, obj in inspect.getmembers(error, inspect.isclass)
        if issubclass(obj, BaseException) and obj.__module__ == error.__name__
    ]


@pytest.mark.parametrize("cls", _exception_classes(), ids=lambda c: c.__name__)
def test_every_exception_derives_from_the_root(cls: type[BaseException]) -> None:
    assert issubclass(cls, error.Error)
    assert cls.__name__ in error.__all__


@pytest.mark.parametrize(
    ("child", "parent"),
    [
        (error.NamespaceNotFound, error.UnregisteredEnv),
        (error.NameNotFound, error.UnregisteredEnv),
        (error.VersionNotFound, error.UnregisteredEnv),
        (error.DeprecatedWrapper, ImportError),
        (error.InvalidSeed, ValueError),
        (error.InvalidSpace, ValueError),
        (error.InvalidMask, ValueError),
        (error.WaitTimeout, TimeoutError),
        (error.WaitTimeout, multiprocessing.TimeoutError),
        (error.InvalidProbability, ValueError),
        (error.InvalidSpaceType, TypeError),
        (error.InvalidSpaceType, error.InvalidSpace),
        (error.OutOfDtypeRange, OverflowError),
        (error.OutOfDtypeRange, error.InvalidSpace),
        (error.InvalidMaskType, TypeError),
        (error.InvalidMaskType, error.InvalidMask),
        (error.InvalidArgument, TypeError),
        (error.InvalidArgument, ValueError),
        (error.NoEnvironments, ValueError),
        (error.NoEnvironments, IndexError),
        (error.WorkerDied, error.VectorEnvError),
        (error.WorkerError, error.VectorEnvError),
    ],
)
def test_relationships(child: type[BaseException], parent: type[BaseException]) -> None:
    assert issubclass(child, parent)


def test_pending_call_errors_carry_the_call_name() -> None:
    exc = error.AlreadyPendingCallError("step is pending", "step")
    assert exc.name == "step"
    assert str(exc) == "step is pending"
    assert error.NoAsyncCallError("no call", "reset").name == "reset"


def test_worker_died_is_a_broken_process_pool_and_carries_details() -> None:
    from concurrent.futures.process import BrokenProcessPool

    exc = error.WorkerDied("worker 1 died", worker=1, env_indices=(2, 3), exitcode=-9)
    assert isinstance(exc, BrokenProcessPool)
    assert (exc.worker, exc.env_indices, exc.exitcode) == (1, (2, 3), -9)


def test_simple_errors_pickle() -> None:
    exc = pickle.loads(pickle.dumps(error.NameNotFound("no such env")))
    assert isinstance(exc, error.NameNotFound)
    assert str(exc) == "no such env"
