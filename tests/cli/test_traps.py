"""The command line's traps (issue 10, item 5), one test each.

Options with several values never swallow the env id; bad env kwargs and unwritable output files
are usage errors (exit 2, a message, no traceback) found before any measurement; Ctrl-C keeps
what was measured (exit 130); ``--json -`` writes to stdout; every command has ``--json`` with a
``schema_version``; ``check`` prints notes to stderr; the ``bench`` and ``compare`` extras.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import vecgym
from vecgym.cli import main
from vecgym.cli.args import (
    BUILD_FAILED_MSG,
    ENV_ID_REQUIRED_MSG,
    EXIT_INTERRUPTED,
    EXTRA_VALUES_MSG,
    INTERRUPTED_MSG,
    OUTPUT_OPEN_MSG,
)
from vecgym.cli.check import RENDER_SKIPPED_MSG
from vecgym.cli.output import SCHEMA_VERSION
from vecgym.cli.runtimes import COMPARE_EXTRA

FAST = ["--seconds", "0.05"]
ROOT = Path(vecgym.__file__).parent.parent


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``argv``, expect argparse's exit 2; return stderr."""
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    assert info.value.code == 2
    return capsys.readouterr().err


def json_out(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> dict[str, Any]:
    """Run ``argv`` with ``--json -``: stdout must be exactly one JSON document."""
    got, out, _ = run_cli(capsys, *argv, "--json", "-")
    assert got == code
    report = json.loads(out)
    assert report["schema_version"] == SCHEMA_VERSION
    return report


def _message_prefix(template: str) -> str:
    return template.split("{")[0]


# --- multi-value options before the env id --------------------------------------------------------
def test_check_env_kwargs_before_the_env_id(capsys: pytest.CaptureFixture[str]) -> None:
    report = json_out(capsys, "check", "--env-kwargs", "g=9.81", "Pendulum-v1")
    assert report["env_id"] == "Pendulum-v1"
    assert report["env_kwargs"] == {"g": 9.81}
    assert report["ok"] is True
    report = json_out(capsys, "check", "--env-kwargs", '{"g": 3.5}', "Pendulum-v1")
    assert (report["env_id"], report["env_kwargs"]) == ("Pendulum-v1", {"g": 3.5})


def test_bench_num_envs_before_the_env_id(capsys: pytest.CaptureFixture[str]) -> None:
    report = json_out(capsys, "bench", *FAST, "--workers", "1", "--num-envs", "2", "Pendulum-v1")
    assert report["env_id"] == "Pendulum-v1"
    assert {r["num_envs"] for r in report["results"]} == {2}
    report = json_out(
        capsys, "bench", *FAST, "--num-envs", "1", "--env-kwargs", "g=2.0", "--workers", "1",
        "Pendulum-v1",
    )  # fmt: skip
    assert (report["env_id"], report["env_kwargs"]) == ("Pendulum-v1", {"g": 2.0})
    assert {r["num_workers"] for r in report["results"]} == {None, 1}


def test_autotune_multi_value_options_before_the_env_id(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = json_out(
        capsys, "autotune", *FAST, "--workers", "1", "--envs-per-worker", "2", "Pendulum-v1"
    )
    assert report["env_id"] == "Pendulum-v1"
    assert [(r["num_workers"], r["num_envs"]) for r in report["results"]] == [(1, 2)] * 3


def test_bench_without_env_id_still_defaults_to_cartpole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = json_out(capsys, "bench", *FAST, "--workers", "1", "--num-envs", "1")
    assert report["env_id"] == "CartPole-v1"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--env-kwargs", "g=1.0"], ENV_ID_REQUIRED_MSG),
        (["autotune", "--workers", "1", "2"], ENV_ID_REQUIRED_MSG),
        (
            ["check", "Pendulum-v1", "--env-kwargs", "g=1.0", "CartPole-v1"],
            EXTRA_VALUES_MSG.format("CartPole-v1"),
        ),
        (["bench", "--num-envs", "1", "Pendulum-v1", "CartPole-v1"], "got 'Pendulum-v1'"),
        (["bench", "--num-envs", "1", "x", "2"], "must be an integer >= 1, got 'x'"),
        (["check", "--env-kwargs", "a=1", "b", "c=2", "Pendulum-v1"], "got 'b'"),
    ],
)
def test_an_env_id_is_taken_once_and_only_at_the_end(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    err = usage_error(capsys, *argv)
    assert message in err


# --- bad usage: exit 2, a message, no traceback ---------------------------------------------------
@pytest.mark.parametrize("command", ["bench", "autotune"])
def test_env_kwargs_the_env_refuses_are_a_usage_error(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, err = run_cli(capsys, command, "CartPole-v1", *FAST, "--env-kwargs", "bad=1")
    assert code == 2
    assert out == ""
    assert _message_prefix(BUILD_FAILED_MSG) + "'CartPole-v1'" in err
    assert "TypeError" in err
    assert "[1/" not in err  # nothing was measured


def test_bad_env_kwargs_print_no_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "vecgym", "bench", "CartPole-v1", "--env-kwargs", "bad=1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert _message_prefix(BUILD_FAILED_MSG) in done.stderr


# --- output files: checked before the sweep, '-' for stdout ---------------------------------------
@pytest.mark.parametrize("command", ["bench", "autotune", "check", "list"])
def test_unwritable_json_path_fails_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    path = tmp_path / "missing-dir" / "out.json"
    argv = [command, "CartPole-v1"] + (FAST if command in ("bench", "autotune") else [])
    code, out, err = run_cli(capsys, *argv, "--json", str(path))
    assert code == 2
    assert _message_prefix(OUTPUT_OPEN_MSG) + "--json file" in err
    assert "[1/" not in err
    assert "PASSED" not in out


def test_unwritable_plot_path_fails_before_the_sweep(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "missing-dir" / "plot.png"
    code, _, err = run_cli(capsys, "bench", *FAST, "--num-envs", "1", "--plot", str(path))
    assert code == 2
    assert _message_prefix(OUTPUT_OPEN_MSG) + "--plot file" in err
    assert "[1/" not in err


def test_bench_json_to_stdout_puts_the_table_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "bench", *FAST, "--num-envs", "1", "--workers", "1", "--json", "-"
    )
    assert code == 0
    report = json.loads(out)
    assert report["command"] == "bench"
    assert report["interrupted"] is False
    assert len(report["results"]) == 3
    assert "CartPole-v1: env steps/s" in err


def test_autotune_json_has_every_layout_and_the_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "tune.json"
    code, out, _ = run_cli(
        capsys, "autotune", "CartPole-v1", *FAST, "--workers", "1", "--envs-per-worker", "2",
        "--json", str(path),
    )  # fmt: skip
    assert code == 0
    report = json.loads(path.read_text())
    assert report["schema_version"] == SCHEMA_VERSION
    assert report["command"] == "autotune"
    layouts = {(r["num_workers"], r["num_envs"], r["parent_envs"]) for r in report["results"]}
    assert layouts == {(1, 2, 0), (1, 2, 1)}
    assert report["best"] in report["results"]
    assert report["vector_results"][0]["num_envs"] == 2
    assert report["code"] in out
    namespace: dict[str, Any] = {}
    exec(report["code"].split("\n\n# numpy")[0], namespace)
    namespace["envs"].close()


def test_check_json_reports_each_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "check", "CartPole-v1", "--json", "-")
    assert code == 0
    report = json.loads(out)
    assert report["command"] == "check"
    assert report["ok"] is True
    assert report["counts"]["failed"] == 0
    assert report["counts"]["passed"] + report["counts"]["warned"] == len(report["checks"])
    assert {"name", "status", "messages"} <= set(report["checks"][0])
    assert "vecgym check CartPole-v1" in err  # the table moved to stderr
    assert RENDER_SKIPPED_MSG in err


def test_check_json_of_an_env_that_cannot_be_built(capsys: pytest.CaptureFixture[str]) -> None:
    report = json_out(capsys, "check", "Pendulum-v1", "--env-kwargs", "bad=1", code=1)
    assert report["ok"] is False
    assert report["build_error"].startswith("TypeError")
    assert report["checks"] == []


def test_check_prints_notes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "check", "CartPole-v1")
    assert code == 0
    assert RENDER_SKIPPED_MSG not in out
    assert RENDER_SKIPPED_MSG in err


