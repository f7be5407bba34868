"""The one exception tree of vecgym.

Every exception vecgym raises on purpose derives from :class:`Error`, so
``except vecgym.error.Error`` catches them all. The names are Gymnasium's, so
``except gym.error.NameNotFound`` keeps working after ``import vecgym as gym``::

    Error
    ├── UnregisteredEnv
    │   ├── NamespaceNotFound
    │   ├── NameNotFound
    │   └── VersionNotFound
    ├── DeprecatedEnv
    ├── RegistrationError
    ├── DependencyNotInstalled
    │   └── DependencyModuleNotFound     (also ModuleNotFoundError)
    ├── UnsupportedMode
    ├── InvalidMetadata
    ├── InvalidArgument                  (also TypeError and ValueError)
    ├── NoEnvironments                   (also ValueError and IndexError)
    ├── ResetNeeded
    ├── InvalidAction
    ├── InvalidSeed                      (also ValueError)
    ├── MissingArgument
    ├── InvalidProbability               (also ValueError)
    ├── InvalidBound                     (also ValueError)
    ├── InvalidSpace                     (also ValueError)
    │   ├── InvalidSpaceType             (also TypeError)
    │   └── OutOfDtypeRange              (also OverflowError)
    ├── InvalidMask                      (also ValueError)
    │   └── InvalidMaskType              (also TypeError)
    ├── DeprecatedWrapper                (also ImportError)
    ├── RenamedWrapper                   (also AttributeError)
    ├── AlreadyPendingCallError
    ├── NoAsyncCallError
    ├── ClosedEnvironmentError
    ├── CustomSpaceError
    └── VectorEnvError
        ├── WorkerError                  (an env raised inside a worker)
        ├── WorkerDied                   (also concurrent.futures.process.BrokenProcessPool)
        └── WaitTimeout                  (also TimeoutError, multiprocessing.TimeoutError)

Differences from Gymnasium, on purpose: Gymnasium derives ``AlreadyPendingCallError``,
``NoAsyncCallError``, ``ClosedEnvironmentError`` and ``CustomSpaceError`` from ``Exception`` rather
than from its own ``Error``; here they all share the root, which only widens what ``except Error``
catches. ``InvalidSeed``, ``InvalidSpace``, ``InvalidSpaceType``, ``OutOfDtypeRange``,
``InvalidMask``, ``InvalidMaskType``, ``InvalidArgument``, ``NoEnvironments`` and
``DependencyModuleNotFound`` are vecgym additions; they, ``InvalidBound`` and ``InvalidProbability``
also derive from the built-in type Gymnasium raises for the same input (``ValueError``,
``TypeError``, ``OverflowError``, ``IndexError``, ``ModuleNotFoundError``), so code catching
Gymnasium's error keeps working. Where Gymnasium checks a sampling mask with a bare ``assert``,
vecgym raises ``InvalidMask``/``InvalidProbability`` (``ValueError``s) instead. ``RenamedWrapper``
is an ``AttributeError``, as Gymnasium raises for old wrapper names. ``docs/errors.md`` lists the
exception for each user error beside Gymnasium's.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures.process import BrokenProcessPool

__all__ = [
    "AlreadyPendingCallError",
    "ClosedEnvironmentError",
    "CustomSpaceError",
    "DependencyModuleNotFound",
    "DependencyNotInstalled",
    "DeprecatedEnv",
    "DeprecatedWrapper",
    "Error",
    "InvalidAction",
    "InvalidArgument",
    "InvalidBound",
    "InvalidMask",
    "InvalidMaskType",
    "InvalidMetadata",
    "InvalidProbability",
    "InvalidSeed",
    "InvalidSpace",
    "InvalidSpaceType",
    "MissingArgument",
    "NameNotFound",
    "NamespaceNotFound",
    "NoAsyncCallError",
    "NoEnvironments",
    "OutOfDtypeRange",
    "RegistrationError",
    "RenamedWrapper",
    "ResetNeeded",
    "UnregisteredEnv",
    "UnsupportedMode",
    "VectorEnvError",
    "VersionNotFound",
    "WaitTimeout",
    "WorkerDied",
    "WorkerError",
]


class Error(Exception):
    """The root of every exception vecgym raises on purpose."""


# --- registry -------------------------------------------------------------------------------------
class UnregisteredEnv(Error):
    """An environment id that the registry does not hold."""


class NamespaceNotFound(UnregisteredEnv):
    """The namespace of an environment id is not in the registry."""


class NameNotFound(UnregisteredEnv):
    """The name of an environment id is not in the registry (in its namespace)."""


class VersionNotFound(UnregisteredEnv):
    """The name is registered, but not with the requested version."""


class DeprecatedEnv(Error):
    """The requested version is older than the newest registered version of that name."""


class RegistrationError(Error):
    """An environment cannot be registered as asked (e.g. unversioned beside versioned ids)."""


# --- environments ---------------------------------------------------------------------------------
class DependencyNotInstalled(Error):
    """An optional dependency is missing; the message names the extra that installs it."""


class DependencyModuleNotFound(DependencyNotInstalled, ModuleNotFoundError):
    """A package that an environment's module imports is missing, where Gymnasium lets the
    import's ``ModuleNotFoundError`` through (its jax environments without jax or flax); the
    message names the extra that installs it, and ``name`` is the missing module's."""


