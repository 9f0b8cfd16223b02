"""Reign years (年號紀年): 順治 … 宣統 and 民國, to and from Chinese years.

A reign year is attached to a *Chinese* year (the year from one 正月初一 to the next), keyed by the
Gregorian year in which its 正月初一 falls. A reign's 元年 is the Chinese year after the one in which the
previous emperor died (or, for 嘉慶, abdicated): the rest of that year keeps the old reign name, though a
new emperor reigns. So reign *years* and reigning *emperors* are two different questions, answered by
:func:`reign_year` and :func:`reigning_emperor`.

Dates: start/end of each 年號 from zh.wikipedia 「後金及清朝年號列表」 (which cites 清實錄 and 清史稿),
https://zh.wikipedia.org/zh-tw/後金及清朝年號列表 ; deaths and accession days of the emperors are the
standard dates of that list and of the emperors' biographies.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date

from dianli.errors import OutOfRangeError, UnknownValueError

FIRST_CHINESE_YEAR = (
    1643  # 崇禎十六年: the Ming year before 順治元年, so that days just before it can be named
)
FIRST_QING_YEAR = 1644  # 順治元年
LAST_QING_CHINESE_YEAR = 1911  # 宣統三年
ROC_FIRST_YEAR = 1912  # 民國元年


@dataclass(frozen=True, slots=True)
class Reign:
    """One 年號: its name, the emperor, its first Chinese year, its last, and when the emperor's reign ended."""

    id: str
    name: str
    emperor: str  # personal name
    temple_name: str
    first_year: int  # Chinese year of 元年
    last_year: int  # last Chinese year numbered in this reign
    reign_start: date  # first day the emperor reigned (accession or predecessor's death/abdication)
    reign_end: date | None  # day of death / abdication (the successor reigns from this day)

    @property
    def years(self) -> int:
        return self.last_year - self.first_year + 1


REIGNS: tuple[Reign, ...] = (
    Reign("shunzhi", "順治", "福臨", "世祖", 1644, 1661, date(1643, 10, 8), date(1661, 2, 5)),
    Reign("kangxi", "康熙", "玄燁", "聖祖", 1662, 1722, date(1661, 2, 5), date(1722, 12, 20)),
    Reign("yongzheng", "雍正", "胤禛", "世宗", 1723, 1735, date(1722, 12, 20), date(1735, 10, 8)),
    Reign("qianlong", "乾隆", "弘曆", "高宗", 1736, 1795, date(1735, 10, 8), date(1796, 2, 9)),
    Reign("jiaqing", "嘉慶", "顒琰", "仁宗", 1796, 1820, date(1796, 2, 9), date(1820, 9, 2)),
    Reign("daoguang", "道光", "旻寧", "宣宗", 1821, 1850, date(1820, 9, 2), date(1850, 2, 25)),
    Reign("xianfeng", "咸豐", "奕詝", "文宗", 1851, 1861, date(1850, 2, 25), date(1861, 8, 22)),
    Reign("tongzhi", "同治", "載淳", "穆宗", 1862, 1874, date(1861, 8, 22), date(1875, 1, 12)),
    Reign("guangxu", "光緒", "載湉", "德宗", 1875, 1908, date(1875, 1, 12), date(1908, 11, 14)),
    Reign("xuantong", "宣統", "溥儀", "", 1909, 1911, date(1908, 11, 14), date(1912, 2, 12)),
)

ROC = Reign("minguo", "民國", "", "", ROC_FIRST_YEAR, 9999, date(1912, 1, 1), None)
# The last Ming year, only to name days before 順治元年正月初一 (e.g. the 立春 of 1644, 1644-02-05).
CHONGZHEN = Reign("chongzhen", "崇禎", "朱由檢", "思宗", 1628, 1643, date(1627, 10, 2), date(1644, 4, 25))
_ALL = (CHONGZHEN, *REIGNS, ROC)
_SIMPLIFIED = {
    "顺治": "順治",
    "乾隆": "乾隆",
    "嘉庆": "嘉慶",
    "咸丰": "咸豐",
    "光绪": "光緒",
    "宣统": "宣統",
    "民国": "民國",
}


@dataclass(frozen=True, slots=True)
class ReignYear:
    """A Chinese year named by reign: 乾隆十七年."""

    reign: Reign
    number: int

    @property
    def chinese_year(self) -> int:
        return self.reign.first_year + self.number - 1

    @property
    def label(self) -> str:
        return f"{self.reign.name}{year_number_chinese(self.number)}年"

    def __str__(self) -> str:
        return self.label


_DIGITS = "〇一二三四五六七八九"


