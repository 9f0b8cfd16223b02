"""``dianli program RITE --place P --year Y``: one ceremony as a self-contained HTML booklet (or JSON)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from dianli.api import (
    RITE_FIRST_YEAR,
    RITE_LAST_YEAR,
    ProgramAudio,
    UnknownValueError,
    assemble_program,
    booklet_name,
    program_json,
    render_all_audio,
    render_booklet,
)
from dianli.cli.common import err_console, run_guarded, write_file, writing_to

FORMATS = ("html", "json")


def _audio(movements: list[str]) -> dict[str, ProgramAudio]:
    with Progress(
        TextColumn("rendering music"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task("audio", total=len(movements))

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return dict(render_all_audio(movements, advance))


@run_guarded
def program(
    rite: str = typer.Argument(..., help="rite id or name, e.g. 祀先師 or xianshi"),
    place: str = typer.Option(..., "--place", help="place name or id, e.g. 臺灣府"),
    year: int = typer.Option(..., "--year", help=f"year ({RITE_FIRST_YEAR}–{RITE_LAST_YEAR})"),
    season: str | None = typer.Option(None, "--season", help="spring, summer, autumn or winter"),
    witness: str | None = typer.Option(None, "--witness", help="read another witness than the place's own"),
    practice: str | None = typer.Option(
        None,
        "--practice",
        help="a practice profile whose day replaces the texts' rule (e.g. taipei-kongmiao)",
    ),
    out: str = typer.Option(".", "--out", help="directory to write the booklet into"),
    fmt: str = typer.Option("html", "--format", help="html or json"),
    no_audio: bool = typer.Option(False, "--no-audio", help="leave the music out (small, fast)"),
) -> None:
    """Write the booklet of one ceremony and print its path."""
    if fmt not in FORMATS:
        raise UnknownValueError("format", fmt, FORMATS)
    prog = assemble_program(rite, place, year, season=season, witness=witness, practice=practice)
    folder = Path(out)
    with writing_to(folder):
        folder.mkdir(parents=True, exist_ok=True)
    if fmt == "json":
        path = folder / booklet_name(prog, "json")
        write_file(path, program_json(prog))
    else:
        audio = {} if no_audio else _audio([c.movement for c in prog.music])
        path = folder / booklet_name(prog, "html")
        write_file(path, render_booklet(prog, audio=audio))
    typer.echo(str(path))


def register(app: typer.Typer) -> None:
    app.command("program", help="One ceremony as a self-contained HTML booklet (or JSON).")(program)
