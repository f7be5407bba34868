"""Argument types and options shared by the subcommands, and the CLI's error type.

The options that take several values (``--env-kwargs``, ``--num-envs``, ``--workers``,
``--envs-per-worker``) stop at the first value that is not theirs: when it is the last one and
no env id was given before, it is the env id (``vecgym bench --num-envs 8 Pendulum-v1``), so an
option placed before the env id never swallows it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

__all__ = [
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "INTERRUPTED_MSG",
    "CliError",
    "add_autoreset_mode",
    "add_env_id",
    "add_env_kwargs",
    "add_int_values",
    "add_json",
    "add_seconds",
    "add_workers",
    "open_output",
    "output_file",
    "parse_env_kwargs",
    "positive_float",
    "positive_int",
    "require_buildable",
    "require_env",
    "require_env_id",
]

EXIT_FAILURE = 1
"""Exit code when the command ran and found a failure (a failed check)."""
EXIT_USAGE = 2
"""Exit code for bad usage: bad arguments, unknown env id, a missing extra (as argparse)."""
EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT, as a shell reports it)."""
INTERRUPTED_MSG = "interrupted: the results measured so far were printed and written"

POSITIVE_INT_MSG = "must be an integer >= 1, got {!r}"
POSITIVE_FLOAT_MSG = "must be a number > 0, got {!r}"
KWARGS_JSON_MSG = "must be a JSON object, got {!r}"
KWARGS_PAIR_MSG = "must be a JSON object or key=value pairs, got {!r}"
AUTORESET_MSG = "must be one of {choices} (case-insensitive), got {value!r}"
ENV_ID_REQUIRED_MSG = "the following arguments are required: env_id"
EXTRA_VALUES_MSG = "unrecognized arguments: {}"
BUILD_FAILED_MSG = "cannot build {env_id!r} with env kwargs {kwargs}: {error}"
OUTPUT_OPEN_MSG = "cannot write {option} file {path!r}: {reason}"

_TRAILING_ID = "env_id_after_option"

_AUTORESET_ALIASES = {
    "nextstep": "NextStep",
    "next_step": "NextStep",
    "next-step": "NextStep",
    "samestep": "SameStep",
    "same_step": "SameStep",
    "same-step": "SameStep",
    "disabled": "Disabled",
}


class CliError(Exception):
    """A user-facing error: printed as ``vecgym: error: <message>``, exit code ``code``."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(POSITIVE_INT_MSG.format(text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(POSITIVE_INT_MSG.format(text))
    return value


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(POSITIVE_FLOAT_MSG.format(text)) from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(POSITIVE_FLOAT_MSG.format(text))
    return value


def autoreset_mode(text: str) -> str:
    """argparse type: an autoreset mode's value (``NextStep``, ``SameStep``, ``Disabled``)."""
    try:
        return _AUTORESET_ALIASES[text.lower()]
    except KeyError:
        choices = ", ".join(sorted(set(_AUTORESET_ALIASES.values())))
        raise argparse.ArgumentTypeError(
            AUTORESET_MSG.format(choices=choices, value=text)
        ) from None


