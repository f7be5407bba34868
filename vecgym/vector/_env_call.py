"""What ``call`` does on one sub-environment, wherever the env lives.

``SyncVectorEnv`` runs it in this process, ``AsyncVectorEnv``'s workers in theirs (and Ray hosts
through their local vector env), so a question about an env is answered where the env is, without
building a throwaway copy of it in the parent.

Besides method and attribute names, ``call`` understands one vecgym name, :data:`IS_WRAPPED_CALL`
(no attribute can have it: it is not an identifier): ``call(IS_WRAPPED_CALL, wrapper_class)``
tells, per env, whether its wrapper stack has a ``wrapper_class`` layer (Stable-Baselines3's
``env_is_wrapped``). Wrapper classes pickle by reference, so the question travels cheaply.
"""

from __future__ import annotations

from typing import Any

from vecgym.core.interop import wrapper_stack_contains

__all__ = ["IS_WRAPPED_CALL", "call_env"]

#: The ``call`` name asking whether each env's wrapper stack has a layer of the class given.
IS_WRAPPED_CALL = "vecgym:env_is_wrapped"


def call_env(env: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``env``'s method ``name`` called with ``args`` and ``kwargs`` (an attribute as it is).

    The method is looked up through the wrappers (``get_wrapper_attr``); :data:`IS_WRAPPED_CALL`
    answers with :func:`~vecgym.core.interop.wrapper_stack_contains` instead.
    """
    if name == IS_WRAPPED_CALL:
        return wrapper_stack_contains(env, *args, **kwargs)
    attribute = env.get_wrapper_attr(name)
    return attribute(*args, **kwargs) if callable(attribute) else attribute
