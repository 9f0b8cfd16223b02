"""Collation: the witnesses of a section side by side, in the manner of CollateX's alignment table.

Every witness whose text holds the section (in the language of most of them: a translation is not
collated with its original) is cut into *tokens*, one per character of the folding key — so script and
variant characters do not count as differences — each carrying the witness's own character with the
punctuation around it, and whether it stands in a note (001's small print, a bracketed note). An editorial
mark of the transcriber (``[OMITTED: …]``) is one token of its own that matches nothing: a gap, never
text. A witness whose fragment begins inside the section starts with a gap for what is lost.

**The aligner** (our own, not python ``collatex``): a progressive multiple alignment on the folding keys.

* Pairwise, two keys are aligned with ``difflib``'s ``SequenceMatcher`` (longest common blocks first, so a
  copied passage anchors as a whole). A common block shorter than :data:`MIN_ANCHOR` survives only if the
  differences beside it are short (at most :data:`ANCHOR_SPREAD` times its length): a lone 之 or 各 inside
  two unrelated passages is not an agreement.
* The first columns are the characters of the centre, the witness whose key is closest to all the others
  (``rapidfuzz``'s normalised indel similarity, summed). Then, nearest first, each witness is aligned to
  the witness already in the table that is most like it: its agreeing characters go into that witness's
  columns; each run it reads differently goes between the same neighbours, on the columns whose most common
  character it shares (a third witness may read as it does), else one for one on the columns there (a
  substitution), else into new columns (an addition).
* Adjacent columns that split the witnesses the same way are joined (CollateX's *segmentation*), and so are
  adjacent columns where no two witnesses read alike: a run of agreement is one column, and so is a passage
  that a group of witnesses reads differently throughout. A moved clause shows as left out where it stood
  and added where it now stands.

Why not python ``collatex`` (2.3): it imports ``python-Levenshtein`` at module level even when near
matching is off, so it does not import at all without that package (it was measured with a stand-in
module); and on the real 社稷 section with characters as tokens it took 46 s for three witnesses (1,671,
1,199 and 1,047 characters) and 139 s (44 s of CPU) for five on this machine, where this aligner collates
all ten in about 6 s of CPU. Its edit-graph alignment of characters also paired unrelated single
characters across passages that differ (its table for 社稷 aligned 神牌红质金字 with 禮凡), which the anchor
rule above avoids. The output keeps its model: an alignment table of witnesses × columns, exported in its JSON shape (:mod:`dianli.comparison.collate_tei`).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.process import cdist

from dianli.corpus.cite import CitationError, resolve
from dianli.corpus.normalise import Normalised, fold_char, is_key_char
from dianli.corpus.sections import is_within, section_defs, sections
from dianli.corpus.witnesses import WitnessInfo, load_witness, manifest
from dianli.errors import UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.model import walk_elements
from dianli.rites.resolve import find_rite

MIN_ANCHOR = 3
"""A run of agreeing characters at least this long always anchors the pairwise alignment."""
ANCHOR_SPREAD = 2
"""A shorter run anchors only if the differences on each side of it are at most this many times its
length (一字之差: 'ABCXEFG' against 'ABCYEFG' keeps C and E; a 之 amid two unrelated clauses does not)."""
LOST_START = "lost"
"""The kind of the gap that opens a witness whose fragment begins inside the section."""
_GAP_BASE = 0xF0000
"""Gap tokens get keys from Unicode's private use plane: unique, so a gap never matches anything."""


@dataclass(frozen=True, slots=True)
class Token:
    """One character of a witness's section (or one gap), as the witness writes it."""

    text: str
    """The witness's own character with the punctuation that clings to it (a gap: its mark as written)."""
    key: str
    """The character's folding key ('' for a gap)."""
    start: int
    """Reading-text offset of the character (of the gap's start) in the witness."""
    note: bool = False
    """Whether the character stands in a note (small print, a bracketed note)."""
    gap: str | None = None
    """For a gap: its kind (``omitted``, ``not-repeated`` …, or :data:`LOST_START`)."""
    gap_words: str = ""
    """For a gap: what the transcriber says was there."""

    @property
    def char(self) -> str:
        """The witness's character without punctuation ('' for a gap)."""
        return "".join(c for c in self.text if is_key_char(c)) if self.gap is None else ""


