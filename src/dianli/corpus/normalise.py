"""Normalisation that keeps the original text and every offset.

A witness's *raw* text is never changed. Three derived views are built from it, each with a map back
to raw offsets:

- the **reading text**: layout removed (HTML tags, line breaks, full-width and ASCII spaces, the
  ``&nbsp;`` remnant at the head of fragment 003, the 译 that opens each chunk of the translation 000),
  everything else kept, punctuation included;
- the **note spans**: 001's ``<font>`` small print and the notes in 【】, （） and (), as spans of the
  reading text with their kind;
- the **folding key**: the reading text without punctuation, brackets or marks, each character folded
  to one simplified form (OpenCC t2s, one character at a time so that offsets survive, then the cited
  variant table of ``data/variants.yaml``). Traditional and simplified witnesses compare equal on it.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from dianli.corpus.sources import WitnessCite
from dianli.datafile import load_model
from dianli.errors import DataError

VARIANTS_FILE = "data/variants.yaml"

# Layout in the raw text: tags, entity remnants, line breaks and spaces. Paragraph breaks are kept apart
# (as offsets) because clause segmentation ends a clause there.
_LAYOUT_RE = re.compile(r"</?[A-Za-z][^<>\n]{0,200}>|&nbsp;|^bsp;|^译|[\u3000 \t\r\n\ufeff]", re.MULTILINE)
_PARAGRAPH_RE = re.compile(r"\n[\u3000 \t\r]*\n")
_FONT_OPEN_RE = re.compile(r"<font\b[^<>]*>", re.IGNORECASE)
_FONT_CLOSE_RE = re.compile(r"</font>", re.IGNORECASE)

NOTE_BRACKETS: dict[str, str] = {"【": "】", "（": "）", "(": ")", "〔": "〕"}
"""Openers and closers of inline notes. 〔〕 mark editorial restorations in 001 (e.g. 馬王〔□〕)."""

SENTENCE_STOPS = frozenset("。．.！？!?；;")
"""Characters that end a sentence. ``．`` is 001's sentence stop."""


@dataclass(frozen=True)
class NoteSpan:
    """A note in reading-text coordinates; ``kind`` is ``small-print`` or the opening bracket."""

    start: int
    end: int
    kind: str


@dataclass(frozen=True)
class Normalised:
    """The views of one raw text with their offset maps (each map has one entry per character + 1)."""

    raw: str
    text: str
    text_to_raw: tuple[int, ...]
    notes: tuple[NoteSpan, ...]
    paragraph_starts: frozenset[int]
    key: str
    key_to_text: tuple[int, ...]

    def raw_span(self, text_start: int, text_end: int) -> tuple[int, int]:
        """Map a half-open reading-text span to the raw span that holds it."""
        if not 0 <= text_start <= text_end <= len(self.text):
            raise ValueError(f"span {text_start}:{text_end} outside 0:{len(self.text)}")
        if text_start == text_end:
            at = self.text_to_raw[text_start]
            return at, at
        return self.text_to_raw[text_start], self.text_to_raw[text_end - 1] + 1

    def text_span_of_key(self, key_start: int, key_end: int) -> tuple[int, int]:
        """Map a half-open key span to the reading-text span from its first to its last character."""
        if not 0 <= key_start <= key_end <= len(self.key):
            raise ValueError(f"span {key_start}:{key_end} outside 0:{len(self.key)}")
        if key_start == key_end:
            at = self.key_to_text[key_start]
            return at, at
        return self.key_to_text[key_start], self.key_to_text[key_end - 1] + 1

    def in_note(self, text_offset: int) -> NoteSpan | None:
        """The innermost note that holds a reading-text offset, if any."""
        best: NoteSpan | None = None
        for note in self.notes:
            if note.start <= text_offset < note.end and (best is None or note.start >= best.start):
                best = note
        return best


