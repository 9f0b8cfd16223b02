"""Normalisation that keeps the original text and every offset.

A witness's *raw* text is never changed. Three derived views are built from it, each with a map back
to raw offsets:

- the **reading text**: layout removed (HTML tags, line breaks, full-width and ASCII spaces, the
  ``&nbsp;`` remnant at the head of fragment 003, the 译 that opens each chunk of the translation 000),
  everything else kept, punctuation included;
- the **note spans**: 001's ``<font>`` small print and the notes in 【】, （） and (), as spans of the
  reading text with their kind;
- the **editorial spans**: what a transcriber added that is not the historical text — a header block
  ending in a line of ``=====`` and the square-bracket marks of :data:`EDITORIAL_FORMS` (``[OMITTED: …]``,
  ``[NOT REPEATED HERE: …]``, ``[卷之三 … (excerpt …)]``). They stay in the raw and the reading text (so
  offsets keep mapping back) but are *gaps*: no note is found inside one, and the folding key drops them;
- the **folding key**: the reading text without punctuation, brackets or marks, each character folded
  to one simplified form (OpenCC t2s, one character at a time so that offsets survive, then the cited
  variant table of ``data/variants.yaml``). Traditional and simplified witnesses compare equal on it.
  Where an editorial span stood between two key characters the key holds :data:`KEY_GAP`, which no
  folded query contains: a quote that would run across the gap does not match.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from dianli import cache
from dianli.corpus.simplified import is_tabled, simplified
from dianli.corpus.simplified import table as simplified_table
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

EditorialKind = Literal["omitted", "not-repeated", "excerpt-heading", "header", "footnote", "note"]

KEY_GAP = "\x1e"
"""Stands in the folding key where an editorial span broke the text (not a key character: no folded query
holds it, so a match never runs across a gap)."""


@dataclass(frozen=True)
class EditorialForm:
    """One form of editorial addition: its kind, the raw-text pattern (group ``words``) and why it is one."""

    kind: EditorialKind
    pattern: re.Pattern[str]
    reason: str
    only_with: str = ""
    """The form is editorial only in a text that holds this string (a footnote mark where the editor's
    notes follow under 〔校注〕); empty: in every text."""


# A bracket's words stay on one line and hold no other square bracket.
_WORDS = r"[^\[\]\n]+"
_FOOTNOTE_MARK = r"〔[一二三四五六七八九十0-9０-９]{1,3}〕"

EDITORIAL_FORMS: tuple[EditorialForm, ...] = (
    EditorialForm(
        "header",
        # SOURCE: first, at the start of a line (the look-behind keeps the literal prefix, which is fast).
        re.compile(
            r"^\ufeff?(?P<words>(?:[A-Z][A-Za-z0-9_ -]{0,30}: [^\n]*\n)*?SOURCE: [^\n]*\n"
            r"(?:[A-Z][A-Za-z0-9_ -]{0,30}: [^\n]*\n)*)=====+[ \t\r]*(?:\n|\Z)",
            re.MULTILINE,
        ),
        "a transcriber's header (a SOURCE: line among WORK:, NOTE:, SECTIONS: and any other KEY: lines such "
        "as NOTABLE:) ending in a line of =====, at the start of a line (each transcribed file opens with "
        "one): it describes the file, it is not the work's text",
    ),
    EditorialForm(
        "omitted",
        re.compile(rf"\[OMITTED: (?P<words>{_WORDS})\]"),
        "a passage the transcriber left out, with what it held",
    ),
    EditorialForm(
        "not-repeated",
        re.compile(rf"\[NOT REPEATED HERE: (?P<words>{_WORDS})\]"),
        "a passage left out because another witness file holds the same words",
    ),
    EditorialForm(
        "excerpt-heading",
        re.compile(r"\[(?P<words>卷之?[一二三四五六七八九十百]+[^\[\]\n]*\(excerpt\b[^\[\]\n]*\))\]"),
        "the transcriber's heading of an excerpt taken from another chapter (卷) of the work",
    ),
    EditorialForm(
        "footnote",
        re.compile(rf"^[ \t\u3000]*(?P<words>{_FOOTNOTE_MARK}[^\n]*)", re.MULTILINE),
        "a modern editor's note under 〔校注〕 (a line opening with its number, 〔一〕“祝”疑当作“祀”): the "
        "editor's, not the work's. The number in the text (无祝〔一〕鬼神) stays a note in brackets, as "
        "〔〕 elsewhere is an editor's restoration of lost characters (自〔此始〕)",
        only_with="〔校注〕",
    ),
    EditorialForm(
        "note",
        re.compile(r"\[(?P<words>[^\[\]\n]*[A-Za-z]{3}[^\[\]\n]*)\]"),
        "any other square bracket whose words hold a word of latin letters ([祭文 omitted: …], [omitted: …], "
        "[illegible]): a transcriber's note, for the work is written in Chinese characters",
    ),
)
"""The forms of editorial addition, found on the raw text. Nothing else is editorial: a square bracket of
any other form is text (and in the folding key) as before."""


@dataclass(frozen=True)
class EditorialSpan:
    """An editorial addition in reading-text coordinates: a gap, with its kind and its own words."""

    start: int
    end: int
    kind: EditorialKind
    words: str


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
    editorial: tuple[EditorialSpan, ...] = ()

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

    def in_editorial(self, text_offset: int) -> EditorialSpan | None:
        """The editorial span (gap) that holds a reading-text offset, if any."""
        for span in self.editorial:
            if span.start <= text_offset < span.end:
                return span
        return None

    def gap_pieces(self, piece: str) -> tuple[tuple[str, EditorialSpan | None], ...]:
        """Cut a run of this reading text (a slice without offsets, as a page gets it) into text and gaps.

        Each editorial span whose reading text lies whole in ``piece`` becomes its own piece, paired with
        the span; the text around it is paired with ``None``.
        """
        found: list[tuple[int, int, EditorialSpan]] = []
        for span in self.editorial:
            mark = self.text[span.start : span.end]
            at = piece.find(mark)
            while at >= 0:
                if all(at >= e or at + len(mark) <= s for s, e, _ in found):
                    found.append((at, at + len(mark), span))
                at = piece.find(mark, at + len(mark))
        out: list[tuple[str, EditorialSpan | None]] = []
        pos = 0
        for start, end, span in sorted(found, key=lambda f: f[0]):
            if start > pos:
                out.append((piece[pos:start], None))
            out.append((piece[start:end], span))
            pos = end
        if pos < len(piece) or not out:
            out.append((piece[pos:], None))
        return tuple(out)

    def in_note(self, text_offset: int) -> NoteSpan | None:
        """The innermost note that holds a reading-text offset, if any."""
        best: NoteSpan | None = None
        for note in self.notes:
            if note.start <= text_offset < note.end and (best is None or note.start >= best.start):
                best = note
        return best


class _Variant(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    fold_to: str = Field(min_length=1, max_length=1)
    forms: tuple[str, ...] = Field(min_length=1)
    note: str = ""
    cite: tuple[WitnessCite, ...] = Field(min_length=1)


class _VariantsFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

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


@functools.lru_cache(maxsize=65536)
def fold_char(char: str) -> str:
    """Fold one character to its comparison form (simplified script, then the variant table): from the
    table of the Basic Multilingual Plane (:data:`dianli.corpus.simplified.TABLED`, made by these rules),
    else by the rules."""
    if is_tabled(char):
        return _fold_table().get(char, char)
    return _fold_by_rules(char)


@functools.lru_cache(maxsize=1)
def _fold_table() -> dict[str, str]:
    """Each character that folds to another → that character (one absent folds to itself): about 4,200
    of 63,000, made once and kept in the on-disk cache under a key naming the package's
    files (the variant table among them) and OpenCC's version, so that a run that folds text loads
    neither OpenCC's dictionaries nor the variant table."""
    entry = cache.installed_key("corpus.normalise.fold_table", cache.versions("opencc"))
    return cache.pickled(cache.DERIVED, entry, _make_fold_table)


