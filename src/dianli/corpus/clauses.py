"""Clause segmentation: headings, sentences, calls and notes, each inside one section, with offsets.

Punctuated witnesses end a sentence at 。．；！？ and at a paragraph break; a call is the caller's verb
and the quoted words (唱『…』, 贊“…”), and no call is cut at the stops its words hold (唱：「俯伏！興！」).
Unpunctuated fragments (003, 004) have no stops: there a call begins at each 唱 or 贊 that is a verb (not part of a role such as 通贊 or 引贊, which begin the call
themselves), and each note in 【】 is a clause of its own.

An editorial span of the normalisation (a transcriber's header or mark such as ``[OMITTED: …]``) is a
gap, never a clause: the text is cut at both of its ends and what lies inside is skipped, so no clause
holds or spans one.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass

from dianli.corpus.normalise import SENTENCE_STOPS, is_key_char
from dianli.corpus.sections import Section, sections
from dianli.corpus.witnesses import load_witness

CLAUSE_KINDS = ("heading", "sentence", "call", "note")
CALL_LIMIT = 50
"""A quoted call of at most this many characters (verb and quotation marks included) is one clause
whatever stops it holds (「唱：「俯伏！興！平身！」」); a longer quotation is cut into its sentences."""

_ROLES = "通贊|引贊|分贊|麾生|司班|司禮|司正|贊者|通赞|引赞|赞者|司礼|节生|節生"
# Who else calls the quoted words of punctuated witnesses (「執事者唱『…』」, 「贊禮生贊『…』」): the call begins
# with them, so no fragment 「…贊禮生」 is left before it.
_QUOTING = f"贊禮生|赞礼生|贊禮|赞礼|執事者|执事者|{_ROLES}"
# Quoted calls of punctuated witnesses: an optional calling role, the verb 唱/贊 and colon, then the
# words in 『…』 or “…”; or words in 『…』 alone that no 云/曰/說 introduces as a quotation.
_QUOTED_CALL_RE = re.compile(
    rf"(?:(?:{_QUOTING})?(?:唱|贊|赞|傳唱|传唱)[：:]?)(?:『[^』]*』|“[^”]*”)|(?<![云曰說说：:])『[^』]*』"
)
# Calls in 「…」 (the quotation marks of modern editions): no clause of their own, as the same marks quote
# a book or a name, but their words are not cut at the stops they hold.
_CORNER_CALL_RE = re.compile(rf"(?:{_QUOTING})?(?:唱|贊|赞|傳唱|传唱)[：:]?「[^」]*」")
_MARKS = "『』“”「」"
"""The quotation marks a call's words stand in (its own pair, and none inside them)."""
# Unpunctuated calls: a role that calls, or the verb 唱/贊 standing alone.
_BARE_CALL_RE = re.compile(rf"(?:{_ROLES})(?=唱|贊|赞)|(?<![通引分司贊赞])(?:唱|贊|赞)(?![引禮礼者生唱])")


@dataclass(frozen=True)
class Clause:
    """A clause in reading-text coordinates (half-open), with its innermost section."""

    witness: str
    section: str
    start: int
    end: int
    kind: str
    text: str

    @property
    def id(self) -> str:
        """A stable id within the witness: section and start offset."""
        return f"{self.witness}:{self.section}:{self.start}"


@functools.cache
def clauses(witness_id: str) -> tuple[Clause, ...]:
    """Every clause of a witness, in order. Clauses never cross a section boundary."""
    wit = load_witness(witness_id)
    norm = wit.norm
    text = norm.text
    secs = sections(witness_id)
    cuts: set[int] = {0, len(text)} | set(norm.paragraph_starts)
    for gap in norm.editorial:
        cuts.update((gap.start, gap.end))
    heading_spans: set[tuple[int, int]] = set()
    for sec in secs:
        cuts.update((sec.start, sec.end))
        if sec.heading:
            heading_spans.add((sec.start, sec.start + len(sec.heading)))
            cuts.add(sec.start + len(sec.heading))
    call_starts: set[int] = set()
    if wit.info.punctuated:
        quoted = list(_QUOTED_CALL_RE.finditer(text))
        for match in quoted:
            call_starts.add(match.start())
            cuts.update((match.start(), match.end()))
        inside: set[int] = set()  # a call's words are one clause: 唱：「俯伏！興！」 is not cut at its 「！」
        for match in itertools.chain(quoted, _CORNER_CALL_RE.finditer(text)):
            if _one_call(match.group()):
                inside.update(range(match.start(), match.end() - 1))
        for i, char in enumerate(text):
            if char in SENTENCE_STOPS and i not in inside:
                cuts.add(i + 1)
    else:
        for note in norm.notes:
            cuts.update((note.start, note.end))
        for match in _BARE_CALL_RE.finditer(text):
            if norm.in_note(match.start()) is None:
                call_starts.add(match.start())
                cuts.add(match.start())
    ordered = sorted(c for c in cuts if 0 <= c <= len(text))
    # Innermost section per cut interval: walk sections (sorted by start, depth) alongside.
    result: list[Clause] = []
    for start, end in itertools.pairwise(ordered):
        if norm.editorial and norm.in_editorial(start) is not None:
            continue  # inside a gap: cut at both its ends, so the whole piece is editorial
        piece = text[start:end]
        if not any(is_key_char(c) for c in piece):
            continue
        section = _innermost(secs, start)
        if (start, end) in heading_spans:
            kind = "heading"
        elif start in call_starts:
            kind = "call"
        elif (holder := norm.in_note(start)) is not None and holder.end >= end:
            kind = "note"
        else:
            kind = "sentence"
        result.append(Clause(witness_id, section, start, end, kind, piece))
    return tuple(result)


def _one_call(call: str) -> bool:
    """Whether a quoted call's words are one call: short (a long quotation is prose, cut as sentences) and
    holding no other quotation mark (「引贊贊：『奠帛」；……。贊：『獻爵』」 closes its first call with the wrong
    mark: two calls, cut at their stops)."""
    opened = next(i for i, c in enumerate(call) if c in _MARKS)
    return len(call) <= CALL_LIMIT and not any(c in _MARKS for c in call[opened + 1 : -1])


def _innermost(secs: tuple[Section, ...], offset: int) -> str:
    best_id, best_depth = "front", -1
    for sec in secs:
        if sec.start <= offset < sec.end and sec.depth > best_depth:
            best_id, best_depth = sec.id, sec.depth
    return best_id
