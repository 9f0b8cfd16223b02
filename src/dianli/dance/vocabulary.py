"""The pose vocabulary of the 舞譜: slots, the 籥翟 terms and the phrases, loaded from data/vocabulary.yaml.

A phrase pattern such as ``起{side}手於肩`` is compiled into a regular expression over the folding key
(script and punctuation ignored), so the same phrase matches 004's unpunctuated traditional text, 001's
punctuated text and a simplified input alike.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.dance.schema import Draw, SlotMeaning, vocabulary_data
from dianli.errors import DataError, UnknownValueError

_SLOT_RE = re.compile(r"\{(?:(?P<name>\w+):)?(?P<slot>\w+)\}")
VOCABULARY_FILE = "vocabulary.yaml"


@dataclass(frozen=True)
class SlotValue:
    """One word a slot may take (左, 東, 籥 …) and what it means."""

    slot: str
    word: str
    meaning: SlotMeaning
    forms: tuple[str, ...]


@dataclass(frozen=True)
class Term:
    """One of the 籥翟 terms as the witnesses define it."""

    id: str
    char: str
    gloss: str
    cite: Citation
    draw: Draw


@dataclass(frozen=True)
class Phrase:
    """A phrase of the notation: its pattern, what it draws and where the witnesses use it."""

    id: str
    kind: str
    pattern: str
    gloss: str
    term: str | None
    files: tuple[int, ...] | None
    cite: Citation
    assumption: str | None
    draw: Draw
    slots: tuple[tuple[str, str], ...]
    """(placeholder name, slot type) in pattern order."""
    regex: re.Pattern[str]


@dataclass(frozen=True)
class Vocabulary:
    """Everything the parser and the pose builder need from vocabulary.yaml."""

    slots: dict[str, dict[str, SlotValue]]
    terms: tuple[Term, ...]
    phrases: tuple[Phrase, ...]

    def phrase(self, phrase_id: str) -> Phrase:
        """The phrase with this id."""
        for phrase in self.phrases:
            if phrase.id == phrase_id:
                return phrase
        raise UnknownValueError("dance phrase", phrase_id, [p.id for p in self.phrases])

    def slot_value(self, slot: str, folded_word: str) -> SlotValue:
        """The slot value whose folded form is ``folded_word``."""
        for value in self.slots[slot].values():
            if folded_word in {fold(f) for f in value.forms}:
                return value
        raise DataError(f"dance/data/{VOCABULARY_FILE}: slot {slot!r} has no word {folded_word!r}")


def _slots(raw: dict[str, dict[str, SlotMeaning]]) -> dict[str, dict[str, SlotValue]]:
    return {
        slot: {
            word: SlotValue(slot, word, meaning, (word,) if meaning.forms is None else meaning.forms)
            for word, meaning in words.items()
        }
        for slot, words in raw.items()
    }


def _compile(
    pattern: str, slots: dict[str, dict[str, SlotValue]], where: str
) -> tuple[re.Pattern[str], tuple[tuple[str, str], ...]]:
    parts: list[str] = []
    names: list[tuple[str, str]] = []
    at = 0
    for match in _SLOT_RE.finditer(pattern):
        parts.append(re.escape(fold(pattern[at : match.start()])))
        slot = match.group("slot")
        name = match.group("name") or slot
        if slot not in slots:
            raise DataError(
                f"dance/data/{VOCABULARY_FILE}: {where}: unknown slot {slot!r}; accepted: {', '.join(slots)}"
            )
        if name in dict(names):
            raise DataError(f"dance/data/{VOCABULARY_FILE}: {where}: placeholder {name!r} used twice")
        forms = sorted({fold(f) for v in slots[slot].values() for f in v.forms}, key=len, reverse=True)
        parts.append(f"(?P<{name}>{'|'.join(re.escape(f) for f in forms)})")
        names.append((name, slot))
        at = match.end()
    parts.append(re.escape(fold(pattern[at:])))
    return re.compile("".join(parts)), tuple(names)


@functools.lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The vocabulary, loaded and compiled once."""
    data = vocabulary_data()
    slots = _slots(data.slots)
    terms = tuple(Term(t.id, t.char, t.gloss, t.cite, t.draw) for t in data.terms)
    term_ids = {t.id for t in terms}
    phrases: list[Phrase] = []
    seen: set[str] = set()
    for entry in data.phrases:
        where = f"phrase {entry.id!r}"
        if entry.id in seen:
            raise DataError(f"dance/data/{VOCABULARY_FILE}: {where} is defined twice")
        seen.add(entry.id)
        if entry.term is not None and entry.term not in term_ids:
            raise DataError(
                f"dance/data/{VOCABULARY_FILE}: {where}: unknown term {entry.term!r}; accepted: {sorted(term_ids)}"
            )
        regex, names = _compile(entry.pattern, slots, where)
        phrases.append(
            Phrase(
                id=entry.id,
                kind=entry.kind,
                pattern=entry.pattern,
                gloss=entry.gloss,
                term=entry.term,
                files=entry.files or None,
                cite=entry.cite,
                assumption=entry.assumption,
                draw=entry.draw,
                slots=names,
                regex=regex,
            )
        )
    return Vocabulary(slots, terms, tuple(phrases))
