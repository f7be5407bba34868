"""Write ``docs/_intersphinx/gymnasium.inv``: an offline intersphinx inventory of Gymnasium.

The docs build has no network, so the reference links vecgym's names to Gymnasium's through an
inventory generated here from the installed ``gymnasium`` package: every public name of the
modules below, pointing at the page of https://gymnasium.farama.org/ that documents it (the
anchor is the dotted name, as Sphinx writes it). Run it again after a Gymnasium upgrade::

    python docs/_ext/make_gymnasium_inv.py

and commit the result. The file is Sphinx's inventory format version 2 (a four-line header, then
``name domain:role priority uri dispname`` lines compressed with zlib).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import types
import zlib
from pathlib import Path
from typing import Any

OUTPUT = Path(__file__).resolve().parent.parent / "_intersphinx" / "gymnasium.inv"
BASE = "https://gymnasium.farama.org/"

# Top-level names of ``gymnasium`` and the page that documents each.
TOP_LEVEL_PAGES = {
    "Env": "api/env/",
    "Wrapper": "api/wrappers/",
    "ObservationWrapper": "api/wrappers/observation_wrappers/",
    "ActionWrapper": "api/wrappers/action_wrappers/",
    "RewardWrapper": "api/wrappers/reward_wrappers/",
    "Space": "api/spaces/",
    "make": "api/registry/",
    "make_vec": "api/registry/",
    "spec": "api/registry/",
    "register": "api/registry/",
    "registry": "api/registry/",
    "pprint_registry": "api/registry/",
    "register_envs": "api/registry/",
    "VectorizeMode": "api/registry/",
}

FUNDAMENTAL_SPACES = {"Box", "Discrete", "MultiBinary", "MultiDiscrete", "Text"}

# Names that Gymnasium's modules without ``__all__`` merely import from these are not Gymnasium's
# (``typing.Any`` in ``gymnasium.utils.env_checker``, ``from __future__ import annotations``);
# their kind changes between Python versions (``typing.Any`` is a class from 3.11 on).
FOREIGN_MODULES = {"typing", "collections.abc", "__future__"}

# Where a single-env wrapper is documented, by the module that defines it.
WRAPPER_PAGES = {
    "transform_observation": "api/wrappers/observation_wrappers/",
    "stateful_observation": "api/wrappers/observation_wrappers/",
    "transform_action": "api/wrappers/action_wrappers/",
    "stateful_action": "api/wrappers/action_wrappers/",
    "transform_reward": "api/wrappers/reward_wrappers/",
    "stateful_reward": "api/wrappers/reward_wrappers/",
}

VECTOR_PAGES = {
    "SyncVectorEnv": "api/vector/sync_vector_env/",
    "AsyncVectorEnv": "api/vector/async_vector_env/",
}


def _public_names(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    return [n for n in names if not inspect.ismodule(vars(module).get(n))]


def _role(obj: Any) -> str:
    if isinstance(obj, types.GenericAlias) or type(obj).__module__ == "typing":
        return "data"  # a type alias (Python 3.10 takes ``tuple[int]`` for a class)
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "data"


def _page(module_name: str, name: str, obj: Any) -> str | None:
    if module_name == "gymnasium":
        return TOP_LEVEL_PAGES.get(name)
    if module_name == "gymnasium.spaces":
        if name == "Space":
            return "api/spaces/"
        if name in FUNDAMENTAL_SPACES:
            return "api/spaces/fundamental/"
        if inspect.isclass(obj):
            return "api/spaces/composite/"
        return "api/spaces/utils/"
    if module_name == "gymnasium.wrappers":
        home = str(getattr(obj, "__module__", "")).rsplit(".", 1)[-1]
        return WRAPPER_PAGES.get(home, "api/wrappers/misc_wrappers/")
    if module_name == "gymnasium.wrappers.vector":
        return "api/wrappers/vector_wrappers/"
    if module_name == "gymnasium.vector":
        return VECTOR_PAGES.get(name, "api/vector/")
    if module_name == "gymnasium.vector.utils":
        return "api/vector/utils/"
    if module_name.startswith("gymnasium.utils"):
        return "api/utils/"
    if module_name == "gymnasium.envs.registration":
        return "api/registry/"
    if module_name == "gymnasium.experimental.functional":
        return "api/functional/"
    return None


MODULES = [
    "gymnasium",
    "gymnasium.spaces",
    "gymnasium.wrappers",
    "gymnasium.wrappers.vector",
    "gymnasium.vector",
    "gymnasium.vector.utils",
    "gymnasium.utils",
    "gymnasium.utils.env_checker",
    "gymnasium.utils.passive_env_checker",
    "gymnasium.utils.performance",
    "gymnasium.utils.seeding",
    "gymnasium.utils.step_api_compatibility",
    "gymnasium.utils.save_video",
    "gymnasium.envs.registration",
    "gymnasium.experimental.functional",
]

# Modules read from their source rather than imported, with the names that Gymnasium's site
# documents: importing ``gymnasium.utils.play`` imports pygame and switches matplotlib's backend
# to TkAgg, which the process building the docs (or running the tests) must not inherit.
SOURCE_MODULES = {"gymnasium.utils.play": ("play", "PlayPlot", "PlayableGame")}


def _source_entries(module_name: str, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(name, role)`` of the functions and classes among ``names`` defined in the module's
    source, found without importing the module."""
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None:
        return []
    found = []
    for node in ast.parse(Path(spec.origin).read_text()).body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            found.append((node.name, "function"))
        elif isinstance(node, ast.ClassDef) and node.name in names:
            found.append((node.name, "class"))
    return found


def entries() -> list[tuple[str, str, str]]:
    """``(dotted name, role, uri)`` of every public Gymnasium name the inventory links to."""
    from gymnasium.error import DependencyNotInstalled

    rows: dict[str, tuple[str, str, str]] = {}
    for module_name in MODULES:
        try:
            module = importlib.import_module(module_name)
        except (ImportError, DependencyNotInstalled):  # an optional library (save_video: moviepy)
            continue
        for name in _public_names(module_name):
            try:
                obj = getattr(module, name, None)
            except (ImportError, DependencyNotInstalled):  # a lazy wrapper whose library is missing
                obj = type
            if inspect.ismodule(obj) or getattr(obj, "__module__", None) in FOREIGN_MODULES:
                continue
            page = _page(module_name, name, obj)
            if page is None:
                continue
            dotted = f"{module_name}.{name}"
            rows.setdefault(dotted, (dotted, _role(obj), f"{page}#$"))
    for module_name, names in SOURCE_MODULES.items():
        for name, role in _source_entries(module_name, names):
            dotted = f"{module_name}.{name}"
            rows.setdefault(dotted, (dotted, role, "api/utils/#$"))
    return sorted(rows.values())


def write(path: Path = OUTPUT) -> int:
    """Write the inventory to ``path``; return the number of names in it."""
    import gymnasium

    rows = entries()
    header = (
        "# Sphinx inventory version 2\n"
        "# Project: Gymnasium\n"
        f"# Version: {gymnasium.__version__}\n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    body = "".join(f"{name} py:{role} 1 {uri} -\n" for name, role, uri in rows)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header.encode() + zlib.compress(body.encode(), 9))
    return len(rows)


if __name__ == "__main__":
    print(f"wrote {write()} names to {OUTPUT}")
