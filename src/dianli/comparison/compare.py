"""Witnesses compared as facts: for each point of the model, the values the witnesses state, read from
the correspondence table (:mod:`dianli.comparison.table`).

A **row** is one slot (a rite's days, the office of its 正獻官, the hymn of its 初獻 …). Each witness that
states it has one **cell**: the set of values its statements give, with the quotations. The witnesses fall
into **groups** of equal value sets, and the row's verdict is

* ``differs`` — two witnesses give values neither of which contains the other (二月上巳 against 二月上丁):
  a real difference of the rule;
* ``wording`` — every witness gives the same values (or one a part of another's: a witness that names
  only the spring sacrifice does not contradict one that names both), in different words;
* ``agrees`` — the same values in the same words.

Facts are compared by their folding key (script and punctuation aside), never as character diffs of
clauses: 「樂奏咸和之曲」 and 「樂奏咸平之章」 differ in the hymn, 「春、秋二仲月上丁」 and 「月用仲、日用上丁」
agree on the days.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dianli.comparison.table import Statement, Table, table
from dianli.comparison.values import FACT_KINDS, KINDS
from dianli.corpus.labels import witness_label
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import witness_ids
from dianli.errors import UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.resolve import find_rite

VERDICTS = ("differs", "wording", "agrees")


@dataclass(frozen=True, slots=True)
class Cell:
    """What one witness states of a slot: its values (in its first words for each) and its statements."""

    witness: str
    values: tuple[str, ...]
    statements: tuple[Statement, ...]

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(fold(v) for v in self.values)


@dataclass(frozen=True, slots=True)
class Group:
    """Witnesses that state the same values of a slot."""

    values: tuple[str, ...]
    witnesses: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Row:
    """One slot of the model, every witness that states it, and the verdict."""

    slot: str
    rite: str
    kind: str
    verdict: str
    cells: tuple[Cell, ...]
    groups: tuple[Group, ...]

    def cell(self, witness: str) -> Cell | None:
        return next((c for c in self.cells if c.witness == witness), None)

    def relation(self, witness: str, other: str) -> str | None:
        """How ``witness`` stands to ``other`` on this slot: ``agrees``, ``differs``, or None if either
        states nothing of it."""
        a, b = self.cell(witness), self.cell(other)
        if a is None or b is None:
            return None
        return "agrees" if _compatible(a.keys, b.keys) else "differs"


def _compatible(a: frozenset[str], b: frozenset[str]) -> bool:
    return a <= b or b <= a


def cells_of(statements: Sequence[Statement]) -> tuple[Cell, ...]:
    """One cell per witness of the statements, in corpus order, its values in its first words each."""
    by_witness: dict[str, list[Statement]] = {}
    for s in statements:
        by_witness.setdefault(s.witness, []).append(s)
    order = {w: i for i, w in enumerate(witness_ids())}
    cells = []
    for witness in sorted(by_witness, key=lambda w: order.get(w, len(order))):
        mine = by_witness[witness]
        values: dict[str, str] = {}
        for s in mine:
            values.setdefault(s.key, s.value)
        cells.append(Cell(witness, tuple(values.values()), tuple(mine)))
    return tuple(cells)


def verdict_of(cells: Sequence[Cell]) -> str:
    """``differs``, ``wording`` or ``agrees`` (see the module's docstring)."""
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            if not _compatible(a.keys, b.keys):
                return "differs"
    quotes = {fold(s.quote) for c in cells for s in c.statements}
    values = {c.keys for c in cells}
    return "agrees" if len(values) == 1 and len(quotes) == 1 else "wording"


def _groups(cells: Sequence[Cell]) -> tuple[Group, ...]:
    groups: dict[frozenset[str], tuple[list[str], list[str]]] = {}
    for cell in cells:
        _, witnesses = groups.setdefault(cell.keys, (list(cell.values), []))
        witnesses.append(cell.witness)
    ordered = sorted(groups.values(), key=lambda g: -len(g[1]))
    return tuple(Group(tuple(v), tuple(w)) for v, w in ordered)


def checked(rite: str | None, witness: str | None, kind: str | None) -> str | None:
    """The rite's id (from an id or a name), after checking the witness and the kind: an unknown value is
    an error naming those accepted."""
    if witness is not None and witness not in witness_ids():
        raise UnknownValueError("witness", witness, witness_ids())
    if kind is not None and kind not in KINDS:
        raise UnknownValueError("kind", kind, list(KINDS))
    return find_rite(rite) if rite is not None else None


def compare(
    rite: str | None = None,
    *,
    witness: str | None = None,
    kind: str | None = None,
    verdict: str | None = None,
    source: Table | None = None,
) -> tuple[Row, ...]:
    """Every slot the witnesses state, compared as values (facts only: ``kind='text'`` asks for the
    wording rows too). ``witness`` keeps the rows it states; ``verdict`` keeps rows of that verdict."""
    rite = checked(rite, witness, kind)
    if verdict is not None and verdict not in VERDICTS:
        raise UnknownValueError("verdict", verdict, list(VERDICTS))
    kinds = (kind,) if kind is not None else FACT_KINDS
    rows_by_slot: dict[str, list[Statement]] = {}
    for s in source if source is not None else table():
        if s.kind in kinds and (rite is None or s.rite == rite):
            rows_by_slot.setdefault(s.slot, []).append(s)
    rows = []
    for slot, statements in rows_by_slot.items():
        cells = cells_of(statements)
        if witness is not None and all(c.witness != witness for c in cells):
            continue
        row = Row(slot, statements[0].rite, statements[0].kind, verdict_of(cells), cells, _groups(cells))
        if verdict is None or row.verdict == verdict:
            rows.append(row)
    rite_order = {r: i for i, r in enumerate(all_rites())}
    kind_order = {k: i for i, k in enumerate(KINDS)}
    return tuple(sorted(rows, key=lambda r: (rite_order.get(r.rite, 0), kind_order[r.kind], r.slot)))


def slot_label(row: Row) -> str:
    """A slot in words: the rite's name, the kind of fact, and the item it is about where there is one
    (「祀先師禮·祭期 (day rule)」, 「祀先師禮·主祭 (officiant)·正獻官」)."""
    rite = all_rites()[row.rite].names.classical[0]
    about = next((s.about for c in row.cells for s in c.statements if s.about), "")
    return f"{rite}·{KINDS[row.kind].label}" + (f"·{about}" if about else "")


def sentence(row: Row, witness: str) -> str:
    """What ``witness`` states of the row, against the others, in one line a reader can quote:
    「汀州府志: 二月上巳 — differs from 臺灣府志 (二月上丁、八月上丁); agrees with 鳳山縣志」."""
    mine = row.cell(witness)
    if mine is None:
        return f"{witness_label(witness)}: states nothing of it"
    differs = [c for c in row.cells if c.witness != witness and row.relation(witness, c.witness) == "differs"]
    agrees = [c for c in row.cells if c.witness != witness and row.relation(witness, c.witness) == "agrees"]
    out = f"{witness_label(witness)}: {'、'.join(mine.values)}"
    if differs:
        out += " — differs from " + "; ".join(
            f"{witness_label(c.witness)} ({'、'.join(c.values)})" for c in differs
        )
    if agrees:
        out += (
            ("; " if differs else " — ")
            + "agrees with "
            + ", ".join(witness_label(c.witness) for c in agrees)
        )
    return out


def row_record(row: Row) -> dict[str, Any]:
    """A row as plain data (the JSON of ``dianli compare``)."""
    return {
        "slot": row.slot,
        "label": slot_label(row),
        "rite": row.rite,
        "kind": row.kind,
        "verdict": row.verdict,
        "groups": [{"values": list(g.values), "witnesses": list(g.witnesses)} for g in row.groups],
        "cells": [
            {
                "witness": c.witness,
                "title": witness_label(c.witness),
                "values": list(c.values),
                "statements": [
                    {"element": s.element, "quote": s.quote, "provenance": s.provenance, "section": s.section}
                    for s in c.statements
                ],
            }
            for c in row.cells
        ],
    }
