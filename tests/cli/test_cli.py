"""The ``vecgym`` command: every subcommand and option, with small fast settings.

Commands run in-process through :func:`vecgym.cli.main` (stdout / stderr captured), except the
``python -m vecgym`` and console-script checks. Measurements use ``--seconds 0.05`` and one or
two envs; assertions are about behaviour (what is printed and written), never about speed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import vecgym
from vecgym.cli import main
from vecgym.cli.autotune import CODE_HEADER, Candidate, async_snippet, grid, vector_snippet
from vecgym.cli.bench import PLOT_EXTRA_MSG
from vecgym.core.registration import NAME_SUGGESTION_MSG
from vecgym.spaces import Box, Discrete

FAST = ["--seconds", "0.05"]
GOOD_ID = "CliTest/Good-v0"
BROKEN_ID = "CliTest/Broken-v0"
WARNED_ID = "CliTest/Warned-v0"


class GoodEnv(vecgym.Env[np.ndarray, Any]):
    """A correct env: bounded Box observations, episodes of 5 steps."""

    metadata = {"render_modes": []}

    def __init__(self, length: int = 5) -> None:
        self.observation_space = Box(-1.0, 1.0, (2,), np.float32)
        self.action_space = Discrete(2)
        self.length = length
        self.t = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.t = 0
        return self.np_random.uniform(-1, 1, 2).astype(np.float32), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.t += 1
        obs = self.np_random.uniform(-1, 1, 2).astype(np.float32)
        return obs, 1.0, self.t >= self.length, False, {}


class BrokenEnv(GoodEnv):
    """``reset`` returns an observation outside its space, with the wrong dtype and shape."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        return np.full(3, 5.0), {}


class WarnedEnv(GoodEnv):
    """Correct, but its Box observation space is unbounded (the checker warns)."""

    def __init__(self) -> None:
        super().__init__()
        self.observation_space = Box(-np.inf, np.inf, (2,), np.float32)


@pytest.fixture(autouse=True)
def test_envs() -> Iterator[None]:
    for env_id, cls in ((GOOD_ID, GoodEnv), (BROKEN_ID, BrokenEnv), (WARNED_ID, WarnedEnv)):
        vecgym.register(env_id, entry_point=cls, max_episode_steps=100)
    yield
    for env_id in (GOOD_ID, BROKEN_ID, WARNED_ID):
        vecgym.registry.pop(env_id, None)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- bench ----------------------------------------------------------------------------------------
def test_bench_prints_a_table_of_every_vecgym_runtime(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "bench", *FAST, "--num-envs", "1", "2", "--workers", "1")
    assert code == 0
    assert "CartPole-v1: env steps/s" in out
    for heading in ("num_envs", "runtime", "workers", "steps/s", "bound", "% of bound"):
        assert heading in out
    for runtime in ("sync", "async", "vector"):
        assert runtime in out
    assert "single-env rate" in out
    # progress: 1 + 3 runtimes at 1 env + 4 at 2 envs (async+parent needs 2 envs)
    assert "[1/8] single env" in err
    assert "[8/8]" in err
    assert "async+parent (1 envs)" in out


