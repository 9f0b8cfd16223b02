"""Drafting a witness from a transcribed gazetteer file: the manifest a curator would start from.

A transcribed chapter opens with a header — ``SOURCE:``, ``WORK:``, ``NOTE:``, ``SECTIONS:`` lines, then a
line of ``=====`` — and holds the text as transcribed. From the file alone, a draft manifest is derived:

- ``id`` from the file name (lower case, ``_`` → ``-``), ``title`` and ``short_title`` from the ``WORK:`` line,
  ``edition`` from the ``SOURCE:`` and ``NOTE:`` lines;
- **header lines**: any other ``KEY: value`` line of the header (``NOTABLE: …``) is kept as metadata — in
  :attr:`Header.metadata` and the draft's ``edition`` — with a :class:`DraftWarning`, never as text: the
  normalisation counts the whole header as an editorial gap (:data:`dianli.corpus.normalise.EDITORIAL_FORMS`);
- **gaps**: the editorial marks (``[OMITTED: …]``, ``[… omitted: …]`` and any bracket of latin words,
  ``[NOT REPEATED HERE: …]``, an excerpt's heading, an editor's notes under 〔校注〕) are gaps of the
  normalisation, so no clause, citation or date of the witness holds one; the draft reads its dates,
  script and headings from :func:`witness_text` / :func:`text_lines`, the text with the gaps taken out.
  A lost character □ stays in the folding key as itself: no query without □ matches across it, so it is
  already a gap for matching, and curated quotes that hold □ keep resolving. 〔…〕 outside a 〔校注〕 is
  an editor's restoration of lost characters (自〔此始〕) and stays text;
- ``compiled.year``: the latest date the text records (:func:`dianli.corpus.dated_events.extract_dates`),
  labelled an assumption quoting it (a chapter is compiled after the last date it records);
- ``script`` by OpenCC (a text that traditional → simplified conversion changes is traditional),
  ``punctuated`` when it holds 。 or ，;
- ``governs``: the unit whose name the title holds (the longest place name found in it), from the
  compiled year, labelled an assumption;
- ``anchors``: where each known section begins (:func:`find_anchors`), below.

**Headings.** The lexicon is read at run time from every *curated* manifest (a draft's own guesses never
teach it): each heading its ``anchors`` write, with the section it opens, and each section title of
``sections.yaml``. A heading may stand (:func:`candidates`) as a short line of its own (at most
:data:`MAX_HEADING` key characters, no 。！？；), as the words before a colon (「社稷坛之祭：每岁…」) or before a
bracket (「乡饮酒礼（按「礼记」…」), or run into its text at the head of a line (「城隍庙在后浦…」, a rite's
heading only, and only for a rite no heading of its own names). It matches the lexicon when its folding
key is a lexicon heading, holds one with at most :data:`HEADING_SLACK` characters more (祭社稷坛 for
社稷坛), has the same *core* — the heading without 祭…/祀…/…之祭/…禮/…儀/…儀注 (救護儀 and 救護禮) — or is a
rite's heading shortened by one character (乡饮 for 乡饮酒). A sub-section's heading opens its section
inside its rite; outside it only where a sibling's heading follows (革部 then 木部), so a lone generic
heading (器具) never opens a rite of its own. Each section is anchored once, at its first heading that is
not in a table of contents. The anchor written is the heading as the text writes it, with ``|`` and the
words after it where the same words stand earlier (``文庙|考``), so that the manifest finds this place.

**Table of contents.** Many chapters open with the list of their sections (苗栗縣志 「庆贺：接诏：迎春：…」
and the headings again one per line; 鳳山縣志 「文庙坛庙祠」 then 文庙 坛 庙 祠). Its headings are no
sections: taken as anchors, the sections would open on the list and end at the next list entry, and the
whole body would fall under the last one. A table of contents is recognised by what it is — headings
with no text between them, each of which recurs later in the body (:func:`table_of_contents`):

- a *list line*: a line that is two or more headings standing later in the text, written together
  (「文庙坛庙祠」) or parted by ：、 or spaces;
- a *list run*: consecutive short lines of which at least two (one, in a run of four or more) recur
  later as the heading of text (a short line followed by text, or the words before a colon — so a
  plate's one-character lines, which recur but head nothing, are no list). All but the run's last line are
  the list; the last, followed by the text it heads, is the first heading of the body, unless it recurs
  later too or is the run's own headings written together (文庙 坛祭 文庙坛祭).

Every choice is marked ``draft`` in the manifest's comments and in the assumptions: a draft is a start for
curation, never a curated witness. :func:`measure_anchors` compares the sections a curated witness's
drafted anchors find with its hand anchors; :func:`measure_sections` counts its clauses that the drafted
anchors put in the same section as the hand ones (``bench/segment.py`` prints it for every transcribed
gazetteer of the corpus against the drafting before tables of contents were recognised).
"""