def _make_fold_table() -> dict[str, str]:
    """:func:`dianli.corpus.simplified.table_of` :func:`_fold_by_rules`, the rules applied only where they
    can change a character: one that script conversion changes, or one the variant table names (any other
    folds to itself)."""
    changed = {*simplified_table(), *(char for char in _variant_table() if is_tabled(char))}
    return {char: folded for char in changed if (folded := _fold_by_rules(char)) != char}


def _fold_by_rules(char: str) -> str:
    converted = simplified(char)
    table = _variant_table()
    return table.get(converted, table.get(char, converted))


def is_key_char(char: str) -> bool:
    """Whether a reading-text character takes part in the folding key (letters and numbers only)."""
    category = unicodedata.category(char)
    return category[0] in "LN" or char in "□囗▯"


def fold(text: str) -> str:
    """The folding key of a string (no offsets): what search and citation compare."""
    return "".join(fold_char(c) for c in text if is_key_char(c))


def _editorial_spans(raw: str, text_to_raw: list[int], text_length: int) -> list[EditorialSpan]:
    """Find the editorial forms on the raw text and map them to the reading text (first form wins)."""
    taken: list[tuple[int, int]] = []
    spans: list[EditorialSpan] = []
    for form in EDITORIAL_FORMS:
        if form.only_with and form.only_with not in raw:
            continue
        for match in form.pattern.finditer(raw):
            r0, r1 = match.span()
            if any(r0 < e and s < r1 for s, e in taken):
                continue
            start = bisect.bisect_left(text_to_raw, r0, 0, text_length)
            end = bisect.bisect_left(text_to_raw, r1, 0, text_length)
            if end > start:
                taken.append((r0, r1))
                words = "\n".join(
                    " ".join(line.split()) for line in match["words"].splitlines() if line.strip()
                )
                spans.append(EditorialSpan(start, end, form.kind, words))
    return sorted(spans, key=lambda e: e.start)