@dataclass(frozen=True)
class CollatedWitness:
    """A witness of the collation: its sigil in the table and its tokens of the section."""

    sigil: str
    info: WitnessInfo
    tokens: tuple[Token, ...]
    mid_start: bool
    """True where the witness's fragment begins inside the section (its start is lost)."""

    @property
    def id(self) -> str:
        return self.info.id

    def key(self) -> str:
        """The witness's folded text of the section (gaps left out): what the collation compares."""
        return "".join(t.key for t in self.tokens)


@dataclass(frozen=True)
class Reading:
    """What a group of witnesses reads in a column (same folding key, same notes)."""

    witnesses: tuple[str, ...]
    tokens: tuple[Token, ...]
    """The tokens of the group's first witness (the base where it is in the group)."""
    spellings: tuple[tuple[str, tuple[str, ...]], ...]
    """Each distinct way the group writes it (characters without punctuation) with its witnesses."""

    @property
    def text(self) -> str:
        return "".join(t.text for t in self.tokens)

    @property
    def empty(self) -> bool:
        return not self.tokens


@dataclass(frozen=True)
class Column:
    """One column of the alignment table: each witness's tokens (``()`` where it has nothing here)."""

    cells: tuple[tuple[Token, ...], ...]
    witnesses: tuple[str, ...]
    """The witness ids, in the order of ``cells`` (the collation's order)."""
    base: int
    """Index of the base witness (whose reading is the lemma)."""

    @property
    def agree(self) -> bool:
        """Every witness reads the same here (on the folding key, notes alike)."""
        first = _identity(self.cells[0], 0)
        return bool(self.cells[0]) and all(_identity(c, i) == first for i, c in enumerate(self.cells))

    def readings(self) -> tuple[Reading, ...]:
        """The readings of the column, the base's first, then in the order of their first witness."""
        groups: dict[tuple[object, ...], list[int]] = {}
        order = [self.base, *(i for i in range(len(self.cells)) if i != self.base)]
        for i in order:
            groups.setdefault(_identity(self.cells[i], i), []).append(i)
        out: list[Reading] = []
        for members in groups.values():
            spellings: dict[str, list[str]] = {}
            for i in members:
                spellings.setdefault(_spelling(self.cells[i]), []).append(self.witnesses[i])
            out.append(
                Reading(
                    witnesses=tuple(self.witnesses[i] for i in sorted(members)),
                    tokens=self.cells[members[0]],
                    spellings=tuple((s, tuple(ws)) for s, ws in spellings.items()),
                )
            )
        return tuple(out)

    def reading_of(self, witness: str) -> Reading:
        return next(r for r in self.readings() if witness in r.witnesses)


@dataclass(frozen=True)
class Collation:
    """The alignment table of a section: its witnesses (rows) and columns."""

    rite: str | None
    """The rite asked for (None where a section was asked for directly)."""
    section: str
    section_title: str
    witnesses: tuple[CollatedWitness, ...]
    base: str
    """The witness whose readings are the lemma (by default the one closest to all the others)."""
    columns: tuple[Column, ...]
    left_out: tuple[tuple[str, str], ...] = ()
    """Witnesses that hold the section but are not collated, with the reason."""

    def witness(self, witness_id: str) -> CollatedWitness:
        return next(w for w in self.witnesses if w.id == witness_id)

    @property
    def varying(self) -> tuple[int, ...]:
        """Indices of the columns where the witnesses differ."""
        return tuple(i for i, c in enumerate(self.columns) if not c.agree)

    def row(self, witness_id: str) -> tuple[tuple[Token, ...], ...]:
        """The witness's cells, column by column."""
        at = [w.id for w in self.witnesses].index(witness_id)
        return tuple(c.cells[at] for c in self.columns)


def _identity(cell: Sequence[Token], row: int) -> tuple[object, ...]:
    """What a reading is compared on: the folding key and the notes; a reading with a gap is its own."""
    if any(t.gap is not None for t in cell):
        return ("gap", row)
    return tuple((t.key, t.note) for t in cell)


def _spelling(cell: Sequence[Token]) -> str:
    return "".join(t.char if t.gap is None else t.text for t in cell)


# --- what to collate ----------------------------------------------------------------------------------


def rite_section(rite: str) -> str:
    """The section that holds a rite: the section of the same id, else the one its citations name most
    (a rite written inside another's section, such as the monthly 釋菜 inside 祀先師)."""
    defs = section_defs()
    if rite in defs:
        return rite
    counts = Counter(
        c.section for e in walk_elements(all_rites()[rite]) for c in e.citations if c.section in defs
    )
    if not counts:
        for element in walk_elements(all_rites()[rite]):
            for cite in element.citations:
                try:
                    counts[resolve(cite.witness, cite.quote, cite.section).section.id] += 1
                except (CitationError, UnknownValueError):
                    continue
    if not counts:
        raise UnknownValueError("rite with a section in the texts", rite, sorted(defs))
    return counts.most_common(1)[0][0]