from __future__ import annotations

import bisect
import functools
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dianli.corpus.normalise import EDITORIAL_FORMS, KEY_GAP, fold, normalise
from dianli.corpus.sections import CONTEXT_MARK, MID_START, SAME_PLACE
from dianli.corpus.tree import section_defs
from dianli.corpus.witnesses import MANIFEST_FILE, WitnessInfo, manifest
from dianli.datafile import read_transcription
from dianli.errors import DataError, DianliError, UnknownValueError

if TYPE_CHECKING:
    from dianli.corpus.sections import Section

HEADING_SLACK = 3
"""A line may hold a known heading plus this many characters of its own (祭社稷壇 for 社稷壇)."""
MAX_HEADING = 14
"""Folding-key characters beyond which a line is running text, not a heading."""
ORPHAN_LOOKAHEAD = 3
"""How many headings after a sub-section heading outside its rite are looked at for a sibling."""
HEADER_FIELDS = ("SOURCE", "WORK", "NOTE", "SECTIONS")
_RULE = re.compile(r"^=====+\s*$")


_HEADER_LINE = re.compile(r"^([A-Z][A-Za-z0-9_ -]{0,30}): (.*)$")


class DraftWarning(UserWarning):
    """Something in a transcribed file the draft keeps aside (a header line it does not know), said once
    per file; ``dianli ingest`` shows it."""


@dataclass(frozen=True)
class Header:
    """The transcriber's header of a gazetteer file."""

    fields: dict[str, str]
    """The known lines: SOURCE, WORK, NOTE, SECTIONS."""
    body_start: int
    """Offset of the text after the ``=====`` line (0 when the file has no header)."""
    metadata: dict[str, str] = field(default_factory=dict)
    """Any other ``KEY: value`` line of the header (``NOTABLE: …``): kept as metadata, never as text."""


def read_header(text: str) -> Header:
    """The ``KEY: value`` lines before the ``=====`` line, if any, with a ``SOURCE:`` among them (as the
    normalisation's header gap, :data:`dianli.corpus.normalise.EDITORIAL_FORMS`)."""
    fields: dict[str, str] = {}
    metadata: dict[str, str] = {}
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip().lstrip("\ufeff")
        if _RULE.match(stripped):
            if "SOURCE" not in fields:
                break
            return Header(fields, offset + len(line), metadata)
        match = _HEADER_LINE.match(stripped)
        if match is None:
            break
        key, value = match[1], match[2].strip()
        if key in HEADER_FIELDS:
            fields[key] = value
        else:
            metadata[key] = f"{metadata[key]} {value}" if key in metadata else value
        offset += len(line)
    return Header({}, 0)


def is_draft(info: WitnessInfo) -> bool:
    """Whether a manifest is a draft written by :func:`draft_folder` (its compiled year a ``draft:`` guess):
    a draft's headings are guesses, so they never teach the lexicon."""
    return info.compiled_source.removeprefix("assumption: ").startswith("draft:")


@functools.cache
def _lexicon(leave_out: str | None) -> dict[str, tuple[str, ...]]:
    """Folded heading → the section ids it heads: the section titles of sections.yaml and every heading the
    curated manifests anchor (read at run time, so each curated witness teaches the next; drafts do not)."""
    found: dict[str, dict[str, None]] = {}
    for section_id, definition in section_defs().items():
        found.setdefault(fold(definition.title), {})[section_id] = None
    for info in manifest():
        if info.id == leave_out or is_draft(info):
            continue
        for section_id, anchor in info.anchors:
            heading = anchor.split(CONTEXT_MARK, 1)[0]
            if heading and heading != SAME_PLACE and not heading.startswith(MID_START):
                found.setdefault(fold(heading), {})[section_id] = None
    return {k: tuple(v) for k, v in found.items() if k}


def heading_lexicon(leave_out: str | None = None) -> dict[str, tuple[str, ...]]:
    """Folded heading → the section ids it heads, as the drafting reads them (:func:`_lexicon`): the section
    titles and every heading a curated manifest anchors (``leave_out``'s left out). ``dianli harvest``
    finds the ritual chapters of a whole gazetteer with it."""
    return _lexicon(leave_out)


