"""The date clause of a 祝文 (prayer) filled for a real day.

The witnesses' prayers open with a template, e.g. (重修福建臺灣府志)
「維乾隆某年，歲次某干支，二(八)月某干支朔，越某日某干支，某官某名敢昭告於…」. For a day this module
gives the reign year, the year's 干支, the month (閏 if leap), the 干支 of the month's first day (朔),
the day's number in the month (越某日) and its 干支:
「維乾隆十七年，歲次壬申，二月癸巳朔，越五日丁酉」.

Convention (ASSUMPTION): on the first day itself the clause ends at 朔 and repeats nothing
(「二月癸巳朔」); the reign name is that of the *year* (雍正十三年 after 雍正's death).

:func:`fill_date_blanks` fills every other way the witnesses write a prayer's date, piece by piece:
「維某年月日」 and 「維某年某月某日」 (維乾隆十七年二月初五日), 「維康熙某年、某甲子二月，某甲子朔，越某日某甲子」
(甲子 for 干支), 「越某日，」 without the day's 干支, 「×月」 (the month).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from dianli.calendar.ganzhi import Sexagenary, day_sexagenary, day_sexagenary_of_ordinal, year_sexagenary
from dianli.calendar.lunisolar import DAY_NAMES, chinese_year, to_chinese
from dianli.calendar.reigns import integer_chinese
from dianli.calendar.year_names import clause_year


@dataclass(frozen=True, slots=True)
class DateClause:
    """The parts of 「維<reign year>，歲次<干支>，<month><朔干支>朔，越<n>日<干支>」."""

    reign_year: str
    year_ganzhi: Sexagenary
    month_label: str
    new_moon_ganzhi: Sexagenary
    day_number: int
    day_ganzhi: Sexagenary

    @property
    def text(self) -> str:
        out = f"維{self.reign_year}，歲次{self.year_ganzhi}，{self.month_label}{self.new_moon_ganzhi}朔"
        if self.day_number > 1:
            out += f"，越{integer_chinese(self.day_number)}日{self.day_ganzhi}"
        return out

    def __str__(self) -> str:
        return self.text


def date_clause(day: date, region: str | None = None) -> DateClause:
    """The filled date clause for ``day`` (1752-03-20 → 維乾隆十七年，歲次壬申，二月癸巳朔，越五日丁酉).

    After 1911 the year is named as at the place's ``region`` (:func:`~dianli.calendar.year_names.clause_year`:
    民國 where that calendar is in use, else 公元 and the Gregorian number)."""
    cd = to_chinese(day)
    month = chinese_year(cd.year).month(cd.month, cd.leap)
    return DateClause(
        reign_year=clause_year(cd.year, region),
        year_ganzhi=year_sexagenary(cd.year),
        month_label=cd.month_label,
        new_moon_ganzhi=day_sexagenary_of_ordinal(month.first_ordinal),
        day_number=cd.day,
        day_ganzhi=day_sexagenary(day),
    )


# The template as the witnesses write it: punctuation optional, the month as 二(八), 【二八】, 二(或八) …,
# 朔 sometimes displaced after a comma (汀州府志: 「二(或八)月某干支，朔越某日某干支」).
_TEMPLATE = re.compile(
    r"[維维](?P<reign>\S{2})某年[，,]?\s*(?:歲|岁)次某干支[，,]?\s*"
    r"(?:二\(八\)|二（八）|【二八】|二\(或八\)|二（或八）|某)?月某干支[，,]?\s*朔[，,]?\s*越某日某干支"
)
_OFFICIANT = re.compile(r"某官某名")


def fill_date_clause(
    template: str, day: date, officiant: str | None = None, region: str | None = None
) -> str:
    """Fill the date clause (and 某官某名, if ``officiant`` is given) in a witness's prayer template.

    The template's own reign name (乾隆) is replaced by the reign of the day's year."""
    clause = date_clause(day, region).text
    filled = _TEMPLATE.sub(clause, template, count=1)
    if officiant is not None:
        filled = _OFFICIANT.sub(officiant, filled, count=1)
    return filled


_GZ = r"某(?:干支|甲子)"
_SEP = r"[，,、]?\s*"
_MONTH = r"(?:閏|闰)?(?:正|二|三|四|五|六|七|八|九|十|十一|十二|冬|臘|腊)"
_REIGN_YEAR = re.compile(
    r"(?P<wei>[維维惟])(?:(?P<reign>[^\s某，,、：:]{2})(?=某年))?某年(?P<md>(?:某)?月(?:某)?日)?"
)
_YEAR_GZ = re.compile(r"(?P<ci>[歲岁]次)" + _GZ)
_BARE_YEAR_GZ = re.compile(_GZ + r"(?=" + _SEP + _MONTH + "月)")
_NEW_MOON = re.compile(r"(?P<month>" + _MONTH + r")月(?P<a>" + _SEP + r")" + _GZ + r"(?P<b>" + _SEP + r")朔")
_DAY = re.compile(r"(?P<lead>[，,]?\s*)越某日(?P<gz>" + _GZ + r")?")
_MONTH_X = re.compile(r"[×Ｘ]月")


def fill_date_blanks(template: str, day: date, region: str | None = None) -> str:
    """Every date blank of a prayer filled for ``day``: the full clause (:func:`fill_date_clause`), then the
    pieces other witnesses write (「維某年月日」, 「某甲子」 for 某干支, 「越某日」 alone, 「×月」); the year
    is named as at the place's ``region`` (see :func:`date_clause`)."""
    clause = date_clause(day, region)
    text = _TEMPLATE.sub(clause.text, template, count=1)
    cd = to_chinese(day)
    month_day = f"{cd.month_label}{DAY_NAMES[cd.day - 1]}日"
    text = _REIGN_YEAR.sub(
        lambda m: m.group("wei") + clause.reign_year + (month_day if m.group("md") else ""), text, count=1
    )
    text = _YEAR_GZ.sub(lambda m: m.group("ci") + str(clause.year_ganzhi), text, count=1)
    text = _BARE_YEAR_GZ.sub(str(clause.year_ganzhi), text, count=1)
    text = _NEW_MOON.sub(
        lambda m: f"{clause.month_label}{m.group('a')}{clause.new_moon_ganzhi}{m.group('b')}朔", text, count=1
    )

    def day_part(m: re.Match[str]) -> str:
        if clause.day_number == 1:
            return ""
        gz = str(clause.day_ganzhi) if m.group("gz") else ""
        return f"{m.group('lead')}越{integer_chinese(clause.day_number)}日{gz}"

    text = _DAY.sub(day_part, text, count=1)
    return _MONTH_X.sub(cd.month_label, text, count=1)
