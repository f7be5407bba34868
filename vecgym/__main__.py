"""``python -m vecgym``: the ``vecgym`` command (see :mod:`vecgym.cli`)."""

from __future__ import annotations

import sys

from vecgym.cli import main

if __name__ == "__main__":
    sys.exit(main())