def _orphan(match: tuple[str, ...], following: list[tuple[Candidate, tuple[str, ...]]]) -> str | None:
    """A sub-section heading outside its rite (whose own heading is lost or left out) is taken only where a
    sibling's heading follows it (革部 then 木部): one generic sub-heading alone (器具) is no section."""
    for section in match:
        parent = section.rpartition(".")[0]
        if parent and any(s != section and s.rpartition(".")[0] == parent for _, m in following for s in m):
            return section
    return None


_CORE_PREFIXES = ("祭", "祀")
_CORE_SUFFIXES = ("之祭", "仪注", "礼", "仪")


def core(key: str) -> str:
    """A heading's folding key without the words that say it is a rite (祭…, 祀…, …之祭, …禮, …儀, …儀注):
    救護儀 and 救護禮 share the core 救护, 祭崇聖祠儀注 and 崇聖祠 the core 崇圣祠."""
    for prefix in _CORE_PREFIXES:
        if key.startswith(prefix) and len(key) - len(prefix) >= 2:
            key = key[len(prefix) :]
    for suffix in _CORE_SUFFIXES:
        if key.endswith(suffix) and len(key) - len(suffix) >= 2:
            return key[: -len(suffix)]
    return key


@functools.cache
def _cores(leave_out: str | None) -> dict[str, tuple[str, ...]]:
    """The lexicon by the core of each heading (of two characters or more)."""
    found: dict[str, dict[str, None]] = {}
    for key, ids in _lexicon(leave_out).items():
        if len(core(key)) >= 2:
            for section_id in ids:
                found.setdefault(core(key), {})[section_id] = None
    return {k: tuple(v) for k, v in found.items()}


def _near(key: str, lexicon: dict[str, tuple[str, ...]], by_length: list[str]) -> tuple[str, ...] | None:
    """The sections of ``key`` in a lexicon: the same words, else the longest lexicon heading it holds
    with at most :data:`HEADING_SLACK` characters of its own (祭社稷坛 for 社稷坛)."""
    if key in lexicon:
        return lexicon[key]
    near = next((h for h in by_length if h in key and len(key) - len(h) <= HEADING_SLACK), None)
    return lexicon[near] if near is not None else None


