"""A custom environment, end to end: Circle2D.

The agent is a point in the plane that must reach the circle of radius ``target_radius`` around
the origin (the 2-D circle task of the custom-environment guide). This script

1. defines it as a :class:`vecgym.Env` (spaces, ``reset`` seeded through ``self.np_random``,
   ``step``, an ``rgb_array`` renderer written with numpy),
2. registers it under the id ``Circle2D-v0`` with a time limit,
3. builds it with :func:`vecgym.make` and passes :func:`vecgym.utils.env_checker.check_env`,
4. runs a hand-written policy on one env, then on four envs at once through
   ``vecgym.make_vec(..., vectorization_mode="sync")`` and through an
   :class:`~vecgym.vector.AsyncVectorEnv` (worker processes), which give the same results.

Run it with ``python examples/custom_env.py``; :func:`main` returns what it printed as numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import vecgym
from vecgym import spaces
from vecgym.utils.env_checker import check_env
from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

ENV_ID = "Circle2D-v0"
MAX_EPISODE_STEPS = 200
NUM_ENVS = 4
TARGET_REACHED_BONUS = 10.0


class Circle2DEnv(vecgym.Env[npt.NDArray[np.float32], npt.NDArray[np.float32]]):
    """A point agent that must move onto the circle of radius ``target_radius``.

    **Observation** (``Box(-size, size, (2,))``, ``float32``): the agent's position.

    **Action** (``Box(-1, 1, (2,))``, ``float32``): a displacement, scaled by ``step_size`` (it
    is clipped to ``[-1, 1]`` first; the position is kept inside the arena).

    **Reward**: minus the distance to the circle, ``-| |p| - target_radius |``, each step, plus
    ``10`` on the step that reaches it.

    **Start**: uniform in the arena ``[-size, size]^2``, or
    ``reset(options={"position": (x, y)})``.

    **End**: terminated once the agent is within ``tolerance`` of the circle; truncated by the
    time limit that ``make`` adds (200 steps for ``Circle2D-v0``).

    Args:
        target_radius: the radius of the circle to reach.
        size: half the side of the square arena.
        step_size: the largest move per step along each axis.
        tolerance: how close to the circle counts as reached.
        render_mode: ``None`` or ``"rgb_array"`` (``(128, 128, 3)`` frames).

    Example:
        >>> env = Circle2DEnv()
        >>> obs, info = env.reset(seed=0, options={"position": (0.0, 0.0)})
        >>> obs, info["distance"]
        (array([0., 0.], dtype=float32), 1.0)
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(
        self,
        target_radius: float = 1.0,
        size: float = 2.0,
        step_size: float = 0.1,
        tolerance: float = 0.05,
        render_mode: str | None = None,
    ) -> None:
        if not 0 < target_radius < size:
            raise ValueError(f"target_radius must be in (0, size={size}), got {target_radius}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.target_radius = float(target_radius)
        self.size = float(size)
        self.step_size = float(step_size)
        self.tolerance = float(tolerance)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-self.size, self.size, shape=(2,), dtype=np.float32)
        self.action_space = spaces.Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
        self._position = np.zeros(2, dtype=np.float32)

    def _distance(self) -> float:
        """Distance from the agent to the circle."""
        return abs(float(np.linalg.norm(self._position)) - self.target_radius)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Place the agent at random in the arena (or at ``options["position"]``)."""
        super().reset(seed=seed)
        if options is not None and "position" in options:
            position = np.asarray(options["position"], dtype=np.float32)
            if position.shape != (2,):
                raise ValueError(f"position must be a pair (x, y), got {options['position']!r}")
            self._position = np.clip(position, -self.size, self.size)
        else:
            self._position = self.np_random.uniform(-self.size, self.size, 2).astype(np.float32)
        return self._position.copy(), {"distance": self._distance()}

    def step(
        self, action: npt.NDArray[np.float32]
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Move by ``step_size * clip(action, -1, 1)`` and score the new distance to the circle."""
        move = np.clip(np.asarray(action, dtype=np.float32), -1.0, 1.0) * self.step_size
        self._position = np.clip(self._position + move, -self.size, self.size).astype(np.float32)
        distance = self._distance()
        terminated = distance <= self.tolerance
        reward = -distance + (TARGET_REACHED_BONUS if terminated else 0.0)
        return self._position.copy(), reward, terminated, False, {"distance": distance}

    def render(self) -> npt.NDArray[np.uint8] | None:
        """The arena seen from above: the circle in grey, the agent as a red dot."""
        if self.render_mode != "rgb_array":
            return None
        pixels = 128
        coords = (np.arange(pixels) + 0.5) / pixels * 2 * self.size - self.size
        xs, ys = np.meshgrid(coords, coords[::-1])
        frame = np.full((pixels, pixels, 3), 255, dtype=np.uint8)
        radius = np.hypot(xs, ys)
        frame[np.abs(radius - self.target_radius) < 2 * self.size / pixels] = (128, 128, 128)
        agent = np.hypot(xs - self._position[0], ys - self._position[1]) < 0.08
        frame[agent] = (220, 30, 30)
        return frame


