"""``dianli ingest``: every witness folder of a folder aligned to the model, in parallel (Dask)."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import warnings
from enum import StrEnum
from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dianli import written
from dianli.cli.common import (
    check_output_folder,
    err_console,
    force_option,
    run_guarded,
    scheduler_option,
    workers_option,
    wrap,
    write_file,
    write_text_output,
    writing_to,
)
from dianli.comparison.ingest import IngestRun, corpus_folder, draft_corpus, ingest
from dianli.corpus.witnesses import ALIGNMENT_FILE
from dianli.corpus.witnesses import package_root as package_witnesses

CLASSES = ("same", "variant", "new", "missing")


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


def _rows(run: IngestRun) -> list[list[str]]:
    return [
        [r.witness, str(r.clauses), *(str(r.counts.get(k, 0)) for k in CLASSES), f"{r.seconds:.2f}"]
        for r in run.results
    ]


def _text(run: IngestRun) -> str:
    head = "\n".join(
        wrap(
            f"{len(run.results)} witnesses of {run.folder}: {run.clauses:,} clauses in {run.seconds:.1f} s "
            f"on {run.workers} worker(s) ({run.scheduler})",
            80,
        )
    )
    table = [["witness", "clauses", *CLASSES, "s"], *_rows(run)]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in table
    ]
    return "\n".join([head, *lines])


def _csv(run: IngestRun) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["witness", "clauses", *CLASSES, "seconds"])
    writer.writerows(_rows(run))
    return buffer.getvalue()


def register(app: typer.Typer) -> None:
    @app.command("ingest")
    @run_guarded
    def ingest_command(
        folder: Path | None = typer.Argument(  # noqa: B008
            None,
            help="A folder of witness folders (each with its witness.yaml), one witness folder, or a folder "
            "of transcribed gazetteers (*.txt with a SOURCE/WORK header) to draft with --drafts. "
            "Default: the witnesses that ship with dianli.",
        ),
        drafts: Path | None = typer.Option(  # noqa: B008
            None,
            "--drafts",
            help="Draft a witness folder here for each transcribed *.txt of FOLDER (manifest guessed from the "
            "file: compiled year, place, section anchors — labelled assumptions), then ingest the drafts.",
        ),
        scheduler: str | None = scheduler_option(),
        workers: int | None = workers_option(),
        witness: list[str] | None = typer.Option(  # noqa: B008
            None, "--witness", "-w", help="Only these witnesses of the folder (repeatable)."
        ),
        out: Path | None = typer.Option(  # noqa: B008
            None,
            "--out",
            "-o",
            help="Write each witness's alignment report (<id>.alignment.json) and draft reading "
            "(<id>.draft.yaml) and summary.csv into this folder.",
        ),
        write: bool = typer.Option(
            False,
            "--write",
            help=f"Write each witness's {ALIGNMENT_FILE} into its folder (as align --write).",
        ),
        fmt: Format = typer.Option(Format.text, "--format", "-f", help="Summary as text, json or csv."),  # noqa: B008
        force: bool = force_option(),
    ) -> None:
        """Align every witness of FOLDER to the model in parallel with Dask: one task per witness, on local
        processes or a dask.distributed cluster; print clauses and classes per witness."""
        for given, option in ((drafts, "--drafts"), (out, "--out")):
            if given is not None:
                check_output_folder(given, option)
        if folder is None:
            folder = package_witnesses()
        if drafts is not None:
            with writing_to(drafts), warnings.catch_warnings(record=True) as warned:
                warnings.simplefilter("always")
                folder = draft_corpus(folder, drafts, force)  # the drafts' folder made and written
            for warning in warned:  # the message only: no code path is shown to a reader
                err_console.print(f"warning: {warning.message}", markup=False, highlight=False)
            err_console.print(f"drafted witness folders in {drafts}")
        _, found = corpus_folder(folder)
        wanted = tuple(witness) if witness else tuple(w for w, _ in found)
        # every file the run will replace is checked before the alignment (none written if one is refused)
        if out is not None:
            names = [f"{w}.{end}" for w in wanted for end in ("alignment.json", "draft.yaml")]
            written.check([out / name for name in [*names, "summary.csv"]], force)
        if write:
            written.check([where / ALIGNMENT_FILE for w, where in found if w in wanted], force)
        show = sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
        columns = (TextColumn("aligning"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=err_console, transient=True, disable=not show) as bar:
            task = bar.add_task("ingest", total=len(wanted))
            run = ingest(
                folder,
                scheduler=scheduler,
                workers=workers,
                witnesses=wanted,
                progress=lambda _w: bar.advance(task),
            )
        if out is not None:
            with writing_to(out):
                out.mkdir(parents=True, exist_ok=True)
            for r in run.results:
                data = json.dumps(r.report, ensure_ascii=False, indent=1)
                write_file(out / f"{r.witness}.alignment.json", data, force)
                write_file(out / f"{r.witness}.draft.yaml", r.draft, force)
            write_file(out / "summary.csv", _csv(run), force)
            err_console.print(f"wrote {len(run.results) * 2 + 1} files to {out}")
        if drafts is not None:  # each drafted witness's differing facts, proposed for review
            from dianli.corpus.witnesses import DRAFTED_FILE

            proposed = [r for r in run.results if r.drafted_readings]
            for r in proposed:
                with writing_to(Path(r.folder) / "readings"):
                    (Path(r.folder) / "readings").mkdir(exist_ok=True)
                write_file(Path(r.folder) / "readings" / DRAFTED_FILE, r.drafted_readings, force)
            if proposed:
                err_console.print(
                    f"drafted readings for {len(proposed)} witnesses (review: dianli align W --review)",
                    markup=False,
                    highlight=False,
                )
        if write:
            for r in run.results:
                write_file(Path(r.folder) / ALIGNMENT_FILE, r.alignment_yaml, force)
            err_console.print(f"wrote {ALIGNMENT_FILE} in {len(run.results)} witness folders")
        if fmt is Format.json:
            summary = {
                "folder": run.folder,
                "scheduler": run.scheduler,
                "workers": run.workers,
                "seconds": round(run.seconds, 3),
                "witnesses": [
                    {"witness": r.witness, "clauses": r.clauses, **r.counts, "seconds": round(r.seconds, 3)}
                    for r in run.results
                ],
            }
            write_text_output(json.dumps(summary, ensure_ascii=False, indent=1), None)
        elif fmt is Format.csv:
            write_text_output(_csv(run), None)
        else:
            write_text_output(_text(run), None)
