"""The documentation site's sources: the README's command, the toctree, the gallery."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import vecgym
from tests.docs.test_reference import load_extension

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DOCS_COMMAND = (
    'python -m pip install -e ".[docs]" && python -m sphinx -W -b html docs docs/_build/html'
)


def test_readme_documents_the_docs_command_and_ci_runs_it() -> None:
    commands = re.findall(r"```bash\n(.*?)\n```", (ROOT / "README.md").read_text(), re.DOTALL)
    assert commands[2] == DOCS_COMMAND
    assert DOCS_COMMAND in (ROOT / ".ci" / "run").read_text()


def test_the_docs_extra_has_what_the_build_needs() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = pyproject["project"]["optional-dependencies"]
    names = {re.split(r"[<>=!\[]", requirement)[0] for requirement in extras["docs"]}
    assert {"sphinx", "furo", "myst-parser", "myst-nb", "ipykernel", "pillow"} <= names
    # the guides run SB3, Ray and Gymnasium's Atari / MuJoCo / Box2D envs
    (own,) = (r for r in extras["docs"] if r.startswith("vecgym["))
    assert {"sb3", "ray", "atari", "mujoco", "box2d"} <= set(own[7:-1].split(","))


def test_build_outputs_and_generated_pages_are_ignored() -> None:
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    for path in ["docs/_build/", "docs/jupyter_execute/", "docs/reference/", "docs/envs/"]:
        assert path in ignored


def test_every_guide_is_in_the_toctree() -> None:
    index = (DOCS / "index.md").read_text()
    for guide in sorted((DOCS / "guides").glob("*.md")):
        assert f"\nguides/{guide.stem}\n" in index


def test_guides_are_executed_notebooks() -> None:
    """A guide without the notebook front matter would be shown but not run."""
    for guide in sorted((DOCS / "guides").glob("*.md")):
        text = guide.read_text()
        assert text.startswith("---\nfile_format: mystnb\n"), guide.name
        assert "```{code-cell} python" in text, guide.name


gallery = load_extension("vecgym_gallery")


def test_the_gallery_has_every_built_in_env() -> None:
    families = gallery.families()
    built_in = {
        env_id
        for env_id, spec in vecgym.registry.items()
        if isinstance(spec.entry_point, str) and spec.entry_point.startswith("vecgym.envs.")
    }
    assert {env_id for family in families for env_id in family.ids} == built_in
    assert len({family.slug for family in families}) == len(families)
    assert all(family.cls.__name__ in gallery.VERSION_HISTORY for family in families)


def test_a_gallery_gif_is_animated_and_small(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    frames, fps = gallery.render_frames("CartPole-v1")
    assert len(frames) == gallery.MAX_FRAMES
    assert 0 < fps <= gallery.MAX_FPS
    path = tmp_path / "cart_pole.gif"
    gallery.write_gif(path, frames, fps)
    with image_module.open(path) as image:
        assert image.n_frames > 1
        assert image.width == gallery.GIF_WIDTH
    assert path.stat().st_size < 200_000
    # the frames move: the cart and pole are not drawn in the same place throughout
    assert not all(np.array_equal(frames[0], frame) for frame in frames[1:])


def test_a_gallery_page_shows_spaces_ids_and_history() -> None:
    family = next(f for f in gallery.families() if f.cls.__name__ == "CartPoleEnv")
    page = gallery.family_page(family)
    assert family.primary == "CartPole-v1"
    for text in [
        "_gifs/cart_pole.gif",
        "Discrete(2)",
        "``CartPole-v0``",
        "``CartPole-v1``",
        "Version history",
        "autoclass:: vecgym.envs.classic_control.cartpole.CartPoleEnv",
    ]:
        assert text in page
