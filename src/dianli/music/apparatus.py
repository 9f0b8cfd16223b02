"""The apparatus of the 樂章: where a score witness differs from the default one, character by character.

Each movement is read from both witnesses (:func:`dianli.music.score.movement`) and compared position by
position: the sung character on the folding key (script and variant characters do not count), the 律
abbreviation and the 工尺 syllable of its note as written (an emended note is compared as the witness
writes it, not as it is sung). A character that one witness has only as a glyph its digitised text could
not encode (a private-use code point) or not at all cannot be compared: it is listed as *unencoded*, with
what the other witness writes there, not counted as a difference. Every difference quotes both witnesses. A movement whose music is another's
(望瘞, 曲同送神) is compared through that one and listed with no readings of its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.errors import UnknownValueError
from dianli.music.score import (
    MovementInfo,
    SungCharacter,
    check_score_witness,
    emendations,
    movement,
    movement_info,
    movement_infos,
    score_witness,
    score_witnesses,
)

KINDS: tuple[str, ...] = ("character", "unencoded", "lu", "gongche")
"""What may differ at a position: the sung character, a character one witness lacks or could not encode
(not compared), the 律 of its note, the 工尺 of its note."""
KIND_LABELS: dict[str, str] = {
    "character": "character",
    "unencoded": "unencoded",
    "lu": "律",
    "gongche": "工尺",
}
"""How each kind is named in text and on the web page."""


@dataclass(frozen=True)
class Reading:
    """One witness's reading at a position: the character and the note as written, and the quote."""

    witness: str
    char: str
    """As written; empty where the witness writes the note with no character."""
    display: str
    """The character, or the gloss's reading in brackets, or □ (see :attr:`SungCharacter.display`)."""
    note: str
    cite: Citation

    @classmethod
    def of(cls, c: SungCharacter, witness: str, section: str) -> Reading:
        """The reading of a sung character, quoted in the movement's section."""
        cite = Citation(witness=witness, quote=c.citation.quote, section=section)
        return cls(witness, c.char, c.display, c.note_as_written, cite)

    def as_dict(self) -> dict[str, str]:
        """As plain data."""
        return {
            "witness": self.witness,
            "char": self.char,
            "display": self.display,
            "note": self.note,
            "quote": self.cite.quote,
        }


@dataclass(frozen=True)
class Variant:
    """A position where the two witnesses differ, and in what."""

    phrase: int
    position: int
    kinds: tuple[str, ...]
    base: Reading
    other: Reading
    remark: str = ""
    """What the model does with it (an emended note, a character the default witness lacks)."""

    def as_dict(self) -> dict[str, object]:
        """As plain data."""
        return {
            "phrase": self.phrase,
            "position": self.position,
            "kinds": list(self.kinds),
            "base": self.base.as_dict(),
            "other": self.other.as_dict(),
            "remark": self.remark,
        }


@dataclass(frozen=True)
class MovementApparatus:
    """One movement of a witness collated with the default witness."""

    info: MovementInfo
    base: str
    witness: str
    compared: int
    """Positions compared (0 for a movement whose music is another's)."""
    variants: tuple[Variant, ...]

    @property
    def characters_differing(self) -> int:
        """Positions where the sung character differs."""
        return sum(1 for v in self.variants if "character" in v.kinds)

    @property
    def characters_unencoded(self) -> int:
        """Positions where one witness has no readable character, so the characters are not compared."""
        return sum(1 for v in self.variants if "unencoded" in v.kinds)

    @property
    def notes_differing(self) -> int:
        """Positions where the note differs (its 律, its 工尺 or both)."""
        return sum(1 for v in self.variants if {"lu", "gongche"} & set(v.kinds))

    def as_dict(self) -> dict[str, object]:
        """As plain data."""
        return {
            "movement": self.info.id,
            "name": self.info.name,
            "tune": self.info.tune,
            "same_as": self.info.same_as,
            "base": self.base,
            "witness": self.witness,
            "compared": self.compared,
            "characters_differing": self.characters_differing,
            "characters_unencoded": self.characters_unencoded,
            "notes_differing": self.notes_differing,
            "variants": [v.as_dict() for v in self.variants],
        }


