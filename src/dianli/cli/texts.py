"""``dianli texts``: list the witnesses, show a witness or one of its sections, search all of them."""

from __future__ import annotations

import csv
import io
import json
from enum import StrEnum

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from dianli.cli.common import console, run_guarded, show_table, write_text_output
from dianli.comparison.record import FIELDS as RECORD_FIELDS
from dianli.comparison.record import corpus_table
from dianli.corpus.search import search
from dianli.corpus.sections import find_sections, sections
from dianli.corpus.tree import section_defs
from dianli.corpus.witnesses import WitnessInfo, load_witness, manifest, witness_ids

texts_app = typer.Typer(
    help="Read and search the witnesses (the source texts).",
    no_args_is_help=True,
)

NOTE_STYLE = "dim italic cyan"
HIT_STYLE = "bold black on yellow"


class ListFormat(StrEnum):
    text = "text"
    csv = "csv"
    json = "json"


@texts_app.command("list")
@run_guarded
def list_witnesses(
    fmt: ListFormat = typer.Option(  # noqa: B008
        ListFormat.text,
        "--format",
        "-f",
        help="text: the witnesses with their years, places and sections; csv or json: the corpus table — "
        "how each was made (harvested from which pages, when), its clauses and the share aligned, its "
        "drafted readings pending, accepted, rejected and edited, and the texts set aside with why.",
    ),
) -> None:
    """List the witnesses: id, title, year, script, authority, the places each governs, its sections; or,
    with --format csv or json, the corpus table of how each was made and reviewed."""
    if fmt is not ListFormat.text:
        _corpus_table(fmt)
        return
    table = Table(title="Witnesses", show_lines=False)
    for column in ("id", "title", "compiled", "script", "language", "authority", "governs", "sections"):
        table.add_column(column)
    for info in manifest():
        count = len({s.id for s in sections(info.id)})
        table.add_row(
            info.id,
            info.title,
            str(info.compiled_year),
            info.script,
            info.language,
            info.authority,
            _governs(info),
            str(count),
        )
    show_table(table)


def _corpus_table(fmt: ListFormat) -> None:
    rows = corpus_table()
    if fmt is ListFormat.json:
        data = [dict(zip(RECORD_FIELDS, r.row(), strict=True)) for r in rows]
        write_text_output(json.dumps(data, ensure_ascii=False, indent=1), None)
        return
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(RECORD_FIELDS)
    writer.writerows(r.row() for r in rows)
    write_text_output(buffer.getvalue(), None)


def _governs(info: WitnessInfo) -> str:
    """The places a witness governs with their years (``taiwan-fu 1742–``), or what it translates."""
    if not info.governs:
        return f"— (translates {info.translation_of})" if info.translation_of else "—"
    return ", ".join(
        f"{g.place} {g.from_year}–{g.until_year if g.until_year is not None else ''}" for g in info.governs
    )


SMALL_PRINT_MARKS = ("⟨", "⟩")
"""Where colour is not shown (a pipe, a file), 001's small print is wrapped in these marks; the notes in
brackets carry their brackets anyway."""

GAP_STYLE = "dim"
GAP_MARKS = ("〔", "〕")
"""An editorial span (a transcriber's header or mark, not the historical text) is printed as a gap: its
kind and its own words between these marks, dimmed, in place of its characters."""


def gap_label(kind: str, words: str) -> str:
    """How a gap is printed: ``〔omitted: …〕``."""
    return f"{GAP_MARKS[0]}{kind}: {words}{GAP_MARKS[1]}"


def _styled(witness: str, start: int, end: int, highlight: tuple[tuple[int, int], ...] = ()) -> Text:
    """Reading text from start to end with notes dimmed, gaps marked and highlighted spans marked."""
    norm = load_witness(witness).norm
    plain = not console.is_terminal
    opens: dict[int, int] = {}
    closes: dict[int, int] = {}
    styles: list[tuple[str, int, int]] = []
    for note in norm.notes:
        s, e = max(note.start, start), min(note.end, end)
        if s < e:
            styles.append((NOTE_STYLE, s, e))
            if plain and note.kind == "small-print":
                opens[s] = opens.get(s, 0) + 1
                closes[e] = closes.get(e, 0) + 1
    for s, e in highlight:
        s, e = max(s, start), min(e, end)
        if s < e:
            styles.append((HIT_STYLE, s, e))
    gaps = {max(g.start, start): g for g in norm.editorial if g.start < end and start < g.end}
    out = Text()
    position: list[int] = []  # reading-text offset - start -> offset in out
    in_gap: list[bool] = []
    skip_to = start
    for i in range(start, end + 1):
        out.append(SMALL_PRINT_MARKS[1] * closes.get(i, 0))
        position.append(len(out))
        in_gap.append(i < skip_to)
        if i < skip_to or i == end:
            continue
        out.append(SMALL_PRINT_MARKS[0] * opens.get(i, 0))
        position[-1] = len(out)
        if (gap := gaps.get(i)) is not None:
            out.append(gap_label(gap.kind, gap.words), style=GAP_STYLE)
            in_gap[-1] = True
            skip_to = min(gap.end, end)
        else:
            out.append(norm.text[i])
    for style, s, e in styles:
        # Style only the characters shown as text: a gap keeps its own style.
        run: int | None = None
        for i in range(s, e + 1):
            if i < e and not in_gap[i - start]:
                run = i if run is None else run
            elif run is not None:
                out.stylize(style, position[run - start], position[i - 1 - start] + 1)
                run = None
    return out


