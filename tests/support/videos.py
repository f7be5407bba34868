"""Reading mp4 files back in tests: the frames, decoded by the ffmpeg that imageio-ffmpeg ships."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

__all__ = ["assert_as_moviepy_wrote", "decode_mp4"]


def decode_mp4(path: Path, height: int, width: int) -> np.ndarray:
    """Every frame of the mp4 at ``path`` as a ``(frames, height, width, 3)`` uint8 array.

    ffmpeg runs to completion in a subprocess (a generator reader would keep its pipes open until
    garbage collection); the test skips where imageio-ffmpeg is missing.
    """
    imageio_ffmpeg = pytest.importorskip("imageio_ffmpeg")
    command = [imageio_ffmpeg.get_ffmpeg_exe(), "-v", "error", "-i", str(path)]
    command += ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
    raw = subprocess.run(command, capture_output=True, check=True, timeout=60).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3)


def assert_as_moviepy_wrote(
    handed: dict[str, list[int]], theirs: dict[str, list[int]], ours: dict[str, list[int]]
) -> None:
    """vecgym's videos (``ours``) show exactly the frames Gymnasium ``handed`` to moviepy; the
    videos moviepy wrote (``theirs``) show them too, but where moviepy drops a clip's last frame
    (its ImageSequenceClip sums the frame durations in floating point, moviepy issue #2507).

    Each argument maps a file name to the frame indices it shows.
    """
    assert handed, "every case writes at least one video"
    assert ours == handed
    assert theirs.keys() == handed.keys()
    for name, frames in handed.items():
        assert theirs[name] in (frames, frames[:-1]), name