def collatable_witnesses() -> tuple[str, ...]:
    """The score witnesses that can be collated with the default one (all but the default)."""
    return tuple(w for w in score_witnesses() if w != score_witness())


def _check_other(witness: str | None) -> tuple[str, ...]:
    if witness is None:
        return collatable_witnesses()
    if check_score_witness(witness) == score_witness():
        raise UnknownValueError(
            f"score witness to collate with {score_witness()}", witness, collatable_witnesses()
        )
    return (witness,)


def _remark(witness: str, info: MovementInfo, b: SungCharacter, o: SungCharacter) -> str:
    notes = []
    for c, w, other in ((b, score_witness(), o), (o, witness, b)):
        if not c.char:
            what = (
                f"a glyph its digitised text could not encode (U+{ord(c.unencoded_glyph):04X})"
                if c.unencoded_glyph
                else "no character"
            )
            notes.append(f"{w} writes the note after {what}")
            if c.gloss_reading:
                same = bool(other.char) and fold(other.char) == fold(c.gloss_reading)
                agrees = f", as {witness if c is b else score_witness()} writes" if same else ""
                notes.append(f"the modern translation (a gloss) reads {c.gloss_reading}{agrees}")
        if c.written_note:
            fix = next(
                e for e in emendations(w) if e.movement == info.id and e.position == (c.phrase, c.position)
            )
            assumption = " ".join(fix.assumption.split())
            notes.append(f"{w}'s {c.written_note} is sung {c.note.token} (an assumption: {assumption})")
    return "; ".join(notes)


def _kinds(b: SungCharacter, o: SungCharacter) -> tuple[str, ...]:
    bn, on = b.note_as_written, o.note_as_written
    readable = bool(b.char) and bool(o.char)
    differs = {
        "character": readable and fold(b.char) != fold(o.char),
        "unencoded": not readable and bool(b.char or o.char),
        "lu": fold(bn[:1]) != fold(on[:1]),
        "gongche": fold(bn[1:]) != fold(on[1:]),
    }
    return tuple(k for k in KINDS if differs[k])


def movement_apparatus(name: str, witness: str | None = None) -> tuple[MovementApparatus, ...]:
    """One movement collated: each non-default score witness (or the one named) against the default."""
    info = movement_info(name)
    result = []
    for other in _check_other(witness):
        if info.same_as:
            result.append(MovementApparatus(info, score_witness(), other, 0, ()))
            continue
        base_chars = movement(info.id).characters
        other_chars = movement(info.id, other).characters
        variants = []
        for b, o in zip(base_chars, other_chars, strict=True):
            kinds = _kinds(b, o)
            if kinds:
                variants.append(
                    Variant(
                        b.phrase,
                        b.position,
                        kinds,
                        Reading.of(b, score_witness(), info.section),
                        Reading.of(o, other, info.section),
                        _remark(other, info, b, o),
                    )
                )
        result.append(MovementApparatus(info, score_witness(), other, len(base_chars), tuple(variants)))
    return tuple(result)


def apparatus(movement_name: str | None = None, witness: str | None = None) -> tuple[MovementApparatus, ...]:
    """Every movement (or one) collated: each non-default score witness (or the one named) against the default."""
    _check_other(witness)
    names = [movement_info(movement_name).id] if movement_name else [m.id for m in movement_infos()]
    return tuple(a for n in names for a in movement_apparatus(n, witness))


def apparatus_json(entries: tuple[MovementApparatus, ...]) -> str:
    """The apparatus as JSON."""
    return json.dumps([a.as_dict() for a in entries], ensure_ascii=False, indent=2)
