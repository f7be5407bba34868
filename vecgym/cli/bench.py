"""``vecgym bench``: env steps per second of every runtime on this machine, against the bound.

For each ``num_envs`` of the sweep (and each worker count, for runtimes with workers) one vector
env is built, warmed up and timed (see :mod:`vecgym.cli.measure` for the counting rules), then
closed. The *physical bound* of a row is the single-env step rate (one env stepped in a plain
loop) times the cores the row can use, ``min(num_envs, usable cores)``: a process-based runtime
cannot beat it, so the percentage says how much the runtime's own overhead costs. A numpy-
vectorised env (``vector``) steps every env in one call and can go past 100%.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import IO, Any, TextIO

import numpy as np

from vecgym.cli import output
from vecgym.cli.measure import (
    Stepper,
    measure_single_env,
    measure_stepper,
    observation_shape,
    usable_cores,
)
from vecgym.cli.runtimes import (
    BenchTarget,
    Runtime,
    Unavailable,
    compare_runtimes,
    parent_share,
    vecgym_runtimes,
)

__all__ = ["BenchResult", "add_arguments", "other_workload_note", "plot_report", "run", "run_bench"]

DEFAULT_ENV_ID = "CartPole-v1"
DEFAULT_NUM_ENVS = (1, 4, 16, 64, 256)
SINGLE_REPEATS = 3
"""The single-env rate is the best of this many runs (the bound is an upper estimate)."""
DEFAULT_SECONDS = 1.5
DEFAULT_MAX_PROCESSES = 64
PLOT_EXTRA_MSG = (
    '--plot needs matplotlib, which is not installed: pip install "vecgym[plot]" '
    "(the table was printed; no plot written)"
)
PROCESS_CAP_MSG = "one process per env: skipped above --max-processes {cap} envs"
CAPTION = (
    "bound = single-env rate ({single:,.0f} steps/s, one env in a plain loop) x min(num_envs, "
    "{cores} usable cores)\n'vector' steps all envs in one call of the env's own vector "
    "implementation (numpy for vecgym's envs), so it can pass 100%; "
    "'async+parent (N envs)': the parent steps N envs itself beside the workers (no crash "
    "isolation for those); 'send-recv' and 'envpool-async' (--compare) keep every env in "
    "flight and receive batches of half of them; 'pufferlib-mp' (--compare): PufferLib's main "
    "process and workers spin while they wait, so with a worker on every core they compete "
    "for the cores; x sync = steps/s / vecgym sync's at the same num_envs"
)
OTHER_WORKLOAD_MSG = (
    "{runtimes}: another workload, not comparable with the other rows: one env's observation "
    "has shape {shapes} there, {single} in the single env (EnvPool's Atari envs and ALE's "
    "vector env, for one, preprocess their frames: 84x84 grey, a stack of 4)"
)


@dataclass(frozen=True)
class BenchResult:
    """One measured row of the sweep.

    Attributes:
        runtime: the runtime's label (``"sync"``, ``"async"``, ``"vector"``, a peer's name).
        num_envs: sub-environments in the vector env.
        num_workers: worker processes (``None`` where the runtime has none).
        steps_per_s: real env steps per second.
        env_steps: env steps counted while the clock ran.
        elapsed_s: seconds the timed part took.
        bound_steps_per_s: the physical bound for this row.
        pct_of_bound: ``100 * steps_per_s / bound_steps_per_s``.
        parent_envs: envs the parent stepped itself (``async+parent``; 0 elsewhere).
        observation_shape: one env's observation shape in this runtime, where it says (a
            different shape than the single env's means another workload).
    """

    runtime: str
    num_envs: int
    num_workers: int | None
    steps_per_s: float
    env_steps: int
    elapsed_s: float
    bound_steps_per_s: float
    pct_of_bound: float
    parent_envs: int = 0
    observation_shape: list[int] | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``bench`` subcommand's options."""
    from vecgym.cli import args as cli_args

    cli_args.add_env_id(parser, f"env id (default {DEFAULT_ENV_ID})")
    parser.set_defaults(default_env_id=DEFAULT_ENV_ID)
    cli_args.add_env_kwargs(parser)
    cli_args.add_int_values(
        parser,
        "--num-envs",
        list(DEFAULT_NUM_ENVS),
        "N",
        "num_envs values of the sweep (default: %(default)s)",
    )
    cli_args.add_workers(parser, "for async runtimes (default: 1 and the usable cores)")
    cli_args.add_seconds(parser, DEFAULT_SECONDS)
    cli_args.add_autoreset_mode(parser)
    parser.add_argument(
        "--repeats",
        type=cli_args.positive_int,
        default=1,
        metavar="R",
        help="timed runs per measurement, best kept (steadier on a busy machine; default 1)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also measure vecgym's send/recv collection and, where installed, Gymnasium, "
        "Stable-Baselines3, PufferLib and EnvPool",
    )
    parser.add_argument(
        "--max-processes",
        type=cli_args.positive_int,
        default=DEFAULT_MAX_PROCESSES,
        metavar="N",
        help="largest num_envs for peers that start one process per env (default %(default)s)",
    )
    cli_args.add_json(parser, "the results")
    parser.add_argument(
        "--plot", metavar="FILE", help='draw the scaling curves as a PNG (needs "vecgym[plot]")'
    )


