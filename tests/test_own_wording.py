"""vecgym writes its own messages: no sentence of its text repeats Gymnasium's or SB3's wording.

vecgym matches Gymnasium's exception types and warning categories, not its wording (see
CHANGELOG, "Differs from Gymnasium on purpose"). This test reads every string literal of the
package, cuts it at its format fields (``{...}``) and looks for each piece of prose, whitespace
folded, in the source of the installed Gymnasium and SB3. A piece is prose when it has at least
``MIN_CHARS`` characters and ``MIN_WORDS`` words and is not a Python expression; names, entry
points, module paths and types written as strings are not prose. The few pieces that must repeat
another library's text because code compares against it are listed in ``FUNCTIONAL`` with the
reason.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import vecgym

PACKAGE_DIR = Path(vecgym.__file__).parent
#: The libraries whose text vecgym must not repeat, where they are installed.
PEERS = ("gymnasium", "stable_baselines3")
MIN_CHARS = 28
MIN_WORDS = 4

#: (module below ``vecgym/``, piece) pairs that repeat another library's text on purpose.
FUNCTIONAL: dict[tuple[str, str], str] = {
    (
        "envs/registration.py",
        "got an unexpected keyword argument 'render_mode'",
    ): "Python's own TypeError text, matched to tell a creator without `render_mode` apart",
}

_FOLD = re.compile(r"\s+")
_FIELD = re.compile(r"\{[^{}]*\}")


def _fold(text: str) -> str:
    return _FOLD.sub(" ", text).strip()


def _peer_text() -> str:
    chunks = []
    for name in PEERS:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        for location in spec.submodule_search_locations:
            chunks.extend(path.read_text(errors="ignore") for path in Path(location).rglob("*.py"))
    if not chunks:
        pytest.skip("neither Gymnasium nor SB3 is installed")
    return _fold(" ".join(chunks))


def _prose(path: Path) -> Iterator[tuple[int, str]]:
    """Every piece of prose in ``path``'s string literals, with its line."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        # The literal parts of an f-string are Constant nodes of their own, so one test covers both.
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        for piece in _FIELD.split(node.value):
            folded = _fold(piece)
            prose = len(folded) >= MIN_CHARS and len(folded.split(" ")) >= MIN_WORDS
            if prose and not _is_code(folded):
                yield node.lineno, folded


def _is_code(piece: str) -> bool:
    """A Python expression (a type in a string, a generated call) is code, not prose."""
    try:
        ast.parse(piece, mode="eval")
    except SyntaxError:
        return False
    return True


@pytest.fixture(scope="module")
def peer_text() -> str:
    return _peer_text()


@pytest.fixture(scope="module")
def package_prose() -> list[tuple[str, int, str]]:
    """``(module below vecgym/, line, piece)`` for every piece of prose in the package."""
    return [
        (path.relative_to(PACKAGE_DIR).as_posix(), line, piece)
        for path in sorted(PACKAGE_DIR.rglob("*.py"))
        for line, piece in _prose(path)
    ]


def test_no_message_repeats_a_peer_library(
    peer_text: str, package_prose: list[tuple[str, int, str]]
) -> None:
    found = [
        (module, line, piece)
        for module, line, piece in package_prose
        if piece in peer_text and (module, piece) not in FUNCTIONAL
    ]
    listing = "\n".join(
        f"  vecgym/{module}:{line}: {piece[:100]!r}" for module, line, piece in found
    )
    assert not found, f"{len(found)} pieces of text repeat Gymnasium's or SB3's wording:\n{listing}"


def test_every_functional_exception_is_still_needed(
    peer_text: str, package_prose: list[tuple[str, int, str]]
) -> None:
    pieces = {(module, piece) for module, _, piece in package_prose}
    stale = [key for key in FUNCTIONAL if key not in pieces or key[1] not in peer_text]
    assert not stale, f"FUNCTIONAL lists text that the package or its peers no longer have: {stale}"


def test_the_scan_finds_a_repeated_sentence(peer_text: str, tmp_path: Path) -> None:
    """The scan itself works: a module that repeats a Gymnasium message is caught."""
    pytest.importorskip("gymnasium")
    sample = tmp_path / "sample.py"
    sample.write_text(
        'MSG = "Cannot call env.step() before calling env.reset()"\n'
        'OWN = f"a sentence of vecgym\'s own about {1} that no peer wrote"\n'
    )
    pieces = [piece for _, piece in _prose(sample)]
    assert [piece in peer_text for piece in pieces] == [True, False]
