"""``dianli compare [RITE] [--witness W] [--kind K] [--verdict V]``: the witnesses compared as facts — for
each point of a rite (its days, officiants, hymns, postures, offerings …) the values each witness states,
and whether they differ, differ only in wording, or agree — from the correspondence table. ``--statements``
lists the table itself (who states what, where, with which value) as text, JSON or CSV.

The text fits the terminal (80 columns when piped): every line is wrapped, nothing is cut.
"""

from __future__ import annotations

import csv
import io
import json
from enum import StrEnum
from typing import Annotated

import typer

from dianli.cli.common import (
    check_output_path,
    force_option,
    format_for,
    run_guarded,
    wrap,
    write_text_output,
)
from dianli.cli.common import width as layout_width


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


STATEMENT_COLUMNS = (
    "witness", "title", "rite", "element", "kind", "slot", "value", "provenance", "quote", "section",
    "start", "end", "score",
)  # fmt: skip


def _verdict_word(verdict: str) -> str:
    return {"differs": "DIFFERS", "wording": "same facts, other words", "agrees": "agrees"}[verdict]


def text_report(rows: tuple, witness: str | None, width: int) -> str:  # type: ignore[type-arg]
    from dianli.comparison.compare import sentence, slot_label
    from dianli.corpus.labels import witness_label

    counts = {v: sum(1 for r in rows if r.verdict == v) for v in ("differs", "wording", "agrees")}
    out = wrap(
        f"{len(rows)} point{'' if len(rows) == 1 else 's'} stated by two witnesses or more: "
        f"{counts['differs']} differ{'s' if counts['differs'] == 1 else ''}, "
        f"{counts['wording']} agree{'s' if counts['wording'] == 1 else ''} in other words, "
        f"{counts['agrees']} agree{'s' if counts['agrees'] == 1 else ''} word for word. "
        "Facts are compared as values (days, offices, hymns, postures, counts), not as strings.",
        width,
        indent=0,
    )
    for row in rows:
        if len(row.cells) < 2 and witness is None:
            continue
        out.append("")
        out += wrap(f"{slot_label(row)} — {_verdict_word(row.verdict)}", width, 2)
        if witness is not None:
            out += wrap("  " + sentence(row, witness), width, 4)
            continue
        for group in row.groups:
            names = ", ".join(witness_label(w) for w in group.witnesses)
            out += wrap(f"  {'、'.join(group.values)} — {names}", width, 4)
    return "\n".join(out)


def statements_csv(records: list[dict[str, object]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=STATEMENT_COLUMNS, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(records)
    return buffer.getvalue()


def statements_text(records: list[dict[str, object]], width: int) -> str:
    """The statements as lines a reader reads: the witness's title, the point in words, the value, the quote."""
    from dianli.comparison.values import KINDS
    from dianli.rites.load import all_rites

    rites = all_rites()
    out: list[str] = wrap(
        f"{len(records)} statements (witness, point, value, provenance, quotation).", width, 0
    )
    for r in records:
        rite = str(r["rite"])
        point = rites[rite].names.classical[0] if rite in rites else "other cited data"
        point += f"·{KINDS[str(r['kind'])].label}" + (f"·{r['about']}" if r.get("about") else "")
        value = f"{r['value']} " if r["kind"] != "text" else ""
        out += wrap(f"{r['title']} · {point} · {value}({r['provenance']}) 「{r['quote']}」", width, 4)
    return "\n".join(out)


def register(app: typer.Typer) -> None:
    @app.command("compare")
    @run_guarded
    def compare_command(
        rite: Annotated[
            str | None, typer.Argument(help="A rite by id or name (all rites if left out).")
        ] = None,
        witness: Annotated[
            str | None,
            typer.Option("--witness", "-w", help="Only what this witness states, against the others."),
        ] = None,
        kind: Annotated[
            str | None,
            typer.Option(
                "--kind",
                "-k",
                help="One kind of fact: date_rule, officiant, venue, dimension, offering, hymn, posture, rounds, "
                "text (wording only).",
            ),
        ] = None,
        verdict: Annotated[
            str | None, typer.Option("--verdict", help="Only rows that differs, wording or agrees.")
        ] = None,
        statements: Annotated[
            bool, typer.Option("--statements", help="List the correspondence table's statements instead.")
        ] = False,
        fmt: Annotated[
            Format | None,
            typer.Option("--format", "-f", help="text, json or csv (default: from the --out name)."),
        ] = None,
        out: Annotated[str | None, typer.Option("--out", "-o", help="Write the report to this file.")] = None,
        force: bool = force_option(),
    ) -> None:
        """The witnesses compared as facts: per point of the rites, who states which value, and where they
        differ (a day, a hymn, an office, a count), differ only in wording, or agree."""
        from dianli.comparison.compare import checked, compare, row_record
        from dianli.comparison.table import Table, table
        from dianli.corpus.labels import witness_label

        fmt = format_for(Format, fmt, out, Format.text)
        check_output_path(out or "-", force)

        if statements:
            if verdict is not None:
                from dianli.errors import DianliError

                raise DianliError("--verdict applies to the comparison, not to --statements")
            found = Table(table().where(witness=witness, rite=checked(rite, witness, kind), kind=kind))
            records = [{**r, "title": witness_label(str(r["witness"]))} for r in found.records()]
            if fmt is Format.json:
                write_text_output(json.dumps(records, ensure_ascii=False, indent=1), out, force)
            elif fmt is Format.csv:
                write_text_output(statements_csv(records), out, force)
            else:
                write_text_output(statements_text(records, layout_width()), out, force)
            return
        result = compare(rite, witness=witness, kind=kind, verdict=verdict)
        if fmt is Format.json:
            write_text_output(
                json.dumps([row_record(r) for r in result], ensure_ascii=False, indent=1), out, force
            )
        elif fmt is Format.csv:
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(["slot", "rite", "kind", "verdict", "witness", "title", "values", "quotes"])
            for row in result:
                for cell in row.cells:
                    quotes = " | ".join(dict.fromkeys(s.quote for s in cell.statements))
                    writer.writerow(
                        [row.slot, row.rite, row.kind, row.verdict, cell.witness, witness_label(cell.witness),
                         "、".join(cell.values), quotes]
                    )  # fmt: skip
            write_text_output(buffer.getvalue(), out, force)
        else:
            write_text_output(text_report(result, witness, layout_width()), out, force)
