from __future__ import annotations

from datetime import datetime

import pytest

from dianli.calendar.solar_terms import solar_term
from dianli.calendar.timekeeping import (
    beijing_apparent_time,
    double_hour,
    equation_of_time_minutes,
    ke_of_day,
    local_mean_time,
    provincial_offset_minutes,
)


@pytest.mark.parametrize(
    ("clock", "label"),
    [
        ((9, 1), "巳初初刻一分"),  # 「巳初初刻一分小滿」 = 9:01 (Liu, on the 康熙十八年 almanac)
        ((23, 0), "子初初刻"),
        ((0, 0), "子正初刻"),
        ((0, 59), "子正三刻十四分"),
        ((1, 0), "丑初初刻"),
        ((12, 30), "午正二刻"),
        ((22, 59), "亥正三刻十四分"),
    ],
)
def test_double_hour(clock: tuple[int, int], label: str) -> None:
    assert double_hour(datetime(1752, 1, 1, *clock)).label == label


@pytest.mark.parametrize(
    ("clock", "year", "ke"),
    [((0, 0), 1752, 0), ((12, 0), 1752, 48), ((23, 59), 1752, 95), ((12, 0), 1644, 50), ((23, 59), 1644, 99)],
)
def test_ke_of_day(clock: tuple[int, int], year: int, ke: int) -> None:
    assert ke_of_day(datetime(year, 1, 1, *clock), year) == ke


@pytest.mark.parametrize(
    ("jd", "minutes"), [(2451545 + 42, -14.2), (2451545 + 307, 16.4), (2451545 + 103, 0.0)]
)
def test_equation_of_time(jd: float, minutes: float) -> None:
    assert abs(equation_of_time_minutes(jd) - minutes) < 0.6


def test_provincial_offsets() -> None:
    assert provincial_offset_minutes(119.30) == pytest.approx(11.49, abs=0.05)  # 福州 east of Beijing
    assert provincial_offset_minutes(116.0 + 26.0 / 60.0) == 0.0


def test_local_mean_time_at_120e_is_beijing_standard_time() -> None:
    term = solar_term(2023, "春分")
    assert local_mean_time(term.jd_utc, 120.0).strftime("%H:%M") == "05:24"


def test_computed_instant_versus_the_almanac_1679() -> None:
    """The almanac printed 小滿 1679 at 巳初初刻一分 (9:01); the modern instant is later the same day.
    Days come from the almanac table; instants are computed, and this one differs by about 1¾ hours."""
    clock = beijing_apparent_time(solar_term(1679, "小滿").jd_utc)
    assert clock.date().isoformat() == "1679-05-21"
    assert 9 <= clock.hour <= 11
