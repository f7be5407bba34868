"""Generate the environment gallery: a page and an animated GIF per built-in environment.

At the start of a build, every environment registered by vecgym itself (entry point under
``vecgym.envs``) is grouped by its class; each class gets ``docs/envs/<name>.rst`` with a GIF
that vecgym renders (``render_mode="rgb_array"``, a seeded random policy, frames written with
Pillow), the spaces of a live instance, the registered ids with their settings, the class's own
description (actions, observation, reward, start, end) and the version history. ``docs/envs/
index.rst`` holds the table of every registered id. GIFs are redrawn only when missing or older
than the environment's source file, and are kept small (a few dozen frames, 240 pixels wide).
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

if str(Path(__file__).resolve().parent) not in sys.path:  # loaded by path (tests), not by Sphinx
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from vecgym_apiref import write_pages  # the sibling extension's page writer

DOCS = Path(__file__).resolve().parent.parent
OUTPUT = DOCS / "envs"
GIF_WIDTH = 240
MAX_FRAMES = 48
MAX_FPS = 25

# What changed between versions (the same history as Gymnasium's environments).
VERSION_HISTORY: dict[str, list[str]] = {
    "CartPoleEnv": [
        "v1: episodes are truncated after 500 steps (v0: 200). The ``sutton_barto_reward`` "
        "argument (Gymnasium 1.0) selects the original reward formulation.",
        "v0: the first version.",
    ],
    "AcrobotEnv": [
        "v1: episodes are truncated after 500 steps (v0: 200), and the observation gives the "
        "sine and cosine of both joint angles instead of the angles themselves.",
        "v0: the first version.",
    ],
    "MountainCarEnv": ["v0: the first version."],
    "Continuous_MountainCarEnv": ["v0: the first version."],
    "PendulumEnv": [
        "v1: the equations of motion were simplified; the behaviour is unchanged.",
        "v0: the first version.",
    ],
    "BlackjackEnv": ["v1: natural blackjacks are handled correctly.", "v0: the first version."],
    "CliffWalkingEnv": [
        "v1: a slippery variant (``is_slippery=True``, registered as CliffWalkingSlippery-v1).",
        "v0: the first version.",
    ],
    "FrozenLakeEnv": [
        "v1: reward fixes; the rewards can be customised (Gymnasium 1.3).",
        "v0: the first version.",
    ],
    "TaxiEnv": [
        "v4: the rainy and fickle-passenger options behave as described, with "
        "``rainy_probability`` and ``fickle_probability`` to tune them (Gymnasium 1.3).",
        "v3: corrected map and description; action masks in the infos; the ``is_rainy`` and "
        "``fickle_passenger`` options of Dietterich (2000).",
        "v2: the taxi never starts at the destination; new reward threshold.",
        "v1: one passenger location removed.",
        "v0: the first version.",
    ],
}


@dataclass
class EnvFamily:
    """The registered ids that share one environment class."""

    entry_point: str
    ids: list[str]

    @property
    def cls(self) -> type:
        module, name = self.entry_point.split(":")
        return getattr(importlib.import_module(module), name)

    @property
    def _words(self) -> list[str]:
        name = self.cls.__name__.removesuffix("Env").replace("_", "")
        return re.findall(r"[A-Z][a-z0-9]*", name)

    @property
    def slug(self) -> str:
        return "_".join(self._words).lower()

    @property
    def title(self) -> str:
        return " ".join(self._words)

    @property
    def primary(self) -> str:
        """The id shown in the picture: the newest version, the first registered on ties."""
        return max(self.ids, key=lambda i: (int(i.rsplit("-v", 1)[1]), -self.ids.index(i)))

    @property
    def group(self) -> str:
        return self.entry_point.split(":")[0].split(".")[2]


def families() -> list[EnvFamily]:
    """The built-in environments, one family per class, in registry order."""
    import vecgym

    found: dict[str, EnvFamily] = {}
    for env_id, spec in vecgym.registry.own_specs().items():
        entry = spec.entry_point
        if isinstance(entry, str) and entry.startswith("vecgym.envs."):
            found.setdefault(entry, EnvFamily(entry, [])).ids.append(env_id)
    return sorted(found.values(), key=lambda f: (f.group, f.title))


def render_frames(env_id: str, seed: int = 0) -> tuple[list[np.ndarray], float]:
    """Frames of a seeded random policy (resetting when an episode ends) and the frame rate."""
    import vecgym

    env = vecgym.make(env_id, render_mode="rgb_array")
    fps = float(env.metadata.get("render_fps") or 30)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    frames = [env.render()]
    for _ in range(MAX_FRAMES - 1):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        frames.append(env.render())
        if terminated or truncated:
            env.reset()
    env.close()
    return [np.asarray(f) for f in frames], min(fps, MAX_FPS)


def write_gif(path: Path, frames: list[np.ndarray], fps: float) -> None:
    """Save ``frames`` as a looping GIF, ``GIF_WIDTH`` pixels wide, with one shared palette."""
    from PIL import Image

    images = []
    for frame in frames:
        image = Image.fromarray(frame.astype(np.uint8))
        height = round(image.height * GIF_WIDTH / image.width)
        images.append(image.resize((GIF_WIDTH, height), Image.Resampling.LANCZOS))
    palette = images[len(images) // 2].quantize(colors=64)
    quantized = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in images]
    path.parent.mkdir(parents=True, exist_ok=True)
    quantized[0].save(
        path,
        save_all=True,
        append_images=quantized[1:],
        duration=round(1000 / fps),
        loop=0,
        optimize=True,
    )


def ensure_gif(family: EnvFamily, out: Path = OUTPUT) -> Path:
    """The family's GIF (of its first id), redrawn if missing or older than its source."""
    path = out / "_gifs" / f"{family.slug}.gif"
    source = Path(inspect.getfile(family.cls))
    if not path.exists() or path.stat().st_mtime < source.stat().st_mtime:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. a warning about the random policy's steps
            frames, fps = render_frames(family.primary)
        write_gif(path, frames, fps)
    return path


