"""``dianli variants [--rule R] [--rite RITE]``: every rule the witnesses read differently — which witness
says what, where and from when each reading is in force, each reading cited — as text, JSON or CSV, and
as a timeline and a map (SVG drawn offline).

The text fits the terminal (80 columns when piped): every line is wrapped, nothing is cut.
"""

from __future__ import annotations

import csv
import io
import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

import dianli
from dianli.cli.common import (
    FORCE_HELP,
    check_output_path,
    display_width,
    format_for,
    run_guarded,
    wrap,
    write_file,
    write_text_output,
)
from dianli.cli.common import width as layout_width
from dianli.comparison.dynasty import CHANGES, Change, before_and_after, boundary_label, qing_start
from dianli.comparison.ranking import Ranked, ranked
from dianli.comparison.variation import Reading as VariationReading
from dianli.comparison.variation import Rule as VariationRule
from dianli.comparison.variation import format_ranges as format_year_ranges
from dianli.comparison.variation import rule_record as variation_record
from dianli.corpus.labels import witness_label
from dianli.errors import DianliError
from dianli.rites.labels import rule_label

LABEL = 11
"""Width of the field names (``stated by`` …) of a reading."""
INDENT = 4


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


CLOSING = "」』）】〉》，。、；：！？,.;:)"
"""Marks that do not begin a line: a wrapped line that would, takes them at its end instead."""


def _wrap_marks(value: str, room: int) -> list[str]:
    """``value`` wrapped in ``room`` columns, closing marks kept at the end of the line before."""
    lines = wrap(value, room - 2, indent=0)
    for i in range(1, len(lines)):
        while lines[i][:1] and lines[i][0] in CLOSING and display_width(lines[i - 1] + lines[i][0]) <= room:
            lines[i - 1] += lines[i][0]
            lines[i] = lines[i][1:]
    return [line for line in lines if line] or [""]


def _field(name: str, values: list[str], width: int) -> list[str]:
    """``name`` then its values, each wrapped under the others; no value is cut."""
    out: list[str] = []
    room = max(width - INDENT - LABEL - 1, 20)
    for number, value in enumerate(values):
        head = " " * INDENT + (name if number == 0 else "").ljust(LABEL) + " "
        lines = _wrap_marks(value, room)
        out.append(head + lines[0])
        out.extend(" " * len(head) + line for line in lines[1:])
    return out


def _reading_lines(reading: VariationReading, width: int) -> list[str]:
    lines = wrap(f"[{reading.number}] {reading.value}", width, indent=INDENT)
    if reading.empty:
        lines = wrap(
            f"[{reading.number}] {reading.value} (nothing of this rule in their reading)", width, INDENT
        )
    lines += _field("stated by", [", ".join(map(witness_label, reading.witnesses)) or "—"], width)
    if reading.followers:
        lines += _field("followed by", [", ".join(map(witness_label, reading.followers))], width)
    if reading.scope:
        lines += _field("scope", [reading.scope], width)
    force = []
    for group in reading.governed():
        units = _count(len(group.places), "unit") if len(group.places) > 1 else group.places[0]
        stand = f" (standing in {format_year_ranges(group.standing_in)})" if group.standing_in else ""
        force.append(
            f"{group.unit_name} · {witness_label(group.witness)}: {units}, {format_year_ranges(group.years)}{stand}"
        )
    lines += _field("in force", force or ["at no unit of the place data"], width)
    cites = [
        f"{witness_label(c.witness)}「{c.quote}」"
        for w in reading.cited_witnesses()
        if (c := reading.first_citation(w))
    ]
    cites += [f"assumption: {a}" for a in reading.assumptions]
    if cites:
        lines += _field("cited", cites, width)
    return lines


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def text_report(rules: tuple[VariationRule, ...], width: int) -> str:
    """The rules as text no wider than ``width`` columns (a CJK character takes two)."""
    head = [
        *wrap(
            f"{_count(len(rules), 'rule')} read differently across the corpus "
            f"({_count(len({r.rite for r in rules}), 'rite')}). A reading is in force where the witness that "
            "governs the unit reads it (dianli places); --format json gives every unit and citation.",
            width,
            indent=0,
        )
    ]
    out = head
    for rule in rules:
        out.append("")
        out += wrap(
            f"{rule_label(rule)}: {_count(len(rule.readings), 'reading')} (--rule {rule.id})",
            width,
            2,
        )
        for reading in rule.readings:
            out += _reading_lines(reading, width)
    return "\n".join(out)


