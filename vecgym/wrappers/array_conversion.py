"""Convert an environment's inputs and outputs between array frameworks (numpy, torch, jax, ...).

:func:`array_conversion` converts a value, recursively through mappings, tuples, lists and
named tuples, into arrays of a target framework ("xp", the framework's array module such as
``numpy``, ``torch`` or ``jax.numpy``). :class:`ArrayConversion` wraps an environment written for
one framework so that it can be driven with another: actions are converted to the environment's
framework, observations, infos and renders to the target framework.

Neither torch nor jax is imported by this module: a framework is only touched through the module
object the caller passes (which the caller has therefore imported already). Gymnasium's version
goes through the ``array-api-compat`` package; vecgym converts directly, through DLPack where the
frameworks support it, so it needs no extra package.

Conversion rules (same as Gymnasium's unless marked):

* an array of any framework (anything with ``__dlpack__``) or a numpy scalar becomes an array of
  the target framework, on ``device`` when one is given (sharing memory where the frameworks
  allow; a read-only numpy array is copied first);
* a Python number becomes a 0-d array of the target's own default dtype for it (torch and jax
  make ``1.0`` a float32, numpy a float64);
* a mapping, tuple, list or named tuple is rebuilt with the same type and converted items;
* ``None`` is passed through; strings and bytes are passed through (vecgym: Gymnasium recurses
  into them forever);
* anything else raises ``TypeError``.
"""

from __future__ import annotations

import functools
import importlib
import numbers
from collections import abc
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any, SupportsFloat

import numpy as np

from vecgym._extras import import_extra
from vecgym.core.env import Env, RenderFrame, Wrapper
from vecgym.core.record_constructor import RecordConstructorArgs

__all__ = ["ArrayConversion", "array_conversion", "module_namespace"]

Array = Any
Device = Any

# --- message templates ----------------------------------------------------------------------------
NOT_ARRAY_MODULE_MSG = (
    "expected an array framework module with `asarray` and `from_dlpack` "
    "(e.g. numpy, torch, jax.numpy), got {module!r}"
)
NO_CONVERSION_MSG = "No known conversion of a value of type {type} to the array module {xp}"
MISSING_EXTRA_MSG = '{user} needs {package}, which is not installed: pip install "vecgym[{extra}]"'


def import_optional(module_name: str, extra: str, user: str) -> ModuleType:
    """Import an optional dependency, or raise :class:`~vecgym.error.DependencyNotInstalled`.

    Args:
        module_name: the module to import (e.g. ``"torch"`` or ``"jax.numpy"``).
        extra: the vecgym extra that installs it (``"torch"``, ``"jax"``).
        user: what needs it, for the message.

    Returns:
        The imported module.
    """
    package = module_name.split(".")[0]
    message = MISSING_EXTRA_MSG.format(package=package.capitalize(), extra=extra, user=user)
    return import_extra(module_name, message)


def _family(xp: ModuleType) -> str:
    """``"numpy"``, ``"torch"``, ``"jax"`` or ``"other"`` for an array module."""
    name = xp.__name__.removeprefix("array_api_compat.")
    root = name.split(".")[0]
    return root if root in ("numpy", "torch", "jax") else "other"


def module_namespace(xp: ModuleType) -> ModuleType:
    """The array module to use for ``xp``, checked to look like an array framework.

    ``jax`` is taken to mean ``jax.numpy``; other modules are returned as given.

    Raises:
        ValueError: ``xp`` lacks ``asarray`` or ``from_dlpack``.
    """
    if isinstance(xp, ModuleType) and xp.__name__ == "jax":
        xp = importlib.import_module("jax.numpy")
    if not (isinstance(xp, ModuleType) and hasattr(xp, "asarray") and hasattr(xp, "from_dlpack")):
        raise ValueError(NOT_ARRAY_MODULE_MSG.format(module=xp))
    return xp


def _type_family(value: Any) -> str:
    """The framework an array object belongs to, by the module of its type."""
    root = type(value).__module__.split(".")[0]
    return {"jaxlib": "jax"}.get(root, root)


def _to_host_numpy(value: Any) -> np.ndarray[Any, Any]:
    """A numpy array (on the host) with the contents of an array of any framework."""
    if _type_family(value) == "torch":
        return value.detach().cpu().resolve_conj().resolve_neg().numpy()
    return np.asarray(value)


def _to_numpy(value: Any, xp: ModuleType, device: Device | None) -> Array:
    if isinstance(value, np.ndarray | np.generic):
        return np.asarray(value)
    return _to_host_numpy(value)