def resolve_target(rite: str, section: str | None = None) -> tuple[str | None, str]:
    """(rite id or None, section id) for what the user asked: a rite by id or name (or a top-level section
    of the texts by id or title), optionally narrowed to one of its sub-sections."""
    defs = section_defs()
    rite_id: str | None
    try:
        rite_id = find_rite(rite)
        top = rite_section(rite_id)
    except UnknownValueError as exc:
        top_level = {d.id: d for d in defs.values() if d.parent is None}
        found = next((d.id for d in top_level.values() if rite in (d.id, d.title)), None)
        if found is None:
            raise UnknownValueError("rite", rite, [*exc.accepted, *top_level]) from None
        rite_id, top = None, found
    if section is None:
        return rite_id, top
    inside = [d for d in defs.values() if is_within(d.id, top)]
    chosen = next((d.id for d in inside if section in (d.id, d.title)), None)
    if chosen is None:
        raise UnknownValueError(
            f"section of {rite_id or top}", section, [f"{d.id} ({d.title})" for d in inside]
        )
    return rite_id, chosen


def section_witnesses(section: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The witnesses to collate for a section (those that hold it, in the language most of them are in,
    by compiled year) and those left out with the reason."""
    holders = [i for i in manifest() if any(s.id == section for s in sections(i.id))]
    holders.sort(key=lambda i: (i.compiled_year, i.id))
    if not holders:
        return (), ()
    languages = Counter(i.language for i in holders)
    top = max(languages.values())
    language = next(i.language for i in holders if languages[i.language] == top)
    kept = tuple(i.id for i in holders if i.language == language)
    left = tuple(
        (i.id, f"{i.language}, not {language}: another language is not collated with it")
        for i in holders
        if i.language != language
    )
    return kept, left


def witness_tokens(witness: str, section: str) -> tuple[tuple[Token, ...], bool]:
    """The tokens of a witness's section (every occurrence of it, in order) and whether its start is lost."""
    norm = load_witness(witness).norm
    found = [s for s in sections(witness) if s.id == section]
    if not found:
        raise UnknownValueError(
            f"section of witness {witness}", section, sorted({s.id for s in sections(witness)})
        )
    out: list[Token] = []
    mid_start = found[0].mid_start
    if mid_start:
        out.append(
            Token(
                "[…]", "", found[0].start, gap=LOST_START, gap_words="the fragment begins inside the section"
            )
        )
    for occurrence in found:
        out.extend(_tokens(norm, occurrence.start, occurrence.end))
    return tuple(out), mid_start


def _tokens(norm: Normalised, start: int, end: int) -> list[Token]:
    """Tokens of a reading-text span: a key character with the punctuation after it (an opening bracket
    or quotation mark goes with the character after it), or an editorial gap."""
    text = norm.text
    in_note = [False] * (end - start)
    for note in norm.notes:
        for t in range(max(note.start, start), min(note.end, end)):
            in_note[t - start] = True
    gaps = {g.start: g for g in norm.editorial if start <= g.start < end}
    made: list[tuple[list[str], str, int, bool, str | None, str]] = []
    prefix = ""
    t = start
    while t < end:
        gap = gaps.get(t)
        if gap is not None:
            made.append(
                ([prefix, text[gap.start : min(gap.end, end)]], "", gap.start, False, gap.kind, gap.words)
            )
            prefix = ""
            t = max(gap.end, t + 1)
            continue
        char = text[t]
        if is_key_char(char):
            made.append(([prefix, char], fold_char(char), t, in_note[t - start], None, ""))
            prefix = ""
        elif made and not prefix and unicodedata.category(char) not in ("Ps", "Pi"):
            made[-1][0].append(char)
        else:
            prefix += char
        t += 1
    if prefix and made:
        made[-1][0].append(prefix)
    return [Token("".join(parts), key, at, note, kind, words) for parts, key, at, note, kind, words in made]


# --- the aligner ----------------------------------------------------------------------------------------

_Range = tuple[int, int]
_Col = tuple[_Range, ...]


def _opcodes(a: str, b: str) -> list[tuple[str, int, int, int, int]]:
    """Pairwise alignment of two keys: difflib's longest common blocks, short unsupported blocks dropped."""
    blocks = [m for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks() if m.size]
    kept = [(m.a, m.b, m.size) for m in blocks]
    changed = True
    while changed:
        changed = False
        for k, (i, j, n) in enumerate(kept):
            if n >= MIN_ANCHOR:
                continue
            pi, pj = (kept[k - 1][0] + kept[k - 1][2], kept[k - 1][1] + kept[k - 1][2]) if k else (0, 0)
            ni, nj = (kept[k + 1][0], kept[k + 1][1]) if k + 1 < len(kept) else (len(a), len(b))
            spread = max(i - pi, j - pj, ni - (i + n), nj - (j + n))
            if spread > ANCHOR_SPREAD * n:
                del kept[k]
                changed = True
                break
    ops: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for bi, bj, n in [*kept, (len(a), len(b), 0)]:
        if bi > i or bj > j:
            tag = "replace" if bi > i and bj > j else "delete" if bi > i else "insert"
            ops.append((tag, i, bi, j, bj))
        if n:
            ops.append(("equal", bi, bi + n, bj, bj + n))
        i, j = bi + n, bj + n
    return ops


def centre(keys: Sequence[str]) -> int:
    """The index of the key closest to all the others (summed normalised indel similarity; the first of
    equals)."""
    present = [i for i, k in enumerate(keys) if k]
    if len(present) <= 1:
        return present[0] if present else 0
    scores = cdist([keys[i] for i in present], [keys[i] for i in present], scorer=fuzz.ratio)
    sums = [float(sum(row)) for row in scores]
    return present[max(range(len(present)), key=lambda k: (sums[k], -k))]


def align_keys(keys: Sequence[str]) -> list[_Col]:
    """Columns over several keys: each column a (start, end) range of at most one character in every key,
    together covering each key in order.

    Progressive alignment: the centre's characters are the first columns; then, nearest first, each key is
    aligned to the key already in the table that is most like it, its agreeing characters placed in that
    key's columns, and each run it reads differently placed between the same neighbours: on the columns
    whose most common character it shares (another key may read as it does where the nearest one does
    not), else one for one on the columns there (a substitution), else in new columns (an addition)."""
    present = [i for i, k in enumerate(keys) if k]
    if not present:
        return []
    sims = cdist(list(keys), list(keys), scorer=fuzz.ratio)
    c = centre(keys)
    table: list[list[int | None]] = [[None] * len(keys) for _ in keys[c]]
    for p, col in enumerate(table):
        col[c] = p
    added = [c]
    while len(added) < len(present):
        w, r = max(
            ((w, r) for w in present if w not in added for r in added),
            key=lambda pair: (float(sims[pair[0]][pair[1]]), -pair[0], -added.index(pair[1])),
        )
        table = _add(table, keys, r, w)
        added.append(w)
    cursor = [0] * len(keys)
    out: list[_Col] = []
    for col in table:
        ranges = []
        for i, at in enumerate(col):
            if at is None:
                ranges.append((cursor[i], cursor[i]))
            else:
                ranges.append((at, at + 1))
                cursor[i] = at + 1
        out.append(tuple(ranges))
    return out


def _add(table: list[list[int | None]], keys: Sequence[str], r: int, w: int) -> list[list[int | None]]:
    """The table with key ``w`` placed, aligned on key ``r`` (already in the table)."""
    col_r = [k for k, col in enumerate(table) if col[r] is not None]
    at: list[int | None] = [None] * len(keys[w])  # existing column of each character of w
    after: list[int] = [0] * len(keys[w])  # else: the existing column it follows (-1: before all)
    last = -1
    for tag, i1, i2, j1, j2 in _opcodes(keys[r], keys[w]):
        if tag == "equal":
            for t in range(i2 - i1):
                at[j1 + t] = last = col_r[i1 + t]
        elif tag != "delete":
            hi = col_r[i2] if i2 < len(col_r) else len(table)
            last = _fill(table, keys, w, j1, j2, list(range(last + 1, hi)), last, at, after)
    new: dict[int, list[int]] = {}
    for j, column in enumerate(at):
        if column is None:
            new.setdefault(after[j], []).append(j)
    out: list[list[int | None]] = []

    def add_new(anchor: int) -> None:
        for j in new.get(anchor, ()):
            col: list[int | None] = [None] * len(keys)
            col[w] = j
            out.append(col)

    add_new(-1)
    for k, col in enumerate(table):
        out.append(col)
        add_new(k)
    for j, column in enumerate(at):
        if column is not None:
            table[column][w] = j
    return out


def _fill(
    table: list[list[int | None]],
    keys: Sequence[str],
    w: int,
    j1: int,
    j2: int,
    window: list[int],
    last: int,
    at: list[int | None],
    after: list[int],
) -> int:
    """Place the characters ``j1:j2`` of key ``w`` in the window of columns; returns the last column used."""
    consensus = "".join(
        Counter(keys[i][p] for i, p in enumerate(table[k]) if p is not None).most_common(1)[0][0]
        for k in window
    )
    run = keys[w][j1:j2]
    for tag, a1, a2, b1, b2 in _opcodes(consensus, run):
        if tag == "equal" or tag == "replace":
            paired = min(a2 - a1, b2 - b1)
            for t in range(paired):
                at[j1 + b1 + t] = last = window[a1 + t]
            for j in range(b1 + paired, b2):
                after[j1 + j] = last
        elif tag == "insert":
            for j in range(b1, b2):
                after[j1 + j] = last
    return last


def _segment(columns: list[Column]) -> list[Column]:
    """Join adjacent columns that split the witnesses the same way (CollateX's segmentation), and adjacent
    columns where no two witnesses read alike (each reads its own words: one passage of difference)."""
    out: list[Column] = []
    pattern_of_last: tuple[object, ...] | None = None
    for col in columns:
        pattern = _pattern(col)
        if out and (pattern == pattern_of_last or (_unshared(col) and _unshared(out[-1]))):
            last = out[-1]
            out[-1] = Column(
                tuple(a + b for a, b in zip(last.cells, col.cells, strict=True)), col.witnesses, col.base
            )
        else:
            out.append(col)
        pattern_of_last = pattern
    return out


def _unshared(col: Column) -> bool:
    """No two witnesses read the same non-empty words in the column."""
    return all(len(r.witnesses) == 1 for r in col.readings() if not r.empty)


def _pattern(col: Column) -> tuple[object, ...]:
    """How a column splits the witnesses: for each, the first witness reading as it does (or -1 for
    nothing), and which characters of its reading are notes or gaps."""
    firsts: dict[tuple[object, ...], int] = {}
    out: list[object] = []
    for i, cell in enumerate(col.cells):
        ident = _identity(cell, i)
        firsts.setdefault(ident, i)
        out.append((-1 if not cell else firsts[ident], any(t.gap for t in cell)))
    return tuple(out)


def collate_tokens(
    rows: Sequence[Sequence[Token]], witnesses: Sequence[str], base: int = 0
) -> tuple[Column, ...]:
    """The alignment table of token rows (one per witness): the engine of :func:`collate`."""
    gap = _GAP_BASE
    keys: list[str] = []
    for row in rows:
        chars = []
        for token in row:
            if token.gap is not None:
                chars.append(chr(gap))
                gap += 1
            else:
                chars.append(token.key)
        keys.append("".join(chars))
    columns = [
        Column(tuple(tuple(rows[i][s:e]) for i, (s, e) in enumerate(col)), tuple(witnesses), base)
        for col in align_keys(keys)
    ]
    return tuple(_segment(columns))


def sigla(count: int) -> tuple[str, ...]:
    """A, B, … Z, then AA, AB …"""
    out = []
    for n in range(count):
        s = ""
        n += 1
        while n:
            n, r = divmod(n - 1, 26)
            s = chr(ord("A") + r) + s
        out.append(s)
    return tuple(out)


def collate(rite: str, section: str | None = None, base: str | None = None) -> Collation:
    """Collate the witnesses of a rite's section (or of ``section`` inside it)."""
    rite_id, section_id = resolve_target(rite, section)
    ids, left_out = section_witnesses(section_id)
    if not ids:
        held = sorted({s.id for w in manifest() for s in sections(w.id)})
        raise UnknownValueError("section held by a witness", section_id, held, hint="no witness holds it")
    infos = {i.id: i for i in manifest()}
    made = []
    for sigil, wid in zip(sigla(len(ids)), ids, strict=True):
        tokens, mid = witness_tokens(wid, section_id)
        made.append(CollatedWitness(sigil, infos[wid], tokens, mid))
    keys = [w.key() for w in made]
    if base is None:
        base_at = centre(keys)
    elif base in ids:
        base_at = ids.index(base)
    else:
        raise UnknownValueError(f"base witness (a witness of {section_id})", base, ids)
    columns = collate_tokens([w.tokens for w in made], ids, base_at)
    return Collation(
        rite=rite_id,
        section=section_id,
        section_title=section_defs()[section_id].title,
        witnesses=tuple(made),
        base=ids[base_at],
        columns=columns,
        left_out=left_out,
    )
