"""The date clause of a 祝文 (prayer) filled for a real day.

The witnesses' prayers open with a template, e.g. (重修福建臺灣府志)
「維乾隆某年，歲次某干支，二(八)月某干支朔，越某日某干支，某官某名敢昭告於…」. For a day this module
gives the reign year, the year's 干支, the month (閏 if leap), the 干支 of the month's first day (朔),
the day's number in the month (越某日) and its 干支:
「維乾隆十七年，歲次壬申，二月癸巳朔，越五日丁酉」.

Convention (ASSUMPTION): on the first day itself the clause ends at 朔 and repeats nothing
(「二月癸巳朔」); the reign name is that of the *year* (雍正十三年 after 雍正's death).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from dianli.calendar.ganzhi import Sexagenary, day_sexagenary, day_sexagenary_of_ordinal, year_sexagenary
from dianli.calendar.lunisolar import chinese_year, to_chinese
from dianli.calendar.reigns import integer_chinese, reign_year


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


def date_clause(day: date) -> DateClause:
    """The filled date clause for ``day`` (1752-03-20 → 維乾隆十七年，歲次壬申，二月癸巳朔，越五日丁酉)."""
    cd = to_chinese(day)
    month = chinese_year(cd.year).month(cd.month, cd.leap)
    return DateClause(
        reign_year=reign_year(cd.year).label,
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


def fill_date_clause(template: str, day: date, officiant: str | None = None) -> str:
    """Fill the date clause (and 某官某名, if ``officiant`` is given) in a witness's prayer template.

    The template's own reign name (乾隆) is replaced by the reign of the day's year."""
    clause = date_clause(day).text
    filled = _TEMPLATE.sub(clause, template, count=1)
    if officiant is not None:
        filled = _OFFICIANT.sub(officiant, filled, count=1)
    return filled
