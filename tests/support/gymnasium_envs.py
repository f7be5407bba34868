"""Gymnasium environments (not vecgym ones) for the interop tests.

Importing this module imports Gymnasium; only tests that already require it import it.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces


class GymDictEnv(gymnasium.Env[dict[str, Any], Any]):
    """A Gymnasium env with a ``Dict`` observation: a random position and the step count.

    Terminates after ``length`` steps; the reward is the action. Everything random comes from
    ``np_random``, so trajectories are fixed by the reset seed.
    """

    metadata = {"render_modes": []}

    def __init__(self, length: int = 5) -> None:
        self.length = length
        self.observation_space = spaces.Dict(
            {
                "position": spaces.Box(-1.0, 1.0, shape=(2,), dtype=np.float32),
                "count": spaces.Discrete(length + 1),
            }
        )
        self.action_space = spaces.Discrete(3)
        self._count = 0

    def _obs(self) -> dict[str, Any]:
        position = self.np_random.uniform(-1.0, 1.0, size=2).astype(np.float32)
        return {"count": self._count, "position": position}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self._count = 0
        return self._obs(), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        self._count += 1
        return self._obs(), float(action), self._count >= self.length, False, {}


class Parity(spaces.Space[int]):
    """A custom Gymnasium space (no vecgym equivalent): the even integers in ``[0, 10)``."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__((), np.int64, seed)
        self.limit = 10  # an attribute of its own, as minigrid's MissionSpace has

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def halves(self, x: int) -> int:
        return x // 2

    def sample(self, mask: Any = None, probability: Any = None) -> int:
        return int(self.np_random.integers(5)) * 2

    def contains(self, x: Any) -> bool:
        return isinstance(x, int) and 0 <= x < 10 and x % 2 == 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Parity)


class GymParityEnv(gymnasium.Env[Any, Any]):
    """A Gymnasium env whose observation space is the custom :class:`Parity` space."""

    def __init__(self) -> None:
        self.observation_space = Parity()
        self.action_space = spaces.Discrete(2)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[int, dict[str, Any]]:
        super().reset(seed=seed)
        return int(self.np_random.integers(5)) * 2, {}

    def step(self, action: int) -> tuple[int, float, bool, bool, dict[str, Any]]:
        return 2 * int(action), 0.0, bool(action), False, {}


#: The message of :class:`GymRaisingEnv`'s errors.
RAISING_MSG = "a Gymnasium error from env {what}"


class GymRaisingEnv(gymnasium.Env[np.ndarray, int]):
    """A Gymnasium env that raises Gymnasium's own exceptions: ``gymnasium.error.InvalidAction``
    when stepped with action ``1``, ``gymnasium.error.ResetNeeded`` when reset with the option
    ``{"fail": True}`` and ``gymnasium.error.InvalidMetadata`` when built with ``fail_init=True``
    (its observation is always ``[0.0]``)."""

    metadata = {"render_modes": []}

    def __init__(self, fail_init: bool = False) -> None:
        if fail_init:
            raise gymnasium.error.InvalidMetadata(RAISING_MSG.format(what="construction"))
        self.observation_space = spaces.Box(-1.0, 1.0, shape=(1,), dtype=np.float32)
        self.action_space = spaces.Discrete(2)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if options and options.get("fail"):
            raise gymnasium.error.ResetNeeded(RAISING_MSG.format(what="reset"))
        return np.zeros(1, dtype=np.float32), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if int(action) == 1:
            raise gymnasium.error.InvalidAction(RAISING_MSG.format(what="step"))
        return np.zeros(1, dtype=np.float32), 0.0, False, False, {}


class GymRespacingEnv(gymnasium.Env[np.ndarray, Any]):
    """Rebuilds its spaces from :attr:`config` on every ``reset``, as highway-env does after
    ``env.unwrapped.configure({...})``."""

    def __init__(self) -> None:
        self.config: dict[str, Any] = {"continuous": False, "width": 2}
        self._define_spaces()

    def configure(self, config: dict[str, Any]) -> None:
        self.config.update(config)

    def _define_spaces(self) -> None:
        width = self.config["width"]
        self.observation_space = spaces.Box(-1.0, 1.0, (width,), np.float32)
        continuous = self.config["continuous"]
        self.action_space = (
            spaces.Box(-1.0, 1.0, (2,), np.float32) if continuous else spaces.Discrete(5)
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._define_spaces()
        return self.observation_space.sample(), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        assert self.action_space.contains(action)
        return np.zeros(self.config["width"], np.float32), 0.0, False, False, {}
