"""``dianli cite WITNESS QUOTE``: resolve a quotation and print it in its context."""

from __future__ import annotations

import typer
from rich.text import Text

from dianli.cli.common import console, run_guarded
from dianli.corpus.cite import Citation
from dianli.corpus.tree import section_defs
from dianli.corpus.witnesses import load_witness, witness_ids
from dianli.errors import DianliError, UnknownValueError


@run_guarded
def cite(
    witness: str = typer.Argument(..., help="Witness id (see `dianli texts list`)."),
    quote: str = typer.Argument(..., help="The exact words, in either script; punctuation may differ."),
    section: str | None = typer.Option(None, "--section", "-s", help="Look only in this section."),
    context: int = typer.Option(40, "--context", "-c", min=0, max=1000, help="Characters of context."),
) -> None:
    """Find a quotation in a witness and print it with its context, section and offsets."""
    if witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids(), "see `dianli texts list`")
    try:
        citation = Citation(witness=witness, quote=quote, section=section)
    except ValueError as exc:  # the model refuses a quote with nothing to compare
        raise DianliError(
            f"quote {quote!r} has no characters to compare; accepted: words of the witness in either "
            "script, with at least one character that is not punctuation or a space"
        ) from exc
    resolved = citation.resolve()
    before, passage, after = resolved.context(context)
    title = section_defs()[resolved.section.id].title
    info = load_witness(witness).info
    console.print(Text(f"{info.title} ({witness})", style="bold"))
    console.print(
        f"section {resolved.section.id} ({title}); raw offsets {resolved.raw_start}–{resolved.raw_end}"
        + (f"; occurs {resolved.occurrences} times, the first shown" if resolved.occurrences > 1 else "")
    )
    line = Text("…" + before)
    line.append(passage, style="bold black on yellow")
    line.append(after + "…")
    console.print(line)


def register(app: typer.Typer) -> None:
    """Add ``dianli cite`` to the root command."""
    app.command("cite")(cite)
