"""``dianli coverage``: how much of each witness's ritual sections the data covers."""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.table import Table

from dianli.cli.common import console, run_guarded, show_table
from dianli.comparison.coverage import TARGET_PERCENT, clause_coverage, section_figures
from dianli.corpus.labels import section_label, witness_label
from dianli.corpus.witnesses import witness_ids


def register(app: typer.Typer) -> None:
    @app.command("coverage")
    @run_guarded
    def coverage(
        witness: str | None = typer.Option(None, "--witness", "-w", help="One witness only."),
        section: str | None = typer.Option(
            None, "--section", "-s", help="One top-level section (xianshi …)."
        ),
        uncovered: bool = typer.Option(False, "--uncovered", help="List the uncovered clauses."),
    ) -> None:
        """Clauses covered by cited data or marked not procedural, per witness and section."""
        if witness is not None and witness not in witness_ids():
            from dianli.errors import UnknownValueError

            raise UnknownValueError("witness", witness, witness_ids())
        wits = [witness] if witness else list(witness_ids())
        from dianli.rites.readings import load_all_readings

        load_all_readings()  # coverage counts the readings' quotes: a false one is an error, not skipped
        if section is not None:
            sections = list(dict.fromkeys(f.section for w in wits for f in section_figures(w)))
            if section not in sections:
                from dianli.errors import UnknownValueError

                raise UnknownValueError("section", section, sections)
        for wit in wits:
            title = f"{witness_label(wit)} — {wit} (target {TARGET_PERCENT:.0f}%)"
            table = Table("section", "covered", "total", "%", title=escape(title))
            for f in section_figures(wit):
                if section and f.section != section:
                    continue
                mark = "green" if f.percent >= TARGET_PERCENT else "red"
                name = escape(f"{section_label(f.section)} ({f.section})")
                table.add_row(name, str(f.covered), str(f.total), f"[{mark}]{f.percent:.1f}[/]")
            show_table(table)
            for item in clause_coverage(wit):
                c = item.clause
                if section and c.section.split(".")[0] != section:
                    continue
                where = escape(section_label(c.section))
                if item.covered_by and item.covered_by.startswith("not procedural"):
                    console.print(f"  [dim]{where}[/] {escape(c.text[:40])} — {escape(item.covered_by)}")
                elif uncovered and item.covered_by is None:
                    console.print(f"  [red]uncovered[/] {where} {escape(c.text[:60])}")
