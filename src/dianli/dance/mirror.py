"""The east/west mirror rule: the 西班 does what the 東班 does with 左↔右 and 東↔西 swapped.

Every character of every witness is checked by mirroring the 東班's parsed phrases (the swaps are data:
``mirror`` in vocabulary.yaml) and comparing them with the 西班's. Where they differ the character is an
asymmetry, listed with every witness's reading of it: found in one witness only it is likely a copying
error; found in all, deliberate or inherited.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from typing import Any

from dianli.corpus.normalise import fold_char
from dianli.dance.notation import (
    CharacterNotation,
    RankClause,
    Token,
    dance_witnesses,
    movements,
    parse_movement,
)
from dianli.dance.schema import vocabulary_data
from dianli.errors import UnknownValueError

Signature = tuple[str, tuple[tuple[str, str], ...]]


@functools.lru_cache(maxsize=1)
def mirror_table() -> dict[str, dict[str, str]]:
    """Slot type → word → mirrored word."""
    return {slot: dict(words) for slot, words in vocabulary_data().mirror.items()}


def mirror_word(slot: str, word: str) -> str:
    """The word the other rank uses for ``word`` (unchanged if the slot does not mirror it)."""
    return mirror_table().get(slot, {}).get(word, word)


def signature(token: Token, mirrored: bool = False) -> Signature:
    """What is compared: the phrase and its slot words (mirrored if asked)."""
    slots = tuple((name, mirror_word(slot, word) if mirrored else word) for name, slot, word in token.slots)
    return token.phrase, slots


def mirrored_text(token: Token) -> str:
    """The token's words as the other rank would write them (slot characters swapped).

    A character the witness writes in another script or form than the vocabulary's word (东 for 東,
    龠 for 籥) is matched on the folding key and replaced by the vocabulary's mirrored word."""
    swaps: dict[str, str] = {}
    folded: dict[str, str] = {}
    for _, slot, word in token.slots:
        if len(word) == 1:
            swaps[word] = mirror_word(slot, word)
            folded[fold_char(word)] = mirror_word(slot, word)
    return "".join(swaps.get(c, folded.get(fold_char(c), c)) for c in token.text)


def clause_signature(clause: RankClause, mirrored: bool = False) -> tuple[Signature, ...]:
    """The subject's files and every phrase of a clause."""
    return (("files", (("files", str(clause.files)),)), *(signature(t, mirrored) for t in clause.tokens))


@dataclass(frozen=True)
class Difference:
    """One place where the 西班 does not mirror the 東班."""

    east: str
    """The 東班's words there."""
    expected_west: str
    """What the mirror rule expects the 西班 to write."""
    west: str
    """What the 西班 writes."""


@dataclass(frozen=True)
class Reading:
    """One witness's reading of a character, with the result of the mirror check."""

    witness: str
    char: str
    east: str
    west: str
    mirrors: bool
    differences: tuple[Difference, ...]
    emended: tuple[str, ...]


@dataclass(frozen=True)
class Asymmetry:
    """A character where at least one witness breaks the mirror rule; every witness's reading."""

    movement: str
    index: int
    """The character's place in the movement's text, counted from 1 (as CharacterNotation.index)."""
    readings: tuple[Reading, ...]

    @property
    def verdict(self) -> str:
        """One witness only: likely a copying error; all witnesses: deliberate or inherited."""
        broken = [r.witness for r in self.readings if not r.mirrors]
        if len(broken) == len(self.readings):
            return "in every witness: deliberate, or inherited from a common source"
        return f"only in {', '.join(broken)}: likely a copying error"


def _clause_text(clauses: tuple[RankClause, ...]) -> str:
    return "；".join(c.text for c in clauses)


def _differences(east: tuple[RankClause, ...], west: tuple[RankClause, ...]) -> tuple[Difference, ...]:
    east_tokens = [t for c in east for t in c.tokens]
    west_tokens = [t for c in west for t in c.tokens]
    expected = [s for c in east for s in clause_signature(c, mirrored=True)]
    actual = [s for c in west for s in clause_signature(c)]
    if expected == actual:
        return ()
    a = [signature(t, mirrored=True) for t in east_tokens]
    b = [signature(t) for t in west_tokens]
    diffs: list[Difference] = []
    if [c.files for c in east] != [c.files for c in west]:
        diffs.append(Difference(_clause_text(east), "same 班 as the 東班", _clause_text(west)))
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        diffs.append(
            Difference(
                "".join(t.text for t in east_tokens[a0:a1]),
                "".join(mirrored_text(t) for t in east_tokens[a0:a1]),
                "".join(t.text for t in west_tokens[b0:b1]),
            )
        )
    return tuple(diffs)


def reading(note: CharacterNotation) -> Reading:
    """A witness's reading of one character, checked against the mirror rule."""
    east, west = note.rank("east"), note.rank("west")
    diffs = _differences(east, west)
    return Reading(
        note.witness,
        note.char,
        _clause_text(east),
        _clause_text(west),
        not diffs,
        diffs,
        tuple(f"{e.reading} → {e.read_as}" for e in note.emendations),
    )


def _witnesses(witnesses: tuple[str, ...] | None) -> tuple[str, ...]:
    if witnesses is None:
        return dance_witnesses()
    for w in witnesses:
        if w not in dance_witnesses():
            raise UnknownValueError("dance witness", w, dance_witnesses())
    return witnesses


@functools.lru_cache(maxsize=8)
def asymmetries(witnesses: tuple[str, ...] | None = None) -> tuple[Asymmetry, ...]:
    """Every character, in any movement, that some witness writes without the east/west mirror
    (among ``witnesses``, all the dance witnesses by default), with each of those witnesses' readings."""
    chosen = _witnesses(witnesses)
    found: list[Asymmetry] = []
    for mov in movements():
        per_witness = [parse_movement(w, mov.id) for w in chosen]
        for notes in zip(*per_witness, strict=True):
            readings = tuple(reading(n) for n in notes)
            if not all(r.mirrors for r in readings):
                found.append(Asymmetry(mov.id, notes[0].index, readings))
    return tuple(found)


def asymmetries_json(witnesses: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """The asymmetry list as plain data (the golden file's form)."""
    return [
        {
            "movement": a.movement,
            "index": a.index,
            "verdict": a.verdict,
            "readings": [
                {
                    "witness": r.witness,
                    "char": r.char,
                    "east": r.east,
                    "west": r.west,
                    "mirrors": r.mirrors,
                    "differences": [
                        {"east": d.east, "expected_west": d.expected_west, "west": d.west}
                        for d in r.differences
                    ],
                    "emended": list(r.emended),
                }
                for r in a.readings
            ],
        }
        for a in asymmetries(witnesses)
    ]