@texts_app.command("show")
@run_guarded
def show(
    witness: str = typer.Argument(..., help="Witness id (see `dianli texts list`)."),
    section: str | None = typer.Argument(None, help="Section id or title (e.g. xianshi.zhisheng or 陳設)."),
    raw: bool = typer.Option(False, "--raw", help="Print the raw text as stored, layout and tags included."),
) -> None:
    """Show a witness, or one section of it. Notes are shown dimmed and editorial marks as gaps in 〔…〕;
    the section tree without SECTION."""
    wit = load_witness(witness) if witness in witness_ids() else None
    if wit is None:
        load_witness(witness)  # raises the error that names the accepted ids
        return
    if section is None:
        console.print(f"[bold]{escape(wit.info.title)}[/] ({witness})")
        console.print(escape(wit.info.edition))
        for sec in sections(witness):
            mid = " [yellow](starts mid-section)[/]" if sec.mid_start else ""
            heading = f" — {escape(sec.heading)}" if sec.heading else ""
            console.print(f"{'  ' * sec.depth}{sec.id}  {escape(sec.title)}{heading}{mid}")
        return
    for sec in find_sections(witness, section):
        title = section_defs()[sec.id].title
        mid = " (starts mid-section: its beginning is lost in this witness)" if sec.mid_start else ""
        console.print(Text(f"{witness} · {sec.id} · {title}{mid}", style="bold"))
        if raw:
            norm = wit.norm
            r0, r1 = norm.raw_span(sec.start, sec.end)
            console.print(Text(norm.raw[r0:r1]))
        else:
            console.print(_styled(witness, sec.start, sec.end))
        console.print()


@texts_app.command("search")
@run_guarded
def search_command(
    query: str = typer.Argument(..., help="Words to find; several words separated by spaces must all occur."),
    witness: str | None = typer.Option(None, "--witness", "-w", help="Only this witness."),
    section: str | None = typer.Option(None, "--section", "-s", help="Only this section and those below it."),
    limit: int = typer.Option(20, "--limit", "-n", min=1, help="How many hits to show."),
    context: int = typer.Option(20, "--context", "-c", min=0, max=400, help="Characters of context."),
    as_json: bool = typer.Option(False, "--json", help="Print the hits as JSON."),
) -> None:
    """Search every witness, script-insensitively (钟 finds 鐘), ranked by how well a clause matches."""
    hits = search(query, witness=witness, section=section)
    if as_json:
        payload = [
            {
                "witness": h.witness,
                "section": h.section,
                "kind": h.clause.kind,
                "start": h.clause.start,
                "end": h.clause.end,
                "text": h.clause.text,
                "matches": [list(s) for s in h.spans],
                "score": h.score,
            }
            for h in hits[:limit]
        ]
        typer.echo(
            json.dumps({"query": query, "total": len(hits), "hits": payload}, ensure_ascii=False, indent=2)
        )
        return
    console.print(
        f"{len(hits)} hit(s) for [bold]{escape(query)}[/]"
        + (f"; showing {limit}" if len(hits) > limit else "")
    )
    for hit in hits[:limit]:
        norm = load_witness(hit.witness).norm
        start = max(0, hit.clause.start - context)
        end = min(len(norm.text), hit.clause.end + context)
        title = section_defs()[hit.section].title
        console.print(
            Text(f"{hit.witness} · {hit.section} ({title}) · {hit.clause.kind}", style="bold green")
        )
        console.print(_styled(hit.witness, start, end, hit.spans))


def register(app: typer.Typer) -> None:
    """Add ``dianli texts`` to the root command."""
    app.add_typer(texts_app, name="texts")