def _literal(text: str) -> Any:
    """A JSON literal (``3``, ``true``, ``[1, 2]``, ``"x"``) or else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_env_kwargs(values: Sequence[str]) -> dict[str, Any]:
    """Env kwargs from one JSON object or from ``key=value`` pairs (values read as JSON).

    Raises:
        argparse.ArgumentTypeError: neither form.
    """
    if len(values) == 1 and values[0].lstrip().startswith("{"):
        try:
            parsed = json.loads(values[0])
        except ValueError as exc:
            raise argparse.ArgumentTypeError(
                f"{KWARGS_JSON_MSG.format(values[0])} ({exc})"
            ) from None
        if not isinstance(parsed, dict):
            raise argparse.ArgumentTypeError(KWARGS_JSON_MSG.format(values[0]))
        return parsed
    kwargs: dict[str, Any] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise argparse.ArgumentTypeError(KWARGS_PAIR_MSG.format(item))
        kwargs[key] = _literal(value)
    return kwargs


def _split_env_id(
    parser: argparse.ArgumentParser,
    namespace: argparse.Namespace,
    values: Sequence[str],
    taken: int,
    option: str | None,
) -> None:
    """Values after the first ``taken`` of an option: one left, with no env id yet, is the id.

    Anything else left over is an error, as argparse reports unknown arguments.
    """
    rest = list(values[taken:])
    if not rest:
        return
    no_id_yet = getattr(namespace, "env_id", None) is None
    no_id_yet = no_id_yet and getattr(namespace, _TRAILING_ID, None) is None
    if taken > 0 and len(rest) == 1 and no_id_yet:
        # kept apart: argparse later sets the unfilled env_id positional to its default
        setattr(namespace, _TRAILING_ID, rest[0])
        return
    parser.error(EXTRA_VALUES_MSG.format(" ".join(rest)))


class _ValuesThenEnvId(argparse.Action):
    """An option taking several values, then perhaps the env id (see :func:`_split_env_id`).

    A subclass parses the leading values that are its own (:meth:`parse`); the option's
    destination is set to the result.
    """

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        values = list(values)
        parsed, taken = self.parse(parser, values, option_string)
        setattr(namespace, self.dest, parsed)
        _split_env_id(parser, namespace, values, taken, option_string)

    def parse(
        self, parser: argparse.ArgumentParser, values: list[str], option_string: str | None
    ) -> tuple[Any, int]:
        """The parsed value and how many of ``values`` it took (``parser.error`` on bad ones)."""
        raise NotImplementedError


class _EnvKwargsAction(_ValuesThenEnvId):
    """``--env-kwargs``: one JSON object or ``key=value`` pairs, then perhaps the env id."""

    def parse(
        self, parser: argparse.ArgumentParser, values: list[str], option_string: str | None
    ) -> tuple[Any, int]:
        if values[0].lstrip().startswith("{"):
            taken = 1
        else:
            taken = 0
            while taken < len(values) and _is_pair(values[taken]):
                taken += 1
            if taken == 0 or (taken < len(values) - 1):
                taken = len(values)  # the pairs' own error names the bad value
        try:
            return parse_env_kwargs(values[:taken]), taken
        except argparse.ArgumentTypeError as exc:
            parser.error(f"argument {option_string}: {exc}")


def _is_pair(text: str) -> bool:
    key, sep, _ = text.partition("=")
    return bool(sep) and key.isidentifier()


class _IntValuesAction(_ValuesThenEnvId):
    """Several positive integers, then perhaps the env id."""

    def parse(
        self, parser: argparse.ArgumentParser, values: list[str], option_string: str | None
    ) -> tuple[Any, int]:
        parsed: list[int] = []
        for text in values:
            try:
                parsed.append(positive_int(text))
            except argparse.ArgumentTypeError as exc:
                if not parsed or len(parsed) < len(values) - 1:
                    parser.error(f"argument {option_string}: {exc}")
                break
        return parsed, len(parsed)


def add_int_values(
    parser: argparse.ArgumentParser, flag: str, default: Any, metavar: str, help_text: str
) -> None:
    """An option taking one or more positive integers (which never swallows the env id)."""
    parser.add_argument(
        flag, nargs="+", action=_IntValuesAction, default=default, metavar=metavar, help=help_text
    )


def add_env_id(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The ``env_id`` positional; ``None`` when not given (see :func:`require_env_id`).

    It is optional for argparse, so that an option taking several values may end with it.
    """
    parser.add_argument("env_id", nargs="?", default=None, help=help_text)
    parser.set_defaults(**{_TRAILING_ID: None})


