"""``dianli temples``: the 祠祀 of 臺灣府 and its 縣/廳 — every altar, temple and shrine, cited."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

import typer

from dianli.cli.common import check_output_path, force_option, format_for, run_guarded, write_text_output
from dianli.cli.lines import write_fitted
from dianli.corpus.labels import witness_label
from dianli.rites.temples import PlaceTemples, Temple, temples


class Format(StrEnum):
    text = "text"
    json = "json"


def _temple_lines(temple: Temple) -> list[str]:
    head = temple.name + (f"：{temple.location}" if temple.location else "")
    if temple.status:
        head += f"（{temple.status}）"
    lines = [f"  {head}"]
    for note in temple.notes:
        year = f" ({note.year})" if note.year else ""
        lines.append(f"      {'·' if note.kind != 'branch' else '+'} {note.text}{year}")
    return lines


def render_text(entries: tuple[PlaceTemples, ...]) -> str:
    """The list as plain text: the place heading, then each temple with its clauses."""
    lines: list[str] = []
    for entry in entries:
        source = f", {witness_label(entry.cite.witness)} 祠祀" if entry.cite is not None else ""
        lines.append(f"{entry.title} — {len(entry.temples)} entries{source}")  # names, not ids (#14)
        for temple in entry.temples:
            lines.extend(_temple_lines(temple))
        lines.append("")
    return "\n".join(lines)


def render_json(entries: tuple[PlaceTemples, ...]) -> str:
    """The list as JSON, with each temple's founding clause picked out."""
    data: list[dict[str, Any]] = []
    for entry in entries:
        items = []
        for temple in entry.temples:
            item = temple.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
            founding = temple.founding
            if founding is not None:
                item["founding"] = founding.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
            items.append(item)
        data.append({"place": entry.place, "title": entry.title, "temples": items})
    return json.dumps(data, ensure_ascii=False, indent=2)


def register(app: typer.Typer) -> None:
    @app.command("temples")
    @run_guarded
    def temples_command(
        place: str | None = typer.Option(None, "--place", "-p", help="Place id or name (臺灣府, 鳳山縣 …)."),
        fmt: Format | None = typer.Option(  # noqa: B008
            None, "--format", "-f", help="text or json (default: from the --out name, else text)."
        ),
        out: str | None = typer.Option(None, "--out", "-o", help="Write to this file."),
        force: bool = force_option(),
    ) -> None:
        """The 祠祀 of 臺灣府 and its 縣/廳 as their witness lists them: name, location, founder, year, notes."""
        fmt = format_for(Format, fmt, out, Format.text)
        check_output_path(out or "-", force)
        entries = temples(place)
        if fmt is Format.json:
            write_text_output(render_json(entries), out, force)
        else:
            write_fitted(render_text(entries), out, force=force)
