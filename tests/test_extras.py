"""vecgym's extras for the real envs bring what Gymnasium's env code imports, and nothing that
clashes with Gymnasium's own extras (read from the installed distributions' metadata).

``.ci/run``'s extras pass runs ``tests/support/extras_check.py`` in a venv of the extras alone; here
it runs in the test venv, and the metadata tests below check the requirements themselves, for the
installed Gymnasium and this Python.
"""

from __future__ import annotations

import importlib.metadata

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.support.extras_check import PYGAME_DISTRIBUTIONS
from tests.support.processes import installed, run_support_script

#: vecgym's extras for the families of real envs that run through Gymnasium's registry, each with
#: Gymnasium's extra of the same name.
FAMILIES = ("atari", "mujoco", "box2d")


def _requirements(distribution: str) -> list[Requirement]:
    return [Requirement(line) for line in importlib.metadata.requires(distribution) or []]


def brought(distribution: str, extra: str) -> set[str]:
    """The (canonical) names of the distributions that ``distribution[extra]`` requires on this
    Python, following the extras it asks of installed distributions (``gymnasium[mujoco]``,
    ``vecgym[atari]``, ...)."""
    names: set[str] = set()
    seen: set[tuple[str, str]] = set()
    pending = [(distribution, extra)]
    while pending:
        name, wanted = pending.pop()
        if (name, wanted) in seen:
            continue
        seen.add((name, wanted))
        for requirement in _requirements(name):
            marker = requirement.marker
            if marker is not None and not marker.evaluate({"extra": wanted}):
                continue
            if marker is None and wanted and name == distribution:
                continue  # the distribution's own dependencies, not the extra's
            required = canonicalize_name(requirement.name)
            names.add(required)
            if installed(required):
                pending.extend((required, asked) for asked in requirement.extras)
    return names


def _extras(distribution: str) -> list[str]:
    return importlib.metadata.metadata(distribution).get_all("Provides-Extra") or []


@pytest.fixture(autouse=True)
def _metadata() -> None:
    for distribution in ("vecgym", "gymnasium"):
        if not installed(distribution):
            pytest.skip(f"{distribution} is not installed as a distribution (pip install -e .)")


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_extra_brings_everything_gymnasium_s_extra_names(family: str) -> None:
    needed = brought("gymnasium", family)
    assert needed, f"gymnasium[{family}] names no distribution on this Python"
    missing = needed - brought("vecgym", family)
    assert not missing, f"vecgym[{family}] lacks {sorted(missing)}, which gymnasium[{family}] names"


def test_no_two_extras_bring_both_pygame_distributions() -> None:
    # pygame and pygame-ce install the same `pygame` module over each other's files: vecgym's
    # extras (human, box2d) must name the one Gymnasium's extras name.
    pygames: dict[str, set[str]] = {}
    for distribution in ("vecgym", "gymnasium"):
        for extra in _extras(distribution):
            for name in brought(distribution, extra) & PYGAME_DISTRIBUTIONS:
                pygames.setdefault(name, set()).add(f"{distribution}[{extra}]")
    assert len(pygames) <= 1, f"both pygame distributions are named: {pygames}"
    assert "pygame-ce" in pygames, pygames  # Gymnasium 1.3 and later: pygame-ce


def test_the_brought_closure_follows_extras_of_extras() -> None:
    # vecgym[test-core] names vecgym[atari,mujoco,box2d], which name gymnasium's extras
    names = brought("vecgym", "test-core")
    assert {"pytest", "gymnasium", "ale-py", "mujoco", "box2d", "pygame-ce"} <= names
    assert "torch" not in names  # the test extra's, not test-core's
    assert canonicalize_name("numpy") not in brought("vecgym", "human")  # a base dependency


def test_the_extras_check_script_passes_here() -> None:
    out = run_support_script(
        "extras_check", needs=("ale-py", "mujoco", "box2d", "pygame-ce", "opencv-python-headless")
    )
    assert "one pygame module: pygame-ce" in out
    assert "ALE/Pong-v5 + AtariPreprocessing + FrameStackObservation(4)" in out
