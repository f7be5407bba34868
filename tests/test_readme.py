"""The README's Python examples run as written."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from vecgym.vector import VectorEnv

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 5


IMPORTED = re.compile(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", flags=re.MULTILINE)


# Env ids that need a package the block does not import: Atari ids (ale-py, reached through
# Gymnasium's registry) and MuJoCo's.
NEEDED_BY_IDS = {'"ALE/': ("ale_py", "gymnasium"), '"HalfCheetah-': ("mujoco", "gymnasium")}


def _missing_packages(block: str) -> list[str]:
    """Top-level packages a block imports or makes envs from that are not installed (optional
    dependencies)."""
    needed = set(IMPORTED.findall(block))
    for marker, packages in NEEDED_BY_IDS.items():
        if marker in block:
            needed.update(packages)
    return sorted(name for name in needed if importlib.util.find_spec(name) is None)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    """Each block runs to its end, prints one line per ``print`` and closes its vector envs."""
    block = BLOCKS[index]
    missing = _missing_packages(block)
    if missing:
        pytest.skip(f"README block {index} needs {', '.join(missing)}: not installed")
    namespace: dict[str, object] = {"__name__": "__readme__"}
    exec(compile(block, f"README.md block {index}", "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == len(re.findall(r"^\s*print\(", block, flags=re.MULTILINE))
    assert all(line.strip() for line in printed)
    vector_envs = [value for value in namespace.values() if isinstance(value, VectorEnv)]
    assert [env for env in vector_envs if not env.closed] == []


def test_readme_commands_are_the_ci_commands() -> None:
    """The README's first two commands; .ci/run runs the test command verbatim."""
    commands = re.findall(r"```bash\n(.*?)\n```", README.read_text(), flags=re.DOTALL)[:2]
    assert commands == [
        'python -m pip install -e ".[bench]" && vecgym bench',
        'python -m pip install -e ".[test]" && python -m pytest',
    ]
    ci = (README.parent / ".ci" / "run").read_text()
    assert commands[1] in ci