def machine_info() -> dict[str, Any]:
    """What the figures were measured on."""
    import vecgym

    info: dict[str, Any] = {
        "usable_cores": usable_cores(),
        "logical_cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "vecgym": vecgym.__version__,
        "platform": platform.platform(),
    }
    if hasattr(os, "getloadavg"):
        info["load_average_start"] = list(os.getloadavg())
    return info


def _plan(
    runtimes: Sequence[Runtime], num_envs: Sequence[int], workers: Sequence[int]
) -> list[tuple[Runtime, int, int | None]]:
    """Every (runtime, num_envs, num_workers) to measure, sweep order: num_envs outermost."""
    cases: list[tuple[Runtime, int, int | None]] = []
    for n in sorted(set(num_envs)):
        for runtime in runtimes:
            if runtime.parent_steps:  # one worker fewer: the parent is one more stepper
                if n >= 2:
                    for w in sorted({max(1, min(w, n - 1) - 1) for w in workers}):
                        cases.append((runtime, n, w))
            elif runtime.uses_workers:
                for w in sorted({min(w, n) for w in workers}):
                    cases.append((runtime, n, w))
            else:
                cases.append((runtime, n, None))
    return cases


def _single_env_rate(target: BenchTarget, seconds: float) -> tuple[float, list[int] | None]:
    """One env in a plain loop: the best of :data:`SINGLE_REPEATS` runs of ``seconds / 2``, and
    its observation shape."""
    import vecgym

    env = vecgym.make(target.env_id, **target.env_kwargs)
    try:
        env.action_space.seed(target.seed)
        actions = [env.action_space.sample() for _ in range(4096)]
        rate = max(
            measure_single_env(env, actions, seconds / 2, seed=target.seed).steps_per_s
            for _ in range(SINGLE_REPEATS)
        )
        return rate, _as_list(observation_shape(env.observation_space))
    finally:
        env.close()


def _as_list(shape: tuple[int, ...] | None) -> list[int] | None:
    return None if shape is None else list(shape)


def _measure(
    runtime: Runtime, target: BenchTarget, n: int, w: int | None, seconds: float, repeats: int
) -> tuple[float, int, float, list[int] | None]:
    """The best of ``repeats`` timed runs on one built env (each reset and warmed up), and the
    runtime's observation shape."""
    stepper: Stepper
    stepper, actions = runtime.build(target, n, w)
    try:
        runs = [
            measure_stepper(stepper, actions, seconds, seed=target.seed) for _ in range(repeats)
        ]
    finally:
        stepper.close()
    m = max(runs, key=lambda run: run.steps_per_s)
    return m.steps_per_s, m.env_steps, m.elapsed_s, _as_list(stepper.observation_shape)


def _label(runtime: str, n: int, w: int | None) -> str:
    return f"{runtime} num_envs={n}" + ("" if w is None else f" workers={w}")