def _title(text: str, underline: str) -> list[str]:
    return [text, underline * len(text), ""]


def _table(header: list[str] | None, rows: list[list[str]]) -> list[str]:
    lines = [".. list-table::", f"   :header-rows: {0 if header is None else 1}", ""]
    for row in rows if header is None else [header, *rows]:
        lines.append(f"   * - {row[0]}")
        lines += [f"     - {cell}" for cell in row[1:]]
    return [*lines, ""]


def _spec_row(env_id: str) -> list[str]:
    import vecgym
    from vecgym.core.registration import vector_entry_point_of

    spec = vecgym.spec(env_id)
    kwargs = ", ".join(f"{k}={v!r}" for k, v in spec.kwargs.items()) or "-"
    steps = "-" if spec.max_episode_steps is None else str(spec.max_episode_steps)
    threshold = "-" if spec.reward_threshold is None else str(spec.reward_threshold)
    vector = "yes" if vector_entry_point_of(spec) else "no"
    return [f"``{env_id}``", f"``{kwargs}``", steps, threshold, vector]


SPEC_HEADER = ["id", "kwargs", "max_episode_steps", "reward_threshold", "numpy-vectorised"]


def family_page(family: EnvFamily) -> str:
    """The reST source of one environment's page."""
    import vecgym

    env = vecgym.make(family.primary)
    cls = family.cls
    qualified = f"{cls.__module__}.{cls.__name__}"
    lines = _title(family.title, "=")
    lines += [
        f".. image:: _gifs/{family.slug}.gif",
        f"   :alt: {family.primary} played by a random policy",
        "",
        f"A random policy on ``{family.primary}``, rendered by vecgym "
        '(``render_mode="rgb_array"``) when these pages were built.',
        "",
        *_table(
            None,
            [
                ["Action space", f"``{env.action_space}``"],
                ["Observation space", f"``{env.observation_space}``"],
                ["Make", f"``vecgym.make({family.primary!r})``"],
                ["Class", f":py:class:`{qualified}`"],
            ],
        ),
    ]
    env.close()
    lines += _title("Registered ids", "-")
    lines += _table(SPEC_HEADER, [_spec_row(i) for i in family.ids])
    lines += _title("Description", "-")
    lines += [
        "Spaces, rewards, the start state and when an episode ends, from the class's docstring:",
        "",
        f".. autoclass:: {qualified}",
        "   :no-index:",
        "   :no-members:",
        "",
    ]
    lines += _title("Version history", "-")
    history = VERSION_HISTORY.get(cls.__name__, ["v0: the first version."])
    lines += [f"- {item}" for item in history] + [""]
    return "\n".join(lines) + "\n"


