"""Helpers shared by the command modules: error reporting and output."""

from __future__ import annotations

import functools
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from dianli.api import DianliError, OutputPathError

_PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
P = ParamSpec("P")
R = TypeVar("R")


def supplied_text(text: str) -> str:
    """``text`` with every private-use code point replaced by its supplied character (see below)."""
    if not _PRIVATE_USE.search(text):
        return text  # the usual case: nothing to supply, and the corpus need not be loaded
    from dianli.api import supply

    return supply(text)


class SuppliedConsole(Console):
    """A console that never prints a private-use code point: a character the transcription could not
    encode is shown as the character another witness supplies, in 〔〕 (:func:`dianli.api.supply`)."""

    def print(self, *objects: Any, **options: Any) -> None:
        # text is supplied before it is laid out, so that a line keeps its width (〔須〕 is wider than a box)
        super().print(*(supplied_text(o) if isinstance(o, str) else o for o in objects), **options)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return supplied_text(super()._render_buffer(buffer))  # whatever else reaches the screen


console = SuppliedConsole(highlight=False, soft_wrap=False)
err_console = SuppliedConsole(stderr=True, highlight=False)


def run_guarded(func: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that a DianliError prints ``error: …`` on stderr and exits with status 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except DianliError as exc:
            # the message is data (ids, paths like parts[qisheng]), never markup
            err_console.print(f"[bold red]error:[/] {escape(str(exc))}", markup=True, highlight=False)
            raise typer.Exit(2) from exc

    return wrapper


@contextmanager
def writing_to(path: str | os.PathLike[str]) -> Iterator[None]:
    """Turn an OSError raised while writing ``path`` into an :class:`OutputPathError` naming it."""
    try:
        yield
    except OSError as exc:
        raise OutputPathError(path, exc) from exc


def check_output_path(path: str | os.PathLike[str]) -> None:
    """Fail early, before slow work, when ``path`` cannot be written (its folder is missing or read-only)."""
    target = os.fspath(path)
    if target == "-":
        return
    folder = os.path.dirname(os.path.abspath(target)) or "."
    if os.path.isdir(target):
        raise OutputPathError(target, IsADirectoryError(21, "Is a directory"))
    if not os.path.isdir(folder):
        raise OutputPathError(target, FileNotFoundError(2, f"folder {folder} does not exist"))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(target, PermissionError(13, f"folder {folder} is not writable"))


def write_file(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to the file ``path``; an unwritable path is an OutputPathError."""
    with writing_to(path):
        if isinstance(data, bytes):
            with open(path, "wb") as binary:
                binary.write(data)
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(supplied_text(data))


def write_text_output(text: str, out: str | None) -> None:
    """Print to stdout, or write to the file ``out`` (a path the user gave; '-' means stdout)."""
    if out is None or out == "-":
        text = supplied_text(text)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    write_file(out, text)


def display_width(text: str) -> int:
    """Columns a string takes in a terminal: wide and full-width characters (漢字) take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int, indent: int = 2) -> list[str]:
    """``text`` in lines of at most ``width`` display columns (continuations indented), broken at spaces,
    or inside a run of wide characters, which has none."""
    text = supplied_text(text)  # measured as shown: 〔須〕 for a character the transcription could not encode
    lines: list[str] = []
    line, used = "", 0  # the line so far and its display width (kept, not re-measured per word)
    for word in text.split(" "):
        size = display_width(word)
        if (not line and used + size <= width) or (line and used + 1 + size <= width):
            line, used = (f"{line} {word}", used + 1 + size) if line else (word, size)
            continue
        if line:
            lines.append(line)
        line, used = " " * indent + word, indent + size
        while used > width:
            cut, shown = len(line), used
            while cut > indent + 1 and shown > width:
                cut -= 1
                shown -= display_width(line[cut])
            lines.append(line[:cut])
            line = " " * indent + line[cut:]
            used = display_width(line)
    lines.append(line)
    return lines


def _cell_text(cell: RenderableType) -> str:
    """The plain words of a table cell (markup and styles dropped, lines joined by spaces)."""
    if isinstance(cell, Text):
        return cell.plain
    if isinstance(cell, str):
        return Text.from_markup(cell).plain
    capture = Console(width=10_000, color_system=None, highlight=False)
    with capture.capture() as captured:
        capture.print(cell)
    return " ".join(line.strip() for line in captured.get().splitlines() if line.strip())


def _header_text(table: Table, index: int) -> str:
    header = _cell_text(table.columns[index].header) if table.columns[index].header else ""
    return header or f"column {index + 1}"


def table_records(table: Table, width: int) -> list[str]:
    """A table as records, one block per row: ``header  value`` lines, values wrapped under themselves
    within ``width`` display columns, empty cells left out — nothing cut, whatever the width."""
    headers = [_header_text(table, i) for i in range(len(table.columns))]
    label = min(max((display_width(h) for h in headers), default=0), max(8, width // 3))
    lines: list[str] = []
    if table.title:
        lines.extend([*wrap(_cell_text(table.title), width, indent=0), ""])
    cells = [list(column.cells) for column in table.columns]
    for row in range(table.row_count):
        for header, column in zip(headers, cells, strict=True):
            value = _cell_text(column[row]) if row < len(column) else ""
            if not value:
                continue
            pad = " " * max(0, label - display_width(header))
            body = wrap(value, max(10, width - label - 2), indent=0)
            if display_width(header) > label:
                lines.append(header)
                lines.extend(" " * (label + 2) + part for part in body)
                continue
            lines.append(f"{header}{pad}  {body[0]}")
            lines.extend(" " * (label + 2) + part for part in body[1:])
        lines.append("")
    if table.caption:
        lines.extend(wrap(_cell_text(table.caption), width, indent=0))
    return lines


def show_table(table: Table, out: Console | None = None) -> None:
    """Print ``table`` without ever cutting a word: as a table when the console is a terminal and every
    column fits its longest word (cells fold rather than end in "…"), otherwise — piped, or too narrow —
    as plain records (see :func:`table_records`)."""
    target = out or console
    for column in table.columns:  # supplied before the widths are measured (see SuppliedConsole)
        column._cells = [supplied_text(c) if isinstance(c, str) else c for c in column._cells]
    # the minimum width keeps each column's longest word whole (measured unclamped by the console's width);
    # piped output is always records, so it is measured only on a terminal
    if target.is_terminal and (
        target.measure(table, options=target.options.update_width(10_000)).minimum <= target.width
    ):
        for column in table.columns:
            column.overflow = "fold"
        target.print(table)
        return
    target.print("\n".join(table_records(table, target.width)), markup=False, highlight=False, soft_wrap=True)


def print_item(item: RenderableType, out: Console | None = None) -> None:
    """Print one renderable; a table goes through :func:`show_table`, so no word of it is ever cut."""
    if isinstance(item, Table):
        show_table(item, out)
    else:
        (out or console).print(item)