def test_list_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = json_out(capsys, "list", "Pendulum-v1")
    assert report["command"] == "list"
    (entry,) = report["envs"]
    assert entry["id"] == "Pendulum-v1"
    assert entry["namespace"] is None
    assert entry["max_episode_steps"] == 200
    assert entry["entry_point"].endswith(":PendulumEnv")
    assert entry["vector_entry_point"] is not None
    path = tmp_path / "list.json"
    code, out, _ = run_cli(capsys, "list", "--ids", "--json", str(path))
    assert code == 0
    ids = [entry["id"] for entry in json.loads(path.read_text())["envs"]]
    assert ids == out.split()


# --- Ctrl-C keeps what was measured ---------------------------------------------------------------
def _wait_for(stream: Any, text: str, deadline: float) -> str:
    """Read ``stream``'s pipe until ``text`` has shown; return everything read.

    The file descriptor is read directly: a buffered ``readline`` could keep the marker line in
    its buffer while ``select`` waits for more output, and so press Ctrl-C one step late.
    """
    fd = stream.fileno()
    seen = ""
    while text not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"never saw {text!r}; got:\n{seen}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            assert chunk, f"the command ended before {text!r}; got:\n{seen}"
            seen += chunk.decode(errors="replace")
    return seen


def _interrupted(argv: list[str], marker: str) -> tuple[str, str]:
    """Run ``python -m vecgym *argv``, press Ctrl-C once ``marker`` shows on stderr, and check
    that it ended as interrupted, without a traceback; return its stdout and stderr."""
    command = [sys.executable, "-m", "vecgym", *argv]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as proc:
        try:
            _wait_for(proc.stderr, marker, time.monotonic() + 120)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == EXIT_INTERRUPTED
    assert INTERRUPTED_MSG in err
    assert "Traceback" not in err
    return out, err