def _shortened(key: str, lexicon: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """The rites whose lexicon heading is ``key`` and one character more (乡饮 for 乡饮酒): a heading
    shortened; a sub-section's is too generic to be guessed so."""
    rites = {
        s: None
        for h, ids in lexicon.items()
        if len(key) >= 2 and len(h) == len(key) + 1 and h.startswith(key)
        for s in ids
        if "." not in s
    }
    return tuple(rites) or None


def _choose(candidates: tuple[str, ...], open_top: str | None) -> str | None:
    """The section a lexicon heading opens here: a sub-section only inside its open rite, else a rite."""
    inside = [c for c in candidates if open_top and c.startswith(open_top + ".")]
    tops = [c for c in candidates if "." not in c]
    chosen = inside or tops
    return chosen[0] if chosen else None


_NOTE = re.compile(r"[（(][^）)]*[）)]")
_SENTENCE_STOP = re.compile(r"[。！？；]")
_SENTENCE_END = re.compile(r"(?<=[。！？])")
_LIST_SEPARATORS = re.compile(r"[：:、，,·・\s\u3000]+")
_MARKS = tuple(f for f in EDITORIAL_FORMS if f.kind != "header")


@dataclass(frozen=True)
class Line:
    """A non-blank line of a transcribed text, its editorial marks blanked out."""

    start: int
    """Offset in the text of its first character that is not a space."""
    text: str
    key: str
    """Folding key of the line with its notes in brackets dropped."""

    @property
    def short(self) -> bool:
        """Short enough to be a heading, and no sentence: at most :data:`MAX_HEADING` key characters and
        no 。！？；."""
        return 0 < len(self.key) <= MAX_HEADING and not _SENTENCE_STOP.search(self.text)


@dataclass(frozen=True)
class Candidate:
    """A place where a heading may stand."""

    line: int
    """Index of its line in :func:`text_lines`."""
    start: int
    written: str
    key: str
    kind: str
    """``line`` (a short line of its own), ``colon`` (the words before a colon) or ``run-in`` (a rite's
    lexicon heading at the head of a line of body text, 「城隍庙在后浦…」)."""


def text_lines(text: str) -> tuple[Line, ...]:
    """The non-blank lines of the body of a transcribed text (after its header), editorial marks
    (``[OMITTED: …]`` …) blanked out; a line that held only marks is left out."""
    lines: list[Line] = []
    offset = read_header(text).body_start
    marks = [f.pattern for f in _MARKS if not f.only_with or f.only_with in text]
    for raw in text[offset:].splitlines(keepends=True):
        cleaned = raw
        for pattern in marks:
            cleaned = pattern.sub(lambda m: " " * len(m.group(0)), cleaned)
        stripped = cleaned.strip().strip("\u3000").strip()
        if stripped:
            start = offset + cleaned.index(stripped[0])
            lines.append(Line(start, stripped, fold(_NOTE.sub("", stripped))))
        offset += len(raw)
    return tuple(lines)


def candidates(lines: tuple[Line, ...], lexicon: dict[str, tuple[str, ...]]) -> list[Candidate]:
    """Where headings may stand, in text order: each short line; the words before the first colon of a
    line or a sentence (「社稷坛之祭：每岁…」, 「旗纛庙（未有特建）：每岁…」, a note in brackets dropped);
    and the longest rite heading of the lexicon that opens a line of body text (run-in)."""
    rites = sorted(
        (k for k, ids in lexicon.items() if len(k) >= 2 and any("." not in i for i in ids)),
        key=len,
        reverse=True,
    )
    found: list[Candidate] = []
    for index, line in enumerate(lines):
        if line.short:
            found.append(Candidate(index, line.start, line.text, line.key, "line"))
            continue
        at = 0
        for sentence in _SENTENCE_END.split(line.text):
            head, colon, _ = sentence.partition("：")
            written = _NOTE.sub("", head).strip()
            key = fold(written)
            if colon and 0 < len(key) <= MAX_HEADING:
                found.append(
                    Candidate(
                        index, line.start + at + sentence.index(head[:1] or "："), written, key, "colon"
                    )
                )
            at += len(sentence)
        bracket = re.search(r"[（(]", line.text)
        if bracket and not any(c.line == index and c.start == line.start for c in found[-4:]):
            written = line.text[: bracket.start()].strip()
            if (
                2 <= len(fold(written)) <= MAX_HEADING
                and "：" not in written
                and not _SENTENCE_STOP.search(written)
            ):
                found.append(Candidate(index, line.start, written, fold(written), "colon"))
        if not any(c.line == index and c.start == line.start for c in found[-4:]):
            head = next((k for k in rites if line.key.startswith(k)), None)
            if head is not None:
                written = _written_prefix(line.text, head)
                found.append(Candidate(index, line.start, written, head, "run-in"))
    return found


def _written_prefix(text: str, key: str) -> str:
    """The shortest start of ``text`` whose folding key is ``key``."""
    for end in range(len(key), len(text) + 1):
        if fold(text[:end]) == key:
            return text[:end]
    return text


def table_of_contents(lines: tuple[Line, ...], found: list[Candidate]) -> set[int]:
    """The lines of ``lines`` that are a table of contents (see the module docstring): the headings of a
    list recur later as the headings of the body — a heading there being a short line followed by text,
    or the words before a colon — so the list is not the sections.

    - a *list line*: a line whose key is two or more headings that stand later in the text (as a line of
      their own or before a colon), written one after the other or parted by ：、 or spaces
      (「庆贺：接诏：迎春：…」, 「文庙坛庙祠」);
    - a *list run*: consecutive short lines (blank lines aside) of which at least two — or one, in a run
      of four or more — recur later as headings: the run is the list, all but its last line, which is
      followed by the text it heads and is the first heading of the body — unless it too recurs later,
      or it is the run's headings written together (文庙 坛祭 文庙坛祭).
    """
    anywhere: dict[str, list[int]] = {}
    heading: dict[str, list[int]] = {}
    for cand in found:
        if cand.kind != "run-in":
            anywhere.setdefault(cand.key, []).append(cand.line)
        heads_text = cand.line + 1 >= len(lines) or not lines[cand.line + 1].short
        if cand.kind == "colon" or (cand.kind == "line" and heads_text):
            heading.setdefault(cand.key, []).append(cand.line)

    def stands(key: str, after: int) -> bool:
        """Whether the words stand later as a line or before a colon."""
        return any(i > after for i in anywhere.get(key, ()))

    def recurs(key: str, after: int) -> bool:
        """Whether the words head text later."""
        return any(i > after for i in heading.get(key, ()))

    def recurs_prefix(key: str, after: int) -> bool:
        return stands(key, after) or any(
            k.startswith(key) and stands(k, after) for k in anywhere if len(key) >= 2
        )

    toc: set[int] = set()
    for index, line in enumerate(lines):
        parts = [fold(_NOTE.sub("", p)) for p in _LIST_SEPARATORS.split(line.text)]
        parts = [p for p in parts if p]
        if (
            len(parts) >= 2
            and len(parts) * 8 >= len(line.key)
            and all(recurs_prefix(p, index) for p in parts)
        ):
            toc.add(index)
        elif _splits(line.key, index, stands) >= 2:
            toc.add(index)
    index = 0
    while index < len(lines):
        end = index
        while end < len(lines) and lines[end].short:
            end += 1
        run = range(index, end)
        recurring = [i for i in run if recurs(lines[i].key, i)]
        if len(run) >= 2 and (len(recurring) >= 2 or (len(run) >= 4 and recurring)):
            last = end - 1
            toc.update(run if recurs(lines[last].key, last) else range(index, last))
            in_run = {lines[i].key: [last + 1] for i in range(index, last)}
            if _splits(lines[last].key, last, functools.partial(_after, in_run)) >= 2:
                toc.add(last)
        index = max(end, index + 1)
    return toc


def contents_lines(text: str, leave_out: str | None = None) -> tuple[Line, ...]:
    """The lines of a transcribed text that are a table of contents (:func:`table_of_contents`)."""
    lines = text_lines(text)
    toc = table_of_contents(lines, candidates(lines, _lexicon(leave_out)))
    return tuple(line for index, line in enumerate(lines) if index in toc)


def _after(where: dict[str, list[int]], key: str, line: int) -> bool:
    """Whether ``key`` is at a line of ``where`` after ``line``."""
    return any(i > line for i in where.get(key, ()))


def _splits(key: str, line: int, recurs: Callable[[str, int], bool]) -> int:
    """Into how many headings recurring after ``line`` the key splits whole (0: it does not)."""
    best: list[int | None] = [0] + [None] * len(key)
    for end in range(1, len(key) + 1):
        for begin in range(max(0, end - MAX_HEADING), end):
            before = best[begin]
            if before is not None and recurs(key[begin:end], line):
                count = before + 1
                if best[end] is None or count < (best[end] or 0):
                    best[end] = count
    return best[len(key)] or 0


def find_anchors(text: str, leave_out: str | None = None) -> tuple[tuple[str, str], ...]:
    """The anchors of a transcribed text, in document order, as a manifest writes them: (section id, the
    heading as the text writes it, ``|`` and the words that follow it where the heading stands earlier in
    the text too). ``leave_out``: a witness whose manifest does not teach the lexicon."""
    lexicon = _lexicon(leave_out)
    by_length = sorted(lexicon, key=len, reverse=True)
    cores = _cores(leave_out)
    cores_by_length = sorted(cores, key=len, reverse=True)
    lines = text_lines(text)
    found = candidates(lines, lexicon)
    toc = table_of_contents(lines, found)
    matched: list[tuple[Candidate, tuple[str, ...]]] = []
    for cand in found:
        if cand.line in toc:
            continue
        match = lexicon.get(cand.key)
        if match is None and cand.kind != "run-in":
            match = (
                _near(cand.key, lexicon, by_length)
                or _near(core(cand.key), cores, cores_by_length)
                or _shortened(cand.key, lexicon)
            )
        if match is not None:
            matched.append((cand, match))
    # A rite that a heading of its own names is not taken from a line its name opens (run-in).
    named = {s for c, m in matched if c.kind != "run-in" for s in m if "." not in s}
    matched = [(c, m) for c, m in matched if c.kind != "run-in" or not named.issuperset(m)]
    chosen: list[tuple[str, Candidate]] = []
    open_top: str | None = None
    for index, (cand, match) in enumerate(matched):
        section = _choose(match, open_top) or _orphan(
            match, matched[index + 1 : index + 1 + ORPHAN_LOOKAHEAD]
        )
        if section is None or section in {s for s, _ in chosen}:
            continue
        chosen.append((section, cand))
        open_top = section.split(".")[0]
    return _with_context(text, chosen)


def _with_context(text: str, chosen: list[tuple[str, Candidate]]) -> tuple[tuple[str, str], ...]:
    """Each chosen heading as an anchor: the words that follow it added (``heading|context``) where the
    heading alone would be found earlier, after the anchor before it, on the folding key."""
    norm = normalise(text)
    anchors: list[tuple[str, str]] = []
    key_pos = 0
    for section, cand in chosen:
        needle = fold(cand.written)
        text_at = bisect.bisect_left(norm.text_to_raw, cand.start, 0, len(norm.text))
        at = bisect.bisect_left(norm.key_to_text, text_at, 0, len(norm.key))
        if norm.key.find(needle, at) != at or at < key_pos:
            continue
        anchor = cand.written
        if norm.key.find(needle, key_pos) != at:
            after = at + len(needle)
            stop = norm.key.find(KEY_GAP, after)
            limit = len(norm.key) if stop < 0 else stop
            context = ""
            for end in range(after + 1, min(limit, after + 12) + 1):
                context = norm.text[norm.key_to_text[after] : norm.key_to_text[end - 1] + 1]
                if norm.key.find(needle + fold(context), key_pos) == at:
                    break
            else:
                continue
            anchor = f"{cand.written}{CONTEXT_MARK}{context}"
        anchors.append((section, anchor))
        key_pos = at + len(needle)
    return tuple(anchors)


@dataclass(frozen=True)
class AnchorMeasure:
    """Drafted anchors of a curated witness against its hand anchors (sections found, by id)."""

    witness: str
    hand: int
    drafted: int
    correct: int

    @property
    def recall(self) -> float:
        return self.correct / self.hand if self.hand else 1.0

    @property
    def precision(self) -> float:
        return self.correct / self.drafted if self.drafted else 1.0


def measure_anchors(witness: str) -> AnchorMeasure:
    """Draft the anchors of a curated witness with its own manifest left out of the lexicon, and count the
    sections it finds that its hand anchors also open (a section opened by ``=`` or mid-text counts too)."""
    info = next((i for i in manifest() if i.id == witness), None)
    if info is None:
        raise UnknownValueError("witness", witness, [i.id for i in manifest()])
    text = "\n".join((info.folder / f.file).read_text(encoding="utf-8") for f in info.files)
    hand = {s for s, _ in info.anchors}
    drafted = {s for s, _ in find_anchors(text, leave_out=witness)}
    return AnchorMeasure(witness, len(hand), len(drafted), len(hand & drafted))


Anchors = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class SectionMeasure:
    """The clauses of a curated witness put in the same section by drafted anchors as by its hand anchors."""

    witness: str
    clauses: int
    same: int
    """Clauses whose innermost drafted section is the innermost hand section."""
    same_rite: int
    """Clauses whose drafted top-level section (the rite) is the hand one."""

    @property
    def share(self) -> float:
        return self.same / self.clauses if self.clauses else 1.0

    @property
    def rite_share(self) -> float:
        return self.same_rite / self.clauses if self.clauses else 1.0


def measure_sections(
    witness: str, drafting: Callable[[str, str | None], Anchors] | None = None
) -> SectionMeasure:
    """Draft the anchors of a curated witness from its text alone (its own manifest left out of the heading
    lexicon), build the sections they open as a drafted manifest would, and count its clauses (as the
    curated sections cut them) that fall in the same innermost section as under the hand anchors.
    ``drafting`` is the anchor finder (text, witness left out) → anchors; :func:`find_anchors` by default."""
    from dianli.corpus.clauses import clauses
    from dianli.corpus.sections import sections_of
    from dianli.corpus.witnesses import load_witness

    if witness not in {i.id for i in manifest()}:
        raise UnknownValueError("witness", witness, [i.id for i in manifest()])
    wit = load_witness(witness)
    norm = wit.norm
    bounds = tuple(
        (
            bisect.bisect_left(norm.text_to_raw, f.start, 0, len(norm.text)),
            bisect.bisect_left(norm.text_to_raw, f.end, 0, len(norm.text)),
            None,
        )
        for f in wit.fragments
    )
    anchors = (drafting or find_anchors)(wit.raw, witness)
    try:
        drafted = sections_of(witness, norm, anchors, bounds, f"drafted anchors of {witness}")
    except DataError:
        drafted = ()
    hand = clauses(witness)
    same = same_rite = 0
    for clause in hand:
        mine = _innermost(drafted, clause.start)
        same += mine == clause.section
        same_rite += mine.split(".")[0] == clause.section.split(".")[0]
    return SectionMeasure(witness, len(hand), same, same_rite)


def _innermost(secs: tuple[Section, ...], offset: int) -> str:
    best_id, best_depth = "front", -1
    for sec in secs:
        if sec.start <= offset < sec.end and sec.depth > best_depth:
            best_id, best_depth = sec.id, sec.depth
    return best_id


def _slug(stem: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")
    if not slug:
        raise UnknownValueError(
            "file name", stem, ["a name with latin letters or digits (the witness id is made from it)"]
        )
    return slug


def _script(body: str) -> str:
    from opencc import OpenCC

    converted = OpenCC("t2s").convert(body)
    changed = sum(1 for a, b in zip(body, converted, strict=False) if a != b)
    return "traditional" if changed > len(body) / 200 else "simplified"


def _governed_place(title: str) -> str | None:
    from dianli.places.places import get_place, place_names

    names = sorted((n for n in place_names() if len(n) >= 2 and n in title), key=len, reverse=True)
    for name in names:
        try:
            return get_place(name).id
        except UnknownValueError:
            continue
    return None


def witness_text(text: str) -> str:
    """The work's own words of a transcribed text: its reading text without the editorial gaps (the header,
    ``[OMITTED: …]`` and the other marks of :data:`dianli.corpus.normalise.EDITORIAL_FORMS`), the runs
    between two gaps parted by 。 so that no date or phrase is read across a gap."""
    norm = normalise(text)
    runs: list[str] = []
    at = 0
    for gap in norm.editorial:
        runs.append(norm.text[at : gap.start])
        at = gap.end
    runs.append(norm.text[at:])
    return "。".join(r for r in runs if r)


def draft_manifest(path: Path) -> dict[str, Any]:
    """The draft manifest of one transcribed gazetteer file (see the module docstring)."""
    from dianli.corpus.dated_events import extract_dates

    if not path.is_file():
        raise UnknownValueError("gazetteer file", str(path), ["a transcribed text file (UTF-8)"])
    text = read_transcription(path)
    header = read_header(text)
    body = witness_text(text)
    if not body.strip():
        raise DataError(
            f"{path}: a header but no text after it; accepted: a transcribed text under its header"
        )
    work = header.fields.get("WORK", "")
    title = re.sub(r"\s+", " ", _NOTE.sub("", work.split(" — ")[0])).strip() or path.stem
    short = re.split(r"[\s(（]", title, maxsplit=1)[0] or title
    dated = extract_dates(body)
    if not dated:
        raise UnknownValueError(
            "gazetteer file", str(path), ["a text that records at least one reign date (its compiled year)"]
        )
    latest = max(dated, key=lambda e: e.gregorian_year)
    place = _governed_place(title)
    edition = (
        " ".join(f"{k}: {header.fields[k]}" for k in ("WORK", "SOURCE", "NOTE") if k in header.fields)
        or f"transcribed file {path.name}"
    )
    if header.metadata:
        kept = "; ".join(f"{k}: {v}" for k, v in header.metadata.items())
        edition += f" — the transcriber's header also says (kept as metadata, not text): {kept}"
        warnings.warn(
            DraftWarning(
                f"{path.name}: header line(s) {', '.join(header.metadata)} kept as metadata in the draft's "
                f"edition, not as text (known header lines: {', '.join(HEADER_FIELDS)})"
            ),
            stacklevel=2,
        )
    data: dict[str, Any] = {
        "id": _slug(path.stem),
        "title": title,
        "short_title": short,
        "edition": edition,
        "compiled": {
            "year": latest.gregorian_year,
            "assumption": f"draft: the latest date the text records is {latest.chinese_text} "
            f"({latest.gregorian_year}); a chapter is compiled after the last date it records — to be checked",
        },
        "script": _script(body),
        "language": "classical",
        "punctuated": "。" in body or "，" in body,
        "authority": "primary",
        "status": "draft",  # governs no place until reviewed (``dianli --with-drafts`` to try it)
        "translation_of": None,
        "base": None,
        "governs": []
        if place is None
        else [
            {
                "place": place,
                "from_year": latest.gregorian_year,
                "assumption": f"draft: the title 「{title}」 names this unit; governs from the compiled year",
            }
        ],
        "fragments": [{"file": path.name, "note": "the file as transcribed (draft)"}],
        "anchors": [list(a) for a in find_anchors(text)],
    }
    from dianli.corpus.harvest import MADE_BY

    if f"harvested by {MADE_BY}" in work:  # how it was made; its pages and day are in the file's header
        data["made"] = {"by": "harvest"}
    if place is None:  # a manifest that governs no place says why (checked when the corpus loads)
        data["governs_no_place"] = (
            f"draft: the title 「{title}」 names no unit of `dianli places`; to be checked"
        )
    return data


MANIFEST_COMMENT = """\
# DRAFT manifest written by `dianli ingest` from the transcribed file alone (dianli.corpus.draft): the
# compiled year, the place governed and the anchors are guesses labelled as assumptions — a start for
# curation (docs/adding-a-witness.md), not a curated witness.
"""


DRAFT_BASE = ".drafted.witness.yaml"
"""Beside a drafted manifest: the draft as dianli last wrote it, the base of a merge with a curator's edits."""
NEW_DRAFT = "witness.new-draft.yaml"
"""Beside a curated manifest whose edits conflict with a new draft: the new draft, for the curator to merge."""


@dataclass(frozen=True)
class DraftWritten:
    """What drafting one file did: its folder, and how its manifest met a curator's edits (if at all)."""

    folder: Path
    merged: bool = False
    """The curator's edited manifest was merged with the new draft (no line changed by both)."""
    conflicts: tuple[tuple[int, int], ...] = ()
    """Lines (first, last) of the curator's manifest that the new draft changes otherwise: the manifest
    was kept as the curator left it and the new draft written as :data:`NEW_DRAFT`."""


def draft_folder(path: Path, into: Path, force: bool = False) -> Path:
    """Write the draft witness folder of a transcribed file under ``into`` (its manifest and a copy of the
    text, unchanged) and return the folder (see :func:`write_draft`)."""
    return write_draft(path, into, force).folder


def write_draft(path: Path, into: Path, force: bool = False) -> DraftWritten:
    """Write the draft witness folder of a transcribed file under ``into``, never losing a curator's work
    (:mod:`dianli.written`): a manifest the curator edited since dianli drafted it is merged with the new
    draft line by line (:func:`dianli.merge3.merge3`, against the draft dianli last wrote), and where both
    changed the same lines it is kept and the new draft written beside it; a copied text the curator
    changed is refused (:class:`dianli.written.ForeignFileError`). ``force`` replaces both."""
    import yaml

    from dianli import written
    from dianli.merge3 import merge3

    data = draft_manifest(path)
    folder: Path = into / str(data["id"])
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / path.name
    source = path.read_bytes()
    if not (copy.is_file() and not copy.is_symlink() and copy.read_bytes() == source):
        written.write(copy, source, force)
    body = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    text = MANIFEST_COMMENT + body
    target, base = folder / MANIFEST_FILE, folder / DRAFT_BASE
    outcome = DraftWritten(folder)
    if force or written.why_foreign(target) is None:
        written.write(target, text.encode("utf-8"), force)
    else:
        if target.is_symlink() or not target.is_file():
            written.check([target])  # a link or a folder: refused, named
        ours = target.read_text(encoding="utf-8")
        before = base.read_text(encoding="utf-8") if written.is_own(base) else ""
        merged = merge3(before.splitlines(True), ours.splitlines(True), text.splitlines(True))
        if merged.clean:
            merged_text = "".join(merged.lines).encode("utf-8")  # the curator's work: never recorded as own
            written.write(target, merged_text, force=True, own=False)
            outcome = DraftWritten(folder, merged=True)
        else:
            written.write(folder / NEW_DRAFT, text.encode("utf-8"), force)
            outcome = DraftWritten(folder, conflicts=tuple(merged.conflicts))
    written.write(base, text.encode("utf-8"), force=force or written.is_own(base) or not base.exists())
    return outcome


def check_draft_ids(paths: Sequence[Path]) -> None:
    """Refuse files whose names make one witness id (``a b.txt``, ``a-b.txt``, ``a_b.txt``), naming them."""
    by_id: dict[str, list[Path]] = {}
    for path in paths:
        by_id.setdefault(_slug(path.stem), []).append(path)
    clashes = {k: v for k, v in by_id.items() if len(v) > 1}
    if clashes:
        named = "; ".join(f"{', '.join(p.name for p in v)} → {k}" for k, v in sorted(clashes.items()))
        raise DianliError(
            f"these files would make one witness folder each, but their names give the same witness id: "
            f"{named}; accepted: file names that differ in their latin letters or digits (rename one)"
        )


class DraftConflictError(DianliError):
    """Curated manifests that a new draft changes where the curator changed them too: each kept as the
    curator left it, the new draft beside it (:data:`NEW_DRAFT`)."""

    def __init__(self, conflicts: Sequence[DraftWritten]) -> None:
        self.drafts = list(conflicts)
        named = "; ".join(
            f"{d.folder / MANIFEST_FILE} lines "
            + ", ".join(f"{a}–{b}" if a != b else str(a) for a, b in d.conflicts)
            + f" (new draft: {d.folder / NEW_DRAFT})"
            for d in conflicts
        )
        super().__init__(
            f"kept your edits of {len(conflicts)} manifest(s) that the new draft changes too: {named}; "
            "accepted: merge the new draft into your manifest by hand (then delete it), or --force to "
            "replace your manifest with the new draft"
        )


def write_drafts(paths: Sequence[Path], into: Path, force: bool = False) -> list[DraftWritten]:
    """Draft a witness folder under ``into`` for each of ``paths`` (:func:`write_draft`), after checking
    that no two give one witness id; every folder is written, then a :class:`DraftConflictError` names
    the manifests whose curator's edits conflict with their new draft."""
    check_draft_ids(paths)
    into.mkdir(parents=True, exist_ok=True)
    done = [write_draft(path, into, force) for path in paths]
    conflicts = [d for d in done if d.conflicts]
    if conflicts:
        raise DraftConflictError(conflicts)
    return done
