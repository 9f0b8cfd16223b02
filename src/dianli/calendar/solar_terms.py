"""The 24 solar terms (節氣): their days as the almanac gave them, and their instants.

Terms are numbered within a Gregorian year, 0 = 小寒 (early January) … 23 = 冬至 (late December), the
order of the almanac table. The *day* of a term is the almanac's for 1644–1911 and the computed
(Beijing, UT+8) day otherwise; the *instant* is always computed (sxtwl), as a UT Julian date — see
:mod:`dianli.calendar.timekeeping` to read it as Beijing apparent solar time, the time the Qing almanac
printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache

from dianli.calendar import almanac, computed
from dianli.calendar.lunisolar import LAST_CHINESE_YEAR, DateSource
from dianli.calendar.reigns import FIRST_CHINESE_YEAR
from dianli.calendar.term_names import SIMPLIFIED_TERM_NAMES, SOLAR_TERMS
from dianli.errors import OutOfRangeError, UnknownValueError

_SIMPLIFIED: dict[str, str] = {simplified: name for name, simplified in SIMPLIFIED_TERM_NAMES.items()}
# 中氣 (principal terms) are the odd indices here: 大寒, 雨水, 春分 …; 節 the even ones.
PRINCIPAL = frozenset(range(1, 24, 2))


@dataclass(frozen=True, slots=True)
class SolarTermDay:
    """One solar term of one year: its day, where the day comes from, and its computed instant."""

    year: int
    index: int
    day: date
    source: DateSource
    jd_utc: float

    @property
    def name(self) -> str:
        return SOLAR_TERMS[self.index]

    @property
    def principal(self) -> bool:
        """True for a 中氣 (大寒, 雨水, 春分 …)."""
        return self.index in PRINCIPAL


def term_index(name: str) -> int:
    """Index 0‥23 of a solar term by name (traditional or simplified)."""
    key = _SIMPLIFIED.get(name, name)
    if key in SOLAR_TERMS:
        return SOLAR_TERMS.index(key)
    raise UnknownValueError("solar term", name, SOLAR_TERMS)


def _check_year(year: int) -> None:
    if not FIRST_CHINESE_YEAR <= year <= LAST_CHINESE_YEAR:
        raise OutOfRangeError("year", year, f"{FIRST_CHINESE_YEAR}..{LAST_CHINESE_YEAR}")


@cache
def term_ordinals(year: int) -> tuple[tuple[int, ...], DateSource]:
    """The 24 term days of a Gregorian year as ``date.toordinal()`` values, and their source."""
    _check_year(year)
    if almanac.TABLE_FIRST_YEAR <= year <= almanac.TABLE_LAST_YEAR:
        return almanac.almanac_row(year).term_ordinals, DateSource.ALMANAC
    return computed.sxtwl_term_ordinals(year), DateSource.COMPUTED


@cache
def solar_terms(year: int) -> tuple[SolarTermDay, ...]:
    """All 24 solar terms of a Gregorian year."""
    ordinals, source = term_ordinals(year)
    instants = computed.sxtwl_term_instants(year)
    return tuple(
        SolarTermDay(year, i, date.fromordinal(o), source, jd)
        for i, (o, jd) in enumerate(zip(ordinals, instants, strict=True))
    )


def solar_term(year: int, name: str) -> SolarTermDay:
    """One solar term of a Gregorian year by name: ``solar_term(1752, "立春")``."""
    return solar_terms(year)[term_index(name)]
