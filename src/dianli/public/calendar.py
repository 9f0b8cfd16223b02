"""``dianli.calendar``, ``dianli.date`` and ``dianli.places``: the ritual calendar of places and years, a
day in every calendar, and the administrative units — tables with the data package's columns."""

from __future__ import annotations

import html
from collections.abc import Iterable
from datetime import date as Date
from typing import Any

from dianli.public.table import Row, Table


def _years(years: int | Iterable[int]) -> list[int]:
    return [years] if isinstance(years, int) else list(years)


def _rites(rite: str | Iterable[str] | None) -> list[str] | None:
    if rite is None:
        return None
    return [rite] if isinstance(rite, str) else list(rite)


def calendar(
    years: int | Iterable[int], place: str | None = None, rite: str | Iterable[str] | None = None
) -> Table:
    """Every observance of ``years`` (a year or any iterable of years: ``range(1750, 1851)``) at ``place``
    (a name or id; a name means the unit that bore it in the first year; None: every unit that existed
    that year), of every rite or of ``rite`` (an id or name, or several), each day dated by the Qing
    almanac in the reading of the witness governing the place that year.

    The columns are those of the data package's ``observances`` table (``dianli export``); ``day`` is an
    ISO date. Keys: ``place`` (places), ``witness`` (witnesses), ``rite``, ``day``."""
    from dianli.calendar.reigns import LAST_QING_CHINESE_YEAR
    from dianli.errors import DianliError
    from dianli.opendata.schema import table_schema
    from dianli.opendata.tables import _occurrence_row
    from dianli.places.governs import governing_witness
    from dianli.places.places import get_place, place_at, places_in_year
    from dianli.rites.observances import observances_for

    wanted = _years(years)
    if not wanted:
        raise DianliError("calendar: give at least one year (a year, or years: range(1750, 1851))")
    rites = _rites(rite)
    rows: list[Row] = []
    lineage = get_place(place, wanted[0]) if place is not None else None
    for year in wanted:
        after_qing = lineage is not None and year > LAST_QING_CHINESE_YEAR
        if lineage is None:
            units = list(places_in_year(year))
        else:  # after the Qing, the place as named (the rites of its last Qing year), as dianli calendar does
            units = [lineage.nearest(year) if after_qing else place_at(lineage, year)]
        for unit in units:
            try:
                reader = governing_witness(unit.id, unit.year)
            except DianliError:
                reader = None
            found = observances_for(place if after_qing and place else unit.id, year, rites)
            for number, occ in enumerate(found, start=1):
                rows.append(_occurrence_row(unit, year, number, reader or occ.cite.witness, occ))
    columns = list(table_schema("observances").field_names)
    where = lineage.name if lineage is not None else "every place"
    span = f"{wanted[0]}" if len(wanted) == 1 else f"{min(wanted)}–{max(wanted)}"
    return Table(
        f"Calendar of {where}, {span}",
        columns,
        rows,
        ("place", "year", "number"),
        shown=("day", "chinese_date", "place_name", "name", "rule_text", "time"),
    )


def places(year: int | None = None) -> Table:
    """The administrative units of Fujian and Taiwan: with ``year``, those that existed that year (each with
    the witness that governs it then); without, every period of every unit — the data package's
    ``place_periods`` table. Keys: ``place`` (the unit's id), ``chgis_id`` (CHGIS), ``governing_witness``."""
    from dianli.opendata.schema import table_schema
    from dianli.opendata.tables import place_period_rows

    columns = list(table_schema("place_periods").field_names)
    if year is None:
        shown = ("name", "level_label", "from_year", "until_year", "chgis_id")
        return Table("Periods of places", columns, place_period_rows(), ("place", "from_year"), shown=shown)
    from dianli.errors import DianliError
    from dianli.places.governs import governing_witness
    from dianli.places.places import check_year, places_in_year

    check_year(year)
    by_period = {(r["place"], r["from_year"]): r for r in place_period_rows()}
    rows = []
    for unit in places_in_year(year):
        try:
            witness: str | None = governing_witness(unit.id, year)
        except DianliError:
            witness = None
        rows.append(
            {**by_period[(unit.id, unit.period.from_year)], "year": year, "governing_witness": witness}
        )
    return Table(
        f"Places in {year}",
        ["year", *columns, "governing_witness"],
        rows,
        ("place", "year"),
        shown=("name", "level_label", "parent", "chgis_id", "governing_witness"),
    )


