"""The days of a rite's preparations (齋戒, 省牲, 宰牲, 書名榜掛 …), each from its rule in the data.

A preparation is dated, in this order, by

1. its own ``day_rule`` (:class:`~dianli.rites.model.PreparationDay`): the witness's words (先期二日, 前三日,
   前一日, 祭之日) with the days they count from the rite day, cited — where the reading witness does not
   state the day, another witness that does gives it and the entry says which ("not stated in W; from V");
2. else the calendar's related days of the observance (the date rule's ``related``: 散齋二日, 致齋一日 …)
   whose name begins with the preparation's kind;
3. else it is undated, with the reason: no witness gives its day, or the witness's words give none (前期,
   預期: "beforehand").

Related days that date no preparation are listed after them (a day the calendar keeps that the rite's
preparations do not describe). Nothing here names a rite or a preparation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from dianli.calendar.lunisolar import ChineseDate, to_chinese
from dianli.corpus.cite import Citation
from dianli.corpus.labels import witness_label
from dianli.corpus.normalise import fold
from dianli.rites.model import Preparation
from dianli.rites.observances import Occurrence
from dianli.rites.resolve import inherited_from


@dataclass(frozen=True)
class DatedPreparation:
    """A preparation with its days (empty: undated, and ``undated_reason`` says why)."""

    kind: str
    preparation: Preparation | None
    """None for a related day of the calendar that no preparation of the rite describes."""
    days: tuple[date, ...]
    chinese: tuple[ChineseDate, ...]
    rule: str | None
    """The words that give the day (先期二日), or the related day's name."""
    time: str | None = None
    cites: tuple[Citation, ...] = ()
    """Where the day is said (the day rule's or the related day's citations)."""
    stated_by: str | None = None
    """Set when the reading witness does not state the day: the witness whose words give it."""
    undated_reason: str | None = None
    reading: str | None = None
    """The reading witness (named when another witness gives the day)."""

    @property
    def note(self) -> str | None:
        """What a reader is told about the day beyond the days themselves."""
        if self.undated_reason:
            return self.undated_reason
        if self.stated_by:
            reading = witness_label(self.reading) if self.reading else "the reading witness"
            return f"day not stated in {reading}; from {witness_label(self.stated_by)}"
        return None


def related_name(occ: Occurrence) -> str:
    """A related day's own name: 散齋二日 from 「散齋二日（春祭至聖先師（仲春上丁））」 (the observance's name,
    in brackets at the end, is dropped, however deeply bracketed)."""
    name = occ.name
    if not name.endswith("）"):
        return name
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        if name[i] == "）":
            depth += 1
        elif name[i] == "（":
            depth -= 1
            if depth == 0:
                return name[:i] or name
    return name


def _days_from(rite_day: date, offsets: Iterable[int]) -> tuple[date, ...]:
    return tuple(rite_day + timedelta(days=n) for n in offsets)


def dated_preparations(
    rows: Iterable[Preparation],
    rite_day: date | None,
    related: Iterable[Occurrence],
    witness: str,
) -> tuple[DatedPreparation, ...]:
    """The preparations ``rows`` (in force, in ``witness``'s reading) dated from the rite's day
    ``rite_day`` (None: the rite's own day is not known) and the calendar's ``related`` days of that
    observance; then the related days no preparation uses; sorted by first day, undated last."""
    extra = [(fold(related_name(o)), o) for o in related if o.day is not None]
    used: set[int] = set()
    out: list[DatedPreparation] = []
    for row in rows:
        hits = [(i, o) for i, (name, o) in enumerate(extra) if name.startswith(fold(row.kind))]
        used.update(i for i, _ in hits)
        rule = row.day_rule
        if rule is not None and rite_day is not None:
            days = _days_from(rite_day, rule.offsets)
            stated = inherited_from(rule, witness)
            out.append(
                DatedPreparation(
                    row.kind,
                    row,
                    days,
                    tuple(to_chinese(d) for d in days),
                    rule.text,
                    rule.time,
                    rule.citations,
                    stated,
                    reading=witness,
                )
            )
        elif hits:
            found = [o for _, o in hits if o.day is not None]
            out.append(
                DatedPreparation(
                    row.kind,
                    row,
                    tuple(o.day for o in found if o.day),
                    tuple(o.chinese_date for o in found if o.chinese_date),
                    row.when or related_name(found[0]),
                    cites=tuple(dict.fromkeys(o.cite for o in found)),
                )
            )
        else:
            out.append(
                DatedPreparation(row.kind, row, (), (), row.when, undated_reason=_why_undated(row, rite_day))
            )
    for i, (_, o) in enumerate(extra):
        if i in used or o.day is None:
            continue
        same = next((p for p in out if p.preparation is None and p.kind == related_name(o)), None)
        if same is not None:
            out[out.index(same)] = DatedPreparation(
                same.kind,
                None,
                (*same.days, o.day),
                (*same.chinese, *((o.chinese_date,) if o.chinese_date else ())),
                same.rule,
                cites=same.cites,
            )
            continue
        out.append(
            DatedPreparation(
                related_name(o),
                None,
                (o.day,),
                (o.chinese_date,) if o.chinese_date else (),
                related_name(o),
                cites=(o.cite,),
            )
        )
    return tuple(sorted(out, key=lambda p: p.days[0] if p.days else date.max))


def _why_undated(row: Preparation, rite_day: date | None) -> str:
    if rite_day is None and row.day_rule is not None:
        return f"{row.day_rule.text}: the rite's own day is not known this year"
    if row.when:
        return f"the witness says 「{row.when}」, which gives no day"
    return "no witness gives its day"
