"""``dianli check [--witness W]``: every check of the data, each problem in words; exit 2 on any."""

from __future__ import annotations

from typing import Annotated

import typer

from dianli.cli.common import run_guarded, wrap

WIDTH = 80


def _lines(prefix: str, text: str) -> list[str]:
    """``text`` wrapped to the page after ``prefix``, continuations under its first character."""
    lines = wrap(text, WIDTH - len(prefix), indent=0)
    return [(prefix if i == 0 else " " * len(prefix)) + line for i, line in enumerate(lines)]


@run_guarded
def check(
    witness: Annotated[
        str | None,
        typer.Option(
            "--witness", "-w", help="Check only what concerns this witness (id: see `dianli texts list`)."
        ),
    ] = None,
) -> None:
    """Check the data: the witness manifests (the places each governs, or why none), the shared rite data
    and every quote it cites, and each witness's readings, alignment and not-procedural marks (every quote
    is in its witness, every reading applies). Prints what was checked and each problem; exits 2 if there is any."""
    from dianli.errors import DianliError
    from dianli.rites.check import run_checks

    results = run_checks(witness)
    out: list[str] = []
    for result in results:
        mark = "ok  " if result.ok else "FAIL"
        out += _lines(f"{mark}  ", f"{result.name}: {result.checked} {result.unit}")
        for problem in result.problems:
            out += _lines("      - ", problem)
    problems = sum(len(r.problems) for r in results)
    typer.echo("\n".join(out))
    if problems:
        failed = sum(1 for r in results if not r.ok)
        raise DianliError(f"{problems} problem(s) in {failed} of {len(results)} checks (listed above)")
    typer.echo(f"all {len(results)} checks passed")


def register(app: typer.Typer) -> None:
    """Add ``dianli check`` to the root command."""
    app.command("check")(check)