def register_circle2d() -> None:
    """Register ``Circle2D-v0`` (once) with a 200-step time limit."""
    if ENV_ID not in vecgym.registry:
        vecgym.register(id=ENV_ID, entry_point=Circle2DEnv, max_episode_steps=MAX_EPISODE_STEPS)


def towards_circle(observations: np.ndarray, target_radius: float = 1.0) -> np.ndarray:
    """A policy for a batch of positions: step straight towards (or away from) the origin."""
    observations = np.atleast_2d(observations)
    norms = np.linalg.norm(observations, axis=1, keepdims=True)
    outward = np.where(norms > 0, observations / np.maximum(norms, 1e-8), [[1.0, 0.0]])
    gap = target_radius - norms  # > 0: move outward
    return np.clip(outward * gap * 10, -1.0, 1.0).astype(np.float32)


def run_single(seed: int) -> dict[str, Any]:
    """One episode of the policy on ``make("Circle2D-v0")``."""
    env = vecgym.make(ENV_ID)
    obs, info = env.reset(seed=seed)
    start_distance = info["distance"]
    total, steps, terminated, truncated = 0.0, 0, False, False
    while not (terminated or truncated):
        obs, reward, terminated, truncated, info = env.step(towards_circle(obs)[0])
        total += float(reward)
        steps += 1
    env.close()
    return {
        "start_distance": start_distance,
        "final_distance": info["distance"],
        "steps": steps,
        "return": total,
        "terminated": terminated,
    }


def run_vector(envs: Any, seed: int, steps: int) -> tuple[np.ndarray, int]:
    """Step a vector env with the policy; return the last observations and episodes finished."""
    obs, _ = envs.reset(seed=seed)
    finished = 0
    for _ in range(steps):
        obs, _, terminated, truncated, _ = envs.step(towards_circle(obs))
        finished += int(np.count_nonzero(terminated | truncated))
    return obs, finished


def main(seed: int = 1, steps: int = 60) -> dict[str, Any]:
    """Run the whole tour and print what happens; returns the figures printed."""
    register_circle2d()
    env = vecgym.make(ENV_ID, render_mode="rgb_array")
    print(f"made {env}: observation_space={env.observation_space}, action_space={env.action_space}")
    check_env(env.unwrapped)
    print("check_env: passed")
    env.reset(seed=seed)
    frame = np.asarray(env.render())
    print(f"render: a {frame.shape} {frame.dtype} frame")
    env.close()

    single = run_single(seed)
    print(
        f"single env: distance {single['start_distance']:.3f} -> {single['final_distance']:.3f} "
        f"in {single['steps']} steps (return {single['return']:.2f}, "
        f"terminated={single['terminated']})"
    )

    sync_envs = vecgym.make_vec(ENV_ID, num_envs=NUM_ENVS, vectorization_mode="sync")
    assert isinstance(sync_envs, SyncVectorEnv)
    sync_obs, sync_finished = run_vector(sync_envs, seed, steps)
    sync_envs.close()
    print(f"SyncVectorEnv x{NUM_ENVS}: {sync_finished} episodes finished in {steps} steps")

    async_envs = AsyncVectorEnv([lambda: vecgym.make(ENV_ID)] * NUM_ENVS)
    try:
        async_obs, async_finished = run_vector(async_envs, seed, steps)
    finally:
        async_envs.close()
    same = bool(np.array_equal(sync_obs, async_obs)) and sync_finished == async_finished
    print(f"AsyncVectorEnv x{NUM_ENVS}: {async_finished} episodes finished; same as sync: {same}")
    return {
        "single": single,
        "sync_finished": sync_finished,
        "async_finished": async_finished,
        "sync_obs": sync_obs,
        "async_obs": async_obs,
        "async_matches_sync": same,
    }


if __name__ == "__main__":
    main()