def test_bench_json_is_valid_and_complete(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bench.json"
    code, _, err = run_cli(
        capsys, "bench", *FAST, "--num-envs", "1", "2", "--workers", "1", "2", "--json", str(path),
        "--repeats", "2",
    )  # fmt: skip
    assert code == 0
    assert f"results written to {path}" in err
    report = json.loads(path.read_text())
    assert report["env_id"] == "CartPole-v1"
    assert report["autoreset_mode"] == "NextStep"
    assert report["repeats"] == 2
    assert report["machine"]["usable_cores"] >= 1
    rows = {(r["runtime"], r["num_envs"], r["num_workers"]) for r in report["results"]}
    # workers above num_envs are capped to it, so num_envs=1 has only workers=1
    assert rows == {
        ("sync", 1, None),
        ("async", 1, 1),
        ("vector", 1, None),
        ("sync", 2, None),
        ("async", 2, 1),
        ("async", 2, 2),
        ("async+parent", 2, 1),  # one worker fewer than asked: the parent steps too
        ("vector", 2, None),
    }
    parent = [r for r in report["results"] if r["runtime"] == "async+parent"]
    assert [r["parent_envs"] for r in parent] == [1]
    assert all(r["parent_envs"] == 0 for r in report["results"] if r not in parent)
    for r in report["results"]:
        assert r["env_steps"] > 0
        assert r["steps_per_s"] == pytest.approx(r["env_steps"] / r["elapsed_s"])
        assert r["pct_of_bound"] == pytest.approx(100 * r["steps_per_s"] / r["bound_steps_per_s"])
        assert r["observation_shape"] == [4]  # the same workload as the single env's
    assert report["single_env_observation_shape"] == [4]
    assert "another workload" not in err
    single = report["single_env_steps_per_s"]
    cores = report["machine"]["usable_cores"]
    bounds = {r["num_envs"]: r["bound_steps_per_s"] for r in report["results"]}
    assert bounds[1] == pytest.approx(single)
    assert bounds[2] == pytest.approx(single * min(2, cores))


def test_bench_env_without_vector_entry_point_is_skipped_with_a_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "b.json"
    code, out, err = run_cli(
        capsys, "bench", GOOD_ID, *FAST, "--num-envs", "2", "--workers", "1", "--json", str(path)
    )
    assert code == 0
    assert f"{GOOD_ID}: env steps/s" in out
    assert "skipped vector: CliTest/Good-v0 has no vector_entry_point" in err
    report = json.loads(path.read_text())
    assert {r["runtime"] for r in report["results"]} == {"sync", "async", "async+parent"}


@pytest.mark.parametrize("mode", ["SameStep", "disabled", "next_step"])
def test_bench_autoreset_modes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str
) -> None:
    # GoodEnv's episodes last 5 steps, so every mode's reset path runs during the measurement
    path = tmp_path / "b.json"
    code, _, _ = run_cli(
        capsys, "bench", GOOD_ID, *FAST, "--num-envs", "2", "--workers", "1",
        "--autoreset-mode", mode, "--json", str(path),
    )  # fmt: skip
    assert code == 0
    report = json.loads(path.read_text())
    expected = {"samestep": "SameStep", "disabled": "Disabled", "next_step": "NextStep"}
    assert report["autoreset_mode"] == expected[mode.lower()]
    assert all(r["env_steps"] > 0 for r in report["results"])


