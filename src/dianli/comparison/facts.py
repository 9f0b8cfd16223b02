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
from collections.abc import Iterable
from dataclasses import dataclass

from dianli.comparison.table import Table, table
from dianli.comparison.values import OPEN, Value, facts_in, folded_pattern
from dianli.corpus.clauses import Clause, clauses
from dianli.corpus.normalise import fold

READ_KINDS = ("date_rule", "hymn", "posture", "rounds")
"""The kinds a reader finds in running text (the others come from curated elements only)."""
EXCLUDED_SECTIONS = ("front", "back")


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
        if s.witness != without:
            counts.setdefault(s.section, Counter())[s.rite] += 1
    return {section: c.most_common(1)[0][0] for section, c in counts.items()}


def _rite_for(section: str, rites: dict[str, str]) -> str | None:
    parts = section.split(".")
    for depth in range(len(parts), 0, -1):
        found = rites.get(".".join(parts[:depth]))
        if found is not None:
            return found
    return None


def text_facts(witness: str, *, source: Table | None = None, alone: bool = True) -> tuple[Found, ...]:
    """Every readable fact of every clause of ``witness`` (outside its title and colophon), filed under
    the rite of the clause's section; with ``alone`` the sections' rites are learnt from the other
    witnesses only."""
    rites = section_rites(source if source is not None else table(), witness if alone else None)
    out: list[Found] = []
    same_day: list[tuple[str, str, Clause]] = []
    for clause in clauses(witness):
        if clause.section.split(".")[0] in EXCLUDED_SECTIONS:
            continue
        rite = _rite_for(clause.section, rites)
        if rite is None:
            continue
        out.extend(Found(rite, value, clause) for value in facts_in(clause.text))
        same_day.extend((rite, other, clause) for other in _same_day_as(clause.text) if other != rite)
    # 「與釋奠同日」: the rite takes the days the witness gives the rite it names
    for rite, other, clause in same_day:
        days = [f.value for f in out if f.rite == other and f.value.kind == "date_rule"]
        out.extend(Found(rite, value, clause) for value in dict.fromkeys(days))
    return tuple(out)


_SAME_DAY = re.compile(folded_pattern(r"(?:與|同)(\w{2,4}?)同日"))


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
