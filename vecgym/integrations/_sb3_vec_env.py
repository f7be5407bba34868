"""The class behind :mod:`vecgym.integrations.sb3` (this module imports Stable-Baselines3)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from vecgym.core.env import Env
from vecgym.core.interop import wrapper_stack_contains
from vecgym.integrations._gymnasium_adapters import as_gymnasium_space
from vecgym.vector._env_call import IS_WRAPPED_CALL
from vecgym.vector.vector_env import AutoresetMode, VectorEnv

__all__ = ["SB3VecEnv", "unbatch_infos"]

NOT_VECTOR_ENV_MSG = "SB3VecEnv expected a vecgym `VectorEnv`, got {type}"
NO_SUB_ENVS_MSG = (
    "{venv} steps all its copies at once and has no sub-environments whose method {name!r} could "
    "be called; use an AsyncVectorEnv or SyncVectorEnv for env_method"
)
NO_IMAGES_MSG = (
    "get_images returns frames only with render_mode 'rgb_array' (None for each env otherwise), "
    "got {mode}"
)
#: The vector-info keys of a SAME_STEP autoreset (the step's last observation and info).
FINAL_KEYS = ("final_obs", "final_info")


def unbatch_infos(infos: dict[str, Any], num_envs: int) -> list[dict[str, Any]]:
    """Split Gymnasium-style batched infos into one dict per env.

    Each key ``k`` whose mask ``infos["_k"]`` marks env ``i`` gives ``info_i[k] = infos[k][i]``;
    nested batched dicts are split the same way; the masks themselves are dropped. A key without
    a mask is given to every env.

    Example:
        >>> import numpy as np
        >>> unbatch_infos({"x": np.array([1, 2]), "_x": np.array([False, True])}, 2)
        [{}, {'x': np.int64(2)}]
    """
    per_env: list[dict[str, Any]] = [{} for _ in range(num_envs)]
    for key, value in infos.items():
        if key.startswith("_") and key[1:] in infos:
            continue
        mask = infos.get(f"_{key}")
        chosen = range(num_envs) if mask is None else np.flatnonzero(mask)
        parts = unbatch_infos(value, num_envs) if isinstance(value, dict) else None
        for i in chosen:
            per_env[i][key] = parts[i] if parts is not None else value[i]
    return per_env


def _copy_obs(obs: Any) -> Any:
    """A copy of an observation (an array, or a dict / tuple of them)."""
    if isinstance(obs, dict):
        return {key: _copy_obs(value) for key, value in obs.items()}
    if isinstance(obs, tuple):
        return tuple(_copy_obs(value) for value in obs)
    return np.array(obs, copy=True)


def _index_obs(obs: Any, i: int) -> Any:
    """Env ``i``'s observation out of a batch (a copy)."""
    if isinstance(obs, dict):
        return {key: _index_obs(value, i) for key, value in obs.items()}
    if isinstance(obs, tuple):
        return tuple(_index_obs(value, i) for value in obs)
    return np.array(obs[i], copy=True)


def _put_obs(batch: Any, source: Any, mask: np.ndarray) -> None:
    """``batch[mask] = source[mask]`` for every leaf of the observation."""
    if isinstance(batch, dict):
        for key in batch:
            _put_obs(batch[key], source[key], mask)
    elif isinstance(batch, tuple):
        for part, part_source in zip(batch, source, strict=True):
            _put_obs(part, part_source, mask)
    else:
        batch[mask] = source[mask]


