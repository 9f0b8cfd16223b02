"""The sexagenary cycle (干支): stems, branches, their 五行 and 陰陽, 納音, and the 干支 of years, months and days.

Conventions:

* A :class:`Sexagenary` is an index 0‥59 into the cycle, 0 = 甲子, 59 = 癸亥.
* The day cycle is continuous: JDN 2451545 (2000-01-01) is 戊午 (index 54), so the index of a day is
  ``(jdn + 49) % 60``.
* The year 干支 of Chinese year *y* (the year whose 正月初一 falls in Gregorian year *y*) is
  ``(y - 4) % 60`` (1984 = 甲子).
* Month 干支 follow 建: 正月 is 寅 and its stem follows the 五虎遁 rule (甲/己 years start at 丙寅).
  Leap months have no 干支 of their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import Enum

from dianli.errors import OutOfRangeError, UnknownValueError

STEMS: tuple[str, ...] = ("甲", "乙", "丙", "丁", "戊", "己", "庚", "辛", "壬", "癸")
BRANCHES: tuple[str, ...] = ("子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥")
ZODIAC_ANIMALS: tuple[str, ...] = ("鼠", "牛", "虎", "兔", "龍", "蛇", "馬", "羊", "猴", "雞", "狗", "豬")

_JDN_OF_ORDINAL_ZERO = 1721425  # date.toordinal() + this = Julian Day Number (at noon)


class Element(Enum):
    """五行."""

    WOOD = "木"
    FIRE = "火"
    EARTH = "土"
    METAL = "金"
    WATER = "水"


class Polarity(Enum):
    """陰陽."""

    YANG = "陽"
    YIN = "陰"


_STEM_ELEMENTS: tuple[Element, ...] = (
    Element.WOOD,
    Element.WOOD,
    Element.FIRE,
    Element.FIRE,
    Element.EARTH,
    Element.EARTH,
    Element.METAL,
    Element.METAL,
    Element.WATER,
    Element.WATER,
)
_BRANCH_ELEMENTS: tuple[Element, ...] = (
    Element.WATER,  # 子
    Element.EARTH,  # 丑
    Element.WOOD,  # 寅
    Element.WOOD,  # 卯
    Element.EARTH,  # 辰
    Element.FIRE,  # 巳
    Element.FIRE,  # 午
    Element.EARTH,  # 未
    Element.METAL,  # 申
    Element.METAL,  # 酉
    Element.EARTH,  # 戌
    Element.WATER,  # 亥
)

# 納音: one name per pair of cycle positions (甲子乙丑 海中金, 丙寅丁卯 爐中火, …).
NAYIN_NAMES: tuple[str, ...] = (
    "海中金",
    "爐中火",
    "大林木",
    "路旁土",
    "劍鋒金",
    "山頭火",
    "澗下水",
    "城頭土",
    "白蠟金",
    "楊柳木",
    "泉中水",
    "屋上土",
    "霹靂火",
    "松柏木",
    "長流水",
    "沙中金",
    "山下火",
    "平地木",
    "壁上土",
    "金箔金",
    "覆燈火",
    "天河水",
    "大驛土",
    "釵釧金",
    "桑柘木",
    "大溪水",
    "沙中土",
    "天上火",
    "石榴木",
    "大海水",
)
_ELEMENT_BY_CHAR: dict[str, Element] = {e.value: e for e in Element}


@dataclass(frozen=True, slots=True)
class NaYin:
    """The 納音 of a sexagenary pair: its name (e.g. 海中金) and its element (the last character)."""

    name: str
    element: Element


@dataclass(frozen=True, slots=True, order=True)
class Sexagenary:
    """A position in the sexagenary cycle, 0 = 甲子 … 59 = 癸亥."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < 60:
            raise OutOfRangeError("sexagenary index", self.index, "0..59")

    @property
    def stem_index(self) -> int:
        return self.index % 10

    @property
    def branch_index(self) -> int:
        return self.index % 12

    @property
    def stem(self) -> str:
        return STEMS[self.stem_index]

    @property
    def branch(self) -> str:
        return BRANCHES[self.branch_index]

    @property
    def name(self) -> str:
        return self.stem + self.branch

    @property
    def nayin(self) -> NaYin:
        return nayin(self)

    def __str__(self) -> str:
        return self.name


