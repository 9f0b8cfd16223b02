"""``dianli sources [ID]``: every outside source with its grade, what it supports and where."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated
from urllib.parse import unquote

import typer

from dianli.cli.common import run_guarded, wrap, write_text_output
from dianli.corpus.labels import use_label
from dianli.corpus.sources import SourceKind
from dianli.errors import UnknownValueError
from dianli.outside import SourceUses, source_json, source_uses, source_uses_of

WIDTH = 80
SHOWN_USES = 3
"""Uses listed per source in the overview (all of them for one source)."""


class OutputFormat(StrEnum):
    text = "text"
    json = "json"


def _lines(prefix: str, text: str, hang: int) -> list[str]:
    """``text`` wrapped to the page after ``prefix`` (continuations ``hang`` columns further in)."""
    lines = wrap(text, WIDTH - len(prefix), indent=hang)
    return [(prefix if i == 0 else " " * len(prefix)) + line for i, line in enumerate(lines)]


def _block(entry: SourceUses, every_use: bool) -> list[str]:
    src = entry.source
    out = _lines("", f"{src.id}  {src.heading}", 4)
    details = [
        ("by", src.author),
        ("work", src.work if src.work and src.work != src.title else None),
        ("grade", src.grade + ("  (weak: never alone)" if src.weak else "")),
        ("at", unquote(src.where)),
        *(("also at", unquote(a)) for a in src.also_at),
        ("note", " ".join(src.note.split()) if src.note else None),
    ]
    for label, value in details:
        if value:
            out += _lines("  ", f"{label}: {value}", 4)
    uses = entry.uses if every_use else entry.uses[:SHOWN_USES]
    out.append(f"  supports ({len(entry.uses)}):" if entry.uses else "  supports: nothing")
    for use in uses:
        quote = f" 「{use.quote}」" if use.quote else ""
        if every_use:  # one source in full: where in the package, to the file and line
            out += _lines("    - ", f"{use.supports}{quote} — {use.where}", 2)
            continue
        what, where = use_label(use.supports, use.where)  # the overview: in words
        out += _lines("    - ", f"{what}{quote}" + (f" — {where}" if where else ""), 2)
    if len(uses) < len(entry.uses):
        out.append(f"    … and {len(entry.uses) - len(uses)} more (`dianli sources {src.id}`)")
    return out


def render(entries: tuple[SourceUses, ...], every_use: bool) -> str:
    """The sources grouped by kind, strongest first."""
    weak = sum(e.source.weak for e in entries)
    out = wrap(
        f"Outside sources: {len(entries)} ({weak} weak: a web summary, or read on a mirror or in a forum). "
        "A witness is not an outside source (`dianli texts list`).",
        WIDTH,
        indent=0,
    )
    for kind in SourceKind:
        group = [e for e in entries if e.source.kind is kind]
        if not group:
            continue
        out += ["", f"{kind.label} ({len(group)})"]
        for entry in group:
            out += ["", *_block(entry, every_use)]
    return "\n".join(out)


@run_guarded
def _sources(source: str | None, kind: str | None, weak: bool, output_format: OutputFormat) -> None:
    if source is not None:
        entries: tuple[SourceUses, ...] = (source_uses_of(source),)
    else:
        entries = source_uses()
    if kind is not None:
        kinds = [k.value for k in SourceKind]
        if kind not in kinds:
            raise UnknownValueError("--kind", kind, kinds)
        entries = tuple(e for e in entries if e.source.kind.value == kind)
    if weak:
        entries = tuple(e for e in entries if e.source.weak)
    if output_format is OutputFormat.json:
        text = json.dumps([source_json(e) for e in entries], ensure_ascii=False, indent=2)
    elif source is not None:
        text = "\n".join(_block(entries[0], every_use=True))
    else:
        text = render(entries, every_use=source is not None)
    write_text_output(text, None)


def register(app: typer.Typer) -> None:
    @app.command("sources")
    def sources_command(
        source: Annotated[
            str | None, typer.Argument(help="One outside source by id: its entry and every use.")
        ] = None,
        kind: Annotated[
            str | None,
            typer.Option(
                "--kind",
                help="Only this grade: primary, edition, scholarly, reference, news, web-summary.",
            ),
        ] = None,
        weak: Annotated[
            bool,
            typer.Option("--weak", help="Only the weak: web summaries, and texts read on mirrors or forums."),
        ] = False,
        output_format: Annotated[
            OutputFormat, typer.Option("--format", help="text or json.")
        ] = OutputFormat.text,
    ) -> None:
        """Every outside source (not a witness: statutes, the 會典, books, encyclopaedias, news, forum posts)
        with its grade — what the work is and how its text was read — what it supports and where."""
        _sources(source, kind, weak, output_format)
