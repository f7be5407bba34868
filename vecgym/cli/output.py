"""Tables and progress for the CLI: ``rich`` when installed (the ``bench`` extra), plain lines else.

Results go to stdout, progress and notes to stderr, so ``vecgym bench > table.txt`` keeps only
the table. Without ``rich`` a table is printed as aligned columns and progress as one line per
finished measurement (no hand-drawn bar).
"""

from __future__ import annotations

import importlib
import json
import signal
import sys
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import IO, Any, TextIO

__all__ = ["SCHEMA_VERSION", "Progress", "Table", "has_rich", "note", "print_table", "write_json"]

SCHEMA_VERSION = 1
"""The version of the layout of every ``--json`` report (its ``"schema_version"`` key); raised
when a key is removed or changes meaning (adding keys keeps it)."""


def has_rich() -> bool:
    """Whether ``rich`` can be imported."""
    try:
        importlib.import_module("rich")
    except ImportError:
        return False
    return True


class Table:
    """Rows under a title: ``columns`` names, right-aligned unless listed in ``left``.

    Attributes:
        title: printed above the table.
        columns: the column headings.
        rows: the cells, already formatted as strings.
        left: indices of left-aligned columns.
        caption: printed below the table (may be empty).
    """

    def __init__(
        self, title: str, columns: Sequence[str], left: Sequence[int] = (), caption: str = ""
    ) -> None:
        self.title = title
        self.columns = list(columns)
        self.left = set(left)
        self.caption = caption
        self.rows: list[list[str]] = []

    def add_row(self, *cells: str) -> None:
        """Append a row of formatted cells (one per column)."""
        if len(cells) != len(self.columns):
            raise ValueError(f"expected {len(self.columns)} cells, got {len(cells)}")
        self.rows.append(list(cells))

    def plain(self) -> str:
        """The table as aligned plain-text columns (a cell may hold several lines)."""
        widths = [
            max([len(heading), *(len(part) for row in self.rows for part in row[i].split("\n"))])
            for i, heading in enumerate(self.columns)
        ]

        def line(cells: Sequence[str]) -> str:
            return "  ".join(
                cell.ljust(w) if i in self.left else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        def lines(row: Sequence[str]) -> list[str]:
            parts = [cell.split("\n") for cell in row]
            height = max(len(p) for p in parts)
            return [line([p[j] if j < len(p) else "" for p in parts]) for j in range(height)]

        rule = "  ".join("-" * w for w in widths)
        body = [self.title, line(self.columns), rule]
        for row in self.rows:
            body.extend(lines(row))
        if self.caption:
            body.append(self.caption)
        return "\n".join(body)


def print_table(table: Table, stream: TextIO | None = None) -> None:
    """Print ``table`` to ``stream`` (stdout by default), through ``rich`` when installed."""
    stream = sys.stdout if stream is None else stream
    if not has_rich():
        print(table.plain(), file=stream, flush=True)
        return
    from rich.console import Console
    from rich.table import Table as RichTable

    rich_table = RichTable(title=table.title)
    for i, heading in enumerate(table.columns):
        rich_table.add_column(heading, justify="left" if i in table.left else "right")
    for row in table.rows:
        rich_table.add_row(*row)
    Console(file=stream, width=max(100, Console(file=stream).width)).print(rich_table)
    if table.caption:  # as plain text: rich centres captions, which reads badly when wrapped
        print(table.caption, file=stream, flush=True)


def write_json(report: dict[str, Any], stream: IO[str]) -> None:
    """Write ``report`` as indented JSON (and a newline) to ``stream``, then flush it."""
    json.dump(report, stream, indent=2)
    stream.write("\n")
    stream.flush()


def note(message: str) -> None:
    """Print a note for the user on stderr."""
    print(message, file=sys.stderr, flush=True)


class Progress:
    """Progress over ``total`` steps of work: a ``rich`` bar, or one stderr line per step.

    The live bar needs ``rich`` and a terminal on stderr; otherwise (piped, captured, no
    ``rich``) each finished step prints one line.

    Use as a context manager; call :meth:`advance` after each finished step with a short
    description of it (and its result).

    While it is open, Ctrl-C sticks: SIGINT raises ``KeyboardInterrupt`` as usual and is also
    remembered, and the next :meth:`start` or :meth:`advance` raises it again. CPython prints and
    drops an exception raised inside a finalizer (``__del__``, a weakref callback), so a Ctrl-C
    that lands while a vector env or shared block from an earlier step is freed would otherwise
    be lost, and the command would run on. (Only in the main thread, and only where SIGINT has
    Python's default handler; the handler is restored on exit.)
    """

    def __init__(self, total: int, description: str) -> None:
        self.total = total
        self.description = description
        self.done = 0
        self.interrupted = False
        self._rich: Any = None
        self._task: Any = None
        self._sigint_installed = False

    def _on_sigint(self, signum: int, frame: Any) -> None:
        self.interrupted = True
        raise KeyboardInterrupt

    def _raise_if_interrupted(self) -> None:
        if self.interrupted:
            raise KeyboardInterrupt

    def __enter__(self) -> Progress:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            signal.signal(signal.SIGINT, self._on_sigint)
            self._sigint_installed = True
        if has_rich():
            from rich.console import Console

            console = Console(file=sys.stderr)
            if not console.is_terminal:  # piped or captured: no live bar, plain lines
                return self
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self._rich = RichProgress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            self._rich.__enter__()
            self._task = self._rich.add_task(self.description, total=self.total)
        return self

    def start(self, what: str) -> None:
        """Say what is being measured now (shown in the bar; plain mode shows it on finish).

        Raises:
            KeyboardInterrupt: Ctrl-C was pressed (and dropped on its way, see the class).
        """
        self._raise_if_interrupted()
        if self._rich is not None:
            self._rich.update(self._task, description=f"{self.description}: {what}")

    def advance(self, what: str) -> None:
        """Mark one step finished; ``what`` describes it (and its result).

        Raises:
            KeyboardInterrupt: Ctrl-C was pressed (and dropped on its way, see the class); the
                step is shown first.
        """
        self.done += 1
        if self._rich is not None:
            self._rich.update(self._task, advance=1)
            self._rich.console.print(f"[{self.done}/{self.total}] {what}", highlight=False)
        else:
            print(f"[{self.done}/{self.total}] {what}", file=sys.stderr, flush=True)
        self._raise_if_interrupted()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._sigint_installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self._sigint_installed = False
        if self._rich is not None:
            self._rich.__exit__(exc_type, exc, tb)
