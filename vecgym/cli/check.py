"""``vecgym check``: the env checker's checks one at a time, each reported passed/warned/failed.

The checks are those :func:`vecgym.utils.env_checker.check_env` runs, in its order, called one by
one through their public functions so each gets its own line: a check *fails* when it raises,
*warns* when it emits warnings (each printed under it), and *passes* otherwise. After a failure
the remaining checks are not run (they would drive an env in an unknown state). Rendering is
checked only with ``--render`` (``"human"`` needs the ``human`` extra, pygame); the exit code is
1 when a check failed (or the env could not be built). The report goes to stdout, notes to
stderr; ``--json FILE`` writes it as JSON too.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import IO, Any

from vecgym.cli import output

__all__ = ["CheckResult", "add_arguments", "run", "run_checks"]

PASSED, WARNED, FAILED, NOT_RUN = "passed", "warned", "failed", "not run"
SUMMARY_MSG = "{env_id}: {passed} passed, {warned} warned, {failed} failed, {not_run} not run"
NOT_RUN_REASON = "an earlier check failed"
RENDER_SKIPPED_MSG = (
    "render checks skipped (use --render; 'human' mode needs pip install \"vecgym[human]\")"
)
_TO_NUMPY = (("jax", "JaxToNumpy"), ("torch", "TorchToNumpy"))


@dataclass
class CheckResult:
    """The outcome of one check.

    Attributes:
        name: what was checked.
        status: ``"passed"``, ``"warned"``, ``"failed"`` or ``"not run"``.
        messages: the warnings' texts, or the error (type and message) for a failure.
    """

    name: str
    status: str
    messages: list[str] = field(default_factory=list)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``check`` subcommand's options."""
    from vecgym.cli import args as cli_args

    cli_args.add_env_id(parser, "env id to check")
    cli_args.add_env_kwargs(parser)
    cli_args.add_json(parser, "the report")
    parser.add_argument(
        "--render",
        action="store_true",
        help='also check rendering in every declared render mode ("human" needs pygame: '
        'pip install "vecgym[human]")',
    )


def _space_check(kind: str) -> Callable[[Any], object]:
    def check(env: Any) -> None:
        from vecgym.utils import env_checker

        if not hasattr(env, f"{kind}_space"):
            raise AttributeError(f"the env has no `{kind}_space` attribute; it must define one")
        space = getattr(env, f"{kind}_space")
        if kind == "action":
            env_checker.check_action_space(space)
        else:
            env_checker.check_observation_space(space)
        env_checker.check_space_limit(space, kind)

    return check


def _step_passive(env: Any) -> None:
    from vecgym.utils.passive_env_checker import env_step_passive_checker

    env_step_passive_checker(env, env.action_space.sample())


def _render(env: Any) -> None:
    from vecgym.utils.passive_env_checker import env_render_passive_checker

    if env.spec is None:
        raise RuntimeError("the env has no spec, so its render modes cannot be built")
    for mode in env.metadata.get("render_modes", []):
        render_env = env.spec.make(render_mode=mode)
        try:
            render_env.reset(seed=0)
            env_render_passive_checker(render_env)
        finally:
            render_env.close()


def _close_twice(env: Any) -> None:
    if env.spec is None:
        return
    fresh = env.spec.make()
    fresh.close()
    try:
        fresh.close()
    except Exception as exc:
        warnings.warn(f"closing an already closed env raised {exc!r}; close() must be idempotent")


def checks(render: bool) -> list[tuple[str, Callable[[Any], object]]]:
    """The checks, in :func:`~vecgym.utils.env_checker.check_env`'s order."""
    from vecgym.utils import env_checker
    from vecgym.utils.passive_env_checker import env_reset_passive_checker

    found: list[tuple[str, Callable[[Any], object]]] = [
        ("action space", _space_check("action")),
        ("observation space", _space_check("observation")),
        ("no legacy seed() method", env_checker.check_seed_deprecation),
        ("no legacy return_info argument", env_checker.check_reset_return_info_deprecation),
        ("reset returns (obs, info)", env_checker.check_reset_return_type),
        ("reset seeding is deterministic", env_checker.check_reset_seed_determinism),
        ("reset accepts options", env_checker.check_reset_options),
        ("reset output (passive checks)", env_reset_passive_checker),
        ("step output (passive checks)", _step_passive),
        ("step is deterministic", env_checker.check_step_determinism),
        ("returned data is not reused", env_checker.check_returned_data_not_reused),
    ]
    if render:
        found.append(("render in every declared mode", _render))
    found.append(("close() twice", _close_twice))
    return found


