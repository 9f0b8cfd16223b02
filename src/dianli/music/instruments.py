"""The 八音 inventory and the 樂譜 fingering of every note, as cited data (``data/instruments.yaml``; the 樂譜
of the other score witnesses in ``data/fingerings.yaml``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.errors import DataError, UnknownValueError
from dianli.music.findings import Finding
from dianli.music.pitch import Note, parse_note
from dianli.music.schema import FingeringRow, fingerings_data, instruments_data
from dianli.music.score import score_witness

_FINGERINGS_FILE = "music/data/fingerings.yaml"


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


def family_name(family: str) -> str:
    """The name (金, 石 … 麾, 舞器, 歌) of an instrument family, by its id (``jin``)."""
    names = {f.id: f.name for f in instruments_data().families}
    if family not in names:
        raise UnknownValueError("instrument family", family, [f"{k} ({v})" for k, v in names.items()])
    return names[family]


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


@functools.lru_cache(maxsize=1)
def _by_key() -> tuple[dict[str, int], dict[str, int]]:
    """Each instrument's position in :func:`instruments` by its id, and by the folding key of its name
    (the first instrument holding an id or key keeps it)."""
    ids: dict[str, int] = {}
    names: dict[str, int] = {}
    for number, x in enumerate(instruments()):
        ids.setdefault(x.id, number)
        names.setdefault(fold(x.name), number)
    return ids, names


def instrument(name: str) -> Instrument:
    """An instrument by id (``bianzhong``) or name (編鐘, 编钟): the first, in the witness's order, whose id
    is ``name`` or whose name folds as ``name`` does (looked up, not searched: the synthesiser asks for
    every note's)."""
    ids, names = _by_key()
    found = [n for n in (ids.get(name), names.get(fold(name))) if n is not None]
    if found:
        return instruments()[min(found)]
    raise UnknownValueError("instrument", name, [f"{x.id} ({x.name})" for x in instruments()])


def fingering_witnesses() -> tuple[str, ...]:
    """The witnesses whose 樂譜 is data: the default score witness, then those of fingerings.yaml."""
    return (score_witness(), *(w.witness for w in fingerings_data().witnesses))


def _rows(witness: str) -> dict[str, FingeringRow]:
    if witness == score_witness():
        return instruments_data().fingering
    for entry in fingerings_data().witnesses:
        if entry.witness == witness:
            return entry.fingering
    raise UnknownValueError("fingering witness", witness, fingering_witnesses())


@functools.cache
def fingerings(witness: str | None = None) -> tuple[Fingering, ...]:
    """Every (note, instrument) fingering of a witness's 樂譜 (None: the default score witness's)."""
    rows = _rows(witness or score_witness())
    known = {x.id for x in instruments()}
    result = []
    for token, row in rows.items():
        parse_note(token)
        for inst_id, entry in row.instruments.items():
            if inst_id not in known:  # instruments.yaml checks its own; fingerings.yaml is checked here
                raise DataError(
                    f"{_FINGERINGS_FILE}: {witness} {token}: unknown instrument {inst_id!r}; "
                    f"accepted: {', '.join(sorted(known))}"
                )
            result.append(Fingering(token, inst_id, entry.written, entry.text, entry.cite))
    return tuple(result)


def fingering_rule(note: str, witness: str | None = None) -> Citation | None:
    """The witness's 凡…譜皆仿此 for a note's entry, if it writes one."""
    row = _rows(witness or score_witness())[fingering(note, witness)[0].note]
    return row.rule.cite if row.rule else None


def fingering_gloss(note: str) -> tuple[Citation, ...]:
    """The modern translation's rendering of a note's 樂譜 entry (``_gloss`` in the data)."""
    token = fingering(note)[0].note
    return instruments_data().fingering[token].gloss


def fingered_notes(witness: str | None = None) -> tuple[str, ...]:
    """The note tokens the 樂譜 gives fingerings for, as the witness writes them."""
    return tuple(dict.fromkeys(f.note for f in fingerings(witness)))


def fingering(note: str, witness: str | None = None) -> tuple[Fingering, ...]:
    """The fingering of a note (太四, 林尺 …; also 四 or 太簇) on every instrument the 樂譜 of the witness
    names (None: the default score witness)."""
    wanted: Note | None = None
    try:
        wanted = parse_note(note)
    except UnknownValueError:
        for token in fingered_notes(witness):
            parsed = parse_note(token)
            if note.strip() in (parsed.gongche, parsed.lu) or fold(note) == fold(token):
                wanted = parsed
    # The same note in another script (黄六 for 黃六) is the same 律 and 工尺.
    same = [t for t in fingered_notes(witness) if wanted and _same_note(parse_note(t), wanted)]
    if not same:
        raise UnknownValueError(
            "note", note, fingered_notes(witness), "the 樂譜 fingers the six notes of the 大成樂"
        )
    return tuple(f for f in fingerings(witness) if f.note == same[0])


def _same_note(a: Note, b: Note) -> bool:
    """The same 律 and 工尺, whatever the script of the token (黄六 is 黃六)."""
    return (a.lu, a.gongche) == (b.lu, b.gongche)


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
