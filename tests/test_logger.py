"""``vecgym.logger``: deprecations point at the user's code and show under default filters."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import vecgym
from tests.support.messages import message_pattern
from vecgym.core.registration import OUT_OF_DATE_MSG

OLD_CARTPOLE = message_pattern(OUT_OF_DATE_MSG, env_id="CartPole-v0", latest=1)


def test_deprecation_is_attributed_to_the_first_frame_outside_vecgym() -> None:
    with pytest.warns(DeprecationWarning, match=OLD_CARTPOLE) as record:
        vecgym.make("CartPole-v0").close()  # several vecgym frames down, the warning is raised
    assert [w.filename for w in record] == [__file__]


def _run(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    """``python [flags] -c code`` with Python's default warning filters (no PYTHONWARNINGS)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    return subprocess.run(
        [sys.executable, *flags, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


SCRIPT = """
import vecgym
vecgym.make("CartPole-v0").close()
try:
    vecgym.make("Taxi-v3")
except vecgym.error.DeprecatedEnv as exc:
    print(type(exc).__name__)
"""


def test_a_script_sees_the_deprecation_under_default_filters() -> None:
    result = _run(SCRIPT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "DeprecatedEnv"
    lines = [line for line in result.stderr.splitlines() if "DeprecationWarning" in line]
    assert len(lines) == 2  # CartPole-v0 and Taxi-v3 are old versions, as in Gymnasium
    assert lines[0].startswith("<string>:3: DeprecationWarning: WARN: CartPole-v0 is an old")
    assert lines[1].startswith("<string>:5: DeprecationWarning: WARN: Taxi-v3 is an old")
    assert "Traceback" not in result.stderr


def test_warnings_as_errors_are_honoured() -> None:
    # Gymnasium's import-time filter overrides this flag for its own deprecations; vecgym's do not
    result = _run(SCRIPT, "-W", "error::DeprecationWarning")
    assert result.returncode == 1
    assert "DeprecationWarning: WARN: CartPole-v0 is an old version" in result.stderr