class UnsupportedMode(Error):
    """A render mode the environment does not support."""


class InvalidMetadata(Error):
    """An environment's metadata is not valid."""


class InvalidArgument(Error, TypeError, ValueError):
    """An argument of a form vecgym refuses where Gymnasium raises ``TypeError`` for some values
    and ``ValueError`` for others (e.g. a ``str`` as ``FilterObservation``'s ``filter_keys``), so
    either ``except`` written for Gymnasium catches it."""


class NoEnvironments(Error, ValueError, IndexError):
    """A vector environment given no environment factories.

    Also an ``IndexError``, which Gymnasium's vector environments raise for an empty ``env_fns``.
    """


class ResetNeeded(Error):
    """``step`` or ``render`` was called before ``reset``."""


class InvalidAction(Error):
    """An action that is not in the action space."""


class InvalidSeed(Error, ValueError):
    """A seed that is not a non-negative Python integer (or ``None``)."""


class MissingArgument(Error):
    """A required constructor argument is missing."""


class InvalidProbability(Error, ValueError):
    """A probability (mask) that is not a valid distribution."""


class InvalidBound(Error, ValueError):
    """Bounds that cannot be used (e.g. a minimum above the maximum)."""


# --- spaces ---------------------------------------------------------------------------------------
class InvalidSpace(Error, ValueError):
    """A space constructed with arguments that cannot describe a space."""


class InvalidSpaceType(InvalidSpace, TypeError):
    """A space argument of the wrong type (e.g. a floating dtype for ``Discrete``).

    Also a ``TypeError``, which Gymnasium raises in those places.
    """


class OutOfDtypeRange(InvalidSpace, OverflowError):
    """A number a space is built from does not fit the space's dtype.

    Also an ``OverflowError``, which numpy raises inside Gymnasium for some of those numbers.
    """


class InvalidMask(Error, ValueError):
    """A sampling mask or probability of the wrong type, dtype or shape."""


class InvalidMaskType(InvalidMask, TypeError):
    """A sampling mask or probability of a type the space cannot use (a ``TypeError`` too)."""


# --- wrappers -------------------------------------------------------------------------------------
class DeprecatedWrapper(Error, ImportError):
    """An old wrapper name; the message names its replacement."""


class RenamedWrapper(Error, AttributeError):
    """An old wrapper name looked up on ``vecgym.wrappers``; the message names the replacement.

    An ``AttributeError``, as Gymnasium raises there, so ``hasattr(wrappers, "FrameStack")`` is
    ``False`` and ``getattr(wrappers, "FrameStack", None)`` is ``None`` as with Gymnasium.
    """


# --- vector environments --------------------------------------------------------------------------
class AlreadyPendingCallError(Error):
    """An ``*_async`` call while another asynchronous call is still pending."""

    name: str

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


class NoAsyncCallError(Error):
    """A ``*_wait`` call with no matching ``*_async`` call pending."""

    name: str

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


class ClosedEnvironmentError(Error):
    """A call on a vector environment that has been closed."""


class CustomSpaceError(Error):
    """A custom space that shared memory cannot hold."""


class VectorEnvError(Error):
    """A failure of a vector environment's runtime (workers, protocol, timeouts)."""


class WorkerError(VectorEnvError):
    """An exception raised inside a worker whose original type could not be re-raised.

    Attributes:
        worker: the index of the worker.
        env_index: the index (in the vector env) of the env that raised, or ``None``.
        type_name: the qualified name of the original exception's type.
        remote_traceback: the traceback text from the worker.
    """

    def __init__(
        self,
        message: str,
        *,
        worker: int | None = None,
        env_index: int | None = None,
        type_name: str = "",
        remote_traceback: str = "",
    ) -> None:
        super().__init__(message)
        self.worker = worker
        self.env_index = env_index
        self.type_name = type_name
        self.remote_traceback = remote_traceback


class WorkerDied(VectorEnvError, BrokenProcessPool):
    """A worker process ended unexpectedly (crash, signal, ``os._exit``, OOM kill).

    Attributes:
        worker: the index of the worker.
        env_indices: the indices of the envs that worker ran.
        exitcode: the process's exit code (negative: killed by that signal), or ``None``.
    """

    def __init__(
        self,
        message: str,
        *,
        worker: int | None = None,
        env_indices: tuple[int, ...] = (),
        exitcode: int | None = None,
    ) -> None:
        super().__init__(message)
        self.worker = worker
        self.env_indices = env_indices
        self.exitcode = exitcode


class WaitTimeout(VectorEnvError, TimeoutError, multiprocessing.TimeoutError):
    """A ``*_wait`` call did not receive every reply within its timeout.

    Also a ``multiprocessing.TimeoutError``, which Gymnasium's ``AsyncVectorEnv`` raises there, and
    the built-in ``TimeoutError``.
    """