def _record(rule: VariationRule) -> dict[str, object]:
    """The rule as data, with its name in words (``title``: 「山川·祭期」) beside its id."""
    record = variation_record(rule)
    return {"id": record.pop("id"), "title": rule_label(rule), **record}


def csv_report(rules: tuple[VariationRule, ...]) -> str:
    """One row per reading and unit where it is in force (one row with no unit where it is nowhere)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "rule",
            "rite",
            "reading",
            "value",
            "witnesses",
            "followers",
            "place",
            "place_name",
            "governing_witness",
            "from_year",
            "until_year",
            "stands_in",
            "citations",
        ]
    )
    for rule in rules:
        for r in rule.readings:
            cites = " | ".join(f"{c.witness}「{c.quote}」" for c in r.citations)
            common = [rule.id, rule.rite, r.number, r.value, " ".join(r.witnesses), " ".join(r.followers)]
            if not r.spans:
                writer.writerow([*common, "", "", "", "", "", "", cites])
            for s in r.spans:
                row = [s.place, s.name, s.witness, s.from_year, s.until_year, s.stands_in, cites]
                writer.writerow([*common, *row])
    return buffer.getvalue()


def summary_text(found: tuple[Ranked, ...], width: int) -> str:
    """The ranked rules as text no wider than ``width``: a numbered paragraph each, then its evidence."""
    out = wrap(
        f"{_count(len(found), 'rule')} on which witnesses contradict each other, most varied first "
        "(disagreement: the share of pairs of witnesses stating the rule whose values contradict).",
        width,
        indent=0,
    )
    for number, item in enumerate(found, 1):
        out.append("")
        out += wrap(f"{number}. {item.sentence()} Disagreement {item.disagreement:.0%}.", width, indent=0)
        quotes = [f"{witness_label(s.witness)}「{s.quote}」" for r in item.readings for s in r.evidence]
        out += _field("evidence", quotes, width)
    return "\n".join(out)


def summary_csv(found: tuple[Ranked, ...]) -> str:
    """One row per ranked rule (its evidence in one column, ``title「quote」`` joined by `` | ``)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = ["rank", "rule", "rite", "kind", "disagreement", "readings", "witnesses", "places", "reigns"]
    columns += ["first_year", "last_year", "between_places", "across_reigns", "sentence", "evidence"]
    writer.writerow(columns)
    for number, item in enumerate(found, 1):
        r = item.record()
        evidence = " | ".join(f"{e['title']}「{e['quote']}」" for e in r["evidence"])
        plain = [r[c] for c in columns[1:11]]
        writer.writerow(
            [
                number,
                *plain,
                " ".join(r["between_places"]),
                " ".join(r["across_reigns"]),
                r["sentence"],
                evidence,
            ]
        )
    return buffer.getvalue()


def changes_text(found: tuple[Change, ...], boundary: int, width: int) -> str:
    """The changes at ``boundary`` as text no wider than ``width``: a numbered paragraph each."""
    if not found:
        return "\n".join(
            wrap(
                f"No change at {boundary_label(boundary)}: the corpus has no witness on one side of it, or "
                "none of the points stated on both sides differs.",
                width,
                indent=0,
            )
        )
    counts = ", ".join(f"{sum(c.change == k for c in found)} {k}" for k in CHANGES)
    out = wrap(
        f"What changed at {boundary_label(boundary)}: witnesses written before it against those written "
        f"after, compared as facts ({counts}).",
        width,
        indent=0,
    )
    for number, change in enumerate(found, 1):
        out.append("")
        out += wrap(f"{number}. [{change.change}] {change.sentence(boundary)}", width, indent=0)
    return "\n".join(out)


def _changes(rite: str | None, boundary: int | None, fmt: Format, out: str | None, force: bool) -> None:
    year = qing_start() if boundary is None else boundary
    found = before_and_after(rite, boundary=year)
    if fmt is Format.json:
        records = [c.record(year) for c in found]
        write_text_output(json.dumps(records, ensure_ascii=False, indent=1), out, force)
    elif fmt is Format.csv:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["change", "rite", "point", "before", "after", "kept_by", "sentence"])
        for c in found:
            r = c.record(year)
            sides = [
                " | ".join(f"{e['title']}: {e['value']}「{e['quote']}」" for e in r[k])
                for k in ("before", "after", "kept_by")
            ]
            writer.writerow([r["change"], r["rite"], r["label"], *sides, r["sentence"]])
        write_text_output(buffer.getvalue(), out, force)
    else:
        write_text_output(changes_text(found, year, layout_width()), out, force)


