"""Facts read from a witness's text alone, and how well that reading matches a curator's.

:func:`text_facts` reads every clause of a witness with the readers of :mod:`dianli.comparison.values`
(date rules, hymn names, postures, offering rounds) and files each fact under the rite its section
belongs to. Which rite a section belongs to is learnt from the correspondence table — the rites that the
*other* witnesses' statements in a section of that id are about — so a witness is read without anything
curated for it: this is the automatic path a new gazetteer takes.

:func:`leave_one_out` measures that path on a curated witness: its facts read from its text alone against
the facts of its hand statements (cited, read, aligned), as (rite, kind, value) triples, with precision and
recall per kind. ``bench/align.py`` prints it for every curated gazetteer.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from dianli.comparison.table import Table, table
from dianli.comparison.values import OPEN, Value, facts_in, folded_pattern
from dianli.corpus.clauses import Clause, clauses
from dianli.corpus.normalise import fold

T = TypeVar("T")

READ_KINDS = ("date_rule", "hymn", "posture", "rounds")
"""The kinds a reader finds in running text (the others come from curated elements only)."""
EXCLUDED_SECTIONS = ("front", "back")
QING_FIRST_YEAR = 1644
"""The first year of Qing rule (a clause dated before it tells of earlier practice)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A fact read from a clause of a witness, filed under a rite."""

    rite: str
    value: Value
    clause: Clause

    @property
    def triple(self) -> tuple[str, str, str]:
        return (self.rite, self.value.kind, fold(self.value.text))


def section_rites(source: Table, without: str | None = None) -> dict[str, str]:
    """section id → the rite the statements in sections of that id are most often about (leaving out the
    statements of ``without``, so that a witness is never read with its own curation)."""
    counts: dict[str, Counter[str]] = {}
    for s in source:
        if s.witness != without and s.rite:  # the other cited data (music, spring ox) is no rite
            counts.setdefault(s.section, Counter())[s.rite] += 1
    return {section: c.most_common(1)[0][0] for section, c in counts.items()}


def section_candidates(source: Table, without: str | None = None) -> dict[str, frozenset[str]]:
    """section id → every rite the other witnesses' statements in sections of that id are about."""
    out: dict[str, set[str]] = {}
    for s in source:
        if s.witness != without and s.rite:
            out.setdefault(s.section, set()).add(s.rite)
    return {section: frozenset(rites) for section, rites in out.items()}


def _known_values(source: Table, without: str | None) -> frozenset[tuple[str, str, str]]:
    """(rite, kind, value key) of every fact the other witnesses state."""
    return frozenset((s.rite, s.kind, s.key) for s in source if s.witness != without and s.rite)


def _refiled(
    rite: str, value: Value, candidates: frozenset[str], known: frozenset[tuple[str, str, str]]
) -> str:
    """The rite a fact is filed under: the section's rite, unless it is a day the other witnesses state
    only of another rite they cite in sections of the same id (a 慶賀 section holds the 進表 rite's days,
    「萬壽聖節前二月」, and the 萬壽亭's)."""
    key = (value.kind, fold(value.text))
    if value.kind != "date_rule" or (rite, *key) in known:
        return rite  # a round or a posture is common to many rites: it says nothing of which
    others = sorted(r for r in candidates if (r, *key) in known)
    return others[0] if len(others) == 1 else rite


def _nearest(section: str, by_section: Mapping[str, T]) -> T | None:
    """What ``by_section`` holds for a section, or for its nearest enclosing section (None: for none)."""
    parts = section.split(".")
    for depth in range(len(parts), 0, -1):
        found = by_section.get(".".join(parts[:depth]))
        if found is not None:
            return found
    return None