def _note_spans(
    raw: str,
    text_to_raw: list[int],
    text: str,
    paragraph_starts: set[int],
    editorial: list[EditorialSpan],
) -> list[NoteSpan]:
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
    # Bracket notes, nested, on the reading text. A bracket left open ends at its paragraph's end, or where
    # an editorial span (a gap) begins; inside a gap no bracket counts.
    stack: list[tuple[int, str]] = []
    for a, b in _between_gaps(len(text), editorial):
        for i in range(a, b):
            if i in paragraph_starts:
                notes.extend(NoteSpan(start, i, opener) for start, opener in stack)
                stack.clear()
            char = text[i]
            if char in NOTE_BRACKETS:
                stack.append((i, char))
            elif stack and char == NOTE_BRACKETS[stack[-1][1]]:
                start, opener_char = stack.pop()
                notes.append(NoteSpan(start, i + 1, opener_char))
        if b < len(text):  # a gap begins: it closes every open bracket
            notes.extend(NoteSpan(start, b, opener) for start, opener in stack)
            stack.clear()
    notes.extend(NoteSpan(start, len(text), opener) for start, opener in stack)
    if editorial:
        notes = [n for n in notes if not any(g.start <= n.start and n.end <= g.end for g in editorial)]
    return sorted(notes, key=lambda n: (n.start, -n.end))


def normalise(raw: str) -> Normalised:
    """Build the reading text, note and editorial spans and folding key of a raw text, with offset maps."""
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
    editorial = _editorial_spans(raw, text_to_raw, len(text))
    notes = _note_spans(raw, text_to_raw, text, paragraph_starts, editorial)
    key, key_to_text = _key(text, editorial)
    return Normalised(
        raw=raw,
        text=text,
        text_to_raw=tuple(text_to_raw),
        notes=tuple(notes),
        paragraph_starts=frozenset(p for p in paragraph_starts if p < len(text)),
        key=key,
        key_to_text=key_to_text,
        editorial=tuple(editorial),
    )


def _key(text: str, editorial: list[EditorialSpan]) -> tuple[str, tuple[int, ...]]:
    """The folding key and its map to the reading text; a gap between two key characters is KEY_GAP."""
    key_chars: list[str] = []
    key_to_text: list[int] = []
    gap_at: int | None = None  # where the first gap since the last key character began
    for a, b in _between_gaps(len(text), editorial):
        first = len(key_chars)
        for t in range(a, b):
            char = text[t]
            if is_key_char(char):
                key_chars.append(fold_char(char))
                key_to_text.append(t)
        if len(key_chars) > first:
            if gap_at is not None and first > 0:
                key_chars.insert(first, KEY_GAP)
                key_to_text.insert(first, gap_at)
            gap_at = None
        if b < len(text) and gap_at is None:
            gap_at = b
    key_to_text.append(len(text))
    return "".join(key_chars), tuple(key_to_text)


def _between_gaps(length: int, editorial: list[EditorialSpan]) -> list[tuple[int, int]]:
    """The half-open runs of reading text outside the (sorted, disjoint) editorial spans; each run but
    the last ends where a gap begins (an empty run between two adjacent gaps included)."""
    runs: list[tuple[int, int]] = []
    at = 0
    for gap in editorial:
        runs.append((at, gap.start))
        at = gap.end
    runs.append((at, length))
    return runs