def sexagenary_from_parts(stem_index: int, branch_index: int) -> Sexagenary:
    """The cycle position with this stem and branch; they must have the same parity."""
    if not 0 <= stem_index < 10:
        raise OutOfRangeError("stem index", stem_index, "0..9")
    if not 0 <= branch_index < 12:
        raise OutOfRangeError("branch index", branch_index, "0..11")
    if stem_index % 2 != branch_index % 2:
        raise UnknownValueError(
            "sexagenary pair",
            STEMS[stem_index] + BRANCHES[branch_index],
            ["a yang stem with a yang branch or a yin stem with a yin branch"],
        )
    # Chinese remainder: index ≡ stem (mod 10), ≡ branch (mod 12).
    index = (6 * stem_index - 5 * branch_index) % 60
    return Sexagenary(index)


def parse_sexagenary(text: str) -> Sexagenary:
    """``"甲子"`` → Sexagenary(0). Raises UnknownValueError for anything else."""
    names = [STEMS[i % 10] + BRANCHES[i % 12] for i in range(60)]
    if text in names:
        return Sexagenary(names.index(text))
    raise UnknownValueError("sexagenary name", text, names)


def stem_index(stem: str) -> int:
    """Index 0‥9 of a heavenly stem character."""
    if stem in STEMS:
        return STEMS.index(stem)
    raise UnknownValueError("heavenly stem", stem, STEMS)


def branch_index(branch: str) -> int:
    """Index 0‥11 of an earthly branch character."""
    if branch in BRANCHES:
        return BRANCHES.index(branch)
    raise UnknownValueError("earthly branch", branch, BRANCHES)


def stem_element(stem: str) -> Element:
    """五行 of a stem: 甲乙木, 丙丁火, 戊己土, 庚辛金, 壬癸水."""
    return _STEM_ELEMENTS[stem_index(stem)]


def branch_element(branch: str) -> Element:
    """五行 of a branch: 寅卯木, 巳午火, 申酉金, 亥子水, 辰戌丑未土."""
    return _BRANCH_ELEMENTS[branch_index(branch)]


def stem_polarity(stem: str) -> Polarity:
    """陰陽 of a stem: 甲丙戊庚壬 are 陽."""
    return Polarity.YANG if stem_index(stem) % 2 == 0 else Polarity.YIN


def branch_polarity(branch: str) -> Polarity:
    """陰陽 of a branch: 子寅辰午申戌 are 陽."""
    return Polarity.YANG if branch_index(branch) % 2 == 0 else Polarity.YIN


def nayin(value: Sexagenary) -> NaYin:
    """納音 of a cycle position (甲子 → 海中金, 金)."""
    name = NAYIN_NAMES[value.index // 2]
    return NaYin(name=name, element=_ELEMENT_BY_CHAR[name[-1]])


def jdn_of(day: date) -> int:
    """Julian Day Number of a (proleptic Gregorian) date."""
    return day.toordinal() + _JDN_OF_ORDINAL_ZERO


def date_of_jdn(jdn: int) -> date:
    """The Gregorian date of a Julian Day Number."""
    return date.fromordinal(jdn - _JDN_OF_ORDINAL_ZERO)


def day_sexagenary_of_ordinal(ordinal: int) -> Sexagenary:
    """干支 of the day with this ``date.toordinal()``."""
    return Sexagenary((ordinal + _JDN_OF_ORDINAL_ZERO + 49) % 60)


def day_sexagenary(day: date) -> Sexagenary:
    """干支 of a day (1752-03-16 → 癸巳)."""
    return day_sexagenary_of_ordinal(day.toordinal())


def year_sexagenary(chinese_year: int) -> Sexagenary:
    """干支 of the Chinese year whose New Year falls in Gregorian year ``chinese_year`` (1752 → 壬申)."""
    return Sexagenary((chinese_year - 4) % 60)


def month_sexagenary(chinese_year: int, month: int) -> Sexagenary:
    """干支 of a regular (non-leap) month by 建寅 and 五虎遁: 1752 正月 → 壬寅."""
    if not 1 <= month <= 12:
        raise OutOfRangeError("month", month, "1..12")
    year_stem = year_sexagenary(chinese_year).stem_index
    first_month_stem = (2 * (year_stem % 5) + 2) % 10  # 甲己→丙, 乙庚→戊, 丙辛→庚, 丁壬→壬, 戊癸→甲
    stem = (first_month_stem + month - 1) % 10
    branch = (month + 1) % 12  # 正月 建寅
    return sexagenary_from_parts(stem, branch)
