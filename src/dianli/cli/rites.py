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

from dianli.api import (
    RITE_FIRST_YEAR,
    RITE_LAST_YEAR,
    diff_rite,
    governance,
    resolve_rite,
    rite_catalogue,
    rite_exhibits,
    rite_plan_lines,
    rite_source_label,
    rite_step_line,
    rite_to_data,
    rite_to_html,
    rite_venue_line,
)
from dianli.cli.common import console, run_guarded, write_text_output


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
        console.print(table)

    @rites.command("show")
    @run_guarded
    def show(
        rite: str = typer.Argument(..., help="Rite id or name (祀先師, 釋奠, xianshi …)."),
        place: str = typer.Option(..., "--place", "-p", help="Place id or name (臺灣府, 福州 …)."),
        year: int = typer.Option(
            ..., "--year", "-y", help=f"Gregorian year, {RITE_FIRST_YEAR}–{RITE_LAST_YEAR}."
        ),
        witness: str | None = typer.Option(None, "--witness", "-w", help="Another witness's reading."),
        role: str | None = typer.Option(None, "--role", "-r", help="Print only this role's cue sheet."),
        fmt: Format = typer.Option(Format.text, "--format", "-f", help="text, html or json."),  # noqa: B008
        out: str | None = typer.Option(None, "--out", "-o", help="Write to this file."),
    ) -> None:
        """The numbered order of service of RITE at a place in a year."""
        r = resolve_rite(rite, place, year, witness)
        steps = [n for n in r.steps if role is None or (n.step.role and role in n.step.role)]
        if role is not None and not steps:
            roles = sorted({n.step.role for n in r.steps if n.step.role})
            from dianli.api import UnknownValueError

            raise UnknownValueError("role", role, roles)
        exhibits = rite_exhibits(r) if role is None else ()
        if fmt is Format.json:
            data = rite_to_data(r, exhibits)
            data["steps"] = [s for s in data["steps"] if any(s["number"] == n.number for n in steps)]
            write_text_output(json.dumps(data, ensure_ascii=False, indent=2), out)
            return
        if fmt is Format.html:
            write_text_output(rite_to_html(r, exhibits), out)
            return
        w = r.witness
        head = (
            f"[bold]{r.rite.names.classical[0]}[/] — {r.rite.names.gloss}\n"
            f"{r.place.name} ({r.place.level}) · {r.year} · witness [cyan]{w}[/]"
            + ("" if w == r.governing_witness else f" (governing: {r.governing_witness})")
            + f"\n[dim]{escape(governance(r.place.id, r.year).note)}[/]"
        )
        shown: list[RenderableType] = [Panel(head, expand=False)]
        if role is None:
            if r.date_rules:
                shown.append("[bold]日期[/] " + "；".join(f"{d.text or d.name}" for d in r.date_rules))
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
        for x in exhibits:
            body = "\n".join((*(escape(line) for line in x.lines), f"[dim]{escape(x.pointer)}[/]"))
            title = escape(f"{x.title} — with {x.part_title}")
            shown.append(Panel(body, title=title, title_align="left", expand=False))
        table = Table(
            "#", "part", "role", "call / action", "source", title=f"儀注{' — ' + role if role else ''}"
        )
        for n in steps:
            s = n.step
            src = rite_source_label(s, w)
            table.add_row(
                str(n.number),
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
            write_text_output(recorder.export_text(), out)
            return
        for item in shown:
            console.print(item)

    @rites.command("diff")
    @run_guarded
    def diff(rite: str = typer.Argument(..., help="Rite id or name.")) -> None:
        """Where the witnesses' readings of RITE differ: each reading with its witness and quote."""
        rows = diff_rite(rite)
        table = Table("where", "point", "witnesses", "reading", "source", title=f"variants of {rite}")
        for where, variant, witnesses, reading, source in rows:
            table.add_row(where, variant, ", ".join(witnesses), reading, source)
        console.print(table)
        if not rows:
            console.print("no variants recorded")
