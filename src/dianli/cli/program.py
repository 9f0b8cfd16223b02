"""``dianli program RITE --place P --year Y``: one ceremony as a self-contained HTML booklet (or JSON).

What it writes is kept in the on-disk cache (:mod:`dianli.cache`, kind ``program``) under a key of the
arguments and of everything else the output depends on (:func:`dianli.program.fingerprint.
inputs_fingerprint`: every file of the package and of the extra witness folders, the installed libraries,
the Python version; with audio, the system libopus too). A second run with the same inputs copies the
cached file without loading the rites — it imports nothing heavy until it knows the cache has missed.
The movements' audio has a cache of its own (:mod:`dianli.program.audio`), so a booklet whose rites
changed still reuses the music.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from dianli import cache
from dianli.cli import common
from dianli.cli.common import (
    end_without_collecting,
    force_option,
    is_terminal,
    run_guarded,
    supplied_text,
    write_file,
    writing_to,
)
from dianli.errors import DianliError, UnknownValueError
from dianli.program.fingerprint import inputs_fingerprint, libopus_version
from dianli.rites.years import FIRST_YEAR, LAST_YEAR

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

FORMATS = ("html", "json")
APPENDICES = ("full", "compact", "none")
"""The witness passages at the end of the booklet: quoted in context, quoted alone in columns, or left
out (see :func:`dianli.program.html.render_booklet`)."""
CACHE_KIND = "program"
CACHE_MAX_BYTES = 256 * 1024 * 1024
"""Booklets kept on disk: past this, the least recently written go (a booklet with audio is about 9 MB;
every edit of the package makes new keys, so a working copy would otherwise fill the disk)."""
KEY_VERSION = "program-output/1"
_NAME_END = b"\n"


def output_key(args: tuple[str, ...], audio: bool) -> str:
    """The cache key of one output: the arguments and everything the output is made from."""
    parts: list[str | bytes] = [KEY_VERSION, inputs_fingerprint(), *args]
    if audio:
        parts.append(libopus_version())  # the system library encodes the embedded audio
    return cache.key(*parts)


def rite_years() -> tuple[int, int]:
    """The rites' range of years, from the light module that holds it (no rites loaded)."""
    return FIRST_YEAR, LAST_YEAR


def whole_year(text: str) -> int:
    """The ``--year`` given as a whole number, else typer's usage error (exit 2). Read here rather than by
    typer, whose conversion of an ``int`` option loads pydantic: a cached run needs none of it."""
    try:
        return int(text.strip())
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a valid integer.", param_hint="'--year'") from None


def open_hint(path: Path) -> str:
    """How to open the file written: in a web browser, which also prints it."""
    opener = {"darwin": "open", "win32": "start"}.get(sys.platform, "xdg-open")
    return f"open it in a web browser: {opener} {path}  (or {path.as_uri()}); print it from the browser"


class Stages:
    """The progress bar (on stderr, when it is a terminal): it moves at once and names each stage as it
    begins, so a first booklet (seconds of work) says what it is doing."""

    STEPS = 8
    """Checking the cache, loading the program, the four stages of assembling the ceremony
    (:data:`dianli.program.assemble.STAGES`), writing, done: and one step per movement, once known."""

    def __init__(self, bar: Progress | None) -> None:
        self.bar = bar
        self.total = self.STEPS
        self.done = 0
        self.task: TaskID | None = bar.add_task("checking the cache", total=self.total) if bar else None

    def at(self, done: int, description: str, movements: int | None = None) -> None:
        """Step ``done`` of the stages (``movements``, once known, adds a step for each)."""
        if movements is not None:
            self.total = self.STEPS + movements
        self.done = done
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, description=description, completed=done, total=self.total)

    def next(self, description: str, movements: int | None = None) -> None:
        """The next stage begins: ``description`` names it."""
        self.at(self.done + 1, description, movements)

    def finish(self, description: str) -> None:
        self.at(self.total, description)


@contextmanager
def stages() -> Iterator[Stages]:
    if not is_terminal("err_console"):  # rich is imported only to draw the bar
        yield Stages(None)
        return
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
    with Progress(*columns, console=common.err_console, transient=True) as bar:
        yield Stages(bar)


