"""Fidelity to the Qing almanac as reconstructed by Yuk Tung Liu, 1645–1911.

The authority is decoded twice: by this project (``dianli.calendar``) and by chinesecalendar-py's own
functions (``default_Chinese_year_data`` and ``calendrical_solar_terms_default``, driven through a small
stand-in for its ``calendar_conversion`` object, which needs pandas only for ephemerides we do not use).
Every month start, every leap month and the day of every one of the 24 solar terms must agree.

The modern computations are then measured against the authority: lunar-python (the issue's figure was
237 of 6,408 solar-term days; this lunar-python puts 240 on another day) and sxtwl.
"""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from ChineseCalendar_py import calendar_calculation as cc
from ChineseCalendar_py.names import default_calendars_names

from dianli.calendar import computed
from dianli.calendar.lunisolar import chinese_year
from dianli.calendar.solar_terms import solar_terms
from dianli.calendar.term_names import SOLAR_TERMS

YEARS = range(1645, 1912)
RITE_TERMS = frozenset({"立春", "清明", "霜降", "冬至"})


def _package_calendar() -> Any:
    """The attributes of chinesecalendar-py's calendar_conversion that its default decoder reads."""
    from importlib import resources

    path = resources.files("ChineseCalendar_py").joinpath("default_calendar_M105_2202.csv")
    data = np.loadtxt(str(path), delimiter=",", skiprows=1, dtype="i")
    years, names = default_calendars_names("ChiT")
    return SimpleNamespace(
        lang="ChiT",
        ybeg=-3500,
        ybeg_default=int(data[0, 0]) + 1,
        yend=int(data[-1, 0]) - 1,
        calData=data[:, 1:15],
        calSterm=data[:, 15:],
        dcal_years=np.array(years),
        dcal_names=names,
    )


CAL = _package_calendar()
JD_ORDINAL_OFFSET = 1721425


def _package_months(y: int) -> list[tuple[int, bool, int, int]]:
    jd0 = int(np.floor(cc.getJDm(y - 1, 12, 31) + 0.6))
    out = []
    for m in cc.default_Chinese_year_data(CAL, y)["cm"]:
        out.append((abs(int(m["cm"])), int(m["cm"]) < 0, jd0 + int(m["d"]) - JD_ORDINAL_OFFSET, int(m["n"])))
    return out


def test_months_and_leap_months_equal_the_authority() -> None:
    mismatches = []
    for y in YEARS:
        ours = [(m.number, m.leap, m.first_ordinal, m.length_days) for m in chinese_year(y).months]
        theirs = _package_months(y)
        if ours != theirs:
            mismatches.append((y, ours, theirs))
    assert mismatches == []


def test_leap_month_count() -> None:
    leaps = [y for y in YEARS if chinese_year(y).leap_month is not None]
    assert 95 <= len(leaps) <= 103  # about 7 in 19 years
    assert chinese_year(1645).leap_month == 6  # the 閏六月 that contained 大暑 (Liu's note)


def test_every_solar_term_day_equals_the_authority() -> None:
    mismatches = []
    for y in YEARS:
        theirs = [int(jd) - JD_ORDINAL_OFFSET for jd in cc.calendrical_solar_terms_default(CAL, y)]
        ours = [t.day.toordinal() for t in solar_terms(y)]
        mismatches += [
            (y, SOLAR_TERMS[i]) for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b
        ]
    assert len(SOLAR_TERMS) * len(YEARS) == 6408
    assert mismatches == []


@pytest.mark.parametrize(
    ("day", "what"),
    [
        (date(1662, 2, 18), "康熙元年正月初一 moved a day earlier (Liu's note on 1662)"),
        (date(1679, 5, 21), "小滿 on 四月十二 as printed in the 康熙十八年 almanac (Liu's note on 1679)"),
    ],
)
def test_documented_years(day: date, what: str) -> None:
    if day.month == 2:
        assert chinese_year(1662).months[0].first_day == day, what
    else:
        assert next(t for t in solar_terms(1679) if t.name == "小滿").day == day, what


def _term_disagreements(ordinals_of: Any) -> list[tuple[int, str]]:
    out = []
    for y in YEARS:
        table = [t.day.toordinal() for t in solar_terms(y)]
        out += [
            (y, SOLAR_TERMS[i]) for i, (a, b) in enumerate(zip(table, ordinals_of(y), strict=True)) if a != b
        ]
    return out


def test_lunar_python_alone_misplaces_solar_terms() -> None:
    diffs = _term_disagreements(computed.lunar_python_term_ordinals)
    assert len(diffs) == 240  # of 6,408 (the issue measured 237 with another lunar-python)
    assert len([d for d in diffs if d[1] in RITE_TERMS]) == 42
    assert len([d for d in diffs if d[0] < 1740]) > 3 * len([d for d in diffs if d[0] >= 1740])


def test_sxtwl_alone_misplaces_solar_terms() -> None:
    assert len(_term_disagreements(computed.sxtwl_term_ordinals)) == 222


def test_lunar_python_months_agree_with_the_authority() -> None:
    """lunar-python carries the historical month starts: every month 1645–1911 agrees."""
    for y in YEARS:
        theirs = [(m.number, m.leap, m.first_ordinal) for m in computed.lunar_python_months(y)]
        assert [(m.number, m.leap, m.first_ordinal) for m in chinese_year(y).months] == theirs, y


def test_computed_years_cross_checked() -> None:
    """Outside the table, sxtwl (used) and lunar-python (check) agree on every month start and term day of
    1912–2200 except one month start: 2057 九月初一 (sxtwl 09-28, lunar-python 09-29)."""
    from dianli.calendar.computed import cross_check_year

    disagreements = [d for y in range(1912, 2201) for d in cross_check_year(y)]
    assert [(d.year, d.item) for d in disagreements] == [(2057, "months")]
    assert "9:2057-09-28" in disagreements[0].sxtwl
    assert "9:2057-09-29" in disagreements[0].lunar_python
