"""Citations: a witness id and the exact words quoted, resolved to offsets in the witness.

A quote is compared on the folding key, so it resolves across script (鐘 and 钟), punctuation, layout
and note brackets; what it resolves to is always a span of the witness's own raw text. A quote that does
not resolve raises :class:`CitationError` naming the witness and showing the closest passage.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, field_validator

from dianli.corpus.normalise import fold
from dianli.corpus.sections import Section, find_sections, resolve_section_id, section_at
from dianli.corpus.witnesses import load_witness, witness_ids
from dianli.errors import DianliError, UnknownValueError


class CitationError(DianliError, LookupError):
    """A quote that is not in its witness; the message shows the closest passage."""

    def __init__(self, witness: str, quote: str, closest: str, section: str | None) -> None:
        self.witness = witness
        self.quote = quote
        self.closest = closest
        where = f" in section {section!r}" if section else ""
        near = f"closest passage: {closest!r}" if closest else "no passage shares two characters with it"
        super().__init__(f"quote {quote!r} not found in witness {witness!r}{where}; {near}")


class Citation(BaseModel):
    """What a fact rests on: the witness and the exact words (``section`` narrows the search)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    witness: str
    quote: str
    section: str | None = None

    @field_validator("witness")
    @classmethod
    def _known_witness(cls, value: str) -> str:
        if value not in witness_ids():
            raise ValueError(f"unknown witness {value!r}; accepted: {', '.join(witness_ids())}")
        return value

    @field_validator("quote")
    @classmethod
    def _quotable(cls, value: str) -> str:
        if not fold(value):
            raise ValueError(f"quote {value!r} has no characters to compare (only punctuation or spaces)")
        return value

    def resolve(self) -> ResolvedCitation:
        """Find the quote in its witness; raise :class:`CitationError` if it is not there."""
        return resolve(self.witness, self.quote, self.section)


@dataclass(frozen=True)
class ResolvedCitation:
    """A quote located in its witness: raw offsets (half-open), reading-text offsets and section."""

    witness: str
    quote: str
    raw_start: int
    raw_end: int
    text_start: int
    text_end: int
    section: Section
    occurrences: int
    """How many times the quote occurs in the searched range (the first is the one resolved)."""

    @property
    def passage(self) -> str:
        """The witness's own text of the quote (reading text: layout removed, punctuation kept)."""
        return load_witness(self.witness).norm.text[self.text_start : self.text_end]

    def context(self, chars: int = 40) -> tuple[str, str, str]:
        """The passage with up to ``chars`` characters of reading text before and after."""
        text = load_witness(self.witness).norm.text
        before = text[max(0, self.text_start - chars) : self.text_start]
        after = text[self.text_end : self.text_end + chars]
        return before, self.passage, after


def _ranges(witness: str, section: str | None) -> list[tuple[int, int]]:
    """Key ranges to search: the whole witness, or the occurrences of one section."""
    norm = load_witness(witness).norm
    if section is None:
        return [(0, len(norm.key))]
    import bisect

    ranges = []
    for occurrence in find_sections(witness, section):
        k0 = bisect.bisect_left(norm.key_to_text, occurrence.start, 0, len(norm.key))
        k1 = bisect.bisect_left(norm.key_to_text, occurrence.end, 0, len(norm.key))
        ranges.append((k0, k1))
    return ranges


@functools.lru_cache(maxsize=4096)
def resolve(witness: str, quote: str, section: str | None = None) -> ResolvedCitation:
    """Locate ``quote`` in ``witness`` (optionally within ``section``)."""
    if witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    needle = fold(quote)
    if not needle:
        raise CitationError(witness, quote, "", section)
    section_id = resolve_section_id(section) if section is not None else None
    wit = load_witness(witness)
    norm = wit.norm
    hits: list[int] = []
    for k0, k1 in _ranges(witness, section_id):
        at = norm.key.find(needle, k0, k1)
        while at >= 0:
            hits.append(at)
            at = norm.key.find(needle, at + 1, k1)
    if not hits:
        raise CitationError(witness, quote, closest_passage(witness, quote), section_id)
    first = hits[0]
    t0, t1 = norm.text_span_of_key(first, first + len(needle))
    r0, r1 = norm.raw_span(t0, t1)
    return ResolvedCitation(witness, quote, r0, r1, t0, t1, section_at(witness, t0), len(hits))


def closest_passage(witness: str, quote: str) -> str:
    """The passage of the witness most like the quote (most shared character bigrams in a window), or ""
    when no window shares any (the first window would be an arbitrary passage, such as a catalogue id)."""
    norm = load_witness(witness).norm
    needle = fold(quote)
    if not needle or not norm.key:
        return ""
    width = max(len(needle), 2)
    grams = {needle[i : i + 2] for i in range(len(needle) - 1)} or {needle}
    best_at, best_score = 0, -1
    step = max(1, width // 4)
    for at in range(0, max(1, len(norm.key) - width + 1), step):
        window = norm.key[at : at + width]
        score = sum(1 for g in grams if g in window)
        if score > best_score:
            best_at, best_score = at, score
    if best_score <= 0:
        return ""
    t0, t1 = norm.text_span_of_key(best_at, min(len(norm.key), best_at + width))
    return norm.text[t0:t1]