def year_number_chinese(number: int) -> str:
    """1 → 元, 17 → 十七, 20 → 二十, 61 → 六十一 (as in 年號紀年)."""
    if number < 1:
        raise OutOfRangeError("reign year number", number, "1 or more")
    if number == 1:
        return "元"
    return integer_chinese(number)


def integer_chinese(number: int) -> str:
    """Small integers in Chinese numerals: 17 → 十七, 30 → 三十, 105 → 一百五."""
    if not 0 <= number < 1000:
        raise OutOfRangeError("integer", number, "0..999")
    if number < 10:
        return _DIGITS[number]
    hundreds, rest = divmod(number, 100)
    tens, units = divmod(rest, 10)
    out = ""
    if hundreds:
        out += _DIGITS[hundreds] + "百"
        if rest and tens == 0:
            out += "〇"
    if tens:
        out += ("" if tens == 1 and not hundreds else _DIGITS[tens]) + "十"
    if units:
        out += _DIGITS[units]
    return out


def parse_integer_chinese(text: str) -> int:
    """Inverse of :func:`integer_chinese` for 1‥999, also accepting 元, 廿, 卅 and arabic digits."""
    if text.isdigit():
        return int(text)
    if text == "元":
        return 1
    t = text.replace("廿", "二十").replace("卅", "三十").replace("零", "〇")
    if not t or any(c not in _DIGITS + "十百" for c in t):
        raise UnknownValueError("Chinese number", text, ["元", "一…九十九", "廿", "卅", "arabic digits"])
    total = 0
    current = 0
    for char in t:
        if char == "百":
            total += (current or 1) * 100
            current = 0
        elif char == "十":
            total += (current or 1) * 10
            current = 0
        else:
            current = _DIGITS.index(char)
    total += current
    if total < 1:
        raise UnknownValueError("Chinese number", text, ["a number of 1 or more"])
    return total


def reign_by_name(name: str) -> Reign:
    """A reign by its Chinese name (traditional or simplified) or its id (``qianlong``)."""
    key = _SIMPLIFIED.get(name, name)
    for reign in _ALL:
        if key in (reign.name, reign.id):
            return reign
    raise UnknownValueError("reign", name, [r.name for r in _ALL] + [r.id for r in _ALL])


def reign_year(chinese_year: int) -> ReignYear:
    """The reign year naming a Chinese year: 1752 → 乾隆十七年; 1912 onward → 民國."""
    if chinese_year < FIRST_CHINESE_YEAR:
        raise OutOfRangeError(
            "Chinese year",
            chinese_year,
            f"{FIRST_CHINESE_YEAR} (崇禎十六年, the year before 順治元年) or later",
        )
    for reign in _ALL:
        if reign.first_year <= chinese_year <= reign.last_year:
            return ReignYear(reign, chinese_year - reign.first_year + 1)
    raise OutOfRangeError("Chinese year", chinese_year, f"{FIRST_CHINESE_YEAR}..9999")


def chinese_year_of(reign_name: str, number: int) -> int:
    """乾隆, 17 → 1752. Raises OutOfRangeError for a year the reign did not have."""
    reign = reign_by_name(reign_name)
    if not 1 <= number <= reign.years:
        raise OutOfRangeError(f"{reign.name} year", number, f"1..{reign.years}")
    return reign.first_year + number - 1


@functools.cache
def _reign_year_re() -> re.Pattern[str]:
    """A reign year's pattern, compiled when first used (a day's answer never parses one)."""
    return re.compile(
        r"^(?P<reign>[^\d〇一二三四五六七八九十百廿卅元]+)(?P<num>[\d〇一二三四五六七八九十百廿卅元]+)年$"
    )


def parse_reign_year(text: str) -> ReignYear:
    """``"乾隆十七年"`` → ReignYear(乾隆, 17)."""
    match = _reign_year_re().match(text.strip())
    if not match:
        raise UnknownValueError("reign year", text, ["<年號><number>年, e.g. 乾隆十七年, 順治元年, 民國3年"])
    reign = reign_by_name(match.group("reign"))
    number = parse_integer_chinese(match.group("num"))
    chinese_year_of(reign.name, number)  # range check
    return ReignYear(reign, number)


def reigning_emperor(day: date) -> Reign | None:
    """The reign whose emperor reigned on ``day`` (None before 1643-10-08 or from 1912-02-12).

    A mid-year death hands over on the day of death: 1735-10-08 onward is 乾隆's reign though the year
    is still 雍正十三年. From 1796-02-09 嘉慶 reigns (乾隆 as 太上皇 until 1799 is not modelled).
    """
    for reign in REIGNS:
        end = reign.reign_end or date.max
        if reign.reign_start <= day < end:
            return reign
    return None
