"""Old wrapper names, and the error that tells users what replaced them.

``vecgym.wrappers.__getattr__`` looks a missing name up here: a renamed or removed wrapper
raises :class:`~vecgym.error.RenamedWrapper` naming its replacement. It is an
``AttributeError``, as Gymnasium raises, so ``hasattr`` and ``getattr(..., default)`` behave as
they do with Gymnasium; ``vecgym.wrappers.FrameStack`` shows the message (a
``from vecgym.wrappers import FrameStack`` becomes Python's plain ``ImportError``, as with
Gymnasium). Gymnasium 1.4 knows the first four renames below; the others are OpenAI Gym 0.26 names
that vecgym also explains.
"""

from __future__ import annotations

from vecgym import error

__all__ = ["REMOVED_WRAPPERS", "RENAMED_WRAPPERS", "deprecated_wrapper_error"]

RENAMED_MSG = "{old!r} is an old name: the wrapper is now `vecgym.wrappers.{new}`"
REMOVED_MSG = "{old!r} no longer exists: {advice}"

#: old name -> its replacement, relative to ``vecgym.wrappers``
RENAMED_WRAPPERS: dict[str, str] = {
    "AutoResetWrapper": "Autoreset",
    "FrameStack": "FrameStackObservation",
    "PixelObservationWrapper": "AddRenderObservation",
    "VectorListInfo": "vector.DictInfoToList",
    "GrayScaleObservation": "GrayscaleObservation",
}

#: old name -> what to do instead, for wrappers that have no direct replacement
REMOVED_WRAPPERS: dict[str, str] = {
    "StepAPICompatibility": (
        "every environment uses the (terminated, truncated) step API; convert old step tuples "
        "with `vecgym.utils.step_api_compatibility.convert_to_terminated_truncated_step_api`"
    ),
    "EnvCompatibility": (
        "wrap an old OpenAI Gym environment with "
        "`vecgym.wrappers.legacy.LegacyGymCompatibility(old_env, render_mode=...)`, or register "
        "it with `vecgym.wrappers.legacy.register_legacy_env(id, 'module:OldEnv')`"
    ),
}


def deprecated_wrapper_error(name: str) -> error.RenamedWrapper | None:
    """The error to raise for the old wrapper name ``name``, or ``None`` if it is not old.

    Args:
        name: the attribute looked up on ``vecgym.wrappers``.

    Returns:
        A :class:`~vecgym.error.RenamedWrapper` whose message names the replacement.
    """
    if name in RENAMED_WRAPPERS:
        return error.RenamedWrapper(RENAMED_MSG.format(old=name, new=RENAMED_WRAPPERS[name]))
    if name in REMOVED_WRAPPERS:
        return error.RenamedWrapper(REMOVED_MSG.format(old=name, advice=REMOVED_WRAPPERS[name]))
    return None