GRID_COLUMNS = 3


def _picture_grid(members: list[EnvFamily]) -> list[str]:
    """A table of pictures, ``GRID_COLUMNS`` a row, each linking to its env's page."""
    lines = [".. list-table::", "   :class: vecgym-gallery", ""]
    for start in range(0, len(members), GRID_COLUMNS):
        row = members[start : start + GRID_COLUMNS]
        cells = [_picture_cell(family) for family in row]
        cells += [["\\ "]] * (GRID_COLUMNS - len(row))  # an empty cell
        for column, cell in enumerate(cells):
            bullet = "   * - " if column == 0 else "     - "
            lines.append(bullet + cell[0])
            lines += [("       " + line) if line else "" for line in cell[1:]]
    return [*lines, ""]


def _picture_cell(family: EnvFamily) -> list[str]:
    return [
        f".. image:: _gifs/{family.slug}.gif",
        f"   :target: {family.slug}.html",
        f"   :alt: {family.title}",
        "   :width: 100%",
        "",
        f":doc:`{family.slug}`",
    ]


def index_page(all_families: list[EnvFamily]) -> str:
    """The gallery's front page: pictures, the table of registered ids, the toctree."""
    import vecgym

    lines = _title("Environment gallery", "=")
    lines += [
        "The environments that ship with vecgym, each the same step for step and seed for seed as",
        "Gymnasium's, and each with a numpy-vectorised version "
        '(``vectorization_mode="vector_entry_point"``). Without a ``vectorization_mode``,',
        "``make_vec`` builds what Gymnasium's does: the numpy-vectorised env for CartPole, a",
        "``SyncVectorEnv`` for the others.",
        "",
    ]
    groups: dict[str, list[EnvFamily]] = {}
    for family in all_families:
        groups.setdefault(family.group, []).append(family)
    for group, members in groups.items():
        lines += _title(group.replace("_", " ").title(), "-")
        lines += _picture_grid(members)
    lines += _title("Registered ids", "-")
    rows = []
    for family in all_families:
        for env_id in family.ids:
            rows.append([*_spec_row(env_id), f":doc:`{family.slug}`"])
    lines += _table([*SPEC_HEADER, "page"], rows)
    lines += [f"``vecgym.pprint_registry()`` prints the {len(vecgym.registry)} registered ids.", ""]
    lines += [".. toctree::", "   :hidden:", ""]
    lines += [f"   {family.slug}" for family in all_families] + [""]
    return "\n".join(lines) + "\n"


def build(out: Path = OUTPUT) -> None:
    """Write every page and GIF of the gallery (only files whose content changed)."""
    all_families = families()
    pages = {"index.rst": index_page(all_families)}
    for family in all_families:
        ensure_gif(family, out)
        pages[f"{family.slug}.rst"] = family_page(family)
    write_pages(pages, out)


def _generate(app: Any) -> None:
    build()


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
