"""Run as a script (``python -m tests.support.extras_check``), never imported by the tests: what a
user gets from vecgym's extras for the real envs, in a venv that holds nothing else.

``.ci/run``'s extras pass runs it in a fresh venv with ``vecgym[human,atari,mujoco,box2d]`` and
Gymnasium's own ``classic-control`` extra, and no test packages: the suite's venv has pytest,
hypothesis and the rest, which bring along packages that an extra may forget (``packaging``, which
Gymnasium's MuJoCo renderer imports, was one), so only a venv of the extras alone shows what is
missing. It checks:

* that the venv holds one distribution of the ``pygame`` module: pygame and pygame-ce both install
  it, over each other's files, and Gymnasium's extras name pygame-ce since Gymnasium 1.3;
* that each family of real envs makes, resets and steps through ``vecgym.make``:
  ``HalfCheetah-v5`` (not rendered: MuJoCo draws with OpenGL, a system library no Python package
  brings), ``LunarLander-v3``, also rendered, and ``ALE/Pong-v5`` with ``AtariPreprocessing``
  (OpenCV's resize) and a stack of 4 frames, and a MuJoCo env in an ``AsyncVectorEnv``;
* that ``render_mode="human"`` opens vecgym's window (SDL's dummy video driver) and that
  Gymnasium's pygame-drawn CartPole renders beside it.

It exits with a message naming what failed (or an exception's traceback), or prints a line per
check and ``ok`` last.
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
from typing import Any

import numpy as np

#: The distributions that install the ``pygame`` module.
PYGAME_DISTRIBUTIONS = frozenset({"pygame", "pygame-ce"})


def installed_pygames() -> set[str]:
    """The distributions of :data:`PYGAME_DISTRIBUTIONS` installed in this venv."""
    names = {(dist.metadata["Name"] or "").lower() for dist in importlib.metadata.distributions()}
    return names & PYGAME_DISTRIBUTIONS


def _step_and_render(env: Any, *, render: bool) -> tuple[Any, Any]:
    """Reset with a seed, take one sampled action and render: the observation and the frame."""
    env.reset(seed=0)
    env.action_space.seed(0)
    obs = env.step(env.action_space.sample())[0]
    frame = env.render() if render else None
    if render and (not isinstance(frame, np.ndarray) or frame.ndim != 3):
        raise SystemExit(
            f"extras check: {env.spec.id} rendered {type(frame).__name__}, not a frame"
        )
    env.close()
    return obs, frame


def main() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygames = installed_pygames()
    if len(pygames) != 1:
        raise SystemExit(
            f"extras check: expected one of {sorted(PYGAME_DISTRIBUTIONS)}, found {sorted(pygames)}"
        )
    print(f"one pygame module: {pygames.pop()}")

    import gymnasium

    import vecgym
    from vecgym.wrappers import AtariPreprocessing, FrameStackObservation

    # MuJoCo draws with OpenGL, a system library that no Python package brings: not rendered here
    obs, _ = _step_and_render(vecgym.make("HalfCheetah-v5"), render=False)
    print(f"HalfCheetah-v5: observation {np.shape(obs)}")
    obs, frame = _step_and_render(
        vecgym.make("LunarLander-v3", render_mode="rgb_array"), render=True
    )
    print(f"LunarLander-v3: observation {np.shape(obs)}, frame {frame.shape}")

    pong = FrameStackObservation(AtariPreprocessing(vecgym.make("ALE/Pong-v5", frameskip=1)), 4)
    obs, _ = _step_and_render(pong, render=False)
    if np.shape(obs) != (4, 84, 84):
        raise SystemExit(f"extras check: Pong's stacked frames have the shape {np.shape(obs)}")
    print(f"ALE/Pong-v5 + AtariPreprocessing + FrameStackObservation(4): observation {obs.shape}")

    envs = vecgym.make_vec("HalfCheetah-v5", num_envs=2, vectorization_mode="async")
    try:
        envs.reset(seed=0)
        envs.action_space.seed(0)
        observations = envs.step(envs.action_space.sample())[0]
    finally:
        envs.close()
    print(f"HalfCheetah-v5 in an AsyncVectorEnv: observations {observations.shape}")

    _step_and_render(vecgym.make("CartPole-v1", render_mode="human"), render=False)
    print("CartPole-v1 with render_mode='human': a window on SDL's dummy driver")
    _, frame = _step_and_render(gymnasium.make("CartPole-v1", render_mode="rgb_array"), render=True)
    print(f"Gymnasium's CartPole-v1 drawn with pygame: frame {frame.shape}")
    print("ok")


if __name__ == "__main__":
    sys.exit(main())
