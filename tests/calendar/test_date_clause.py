from __future__ import annotations

from datetime import date

import pytest

from dianli.calendar.date_clause import date_clause, fill_date_clause
from dianli.corpus.cite import resolve
from dianli.places.places import get_place
from dianli.rites.observances import observances_for


@pytest.mark.parametrize(
    ("day", "text"),
    [
        (date(1752, 3, 20), "維乾隆十七年，歲次壬申，二月癸巳朔，越五日丁酉"),  # 上丁 of 乾隆十七年
        (date(1752, 9, 16), "維乾隆十七年，歲次壬申，八月己丑朔，越九日丁酉"),
        (date(1765, 2, 20), "維乾隆三十年，歲次乙酉，二月丁丑朔"),  # 上丁 on the first day
        (
            date(1735, 10, 10),
            "維雍正十三年，歲次乙卯，八月丁卯朔，越二十五日辛卯",
        ),  # after 雍正's death: the year keeps his name
        (date(1645, 7, 30), "維順治二年，歲次乙酉，閏六月辛巳朔，越八日戊子"),
    ],
)
def test_clause(day: date, text: str) -> None:
    # 干支 checked against lunar-python (Solar.getLunar().getDayInGanZhi())
    assert date_clause(day).text == text


def test_clause_for_the_rite_day() -> None:
    (occ,) = [
        o
        for o in observances_for(get_place("taiwan-fu"), 1752, ["xianshi"], include_related=False)
        if o.observance_id == "xianshi-spring"
    ]
    assert occ.day is not None
    assert date_clause(occ.day).day_ganzhi.stem == "丁"


@pytest.mark.parametrize(
    ("witness", "quote"),
    [
        ("taiwan-fuzhi-9", "維乾隆某年，歲次某干支，二(八)月某干支朔，越某日某干支，某官某名敢昭告於肇聖王"),
        ("fujian-tongzhi-14", "維乾隆某年歲次某干支【二八】月某干支朔越某日某干支某官某名敢昭告於"),
        ("tingzhou-fuzhi", "维乾隆某年岁次某干支，二(或八)月某干支朔，越某日某干支，某官某名"),
    ],
)
def test_fill_witness_templates(witness: str, quote: str) -> None:
    resolve(witness, quote)  # the template is the witness's own text
    filled = fill_date_clause(quote, date(1752, 3, 20), officiant="臺灣府知府某")
    assert "維乾隆十七年，歲次壬申，二月癸巳朔，越五日丁酉" in filled
    assert "某干支" not in filled and "臺灣府知府某" in filled
