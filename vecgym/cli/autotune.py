"""``vecgym autotune``: the fastest ``AsyncVectorEnv`` layout for an env on this machine.

Measures a small grid — ``num_workers`` x envs per worker x ``batch_size``, each layout also with
the parent stepping a share of the envs itself (``parent_envs``, one more stepper beside the
workers) — with EnvPool-style collection (``send`` the envs of the last batch, ``recv`` the next
``batch_size``; see :func:`vecgym.cli.measure.measure_pool`), then prints the fastest as code to
paste. Because a worker reports its envs when its whole slice finished, the natural batch sizes
are whole workers' worth of envs: all of them (plain ``step`` throughput) and about half of them
(the policy computes on one half while the other half steps). Where the env has a numpy-vectorised
version (``vector_entry_point``) and it is faster still, that is said too, with its code.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, TextIO

from vecgym.cli import output
from vecgym.cli.measure import measure_pool, measure_single_env, usable_cores

__all__ = ["Candidate", "add_arguments", "async_snippet", "grid", "run", "vector_snippet"]

DEFAULT_SECONDS = 0.5
DEFAULT_ENVS_PER_WORKER = (1, 8, 32)
CODE_HEADER = "Code to use:"
"""The line after which ``vecgym autotune`` prints only Python code."""
ACTION_BATCHES = 64
PARENT_SHARES = (1.0, 0.75, 0.5)
"""The parent's share of the envs tried, relative to an equal share among the steppers."""


@dataclass(frozen=True)
class Candidate:
    """One layout of the grid.

    Attributes:
        num_workers: worker processes.
        num_envs: sub-environments in all.
        batch_size: envs returned by each ``recv``.
        parent_envs: envs the parent steps itself (``AsyncVectorEnv(parent_envs=...)``).
    """

    num_workers: int
    num_envs: int
    batch_size: int
    parent_envs: int = 0

    @property
    def envs_per_worker(self) -> int:
        """Envs in the largest worker slice."""
        return math.ceil((self.num_envs - self.parent_envs) / self.num_workers)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``autotune`` subcommand's options."""
    from vecgym.cli import args as cli_args

    cli_args.add_env_id(parser, "env id to tune for")
    cli_args.add_env_kwargs(parser)
    parser.add_argument(
        "--num-envs",
        type=cli_args.positive_int,
        default=None,
        metavar="N",
        help="keep num_envs fixed at N (your training's batch) and tune only workers and "
        "batch_size; default: also try envs per worker in --envs-per-worker",
    )
    cli_args.add_int_values(
        parser,
        "--envs-per-worker",
        list(DEFAULT_ENVS_PER_WORKER),
        "E",
        "envs per worker to try when --num-envs is not given (default %(default)s)",
    )
    cli_args.add_workers(parser, "to try (default: 1 to the usable cores)")
    cli_args.add_seconds(parser, DEFAULT_SECONDS)
    cli_args.add_json(parser, "the measurements and the code")


def grid(
    workers: Sequence[int], envs_per_worker: Sequence[int], num_envs: int | None
) -> list[Candidate]:
    """The layouts to measure: per worker count, each size, with full and about half batches;
    each once with the workers alone and then with the parent as one more stepper (where there
    are at least two envs), taking an equal share of the envs, or 3/4 or 1/2 of that share (the
    parent also does the batch's own work, so a fast env wants fewer envs there)."""
    found: dict[tuple[int, int, int, int], Candidate] = {}
    for w in sorted(set(workers)):
        sizes = (
            [num_envs] if num_envs is not None else [w * e for e in sorted(set(envs_per_worker))]
        )
        for n in sizes:
            w_eff = min(w, n)
            per_worker = math.ceil(n / w_eff)
            half = min(n, per_worker * math.ceil(w_eff / 2))
            for batch in sorted({n, half}, reverse=True):
                found.setdefault((w_eff, n, batch, 0), Candidate(w_eff, n, batch))
            if n < 2:
                continue
            equal = n / (min(w, n - 1) + 1)
            for fraction in PARENT_SHARES:
                parent = max(1, round(equal * fraction))
                w_rest = min(w, n - parent)
                # a half batch only for the equal share: the envs of the workers
                batches = {n, n - parent} if fraction == 1.0 else {n}
                for batch in sorted(batches, reverse=True):
                    key = (w_rest, n, batch, parent)
                    found.setdefault(key, Candidate(w_rest, n, batch, parent))
    return list(found.values())


def _dict_source(values: dict[str, Any]) -> str:
    """``values`` as a Python dict literal with double-quoted keys."""
    return "{" + ", ".join(f"{json.dumps(key)}: {value!r}" for key, value in values.items()) + "}"


def _kwargs_source(env_kwargs: dict[str, Any]) -> str:
    return f",\n    **{_dict_source(env_kwargs)}" if env_kwargs else ""