def run_bench(
    target: BenchTarget,
    num_envs: Sequence[int],
    workers: Sequence[int] | None,
    seconds: float,
    compare: bool = False,
    max_processes: int = DEFAULT_MAX_PROCESSES,
    repeats: int = 1,
) -> dict[str, Any]:
    """Measure the sweep; return the report (JSON-able), showing progress on stderr.

    Args:
        target: env id, kwargs, autoreset mode and seed.
        num_envs: the sweep's ``num_envs`` values.
        workers: ``num_workers`` values for runtimes with workers (``None``: 1 and the usable
            cores; values above ``num_envs`` are capped to it).
        seconds: timed seconds per measurement (plus a warm-up of a fifth of it).
        compare: add vecgym's ``send-recv`` and the installed peers (Gymnasium, SB3, PufferLib,
            EnvPool).
        max_processes: peers with one process per env skip larger ``num_envs``.
        repeats: timed runs per measurement; the best is kept (steadier on a busy machine).
    """
    workers = sorted({1, usable_cores()}) if workers is None else list(workers)
    runtimes = vecgym_runtimes() + (compare_runtimes() if compare else [])
    cases = _plan(runtimes, num_envs, workers)
    done = _Sweep()
    started = time.perf_counter()
    info = machine_info()
    interrupted = False
    try:
        with output.Progress(len(cases) + 1, f"bench {target.env_id}") as progress:
            _sweep(target, cases, seconds, max_processes, repeats, progress, done)
    except KeyboardInterrupt:  # Ctrl-C: keep what was measured
        interrupted = True
    if hasattr(os, "getloadavg"):
        info["load_average_end"] = list(os.getloadavg())
    return {
        "schema_version": output.SCHEMA_VERSION,
        "command": "bench",
        "interrupted": interrupted,
        "env_id": target.env_id,
        "env_kwargs": target.env_kwargs,
        "autoreset_mode": target.autoreset_mode,
        "seconds_per_measurement": seconds,
        "repeats": repeats,
        "single_env_steps_per_s": done.single,
        "single_env_observation_shape": done.single_shape,
        "machine": info,
        "wall_time_s": time.perf_counter() - started,
        "results": [asdict(r) for r in done.results],
        "skipped": [{"runtime": name, "reason": reason} for name, reason in done.skipped.items()],
    }


@dataclass
class _Sweep:
    """What a sweep has measured so far (kept when it is interrupted)."""

    single: float | None = None
    single_shape: list[int] | None = None
    results: list[BenchResult] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)


def _sweep(
    target: BenchTarget,
    cases: list[tuple[Runtime, int, int | None]],
    seconds: float,
    max_processes: int,
    repeats: int,
    progress: output.Progress,
    done: _Sweep,
) -> None:
    """Measure the single env, then each case, recording each result in ``done`` as it comes."""
    cores = usable_cores()
    progress.start("single env")
    single, done.single_shape = _single_env_rate(target, seconds)
    done.single = single
    progress.advance(f"single env: {single:,.0f} steps/s")
    for runtime, n, w in cases:
        label = _label(runtime.name, n, w)
        progress.start(label)
        if runtime.name in done.skipped:
            progress.advance(f"{label}: skipped")
            continue
        if runtime.process_per_env and n > max_processes:
            progress.advance(f"{label}: skipped ({PROCESS_CAP_MSG.format(cap=max_processes)})")
            done.skipped.setdefault(
                f"{runtime.name} num_envs>{max_processes}",
                PROCESS_CAP_MSG.format(cap=max_processes),
            )
            continue
        try:
            rate, steps, elapsed, shape = _measure(runtime, target, n, w, seconds, repeats)
        except Unavailable as exc:
            done.skipped[runtime.name] = str(exc)
            progress.advance(f"{label}: skipped ({exc})")
            continue
        bound = single * min(n, cores)
        parent = parent_share(n, w or 1) if runtime.parent_steps else 0
        done.results.append(
            BenchResult(
                runtime.name, n, w, rate, steps, elapsed, bound, 100 * rate / bound, parent, shape
            )
        )
        progress.advance(f"{label}: {rate:,.0f} steps/s")


def report_table(report: dict[str, Any]) -> output.Table:
    """The results as a table: one row per measurement, grouped by ``num_envs``."""
    machine = report["machine"]
    table = output.Table(
        f"{report['env_id']}: env steps/s ({report['autoreset_mode']} autoreset, "
        f"{report['seconds_per_measurement']:g} s per measurement)",
        ["num_envs", "runtime", "workers", "steps/s", "bound", "% of bound", "x sync"],
        left=(1,),
        caption=CAPTION.format(
            single=report["single_env_steps_per_s"] or 0.0, cores=machine["usable_cores"]
        ),
    )
    sync_rate = {
        r["num_envs"]: r["steps_per_s"] for r in report["results"] if r["runtime"] == "sync"
    }
    for r in report["results"]:
        base = sync_rate.get(r["num_envs"])
        table.add_row(
            str(r["num_envs"]),
            r["runtime"] + (f" ({r['parent_envs']} envs)" if r.get("parent_envs") else ""),
            "-" if r["num_workers"] is None else str(r["num_workers"]),
            f"{r['steps_per_s']:,.0f}",
            f"{r['bound_steps_per_s']:,.0f}",
            f"{r['pct_of_bound']:.0f}%",
            f"{r['steps_per_s'] / base:.2f}x" if base else "-",
        )
    return table


