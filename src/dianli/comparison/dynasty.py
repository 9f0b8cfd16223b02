"""What changed at a boundary in time — by default the start of the Qing: the witnesses written before it
(the Ming and Song gazetteers) against those written after, compared as facts.

Three kinds of change, each cited by the statements behind it:

* ``changed`` — a point of a rite (its days, a hymn, an officiant …) whose value in a witness before the
  boundary contradicts the value of a witness after it (:mod:`dianli.comparison.compare`: values, never
  wording); the witnesses after it that still agree are named as keeping it;
* ``dropped`` — a rite the earlier witnesses state and no later witness does: a rite of the model stated
  only before, or a temple, shrine or altar of an earlier witness that names no rite of the model (the
  aligner's *rites not in the model*, :func:`dianli.comparison.gaps.rites_not_in_model`);
* ``added`` — a rite the later witnesses state and no earlier witness does. The earlier witnesses are few
  and partial, so this says only that none of them states it: the sentence says so.

The boundary defaults to the first year of the first dynasty of the era table (:mod:`dianli.calendar.eras`,
順治元年 = 1644), so nothing about the Qing is written here; any other year can be asked for (the change
of 雍正元年, 1723, is the one the corpus documents best).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dianli.calendar.eras import all_eras
from dianli.comparison.compare import Cell, compare, slot_label
from dianli.comparison.ranking import Holder, era_of, evidence_of, holders
from dianli.comparison.table import Statement, Table, table
from dianli.corpus.labels import witness_label
from dianli.corpus.normalise import fold
from dianli.rites.load import all_rites

CHANGES = ("changed", "dropped", "added")
LOCAL_KINDS = ("venue", "officiant")
"""Kinds of fact whose values name a place's own altar or office (社稷壇 在縣治北郊, 汀州府知府): they differ
from place to place, not with the code, and are not compared across the boundary."""


@dataclass(frozen=True, slots=True)
class Side:
    """What the witnesses on one side of the boundary state: their values and one statement each."""

    values: tuple[str, ...]
    evidence: tuple[Statement, ...]

    def words(self, years: dict[str, Holder]) -> str:
        who = ", ".join(
            f"{witness_label(s.witness)} ({years[s.witness].era} {years[s.witness].year})「{s.quote}」"
            for s in self.evidence
        )
        return f"{'、'.join(self.values)}: {who}" if self.values else who


@dataclass(frozen=True, slots=True)
class Change:
    """One change at the boundary, with what each side states."""

    change: str
    """``changed``, ``dropped`` or ``added`` (see the module's docstring)."""
    rite: str
    """The rite's id in the model, or '' for a rite the model does not have."""
    label: str
    """The point in words (「祭山川禮·祭期」), or the rite's name for a rite added or dropped."""
    before: Side
    after: Side
    kept_by: Side | None = None
    """For ``changed``: the later witnesses that still state the earlier value, if any."""

    def sentence(self, boundary: int) -> str:
        """The change in words a reader can quote, every value with the witnesses and quotations."""
        years = holders()
        if self.change == "changed":
            out = f"{self.label}: before {boundary}, {self.before.words(years)}; from {boundary}, "
            out += self.after.words(years)
            if self.kept_by is not None:
                out += f"; kept by {self.kept_by.words(years)}"
            return out + "."
        if self.change == "dropped":
            return (
                f"{self.label}: stated before {boundary} by {self.before.words(years)}; no witness from "
                f"{boundary} on states it."
            )
        return (
            f"{self.label}: stated from {boundary} on (first by {self.after.words(years)}); none of the "
            f"witnesses before {boundary} states it (they are few and partial)."
        )

    def record(self, boundary: int) -> dict[str, Any]:
        def side(s: Side | None) -> list[dict[str, Any]]:
            if s is None:
                return []
            return [
                {"witness": e.witness, "title": witness_label(e.witness), "value": e.value, "quote": e.quote}
                for e in s.evidence
            ]

        return {
            "change": self.change,
            "rite": self.rite,
            "label": self.label,
            "before": side(self.before),
            "after": side(self.after),
            "kept_by": side(self.kept_by),
            "sentence": self.sentence(boundary),
        }


def qing_start() -> int:
    """The first year of the first dynasty of the era table (the dynasty the witnesses' own dates are in)."""
    first = min(e.dynasty.rank for e in all_eras())
    return min(e.first_year for e in all_eras() if e.dynasty.rank == first)


def _side(cells: Sequence[Cell]) -> Side:
    values = tuple(dict.fromkeys(v for c in cells for v in c.values))
    return Side(values, tuple(evidence_of(c.statements, c.values) for c in cells))


def _changed(rite: str | None, source: Table, before: set[str], after: set[str]) -> list[Change]:
    out = []
    for row in compare(rite, source=source):
        if row.kind in LOCAL_KINDS:
            continue
        early = [c for c in row.cells if c.witness in before]
        late = [c for c in row.cells if c.witness in after]
        if not early or not late:
            continue
        differ = [c for c in late if all(row.relation(e.witness, c.witness) == "differs" for e in early)]
        if not differ:
            continue
        keep = [c for c in late if c not in differ]
        out.append(
            Change(
                "changed",
                row.rite,
                slot_label(row),
                _side(early),
                _side(differ),
                _side(keep) if keep else None,
            )
        )
    return out


def _first_statements(statements: Sequence[Statement], witnesses: Sequence[str]) -> tuple[Statement, ...]:
    """One statement per witness (its first), in the order of ``witnesses``."""
    firsts: dict[str, Statement] = {}
    for s in statements:
        firsts.setdefault(s.witness, s)
    return tuple(firsts[w] for w in witnesses if w in firsts)


def _sections_stated(witnesses: set[str]) -> dict[str, str]:
    """The rites whose sections the witnesses' texts hold (a passage about the rite, anchored by its
    heading), each with the first witness that holds one."""
    from dianli.corpus.sections import sections

    rites = all_rites()
    found: dict[str, str] = {}
    for witness in sorted(witnesses, key=lambda w: holders()[w].year):
        for section in sections(witness):
            top = section.id.split(".", 1)[0]
            if top in rites:
                found.setdefault(top, witness)
    return found


def _rites(rite: str | None, source: Table, before: set[str], after: set[str]) -> list[Change]:
    years = holders()
    by_rite: dict[str, list[Statement]] = {}
    for s in source:
        if s.rite and (rite is None or s.rite == rite) and s.witness in years:
            by_rite.setdefault(s.rite, []).append(s)
    early_order = sorted(before, key=lambda w: years[w].year)
    late_order = sorted(after, key=lambda w: years[w].year)
    held_before = _sections_stated(before)
    held_after = _sections_stated(after)
    out = []
    for rite_id, statements in by_rite.items():
        stated = {s.witness for s in statements}
        name = all_rites()[rite_id].names.classical[0] if rite_id in all_rites() else rite_id
        early = _first_statements(statements, early_order)
        late = _first_statements(statements, late_order)
        if early and not stated & after and rite_id not in held_after:
            out.append(Change("dropped", rite_id, name, Side((), early), Side((), ())))
        elif late and not stated & before and rite_id not in held_before and before:
            out.append(Change("added", rite_id, name, Side((), ()), Side((), late[:1])))
    return out


def _rite_named(name: str) -> str | None:
    """The rite of the model a temple's or altar's name names by its section's title (東嶽 in 東嶽行宮), or
    None."""
    from dianli.corpus.tree import section_defs

    key = fold(name)
    rites = all_rites()
    for sid, definition in section_defs().items():
        title = fold(definition.title)
        if sid in rites and len(title) >= 2 and title in key:
            return sid
    return None


def _new_rites(witness: str) -> tuple[tuple[str, str, str], ...]:
    """(name, section, first clause) of each run of the witness's clauses about a temple, shrine or altar
    that names no rite of the model — from its alignment, kept in the on-disk cache (derived from the data
    alone)."""
    from dianli import cache

    def make() -> tuple[tuple[str, str, str], ...]:
        from dianli.comparison.align import align
        from dianli.comparison.gaps import rites_not_in_model

        return tuple(
            (new.name, new.clauses[0].section, new.clauses[0].text)
            for new in rites_not_in_model(align(witness))
        )

    entry = cache.installed_key("comparison.dynasty.new_rites", witness)
    return cache.pickled(cache.DERIVED, entry, make)


def _not_in_model(before: set[str]) -> list[Change]:
    """The temples, shrines and altars of the earlier witnesses that name no rite of the model, one change
    per name (folded), with the first clause of each witness that has it. A run standing in the section of a
    rite of the model, or named by that rite's title, is that rite's, not a rite the model lacks."""
    rites = all_rites()
    names: dict[str, str] = {}
    evidence: dict[str, dict[str, Statement]] = {}
    for witness in sorted(before, key=lambda w: holders()[w].year):
        for name, section, text in _new_rites(witness):
            if section.split(".", 1)[0] in rites or _rite_named(name) is not None:
                continue
            key = fold(name)
            names.setdefault(key, name)
            quote = Statement(witness, "", "", "text", "", name, "aligned", text, "", 0, 0)
            evidence.setdefault(key, {}).setdefault(witness, quote)
    return [
        Change("dropped", "", names[key], Side((), tuple(found.values())), Side((), ()))
        for key, found in evidence.items()
    ]


def before_and_after(
    rite: str | None = None, *, boundary: int | None = None, source: Table | None = None
) -> tuple[Change, ...]:
    """Every change at ``boundary`` (default: the Qing's first year), changes of value first, then rites
    dropped and added. Empty when no witness stands on one side of it."""
    year = qing_start() if boundary is None else boundary
    years = holders()
    before = {w for w, h in years.items() if h.year < year}
    after = {w for w, h in years.items() if h.year >= year}
    if not before or not after:
        return ()
    data = source if source is not None else table()
    found = _changed(rite, data, before, after) + _rites(rite, data, before, after)
    if rite is None:
        found += _not_in_model(before)
    order = {c: i for i, c in enumerate(CHANGES)}
    return tuple(sorted(found, key=lambda c: (order[c.change], c.label)))


def boundary_label(year: int) -> str:
    """The boundary in words: its year and the era that begins or runs then (1644 順治, 1723 雍正)."""
    return f"{year} ({era_of(year)})"