def _to_torch(value: Any, xp: ModuleType, device: Device | None) -> Array:
    if _type_family(value) == "torch":
        tensor = value
    elif isinstance(value, np.ndarray | np.generic):
        array = np.asarray(value)
        if not array.flags.writeable or any(stride < 0 for stride in array.strides):
            array = array.copy()  # torch cannot share read-only or reversed numpy memory
        tensor = xp.as_tensor(array)
    else:
        try:
            tensor = xp.from_dlpack(value)
        except (BufferError, RuntimeError, TypeError, ValueError):
            tensor = xp.as_tensor(_to_host_numpy(value).copy())
    return tensor.to(device) if device is not None else tensor


def _to_jax(value: Any, xp: ModuleType, device: Device | None) -> Array:
    if _type_family(value) == "torch":
        try:
            result = xp.from_dlpack(value.detach())
        except (BufferError, RuntimeError, TypeError, ValueError):
            result = xp.asarray(_to_host_numpy(value))
    else:
        result = xp.asarray(value)
    if device is not None:
        jax = importlib.import_module("jax")
        result = jax.device_put(result, device)
    return result


def _to_other(value: Any, xp: ModuleType, device: Device | None) -> Array:
    try:
        return xp.from_dlpack(value)
    except (BufferError, RuntimeError, TypeError, ValueError):
        return xp.asarray(_to_host_numpy(value))


_ARRAY_CONVERTERS = {"numpy": _to_numpy, "torch": _to_torch, "jax": _to_jax, "other": _to_other}


def _convert_array(value: Any, xp: ModuleType, device: Device | None) -> Array:
    """An array of any framework as an array of ``xp``, on ``device`` when given."""
    return _ARRAY_CONVERTERS[_family(xp)](value, xp, device)


@functools.singledispatch
def array_conversion(value: Any, xp: ModuleType, device: Device | None = None) -> Any:
    """Convert ``value`` into arrays of the framework ``xp`` (see the module docstring).

    Args:
        value: the value to convert: an array, a number, ``None``, or a mapping, tuple or list
            of such values.
        xp: the target framework's array module (``numpy``, ``torch``, ``jax.numpy``, ...).
        device: the target device, or ``None`` for the framework's default.

    Returns:
        The converted value, with the same container structure.

    Raises:
        TypeError: ``value`` (or an item inside it) has no known conversion.
    """
    if hasattr(value, "__dlpack__"):
        return _convert_array(value, xp, device)
    raise TypeError(NO_CONVERSION_MSG.format(type=type(value), xp=xp.__name__))


@array_conversion.register(np.ndarray)
@array_conversion.register(np.generic)
def _numpy_value_conversion(value: Any, xp: ModuleType, device: Device | None = None) -> Any:
    return _convert_array(value, xp, device)


@array_conversion.register(numbers.Number)
def _number_conversion(value: numbers.Number, xp: ModuleType, device: Device | None = None) -> Any:
    if isinstance(value, np.generic):
        return _convert_array(value, xp, device)
    # A Python number takes the target's own default dtype, as in Gymnasium: torch and jax make
    # 1.0 a float32 (numpy a float64), and torch follows ``torch.set_default_dtype``.
    return _convert_array(xp.asarray(value), xp, device)


@array_conversion.register(type(None))
@array_conversion.register(str)
@array_conversion.register(bytes)
def _passthrough_conversion(value: Any, xp: ModuleType, device: Device | None = None) -> Any:
    return value


@array_conversion.register(abc.Mapping)
def _mapping_conversion(
    value: Mapping[Any, Any], xp: ModuleType, device: Device | None = None
) -> Mapping[Any, Any]:
    return type(value)(  # type: ignore[call-arg]
        {key: array_conversion(item, xp, device) for key, item in value.items()}
    )


@array_conversion.register(abc.Iterable)
def _iterable_conversion(value: Iterable[Any], xp: ModuleType, device: Device | None = None) -> Any:
    if hasattr(value, "__dlpack__"):
        return _convert_array(value, xp, device)
    items = (array_conversion(item, xp, device) for item in value)
    if hasattr(value, "_make"):  # a named tuple
        return type(value)._make(items)
    return type(value)(items)  # type: ignore[call-arg]


