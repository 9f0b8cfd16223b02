"""``dianli rites``: list the rites, show one as an order of service, compare witnesses."""

from __future__ import annotations

import io
import json
from enum import StrEnum

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dianli.cli.common import (
    check_output_path,
    console,
    force_option,
    format_for,
    print_item,
    run_guarded,
    show_table,
    write_text_output,
)
from dianli.corpus.labels import witness_label
from dianli.places.governs import governance
from dianli.program.exhibits import rite_exhibits
from dianli.rites.expand import NumberedStep
from dianli.rites.occasion import OccasionMember, occasion_html, occasion_of, occasion_relation
from dianli.rites.prayer import filled_texts
from dianli.rites.render import plan_lines as rite_plan_lines
from dianli.rites.render import source_label as rite_source_label
from dianli.rites.render import step_data as rite_step_data
from dianli.rites.render import step_line as rite_step_line
from dianli.rites.render import to_data as rite_to_data
from dianli.rites.render import to_html as rite_to_html
from dianli.rites.render import venue_line as rite_venue_line
from dianli.rites.variants import rite_catalogue
from dianli.rites.years import FIRST_YEAR as RITE_FIRST_YEAR
from dianli.rites.years import LAST_YEAR as RITE_LAST_YEAR


class Format(StrEnum):
    text = "text"
    html = "html"
    json = "json"