def make_output(
    rite: str,
    place: str,
    year: int,
    season: str | None,
    witness: str | None,
    practice: str | None,
    fmt: str,
    audio: bool,
    appendix: str,
    progress: Stages,
) -> tuple[str, bytes]:
    """The file name and the bytes (UTF-8) of the booklet (or JSON), made from the rites: each stage named
    on the progress bar as it begins. The movements' audio is rendered several at a time (one per
    processor, :func:`dianli.program.audio.workers_for`): synthesis and encoding leave the interpreter's
    lock to each other."""
    progress.next("loading the program")
    import dianli
    from dianli.program.export import booklet_name  # only what this run needs is imported

    occasion = dianli.ceremony(
        rite, place, year, season=season, witness=witness, practice=practice, progress=progress.next
    )
    prog = occasion.program
    if fmt == "json":
        progress.next("writing")
        return booklet_name(prog, "json"), supplied_text(occasion.to_json()).encode("utf-8")
    movements = list(dict.fromkeys(c.movement for c in prog.music)) if audio else []
    found = {}
    if movements:  # the synthesiser (numpy, soundfile) is imported only for a booklet with its music
        from dianli.program.audio import render_all, workers_for

        first = progress.done + 1
        progress.at(first, f"rendering the music (0/{len(movements)})", len(movements))

        def advance(done: int, total: int) -> None:
            progress.at(first + done, f"rendering the music ({done}/{total})")

        found = render_all(movements, advance, workers=workers_for(len(movements)), lean=True)
    progress.next("writing the booklet")
    from dianli.program.html import booklet_chunks
    from dianli.provenance import stamp_markup

    out = io.BytesIO()  # written piece by piece: the text with its audio is never held whole
    for number, chunk in enumerate(booklet_chunks(prog, audio=found, appendix=appendix)):  # supplied already
        out.write((stamp_markup(chunk) if number == 0 else chunk).encode("utf-8"))  # version, data digest
    return booklet_name(prog, "html"), out.getvalue()


@run_guarded
def program(
    rite: str = typer.Argument(..., help="rite id or name, e.g. 祀先師 or xianshi"),
    place: str = typer.Option(..., "--place", help="place name or id, e.g. 臺灣府"),
    year: str = typer.Option(..., "--year", metavar="INTEGER", help="year ({}–{})".format(*rite_years())),
    season: str | None = typer.Option(None, "--season", help="spring, summer, autumn or winter"),
    witness: str | None = typer.Option(None, "--witness", help="read another witness than the place's own"),
    practice: str | None = typer.Option(
        None,
        "--practice",
        help="a practice profile whose day replaces the texts' rule (e.g. taipei-kongmiao)",
    ),
    out: str = typer.Option(
        ".", "--out", help="directory to write the booklet into (-: standard output, piped or redirected)"
    ),
    fmt: str = typer.Option("html", "--format", help="html or json"),
    no_audio: bool = typer.Option(False, "--no-audio", help="leave the music out (small, fast)"),
    appendix: str = typer.Option(
        "full",
        "--appendix",
        help="witness passages: full (in context), compact (quotes only, in columns), none",
    ),
    force: bool = force_option(),
) -> None:
    """Write the booklet of one ceremony and print its absolute path (cached: a second run is instant)."""
    number = whole_year(year)
    end_without_collecting()
    if fmt not in FORMATS:
        raise UnknownValueError("format", fmt, FORMATS)
    if appendix not in APPENDICES:
        raise UnknownValueError("appendix", appendix, APPENDICES)
    to_stdout = out == "-"
    if to_stdout and is_terminal():
        raise DianliError(
            f"--out - writes the {fmt} booklet to standard output, which is a terminal here; accepted: standard "
            f"output redirected or piped (--out - > booklet.{fmt}), or --out FOLDER"
        )
    folder = Path(out).expanduser().absolute()
    audio = fmt == "html" and not no_audio
    args = (rite, place, str(number), season or "", witness or "", practice or "", fmt, appendix, str(audio))
    with stages() as progress:
        key = output_key(args, audio)
        cached = cache.read(CACHE_KIND, key, f".{fmt}")
        if cached is not None and _NAME_END in cached:
            raw_name, data = cached.split(_NAME_END, 1)
            name = raw_name.decode("utf-8")
            progress.at(3, "copying the cached booklet")
        else:
            name, data = make_output(
                rite, place, number, season, witness, practice, fmt, audio, appendix, progress
            )
            cache.write(CACHE_KIND, key, name.encode("utf-8") + _NAME_END + data, f".{fmt}")
            cache.prune(CACHE_KIND, CACHE_MAX_BYTES)
        if to_stdout:
            progress.finish("done")
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
            return
        with writing_to(folder):
            folder.mkdir(parents=True, exist_ok=True)
        path = folder / os.path.basename(name)
        write_file(path, data, force)
        progress.finish("done")
    typer.echo(str(path))
    if is_terminal("err_console"):
        common.err_console.print(open_hint(path), markup=False, highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("program", help="One ceremony as a self-contained HTML booklet (or JSON).")(program)
