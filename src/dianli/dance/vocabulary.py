"""The pose vocabulary of the 舞譜: slots, the 籥翟 terms and the phrases, loaded from data/vocabulary.yaml.

A phrase pattern such as ``起{side}手於肩`` is compiled into a regular expression over the folding key
(script and punctuation ignored), so the same phrase matches 004's unpunctuated traditional text, 001's
punctuated text and a simplified input alike.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.errors import DataError, UnknownValueError

_SLOT_RE = re.compile(r"\{(?:(?P<name>\w+):)?(?P<slot>\w+)\}")
VOCABULARY_FILE = "vocabulary.yaml"


def load_data(name: str) -> dict[str, Any]:
    """A YAML file of the dance package data, as a mapping."""
    path = resources.files("dianli.dance") / "data" / name
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise DataError(f"dance/data/{name}: expected a mapping at the top level")
    return data


@dataclass(frozen=True)
class SlotValue:
    """One word a slot may take (左, 東, 籥 …) and what it means."""

    slot: str
    word: str
    meaning: tuple[tuple[str, Any], ...]
    forms: tuple[str, ...]

    def get(self, key: str) -> Any:
        """The value of one meaning field, or None."""
        return dict(self.meaning).get(key)


@dataclass(frozen=True)
class Term:
    """One of the 籥翟 terms as the witnesses define it."""

    id: str
    char: str
    gloss: str
    cite: Citation
    draw: tuple[dict[str, Any], ...]


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
    draw: tuple[dict[str, Any], ...]
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


def _citation(entry: dict[str, Any], where: str) -> Citation:
    raw = entry.get("cite")
    if not isinstance(raw, dict):
        raise DataError(f"dance/data/{VOCABULARY_FILE}: {where} has no cite mapping")
    return Citation(**raw)


def _slots(raw: dict[str, Any]) -> dict[str, dict[str, SlotValue]]:
    slots: dict[str, dict[str, SlotValue]] = {}
    for slot, words in raw.items():
        slots[slot] = {}
        for word, meaning in words.items():
            meaning = dict(meaning)
            forms = tuple(meaning.pop("forms", [word]))
            slots[slot][word] = SlotValue(slot, word, tuple(sorted(meaning.items())), forms)
    return slots


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
    data = load_data(VOCABULARY_FILE)
    slots = _slots(data["slots"])
    terms = tuple(
        Term(t["id"], t["char"], t["gloss"], _citation(t, f"term {t['id']}"), tuple(t["draw"]))
        for t in data["terms"]
    )
    term_ids = {t.id for t in terms}
    phrases: list[Phrase] = []
    seen: set[str] = set()
    for entry in data["phrases"]:
        where = f"phrase {entry.get('id')!r}"
        if entry["id"] in seen:
            raise DataError(f"dance/data/{VOCABULARY_FILE}: {where} is defined twice")
        seen.add(entry["id"])
        term = entry.get("term")
        if term is not None and term not in term_ids:
            raise DataError(
                f"dance/data/{VOCABULARY_FILE}: {where}: unknown term {term!r}; accepted: {sorted(term_ids)}"
            )
        regex, names = _compile(entry["pattern"], slots, where)
        files = entry.get("files")
        phrases.append(
            Phrase(
                id=entry["id"],
                kind=entry.get("kind", "action"),
                pattern=entry["pattern"],
                gloss=entry["gloss"],
                term=term,
                files=tuple(files) if files else None,
                cite=_citation(entry, where),
                assumption=entry.get("assumption"),
                draw=tuple(entry["draw"]),
                slots=names,
                regex=regex,
            )
        )
    return Vocabulary(slots, terms, tuple(phrases))
