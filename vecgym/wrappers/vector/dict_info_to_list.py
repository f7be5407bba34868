"""The vector :class:`DictInfoToList`: batched info dicts as a list of per-env dicts."""

from __future__ import annotations

from typing import Any

import numpy as np

from vecgym.core.env import ActType, ObsType
from vecgym.vector.vector_env import ArrayType, VectorEnv, VectorWrapper

__all__ = ["DictInfoToList"]

INFOS_TYPE_MSG = "DictInfoToList expected the wrapped env's infos to be a dict, got {}"
INFO_LENGTH_MSG = (
    "DictInfoToList expected info {key!r} to have one entry per sub-environment ({num_envs}), "
    "got {length}"
)


class DictInfoToList(VectorWrapper[ObsType, ActType, ObsType, ActType, ArrayType]):
    """Turns the batched infos of a vector env (one dict of arrays) into a list of env infos.

    Entry ``i`` of the list holds, for each key ``k`` of the batched infos (keys starting with
    ``"_"`` are the masks and are dropped), ``infos[k][i]`` when ``infos["_k"][i]`` is true, or
    for every env when there is no mask. Nested dicts become nested per-env dicts. Wrap it
    outermost, since wrappers that add infos (like :class:`RecordEpisodeStatistics`) expect a dict.

    Example:
        >>> import vecgym as gym
        >>> envs = gym.make_vec("CartPole-v1", num_envs=2, vectorization_mode="sync")
        >>> envs = DictInfoToList(envs)
        >>> _, infos = envs.reset(seed=0)
        >>> infos
        [{}, {}]
        >>> envs.close()
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType]) -> None:
        """Wrap ``env``."""
        super().__init__(env)

    def step(  # type: ignore[override]
        self, actions: ActType
    ) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, list[dict[str, Any]]]:
        """Step the wrapped env; the infos are returned as a list with one dict per env."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return observations, rewards, terminations, truncations, self._to_list(infos)

    def reset(  # type: ignore[override]
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, list[dict[str, Any]]]:
        """Reset the wrapped env; the infos are returned as a list with one dict per env."""
        observations, infos = self.env.reset(seed=seed, options=options)
        return observations, self._to_list(infos)

    def _to_list(self, infos: Any) -> list[dict[str, Any]]:
        """Split batched ``infos`` into one dict per env.

        Raises:
            TypeError: ``infos`` is not a dict.
            ValueError: an info array or mask does not have one entry per env.
        """
        if not isinstance(infos, dict):
            raise TypeError(INFOS_TYPE_MSG.format(type(infos)))
        num_envs = self.num_envs
        per_env: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        for key, value in infos.items():
            if key.startswith("_"):
                continue
            values = self._to_list(value) if isinstance(value, dict) else value
            self._check_length(key, values)
            mask = infos.get(f"_{key}")
            if mask is not None:
                self._check_length(f"_{key}", mask)
            for index in range(num_envs):
                if mask is None or mask[index]:
                    per_env[index][key] = values[index]
        return per_env

    def _check_length(self, key: str, values: Any) -> None:
        """Raise unless ``values`` has one entry per env."""
        length = len(values) if isinstance(values, (list, tuple, np.ndarray)) else None
        if length != self.num_envs:
            raise ValueError(INFO_LENGTH_MSG.format(key=key, num_envs=self.num_envs, length=length))