def test_bench_env_kwargs_reach_the_env(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for kwargs in (["length=3"], ['{"length": 3}']):
        path = tmp_path / "b.json"
        code, _, _ = run_cli(
            capsys, "bench", GOOD_ID, *FAST, "--num-envs", "1", "--workers", "1",
            "--json", str(path), "--env-kwargs", *kwargs,
        )  # fmt: skip
        assert code == 0
        assert json.loads(path.read_text())["env_kwargs"] == {"length": 3}


def test_bench_plot_is_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "scaling.png"
    code, _, err = run_cli(
        capsys, "bench", *FAST, "--num-envs", "1", "2", "--workers", "1", "--plot", str(path)
    )
    assert code == 0
    assert f"plot written to {path}" in err
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_plot_without_matplotlib_still_prints_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    path = tmp_path / "scaling.png"
    code, out, err = run_cli(
        capsys, "bench", *FAST, "--num-envs", "1", "--workers", "1", "--plot", str(path)
    )
    assert code == 2
    assert "CartPole-v1: env steps/s" in out
    assert PLOT_EXTRA_MSG in err
    assert 'pip install "vecgym[plot]"' in err
    assert not path.exists()


def test_bench_without_rich_prints_plain_lines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)
    code, out, err = run_cli(capsys, "bench", *FAST, "--num-envs", "1", "--workers", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("CartPole-v1: env steps/s")
    assert lines[1].split() == ["num_envs", "runtime", "workers", "steps/s", "bound", "%", "of",
                                "bound", "x", "sync"]  # fmt: skip
    assert set(lines[2]) <= {"-", " "}
    assert [line.split()[1] for line in lines[3:6]] == ["sync", "async", "vector"]
    assert "[4/4] vector num_envs=1" in err


@pytest.mark.slow
def test_bench_compare_adds_installed_peers_and_notes_the_rest(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("gymnasium")
    monkeypatch.setitem(sys.modules, "pufferlib", None)  # installed or not: noted as missing
    path = tmp_path / "b.json"
    code, out, err = run_cli(
        capsys, "bench", *FAST, "--num-envs", "2", "--workers", "1", "--compare",
        "--max-processes", "1", "--json", str(path),
    )  # fmt: skip
    assert code == 0
    report = json.loads(path.read_text())
    runtimes = {r["runtime"] for r in report["results"]}
    assert {"gymnasium-sync", "gymnasium-vector"} <= runtimes
    # one process per env above --max-processes: skipped, and said so
    assert "gymnasium-async" not in runtimes
    assert "skipped gymnasium-async num_envs>1: one process per env" in err
    assert "skipped pufferlib-serial: PufferLib is not installed (pip install pufferlib)" in err
    try:
        import stable_baselines3  # noqa: F401
    except ImportError:
        assert "SB3 is not installed" in err
    else:
        assert "sb3-dummy" in runtimes
    assert "gymnasium-sync" in out


def test_bench_compare_skips_ids_gymnasium_does_not_know(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("gymnasium")
    code, _, err = run_cli(
        capsys, "bench", GOOD_ID, *FAST, "--num-envs", "1", "--workers", "1", "--compare"
    )
    assert code == 0
    assert "skipped gymnasium-sync: Gymnasium has no env 'CliTest/Good-v0'" in err


# --- autotune -------------------------------------------------------------------------------------
def test_autotune_prints_valid_code_that_builds_the_winner(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(
        capsys, "autotune", "CartPole-v1", *FAST, "--workers", "1", "2", "--envs-per-worker", "1"
    )
    assert code == 0
    assert "autotune CartPole-v1" in out
    assert "Fastest AsyncVectorEnv here:" in out
    snippet = out.split(CODE_HEADER, 1)[1]
    compile(snippet, "<autotune snippet>", "exec")
    assert 'vectorization_mode="async"' in snippet
    assert '"num_workers":' in snippet
    assert "single env" in err


def test_autotune_fixed_num_envs_and_env_kwargs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys, "autotune", GOOD_ID, *FAST, "--workers", "2", "--num-envs", "2",
        "--env-kwargs", "length=3",
    )  # fmt: skip
    assert code == 0
    snippet = out.split(CODE_HEADER, 1)[1]
    compile(snippet, "<autotune snippet>", "exec")
    assert "num_envs=2," in snippet
    assert '**{"length": 3}' in snippet
    assert "vector_entry_point" not in snippet  # GoodEnv has no vectorised version


def test_autotune_grid_has_whole_worker_batches() -> None:
    # each layout also with the parent as one more stepper: an equal share of the envs (full and
    # workers-only batches), then 3/4 and 1/2 of that share (full batches)
    assert grid([1, 2], [4], None) == [
        Candidate(1, 4, 4),
        Candidate(1, 4, 4, parent_envs=2),
        Candidate(1, 4, 2, parent_envs=2),
        Candidate(1, 4, 4, parent_envs=1),
        Candidate(2, 8, 8),
        Candidate(2, 8, 4),
        Candidate(2, 8, 8, parent_envs=3),
        Candidate(2, 8, 5, parent_envs=3),
        Candidate(2, 8, 8, parent_envs=2),
        Candidate(2, 8, 8, parent_envs=1),
    ]
    # num_envs fixed; workers capped at num_envs (and at the envs the parent leaves them)
    assert grid([1, 4], [8], 2) == [
        Candidate(1, 2, 2),
        Candidate(1, 2, 2, parent_envs=1),
        Candidate(1, 2, 1, parent_envs=1),
        Candidate(2, 2, 2),
        Candidate(2, 2, 1),
    ]
    assert grid([3], [1], 1) == [Candidate(1, 1, 1)]  # one env: nothing for the parent to take


def _built_layout(snippet: str, namespace: dict[str, Any]) -> tuple[Any, ...]:
    """Run an autotune snippet; the layout of the env it built and its observation shape."""
    exec(snippet, namespace)
    envs = namespace["envs"]
    try:
        obs, _ = envs.reset(seed=0)
        return envs.num_envs, envs.num_workers, envs.batch_size, envs.parent_envs, obs.shape
    finally:
        envs.close()


def test_autotune_snippets_build_working_envs() -> None:
    namespace: dict[str, Any] = {}
    exec(vector_snippet("CartPole-v1", {}, 3), {"vecgym": vecgym}, namespace)
    assert namespace["envs"].num_envs == 3
    namespace["envs"].close()
    best = Candidate(num_workers=1, num_envs=2, batch_size=1)
    assert _built_layout(async_snippet(GOOD_ID, {"length": 3}, best), namespace) == (
        2, 1, 1, 0, (2, 2)
    )  # fmt: skip
    with_parent = Candidate(num_workers=1, num_envs=4, batch_size=4, parent_envs=2)
    snippet = async_snippet(GOOD_ID, {}, with_parent)
    assert "lose crash isolation" in snippet
    assert _built_layout(snippet, namespace) == (4, 1, 4, 2, (4, 2))


# --- list -----------------------------------------------------------------------------------------
def test_list_shows_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "list")
    assert code == 0
    assert "CartPole-v1" in out
    assert "FrozenLake-v1" in out
    assert "=====" in out  # grouped like pprint_registry


def test_list_filters_and_prints_ids(capsys: pytest.CaptureFixture[str]) -> None:
    """The ids of the registry, Gymnasium's included (as ``vecgym.make`` reaches them)."""
    code, out, _ = run_cli(capsys, "list", "cartpole", "--ids")
    assert code == 0
    expected = sorted(i for i in vecgym.registry if "cartpole" in i.lower())
    assert out.split() == expected
    assert {"CartPole-v0", "CartPole-v1"} <= set(expected)


def test_list_with_no_match_fails(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "list", "no-such-env-anywhere")
    assert code == 1
    assert "no registered env id contains 'no-such-env-anywhere'" in err


# --- check ----------------------------------------------------------------------------------------
def test_check_a_good_env_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "check", GOOD_ID)
    assert code == 0
    assert "reset returns (obs, info)" in out
    assert "PASSED" in out
    assert "FAILED" not in out
    assert f"{GOOD_ID}: 12 passed, 0 warned, 0 failed, 0 not run" in out
    assert "render checks skipped" in err  # a note: stderr


def test_check_reports_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "check", WARNED_ID)
    assert code == 0
    assert "WARNED" in out
    assert "infinity" in out
    assert "1 warned, 0 failed" in out