class SB3VecEnv(VecEnv):
    """A Stable-Baselines3 ``VecEnv`` over any vecgym vector env (:attr:`venv`).

    ``PPO("MlpPolicy", SB3VecEnv(AsyncVectorEnv(env_fns)))`` trains on vecgym's shared-memory
    workers. The conventions are SB3's, as its ``SubprocVecEnv`` has them for the same env
    functions:

    - :meth:`reset` returns the observations only; the reset infos are in :attr:`reset_infos`.
      The seeds set by :meth:`seed` (``seed + i`` for env ``i``) and the options set by
      :meth:`set_options` are used by the next :meth:`reset` only.
    - :meth:`step_wait` returns ``(obs, rewards, dones, infos)``: ``dones`` is ``terminated or
      truncated``; ``rewards`` are float32, as SB3's ``DummyVecEnv`` stores them (so
      ``VecNormalize`` scales them bit for bit as it does over ``DummyVecEnv``); ``infos`` is a
      list with one dict per env, holding that env's step info and ``"TimeLimit.truncated"``
      (``truncated and not terminated``). An env whose episode ended is reset within the same
      step: its entry of ``obs`` is the first observation of the next
      episode, its info holds the last one as ``"terminal_observation"``, and its reset info
      goes to :attr:`reset_infos`.

    That same-step reset uses the vector env's own autoreset mode: with ``SAME_STEP`` (what
    :func:`make_sb3_vec_env` builds, and the cheapest) the vector env has reset the env already
    and the last observation comes from ``info["final_obs"]``; with ``NEXT_STEP`` or
    ``DISABLED`` the ended envs are reset at once with ``reset(options={"reset_mask": dones})``
    (which also cancels a ``NEXT_STEP`` pending reset). Observations are copies the caller owns,
    except that with a vector env made with ``copy=True`` the batch is not copied again.

    :meth:`env_method`, :meth:`get_attr` and :meth:`set_attr` reach the sub-environments
    through the vector env's ``call`` / ``set_attr`` (through their wrappers: an attribute is
    returned as it is, never called; ``set_attr`` sets one value on every selected env). A numpy
    vectorised env has no sub-environments: its attributes are its own, and ``env_method``
    raises. :meth:`env_is_wrapped` inspects each sub-environment where it lives: in this process
    for a ``SyncVectorEnv``, in the workers (or Ray hosts) otherwise, through the vector env's
    ``call`` (the wrapper class travels by reference; no env is built in this process); numpy
    vectorised envs are wrapped by nothing.

    Args:
        venv: a vecgym vector environment; closed by :meth:`close`.

    Raises:
        TypeError: ``venv`` is not a vecgym ``VectorEnv``, or its spaces have no Gymnasium
            counterpart.

    Example:
        >>> import numpy as np
        >>> import vecgym
        >>> venv = SB3VecEnv(vecgym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync"))
        >>> _ = venv.seed(0)
        >>> venv.reset().shape
        (2, 4)
        >>> obs, rewards, dones, infos = venv.step(np.array([0, 1]))
        >>> rewards, dones, infos[0]
        (array([1., 1.], dtype=float32), array([False, False]), {'TimeLimit.truncated': False})
        >>> venv.close()
    """

    venv: VectorEnv[Any, Any, Any]

    def __init__(self, venv: VectorEnv[Any, Any, Any]) -> None:
        if not isinstance(venv, VectorEnv):
            raise TypeError(NOT_VECTOR_ENV_MSG.format(type=type(venv)))
        self.venv = venv
        self.closed = False
        self._actions: Any = None
        self.autoreset_mode = AutoresetMode(venv.metadata.get("autoreset_mode", "NextStep"))
        self._owns_obs = getattr(venv, "copy", True) is not False
        super().__init__(
            venv.num_envs,
            as_gymnasium_space(venv.single_observation_space),
            as_gymnasium_space(venv.single_action_space),
        )

    # --- stepping ---------------------------------------------------------------------------------
    def reset(self) -> VecEnvObs:
        """Reset every env (with the seeds and options set since the last reset, then forgotten).

        Envs given different options are reset in groups, each with its options and a
        ``reset_mask``.

        Returns:
            The batched first observations.
        """
        seeds: Any = None if all(s is None for s in self._seeds) else list(self._seeds)
        groups: dict[str, tuple[dict[str, Any], list[int]]] = {}
        for i, options in enumerate(self._options):
            groups.setdefault(repr(options), (options, []))[1].append(i)
        if len(groups) == 1:
            (options, _), *_ = groups.values()
            obs, infos = self.venv.reset(seed=seeds, options=dict(options) or None)
            self.reset_infos = unbatch_infos(infos, self.num_envs)
        else:
            self.reset_infos = [{} for _ in range(self.num_envs)]
            for options, members in groups.values():
                mask = np.zeros(self.num_envs, dtype=np.bool_)
                mask[members] = True
                group_seeds = None
                if seeds is not None:
                    group_seeds = [seed if mask[i] else None for i, seed in enumerate(seeds)]
                obs, infos = self.venv.reset(
                    seed=group_seeds,  # type: ignore[arg-type]
                    options={**options, "reset_mask": mask},
                )
                for i, info in enumerate(unbatch_infos(infos, self.num_envs)):
                    if mask[i]:
                        self.reset_infos[i] = info
        self._reset_seeds()
        self._reset_options()
        return obs if self._owns_obs else _copy_obs(obs)

    def step_async(self, actions: np.ndarray) -> None:
        """Send the actions (an ``AsyncVectorEnv`` starts stepping at once)."""
        step_async: Callable[[Any], None] | None = getattr(self.venv, "step_async", None)
        if step_async is not None:
            step_async(actions)
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        """The results of the step sent by :meth:`step_async`, in SB3's form (class docstring)."""
        step_wait: Callable[[], Any] | None = getattr(self.venv, "step_wait", None)
        if step_wait is not None:
            obs, rewards, terminated, truncated, infos = step_wait()
        else:
            obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        self._actions = None
        terminated = np.asarray(terminated, dtype=np.bool_)
        truncated = np.asarray(truncated, dtype=np.bool_)
        dones = terminated | truncated
        if not self._owns_obs:
            obs = _copy_obs(obs)
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            step_infos = self._same_step_infos(infos, dones)
        else:
            obs, step_infos = self._reset_ended(obs, infos, dones)
        for i, info in enumerate(step_infos):
            info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, np.array(rewards, dtype=np.float32), dones, step_infos

    def _same_step_infos(self, infos: dict[str, Any], dones: np.ndarray) -> list[dict[str, Any]]:
        """Per-env infos of a SAME_STEP step: ended envs give their final info and observation."""
        per_env = unbatch_infos(infos, self.num_envs)
        step_infos: list[dict[str, Any]] = []
        for i, info in enumerate(per_env):
            if not dones[i]:
                step_infos.append(info)
                continue
            final = dict(info.get("final_info", {}))
            final["terminal_observation"] = info["final_obs"]
            self.reset_infos[i] = {k: v for k, v in info.items() if k not in FINAL_KEYS}
            step_infos.append(final)
        return step_infos

    def _reset_ended(
        self, obs: Any, infos: dict[str, Any], dones: np.ndarray
    ) -> tuple[Any, list[dict[str, Any]]]:
        """NEXT_STEP / DISABLED: reset the ended envs now, keeping their last observations."""
        step_infos = unbatch_infos(infos, self.num_envs)
        if not dones.any():
            return obs, step_infos
        for index in np.flatnonzero(dones):
            step_infos[index]["terminal_observation"] = _index_obs(obs, int(index))
        reset_obs, reset_infos = self.venv.reset(options={"reset_mask": dones})
        _put_obs(obs, reset_obs, dones)
        for i, info in enumerate(unbatch_infos(reset_infos, self.num_envs)):
            if dones[i]:
                self.reset_infos[i] = info
        return obs, step_infos

    def close(self) -> None:
        """Close the vector env; calling it again does nothing."""
        if self.closed:
            return
        self.venv.close()
        self.closed = True

    # --- rendering --------------------------------------------------------------------------------
    def get_images(self) -> Sequence[np.ndarray | None]:
        """Each env's ``rgb_array`` frame (``None`` for each, with a warning, in other modes)."""
        if self.render_mode != "rgb_array":
            warnings.warn(NO_IMAGES_MSG.format(mode=self.render_mode), stacklevel=2)
            return [None] * self.num_envs
        frames: Any = self.venv.render()
        return list(frames) if frames is not None else [None] * self.num_envs

    # --- attributes -------------------------------------------------------------------------------
    def _has_sub_envs(self) -> bool:
        return callable(getattr(self.venv, "call", None))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Attribute ``attr_name`` of each selected env, looked up through its wrappers.

        Raises:
            AttributeError: an env has no such attribute.
        """
        selected = list(self._get_indices(indices))
        if not self._has_sub_envs():
            return [getattr(self.venv, attr_name)] * len(selected)
        call: Callable[..., Any] = self.venv.call  # type: ignore[attr-defined]
        return list(call("get_wrapper_attr", attr_name, indices=selected))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set ``attr_name`` to ``value`` on each selected env (the same value for all)."""
        selected = list(self._get_indices(indices))
        if not self._has_sub_envs():
            setattr(self.venv, attr_name, value)
            return
        set_attr: Callable[..., Any] = self.venv.set_attr  # type: ignore[attr-defined]
        set_attr(attr_name, [value] * len(selected), indices=selected)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Call method ``method_name`` of each selected env; one result per env.

        Raises:
            TypeError: the vector env is numpy-vectorised (it has no sub-environments).
        """
        if not self._has_sub_envs():
            raise TypeError(NO_SUB_ENVS_MSG.format(venv=type(self.venv).__name__, name=method_name))
        selected = list(self._get_indices(indices))
        call: Callable[..., Any] = self.venv.call  # type: ignore[attr-defined]
        return list(call(method_name, *method_args, indices=selected, **method_kwargs))

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """Whether each selected env has a ``wrapper_class`` layer (see the class docstring)."""
        selected = list(self._get_indices(indices))
        envs: list[Env[Any, Any]] | None = getattr(self.venv, "envs", None)
        if envs is not None:
            return [wrapper_stack_contains(envs[i], wrapper_class) for i in selected]
        if getattr(self.venv, "env_fns", None) is None:
            return [False] * len(selected)  # a vectorised env: no sub-environments to wrap
        call: Callable[..., Any] = self.venv.call  # type: ignore[attr-defined]
        return [bool(answer) for answer in call(IS_WRAPPED_CALL, wrapper_class, indices=selected)]

    def __repr__(self) -> str:
        """``SB3VecEnv(<the vector env>)``."""
        return f"{type(self).__name__}({self.venv!r})"