def test_ctrl_c_writes_the_results_measured_so_far(tmp_path: Path) -> None:
    path = tmp_path / "bench.json"
    argv = [
        "bench", "--seconds", "1", "--workers", "1",
        "--num-envs", "1", "2", "4", "8", "--json", str(path),
    ]  # fmt: skip
    out, _ = _interrupted(argv, "[2/")  # the sync row is measured
    report = json.loads(path.read_text())
    assert report["interrupted"] is True
    assert report["single_env_steps_per_s"] > 0
    assert report["results"][0]["runtime"] == "sync"
    assert len(report["results"]) < 12
    assert "CartPole-v1: env steps/s" in out  # the table of what was measured


def test_ctrl_c_during_autotune_reports_the_fastest_layout_so_far(tmp_path: Path) -> None:
    path = tmp_path / "tune.json"
    argv = [
        "autotune", "CartPole-v1", "--seconds", "1",
        "--workers", "1", "--envs-per-worker", "1", "2", "4", "8", "--json", str(path),
    ]  # fmt: skip
    out, _ = _interrupted(argv, "[3/")  # two layouts are measured
    report = json.loads(path.read_text())
    assert report["interrupted"] is True
    assert 2 <= len(report["results"]) < 8
    assert report["best"] in report["results"]
    assert report["code"] in out


# --- extras ---------------------------------------------------------------------------------------
def test_bench_and_compare_extras() -> None:
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert extras["bench"] == ["rich>=13"]
    assert extras["compare"] == ["gymnasium>=1.0,<2"]
    assert "compare" in COMPARE_EXTRA
