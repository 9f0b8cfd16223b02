"""``dianli collate``: the witnesses of a rite's section side by side, differences marked; TEI and JSON."""

from __future__ import annotations

from enum import StrEnum

import typer

from dianli.api import collate, collatex_json, collation_html, collation_lines, collation_tei
from dianli.cli.common import check_output_path, force_option, format_for, run_guarded, write_text_output


class Format(StrEnum):
    text = "text"
    html = "html"
    tei = "tei"
    json = "json"


def register(app: typer.Typer) -> None:
    @app.command("collate")
    @run_guarded
    def collate_command(
        rite: str = typer.Argument(..., help="A rite by id or name (dianli rites list), e.g. 社稷."),
        section: str | None = typer.Argument(
            None, help="Narrow to one of the rite's sub-sections (id or title, e.g. sheji.chenshe)."
        ),
        fmt: Format | None = typer.Option(  # noqa: B008
            None, "--format", "-f", help="text, html, tei or json (default: from the --out name, else text)."
        ),
        base: str | None = typer.Option(
            None, "--base", help="The witness whose readings are the lemma (default: the closest to all)."
        ),
        width: int = typer.Option(80, "--width", min=30, help="Text: wrap lines at this many columns."),
        out: str | None = typer.Option(None, "--out", "-o", help="Write to this file."),
        force: bool = force_option(),
    ) -> None:
        """Collate every witness that holds RITE's section (or SECTION inside it): compared on the folding
        key (script and variant characters are not differences), each witness shown in its own characters.
        text: the agreeing text once (=) and each varying column as a block of `SIGLA reading` lines;
        html: the alignment table; tei: TEI P5 parallel segmentation; json: CollateX's alignment table."""
        fmt = format_for(Format, fmt, out, Format.text)
        check_output_path(out or "-", force)
        result = collate(rite, section, base=base)
        if fmt is Format.tei:
            write_text_output(collation_tei(result), out, force)
        elif fmt is Format.json:
            write_text_output(collatex_json(result), out, force)
        elif fmt is Format.html:
            write_text_output(collation_html(result), out, force)
        else:
            write_text_output("\n".join(collation_lines(result, width)), out, force)
