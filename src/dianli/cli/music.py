"""``dianli music``: the 大成樂 as score, timeline, MIDI and audio; fingerings and findings."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import typer
from rich.progress import Progress

from dianli.cli.common import (
    check_output_path,
    console,
    force_option,
    is_terminal,
    output_format,
    run_guarded,
    wrap,
    write_text_output,
    writing_to,
)
from dianli.cli.lines import write_fitted
from dianli.corpus.labels import name_ids, witness_label
from dianli.errors import DianliError, OutOfRangeError, UnknownValueError
from dianli.lines import TAB
from dianli.music.apparatus import KIND_LABELS, MovementApparatus, apparatus, apparatus_json
from dianli.music.cues import Timing, default_timing
from dianli.music.instruments import family_name, fingering, fingering_rule, instrument
from dianli.music.pitch import Tuning, cents_table, default_huangzhong_hz
from dianli.music.render import (
    MUSIC_FILE_EXTENSIONS,
    MUSIC_FORMATS,
    SUITE_FORMATS,
    music_findings,
    render_movement,
    render_suite,
)
from dianli.music.score import accepted_movement_names, movement_info, score_witness, score_witnesses

SUBCOMMANDS = ("suite", "fingering", "findings", "cents", "instrument", "apparatus")
APPARATUS_FORMATS = ("text", "json")
REMARK_WIDTH = 72
"""Columns of a remark line, after its indent of six."""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def apparatus_text(entries: tuple[MovementApparatus, ...]) -> str:
    """The apparatus for a terminal: per movement a count line, then each variant with its two quotes."""
    lines: list[str] = []
    for a in entries:
        lines.append(
            f"{a.info.name} {a.info.tune}: {witness_label(a.witness)} against {witness_label(a.base)}"
        )
        if a.info.same_as:
            lines.append(f"  the music of {movement_info(a.info.same_as).name}, collated there")
            continue
        unencoded = f"; {a.characters_unencoded} unencoded" if a.characters_unencoded else ""
        lines.append(
            f"  {a.compared} characters compared: {_count(a.characters_differing, 'character')} and "
            f"{_count(a.notes_differing, 'note')} differ{unencoded}"
        )
        for v in a.variants:
            what = "、".join(KIND_LABELS[k] for k in v.kinds)
            lines.append(
                f"  {v.phrase}.{v.position} {what}: {v.base.display}({v.base.note}) {witness_label(v.base.witness)}"
                f" | {v.other.display}({v.other.note}) {witness_label(v.other.witness)}"
            )
            lines.append(f"      「{v.base.cite.quote}」 「{v.other.cite.quote}」")
            if v.remark:
                lines += ["      " + line for line in wrap(name_ids(v.remark), REMARK_WIDTH, indent=0)]
    return "\n".join(lines)


def _apparatus(movement: str | None, witness: str | None, fmt: str | None) -> None:
    fmt = fmt or "text"
    if fmt not in APPARATUS_FORMATS:
        raise UnknownValueError("apparatus format", fmt, APPARATUS_FORMATS)
    entries = apparatus(movement, witness)
    write_text_output(apparatus_json(entries) if fmt == "json" else apparatus_text(entries), None)


def _fingering(note: str | None, witness: str | None) -> None:
    if note is None:
        raise typer.BadParameter("give a note, e.g. dianli music fingering 太四")
    lines = [
        f"{instrument(f.instrument).name}\t{f.written}，{f.text}\t[{witness_label(f.cite.witness)}]"
        for f in fingering(note, witness)
    ]
    if witness is not None:  # the default listing stays as it was
        rule = fingering_rule(note, witness)
        lines += [f"\t{rule.quote}\t[{witness_label(rule.witness)}]"] if rule else []
    write_fitted("\n".join(lines), hang=TAB)  # a long line continues under its text, at the first tab stop


def _instrument(name: str | None, as_json: bool) -> None:
    if name is None:
        raise typer.BadParameter("give an instrument, e.g. dianli music instrument 編鐘")
    x = instrument(name)
    if as_json:
        payload = {
            "id": x.id,
            "name": x.name,
            "family": x.family,
            "cite": {"witness": x.cite.witness, "quote": x.cite.quote},
            "dimensions": [{"what": d.what, "text": d.text, "witness": d.cite.witness} for d in x.dimensions],
            "description": [{"witness": c.witness, "quote": c.quote} for c in x.description],
        }
        write_text_output(json.dumps(payload, ensure_ascii=False, indent=2), None)
        return
    lines = [f"{x.name} ({family_name(x.family)})  {x.cite.quote}  [{witness_label(x.cite.witness)}]"]
    lines += [f"  {d.what}: {d.text}  [{witness_label(d.cite.witness)}]" for d in x.dimensions]
    for witness in dict.fromkeys(c.witness for c in x.description):
        lines.append(f"  [{witness_label(witness)}]")
        lines += [f"    {c.quote}" for c in x.described_in(witness)]
    write_fitted("\n".join(lines))


def _cents(as_json: bool) -> None:
    rows = cents_table()
    if as_json:
        write_text_output(json.dumps([r.as_dict() for r in rows], ensure_ascii=False, indent=2), None)
        return
    lines = ["pipe\t律\tstated\t寸\t三分損益 寸\tstated ¢\t三分 ¢\tequal ¢\tΔ¢\tverdict"]
    for r in rows:
        lines.append(
            f"{r.lu.pipe}\t{r.lu.name}\t{r.lu.stated.text}\t{r.stated_cun:g}\t{r.sanfen_cun:.4f}\t"
            f"{r.stated_cents:.1f}\t{r.sanfen_cents:.1f}\t{r.equal_cents:.0f}\t{r.deviation_cents:+.1f}\t{r.verdict}"
        )
    write_text_output("\n".join(lines), None)


def _findings(as_json: bool) -> None:
    found = music_findings()
    if as_json:
        write_text_output(json.dumps([f.as_dict() for f in found], ensure_ascii=False, indent=2), None)
        return
    for f in found:
        console.print(f"[bold]{f.topic}[/] {f.subject}: {name_ids(f.message)}")


MUSIC_FILE_ENDINGS: dict[str, tuple[str, ...]] = {
    "wav": (".wav",),
    "flac": (".flac",),
    "mid": (".mid", ".midi"),
    "musicxml": (".musicxml", ".xml"),
    "mei": (".mei",),
    "svg": (".svg",),
    "columns": (".columns.svg", ".svg"),
    "json": (".json",),
}
"""The file-name endings each music format is written as: ``-o NAME.EXT`` picks the format."""
TEXT_MUSIC_FORMATS = ("musicxml", "mei", "svg", "columns", "json")
"""The music formats that are text (the others — audio, MIDI — are bytes)."""


def _render_to(path: str, fmt: str, force: bool, render: Callable[[str], str]) -> None:
    """Run ``render`` (which writes a file at the path it is given, or returns the text of a text format
    for '-') so that ``path`` is replaced only when dianli may (:mod:`dianli.written`), atomically; '-'
    writes the file to standard output, refused for bytes when that is a terminal."""
    from dianli import written

    if path == "-":
        if fmt in TEXT_MUSIC_FORMATS:
            write_text_output(render("-"), None)
            return
        if is_terminal():
            raise DianliError(
                f"-o - writes the {fmt} file to standard output, which is a terminal here; accepted: "
                f"standard output redirected or piped (-o - > file.{fmt}, -o - | player), or -o FILE"
            )
        with tempfile.TemporaryDirectory(prefix="dianli-music-") as folder:
            piped = os.path.join(folder, f"out.{MUSIC_FILE_EXTENSIONS.get(fmt, fmt)}")
            render(piped)
            sys.stdout.flush()
            with open(piped, "rb") as source:
                shutil.copyfileobj(source, sys.stdout.buffer, 1 << 20)
            sys.stdout.buffer.flush()
        return
    check_output_path(path, force)
    target = Path(path)
    temporary = target.with_name(f".{target.name}.part{''.join(target.suffixes[-1:])}")
    try:
        with writing_to(path):
            render(str(temporary))
            written.check([target], force)  # checked again: a file may have appeared meanwhile
            if force and target.is_symlink():
                target.unlink()
            os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    written.record([target])
    console.print(f"wrote {path}")


def _suite(
    fmt: str, out: str | None, timing: Timing, tuning: Tuning, witness: str | None, voices: bool, force: bool
) -> None:
    if fmt not in SUITE_FORMATS:
        raise UnknownValueError("music format for the suite", fmt, SUITE_FORMATS)
    path = out or f"dacheng.{MUSIC_FILE_EXTENSIONS.get(fmt, fmt)}"
    check_output_path(path, force)
    with Progress(console=console, transient=True, disable=not is_terminal()) as progress:
        task = progress.add_task("大成樂 suite", total=None)

        def step(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        _render_to(path, fmt, force, lambda to: render_suite(fmt, to, timing, tuning, step, witness, voices))


def register(app: typer.Typer) -> None:
    """Add ``dianli music``."""

    @app.command("music")
    @run_guarded
    def music(
        target: str = typer.Argument(
            ...,
            help="A movement (迎神 初獻 亞獻 終獻 徹饌 送神 望瘞; 寧平 安平 景平; ids such as chuxian), "
            "or: suite | fingering NOTE | findings | cents | instrument NAME.",
        ),
        note: str = typer.Argument(
            None, help="For 'fingering': a note such as 太四; for 'instrument': a name such as 編鐘."
        ),
        fmt: str = typer.Option(
            None,
            "--format",
            "-f",
            help=f"One of {', '.join(MUSIC_FORMATS)} (default wav): musicxml and mei are editions, svg the "
            "engraved score, columns the 樂章 as the witness lays it out; for apparatus: text or json.",
        ),
        out: str = typer.Option(
            None, "-o", "--output", help="Output file ('-' = stdout: json, musicxml, mei, svg, columns)."
        ),
        character_seconds: float = typer.Option(None, help="Seconds per sung character (an assumption)."),
        stroke_seconds: float = typer.Option(None, help="Seconds per percussion stroke (an assumption)."),
        tempo: float = typer.Option(1.0, help="Divide every duration by this (2 = twice as fast)."),
        tuning: str = typer.Option(
            "sanfen", help="Tuning: sanfen (三分損益), stated (pipe lengths) or equal."
        ),
        huangzhong_hz: float = typer.Option(None, help="Absolute pitch of 黃鐘 in Hz (an assumption)."),
        as_json: bool = typer.Option(False, "--json", help="findings, cents, instrument: print JSON."),
        witness: str = typer.Option(
            None,
            "--witness",
            "-w",
            help=f"The score witness whose notes are played or collated ({', '.join(score_witnesses())}; "
            f"default {score_witness()}).",
        ),
        movement: str = typer.Option(None, "--movement", "-m", help="For 'apparatus': one movement only."),
        voices: bool = typer.Option(
            False,
            "--voices",
            help="Speak the calls of 麾生 and 節生 in the audio, in Mandarin as written to be said (樂奏 yuè zòu: "
            "each call's reading is in the music data), by espeak-ng: a rehearsal track.",
        ),
        force: bool = force_option(),
    ) -> None:
        """The 大成樂: `dianli music 寧平 -o ningping.wav`, `dianli music suite`, `dianli music fingering 太四`,
        `dianli music apparatus` (where the score witnesses differ)."""
        if target == "apparatus":
            _apparatus(movement or note, witness, fmt)
            return
        if target == "fingering":
            _fingering(note, witness)
            return
        if target == "findings":
            _findings(as_json)
            return
        if target == "cents":
            _cents(as_json)
            return
        if target == "instrument":
            _instrument(note, as_json)
            return
        timing = default_timing(character_seconds, stroke_seconds, tempo)
        try:
            tun = Tuning(tuning, default_huangzhong_hz() if huangzhong_hz is None else huangzhong_hz)
        except OutOfRangeError as exc:  # named as the user gave it
            raise OutOfRangeError("--huangzhong-hz", huangzhong_hz, exc.valid) from exc
        if fmt is not None and fmt not in MUSIC_FORMATS:
            raise UnknownValueError("music format", fmt, MUSIC_FORMATS)
        fmt = output_format(out, fmt, MUSIC_FILE_ENDINGS, "wav", strict=True)
        if fmt not in MUSIC_FORMATS:
            raise UnknownValueError("music format", fmt, MUSIC_FORMATS)
        if witness is not None and witness not in score_witnesses():
            raise UnknownValueError("score witness", witness, score_witnesses())
        if target == "suite":
            _suite(fmt, out, timing, tun, witness, voices, force)
            return
        try:
            info = movement_info(target)
        except UnknownValueError as exc:
            hint = str(exc).split(". ", 1)[1] if ". " in str(exc) else ""
            raise UnknownValueError(
                "movement", target, (*accepted_movement_names(), *SUBCOMMANDS), hint
            ) from exc
        path = out or ("-" if fmt == "json" else f"{info.id}.{MUSIC_FILE_EXTENSIONS.get(fmt, fmt)}")
        _render_to(
            path, fmt, force, lambda to: render_movement(info.id, fmt, to, timing, tun, witness, voices)
        )