class _Variant(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    fold_to: str = Field(min_length=1, max_length=1)
    forms: tuple[str, ...] = Field(min_length=1)
    note: str = ""
    cite: tuple[WitnessCite, ...] = Field(min_length=1)


class _VariantsFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    variants: tuple[_Variant, ...]


@functools.lru_cache(maxsize=1)
def _variants() -> tuple[_Variant, ...]:
    return load_model("corpus", VARIANTS_FILE, _VariantsFile).variants


def variant_cites() -> tuple[WitnessCite, ...]:
    """The quotations the variant table cites (their witness ids are checked with the manifests)."""
    return tuple(c for v in _variants() for c in v.cite)


@functools.lru_cache(maxsize=1)
def _variant_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for index, entry in enumerate(_variants()):
        for form in entry.forms:
            if len(form) != 1:
                raise DataError(
                    f"dianli/corpus/{VARIANTS_FILE}: variants.{index}.forms: {form!r} is not one character; "
                    f"accepted: single characters (a variant maps one character to one)"
                )
            table[form] = entry.fold_to
    return table


@functools.lru_cache(maxsize=1)
def _opencc_t2s() -> object:
    import opencc

    return opencc.OpenCC("t2s.json")


@functools.lru_cache(maxsize=65536)
def fold_char(char: str) -> str:
    """Fold one character to its comparison form (simplified script, then the variant table)."""
    converted = str(_opencc_t2s().convert(char))  # type: ignore[attr-defined]
    folded = converted if len(converted) == 1 else char
    table = _variant_table()
    return table.get(folded, table.get(char, folded))


def is_key_char(char: str) -> bool:
    """Whether a reading-text character takes part in the folding key (letters and numbers only)."""
    category = unicodedata.category(char)
    return category[0] in "LN" or char in "□囗▯"


def fold(text: str) -> str:
    """The folding key of a string (no offsets): what search and citation compare."""
    return "".join(fold_char(c) for c in text if is_key_char(c))


def _note_spans(raw: str, text_to_raw: list[int], text: str, paragraph_starts: set[int]) -> list[NoteSpan]:
    notes: list[NoteSpan] = []

    # Small print of 001: find the raw spans between <font …> and </font>, then map to the reading text.
    def first_text_at_or_after(raw_offset: int) -> int:
        return bisect.bisect_left(text_to_raw, raw_offset, 0, len(text))

    for opener in _FONT_OPEN_RE.finditer(raw):
        closer = _FONT_CLOSE_RE.search(raw, opener.end())
        end_raw = closer.start() if closer else len(raw)
        start = first_text_at_or_after(opener.end())
        end = first_text_at_or_after(end_raw)
        if end > start:
            notes.append(NoteSpan(start, end, "small-print"))
    # Bracket notes, nested, on the reading text. A bracket left open ends at its paragraph's end.
    stack: list[tuple[int, str]] = []
    for i, char in enumerate(text):
        if i in paragraph_starts:
            notes.extend(NoteSpan(start, i, opener) for start, opener in stack)
            stack.clear()
        if char in NOTE_BRACKETS:
            stack.append((i, char))
        elif stack and char == NOTE_BRACKETS[stack[-1][1]]:
            start, opener_char = stack.pop()
            notes.append(NoteSpan(start, i + 1, opener_char))
    notes.extend(NoteSpan(start, len(text), opener) for start, opener in stack)
    return sorted(notes, key=lambda n: (n.start, -n.end))


def normalise(raw: str) -> Normalised:
    """Build the reading text, note spans and folding key of a raw text, with offset maps."""
    if not isinstance(raw, str):
        raise TypeError(f"normalise() takes a str, not {type(raw).__name__}")
    chars: list[str] = []
    text_to_raw: list[int] = []
    pos = 0
    for match in _LAYOUT_RE.finditer(raw):
        for r in range(pos, match.start()):
            chars.append(raw[r])
            text_to_raw.append(r)
        pos = match.end()
    for r in range(pos, len(raw)):
        chars.append(raw[r])
        text_to_raw.append(r)
    text = "".join(chars)
    text_to_raw.append(len(raw))
    # A paragraph starts at the first reading character after each blank line.
    paragraph_starts = {0} | {
        bisect.bisect_left(text_to_raw, m.end(), 0, len(text)) for m in _PARAGRAPH_RE.finditer(raw)
    }
    notes = _note_spans(raw, text_to_raw, text, paragraph_starts)
    key_chars: list[str] = []
    key_to_text: list[int] = []
    for t, char in enumerate(text):
        if is_key_char(char):
            key_chars.append(fold_char(char))
            key_to_text.append(t)
    key_to_text.append(len(text))
    return Normalised(
        raw=raw,
        text=text,
        text_to_raw=tuple(text_to_raw),
        notes=tuple(notes),
        paragraph_starts=frozenset(p for p in paragraph_starts if p < len(text)),
        key="".join(key_chars),
        key_to_text=tuple(key_to_text),
    )
