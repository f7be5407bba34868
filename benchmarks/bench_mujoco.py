"""HalfCheetah-v5 side by side: single env, vecgym Sync / Async, Gymnasium Sync / Async, EnvPool.

Usage::

    python benchmarks/bench_mujoco.py [--num-envs 16 64] [--seconds 3] [--json out.json]

HalfCheetah returns 4 numeric info keys on every step (``x_position``, ``x_velocity``,
``reward_forward``, ``reward_ctrl``). The envs are ``gymnasium.make("HalfCheetah-v5")``; EnvPool
runs its own ``HalfCheetah-v5`` with ``num_threads`` = the usable cores (``step``, and
``send`` / ``recv`` of half the envs). See ``real_envs.py`` for the counting rules.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from real_envs import run

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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, nargs="+", default=[16])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    try:
        import envpool  # noqa: F401

        envpool_make = make_envpool
    except ImportError:
        print("EnvPool is not installed (pip install envpool): its rows are skipped")
        envpool_make = None  # type: ignore[assignment]
    run(
        f"{ENV_ID}",
        make_env,
        envpool_make,
        args.num_envs,
        args.seconds,
        args.json,
    )


if __name__ == "__main__":
    main()