def text_facts(witness: str, *, source: Table | None = None, alone: bool = True) -> tuple[Found, ...]:
    """Every readable fact of every clause of ``witness`` (outside its title and colophon), filed under
    the rite of the clause's section; with ``alone`` the sections' rites are learnt from the other
    witnesses only."""
    source = source if source is not None else table()
    rites = section_rites(source, witness if alone else None)
    candidates = section_candidates(source, witness if alone else None)
    known = _known_values(source, witness if alone else None)
    out: list[Found] = []
    same_day: list[tuple[str, str, Clause, bool]] = []
    everything = clauses(witness)
    anchor: str | None = None
    turn: dict[str, None] = {}  # the rites the section holds in turn after the anchor, in order
    for at, clause in enumerate(everything):
        before = everything[at - 1] if at else None
        after = everything[at + 1] if at + 1 < len(everything) else None
        context = before.text if before is not None and before.section == clause.section else ""
        following = after.text if after is not None and after.section == clause.section else ""
        if not context:
            anchor, turn = None, {}  # a rite held after another is told within one section
        if clause.section.split(".")[0] in EXCLUDED_SECTIONS:
            continue
        rite = _nearest(clause.section, rites)
        if rite is None:
            continue
        values = facts_in(clause.text, context=context)
        if any(v.kind == "date_rule" for v in values):
            if _before_the_dynasty(clause.text):
                values = tuple(v for v in values if v.kind != "date_rule")  # history: the Ming's days
            else:
                values, days = _days_by_subject(clause.text, context, rite, values)
                out.extend(Found(subject, v, clause) for subject, v in days)
        near = _nearest(clause.section, candidates) or frozenset()
        pairs, anchor = _in_turn(clause.text, context, following, anchor)
        if anchor is not None:  # 「文廟祭畢，乃祭常公祠…次祭名宦祠」: held in turn after the anchor
            turn.update((r, None) for pair in pairs if anchor in pair for r in pair if r != anchor)
        for v in values:
            if v.kind == "posture" and len(turn) > 1:
                # 「次祭名宦祠、次祭鄉賢祠…但迎神送神只一跪三叩」: said once of every shrine held in turn
                out.extend(Found(r, v, clause) for r in turn)
            else:
                out.append(Found(_refiled(rite, v, near, known), v, clause))
        same_day.extend((rite, other, clause, True) for other in _same_day_as(clause.text) if other != rite)
        same_day.extend((second, first, clause, True) for first, second in pairs)
        same_day.extend((first, second, clause, False) for first, second in pairs)
    out = _without_preparations(out, {c.start: i for i, c in enumerate(everything)})
    # 「與釋奠同日」, 「文廟祭畢，乃祭名宦祠」: a rite whose days the witness does not state takes the days it
    # states of the rite it is held with — or, where it states none either and that rite is the one the
    # clause ties it to (named first, or 「同日」's), the days the other witnesses give that rite (the text
    # says "after 文廟", the corpus says when 文廟 is). Only days the text states are passed on, and the
    # corpus's days are never passed back: 文廟 takes no day from 「文廟祭畢，乃祭名宦祠」.
    stated = [f for f in out if f.value.kind == "date_rule"]
    dated = {f.rite for f in stated}
    for rite, other, clause, tied_to_other in same_day:
        if rite in dated:
            continue
        theirs = [f.value for f in stated if f.rite == other]
        if not theirs and tied_to_other:
            theirs = list(_days_elsewhere(other, source, witness))
        out.extend(Found(rite, value, clause) for value in dict.fromkeys(theirs))
    return tuple(dict.fromkeys(out))


def _days_elsewhere(rite: str, source: Table, witness: str) -> tuple[Value, ...]:
    """The days the other witnesses give a rite: every value stated by at least half as many witnesses as
    the value most of them state (a rite held on two days has both)."""
    counts: Counter[str] = Counter()
    words: dict[str, str] = {}
    for s in source.where(rite=rite, kind="date_rule"):
        if s.witness != witness and s.key != fold(OPEN):
            counts[s.key] += 1
            words.setdefault(s.key, s.value)
    if not counts:
        return ()
    top = counts.most_common(1)[0][1]
    return tuple(Value("date_rule", f"{rite}.date_rule", words[k]) for k, n in counts.items() if n * 2 >= top)


_COUNTED = re.compile(r"^(\w{2})前[一二三]日$")