def async_snippet(env_id: str, env_kwargs: dict[str, Any], best: Candidate) -> str:
    """Python code that builds the ``best`` layout (and, for batches, how to collect)."""
    vector_kwargs: dict[str, Any] = {"num_workers": best.num_workers, "copy": False}
    if best.batch_size != best.num_envs:
        vector_kwargs["batch_size"] = best.batch_size
    if best.parent_envs:
        vector_kwargs["parent_envs"] = best.parent_envs
    lines = [
        "import vecgym",
        "",
        "# copy=False: observations are views of shared memory, overwritten by the next call",
        *(
            [
                f"# parent_envs: this process steps {best.parent_envs} of the envs itself; those "
                "lose crash isolation",
            ]
            if best.parent_envs
            else []
        ),
        "envs = vecgym.make_vec(",
        f"    {json.dumps(env_id)},",
        f"    num_envs={best.num_envs},",
        '    vectorization_mode="async",',
        f"    vector_kwargs={_dict_source(vector_kwargs)}{_kwargs_source(env_kwargs)},",
        ")",
    ]
    if best.batch_size != best.num_envs:
        lines += [
            f"# Collect EnvPool-style, {best.batch_size} envs per batch:",
            "# envs.reset(seed=0)",
            "# envs.send(first_actions)  # one action per env",
            "# while collecting:",
            "#     obs, rewards, terminations, truncations, infos, env_ids = envs.recv()",
            "#     envs.send(policy(obs), env_ids)",
        ]
    return "\n".join(lines)


def vector_snippet(
    env_id: str, env_kwargs: dict[str, Any], num_envs: int, name: str = "envs"
) -> str:
    """Python code that builds the numpy-vectorised env (``vecgym`` imported before)."""
    return "\n".join(
        [
            "# numpy-vectorised: all envs step in this process, in one call",
            f"{name} = vecgym.make_vec(",
            f"    {json.dumps(env_id)},",
            f"    num_envs={num_envs},",
            f'    vectorization_mode="vector_entry_point"{_kwargs_source(env_kwargs)},',
            ")",
        ]
    )


def _measure_async(env_id: str, env_kwargs: dict[str, Any], c: Candidate, seconds: float) -> float:
    import vecgym

    envs = vecgym.make_vec(
        env_id,
        num_envs=c.num_envs,
        vectorization_mode="async",
        vector_kwargs={
            "num_workers": c.num_workers,
            "batch_size": c.batch_size,
            "copy": False,
            "parent_envs": c.parent_envs,
        },
        **env_kwargs,
    )
    try:
        envs.action_space.seed(0)
        actions = [envs.action_space.sample() for _ in range(ACTION_BATCHES)]
        return measure_pool(envs, actions, seconds).steps_per_s
    finally:
        envs.close()


def _measure_vector(env_id: str, env_kwargs: dict[str, Any], n: int, seconds: float) -> float:
    import vecgym
    from vecgym.cli.measure import COUNT_NEXT_STEP, Stepper, measure_stepper

    envs = vecgym.make_vec(
        env_id, num_envs=n, vectorization_mode="vector_entry_point", **env_kwargs
    )
    try:
        envs.action_space.seed(0)
        actions = [envs.action_space.sample() for _ in range(ACTION_BATCHES)]

        def step(a: Any) -> Any:
            _, _, terminated, truncated, _ = envs.step(a)
            return terminated | truncated

        stepper = Stepper(n, lambda seed: envs.reset(seed=seed), step, envs.close, COUNT_NEXT_STEP)
        return measure_stepper(stepper, actions, seconds).steps_per_s
    finally:
        envs.close()


def _single_rate(env_id: str, env_kwargs: dict[str, Any], seconds: float) -> float:
    import vecgym

    env = vecgym.make(env_id, **env_kwargs)
    try:
        env.action_space.seed(0)
        actions = [env.action_space.sample() for _ in range(1024)]
        return measure_single_env(env, actions, seconds).steps_per_s
    finally:
        env.close()


def run(args: argparse.Namespace) -> int:
    """Run ``vecgym autotune`` with parsed arguments; return the exit code.

    The env id, the env kwargs (the env is built once) and the ``--json`` file are checked
    before measuring. Ctrl-C keeps what was measured: the fastest layout so far is reported,
    and the exit code is 130.
    """
    from vecgym.cli import args as cli_args

    cli_args.require_env(args.env_id)
    cli_args.require_buildable(args.env_id, args.env_kwargs)
    with cli_args.output_file(args.json, "--json") as json_out:
        return _autotune(args, json_out)


