"""Helpers shared by the command modules: error reporting and output.

rich is imported on first use, not with this module: :data:`console` and :data:`err_console` are made
when a module first imports them (or an error is reported), and :func:`say` and :func:`show_rows` print
plain text (piped output, records) without rich at all, so a command that prints plain lines starts
without it. Nor does this module import typer (the console script answers a plain ``dianli date`` without
it: :mod:`dianli.cli.date_view`); the helpers that make typer's options import it when called."""

from __future__ import annotations

import atexit
import functools
import gc
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from dianli.errors import DianliError, OutputPathError

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from rich.table import Table

    from dianli.cli.rich_console import SuppliedConsole

_PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
P = ParamSpec("P")
R = TypeVar("R")
E = TypeVar("E", bound=StrEnum)
DEFAULT_WIDTH = 80
"""The width of text when the output is not a terminal and neither ``--width`` nor ``COLUMNS`` says."""


def supplied_text(text: str) -> str:
    """``text`` with every private-use code point replaced by its supplied character (see below)."""
    if not _PRIVATE_USE.search(text):
        return text  # the usual case: nothing to supply, and the corpus need not be loaded
    from dianli.corpus.supplied import supply

    return supply(text)


_MADE: dict[str, SuppliedConsole] = {}
"""The consoles made so far: ``console`` (standard output) and ``err_console`` (standard error)."""
_WIDTH: int | None = None
"""``--width`` of the command being run, or None: the terminal's."""

if TYPE_CHECKING:
    console: SuppliedConsole
    """Standard output as a rich console, made (and rich imported) when first imported or used."""
    err_console: SuppliedConsole
    """Standard error as a rich console, made likewise."""


