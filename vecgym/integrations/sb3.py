"""Stable-Baselines3 on vecgym's vector runtime.

:class:`SB3VecEnv` makes any vecgym vector env an SB3 ``VecEnv``, so SB3's algorithms collect
their rollouts through vecgym's shared-memory workers::

    from stable_baselines3 import PPO
    import vecgym
    from vecgym.integrations.sb3 import SB3VecEnv
    from vecgym.vector import AsyncVectorEnv

    envs = SB3VecEnv(AsyncVectorEnv([lambda: vecgym.make("CartPole-v1")] * 8,
                                    autoreset_mode="SameStep"))
    PPO("MlpPolicy", envs).learn(100_000)

:func:`make_sb3_vec_env` builds one from an env id. A single vecgym env goes to SB3 (``PPO``,
``check_env``) through :func:`vecgym.interop.to_gymnasium`.

Stable-Baselines3 is imported on first use of a name of this module; without it
:class:`vecgym.error.DependencyNotInstalled` names the ``sb3`` extra.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from vecgym import error

if TYPE_CHECKING:  # pragma: no cover
    from vecgym.integrations._sb3_vec_env import SB3VecEnv, unbatch_infos

__all__ = ["SB3VecEnv", "make_sb3_vec_env", "unbatch_infos"]

SB3_EXTRA_MSG = (
    "SB3VecEnv needs stable-baselines3 (and gymnasium), which are not installed: "
    'pip install "vecgym[sb3]"'
)
_LAZY = frozenset({"SB3VecEnv", "unbatch_infos"})


def _module() -> Any:
    try:
        return importlib.import_module("vecgym.integrations._sb3_vec_env")
    except ImportError as exc:
        if not (exc.name or "").startswith(("stable_baselines3", "gymnasium", "torch")):
            raise
        raise error.DependencyNotInstalled(SB3_EXTRA_MSG) from exc


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(_module(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_sb3_vec_env(
    env_id: str,
    n_envs: int = 1,
    *,
    seed: int | None = None,
    vectorization_mode: str = "async",
    vector_kwargs: dict[str, Any] | None = None,
    env_kwargs: dict[str, Any] | None = None,
) -> SB3VecEnv:
    """An :class:`SB3VecEnv` over ``vecgym.make_vec(env_id, n_envs, ...)`` in ``SAME_STEP`` mode.

    The counterpart of SB3's ``make_vec_env``: env ``i`` is seeded ``seed + i`` at the first
    ``reset`` (none when ``seed`` is ``None``).

    Args:
        env_id: a registered id.
        n_envs: the number of envs.
        seed: the base seed.
        vectorization_mode: ``"async"`` (default), ``"sync"`` or ``"vector_entry_point"``.
        vector_kwargs: more arguments for the vectoriser (``num_workers``, ``shared_memory``, ...;
            ``"sync"`` / ``"async"`` only).
        env_kwargs: arguments for the environment.

    Raises:
        DependencyNotInstalled: Stable-Baselines3 is missing (the ``sb3`` extra).

    Example:
        >>> venv = make_sb3_vec_env("CartPole-v1", n_envs=2, seed=0, vectorization_mode="sync")
        >>> venv.reset().shape
        (2, 4)
        >>> venv.close()
    """
    import vecgym

    vec_env_class = _module().SB3VecEnv
    same_step: dict[str, Any] = {"autoreset_mode": "SameStep"}
    if vectorization_mode == "vector_entry_point":
        venv = vecgym.make_vec(
            env_id, n_envs, vectorization_mode, **same_step, **(env_kwargs or {})
        )
    else:
        kwargs = {**same_step, **(vector_kwargs or {})}
        venv = vecgym.make_vec(
            env_id, n_envs, vectorization_mode, vector_kwargs=kwargs, **(env_kwargs or {})
        )
    sb3_env: SB3VecEnv = vec_env_class(venv)
    if seed is not None:
        sb3_env.seed(seed)
    return sb3_env