def plot_report(report: dict[str, Any], path: str | IO[bytes]) -> None:
    """Draw steps/s against num_envs, one line per runtime (and worker count), plus the bound.

    Raises:
        ImportError: matplotlib is not installed.
    """
    from matplotlib.figure import Figure  # the object API: no pyplot, no global backend state

    series: dict[str, list[tuple[int, float]]] = {}
    for r in report["results"]:
        name = (
            r["runtime"] if r["num_workers"] is None else f"{r['runtime']} (w={r['num_workers']})"
        )
        series.setdefault(name, []).append((r["num_envs"], r["steps_per_s"]))
    fig = Figure(figsize=(8, 5), layout="constrained")
    ax = fig.add_subplot()
    for name, points in series.items():
        xs, ys = zip(*sorted(points), strict=True)
        ax.plot(xs, ys, marker="o", label=name)
    sizes = sorted({r["num_envs"] for r in report["results"]})
    if sizes:
        cores = report["machine"]["usable_cores"]
        single = report["single_env_steps_per_s"]
        ax.plot(
            sizes,
            [single * min(n, cores) for n in sizes],
            "k--",
            label=f"physical bound (single env x min(n, {cores} cores))",
        )
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("num_envs")
    ax.set_ylabel("env steps / s")
    ax.set_title(f"vecgym bench {report['env_id']} ({report['machine']['usable_cores']} cores)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.savefig(path, dpi=120, format="png")


def _plot_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def run(args: argparse.Namespace) -> int:
    """Run ``vecgym bench`` with parsed arguments; return the exit code.

    Everything that can be refused is checked before the sweep: the env id, the env kwargs
    (the env is built once), the ``--json`` and ``--plot`` files (opened for writing). Ctrl-C
    during the sweep keeps what was measured: it is printed and written, and the exit code is
    130.
    """
    from vecgym.cli import args as cli_args

    target = BenchTarget(args.env_id, args.env_kwargs, args.autoreset_mode)
    cli_args.require_env(target.env_id)
    cli_args.require_buildable(target.env_id, target.env_kwargs)
    want_plot = args.plot is not None
    can_plot = want_plot and _plot_available()
    if want_plot and not can_plot:
        output.note(f"note: {PLOT_EXTRA_MSG.split(' (')[0]}; the table will still be printed")
    plot_path = args.plot if can_plot else None
    with (
        cli_args.output_file(args.json, "--json") as json_out,
        cli_args.output_file(plot_path, "--plot", binary=True) as plot_out,
    ):
        report = run_bench(
            target,
            args.num_envs,
            args.workers,
            args.seconds,
            args.compare,
            args.max_processes,
            args.repeats,
        )
        _print_report(report, sys.stderr if json_out is sys.stdout else sys.stdout)
        if json_out is not None:
            output.write_json(report, json_out)
            if json_out is not sys.stdout:
                output.note(f"results written to {args.json}")
        if plot_out is not None:
            plot_report(report, plot_out)
            output.note(f"plot written to {args.plot}")
    if report["interrupted"]:
        output.note(cli_args.INTERRUPTED_MSG)
        return cli_args.EXIT_INTERRUPTED
    if want_plot and not can_plot:
        import vecgym.error

        output.note(f"error: {vecgym.error.DependencyNotInstalled(PLOT_EXTRA_MSG)}")
        return cli_args.EXIT_USAGE
    return 0


def other_workload_note(report: dict[str, Any]) -> str | None:
    """A note naming the runtimes whose observation shape differs from the single env's (they
    run another workload), or ``None`` when every runtime that says runs the same shape."""
    single = report.get("single_env_observation_shape")
    if single is None:
        return None
    others: dict[str, list[int]] = {}
    for r in report["results"]:
        shape = r.get("observation_shape")
        if shape is not None and shape != single:
            others.setdefault(r["runtime"], shape)
    if not others:
        return None
    shapes = sorted({tuple(shape) for shape in others.values()})
    return OTHER_WORKLOAD_MSG.format(
        runtimes=", ".join(others),
        shapes=" / ".join(str(shape) for shape in shapes),
        single=tuple(single),
    )


def _print_report(report: dict[str, Any], stream: TextIO) -> None:
    """The table, the skipped runtimes and the machine's load."""
    output.print_table(report_table(report), stream)
    other = other_workload_note(report)
    if other is not None:
        output.note(other)
    for skip in report["skipped"]:
        output.note(f"skipped {skip['runtime']}: {skip['reason']}")
    machine = report["machine"]
    if "load_average_start" in machine:
        output.note(
            f"machine: {machine['usable_cores']} usable cores; load average "
            f"{machine['load_average_start'][0]:.2f} at start, "
            f"{machine['load_average_end'][0]:.2f} at end; wall time {report['wall_time_s']:.1f} s"
        )
