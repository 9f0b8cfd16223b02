"""``dianli harvest``: the chapters of whole gazetteers that hold the state rites, as transcribed files."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from enum import StrEnum
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dianli.cli.common import (
    check_output_folder,
    err_console,
    force_option,
    run_guarded,
    scheduler_option,
    width,
    workers_option,
    wrap,
    write_file,
    write_text_output,
    writing_to,
)
from dianli.corpus.harvest import HarvestRun, harvest_sources

DEFAULT_OUT = Path("harvested")


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


HEADERS = ("work", "pages", "characters", "taken", "passages", "file")


def _rows(run: HarvestRun) -> list[list[str]]:
    return [
        [
            r.title,
            str(r.pages) if r.pages else "text",
            f"{r.characters:,}",
            f"{r.taken:,}",
            str(r.passages),
            r.name if r.text else "(nothing found)",
        ]
        for r in run.results
    ]


def _text(run: HarvestRun, out: Path) -> str:
    found = sum(1 for r in run.results if r.text)
    head = wrap(
        f"{len(run.results)} work(s) read, {found} with passages of the state rites, written to {out}; "
        f"{run.seconds:.1f} s on {run.workers} worker(s) ({run.scheduler})",
        width(),
    )
    table = [list(HEADERS), *_rows(run)]
    from dianli.cli.common import display_width

    widths = [max(display_width(row[i]) for row in table) for i in range(len(HEADERS))]
    lines = []
    for row in table:
        cells = []
        for i, (cell, w) in enumerate(zip(row, widths, strict=True)):
            pad = " " * (w - display_width(cell))
            cells.append(cell + pad if i in (0, 5) else pad + cell)
        lines.append("  ".join(cells).rstrip())
    if any(display_width(line) > width() for line in lines):  # too wide: one record a work
        from dianli.cli.common import records

        lines = records("", list(HEADERS), _rows(run), width())
    return "\n".join([*head, *lines]).rstrip()


def _csv(run: HarvestRun) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([*HEADERS, "seconds"])
    for r in run.results:
        writer.writerow(
            [
                r.title,
                r.pages,
                r.characters,
                r.taken,
                r.passages,
                r.name if r.text else "",
                f"{r.seconds:.3f}",
            ]
        )
    return buffer.getvalue()


def register(app: typer.Typer) -> None:
    @app.command("harvest")
    @run_guarded
    def harvest_command(
        sources: list[Path] = typer.Argument(  # noqa: B008
            ...,
            help="Plain-text whole gazetteers (*.txt), GuWen HTML pages of a git clone (*.html), page "
            "extracts (*.txt opening with PAGE:), or folders of them; the pages of one work are joined in "
            "page order.",
            show_default=False,
        ),
        out: Path = typer.Option(  # noqa: B008
            DEFAULT_OUT,
            "--out",
            "-o",
            help="Folder to write one transcribed file per work into (<title in pinyin>.txt; created).",
        ),
        scheduler: str | None = scheduler_option(),
        workers: int | None = workers_option(),
        fmt: Format = typer.Option(Format.text, "--format", "-f", help="Summary as text, json or csv."),  # noqa: B008
        force: bool = force_option(),
    ) -> None:
        """Find the chapters and passages of whole gazetteers that hold the state rites (典禮, 祀典, 禮制,
        壇廟, 祭禮 and 文廟 of a 學校志, 祠祀) by their headings and their vocabulary, and write each work's
        as one transcribed file (SOURCE/WORK/NOTE/SECTIONS header, =====, the passages verbatim, what was
        left out marked [OMITTED: …]) for `dianli ingest DIR --drafts OUT`."""
        check_output_folder(out, "--out")
        show = sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
        columns = (TextColumn("harvesting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=err_console, transient=True, disable=not show) as bar:
            task = bar.add_task("harvest", total=None)

            def done(_title: str) -> None:
                bar.advance(task)

            def counted(works: int) -> None:
                bar.update(task, total=works)

            run = harvest_sources(
                sources, scheduler=scheduler, workers=workers, progress=done, counted=counted
            )
        written = [r for r in run.results if r.text]
        if written:
            from dianli import written as written_files

            written_files.check([out / r.name for r in written], force)
            with writing_to(out):
                out.mkdir(parents=True, exist_ok=True)
            for r in written:
                write_file(out / r.name, r.text, force)
        if fmt is Format.json:
            summary = {
                "out": str(out),
                "scheduler": run.scheduler,
                "workers": run.workers,
                "seconds": round(run.seconds, 3),
                "works": [
                    {
                        "work": r.title,
                        "pages": r.pages,
                        "characters": r.characters,
                        "taken": r.taken,
                        "passages": r.passages,
                        "file": r.name if r.text else None,
                        "seconds": round(r.seconds, 3),
                    }
                    for r in run.results
                ],
            }
            write_text_output(json.dumps(summary, ensure_ascii=False, indent=1), None)
        elif fmt is Format.csv:
            write_text_output(_csv(run), None)
        else:
            write_text_output(_text(run, out), None)
