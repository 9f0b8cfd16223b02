"""Time of day: the double-hour (時辰, 初/正), the 刻, and local time from longitude.

How the Qing almanac told time, and what this module does with it:

* The 時憲書 printed its instants (e.g. a solar term) in Beijing local apparent solar time. Yuk Tung Liu
  quotes the almanac of 康熙十八年 「(四月)十二日丙子巳初初刻一分小滿四月中」 and reads it as 9:01 Beijing
  local apparent solar time (note on 1679 in chinesecalendar-py ``calendar_notes.py``;
  https://ytliu0.github.io/ChineseCalendar/). :func:`beijing_apparent_time` gives that clock.
* Qing geography measured longitude from the Beijing meridian (京師中線), east or west (偏東/偏西), e.g.
  《清會典》 「淡水厅东境滨海,偏东五度二十四分」 quoted in 臺灣通志·疆域·晷度,
  https://zh.wikisource.org/zh-hans/臺灣通志/疆域/晷度 . A place's local time differs from Beijing's by
  4 minutes of time per degree of longitude: :func:`provincial_offset_minutes`,
  :func:`local_apparent_time`.
  ASSUMPTION: that a province's almanac times were Beijing's shifted by exactly this longitude offset
  (the sources found give the longitudes, not the almanac's provincial tables themselves).
* From 1645 (時憲曆) a day has 96 刻 of 15 minutes, 8 to a 時辰 (初初刻 … 初三刻, 正初刻 … 正三刻); the
  時辰 子 runs 23:00–01:00, its first hour 子初, its second 子正. Before 1645 (大統曆) a day had 100 刻;
  :func:`ke_of_day` counts those, but the 初/正 刻 names are given only for the 96-刻 system.

Instants are UT Julian dates (``jd_utc``); local clocks are returned as naive ``datetime`` values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from dianli.calendar.ganzhi import BRANCHES, date_of_jdn
from dianli.calendar.reigns import integer_chinese
from dianli.errors import OutOfRangeError

# 京師 meridian: the Beijing Ancient Observatory (觀象臺), 116°26′ E — ASSUMPTION: modern coordinates.
BEIJING_LONGITUDE_DEG = 116.0 + 26.0 / 60.0
MINUTES_PER_DEGREE = 4.0
KE_96_FROM_YEAR = 1645
_KE_NAMES = ("初", "一", "二", "三")


def _norm_deg(x: float) -> float:
    return x % 360.0


def equation_of_time_minutes(jd_utc: float) -> float:
    """Apparent minus mean solar time, in minutes (low-precision solar theory, Meeus ch. 25/28; ±0.2 min)."""
    t = (jd_utc - 2451545.0) / 36525.0
    l0 = _norm_deg(280.46646 + 36000.76983 * t + 0.0003032 * t * t)
    m = math.radians(_norm_deg(357.52911 + 35999.05029 * t - 0.0001537 * t * t))
    c = (
        (1.914602 - 0.004817 * t - 0.000014 * t * t) * math.sin(m)
        + (0.019993 - 0.000101 * t) * math.sin(2 * m)
        + 0.000289 * math.sin(3 * m)
    )
    true_long = l0 + c
    omega = math.radians(125.04 - 1934.136 * t)
    apparent_long = math.radians(true_long - 0.00569 - 0.00478 * math.sin(omega))
    eps0 = 23.0 + (26.0 + (21.448 - 46.815 * t - 0.00059 * t * t + 0.001813 * t**3) / 60.0) / 60.0
    eps = math.radians(eps0 + 0.00256 * math.cos(omega))
    alpha = math.degrees(math.atan2(math.cos(eps) * math.sin(apparent_long), math.cos(apparent_long)))
    diff = (l0 - 0.0057183 - alpha + 180.0) % 360.0 - 180.0
    return diff * MINUTES_PER_DEGREE


def _datetime_of_jd(jd: float) -> datetime:
    jdn = math.floor(jd + 0.5)
    fraction = jd + 0.5 - jdn
    day = date_of_jdn(jdn)
    return datetime(day.year, day.month, day.day) + timedelta(seconds=round(fraction * 86400.0))


def local_mean_time(jd_utc: float, longitude_deg: float) -> datetime:
    """Local mean solar time at a longitude (east positive)."""
    return _datetime_of_jd(jd_utc + longitude_deg / 360.0)


def local_apparent_time(jd_utc: float, longitude_deg: float) -> datetime:
    """Local apparent (sundial) solar time at a longitude (east positive)."""
    return _datetime_of_jd(jd_utc + longitude_deg / 360.0 + equation_of_time_minutes(jd_utc) / 1440.0)


def beijing_apparent_time(jd_utc: float) -> datetime:
    """The clock of the Qing almanac: apparent solar time at the Beijing meridian."""
    return local_apparent_time(jd_utc, BEIJING_LONGITUDE_DEG)


def provincial_offset_minutes(longitude_deg: float) -> float:
    """Minutes to add to a Beijing time to get local time at ``longitude_deg`` (福州 ≈ +11.5)."""
    return (longitude_deg - BEIJING_LONGITUDE_DEG) * MINUTES_PER_DEGREE


def provincial_time(beijing_time: datetime, longitude_deg: float) -> datetime:
    """A Beijing almanac time read at a place east or west of Beijing."""
    return beijing_time + timedelta(minutes=provincial_offset_minutes(longitude_deg))


@dataclass(frozen=True, slots=True)
class DoubleHour:
    """A time of day as 時辰, 初/正, 刻 and 分 (96-刻 system)."""

    branch: str
    second_half: bool  # False = 初 (the first hour), True = 正
    ke: int  # 0..3 within the hour
    minute: int  # 0..14 within the 刻

    @property
    def hour_label(self) -> str:
        return self.branch + ("正" if self.second_half else "初")

    @property
    def label(self) -> str:
        """巳初初刻一分."""
        out = f"{self.hour_label}{_KE_NAMES[self.ke]}刻"
        if self.minute:
            out += f"{integer_chinese(self.minute)}分"
        return out

    def __str__(self) -> str:
        return self.label


def double_hour(clock: datetime) -> DoubleHour:
    """The 時辰/刻/分 of a local clock time (96-刻 system, in force from 1645)."""
    minutes = clock.hour * 60 + clock.minute
    shifted = (minutes + 60) % 1440  # 子初 starts at 23:00
    branch_index, within = divmod(shifted, 120)
    half, within_hour = divmod(within, 60)
    ke, minute = divmod(within_hour, 15)
    return DoubleHour(BRANCHES[branch_index], half == 1, ke, minute)


def double_hour_branch(clock: datetime) -> str:
    """Only the 時辰 branch of a clock time (子 for 23:00–00:59)."""
    return double_hour(clock).branch


def ke_of_day(clock: datetime, year: int) -> int:
    """The 刻 of the day counted from midnight: 0‥95 from 1645, 0‥99 before (大統曆)."""
    if year < 1:
        raise OutOfRangeError("year", year, "1 or later")
    per_day = 96 if year >= KE_96_FROM_YEAR else 100
    seconds = clock.hour * 3600 + clock.minute * 60 + clock.second
    return seconds * per_day // 86400