def _without_preparations(found: list[Found], index: dict[int, int]) -> list[Found]:
    """Without a day counted before a solar term (霜降前一日) where the same or the next clause of the
    section names the term itself for the rite (「每歲霜降前一日…迎請旗纛…」 then 「至霜降日五鼓…」): the rite
    is held on the term, the day before is its preparation. ``index``: clause start → its number."""
    bare = {
        (f.rite, f.clause.section, index[f.clause.start], fold(f.value.text))
        for f in found
        if f.value.kind == "date_rule"
    }
    out = []
    for f in found:
        counted = _COUNTED.match(fold(f.value.text)) if f.value.kind == "date_rule" else None
        if counted is not None:
            at = index[f.clause.start]
            if any((f.rite, f.clause.section, i, counted.group(1)) in bare for i in (at, at + 1)):
                continue
        out.append(f)
    return out


_SAME_DAY = re.compile(folded_pattern(r"(?:與|同)(\w{2,4}?)同日"))
_SUBJECT = re.compile(folded_pattern(r"^(\w{2,5}?)(?:每歲|歲)?(?:或|則|又|亦|皆|俱)?(?:以|於|用)"))
"""A clause that opens with the rite it is about: 「火神以六月下旬三日」, 「關帝又於五月旬有三日」."""


_PIECES = re.compile(r"[，,；;。、：:]")


def _days_by_subject(
    text: str, context: str, rite: str, values: tuple[Value, ...]
) -> tuple[tuple[Value, ...], list[tuple[str, Value]]]:
    """(the facts left to the section's rite, (rite, day) of the days a piece of the clause files under
    the rite it opens with): 「火神以六月下旬三日，厲壇以寒食、中元二節及十月朔日」 gives 火神 its day and
    厲壇 three; a piece with no subject of its own continues the one before. A clause with no subject
    leaves its days to its section."""
    pieces = [p for p in _PIECES.split(text) if p.strip()]
    subjects = [_subject(p) for p in pieces]
    if not any(subjects):
        return values, []
    days: list[tuple[str, Value]] = []
    current = rite
    seen = context
    for piece, subject in zip(pieces, subjects, strict=True):
        current = subject or current
        days.extend((current, v) for v in facts_in(piece, context=seen) if v.kind == "date_rule")
        seen += piece
    return tuple(v for v in values if v.kind != "date_rule"), days


def _subject(text: str) -> str | None:
    """The rite a clause opens with, by one of its names (None: it opens with none)."""
    from dianli.errors import UnknownValueError
    from dianli.rites.resolve import find_rite

    match = _SUBJECT.match(fold(text))
    if match is None:
        return None
    try:
        return find_rite(match.group(1))
    except UnknownValueError:
        return None


def _before_the_dynasty(text: str) -> bool:
    """Whether a clause dates itself by a reign before the Qing (「明洪武元年，…祭以春驚蟄、秋霜降日」,
    「雍熙四年九月九日升化」): it tells history, and its days are not the rule in force."""
    from dianli.corpus.dated_events import extract_dates

    return any(e.gregorian_year < QING_FIRST_YEAR for e in extract_dates(text))


_DONE = re.compile(folded_pattern(r"(?:畢|完畢)"))
_FIRST = re.compile(folded_pattern(r"祭(\w{2,5}?)必先(?:祭)?(?=(\w{2,6}))"))
"""「凡祭文廟，必先崇聖祠」: the second rite is held first, the same day."""
_NEXT = re.compile(folded_pattern(r"(?:乃|次|再|才)(?:祭|祀)(?=(\w{2,6}))"))
_LEAD = re.compile(folded_pattern(r"^(?:乃|次|再|才)?(?:祭|祀)?"))
_TRAIL = re.compile(folded_pattern(r"(?:祭|祀)(?:祀)?$"))


