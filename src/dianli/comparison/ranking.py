"""Which rules vary most across places and reigns: the rows of the comparison of facts, ranked.

A rule varies where the witnesses that state it give values that contradict each other (the ``differs``
rows of :mod:`dianli.comparison.compare`: 二月上巳 against 二月上丁, never a mere difference of wording, and
never one witness naming the spring sacrifice only against another naming both). Each witness stands at a
place (the units its manifest says it was written for) and in a reign (the era of the year it was
compiled, read from the era table of :mod:`dianli.calendar.eras`, so a Ming or Song witness stands in its
own era). A row is measured by

* its **disagreement**: the share of pairs of stating witnesses whose values contradict (0: all agree;
  1: every witness contradicts every other) — the ranking's key, with the number of witnesses behind it
  breaking ties;
* whether it differs **between places within one reign** (two witnesses of one reign, written for
  different places, contradict) and **at one place across reigns** (two witnesses written for a common
  place, in different reigns, contradict).

Translations are not counted: they state what the text they translate states. Every reading keeps the
statements behind it (witness, quotation, section), so each sentence can be checked in the witness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from dianli.calendar.eras import all_eras
from dianli.comparison.compare import Row, compare, slot_label
from dianli.comparison.table import Statement, Table
from dianli.corpus.labels import witness_label
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import manifest
from dianli.places.places import all_places


@dataclass(frozen=True, slots=True)
class Holder:
    """A witness as a reader of the ranking sees it: its title, when and where it was written."""

    witness: str
    title: str
    year: int
    era: str
    """The era (年號) of the year it was compiled, with its dynasty where that is not the Qing: 乾隆, 明·弘治."""
    places: tuple[str, ...]
    """The names of the units it was written for, the first its own (empty for a witness that governs no
    place); shown as the first, with 等 where there are more."""

    @property
    def where_when(self) -> str:
        place = self.places[0] + ("等" if len(self.places) > 1 else "") if self.places else ""
        return f"{self.era} {self.year}" + (f", {place}" if place else "")


@dataclass(frozen=True, slots=True)
class Reading:
    """One value of a rule and the witnesses that state it, with the statements behind it."""

    values: tuple[str, ...]
    holders: tuple[Holder, ...]
    evidence: tuple[Statement, ...]
    """The first statement of each holder, in the holders' order."""


@dataclass(frozen=True, slots=True)
class Ranked:
    """One rule, how much and how it varies, and the readings behind it."""

    row: Row
    label: str
    readings: tuple[Reading, ...]
    disagreement: float
    """The share (0–1) of pairs of stating witnesses whose values contradict."""
    places: tuple[str, ...]
    eras: tuple[str, ...]
    between_places: tuple[str, ...]
    """Eras in which witnesses written for different places contradict each other."""
    across_reigns: tuple[str, ...]
    """Places where witnesses of different eras contradict each other."""
    first_year: int
    last_year: int

    @property
    def witnesses(self) -> int:
        return sum(len(r.holders) for r in self.readings)

    def sentence(self) -> str:
        """The rule's variation in one paragraph a reader can quote; every value with who states it."""
        values = " ".join(
            f"{'、'.join(r.values)}: {', '.join(f'{h.title} ({h.where_when})' for h in r.holders)}."
            for r in self.readings
        )
        how = []
        if self.between_places:
            how.append(f"between places within one reign ({'、'.join(self.between_places)})")
        if self.across_reigns:
            how.append(f"at one place across reigns ({'、'.join(self.across_reigns)})")
        span = (
            f"{self.first_year}–{self.last_year}"
            if self.first_year != self.last_year
            else str(self.first_year)
        )
        out = (
            f"{self.label}: {len(self.readings)} readings among {self.witnesses} witnesses "
            f"({span}; {len(self.places)} places, {len(self.eras)} reigns). {values}"
        )
        if how:
            out += " It differs " + " and ".join(how) + "."
        return out

    def record(self) -> dict[str, Any]:
        """As plain data (the JSON and CSV of ``dianli variants --summary``)."""
        return {
            "slot": self.row.slot,
            "rule": self.label,
            "rite": self.row.rite,
            "kind": self.row.kind,
            "disagreement": round(self.disagreement, 3),
            "readings": len(self.readings),
            "witnesses": self.witnesses,
            "places": len(self.places),
            "reigns": len(self.eras),
            "first_year": self.first_year,
            "last_year": self.last_year,
            "between_places": list(self.between_places),
            "across_reigns": list(self.across_reigns),
            "sentence": self.sentence(),
            "evidence": [
                {
                    "values": list(r.values),
                    "witness": s.witness,
                    "title": witness_label(s.witness),
                    "quote": s.quote,
                    "section": s.section,
                }
                for r in self.readings
                for s in r.evidence
            ],
        }