def __getattr__(name: str) -> SuppliedConsole:
    """``console`` and ``err_console``, each made on first use (PEP 562): a module that imports neither
    (and prints with :func:`say` or :func:`show_rows`) runs without rich."""
    if name not in ("console", "err_console"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _made(name)


def _made(name: str) -> SuppliedConsole:
    if name not in _MADE:
        from dianli.cli.rich_console import SuppliedConsole

        made = SuppliedConsole(stderr=name == "err_console", highlight=False, soft_wrap=False)
        made._width = _WIDTH
        _MADE[name] = made
    return _MADE[name]


_ONE_COMMAND = False
"""Whether this process runs one command and ends: the console script (:func:`dianli.cli.main.main`), not
the test runner or the web server (see :func:`one_command`)."""


def one_command() -> bool:
    """Whether the process ends with the command it runs (set by the console script)."""
    return _ONE_COMMAND


def ends_with_command() -> None:
    """Say that the process ends with the command it runs (called by the console script only)."""
    global _ONE_COMMAND
    _ONE_COMMAND = True


def collect_from_here() -> None:
    """Called once the command to run is loaded. In a process that ends with its command (the console
    script, which turned the cyclic collector off while it started: :mod:`dianli.cli.main`), what start-up
    made — modules, classes, the command line — lives to the end: it is frozen out of the collector's
    reach (``gc.freeze``) and the collector runs again, for the command's own work only. Elsewhere (the
    tests, the web server) nothing changes."""
    if one_command() and not gc.isenabled() and not _ENDS_WITHOUT_COLLECTING:
        gc.freeze()
        gc.enable()


_ENDS_WITHOUT_COLLECTING = False
"""Whether :func:`gc.freeze` is registered to run at exit."""


def end_without_collecting() -> None:
    """For a command that builds much that lives to its end (a booklet, a year's calendar). When the
    process ends, leave what it loaded to the system: without this, Python's last garbage collection
    walks every object the run made (the rites, the witnesses, the program) — about 0.4 s of a
    booklet's run here, after its file is written. :func:`gc.freeze` (registered once, run at
    exit before the on-disk cache's own handler) puts them beyond that collection; nothing the run
    leaves holds anything to finish (files are written and closed, the cache is flushed by its handler).

    In a process that ends with this command (the console script, not the test runner or the web
    server: :func:`dianli.cli.common.one_command`) the cyclic collector is also off for the run. What a
    booklet is made from lives to its end (the rites, the witnesses, the program), so each collection
    only walks live objects: 0.10–0.16 s of a first booklet (about a tenth of its run), a second of one
    synthesised from nothing, 0.1 s of a calendar's new year. Reference counting still frees what the
    run drops; the peak memory was measured unchanged (a booklet: 72–74 MB without audio, 110 MB with
    it, 186 MB synthesising every movement; a new year's calendar 95 MB)."""
    global _ENDS_WITHOUT_COLLECTING
    if not _ENDS_WITHOUT_COLLECTING:
        atexit.register(gc.freeze)
        _ENDS_WITHOUT_COLLECTING = True
    if one_command():
        gc.disable()


def set_width(width: int | None) -> None:
    """Lay out the running command's text for ``width`` columns (None: the terminal's, or ``COLUMNS``, or
    :data:`DEFAULT_WIDTH` when not a terminal), on the consoles made already and on those made later."""
    global _WIDTH
    _WIDTH = width
    for made in _MADE.values():
        made._width = width


def width() -> int:
    """The columns text is laid out in: ``--width``, else what rich's console takes (the first of stdin,
    stdout, stderr that is a terminal, overridden by ``COLUMNS``), else :data:`DEFAULT_WIDTH`."""
    if _WIDTH is not None:
        return _WIDTH
    if "console" in _MADE:
        return _MADE["console"].width
    found: int | None = None
    for descriptor in (0, 1, 2):
        try:
            found = os.get_terminal_size(descriptor).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        found = int(columns)
    return found or DEFAULT_WIDTH


def is_terminal(name: str = "console") -> bool:
    """Whether standard output (``name`` "console") or standard error ("err_console") is a terminal, as
    rich's console sees it — ``TTY_COMPATIBLE`` (0 or 1) and ``FORCE_COLOR`` (set, not empty) decide before
    the stream's ``isatty`` — without making the console (and importing rich) when it is not made yet."""
    if name in _MADE:
        return _MADE[name].is_terminal
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force_color = os.environ.get("FORCE_COLOR")
    if force_color is not None:
        return force_color != ""
    isatty = getattr(sys.stderr if name == "err_console" else sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def say(*lines: str, indent: int = 2) -> None:
    """Print plain lines on standard output (no markup), each wrapped to :func:`width` with its continuations
    under its own leading spaces plus ``indent``; a private-use character is shown as its supplied one."""
    shown = width()
    out = [
        part
        for line in lines
        for text in supplied_text(line).split("\n")
        for part in wrap(text, shown, indent)
    ]
    sys.stdout.write("\n".join(out) + "\n")


def report_error(exc: DianliError) -> None:
    """Print ``error: …`` (the error's message) on standard error."""
    from rich.markup import escape

    # the message is data (ids, paths like parts[qisheng]), never markup
    _made("err_console").print(f"[bold red]error:[/] {escape(str(exc))}", markup=True, highlight=False)


def run_guarded(func: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that a DianliError prints ``error: …`` on stderr and exits with status 2."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except DianliError as exc:
            import typer

            report_error(exc)
            raise typer.Exit(2) from exc
        except OSError as exc:
            # a path the system refuses that no check named first (a name too long, a folder not
            # readable): what was wrong, never a traceback
            if isinstance(exc, BrokenPipeError) or exc.filename is None:
                raise
            import typer

            name = str(exc.filename)
            shown = name if len(name) <= 80 else name[:80] + "…"
            report_error(DianliError(f"{shown}: {exc.strerror or exc}"))
            raise typer.Exit(2) from exc

    return wrapper


@contextmanager
def writing_to(path: str | os.PathLike[str]) -> Iterator[None]:
    """Turn an OSError raised while writing ``path`` into an :class:`OutputPathError` naming it."""
    try:
        yield
    except OSError as exc:
        raise OutputPathError(path, exc) from exc


FORCE_HELP = (
    "Replace output files dianli did not write (or that were changed since it wrote them); without it such "
    "a file is never replaced and the command names it."
)
"""The help of every writing command's ``--force`` (see :mod:`dianli.written`)."""


def force_option() -> bool:
    """The ``--force`` option of a command that writes files: ``force: bool = force_option()``."""
    import typer

    value: bool = typer.Option(False, "--force", help=FORCE_HELP)
    return value


def scheduler_option() -> str | None:
    """The ``--scheduler`` option of a command that runs on Dask (``harvest``, ``ingest``)."""
    import typer

    value: str | None = typer.Option(
        None,
        "--scheduler",
        help="Address of a dask.distributed scheduler (tcp://host:8786). Default: local processes.",
    )
    return value


def workers_option() -> int | None:
    """The ``--workers`` option of a command that runs on local processes (``harvest``, ``ingest``)."""
    import typer

    value: int | None = typer.Option(
        None, "--workers", min=1, help="Local worker processes (default: the machine's cores)."
    )
    return value


def check_output_folder(path: str | os.PathLike[str], option: str) -> None:
    """Refuse '-' for an option that names a folder (standard output cannot hold a folder of files)."""
    if os.fspath(path) == "-":
        raise DianliError(
            f"{option} -: {option} names a folder to write files into, and standard output is not one; "
            f"accepted: a folder path (created if missing)"
        )


_NOT_STANDARD_OUTPUT = (
    "{option} -: {option} writes a file beside what the command prints on standard output, so it cannot "
    "be standard output itself; accepted: a file path"
)


def check_output_path(path: str | os.PathLike[str], force: bool = False, option: str | None = None) -> None:
    """Fail early, before slow work, when ``path`` cannot be written (its folder is missing or read-only), or
    is a file dianli may not replace (:func:`dianli.written.check`) and ``force`` is not given. '-' is
    standard output, which a command's ``-o`` takes; ``option`` names an option that writes a file beside
    what the command prints (``--svg``, ``--ics`` …): '-' is refused for it."""
    from dianli import written

    target = os.fspath(path)
    if target == "-":
        if option is not None:
            raise DianliError(_NOT_STANDARD_OUTPUT.format(option=option))
        return
    folder = os.path.dirname(os.path.abspath(target)) or "."
    if os.path.isdir(target):
        raise OutputPathError(target, IsADirectoryError(21, "Is a directory"))
    if not os.path.isdir(folder):
        raise OutputPathError(target, FileNotFoundError(2, f"folder {folder} does not exist"))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(target, PermissionError(13, f"folder {folder} is not writable"))
    written.check([target], force)


def write_file(path: str | os.PathLike[str], data: str | bytes, force: bool = False) -> None:
    """Write ``data`` (text as UTF-8) to the file ``path``, atomically, and record it as dianli's
    (:mod:`dianli.written`): a file dianli did not write is refused unless ``force``; an unwritable path
    is an OutputPathError."""
    from dianli import written

    if os.fspath(path) == "-":  # never a file named '-' (each option checks this first, by name)
        raise DianliError(_NOT_STANDARD_OUTPUT.format(option="this option"))
    body = data if isinstance(data, bytes) else supplied_text(data).encode("utf-8")
    with writing_to(path):
        written.write(path, body, force)


def write_text_output(text: str, out: str | None, force: bool = False) -> None:
    """Print to stdout, or write to the file ``out`` (a path the user gave; '-' means stdout)."""
    if out is None or out == "-":
        text = supplied_text(text)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    check_output_path(out, force)
    write_file(out, text, force)


FILE_ENDINGS: dict[str, tuple[str, ...]] = {
    "text": (".txt",),
    "json": (".json",),
    "csv": (".csv",),
    "html": (".html", ".htm"),
    "tei": (".tei.xml", ".xml"),
    "svg": (".svg",),
}
"""The file-name endings of the text formats the commands write (see :func:`output_format`)."""


def endings_of(*formats: str) -> dict[str, tuple[str, ...]]:
    """:data:`FILE_ENDINGS` of ``formats`` only."""
    return {f: FILE_ENDINGS[f] for f in formats}


def output_format(
    out: str | os.PathLike[str] | None,
    given: str | None,
    endings: Mapping[str, Sequence[str]],
    default: str,
    strict: bool = False,
) -> str:
    """The format of an output file: ``given`` (``--format``) when given, else the one the name of ``out``
    ends with, else ``default``. ``endings`` maps each format to the file-name endings it is written as
    (lower case, longest first where one ends another: ``.columns.svg`` before ``.svg``).

    A name whose ending belongs to another format than ``given`` is an error naming both (``-o a.flac
    --format wav``); with ``strict`` (a format whose bytes a reader cannot tell by eye: audio), a name with
    an ending no format has is an error too, when ``--format`` is not given."""
    if out is None or os.fspath(out) == "-":
        return given or default
    name = os.path.basename(os.fspath(out)).lower()
    matches = [(len(e), f, e) for f, ends in endings.items() for e in ends if name.endswith(e)]
    if given is not None:
        if matches and not any(f == given for _, f, _ in matches):
            _, named, ending = max(matches, key=lambda m: m[0])
            raise DianliError(
                f"the file name {os.fspath(out)!r} ends in {ending!r}, a {named} file, but --format is "
                f"{given!r}; accepted: a name ending in {' or '.join(repr(e) for e in endings.get(given, ()))} "
                f"for {given}, or --format {named}"
            )
        return given
    if matches:
        longest = max(m[0] for m in matches)
        return next(f for length, f, _ in matches if length == longest)
    _, dot, suffix = name.rpartition(".")
    if strict and dot and suffix and name.rpartition(".")[0]:
        known = [e for ends in endings.values() for e in ends]
        raise DianliError(
            f"the file name {os.fspath(out)!r} ends in '.{suffix}', which no format of this command is "
            f"written as; accepted: a name ending in {', '.join(known)}, or --format FORMAT to say which"
        )
    return default


def format_for(
    kind: type[E], given: E | None, out: str | os.PathLike[str] | None, default: E, strict: bool = False
) -> E:
    """:func:`output_format` for a command whose formats are the members of the enum ``kind``."""
    names = [member.value for member in kind]
    return kind(output_format(out, given.value if given else None, endings_of(*names), default.value, strict))


def display_width(text: str) -> int:
    """Columns a string takes in a terminal: wide and full-width characters (漢字) take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int, indent: int = 2) -> list[str]:
    """``text`` (one line) in lines of at most ``width`` display columns, continuations ``indent`` columns
    further in than the line itself — :func:`dianli.lines.fit_line`, the command line's one way of
    breaking a line (at spaces, or between wide characters, no word cut)."""
    from dianli.lines import fit_line

    return fit_line(supplied_text(text), width, hang=indent)


def _cell_text(cell: RenderableType) -> str:
    """The plain words of a table cell (markup and styles dropped, lines joined by spaces)."""
    from rich.console import Console
    from rich.text import Text

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


def records(
    title: str, headers: Sequence[str], rows: Sequence[Sequence[str]], width: int, caption: str = ""
) -> list[str]:
    """Plain rows as records, one block per row: ``header  value`` lines, values wrapped under themselves
    within ``width`` display columns, empty cells left out — nothing cut, whatever the width."""
    headers = [h or f"column {i + 1}" for i, h in enumerate(headers)]
    label = min(max((display_width(h) for h in headers), default=0), max(8, width // 3))
    lines: list[str] = []
    if title:
        lines.extend([*wrap(title, width, indent=0), ""])
    for row in rows:
        for header, value in zip(headers, row, strict=False):
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
    if caption:
        lines.extend(wrap(caption, width, indent=0))
    return lines


def table_records(table: Table, width: int) -> list[str]:
    """A rich table as :func:`records` (markup and styles dropped)."""
    cells = [list(column.cells) for column in table.columns]
    rows = [
        [_cell_text(column[row]) if row < len(column) else "" for column in cells]
        for row in range(table.row_count)
    ]
    headers = [_header_text(table, i) for i in range(len(table.columns))]
    title = _cell_text(table.title) if table.title else ""
    caption = _cell_text(table.caption) if table.caption else ""
    return records(title, headers, rows, width, caption)


def show_rows(title: str, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Plain rows (no markup) as :func:`show_table` shows a table; when the output is not a terminal, as
    :func:`records` without making a table (nor importing rich)."""
    if not is_terminal():
        text = "\n".join(records(title, headers, [[supplied_text(c) for c in r] for r in rows], width()))
        sys.stdout.write(text + "\n")
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(title) if title else None)
    for header in headers:
        table.add_column(Text(header))
    for row in rows:
        table.add_row(*(Text(supplied_text(cell)) for cell in row))
    show_table(table)


def show_table(table: Table, out: Console | None = None) -> None:
    """Print ``table`` without ever cutting a word: as a table when the console is a terminal and every
    column fits its longest word (cells fold rather than end in "…"), otherwise — piped, or too narrow —
    as plain records (see :func:`table_records`)."""
    target = out or _made("console")
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
    from rich.table import Table

    if isinstance(item, Table):
        show_table(item, out)
    else:
        (out or _made("console")).print(item)