class Day:
    """One day in every calendar dianli knows: Gregorian, the Qing almanac (or the calendar of the era that
    named it), its 干支 and solar term. ``str(day)`` is its ISO date."""

    def __init__(self, day: Date, written: str | None) -> None:
        from dianli.calendar.day import describe_day
        from dianli.calendar.written_dates import almanac_covers, day_namings, describe_named_day
        from dianli.calendar.year_names import chinese_date_label, year_name

        self.date = day
        self.written = written
        """The written date it was read from, as given (None for a Gregorian day)."""
        self.chinese_date: str | None = None
        self.year_name: str | None = None
        self.solar_term: str | None = None
        self.source: str | None = None
        if almanac_covers(day):  # the almanac's day (1645–1911), or the modern calendar's after it
            info = describe_day(day)
            self.namings = tuple(n.label for n in day_namings(day))
            self.year_ganzhi = info.year_ganzhi.name
            self.month_ganzhi: str | None = info.month_ganzhi.name if info.month_ganzhi else None
            self.day_ganzhi = info.day_ganzhi.name
            self.chinese_date = chinese_date_label(info.chinese_date, None)
            self.year_name = year_name(info.chinese_date.year, None).label
            self.solar_term = info.solar_term.name if info.solar_term else None
            self.source = info.month_source.value
        else:  # a day an earlier era names (Ming, Southern Ming, 後金 …)
            described = describe_named_day(day)
            self.namings = tuple(n.label for n in described.namings)
            self.year_ganzhi = described.year_ganzhi.name
            self.month_ganzhi = described.month_ganzhi.name if described.month_ganzhi else None
            self.day_ganzhi = described.day_ganzhi.name
        """The day as each era of the data names it (萬曆四十五年正月初一 …)."""

    @property
    def weekday(self) -> str:
        return self.date.strftime("%A")

    def as_dict(self) -> dict[str, Any]:
        """The day's fields (``date`` as ISO)."""
        return {
            "date": self.date.isoformat(),
            "weekday": self.weekday,
            "written": self.written,
            "chinese_date": self.chinese_date,
            "year_name": self.year_name,
            "namings": list(self.namings),
            "year_ganzhi": self.year_ganzhi,
            "month_ganzhi": self.month_ganzhi,
            "day_ganzhi": self.day_ganzhi,
            "solar_term": self.solar_term,
            "source": self.source,
        }

    def __str__(self) -> str:
        return self.date.isoformat()

    def __repr__(self) -> str:
        named = self.written or self.chinese_date or (self.namings[0] if self.namings else "")
        term = f", {self.solar_term}" if self.solar_term else ""
        return f"Day({self.date.isoformat()} {self.weekday}: {named}, {self.day_ganzhi}日{term})"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><th>{html.escape(k)}</th><td>{html.escape(', '.join(v) if isinstance(v, list) else str(v))}</td></tr>"
            for k, v in self.as_dict().items()
            if v not in (None, [])
        )
        return f"<table>{rows}</table>"


def date(text_or_date: str | Date) -> Day:
    """A day, given as a :class:`datetime.date`, an ISO date (``1752-03-16``) or as a gazetteer writes it
    (``乾隆十七年二月初一``, ``萬曆四十五年正月初一``): an impossible date is refused with the reason."""
    if isinstance(text_or_date, Date):
        from dianli.calendar.written_dates import read_day

        return Day(read_day(text_or_date.isoformat()).day, None)
    from dianli.calendar.written_dates import read_day

    found = read_day(text_or_date)
    return Day(found.day, text_or_date.strip() if found.written is not None else None)
