"""``dianli.variants`` and ``dianli.collate``: where the witnesses read a rite differently — by rule, with
the units and years each reading is in force — and a section's witnesses aligned side by side."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from dianli.provenance import stamp_markup
from dianli.public import _comparison as comparison
from dianli.public.table import Row, Table

if TYPE_CHECKING:
    import pandas

VARIANT_COLUMNS = (
    "rule",
    "rite",
    "kind",
    "label",
    "reading",
    "value",
    "witnesses",
    "followers",
    "place",
    "place_name",
    "governing_witness",
    "from_year",
    "until_year",
    "stands_in",
    "cite_witness",
    "cite_quote",
    "assumption",
)
"""One row per reading and unit where it is in force (the columns of ``dianli variants --format csv``, with
the first citation split into witness and quote)."""


class Variants(Table):
    """The rules the witnesses read differently, one row per reading and unit where it is in force
    (a reading in force nowhere has one row without a place). Keys: ``rule``, ``rite``, ``place``,
    ``governing_witness``; ``from_year``..``until_year`` the years (inclusive)."""

    def __init__(self, rules: tuple[comparison.Rule, ...], title: str) -> None:
        self.rules = rules
        rows: list[Row] = []
        for rule in rules:
            for r in rule.readings:
                cite = r.citations[0] if r.citations else None
                common = {
                    "rule": rule.id,
                    "rite": rule.rite,
                    "kind": rule.kind,
                    "label": rule.label,
                    "reading": r.number,
                    "value": r.value,
                    "witnesses": list(r.witnesses),
                    "followers": list(r.followers),
                    "cite_witness": cite.witness if cite else None,
                    "cite_quote": cite.quote if cite else None,
                    "assumption": r.assumptions[0] if r.assumptions and cite is None else None,
                }
                rows += [
                    {
                        **common,
                        "place": s.place,
                        "place_name": s.name,
                        "governing_witness": s.witness,
                        "from_year": s.from_year,
                        "until_year": s.until_year,
                        "stands_in": s.stands_in,
                    }
                    for s in r.spans
                ] or [common]
        super().__init__(
            title,
            VARIANT_COLUMNS,
            rows,
            ("rule", "reading", "place", "from_year"),
            shown=("value", "place_name", "from_year", "until_year"),
        )

    def at(self, place: str, year: int) -> dict[str, str]:
        """The reading (its words) of each rule in force at a unit (id) in ``year``."""
        found = {}
        for rule in self.rules:
            reading = rule.reading_at(place, year)
            if reading is not None:
                found[rule.id] = reading.value
        return found

    def _rule(self, rule: str | None) -> comparison.Rule:
        if rule is None and len(self.rules) == 1:
            return self.rules[0]
        for found in self.rules:
            if found.id == rule:
                return found
        raise ValueError(f"name one rule of {', '.join(r.id for r in self.rules)}")

    def map_svg(self, year: int, rule: str | None = None) -> str:
        """The map of the units and the reading in force at each in ``year`` (an offline SVG with its
        provenance); ``rule`` where the table holds several."""
        return stamp_markup(comparison.variation_map_svg(self._rule(rule), year))

    def timeline_svg(self, rule: str | None = None) -> str:
        """The readings of a rule over the years, unit by unit (an offline SVG with its provenance)."""
        return stamp_markup(comparison.variation_timeline_svg(self._rule(rule)))


def variants(rule: str | None = None, rite: str | None = None) -> Variants:
    """Every rule the witnesses read differently, or the one ``rule`` (an id such as ``xianshi:wangyi-call``),
    or those of one ``rite`` (id or name) — what ``dianli variants`` reports."""
    rules = comparison.variation(rule, rite)
    title = f"Variants of {rule}" if rule else f"Variants of {rite}" if rite else "Variants"
    return Variants(rules, title)


class Collated:
    """A section's witnesses aligned column by column on the folding key (see ``dianli collate``)."""

    def __init__(self, collation: comparison.Collation) -> None:
        self.collation = collation
        self.section = collation.section
        self.title = collation.section_title
        self.witnesses = tuple(w.id for w in collation.witnesses)
        self.base = collation.base

    @property
    def varying(self) -> tuple[int, ...]:
        """The numbers (from 0) of the columns where the witnesses differ."""
        return self.collation.varying

    def to_table(self) -> Table:
        """One row per column and witness: the witness's reading there (its own characters), the folding
        key, whether the witnesses agree there and whether it is the base. Keys: ``column``, ``witness``."""
        rows: list[Row] = []
        for number, column in enumerate(self.collation.columns):
            agree = column.agree
            for witness, cell in zip(column.witnesses, column.cells, strict=True):
                rows.append(
                    {
                        "section": self.section,
                        "column": number,
                        "witness": witness,
                        "reading": "".join(t.text for t in cell),
                        "key": "".join(t.key for t in cell),
                        "note": any(t.note for t in cell),
                        "agree": agree,
                        "base": witness == self.base,
                    }
                )
        columns = ("section", "column", "witness", "reading", "key", "note", "agree", "base")
        return Table(
            f"Collation of {self.title}",
            columns,
            rows,
            ("section", "column", "witness"),
            shown=("column", "witness", "reading", "agree"),
        )

    def to_frame(self) -> pandas.DataFrame:
        """:meth:`to_table` as a pandas DataFrame (pivot on ``witness`` for the side-by-side view)."""
        return self.to_table().to_frame()

    def text(self, width: int = 80) -> str:
        """The collation for a terminal: sigla, then one block per varying column."""
        return "\n".join(comparison.collation_lines(self.collation, width))

    def tei(self) -> str:
        """The collation as TEI P5 (parallel segmentation)."""
        return comparison.collation_tei(self.collation)

    def html(self) -> str:
        """A standalone HTML page of the collation, with its provenance."""
        return stamp_markup(comparison.collation_html(self.collation))

    def __repr__(self) -> str:
        return (
            f"Collation({self.title}: {len(self.witnesses)} witnesses, {len(self.collation.columns)} columns, "
            f"{len(self.varying)} varying)"
        )

    def _repr_html_(self) -> str:
        page = comparison.collation_html(self.collation)
        body = page.split("<body>", 1)[-1].rsplit("</body>", 1)[0]
        style = page.split("<style>", 1)[-1].split("</style>", 1)[0] if "<style>" in page else ""
        return f"<style>{style}</style>{body}" if style else html.escape(self.text())


