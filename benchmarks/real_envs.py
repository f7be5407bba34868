"""Side-by-side runs on real environments, shared by ``bench_mujoco.py`` and ``bench_atari.py``.

Every runtime gets the same env functions (``gymnasium.make`` plus the workload's wrappers), as a
user would pass them, except EnvPool, which builds its own env (its C++ version of the same
workload) and PufferLib, whose vector envs take the same env functions, each in its
``GymnasiumPufferEnv``. Actions are generated before timing; steps are timed and counted by
:mod:`vecgym.cli.measure` (a warm-up first; a NEXT_STEP reset step is not an env step, in
``send`` / ``recv`` batches too: vecgym's are counted by env id, EnvPool's by ``elapsed_step``).
The bound is the single-env rate (one env from the same functions, stepped in a plain loop)
times the usable cores; per-core figures divide a rate by the cores it could use: 1 for a Sync
runtime, else ``min(num_envs, cores)``. ``vecgym Async+parent`` is
``AsyncVectorEnv(parent_envs=...)`` with one worker fewer than the cores and the parent stepping
an equal share of the envs; ``vecgym Async send/recv`` collects EnvPool-style
(:data:`POOL_RUNTIME`), as ``EnvPool async`` does. PufferLib's ``Multiprocessing`` runs with one
worker per core and with one fewer (its main process spins while it waits, so the first layout
leaves its workers less than a core each); ``PufferLib Serial`` steps every env in one process.
EnvPool's and PufferLib's rows are skipped, with a note, where the library is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable
from typing import Any

from vecgym.cli.measure import (
    Stepper,
    measure_single_env,
    measure_stepper,
    pool_stepper,
    usable_cores,
)
from vecgym.cli.runtimes import (
    BenchTarget,
    envpool_stepper,
    parent_share,
    puffer_stepper,
    vector_stepper,
)

Row = dict[str, Any]
#: The runtimes that step every env in one thread: their per-core figure is over one core.
ONE_CORE_RUNTIMES = frozenset({"vecgym Sync", "Gymnasium Sync", "PufferLib Serial"})
GYMNASIUM_SINGLE = "single env (Gymnasium's wrappers)"
POOL_RUNTIME = "vecgym Async send/recv"
"""``AsyncVectorEnv(batch_size=num_envs // 2)`` collecting EnvPool-style: ``send`` the envs of the
last batch, ``recv`` the next half (a worker's envs): a slow env step no longer holds the others."""


def _single(make: Callable[[], Any], seconds: float) -> float:
    env = make()
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(512)]
    try:
        return measure_single_env(env, actions, seconds).steps_per_s
    finally:
        env.close()


def _runtimes(
    make: Callable[[], Any],
    num_envs: int,
    envpool_make: Callable[[int, int], Any] | None,
    make_ours: Callable[[], Any],
    puffer: bool = False,
) -> list[tuple[str, Callable[[], tuple[Stepper, list[Any]]]]]:
    import gymnasium

    from vecgym.vector import AsyncVectorEnv, SyncVectorEnv

    fns = [make_ours] * num_envs  # vecgym's runtimes
    theirs = [make] * num_envs  # Gymnasium's
    target = BenchTarget("bench")
    workers = max(1, usable_cores() - 1)  # beside the parent: AsyncVectorEnv's default then
    runtimes: list[tuple[str, Callable[[], tuple[Stepper, list[Any]]]]] = [
        ("vecgym Sync", lambda: vector_stepper(SyncVectorEnv(fns), target)),
        ("vecgym Async", lambda: vector_stepper(AsyncVectorEnv(fns, copy=False), target)),
        (
            "vecgym Async+parent",
            lambda: vector_stepper(
                AsyncVectorEnv(fns, copy=False, parent_envs=parent_share(num_envs, workers)),
                target,
            ),
        ),
        ("Gymnasium Sync", lambda: vector_stepper(gymnasium.vector.SyncVectorEnv(theirs), target)),
        (
            "Gymnasium Async",
            lambda: vector_stepper(gymnasium.vector.AsyncVectorEnv(theirs, copy=False), target),
        ),
    ]
    half = max(1, num_envs // 2)

    def pooled() -> tuple[Stepper, list[Any]]:
        # send/recv, a worker's half of the envs per batch
        envs = AsyncVectorEnv(fns, copy=False, batch_size=half)
        envs.action_space.seed(0)
        return pool_stepper(envs), [envs.action_space.sample() for _ in range(64)]

    runtimes.append((POOL_RUNTIME, pooled))
    if envpool_make is not None:
        runtimes.append(
            ("EnvPool sync", lambda: envpool_stepper(envpool_make(num_envs, num_envs), 0))
        )
        runtimes.append(("EnvPool async", lambda: envpool_stepper(envpool_make(num_envs, half), 0)))
    if puffer:
        runtimes.append(
            ("PufferLib Serial", lambda: puffer_stepper(make, "Serial", num_envs, None, 0))
        )
        for count in sorted({workers, usable_cores()}):

            def multiprocessing(count: int = count) -> tuple[Stepper, list[Any]]:
                return puffer_stepper(make, "Multiprocessing", num_envs, count, 0)

            plural = "s" if count > 1 else ""
            runtimes.append(
                (f"PufferLib Multiprocessing ({count} worker{plural})", multiprocessing)
            )
    return runtimes


def run(
    title: str,
    make: Callable[[], Any],
    envpool_make: Callable[[int, int], Any] | None,
    num_envs_list: list[int],
    seconds: float,
    json_path: str | None,
    make_ours: Callable[[], Any] | None = None,
    puffer: bool = False,
) -> list[Row]:
    """Measure every runtime at each ``num_envs`` and print a markdown table.

    Args:
        title: the workload's name.
        make: a picklable function building one env (Gymnasium).
        envpool_make: ``envpool_make(num_envs, batch_size)`` builds EnvPool's version, or ``None``.
        num_envs_list: the vector sizes.
        seconds: timed seconds per measurement.
        json_path: where to write the rows as JSON, or ``None``.
        make_ours: the env function of vecgym's runtimes and of the single env (the bound), when
            they run the workload built from vecgym's own wrappers (Gymnasium's runtimes keep
            ``make``, whose single-env rate is then a row of its own); ``None``: ``make``.
        puffer: add PufferLib's rows (``Serial`` and ``Multiprocessing``, over ``make``).
    """
    cores = usable_cores()
    load_start = os.getloadavg()
    started = time.time()
    ours = make_ours or make
    single = _single(ours, seconds)
    rows: list[Row] = [{"num_envs": 1, "runtime": "single env", "steps_per_s": single, "cores": 1}]
    if make_ours is not None:
        rate = _single(make, seconds)
        rows.append({"num_envs": 1, "runtime": GYMNASIUM_SINGLE, "steps_per_s": rate, "cores": 1})
    for num_envs in num_envs_list:
        for name, build in _runtimes(make, num_envs, envpool_make, ours, puffer):
            stepper, actions = build()
            try:
                rate = measure_stepper(stepper, actions, seconds).steps_per_s
            finally:
                stepper.close()
            rows.append(
                {
                    "num_envs": num_envs,
                    "runtime": name,
                    "steps_per_s": rate,
                    # a Sync runtime steps everything in one process: one core
                    "cores": 1 if name in ONE_CORE_RUNTIMES else min(num_envs, cores),
                }
            )
    load_end = os.getloadavg()
    by_key = {(row["num_envs"], row["runtime"]): row["steps_per_s"] for row in rows}
    bound = single * cores
    print(f"## {title}\n")
    print(
        f"{platform.node()}: {cores} usable cores, {platform.processor() or platform.machine()}; "
        f"load average {load_start[0]:.2f} at start, {load_end[0]:.2f} at end; "
        f"{time.time() - started:.0f} s; {seconds} s per measurement\n"
    )
    print(
        "| num_envs | runtime | steps/s | per core | % of bound | x Gymnasium Sync "
        "| x EnvPool sync |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|")
    for row in rows:
        n, rate = row["num_envs"], row["steps_per_s"]
        gym_sync = by_key.get((n, "Gymnasium Sync"))
        envpool_sync = by_key.get((n, "EnvPool sync"))
        ratio = f"{rate / gym_sync:.2f}x" if gym_sync else "-"
        ep_ratio = f"{rate / envpool_sync:.2f}x" if envpool_sync else "-"
        share = "-" if n == 1 else f"{100 * rate / bound:.0f}%"
        print(
            f"| {n} | {row['runtime']} | {rate:,.0f} | {rate / row['cores']:,.0f} | {share} "
            f"| {ratio} | {ep_ratio} |"
        )
    print(f"\nbound = single-env rate {single:,.0f} x {cores} cores = {bound:,.0f} steps/s")
    if json_path:
        with open(json_path, "w") as handle:
            json.dump(
                {"title": title, "cores": cores, "load": [load_start, load_end], "rows": rows},
                handle,
                indent=1,
            )
    return rows


def main(
    description: str,
    title: str,
    make: Callable[[], Any],
    envpool_make: Callable[[int, int], Any],
    default_num_envs: int,
    make_ours: Callable[[], Any] | None = None,
) -> None:
    """The command line of a benchmark script: parse ``--num-envs`` / ``--seconds`` / ``--json``
    (and ``--vecgym-wrappers`` where the script has ``make_ours``: vecgym's runtimes then run
    the workload built from vecgym's wrappers) and :func:`run` (EnvPool's and PufferLib's rows
    are skipped, with a note, when the library is not installed)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--num-envs", type=int, nargs="+", default=[default_num_envs])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", default=None)
    if make_ours is not None:
        parser.add_argument(
            "--vecgym-wrappers",
            action="store_true",
            help="vecgym's runtimes and the single env run vecgym.make and vecgym's wrappers",
        )
    args = parser.parse_args()
    ours = make_ours if getattr(args, "vecgym_wrappers", False) else None
    try:
        import envpool  # noqa: F401

        maybe_envpool: Callable[[int, int], Any] | None = envpool_make
    except ImportError:
        print("EnvPool is not installed (pip install envpool): its rows are skipped")
        maybe_envpool = None
    try:
        import pufferlib.vector  # noqa: F401

        puffer = True
    except ImportError:
        print("PufferLib is not installed (pip install pufferlib): its rows are skipped")
        puffer = False
    if ours is not None:
        title += " (vecgym's wrappers for vecgym's runtimes)"
    run(title, make, maybe_envpool, args.num_envs, args.seconds, args.json, ours, puffer)
