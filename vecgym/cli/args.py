"""Argument types and options shared by the subcommands, and the CLI's error type."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

__all__ = [
    "EXIT_FAILURE",
    "EXIT_USAGE",
    "CliError",
    "add_autoreset_mode",
    "add_env_kwargs",
    "add_seconds",
    "add_workers",
    "parse_env_kwargs",
    "positive_float",
    "positive_int",
    "require_env",
]

EXIT_FAILURE = 1
"""Exit code when the command ran and found a failure (a failed check)."""
EXIT_USAGE = 2
"""Exit code for bad usage: bad arguments, unknown env id, a missing extra (as argparse)."""

POSITIVE_INT_MSG = "must be an integer >= 1, got {!r}"
POSITIVE_FLOAT_MSG = "must be a number > 0, got {!r}"
KWARGS_JSON_MSG = "must be a JSON object, got {!r}"
KWARGS_PAIR_MSG = "must be a JSON object or key=value pairs, got {!r}"
AUTORESET_MSG = "must be one of {choices} (case-insensitive), got {value!r}"

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


class _EnvKwargsAction(argparse.Action):
    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        try:
            setattr(namespace, self.dest, parse_env_kwargs(values))
        except argparse.ArgumentTypeError as exc:
            parser.error(f"argument {option_string}: {exc}")


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
    parser.add_argument(
        "--workers",
        nargs="+",
        type=positive_int,
        default=None,
        metavar="W",
        help=f"num_workers values {default_help}",
    )


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
    """Raise :class:`CliError` (with the registry's "did you mean") unless ``env_id`` exists."""
    import vecgym
    from vecgym import error

    try:
        vecgym.spec(env_id)
    except error.Error as exc:
        raise CliError(f"unknown env id {env_id!r}: {exc}  (see `vecgym list`)") from exc
