"""Date rules, table-driven, with the edge years the issue names."""

from __future__ import annotations

from datetime import date

import pytest

from dianli.calendar.date_rules import fasting_window, wanshou_dates
from dianli.calendar.lunisolar import DateSource, to_chinese
from dianli.places.places import get_place
from dianli.rites.observances import observances_for

FUZHOU = get_place("fuzhou")


def _day(observance: str, year: int, place: str = "fuzhou") -> date:
    found = [
        o
        for o in observances_for(get_place(place), year, include_related=False)
        if o.observance_id == observance and o.day is not None
    ]
    assert len(found) == 1, found
    assert found[0].day is not None
    return found[0].day


@pytest.mark.parametrize(
    ("observance", "year", "expected", "chinese"),
    [
        # ordinary year
        ("xianshi-spring", 1752, date(1752, 3, 20), "乾隆十七年二月初五"),
        ("sheji-spring", 1752, date(1752, 3, 21), "乾隆十七年二月初六"),
        ("xianshi-autumn", 1752, date(1752, 9, 16), "乾隆十七年八月初九"),
        # 仲月 followed by a leap month (1765 閏二月): the regular 二月; its first 丁 is also its first day
        ("xianshi-spring", 1765, date(1765, 2, 20), "乾隆三十年二月初一"),
        ("sheji-spring", 1765, date(1765, 2, 21), "乾隆三十年二月初二"),
        # 閏八月 (1718): the regular 八月; its first 丁 is its first day
        ("xianshi-autumn", 1718, date(1718, 8, 26), "康熙五十七年八月初一"),
        # first 戊 on the first day
        ("sheji-spring", 1739, date(1739, 3, 10), "乾隆四年二月初一"),
        # first 巳 on the first day (1752) and after 上旬 (1664, day 12)
        ("shanchuan-spring", 1752, date(1752, 3, 16), "乾隆十七年二月初一"),
        ("shanchuan-spring", 1664, date(1664, 3, 9), "康熙三年二月十二"),
        # 立春 in the twelfth month of the previous year: 迎春 on its eve, 鞭春 on the day
        ("yingchun", 1752, date(1752, 2, 3), "乾隆十六年十二月十九"),
        ("bianchun", 1752, date(1752, 2, 4), "乾隆十六年十二月二十"),
        # the 辰 day after 冬至
        ("yingchun-songniu", 1752, date(1752, 12, 28), "乾隆十七年十一月廿三"),
        # 霜降, 清明 and fixed lunar days
        ("qidao", 1752, date(1752, 10, 23), "乾隆十七年九月十七"),
        ("litan-qingming", 1752, date(1752, 4, 4), "乾隆十七年二月二十"),
        ("litan-zhongyuan", 1752, date(1752, 8, 23), "乾隆十七年七月十五"),
        ("litan-winter", 1752, date(1752, 11, 6), "乾隆十七年十月初一"),
        ("xiangyinjiu-spring", 1752, date(1752, 2, 29), "乾隆十七年正月十五"),
        ("guandi-birthday", 1752, date(1752, 6, 24), "乾隆十七年五月十三"),
    ],
)
def test_rule_days(observance: str, year: int, expected: date, chinese: str) -> None:
    day = _day(observance, year)
    assert day == expected
    assert to_chinese(day).label == chinese


def test_leap_month_never_hosts_the_rite() -> None:
    day = _day("xianshi-spring", 1765)
    assert not to_chinese(day).leap


def test_edge_notes_are_given() -> None:
    occ = [
        o
        for o in observances_for(FUZHOU, 1765, ["xianshi"], include_related=False)
        if o.observance_id == "xianshi-spring"
    ]
    assert any("閏二月" in n for n in occ[0].notes)
    assert any("first day" in n for n in occ[0].notes)
    late = [
        o
        for o in observances_for(FUZHOU, 1664, ["shanchuan"], include_related=False)
        if o.observance_id == "shanchuan-spring"
    ]
    assert any("after 上旬" in n for n in late[0].notes)


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        (1752, [date(1752, 9, 20)]),  # 乾隆 八月十三
        (
            1722,
            [date(1722, 5, 3)],
        ),  # 康熙 died 十一月十三, after his birthday; 雍正's 十月三十 came before his accession
        (1735, []),  # 雍正 died 八月二十三 before his 十月三十; 乾隆's 八月十三 came before his accession
        (1820, [date(1820, 9, 16)]),  # 嘉慶 died 七月二十五; 道光's 八月初十 follows his accession
        (1861, [date(1861, 7, 16)]),  # 咸豐 died 七月十七, after his 六月初九
        (1912, []),
    ],
)
def test_wanshou_emperor_died_mid_year(year: int, expected: list[date]) -> None:
    assert [d.day for d in wanshou_dates(year)] == expected


def test_wanshou_day_thirty_in_short_month() -> None:
    (day,) = wanshou_dates(1645)  # 順治 正月三十; 順治二年正月 has 29 days
    assert to_chinese(day.day).label == "順治二年正月廿九"
    assert day.assumption is not None and "last day" in day.assumption


def test_fasting_window_and_inspection() -> None:
    rite = date(1752, 3, 20)
    assert fasting_window(rite) == (date(1752, 3, 17), date(1752, 3, 18), date(1752, 3, 19))
    related = [
        o
        for o in observances_for(FUZHOU, 1752, ["xianshi"])
        if o.part is not None and o.observance_id == "xianshi-spring"
    ]
    by_part = {(o.part, o.day) for o in related}
    assert ("sanzhai", date(1752, 3, 17)) in by_part and ("sanzhai", date(1752, 3, 18)) in by_part
    assert ("zhizhai", date(1752, 3, 19)) in by_part and ("shengsheng", date(1752, 3, 19)) in by_part


def test_gengji_default_is_labelled_and_overridable() -> None:
    (occ,) = [o for o in observances_for(FUZHOU, 1752, ["gengji"], include_related=False)]
    assert occ.source is DateSource.ASSUMPTION and occ.assumption
    given = date(1752, 4, 2)
    (occ,) = [o for o in observances_for(FUZHOU, 1752, ["gengji"], {"gengji": given}, include_related=False)]
    assert occ.day == given and occ.source is DateSource.ASSUMPTION
    assert observances_for(FUZHOU, 1726, ["gengji"]) == ()  # the rule of 雍正五年


def test_litan_gao_chenghuang_three_days_before() -> None:
    related = [o for o in observances_for(FUZHOU, 1752, ["litan"]) if o.part == "gao-chenghuang"]
    assert {o.day for o in related} == {date(1752, 4, 1), date(1752, 8, 20), date(1752, 11, 3)}


def test_monthly_rules_cover_leap_months() -> None:
    shicai = [o for o in observances_for(FUZHOU, 1765, ["shicai"]) if o.day is not None]
    assert len(shicai) == 13
    assert any(o.chinese_date is not None and o.chinese_date.leap for o in shicai)
