"""``dianli collate``: the witnesses of a rite's section side by side — character by character when they are
one textual family, else synoptically, point by point — as text, HTML, TEI, CSV or JSON."""

from __future__ import annotations

import json
from enum import StrEnum

import typer

import dianli
from dianli.cli.common import check_output_path, force_option, format_for, run_guarded, write_text_output
from dianli.comparison.collate_tei import to_collatex_json as collatex_json


class Format(StrEnum):
    text = "text"
    html = "html"
    tei = "tei"
    json = "json"
    csv = "csv"


class Kind(StrEnum):
    auto = "auto"
    textual = "textual"
    synoptic = "synoptic"


def register(app: typer.Typer) -> None:
    @app.command("collate")
    @run_guarded
    def collate_command(
        rite: str = typer.Argument(..., help="A rite by id or name (dianli rites list), e.g. 社稷."),
        section: str | None = typer.Argument(
            None, help="Narrow to one of the rite's sub-sections (id or title, e.g. sheji.chenshe)."
        ),
        fmt: Format | None = typer.Option(  # noqa: B008
            None,
            "--format",
            "-f",
            help="text, html, tei, csv or json (default: from the --out name, else text).",
        ),
        kind: Kind = typer.Option(  # noqa: B008
            Kind.auto,
            "--kind",
            "-k",
            help="textual (character by character), synoptic (point by point), or auto: textual when the "
            "witnesses are one textual family, else synoptic (the command says which and why).",
        ),
        base: str | None = typer.Option(
            None,
            "--base",
            help="Textual: the witness whose readings are the lemma (default: the closest to all).",
        ),
        width: int = typer.Option(80, "--width", min=30, help="Text: wrap lines at this many columns."),
        out: str | None = typer.Option(None, "--out", "-o", help="Write to this file."),
        force: bool = force_option(),
    ) -> None:
        """Collate every witness that holds RITE's section (or SECTION inside it). Witnesses of one textual
        family (one copies the other: long shared runs of characters) are collated character by character,
        compared on the folding key; witnesses that wrote their own text are set side by side synoptically,
        one row per point of the rite (its days, officiants, offerings, each call), one cell per witness,
        differing values marked. text; html (readable on a phone); tei: TEI P5 (textual: parallel
        segmentation; synoptic: an <app> per point); csv (synoptic); json (textual: CollateX's alignment
        table; synoptic: one record per point)."""
        from dianli.cli.common import err_console
        from dianli.comparison.synoptic import (
            choose,
            synopsis,
            synopsis_csv,
            synopsis_html,
            synopsis_lines,
            synopsis_records,
            synopsis_tei,
        )
        from dianli.errors import DianliError

        fmt = format_for(Format, fmt, out, Format.text)
        check_output_path(out or "-", force)
        chosen, why = choose(rite, section)
        if kind is not Kind.auto:
            chosen = kind.value
        err_console.print(f"{chosen} collation: {why}", markup=False, highlight=False)
        if chosen == "synoptic":
            result = synopsis(rite, section)
            if fmt is Format.tei:
                write_text_output(synopsis_tei(result), out, force)
            elif fmt is Format.csv:
                write_text_output(synopsis_csv(result), out, force)
            elif fmt is Format.json:
                records = synopsis_records(result)
                write_text_output(json.dumps(records, ensure_ascii=False, indent=1), out, force)
            elif fmt is Format.html:
                write_text_output(synopsis_html(result), out, force)
            else:
                write_text_output("\n".join(synopsis_lines(result, width)), out, force)
            return
        if fmt is Format.csv:
            raise DianliError(
                "--format csv is a table of points: use it with the synoptic collation (--kind synoptic)"
            )
        found = dianli.collate(rite, section, base=base)
        if fmt is Format.tei:
            write_text_output(found.tei(), out, force)
        elif fmt is Format.json:
            write_text_output(collatex_json(found.collation), out, force)
        elif fmt is Format.html:
            write_text_output(found.html(), out, force)  # names the version and data digest
        else:
            write_text_output(found.text(width), out, force)