def test_check_a_broken_env_fails_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "check", BROKEN_ID)
    assert code == 1
    assert "FAILED" in out
    assert "NOT RUN" in out
    assert "AssertionError" in out
    assert "1 failed" in out


def test_check_render_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "check", GOOD_ID, "--render")
    assert code == 0
    assert "render in every declared mode" in out
    assert "render checks skipped" not in out + err


def test_check_env_kwargs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "check", GOOD_ID, "--env-kwargs", '{"length": 1}')
    assert code == 0
    assert "0 failed" in out


def test_check_env_that_cannot_be_built(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "check", GOOD_ID, "--env-kwargs", "no_such_kwarg=1")
    assert code == 1
    assert "FAILED to build the env: TypeError" in out


# --- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["bench", "autotune", "check"])
def test_unknown_env_id_suggests_the_right_one(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, err = run_cli(capsys, command, "CartPol-v1", *(FAST if command != "check" else []))
    assert code == 2
    assert "unknown env id 'CartPol-v1'" in err
    assert NAME_SUGGESTION_MSG.format(suggestion="CartPole") in err
    assert out == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required: COMMAND"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["bench", "--seconds", "0"], "must be a number > 0, got '0'"),
        (["bench", "--seconds", "soon"], "must be a number > 0, got 'soon'"),
        (["bench", "--num-envs", "0"], "must be an integer >= 1, got '0'"),
        (["bench", "--repeats", "-1"], "must be an integer >= 1, got '-1'"),
        (["bench", "--workers", "two"], "must be an integer >= 1, got 'two'"),
        (["bench", "--autoreset-mode", "sometimes"], "must be one of Disabled, NextStep, SameStep"),
        (["bench", "--env-kwargs", "[1, 2]"], "must be a JSON object or key=value pairs"),
        (["bench", "--env-kwargs", "{not json"], "must be a JSON object"),
        (["bench", "--env-kwargs", "1x=2"], "must be a JSON object or key=value pairs, got '1x=2'"),
        (["autotune"], "the following arguments are required: env_id"),
        (["check"], "the following arguments are required: env_id"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: vecgym" in err
    assert message in err


# --- entry points ---------------------------------------------------------------------------------
def test_python_m_vecgym_help() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "vecgym", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.startswith("usage: vecgym")
    for command in ("bench", "autotune", "list", "check"):
        assert command in done.stdout


def test_python_m_vecgym_runs_a_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "vecgym", "list", "frozen", "--ids"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stdout.split() == ["FrozenLake-v1", "FrozenLake8x8-v1"]


def test_console_script_is_declared() -> None:
    tomllib = pytest.importorskip("tomllib")
    pyproject = Path(vecgym.__file__).parent.parent / "pyproject.toml"
    config = tomllib.loads(pyproject.read_text())
    assert config["project"]["scripts"]["vecgym"] == "vecgym.cli:main"
    extras = config["project"]["optional-dependencies"]
    assert any(dep.startswith("rich") for dep in extras["bench"])
    assert any(dep.startswith("matplotlib") for dep in extras["plot"])


# --- EnvPool as a --compare peer ------------------------------------------------------------------
def test_envpool_ids_map_gymnasium_ids_or_are_unavailable() -> None:
    from vecgym.cli.runtimes import NO_ENVPOOL_ID_MSG, Unavailable, envpool_id

    known = ["Pong-v5", "HalfCheetah-v5", "CartPole-v1"]
    assert envpool_id("ALE/Pong-v5", known) == "Pong-v5"
    assert envpool_id("HalfCheetah-v5", known) == "HalfCheetah-v5"
    with pytest.raises(Unavailable, match=re.escape(NO_ENVPOOL_ID_MSG.format(env_id="Ant-v9"))):
        envpool_id("Ant-v9", known)


@pytest.mark.parametrize("name", ["envpool-sync", "envpool-async"])
def test_envpool_runtimes_step_cartpole(name: str) -> None:
    pytest.importorskip("envpool")
    from vecgym.cli.measure import measure_stepper
    from vecgym.cli.runtimes import BenchTarget, compare_runtimes

    runtime = next(r for r in compare_runtimes() if r.name == name)
    stepper, actions = runtime.build(BenchTarget("CartPole-v1"), 4, None)
    try:
        measurement = measure_stepper(stepper, actions, 0.05)
    finally:
        stepper.close()
    assert stepper.num_envs == 4
    assert measurement.env_steps > 0


def test_envpool_async_counts_only_real_steps() -> None:
    pytest.importorskip("envpool")
    from vecgym.cli.measure import COUNT_SELF
    from vecgym.cli.runtimes import BenchTarget, compare_runtimes

    runtime = next(r for r in compare_runtimes() if r.name == "envpool-async")
    stepper, actions = runtime.build(BenchTarget("CartPole-v1"), 4, None)
    try:
        assert stepper.counting == COUNT_SELF
        stepper.reset(0)  # receives the resets of envs 0 and 1
        # envs 0 and 1 step; the batch received holds the resets of envs 2 and 3: no env step
        assert stepper.step(actions[0]) == 0
        assert stepper.step(actions[1]) == 2  # the steps of envs 0 and 1
        # 2 envs a batch; every CartPole episode ends within 500 steps and costs one reset, not
        # counted (random actions end one in about 20)
        calls = 1000
        counted = sum(stepper.step(actions[i % len(actions)]) for i in range(calls))
    finally:
        stepper.close()
    assert 0.8 * 2 * calls < counted < 2 * calls


def test_envpool_runtime_skips_kwargs_and_other_autoreset_modes() -> None:
    pytest.importorskip("envpool")
    from vecgym.cli.runtimes import (
        ENVPOOL_AUTORESET_MSG,
        ENVPOOL_KWARGS_MSG,
        BenchTarget,
        Unavailable,
        compare_runtimes,
    )

    runtime = next(r for r in compare_runtimes() if r.name == "envpool-sync")
    kwargs = {"max_episode_steps": 5}
    with pytest.raises(Unavailable, match=re.escape(ENVPOOL_KWARGS_MSG.format(kwargs=kwargs))):
        runtime.build(BenchTarget("CartPole-v1", kwargs), 2, None)
    with pytest.raises(Unavailable, match=re.escape(ENVPOOL_AUTORESET_MSG.format(mode="SameStep"))):
        runtime.build(BenchTarget("CartPole-v1", autoreset_mode="SameStep"), 2, None)


def test_runtimes_report_one_envs_observation_shape_and_envpool_atari_differs() -> None:
    pytest.importorskip("envpool")
    pytest.importorskip("ale_py", reason="Atari envs need the `atari` extra")
    from vecgym.cli.runtimes import BenchTarget, compare_runtimes, vecgym_runtimes

    runtimes = {runtime.name: runtime for runtime in [*vecgym_runtimes(), *compare_runtimes()]}
    shapes = {}
    for name in ("sync", "envpool-sync"):
        stepper, _ = runtimes[name].build(BenchTarget("ALE/Pong-v5"), 2, None)
        stepper.close()
        shapes[name] = stepper.observation_shape
    assert shapes == {"sync": (210, 160, 3), "envpool-sync": (4, 84, 84)}


def test_other_workload_note_names_the_runtimes_whose_observation_shape_differs() -> None:
    from vecgym.cli.bench import OTHER_WORKLOAD_MSG, other_workload_note

    def row(runtime: str, shape: list[int] | None) -> dict[str, Any]:
        return {"runtime": runtime, "observation_shape": shape}

    report: dict[str, Any] = {
        "single_env_observation_shape": [210, 160, 3],
        "results": [
            row("sync", [210, 160, 3]),
            row("envpool-sync", [4, 84, 84]),
            row("sb3-dummy", None),  # says nothing: not flagged
            row("vector", [4, 84, 84]),
            row("envpool-sync", [4, 84, 84]),  # another num_envs: named once
        ],
    }
    assert other_workload_note(report) == OTHER_WORKLOAD_MSG.format(
        runtimes="envpool-sync, vector", shapes="(4, 84, 84)", single=(210, 160, 3)
    )
    report["results"] = report["results"][:1]
    assert other_workload_note(report) is None
    report["single_env_observation_shape"] = None  # a space without a fixed shape
    assert other_workload_note(report) is None