def era_of(year: int) -> str:
    """The era naming ``year`` in the era table (the dynasty of the table's first preference where two
    eras share the year), with the dynasty's name where it is not the first dynasty of the table."""
    eras = [e for e in all_eras() if e.first_year <= year <= e.last_year]
    if not eras:
        return str(year)
    era = min(eras, key=lambda e: (e.dynasty.rank, e.first_year))
    return era.name if era.dynasty.rank == 0 else f"{era.dynasty.name}·{era.name}"


@cache
def holders() -> dict[str, Holder]:
    """Every witness that is not a translation, as a holder."""
    names = {p.id: p for p in all_places()}
    out = {}
    for info in manifest():
        if info.translation_of is not None:
            continue
        places = []
        for governed in info.governs:
            place = names.get(governed.place)
            if place is not None:
                places.append(place.nearest(governed.from_year or info.compiled_year).name)
        out[info.id] = Holder(
            info.id,
            witness_label(info.id),
            info.compiled_year,
            era_of(info.compiled_year),
            tuple(dict.fromkeys(places)),
        )
    return out


def evidence_of(statements: Sequence[Statement], values: Sequence[str]) -> Statement:
    """The statement that best shows one of ``values``: one giving it whose quotation holds its words, else
    one giving it, else the first."""
    keys = {fold(v) for v in values}
    giving = [s for s in statements if s.key in keys] or list(statements)
    return next((s for s in giving if s.key and s.key in fold(s.quote)), giving[0])


def rank(row: Row) -> Ranked | None:
    """A ``differs`` row measured (None for a row whose stating witnesses are all translations or agree)."""
    people = holders()
    cells = [c for c in row.cells if c.witness in people]
    pairs = list(combinations(cells, 2))
    contradicting = [(a, b) for a, b in pairs if row.relation(a.witness, b.witness) == "differs"]
    if not contradicting:
        return None
    readings = []
    for group in row.groups:
        mine = [c for c in cells if c.witness in group.witnesses]
        if mine:
            readings.append(
                Reading(
                    group.values,
                    tuple(people[c.witness] for c in mine),
                    tuple(evidence_of(c.statements, group.values) for c in mine),
                )
            )
    between: dict[str, None] = {}
    across: dict[str, None] = {}
    for a, b in contradicting:
        ha, hb = people[a.witness], people[b.witness]
        common = set(ha.places) & set(hb.places)
        if ha.era == hb.era and ha.places and hb.places and not common:
            between[ha.era] = None
        if ha.era != hb.era:
            for place in sorted(common):
                across[place] = None
    stating = [people[c.witness] for c in cells]
    return Ranked(
        row=row,
        label=slot_label(row),
        readings=tuple(readings),
        disagreement=len(contradicting) / len(pairs),
        places=tuple(dict.fromkeys(p for h in stating for p in h.places)),
        eras=tuple(dict.fromkeys(h.era for h in sorted(stating, key=lambda h: h.year))),
        between_places=tuple(between),
        across_reigns=tuple(across),
        first_year=min(h.year for h in stating),
        last_year=max(h.year for h in stating),
    )


def ranked(
    rite: str | None = None,
    *,
    kind: str | None = None,
    source: Table | None = None,
) -> tuple[Ranked, ...]:
    """The rules that vary, most varied first (disagreement, then the witnesses behind it, then the
    places and reigns it spans)."""
    rows: Sequence[Row] = compare(rite, kind=kind, verdict="differs", source=source)
    found = [r for r in (rank(row) for row in rows) if r is not None]
    return tuple(
        sorted(
            found,
            key=lambda r: (-r.disagreement, -r.witnesses, -(len(r.places) + len(r.eras)), r.label),
        )
    )