def _autotune(args: argparse.Namespace, json_out: IO[Any] | None) -> int:
    import vecgym
    from vecgym.cli import args as cli_args
    from vecgym.core.registration import vector_entry_point_of

    cores = usable_cores()
    workers = args.workers or list(range(1, cores + 1))
    candidates = grid(workers, args.envs_per_worker, args.num_envs)
    has_vector = vector_entry_point_of(vecgym.spec(args.env_id)) is not None
    sizes = sorted({c.num_envs for c in candidates})
    total = 1 + len(candidates) + (len(sizes) if has_vector else 0)
    rates: list[tuple[Candidate, float]] = []
    vector_rates: dict[int, float] = {}
    single: float | None = None
    interrupted = False
    try:
        with output.Progress(total, f"autotune {args.env_id}") as progress:
            progress.start("single env")
            single = _single_rate(args.env_id, args.env_kwargs, args.seconds)
            progress.advance(f"single env: {single:,.0f} steps/s")
            for c in candidates:
                label = (
                    f"workers={c.num_workers} parent_envs={c.parent_envs} num_envs={c.num_envs} "
                    f"batch_size={c.batch_size}"
                )
                progress.start(label)
                rate = _measure_async(args.env_id, args.env_kwargs, c, args.seconds)
                rates.append((c, rate))
                progress.advance(f"{label}: {rate:,.0f} steps/s")
            if has_vector:
                for n in sizes:
                    progress.start(f"vector num_envs={n}")
                    vector_rates[n] = _measure_vector(args.env_id, args.env_kwargs, n, args.seconds)
                    progress.advance(f"vector num_envs={n}: {vector_rates[n]:,.0f} steps/s")
    except KeyboardInterrupt:  # Ctrl-C: report what was measured
        interrupted = True
    stream = sys.stderr if json_out is sys.stdout else sys.stdout
    code = _print_results(args, single, rates, vector_rates, cores, stream) if rates else None
    if json_out is not None:
        report = _report(args, single, rates, vector_rates, cores, code, interrupted)
        output.write_json(report, json_out)
        if json_out is not sys.stdout:
            output.note(f"results written to {args.json}")
    if interrupted:
        output.note(cli_args.INTERRUPTED_MSG)
        return cli_args.EXIT_INTERRUPTED
    return 0


def _print_results(
    args: argparse.Namespace,
    single: float | None,
    rates: list[tuple[Candidate, float]],
    vector_rates: dict[int, float],
    cores: int,
    stream: TextIO,
) -> str:
    """Print the table, the fastest layout and its code; return the code."""
    single_rate = single or 0.0
    table = output.Table(
        f"autotune {args.env_id}: AsyncVectorEnv send/recv collection, env steps/s",
        [
            "workers",
            "envs/worker",
            "parent envs",
            "num_envs",
            "batch_size",
            "steps/s",
            "% of bound",
        ],
        caption=f"bound = single-env rate ({single_rate:,.0f} steps/s) x min(num_envs, "
        f"{cores} cores)",
    )
    for c, rate in sorted(rates, key=lambda item: -item[1]):
        bound = single_rate * min(c.num_envs, cores)
        table.add_row(
            str(c.num_workers),
            str(c.envs_per_worker),
            str(c.parent_envs),
            str(c.num_envs),
            str(c.batch_size),
            f"{rate:,.0f}",
            f"{100 * rate / bound:.0f}%" if bound else "-",
        )
    output.print_table(table, stream)
    best, best_rate = max(rates, key=lambda item: item[1])
    parent = f" + {best.parent_envs} envs in this process" if best.parent_envs else ""
    print(
        f"\nFastest AsyncVectorEnv here: {best.num_workers} worker(s) x {best.envs_per_worker} "
        f"envs{parent}, batch_size {best.batch_size}: {best_rate:,.0f} env steps/s",
        file=stream,
    )
    code = async_snippet(args.env_id, args.env_kwargs, best)
    if vector_rates:
        n_vec, vec_rate = max(vector_rates.items(), key=lambda item: item[1])
        if vec_rate > best_rate:
            print(
                f"The numpy-vectorised env is faster still: {vec_rate:,.0f} env steps/s at "
                f"num_envs={n_vec} (one process, no crash isolation); its code follows the "
                "async one.",
                file=stream,
            )
            code += "\n\n" + vector_snippet(args.env_id, args.env_kwargs, n_vec, "vector_envs")
    print(f"{CODE_HEADER}\n", file=stream)
    print(code, file=stream, flush=True)
    return code


def _report(
    args: argparse.Namespace,
    single: float | None,
    rates: list[tuple[Candidate, float]],
    vector_rates: dict[int, float],
    cores: int,
    code: str | None,
    interrupted: bool,
) -> dict[str, Any]:
    """``vecgym autotune --json``: every layout measured, the fastest, and the code."""

    def row(c: Candidate, rate: float) -> dict[str, Any]:
        bound = (single or 0.0) * min(c.num_envs, cores)
        return {
            "num_workers": c.num_workers,
            "envs_per_worker": c.envs_per_worker,
            "parent_envs": c.parent_envs,
            "num_envs": c.num_envs,
            "batch_size": c.batch_size,
            "steps_per_s": rate,
            "pct_of_bound": 100 * rate / bound if bound else None,
        }

    best = max(rates, key=lambda item: item[1]) if rates else None
    return {
        "schema_version": output.SCHEMA_VERSION,
        "command": "autotune",
        "interrupted": interrupted,
        "env_id": args.env_id,
        "env_kwargs": args.env_kwargs,
        "seconds_per_measurement": args.seconds,
        "usable_cores": cores,
        "single_env_steps_per_s": single,
        "results": [row(c, rate) for c, rate in rates],
        "vector_results": [{"num_envs": n, "steps_per_s": r} for n, r in vector_rates.items()],
        "best": None if best is None else row(*best),
        "code": code,
    }
