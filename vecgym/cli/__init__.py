"""The ``vecgym`` command: ``bench``, ``autotune``, ``list`` and ``check``.

Run it as ``vecgym <command>`` (console script) or ``python -m vecgym <command>``. The CLI is the
top layer: it imports the runtime, the envs and optional libraries (``rich`` for tables and
progress, ``matplotlib`` for plots, the peers of ``bench --compare``), always lazily, so
``import vecgym`` never pays for it.

Exit codes: 0 success; 1 the command ran and found a failure (``check``); 2 bad usage — bad
arguments, an unknown env id, env kwargs the env refuses, an output file that cannot be written, a
missing extra (argparse's convention); 130 interrupted (Ctrl-C), after printing and writing what
was measured so far.

Every command takes ``--json FILE`` (``-`` for stdout); each report has a ``"schema_version"``
(:data:`vecgym.cli.output.SCHEMA_VERSION`) and a ``"command"``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["build_parser", "main"]

PROG = "vecgym"
DESCRIPTION = "vecgym: Gymnasium-compatible environments on a fast vector runtime."
EPILOG = 'Start with `vecgym bench` (pip install "vecgym[bench]" for progress bars and tables).'

_Runner = Callable[[argparse.Namespace], int]


def _list_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "pattern", nargs="?", default=None, help="show only ids containing PATTERN (any case)"
    )
    parser.add_argument(
        "--ids", action="store_true", help="one id per line, no grouping (for scripts)"
    )
    from vecgym.cli import args as cli_args

    cli_args.add_json(parser, "the ids and their specs")


def _run_list(args: argparse.Namespace) -> int:
    import vecgym
    from vecgym.cli import args as cli_args
    from vecgym.cli import output

    specs = {
        env_id: spec
        for env_id, spec in vecgym.registry.items()
        if args.pattern is None or args.pattern.lower() in env_id.lower()
    }
    if not specs:
        raise cli_args.CliError(
            f"no registered env id contains {args.pattern!r} (run `vecgym list` for all)",
            cli_args.EXIT_FAILURE,
        )
    with cli_args.output_file(args.json, "--json") as json_out:
        if json_out is not None:
            output.write_json(_list_report(specs), json_out)
            if json_out is sys.stdout:
                return 0
        if args.ids:
            print("\n".join(sorted(specs)))
        else:
            print(vecgym.pprint_registry(specs, disable_print=True))
    return 0


def _list_report(specs: dict[str, Any]) -> dict[str, Any]:
    """``vecgym list --json``: each id with the parts of its spec that JSON can hold."""
    from vecgym.cli import output
    from vecgym.core.registration import vector_entry_point_of

    def entry_point(value: Any) -> str | None:
        if value is None or isinstance(value, str):
            return value
        return f"{getattr(value, '__module__', '?')}:{getattr(value, '__qualname__', value)}"

    return {
        "schema_version": output.SCHEMA_VERSION,
        "command": "list",
        "envs": [
            {
                "id": env_id,
                "namespace": spec.namespace,
                "name": spec.name,
                "version": spec.version,
                "entry_point": entry_point(spec.entry_point),
                # what vectorization_mode="vector_entry_point" builds, vecgym's own numpy
                # versions of the envs that Gymnasium does not vectorise included
                "vector_entry_point": entry_point(vector_entry_point_of(spec)),
                "max_episode_steps": spec.max_episode_steps,
            }
            for env_id, spec in sorted(specs.items())
        ],
    }


def _bench(args: argparse.Namespace) -> int:
    from vecgym.cli import bench

    return bench.run(args)


def _autotune(args: argparse.Namespace) -> int:
    from vecgym.cli import autotune

    return autotune.run(args)


def _check(args: argparse.Namespace) -> int:
    from vecgym.cli import check

    return check.run(args)


def build_parser() -> argparse.ArgumentParser:
    """The ``vecgym`` argument parser with its subcommands."""
    from vecgym.cli import autotune, bench, check

    parser = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    subcommands: list[tuple[str, str, Callable[[argparse.ArgumentParser], None], _Runner]] = [
        (
            "bench",
            "env steps/s of sync, async and vectorised envs vs the bound",
            bench.add_arguments,
            _bench,
        ),
        (
            "autotune",
            "find the fastest AsyncVectorEnv layout and print its code",
            autotune.add_arguments,
            _autotune,
        ),
        ("list", "list the registered env ids", _list_arguments, _run_list),
        ("check", "run the env checker with a per-check report", check.add_arguments, _check),
    ]
    for name, help_text, add_arguments, runner in subcommands:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        add_arguments(sub)
        sub.set_defaults(run=runner, command_parser=sub)
    return parser


def _version() -> str:
    import vecgym

    return str(vecgym.__version__)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``vecgym`` command; returns the exit code.

    Args:
        argv: the arguments (default: ``sys.argv[1:]``).
    """
    from vecgym.cli import args as cli_args

    parser = build_parser()
    args = parser.parse_args(argv)
    if hasattr(args, "env_id") and args.command != "list":
        cli_args.require_env_id(args.command_parser, args, getattr(args, "default_env_id", None))
    try:
        return int(args.run(args))
    except cli_args.CliError as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print(f"{PROG} {args.command}: interrupted", file=sys.stderr)
        return 130
