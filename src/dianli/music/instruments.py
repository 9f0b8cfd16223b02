"""The 八音 inventory and the 樂譜 fingering of every note, as cited data (``data/instruments.yaml``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.errors import UnknownValueError
from dianli.music.findings import Finding
from dianli.music.pitch import Note, parse_note
from dianli.music.schema import instruments_data


@dataclass(frozen=True)
class Dimension:
    """A measurement or count of an instrument as the witness states it."""

    what: str
    text: str
    cite: Citation


@dataclass(frozen=True)
class Instrument:
    """One instrument (or the 麾, a dance implement, the voice)."""

    id: str
    name: str
    family: str
    timbre: str
    pitched: bool
    midi_program: int | None
    midi_octave: int
    midi_percussion: int | None
    dimensions: tuple[Dimension, ...]
    cite: Citation
    notes: tuple[Citation, ...]
    description: tuple[Citation, ...] = ()
    """Every other descriptive clause (material, making, frame, how it is struck), in every witness."""

    def described_in(self, witness: str) -> tuple[Citation, ...]:
        """The description as one witness gives it."""
        return tuple(c for c in self.description if c.witness == witness)


@dataclass(frozen=True)
class Fingering:
    """How one note is played on one instrument."""

    note: str
    instrument: str
    written: str
    """The instrument's name as the witness writes it in this entry."""
    text: str
    cite: Citation


@functools.lru_cache(maxsize=1)
def instruments() -> tuple[Instrument, ...]:
    """Every instrument in the order of the witness."""
    return tuple(
        Instrument(
            id=entry.id,
            name=entry.name,
            family=entry.family,
            timbre=entry.timbre,
            pitched=entry.pitched,
            midi_program=entry.midi.program,
            midi_octave=entry.midi.octave,
            midi_percussion=entry.midi.percussion,
            dimensions=tuple(Dimension(d.what, d.cite.quote, d.cite) for d in entry.dimensions),
            cite=entry.cite,
            notes=entry.notes,
            description=entry.description,
        )
        for entry in instruments_data().instruments
    )


def instrument(name: str) -> Instrument:
    """An instrument by id (``bianzhong``) or name (編鐘, 编钟)."""
    for x in instruments():
        if name == x.id or fold(name) == fold(x.name):
            return x
    raise UnknownValueError("instrument", name, [f"{x.id} ({x.name})" for x in instruments()])


@functools.lru_cache(maxsize=1)
def fingerings() -> tuple[Fingering, ...]:
    """Every (note, instrument) fingering of the 樂譜 (the instrument ids are checked at load)."""
    result = []
    for token, row in instruments_data().fingering.items():
        parse_note(token)
        for inst_id, entry in row.instruments.items():
            result.append(Fingering(token, inst_id, entry.written, entry.text, entry.cite))
    return tuple(result)


def fingering_gloss(note: str) -> tuple[Citation, ...]:
    """The modern translation's rendering of a note's 樂譜 entry (``_gloss`` in the data)."""
    token = fingering(note)[0].note
    return instruments_data().fingering[token].gloss


def fingered_notes() -> tuple[str, ...]:
    """The note tokens the 樂譜 gives fingerings for."""
    return tuple(dict.fromkeys(f.note for f in fingerings()))


def fingering(note: str) -> tuple[Fingering, ...]:
    """The fingering of a note (太四, 林尺 …; also 四 or 太簇) on every instrument the 樂譜 names."""
    wanted: Note | None = None
    try:
        wanted = parse_note(note)
    except UnknownValueError:
        for token in fingered_notes():
            parsed = parse_note(token)
            if note.strip() in (parsed.gongche, parsed.lu) or fold(note) == fold(token):
                wanted = parsed
    if wanted is None or wanted.token not in fingered_notes():
        raise UnknownValueError(
            "note", note, fingered_notes(), "the 樂譜 fingers the six notes of the 大成樂"
        )
    return tuple(f for f in fingerings() if f.note == wanted.token)


def fingering_findings() -> tuple[Finding, ...]:
    """Entries of the 樂譜 that name the wrong instrument (e.g. 琴 where the order requires 瑟)."""
    result = []
    for f in fingerings():
        expected = instrument(f.instrument)
        if fold(f.written) != fold(expected.name) and not expected.name.endswith(f.written):
            result.append(
                Finding(
                    "fingering",
                    f"{f.note} {expected.name}",
                    f"the 樂譜 writes {f.written} where its fixed order of instruments puts {expected.name} "
                    f"({f.written}，{f.text})",
                    (f.cite,),
                )
            )
    return tuple(result)
