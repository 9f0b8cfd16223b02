"""Everything the calendar knows about one day: both calendars, the 干支, the solar term, and the sources."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from dianli.calendar.ganzhi import Sexagenary, day_sexagenary, month_sexagenary, year_sexagenary
from dianli.calendar.lunisolar import ChineseDate, DateSource, chinese_year, to_chinese
from dianli.calendar.reigns import Reign, reign_year, reigning_emperor
from dianli.calendar.solar_terms import SolarTermDay, solar_terms, term_ordinals


@dataclass(frozen=True, slots=True)
class DayInfo:
    """One day described: Gregorian and Chinese dates, 干支, solar term, reigning emperor, sources."""

    day: date
    chinese_date: ChineseDate
    reign_year: str
    year_ganzhi: Sexagenary
    month_ganzhi: Sexagenary | None  # None in a leap month
    day_ganzhi: Sexagenary
    solar_term: SolarTermDay | None
    reigning: Reign | None
    month_source: DateSource
    calendar_name: str

    @property
    def weekday(self) -> str:
        return self.day.strftime("%A")


def describe_day(day: date) -> DayInfo:
    """Describe a day (1752-03-16 → 乾隆十七年二月初一, 壬申年 癸卯月 癸巳日, …)."""
    cd = to_chinese(day)
    cy = chinese_year(cd.year)
    ordinals, _ = term_ordinals(day.year)  # the term days (the almanac's): the instants only for one of them
    found = day.toordinal()
    term = solar_terms(day.year)[ordinals.index(found)] if found in ordinals else None
    return DayInfo(
        day=day,
        chinese_date=cd,
        reign_year=reign_year(cd.year).label,
        year_ganzhi=year_sexagenary(cd.year),
        month_ganzhi=None if cd.leap else month_sexagenary(cd.year, cd.month),
        day_ganzhi=day_sexagenary(day),
        solar_term=term,
        reigning=reigning_emperor(day),
        month_source=cy.source,
        calendar_name=cy.calendar_name,
    )