class ArrayConverterMixin:
    """The conversion state and pickling shared by the single and vector ``ArrayConversion``.

    Holds the two array modules and devices; converts values both ways; pickles the modules
    (also those among the recorded constructor arguments) by name.
    """

    _env_xp: ModuleType
    _target_xp: ModuleType
    _saved_kwargs: dict[str, Any]

    def _init_conversion(
        self,
        env_xp: ModuleType,
        target_xp: ModuleType,
        env_device: Device | None,
        target_device: Device | None,
    ) -> None:
        """Check and store the modules and devices.

        Raises:
            ValueError: ``env_xp`` or ``target_xp`` is not an array module.
        """
        self._env_xp = module_namespace(env_xp)
        self._target_xp = module_namespace(target_xp)
        self._env_device: Device | None = env_device
        self._target_device: Device | None = target_device

    def _to_target(self, value: Any) -> Any:
        return array_conversion(value, self._target_xp, self._target_device)

    def _to_env(self, value: Any) -> Any:
        return array_conversion(value, self._env_xp, self._env_device)

    def _env_options(self, options: dict[str, Any] | None) -> dict[str, Any] | None:
        """Reset ``options`` for the environment: converted when non-empty, else as given."""
        return self._to_env(options) if options else options

    def __getstate__(self) -> dict[str, Any]:
        """The wrapper's state with every module replaced by its name (modules do not pickle)."""
        state = dict(self.__dict__)
        state["_env_xp"] = self._env_xp.__name__
        state["_target_xp"] = self._target_xp.__name__
        state["_saved_kwargs"] = {
            key: _ModuleName(value.__name__) if isinstance(value, ModuleType) else value
            for key, value in self._saved_kwargs.items()
        }
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore the state, importing the modules back by name."""
        state = dict(state)
        state["_env_xp"] = importlib.import_module(state["_env_xp"])
        state["_target_xp"] = importlib.import_module(state["_target_xp"])
        state["_saved_kwargs"] = {
            key: importlib.import_module(value) if isinstance(value, _ModuleName) else value
            for key, value in state["_saved_kwargs"].items()
        }
        self.__dict__.update(state)


class ArrayConversion(ArrayConverterMixin, Wrapper[Any, Any, Any, Any], RecordConstructorArgs):
    """Drive an environment written for one array framework with arrays of another.

    Actions (and reset options) are converted to ``env_xp`` on ``env_device``; observations,
    infos and renders are converted to ``target_xp`` on ``target_device``. The reward is returned
    as a Python ``float``, ``terminated`` and ``truncated`` as ``bool``.

    The frameworks are given as their array modules (``numpy``, ``torch``, ``jax.numpy``); the
    wrapper never imports one itself. Pickling stores the modules by name.

    Example:
        >>> import numpy as np
        >>> from tests.support.generic_env import GenericTestEnv
        >>> env = ArrayConversion(GenericTestEnv(), env_xp=np, target_xp=np)
        >>> obs, info = env.reset(seed=0)
        >>> type(obs).__name__, type(env.step(np.zeros(1))[1]).__name__
        ('ndarray', 'float')
    """

    def __init__(
        self,
        env: Env[Any, Any],
        env_xp: ModuleType,
        target_xp: ModuleType,
        env_device: Device | None = None,
        target_device: Device | None = None,
    ) -> None:
        """Wrap ``env``.

        Args:
            env: the environment, which takes and returns ``env_xp`` arrays.
            env_xp: the environment's array module.
            target_xp: the array module of the wrapper's inputs and outputs.
            env_device: the device the environment's arrays live on (``None``: default).
            target_device: the device the returned arrays are put on (``None``: default).

        Raises:
            ValueError: ``env_xp`` or ``target_xp`` is not an array module.
        """
        # Modules cannot be deep-copied, so the arguments are recorded as given.
        RecordConstructorArgs.__init__(
            self,
            _disable_deepcopy=True,
            env_xp=env_xp,
            target_xp=target_xp,
            env_device=env_device,
            target_device=target_device,
        )
        Wrapper.__init__(self, env)
        self._init_conversion(env_xp, target_xp, env_device, target_device)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step with ``action`` converted for the environment; outputs converted to the target."""
        obs, reward, terminated, truncated, info = self.env.step(self._to_env(action))
        return (
            self._to_target(obs),
            float(reward),
            bool(terminated),
            bool(truncated),
            self._to_target(info),
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset (with non-empty ``options`` converted for the environment); outputs converted."""
        obs, info = self.env.reset(seed=seed, options=self._env_options(options))
        return self._to_target(obs), self._to_target(info)

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """The environment's render, converted to the target framework."""
        return self._to_target(self.env.render())


class _ModuleName(str):
    """A module's name standing in for the module in pickled recorded arguments."""
