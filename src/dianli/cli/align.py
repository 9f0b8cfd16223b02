"""``dianli align``: a witness's clauses aligned to the model — same, variant, new — and what it lacks."""

from __future__ import annotations

import json
import sys
from enum import StrEnum

import typer

from dianli.cli.common import (
    check_output_path,
    console,
    force_option,
    format_for,
    run_guarded,
    write_file,
    write_text_output,
)
from dianli.cli.lines import fit_text
from dianli.comparison.align import align as align_witness
from dianli.comparison.align import measure as measure_alignment
from dianli.comparison.align_report import alignment_file
from dianli.comparison.align_report import draft_reading as alignment_draft
from dianli.comparison.align_report import text_lines as alignment_lines
from dianli.comparison.align_report import to_data as alignment_data
from dianli.comparison.align_report import to_html as alignment_html
from dianli.corpus.witnesses import ALIGNMENT_FILE, manifest, witness_ids


class Format(StrEnum):
    text = "text"
    json = "json"
    html = "html"


CLASS_NAMES = ("same", "variant", "new")
CLAUSE_COLUMN = 31
"""Where a clause begins on its line of the text (after its class and section, see
:func:`dianli.comparison.align_report.text_lines`): its continuations align under it when the width leaves room."""


def register(app: typer.Typer) -> None:
    @app.command("align")
    @run_guarded
    def align(
        witness: str = typer.Argument(..., help="The witness to align (dianli texts list)."),
        fmt: Format | None = typer.Option(  # noqa: B008
            None, "--format", "-f", help="text, json or html (default: from the --out name, else text)."
        ),
        show: list[str] | None = typer.Option(  # noqa: B008
            None, "--show", help="In text: only these classes (same, variant, new; repeatable)."
        ),
        out: str | None = typer.Option(None, "--out", "-o", help="Write the report to this file."),
        draft: str | None = typer.Option(
            None, "--draft", help="Also write the draft reading (the curator's decisions) as YAML here."
        ),
        measure: bool = typer.Option(
            False, "--measure", help="Compare with the witness's hand citations (left out of the model)."
        ),
        write: bool = typer.Option(
            False,
            "--write",
            help="Write the same clauses into the witness folder's alignment.yaml: agreeing citations of the "
            "elements in its reading.",
        ),
        review: bool = typer.Option(
            False,
            "--review",
            help="Review the witness's drafted readings (readings/drafted.yaml, from ingest --drafts): list "
            "them numbered, or decide with --accept and --reject.",
        ),
        accept: list[int] | None = typer.Option(  # noqa: B008
            None, "--accept", help="With --review: accept this proposal (its number; repeatable)."
        ),
        reject: list[int] | None = typer.Option(  # noqa: B008
            None, "--reject", help="With --review: reject this proposal (its number; repeatable)."
        ),
        force: bool = force_option(),
    ) -> None:
        """Align every clause of WITNESS with the modelled clauses of the other witnesses of its language:
        *same* (an agreeing citation of the element), *variant* (a different reading, differences marked),
        *new* (no witness of the model has it); and the modelled elements it lacks (*missing*). With
        --review: the drafted readings of a witness, accepted or rejected one by one."""
        if witness not in witness_ids():
            from dianli.errors import UnknownValueError

            raise UnknownValueError("witness", witness, witness_ids())
        if review or accept or reject:
            _review(witness, set(accept or ()), set(reject or ()), force)
            return
        classes = tuple(show) if show else CLASS_NAMES
        for name in classes:
            if name not in CLASS_NAMES:
                from dianli.errors import UnknownValueError

                raise UnknownValueError("--show class", name, CLASS_NAMES)
        fmt = format_for(Format, fmt, out, Format.text)
        target = next(i.folder for i in manifest() if i.id == witness) / ALIGNMENT_FILE
        for path, option in ((out, None), (draft, "--draft"), (target if write else None, None)):
            if path is not None:
                check_output_path(path, force, option)
        result = align_witness(witness)
        measured = measure_alignment(witness) if measure else None
        if draft is not None:
            write_text_output(alignment_draft(result), draft, force)
        if write:
            write_file(target, alignment_file(result), force)
            print(f"wrote {target}", file=sys.stderr)
        if fmt is Format.json:
            write_text_output(
                json.dumps(alignment_data(result, measured), ensure_ascii=False, indent=1), out, force
            )
            return
        if fmt is Format.html:
            write_text_output(alignment_html(result), out, force)
            return
        counts = result.counts()
        from dianli.corpus.labels import witness_label, witness_labels

        model = result.model_witnesses
        head = [
            f"{witness_label(witness)} ({witness}) aligned to "
            + (f"{len(model)} witnesses: {witness_labels(model)}" if model else "no witness of its language"),
            "  " + " · ".join(f"{k} {v}" for k, v in counts.items()),
        ]
        if measured is not None:
            head.append(
                f"  against its {measured.hand} hand citations: recall {measured.recall:.1%} "
                f"({measured.recall_alignable:.1%} of the {measured.alignable} the model can know); "
                f"precision of automatic same {measured.precision:.1%} ({measured.correct}/{measured.automatic}; "
                f"{measured.precision_nested:.1%} counting the enclosing part or the enclosed step as right)"
            )
        from dianli.comparison.align_report import gap_lines

        lines = [*alignment_lines(result, classes), *gap_lines(result)]
        if out is None or out == "-":  # on the screen: long lines wrapped, a clause's under the clause
            width = console.width
            hang = CLAUSE_COLUMN if width >= 2 * CLAUSE_COLUMN else 2
            head, lines = [fit_text("\n".join(head), width)], [fit_text(x, width, hang) for x in lines]
        write_text_output("\n".join([*head, *lines]), out, force)


def _review(witness: str, accept: set[int], reject: set[int], force: bool) -> None:
    """``--review``: the pending proposals, or the decisions taken and what remains."""
    from dianli.cli.common import say
    from dianli.comparison.review import decide, decisions, pending
    from dianli.corpus.labels import witness_label

    if accept or reject:
        taken, dropped = decide(witness, accept, reject, force)
        say(f"{witness_label(witness)}: {len(taken)} accepted, {len(dropped)} rejected", indent=2)
    found = pending(witness)
    made = decisions(witness)
    say(
        f"{witness_label(witness)}: {len(found)} proposals to review; {len(made)} decided so far "
        f"({sum(d['decision'] == 'accepted' for d in made)} accepted)",
        indent=2,
    )
    for p in found:
        say(f"[{p.number}] {p.summary()}", indent=6)
        for quote in p.quotes:
            say(f"    「{quote}」", indent=6)
    if not found:
        say(
            "nothing left to review: when the drafted manifest is checked too, set status: curated in its witness.yaml"
        )