def require_env_id(
    parser: argparse.ArgumentParser, args: argparse.Namespace, default: str | None = None
) -> None:
    """Settle ``args.env_id``: the positional, or the id that ended a multi-value option.

    Without either, ``default`` is used, or (``None``) it is a usage error, exit 2.
    """
    trailing = getattr(args, _TRAILING_ID, None)
    if trailing is not None:
        if args.env_id is not None:
            parser.error(EXTRA_VALUES_MSG.format(trailing))
        args.env_id = trailing
    if args.env_id is None:
        if default is None:
            parser.error(ENV_ID_REQUIRED_MSG)
        args.env_id = default


def add_env_kwargs(parser: argparse.ArgumentParser) -> None:
    """``--env-kwargs``: a JSON object or ``key=value`` pairs, passed to the env constructor."""
    parser.add_argument(
        "--env-kwargs",
        nargs="+",
        action=_EnvKwargsAction,
        default={},
        metavar="KWARGS",
        help="env constructor kwargs: one JSON object or key=value pairs (values read as JSON)",
    )


def add_json(parser: argparse.ArgumentParser, what: str) -> None:
    """``--json FILE``: write ``what`` as JSON to FILE (``-``: stdout)."""
    parser.add_argument(
        "--json",
        metavar="FILE",
        help=f"write {what} as JSON to FILE ('-': to stdout, the table then goes to stderr)",
    )


def open_output(path: str | None, option: str, binary: bool = False) -> IO[Any] | None:
    """Open an output file named on the command line now, before any work is done.

    ``"-"`` is stdout (text only). Returns ``None`` for no path.

    Raises:
        CliError: the file cannot be opened for writing (exit 2).
    """
    if path is None:
        return None
    if path == "-" and not binary:
        return sys.stdout
    try:
        return open(path, "wb") if binary else open(path, "w", encoding="utf-8")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise CliError(OUTPUT_OPEN_MSG.format(option=option, path=path, reason=reason)) from exc


@contextlib.contextmanager
def output_file(path: str | None, option: str, binary: bool = False) -> Iterator[IO[Any] | None]:
    """:func:`open_output` for a ``with`` block, at whose end the file is closed (stdout is not).

    Raises:
        CliError: the file cannot be opened for writing (exit 2).
    """
    handle = open_output(path, option, binary)
    try:
        yield handle
    finally:
        if handle is not None and handle is not sys.stdout:
            handle.close()


def require_buildable(
    env_id: str, env_kwargs: dict[str, Any], make: Callable[..., Any] | None = None
) -> None:
    """Build (and close) the env once, so bad env kwargs are a usage error before any work.

    Raises:
        CliError: the env cannot be built with these kwargs (exit 2).
    """
    import vecgym

    build = vecgym.make if make is None else make
    try:
        env = build(env_id, **env_kwargs)
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        raise CliError(
            BUILD_FAILED_MSG.format(env_id=env_id, kwargs=json.dumps(env_kwargs), error=error)
        ) from exc
    env.close()


def add_seconds(parser: argparse.ArgumentParser, default: float) -> None:
    """``--seconds``: timed seconds per measurement."""
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=default,
        metavar="S",
        help="timed seconds per measurement, after a short warm-up (default %(default)s)",
    )


def add_workers(parser: argparse.ArgumentParser, default_help: str) -> None:
    """``--workers``: the ``num_workers`` values; ``default_help`` ends the help text."""
    add_int_values(parser, "--workers", None, "W", f"num_workers values {default_help}")


def add_autoreset_mode(parser: argparse.ArgumentParser) -> None:
    """``--autoreset-mode``: the vector envs' autoreset mode."""
    parser.add_argument(
        "--autoreset-mode",
        type=autoreset_mode,
        default="NextStep",
        metavar="MODE",
        help="NextStep (default), SameStep or Disabled (Disabled: ended envs are reset by mask)",
    )


def require_env(env_id: str) -> None:
    """Raise :class:`CliError` (with the registry's suggestion) unless ``env_id`` exists."""
    import vecgym
    from vecgym import error

    try:
        vecgym.spec(env_id)
    except error.Error as exc:
        raise CliError(f"unknown env id {env_id!r}: {exc}  (see `vecgym list`)") from exc