def collate(rite: str, section: str | None = None, base: str | None = None) -> Collated:
    """The witnesses of a rite's section (or of ``section``, by id) aligned side by side; ``base`` (a
    witness id) gives the readings every other witness is compared with (default: the closest to all)."""
    return Collated(comparison.collate(rite, section, base=base))


COMPARE_COLUMNS = (
    "rite",
    "point",
    "kind",
    "slot",
    "verdict",
    "witness",
    "title",
    "values",
    "quotes",
)
"""One row per (point of a rite, witness that states it): the values it gives and the row's verdict."""


class Compared(Table):
    """The witnesses compared as facts (the correspondence table's values), one row per point and witness.
    Keys: ``slot`` (the point of the model), ``witness``; ``verdict`` is the point's: ``differs``,
    ``wording`` (the same facts, other words) or ``agrees``."""

    def __init__(self, rows: tuple[object, ...], title: str) -> None:
        from dianli.comparison.compare import Row as ComparedRow
        from dianli.comparison.compare import slot_label
        from dianli.corpus.labels import witness_label

        self.points = tuple(r for r in rows if isinstance(r, ComparedRow))
        out: list[Row] = []
        for point in self.points:
            for cell in point.cells:
                out.append(
                    {
                        "rite": point.rite,
                        "point": slot_label(point),
                        "kind": point.kind,
                        "slot": point.slot,
                        "verdict": point.verdict,
                        "witness": cell.witness,
                        "title": witness_label(cell.witness),
                        "values": list(cell.values),
                        "quotes": list(dict.fromkeys(s.quote for s in cell.statements)),
                    }
                )
        super().__init__(
            title,
            COMPARE_COLUMNS,
            out,
            key=("slot", "witness"),
            shown=("point", "title", "values", "verdict"),
        )

    def differing(self) -> Compared:
        """Only the points where the witnesses' values differ."""
        return Compared(tuple(p for p in self.points if p.verdict == "differs"), f"{self.title}: differing")

    def ranked(self) -> Table:
        """The differing points ranked by how much the witnesses contradict each other (the share of pairs
        of stating witnesses whose values contradict), one row per point with its sentence — what
        ``dianli variants --summary`` prints. Key: ``slot``."""
        from dianli.comparison.ranking import rank

        found = [r for r in (rank(p) for p in self.points if p.verdict == "differs") if r is not None]
        found.sort(key=lambda r: (-r.disagreement, -r.witnesses, -(len(r.places) + len(r.eras)), r.label))
        rows = [{k: v for k, v in r.record().items() if k != "evidence"} for r in found]
        return Table(
            f"{self.title}: ranked by disagreement",
            RANKED_COLUMNS,
            rows,
            key=("slot",),
            shown=("rule", "disagreement", "readings", "witnesses", "places", "reigns"),
        )