def _in_turn(
    text: str, context: str, following: str = "", anchor: str | None = None
) -> tuple[list[tuple[str, str]], str | None]:
    """(pairs of rites a clause holds in turn on one day, the one it names first first; the rite the
    section last said was done): a rite takes the other's days where the witness states none of its own.
    「文廟祭畢，乃祭常公祠」, 「次祭名宦祠，次祭鄉賢祠」 after 「文廟祭畢」 (``anchor``: the rite last done in the section,
    which the clauses after it continue), 「祭崇聖祠畢，文廟中鼓初嚴」, 「凡祭文廟，必先崇聖祠」. The clause
    before (``context``) and the start of the clause after (``following``: 「文廟祭畢乃祭」 then 「常公祠…」)
    count."""
    plain, before, ahead = fold(text), fold(context), fold(following)[:8]
    whole = before + plain + ahead
    end = len(before) + len(plain)
    pairs: list[tuple[str | None, str | None]] = []
    for match in _FIRST.finditer(plain + ahead):
        if match.start() < len(plain):
            pairs.append((_rite_at_end(match.group(1)), _rite_at_start(match.group(2))))
    for match in _DONE.finditer(whole, 0, end):
        done = _rite_at_end(_TRAIL.sub("", whole[max(0, match.start() - 8) : match.start()]))
        if done is None:
            continue
        anchor = done
        if match.end() > len(before):
            pairs.append((done, _rite_at_start(_LEAD.sub("", whole[match.end() : match.end() + 8]))))
    if anchor is not None:
        pairs.extend(
            (anchor, _rite_at_start(m.group(1)))
            for m in _NEXT.finditer(plain + ahead)
            if m.start() < len(plain)
        )
    out = [(a, b) for a, b in pairs if a and b and a != b]
    return list(dict.fromkeys(out)), anchor


def _rite_at_end(words: str) -> str | None:
    """The rite the last 2 to 5 characters of ``words`` name (the longest that names one)."""
    for size in range(min(5, len(words)), 1, -1):
        found = _rite_named(words[-size:])
        if found:
            return found
    return None


def _rite_at_start(words: str) -> str | None:
    """The rite the first 2 to 6 characters of ``words`` name (the longest that names one)."""
    for size in range(min(6, len(words)), 1, -1):
        found = _rite_named(words[:size])
        if found:
            return found
    return None


@functools.cache
def _rite_named(words: str) -> str | None:
    from dianli.errors import UnknownValueError
    from dianli.rites.resolve import find_rite

    try:
        return find_rite(words)
    except UnknownValueError:
        return None


def _same_day_as(text: str) -> tuple[str, ...]:
    """The rites a clause says the rite is held on the same day as (「與釋奠同日」 → the rite of 釋奠)."""
    from dianli.errors import UnknownValueError
    from dianli.rites.resolve import find_rite

    out = []
    for match in _SAME_DAY.finditer(fold(text)):
        try:
            out.append(find_rite(match.group(1)))
        except UnknownValueError:
            continue
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Score:
    """Facts of one kind: found by the automatic path, stated by hand, and both."""

    kind: str
    found: int
    hand: int
    both: int

    @property
    def precision(self) -> float:
        return self.both / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.both / self.hand if self.hand else 1.0


def hand_facts(witness: str, source: Table | None = None) -> set[tuple[str, str, str]]:
    """(rite, kind, value key) of the witness's hand statements of the readable kinds (a rule that gives
    no day, 無定日, is no fact a reader can find, and is left out)."""
    return {
        (s.rite, s.kind, s.key)
        for s in (source if source is not None else table()).where(witness=witness)
        if s.kind in READ_KINDS and s.key != fold(OPEN)
    }


def leave_one_out(witness: str, source: Table | None = None) -> dict[str, Score]:
    """kind → the witness's facts read from its text alone against its hand statements (only the rites
    its hand statements cover are compared: a fact of a rite nobody curated in it cannot be checked)."""
    hand = hand_facts(witness, source)
    covered = {rite for rite, _, _ in hand}
    found = {f.triple for f in text_facts(witness, source=source) if f.rite in covered}
    return {kind: _score(kind, found, hand) for kind in READ_KINDS}


def _score(kind: str, found: Iterable[tuple[str, str, str]], hand: set[tuple[str, str, str]]) -> Score:
    mine = {t for t in found if t[1] == kind}
    theirs = {t for t in hand if t[1] == kind}
    return Score(kind, len(mine), len(theirs), len(mine & theirs))


@functools.cache
def curated_witnesses() -> tuple[str, ...]:
    """The witnesses with hand statements of a readable kind (the gold standard of :func:`leave_one_out`)."""
    have = {s.witness for s in table() if s.kind in READ_KINDS}
    return tuple(w for w in table().witnesses() if w in have)
