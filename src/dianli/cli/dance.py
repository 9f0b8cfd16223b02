"""``dianli dance MOVEMENT``: the 佾舞 of a movement as parsed poses (text, JSON) or an animation (HTML).

``dianli dance asymmetries`` lists where the 西班 does not mirror the 東班, with every witness's reading,
and the readings the parser had to emend.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from dianli.cli.common import (
    check_output_path,
    console,
    endings_of,
    force_option,
    run_guarded,
    write_file,
    write_text_output,
)
from dianli.cli.common import (
    output_format as file_format,
)
from dianli.cli.lines import write_fitted
from dianli.corpus.labels import name_ids, witness_label
from dianli.dance.animate import render_html as dance_html
from dianli.dance.audio import movement_audio as dance_audio
from dianli.dance.formation import formation as dance_formation
from dianli.dance.listing import poses_json as dance_poses_json
from dianli.dance.mirror import asymmetries as dance_asymmetries
from dianli.dance.mirror import asymmetries_json as dance_asymmetries_json
from dianli.dance.notation import dance_witnesses
from dianli.dance.notation import emendations as dance_emendations
from dianli.dance.notation import movement as dance_movement
from dianli.dance.notation import parse_movement as parse_dance
from dianli.dance.timing import character_timing as dance_timing
from dianli.errors import DianliError, UnknownValueError
from dianli.rites.render import movement_label

FORMATS = ("text", "json")
REPORTS = ("asymmetries",)


def _asymmetries_text() -> str:
    lines = ["East/west mirror rule (左↔右, 東↔西): characters where the 西班 does not mirror the 東班", ""]
    found = dance_asymmetries()
    if not found:
        lines.append("  none")
    for asym in found:
        mov = dance_movement(asym.movement)
        lines.append(f"{mov.names[0]} {mov.names[1]} #{asym.index}: {name_ids(asym.verdict)}")
        for r in asym.readings:
            mark = "mirrors" if r.mirrors else "BREAKS the mirror"
            lines.append(f"  {witness_label(r.witness)} {r.char}: {mark}")
            lines.append(f"    東班: {r.east}")
            lines.append(f"    西班: {r.west}")
            for d in r.differences:
                lines.append(
                    f"    西班 writes {d.west!r} where the mirror of 東班 {d.east!r} is {d.expected_west!r}"
                )
        lines.append("")
    lines.append("Readings emended before parsing (each one shown wherever the character appears):")
    for em in dance_emendations():
        lines.append(
            f"  {witness_label(em.witness)} {movement_label(em.movement)} {em.char}: {em.reading} read as {em.read_as}"
            f"  ({name_ids(em.assumption)})"
        )
    return "\n".join(lines)


def _poses_text(movement: str, witness: str | None) -> str:
    mov = dance_movement(movement)
    timing = dance_timing(mov.id)
    lines = [f"佾舞 {mov.names[0]} · {mov.names[1]} ({mov.id}); timing: {timing.source}"]
    if timing.assumption:
        lines.append(f"  assumption: {timing.assumption}")
    witnesses = (witness,) if witness else dance_witnesses()
    for w in witnesses:
        lines.append("")
        lines.append(f"== {w}")
        for note, (start, end) in zip(parse_dance(w, mov.id), timing.spans_s, strict=True):
            lines.append(f"{note.index:2d} {note.char}  {start:6.1f}–{end:6.1f} s")
            for clause in note.clauses:
                phrases = " · ".join(t.text for t in clause.tokens)
                lines.append(f"     {clause.subject.text}: {phrases}")
            for em in note.emendations:
                lines.append(f"     emended: {em.reading} read as {em.read_as}")
    return "\n".join(lines)


@run_guarded
def dance(
    movement: str = typer.Argument(
        ...,
        help="chuxian, yaxian, zhongxian or a Chinese name (初獻/寧平 …, either script); or 'asymmetries'.",
    ),
    html: str | None = typer.Option(
        None, "--html", help="Write the animation as a self-contained HTML file."
    ),
    output_format: str | None = typer.Option(
        None, "--format", "-f", help="text or json (default: from the --out name, else text)."
    ),
    witness: str | None = typer.Option(
        None, "--witness", "-w", help="Only this witness (default: all that hold it)."
    ),
    out: str | None = typer.Option(
        None, "--out", "-o", help="Write text/JSON to this file instead of stdout."
    ),
    audio: bool = typer.Option(True, "--audio/--no-audio", help="Embed the movement's music in the HTML."),
    force: bool = force_option(),
) -> None:
    """The 佾舞 of a movement: each sung character's parsed pose for both ranks, or its animation."""
    if output_format is not None and output_format not in FORMATS:
        raise UnknownValueError("format", output_format, FORMATS)
    output_format = file_format(out, output_format, endings_of(*FORMATS), "text")
    for path, option in ((html, "--html"), (out, None)):
        if path is not None:
            check_output_path(path, force, option)
    if witness is not None and witness not in dance_witnesses():
        raise UnknownValueError("dance witness", witness, dance_witnesses())
    if movement.strip().lower() in REPORTS:
        if html:
            raise DianliError("--html is for a movement, not for 'asymmetries'")
        payload: Any = {"asymmetries": dance_asymmetries_json(), "emendations": _emendations_json()}
        if output_format == "json":
            write_text_output(json.dumps(payload, ensure_ascii=False, indent=2), out, force)
        else:
            write_fitted(_asymmetries_text(), out, force=force)
        return
    mov = dance_movement(movement)
    if html:
        sound = dance_audio(mov.id) if audio else None
        page = dance_html(mov.id, witness, audio=sound)
        write_file(html, page, force)
        console.print(f"wrote {html} ({len(page) // 1024} KiB): {mov.names[0]} · {mov.names[1]}")
        return
    if output_format == "json":
        data = {
            "movement": mov.id,
            "names": list(mov.names),
            "formation": dance_formation().as_json(),
            "witnesses": {
                w: dance_poses_json(w, mov.id) for w in ((witness,) if witness else dance_witnesses())
            },
        }
        write_text_output(json.dumps(data, ensure_ascii=False, indent=1), out, force)
        return
    write_fitted(_poses_text(mov.id, witness), out, force=force)


def _emendations_json() -> list[dict[str, str]]:
    return [
        {
            "witness": e.witness,
            "movement": e.movement,
            "char": e.char,
            "reading": e.reading,
            "read_as": e.read_as,
            "assumption": e.assumption,
        }
        for e in dance_emendations()
    ]


def register(app: typer.Typer) -> None:
    """Add ``dianli dance`` to the root command."""
    app.command("dance")(dance)
