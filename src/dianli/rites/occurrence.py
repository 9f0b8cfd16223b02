"""One entry of a place's ritual calendar (:class:`Occurrence`), apart from the code that computes it
(:mod:`dianli.rites.observances`): a calendar kept in the on-disk cache is read back without loading the
rites."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from dianli.calendar.lunisolar import ChineseDate, DateSource
from dianli.corpus.cite import Citation


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One dated (or undatable) entry of a place's ritual calendar."""

    observance_id: str
    rite: str
    name: str
    day: date | None
    chinese_date: ChineseDate | None
    source: DateSource | None
    cite: Citation
    part: str | None = None  # None for the rite itself, else the related id (zhaijie, shengsheng …)
    time_label: str | None = None
    notes: tuple[str, ...] = field(default=())
    assumption: str | None = None
    open_reason: str | None = None
    rule_text: str | None = None
    """The witness's words for this observance's day (春祭清明日), when the data gives them."""
    practice: str | None = None
    """The id of the practice profile that gave the day, if one did."""

    @property
    def weekday(self) -> str | None:
        return self.day.strftime("%A") if self.day else None