def _summary(rite: str | None, kind: str | None, fmt: Format, out: str | None, force: bool) -> None:
    found = ranked(rite, kind=kind)
    if fmt is Format.json:
        write_text_output(json.dumps([r.record() for r in found], ensure_ascii=False, indent=1), out, force)
    elif fmt is Format.csv:
        write_text_output(summary_csv(found), out, force)
    else:
        write_text_output(summary_text(found, layout_width()), out, force)


@run_guarded
def variants_command(
    rule: Annotated[
        str | None, typer.Option("--rule", "-r", help="One rule by id (dianli variants lists them).")
    ] = None,
    rite: Annotated[
        str | None, typer.Option("--rite", help="Only the rules of this rite (id or name).")
    ] = None,
    fmt: Annotated[
        Format | None,
        typer.Option("--format", "-f", help="text, json or csv (default: from the --out name, else text)."),
    ] = None,
    svg_timeline: Annotated[
        Path | None, typer.Option("--svg-timeline", help="Write the timeline of --rule as SVG to this file.")
    ] = None,
    svg_map: Annotated[
        Path | None, typer.Option("--svg-map", help="Write the map of --rule in --year as SVG to this file.")
    ] = None,
    year: Annotated[int | None, typer.Option("--year", "-y", help="The year of the --svg-map map.")] = None,
    summary: Annotated[
        bool,
        typer.Option(
            "--summary",
            help="Rank the rules by how much the witnesses contradict each other, across places and reigns, "
            "each with a sentence to quote and its evidence (facts compared as values).",
        ),
    ] = False,
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind", help="With --summary: only facts of this kind (date_rule, hymn, officiant …)."
        ),
    ] = None,
    dynasty: Annotated[
        bool,
        typer.Option(
            "--dynasty",
            help="What changed at the Qing's start: the witnesses written before 1644 (Ming, Song) against "
            "those after — values changed, rites dropped and added — each change cited.",
        ),
    ] = False,
    boundary: Annotated[
        int | None,
        typer.Option(
            "--boundary",
            min=1000,
            max=1911,
            help="With --dynasty: another year to compare before and after (1723: 雍正元年).",
        ),
    ] = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="Write the report to this file.")] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_HELP)] = False,
) -> None:
    """Which witness reads each differing rule how (the 厲壇 days, the hymns' names, the 祝文 …), where and
    from when each reading is in force, each reading cited; a timeline and a map of one rule."""
    if (svg_timeline or svg_map) and rule is None:
        raise DianliError(
            "--svg-timeline and --svg-map draw one rule: give --rule ID (dianli variants lists them)"
        )
    if svg_map is not None and year is None:
        raise DianliError(
            f"--svg-map {svg_map} needs --year Y: the map shows the readings in force that year"
        )
    if boundary is not None and not dynasty:
        raise DianliError(f"--boundary {boundary} sets the year of --dynasty: add --dynasty")
    if dynasty and (summary or rule is not None or svg_timeline or svg_map):
        raise DianliError("--dynasty compares every rule: it takes --rite, --boundary, --format and --out")
    if dynasty:
        fmt = format_for(Format, fmt, out, Format.text)
        if out is not None:
            check_output_path(Path(out), force)
        _changes(rite, boundary, fmt, out, force)
        return
    if summary and (rule is not None or svg_timeline or svg_map):
        raise DianliError(
            "--summary ranks every rule: it takes --rite, --kind, --format and --out, not --rule or SVG"
        )
    if kind is not None and not summary:
        raise DianliError(f"--kind {kind} chooses the facts of --summary: add --summary")
    fmt = format_for(Format, fmt, out, Format.text)
    if summary:
        if out is not None:
            check_output_path(Path(out), force)
        _summary(rite, kind, fmt, out, force)
        return
    for path, option in ((svg_timeline, "--svg-timeline"), (svg_map, "--svg-map"), (out, None)):
        if path is not None:
            check_output_path(path, force, option)
    found = dianli.variants(rule, rite)  # its figures name the version and data digest
    rules = found.rules
    if svg_timeline is not None:
        write_file(svg_timeline, found.timeline_svg(), force)
    if svg_map is not None and year is not None:
        write_file(svg_map, found.map_svg(year), force)
    if fmt is Format.json:
        write_text_output(json.dumps([_record(r) for r in rules], ensure_ascii=False, indent=1), out, force)
    elif fmt is Format.csv:
        write_text_output(csv_report(rules), out, force)
    else:
        write_text_output(text_report(rules, layout_width()), out, force)


def register(app: typer.Typer) -> None:
    """Add ``dianli variants`` to the root command."""
    app.command("variants")(variants_command)