def run_checks(env: Any, render: bool) -> list[CheckResult]:
    """Run each check on ``env``; stop running after the first failure."""
    results: list[CheckResult] = []
    failed = False
    for name, check in checks(render):
        if failed:
            results.append(CheckResult(name, NOT_RUN, [NOT_RUN_REASON]))
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                check(env)
            except Exception as exc:
                failed = True
                results.append(CheckResult(name, FAILED, [f"{type(exc).__name__}: {exc}"]))
                continue
        messages = list(dict.fromkeys(str(w.message) for w in caught))
        results.append(CheckResult(name, WARNED if messages else PASSED, messages))
    return results


def _build(env_id: str, env_kwargs: dict[str, Any]) -> Any:
    import importlib

    import vecgym

    env = vecgym.make(env_id, disable_env_checker=True, **env_kwargs).unwrapped
    for flag, wrapper in _TO_NUMPY:
        if env.metadata.get(flag, False):
            env = getattr(importlib.import_module("vecgym.wrappers"), wrapper)(env)
    return env


def run(args: argparse.Namespace) -> int:
    """Run ``vecgym check`` with parsed arguments; return the exit code.

    The table and the summary go to stdout (to stderr with ``--json -``), notes to stderr.
    """
    from vecgym.cli import args as cli_args

    cli_args.require_env(args.env_id)
    with cli_args.output_file(args.json, "--json") as json_out:
        return _check(args, json_out)


def _check(args: argparse.Namespace, json_out: IO[Any] | None) -> int:
    from vecgym.cli import args as cli_args

    stream = sys.stderr if json_out is sys.stdout else sys.stdout
    try:
        env = _build(args.env_id, args.env_kwargs)
    except Exception as exc:
        build_error = f"{type(exc).__name__}: {exc}"
        print(f"{args.env_id}: FAILED to build the env: {build_error}", file=stream)
        if json_out is not None:
            output.write_json(_report(args, [], build_error), json_out)
        return cli_args.EXIT_FAILURE
    try:
        results = run_checks(env, args.render)
    finally:
        env.close()
    table = output.Table(
        f"vecgym check {args.env_id}", ["check", "result", "details"], left=(0, 1, 2)
    )
    for r in results:
        table.add_row(r.name, r.status.upper(), "\n".join(r.messages) if r.messages else "")
    output.print_table(table, stream)
    counts = _counts(results)
    print(
        SUMMARY_MSG.format(
            env_id=args.env_id,
            passed=counts[PASSED],
            warned=counts[WARNED],
            failed=counts[FAILED],
            not_run=counts[NOT_RUN],
        ),
        file=stream,
        flush=True,
    )
    if not args.render:
        output.note(RENDER_SKIPPED_MSG)
    if json_out is not None:
        output.write_json(_report(args, results, None), json_out)
        if json_out is not sys.stdout:
            output.note(f"report written to {args.json}")
    return cli_args.EXIT_FAILURE if counts[FAILED] else 0


def _counts(results: list[CheckResult]) -> dict[str, int]:
    return {s: sum(r.status == s for r in results) for s in (PASSED, WARNED, FAILED, NOT_RUN)}


def _report(
    args: argparse.Namespace, results: list[CheckResult], build_error: str | None
) -> dict[str, Any]:
    """``vecgym check --json``: each check's outcome, the counts, and whether it all passed."""
    counts = _counts(results)
    return {
        "schema_version": output.SCHEMA_VERSION,
        "command": "check",
        "env_id": args.env_id,
        "env_kwargs": args.env_kwargs,
        "render_checked": bool(args.render),
        "build_error": build_error,
        "ok": build_error is None and counts[FAILED] == 0,
        "counts": {status.replace(" ", "_"): n for status, n in counts.items()},
        "checks": [asdict(r) for r in results],
    }
