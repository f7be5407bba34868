"""ALE Pong with the standard preprocessing side by side: single env, vecgym Sync / Async,
Gymnasium Sync / Async, EnvPool.

Usage::

    python benchmarks/bench_atari.py [--num-envs 8 16] [--seconds 3] [--json out.json]
                                     [--vecgym-wrappers]

The envs are ``gymnasium.make("ALE/Pong-v5", frameskip=1)`` wrapped in ``AtariPreprocessing``
(no-op starts up to 30, frame skip 4, 84x84 grey) and ``FrameStackObservation(4)``: 4x84x84
uint8 observations, infos ``lives`` / ``episode_frame_number`` / ``frame_number`` on every step.
EnvPool runs its ``Pong-v5``, which does the same preprocessing in C++ (set to match: sticky
actions 0.25, no fire reset, 27,000 agent steps at most), with ``num_threads`` = the usable cores.

With ``--vecgym-wrappers`` vecgym's runtimes (and the single env that sets the bound) run the same
workload as an ``import vecgym as gym`` user builds it: ``vecgym.make`` and vecgym's
``AtariPreprocessing`` and ``FrameStackObservation``, whose observations are Gymnasium's; the
Gymnasium rows keep Gymnasium's wrappers (its vector envs need its spaces).
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import real_envs

from vecgym.cli.measure import usable_cores


def _pong(library: Any) -> Any:
    """Pong-v5 with ``library``'s ``make``, ``AtariPreprocessing`` and ``FrameStackObservation``
    (``library``: ``gymnasium`` or ``vecgym``)."""
    import ale_py
    import gymnasium

    gymnasium.register_envs(ale_py)
    env = library.make("ALE/Pong-v5", frameskip=1)
    return library.wrappers.FrameStackObservation(library.wrappers.AtariPreprocessing(env), 4)


def make_env() -> Any:
    """Pong-v5 with AtariPreprocessing and a stack of 4 frames (Gymnasium)."""
    import gymnasium

    return _pong(gymnasium)


def make_vecgym_env() -> Any:
    """The same workload from ``vecgym.make`` and vecgym's wrappers."""
    import vecgym

    return _pong(vecgym)


def make_envpool(num_envs: int, batch_size: int) -> Any:
    """EnvPool's Pong-v5, preprocessing as ``make_env``'s."""
    import envpool

    return envpool.make_gymnasium(
        "Pong-v5",
        num_envs=num_envs,
        batch_size=batch_size,
        num_threads=usable_cores(),
        seed=0,
        repeat_action_probability=0.25,
        use_fire_reset=False,
    )


def main() -> None:
    real_envs.main(
        __doc__.splitlines()[0],
        "ALE/Pong-v5 + AtariPreprocessing + FrameStackObservation(4)",
        make_env,
        make_envpool,
        8,
        make_vecgym_env,
    )


if __name__ == "__main__":
    main()
