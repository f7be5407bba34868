"""HalfCheetah-v5 side by side: single env, vecgym Sync / Async, Gymnasium Sync / Async, EnvPool.

Usage::

    python benchmarks/bench_mujoco.py [--num-envs 16 64] [--seconds 3] [--json out.json]

HalfCheetah returns 4 numeric info keys on every step (``x_position``, ``x_velocity``,
``reward_forward``, ``reward_ctrl``). The envs are ``gymnasium.make("HalfCheetah-v5")``; EnvPool
runs its own ``HalfCheetah-v5`` with ``num_threads`` = the usable cores (``step``, and
``send`` / ``recv`` of half the envs). See ``real_envs.py`` for the counting rules.
"""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import real_envs

from vecgym.cli.measure import usable_cores

ENV_ID = "HalfCheetah-v5"


def make_env() -> Any:
    """One HalfCheetah-v5, as ``gymnasium.make`` builds it."""
    import gymnasium

    return gymnasium.make(ENV_ID)


def make_envpool(num_envs: int, batch_size: int) -> Any:
    """EnvPool's HalfCheetah-v5 with one thread per usable core."""
    import envpool

    return envpool.make_gymnasium(
        ENV_ID, num_envs=num_envs, batch_size=batch_size, num_threads=usable_cores(), seed=0
    )


def main() -> None:
    real_envs.main(__doc__.splitlines()[0], ENV_ID, make_env, make_envpool, 16)


if __name__ == "__main__":
    main()