def register(app: typer.Typer) -> None:
    rites = typer.Typer(help="The rites as cited data: list, show an order of service, diff witnesses.")
    app.add_typer(rites, name="rites")

    @rites.command("list")
    @run_guarded
    def list_() -> None:
        """Every rite: id, classical names, gloss."""
        table = Table("id", "names", "gloss", title="rites")
        for rid, names, gloss in rite_catalogue():
            table.add_row(rid, "、".join(names), gloss)
        show_table(table)

    @rites.command("show")
    @run_guarded
    def show(
        rite: str = typer.Argument(..., help="Rite id or name (祀先師, 釋奠, xianshi …)."),
        place: str = typer.Option(..., "--place", "-p", help="Place id or name (臺灣府, 福州 …)."),
        year: int = typer.Option(
            ..., "--year", "-y", help=f"Gregorian year, {RITE_FIRST_YEAR}–{RITE_LAST_YEAR}."
        ),
        witness: str | None = typer.Option(None, "--witness", "-w", help="Another witness's reading."),
        practice: str | None = typer.Option(
            None, "--practice", help="A practice profile whose day replaces the texts' rule (after 1911)."
        ),
        role: str | None = typer.Option(None, "--role", "-r", help="Print only this role's cue sheet."),
        fmt: Format | None = typer.Option(  # noqa: B008
            None, "--format", "-f", help="text, html or json (default: from the --out name, else text)."
        ),
        out: str | None = typer.Option(None, "--out", "-o", help="Write to this file."),
        alone: bool = typer.Option(
            False, "--alone", help="Only RITE, without the rites held with it on the same occasion."
        ),
        force: bool = force_option(),
    ) -> None:
        """The numbered order of service of RITE at a place in a year: of its whole occasion (the rites
        its data holds before and after it, e.g. 崇聖祠 before 文廟), numbered across, unless --alone."""
        fmt = format_for(Format, fmt, out, Format.text)
        check_output_path(out or "-", force)
        occasion = occasion_of(rite, place, year, witness, practice)
        r = occasion.main.resolved
        members = [occasion.main] if alone else list(occasion.members)
        numbered: list[tuple[int, OccasionMember, NumberedStep]] = []
        for m in members:
            base = len(numbered)
            numbered += [(base + n.number, m, n) for n in m.resolved.steps]
        steps = [t for t in numbered if role is None or (t[2].step.role and role in t[2].step.role)]
        if role is not None and not steps:
            roles = sorted({n.step.role for _, _, n in numbered if n.step.role})
            from dianli.errors import UnknownValueError

            raise UnknownValueError("role", role, roles)
        exhibits = [x for m in members for x in rite_exhibits(m.resolved)] if role is None else []
        relations = {m.rite: occasion_relation(m, occasion) for m in occasion.members}
        if fmt is Format.json:
            data = rite_to_data(r, exhibits)
            if not occasion.alone:
                data["occasion"] = [
                    {
                        "rite": m.rite,
                        "name": m.name,
                        "day": m.day,
                        "relations": [
                            {"text": t, "citations": [{"witness": c.witness, "quote": c.quote} for c in cs]}
                            for t, cs in relations[m.rite]
                        ],
                        **({"reading_note": m.reading_note} if m.reading_note else {}),
                    }
                    for m in occasion.members
                ]
            data["steps"] = [
                {**rite_step_data(number, n.placed.part_title, n.step, m.resolved.witness), "rite": m.rite}
                for number, m, n in steps
            ]
            data["prayers"] = [  # each text filled for each occurrence of the year (dianli.rites.prayer)
                {"rite": m.rite, "id": f.id, "title": f.title, "occasion": f.occasion, "filled": f.filled}
                for m in members
                for f in filled_texts(m.resolved)
            ]
            write_text_output(json.dumps(data, ensure_ascii=False, indent=2), out, force)
            return
        if fmt is Format.html:
            page = rite_to_html(r, exhibits) if len(members) == 1 else occasion_html(occasion, rite_exhibits)
            write_text_output(page, out, force)
            return
        w = r.witness
        head = (
            f"[bold]{r.rite.names.classical[0]}[/] — {r.rite.names.gloss}\n"
            f"{r.place.name} ({r.place.level}) · {r.year} · witness [cyan]{witness_label(w)}[/]"
            + ("" if w == r.governing_witness else f" (governing: {witness_label(r.governing_witness)})")
            + f"\n[dim]{escape(governance(r.place.id, r.text_year or r.year).note)}[/]"
            + (f"\n[dim]{escape(r.note)}[/]" if r.note else "")
        )
        shown: list[RenderableType] = [Panel(head, expand=False)]
        if not occasion.alone:
            lines = []
            for i, m in enumerate(occasion.members, 1):
                mark = "[bold]" + escape(m.name) + "[/]" if m.rite == r.rite.id else escape(m.name)
                said = "；".join(
                    f"{t} ({witness_label(cs[0].witness)}「{escape(cs[0].quote)}」)" if cs else t
                    for t, cs in relations[m.rite]
                )
                lines.append(f"{i}. {mark}" + (f" — {said}" if said else ""))
            lines.append(
                "[dim]"
                + (
                    "only this rite is shown (--alone)"
                    if alone
                    else "the order of service numbers them as one"
                )
                + "; each rite alone: dianli rites show RITE --alone[/]"
            )
            shown.append(Panel("\n".join(lines), title="the occasion", title_align="left", expand=False))
        if role is None:
            if r.date_rules:
                shown.append("[bold]日期[/] " + "；".join(f"{d.text or d.name}" for d in r.date_rules))
            held = r.practice.rite(r.rite.id) if r.practice is not None else None
            if r.practice is not None and held is not None:
                days = "；".join(
                    f"{o.name}: {o.rule.method}" + (f", {o.time}" if o.time else "") for o in held.observances
                )
                shown.append(
                    f"[bold]today[/] {escape(r.practice.name)} ({r.practice.zone_label}): {escape(days)}"
                )
            offs = Table("function", "office", "source", title="獻官 officiants", title_justify="left")
            for o in r.officiants:
                src = rite_source_label(o, w)
                offs.add_row(o.function, o.office, f"[yellow]{src}[/]" if o.assumption else src)
            shown.append(offs)
            if r.venues:
                venues = Table(title="壇位 venues", title_justify="left")
                venues.add_column("venue", overflow="fold")
                venues.add_column("gloss")
                venues.add_column("source")
                for v in r.venues:
                    venues.add_row(rite_venue_line(v), v.gloss or "", rite_source_label(v, w))
                shown.append(venues)
            plan = rite_plan_lines(r)
            if plan:
                shown.append("[bold]陳設圖[/] " + rite_source_label(r.plan, w) if r.plan else "")
                shown.append(Text("\n".join(plan)))
        if role is None:  # the texts read in the rite, filled for each occurrence of the year
            for m in members:
                for f in filled_texts(m.resolved):
                    said = f"[bold]{escape(f.title)}[/]" + (f" — {escape(f.occasion)}" if f.occasion else "")
                    shown.append(Panel(escape(f.filled), title=said, title_align="left", expand=False))
        for x in exhibits:
            body = "\n".join((*(escape(line) for line in x.lines), f"[dim]{escape(x.pointer)}[/]"))
            title = escape(f"{x.title} — with {x.part_title}")
            shown.append(Panel(body, title=title, title_align="left", expand=False))
        table = Table(
            "#", "part", "role", "call / action", "source", title=f"儀注{' — ' + role if role else ''}"
        )
        current = None
        for number, m, n in steps:
            s = n.step
            if len(members) > 1 and m.rite != current:
                current = m.rite
                table.add_section()
                table.add_row("", f"[bold reverse] {escape(m.name)} [/]", "", "", "")
            src = rite_source_label(s, m.resolved.witness)
            table.add_row(
                str(number),
                n.placed.part_title,
                s.role or "",
                rite_step_line(s) + (f"\n[dim]{s.gloss}[/]" if s.gloss else ""),
                f"[dim]{src}[/]" if s.citations else f"[yellow]{src}[/]",
            )
        shown.append(table)
        if out and out != "-":
            recorder = Console(file=io.StringIO(), record=True, width=160, highlight=False)
            for item in shown:
                recorder.print(item)
            write_text_output(recorder.export_text(), out, force)
            return
        for item in shown:
            print_item(item)

    @rites.command("diff")
    @run_guarded
    def diff(rite: str = typer.Argument(..., help="Rite id or name.")) -> None:
        """Where the witnesses read RITE differently: for each point, each reading with the witnesses that
        state it in their own words, those that follow it, and its source — what dianli variants --rite
        reports, from the same correspondence table as dianli compare and coverage."""
        from dianli.comparison.variation import variation
        from dianli.rites.labels import rule_label

        rules = variation(rite=rite)
        table = Table("point", "reading", "stated by", "followed by", "source", title=f"variants of {rite}")
        for rule in rules:
            point = rule_label(rule)
            for reading in rule.readings:
                source = reading.source()
                table.add_row(
                    point if reading.number == 1 else "",
                    f"[{reading.number}] {reading.value}",
                    ", ".join(witness_label(w) for w in reading.witnesses) or "—",  # names, not ids (#14)
                    ", ".join(witness_label(w) for w in reading.followers) or "—",
                    source
                    if isinstance(source, str)
                    else f"{witness_label(source.witness)}「{source.quote}」",
                )
        show_table(table)
        if not rules:
            console.print("no variants recorded")
        else:
            console.print(f"where and when each reading is in force: dianli variants --rite {rite}")