RANKED_COLUMNS = (
    "slot",
    "rule",
    "rite",
    "kind",
    "disagreement",
    "readings",
    "witnesses",
    "places",
    "reigns",
    "first_year",
    "last_year",
    "between_places",
    "across_reigns",
    "sentence",
)
"""One row per point on which witnesses contradict each other (``Compared.ranked``)."""
CHANGE_COLUMNS = ("change", "rite", "label", "side", "witness", "title", "value", "quote", "sentence")
"""One row per change and witness behind it (``changes``): ``side`` is before, after or kept_by."""


def changes(boundary: int | None = None, rite: str | None = None) -> Table:
    """What changed at ``boundary`` (default: the Qing's first year, 1644): the witnesses written before it
    against those after, compared as facts — values changed, rites dropped and added — one row per change
    and witness behind it, with the change's sentence. ``dianli.changes(1723)`` for 雍正元年."""
    from dianli.comparison.dynasty import before_and_after, qing_start
    from dianli.rites.resolve import find_rite

    year = qing_start() if boundary is None else boundary
    rows: list[Row] = []
    for change in before_and_after(find_rite(rite) if rite else None, boundary=year):
        record = change.record(year)
        for side in ("before", "after", "kept_by"):
            rows += [
                {
                    "change": change.change,
                    "rite": change.rite,
                    "label": change.label,
                    "side": side,
                    **{k: e[k] for k in ("witness", "title", "value", "quote")},
                    "sentence": record["sentence"],
                }
                for e in record[side]
            ]
    return Table(
        f"what changed at {year}",
        CHANGE_COLUMNS,
        rows,
        key=("change", "rite", "label", "side", "witness"),
        shown=("change", "label", "side", "title", "value"),
    )


def compare(rite: str | None = None, witness: str | None = None, kind: str | None = None) -> Compared:
    """The witnesses compared as facts: for each point of a rite (or of every rite) — its days, officiants,
    venues, hymns, postures, offering rounds, offerings, dimensions — the value each witness states and
    whether they differ, differ only in wording, or agree. ``dianli.compare("山川", kind="date_rule")``."""
    from dianli.comparison.compare import compare as compare_points

    rows = compare_points(rite, witness=witness, kind=kind)
    what = " · ".join(x for x in (rite, witness, kind) if x) or "every rite"
    return Compared(rows, f"the witnesses compared as facts: {what}")
