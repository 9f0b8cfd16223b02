"""Dated events: reign dates read from the witnesses, converted, cited and put on a timeline."""

from __future__ import annotations

from datetime import date

import pytest
from ChineseCalendar_py.era_names import era_name_lookup
from hypothesis import given, settings
from hypothesis import strategies as st
from lunar_python import Lunar

from dianli.calendar.eras import all_eras, dynasties, read_era_year
from dianli.calendar.lunisolar import to_chinese
from dianli.calendar.reigns import REIGNS, reign_year, year_number_chinese
from dianli.corpus.cite import resolve
from dianli.corpus.dated_events import (
    dated_events,
    extract_dates,
    governing_witnesses,
    julian_label,
    timeline,
)
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import witness_ids
from dianli.errors import OutOfRangeError, UnknownValueError


@pytest.mark.parametrize(
    ("era", "number", "year", "dynasty"),
    [
        ("康熙", 51, 1712, "qing"),
        ("雍正", 1, 1723, "qing"),
        ("乾隆", 8, 1743, "qing"),
        ("道光", 8, 1828, "qing"),
        ("光緒", 18, 1892, "qing"),
        ("永曆", 15, 1661, "southern-ming"),
        ("永曆", 37, 1683, "southern-ming"),
        ("崇禎", 17, 1644, "ming"),
        ("天命", 1, 1616, "later-jin"),
        ("崇德", 1, 1636, "later-jin"),
        ("萬曆", 24, 1596, "ming"),
        ("宏治", 1, 1488, "ming"),  # 弘治 written with the taboo form
        ("慶元", 6, 1200, "song"),
        ("太平興國", 4, 979, "song"),
        ("貞觀", 4, 630, "tang"),
    ],
)
def test_known_era_years(era: str, number: int, year: int, dynasty: str) -> None:
    reading = read_era_year(era, number)
    assert (reading.chinese_year, reading.era.dynasty.id) == (year, dynasty)


@pytest.mark.parametrize(
    ("text", "year", "dynasty"),
    [
        ("康熙五十一年", 1712, "qing"),
        ("雍正元年", 1723, "qing"),
        ("乾隆八年新定", 1743, "qing"),
        ("道光八年", 1828, "qing"),
        ("光绪十八年", 1892, "qing"),
        ("永历十五年", 1661, "southern-ming"),
        ("崇祯十七年", 1644, "ming"),
        ("天命元年", 1616, "later-jin"),
        ("康熙二十有二年", 1683, "qing"),
        ("乾隆廿三年", 1758, "qing"),
    ],
)
def test_dates_in_text_simplified_or_traditional(text: str, year: int, dynasty: str) -> None:
    (event,) = extract_dates(text)
    assert (event.chinese_year, event.gregorian_year, event.dynasty) == (year, year, dynasty)


@pytest.mark.parametrize(
    "text", ["一年三百六十日", "四十三年，县治归诸罗山", "維乾隆某年", "康熙六十二年", "汉高六年", "每年二月"]
)
def test_not_every_year_is_a_reign_date(text: str) -> None:
    assert extract_dates(text) == ()


@pytest.mark.parametrize(
    ("witness", "text", "expected"),
    [
        ("taiwan-xianzhi-6", "康熙五十一年二月初四日", date(1712, 3, 10)),
        ("taiwan-xianzhi-6", "康熙五十一年六月十九日", date(1712, 7, 22)),
        ("taiwan-xianzhi-6", "康熙五十一年七月二十一日", date(1712, 8, 22)),
        ("jinjiang-xianzhi-15", "嘉庆六年五月二十日", date(1801, 6, 30)),
        ("fujian-tongzhi-14-modern", "雍正十年三月初七日", date(1732, 4, 1)),
    ],
)
def test_full_dates_of_the_witnesses(witness: str, text: str, expected: date) -> None:
    """Checked against lunar-python, a computation independent of chinesecalendar-py's almanac table."""
    event = next(e for e in dated_events(witness) if e.chinese_text == text)
    assert event.gregorian_date == expected
    assert event.gregorian_year == expected.year
    lunar = Lunar.fromYmd(event.chinese_year, event.month, event.day)
    assert lunar.getSolar().toYmd() == expected.isoformat()


@pytest.mark.parametrize(
    ("text", "expected", "dynasty"),
    [
        # 明鄭 calendar: 永曆二十五年正月甲寅朔 (chinesecalendar-py's note); the Qing 時憲曆 has 癸丑 (02-09)
        ("永曆二十五年正月初一日", date(1671, 2, 10), "southern-ming"),
        ("乾隆十七年二月癸巳", date(1752, 3, 16), "qing"),  # a 干支 day within the month
        ("乾隆十七年二月朔", date(1752, 3, 16), "qing"),
        ("道光四年十二月三十日", date(1825, 2, 17), "qing"),
        ("天啟四年七月初一日", date(1624, 8, 14), "ming"),
        ("慶元六年三月初九日", date(1200, 4, 30), "song"),  # 朱熹's death, Julian 1200-04-23
    ],
)
def test_day_conversion_in_each_calendar(text: str, expected: date, dynasty: str) -> None:
    (event,) = extract_dates(text)
    assert (event.gregorian_date, event.dynasty) == (expected, dynasty)


def test_a_date_before_the_gregorian_reform_says_its_julian_day() -> None:
    (event,) = extract_dates("慶元六年三月初九日")
    assert julian_label(date(1200, 4, 30)) == "1200-04-23"
    assert any("Julian calendar 1200-04-23" in n for n in event.notes)


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("康熙五十八年庚子", "庚子 is not 1719's 己亥"),
        ("乾隆十七年閏五月初一", "has no 閏5月"),
        ("宏治元年", "宏 for 弘"),
    ],
)
def test_what_does_not_check_is_noted(text: str, note: str) -> None:
    (event,) = extract_dates(text)
    assert any(note in n for n in event.notes)


def test_an_ambiguous_era_name_is_read_by_the_year_the_text_was_written() -> None:
    both = read_era_year("至元", 3)
    assert both.chinese_year == 1266 and [a.first_year for a in both.alternatives] == [1335]
    early = read_era_year("至元", 3, written_by=1300)
    assert early.chinese_year == 1266 and not early.ambiguous
    with pytest.raises(OutOfRangeError):
        read_era_year("康熙", 62)
    with pytest.raises(UnknownValueError):
        read_era_year("某某", 1)


def test_the_dynasties_in_order_of_preference() -> None:
    assert [d.id for d in dynasties()][:4] == ["qing", "southern-ming", "later-jin", "ming"]


@pytest.mark.parametrize("year", range(1645, 1912))
def test_the_qing_reigns_agree_with_chinesecalendar_py(year: int) -> None:
    assert reign_year(year).label in era_name_lookup("ChiT", year, "default")


def test_package_eras_have_the_years_of_chinesecalendar_py() -> None:
    eras = {(e.name, e.dynasty.id): (e.first_year, e.last_year) for e in all_eras()}
    assert eras[("永曆", "southern-ming")] == (1647, 1683)
    assert eras[("崇禎", "ming")] == (1628, 1644)
    assert eras[("萬曆", "ming")] == (1573, 1620)


WITNESSES = witness_ids()


@pytest.mark.parametrize("witness", WITNESSES)
def test_every_quote_resolves_as_a_citation_and_holds_its_date(witness: str) -> None:
    for event in dated_events(witness):
        found = resolve(event.witness, event.quote, event.section)
        assert fold(event.chinese_text) in fold(found.passage)
        assert event.section == found.section.id or event.section.startswith(found.section.id)


@pytest.mark.parametrize(
    ("witness", "count_at_least", "example"),
    [
        ("zhuluo-xianzhi-4", 10, "康熙五十四年"),
        ("taiwan-fuzhi-9", 50, "雍正元年"),
        ("taiwan-xianzhi-6", 20, "康熙五十一年六月十九日"),
        ("penghu-jilue-2", 20, "天启四年七月"),
        ("gemalan-tingzhi-3", 20, "宏治元年"),
    ],
)
def test_events_per_witness(witness: str, count_at_least: int, example: str) -> None:
    events = dated_events(witness)
    assert len(events) >= count_at_least
    assert example in {e.chinese_text for e in events}


def test_a_header_of_the_transcriber_is_no_event() -> None:
    """The editorial header of 諸羅縣志 names 康熙五十五年 as its date: a gap, never text."""
    assert all(e.clause_kind != "heading" or e.quote for e in dated_events("zhuluo-xianzhi-4"))
    assert not any("卷四" in e.quote and "complete" in e.quote for e in dated_events("zhuluo-xianzhi-4"))


def test_the_timeline_of_a_place_follows_its_governing_witnesses() -> None:
    governing = [g.witness for g in governing_witnesses("諸羅縣")]
    assert governing == ["zhuluo-xianzhi-4", "taiwan-fuzhi-9"]
    events = timeline(place="諸羅縣")
    assert {e.witness for e in events} == set(governing)
    keys = [e.sort_key for e in events]
    assert keys == sorted(keys)
    assert any(e.chinese_text == "康熙五十四年" and e.witness == "zhuluo-xianzhi-4" for e in events)
    only = timeline(place="諸羅縣", from_year=1700, until_year=1720)
    assert only and all(1700 <= e.gregorian_year <= 1720 for e in only)


@pytest.mark.parametrize(
    ("kwargs", "accepted"),
    [
        ({"place": "火星"}, "臺灣省"),
        ({"witness": "nowhere"}, "taiwan-fuzhi-9"),
        ({"place": "諸羅縣", "witness": "jinmen-zhi-4"}, "zhuluo-xianzhi-4"),
    ],
)
def test_bad_selection_names_what_is_accepted(kwargs: dict[str, str], accepted: str) -> None:
    with pytest.raises(UnknownValueError) as error:
        timeline(**kwargs)  # type: ignore[arg-type]
    assert accepted in str(error.value)


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            list("康熙乾隆永曆崇禎天命元二三四五六七八九十廿卅〇有年載閏正月初日朔甲子癸亥，。a1 ")
        ),
        max_size=40,
    )
)
def test_the_extractor_never_crashes(text: str) -> None:
    for event in extract_dates(text):
        assert event.chinese_text and fold(event.chinese_text) in fold(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(REIGNS).flatmap(lambda r: st.tuples(st.just(r), st.integers(1, r.years))))
def test_a_qing_reign_year_round_trips(pair: tuple[object, int]) -> None:
    reign, number = pair
    text = f"{reign.name}{year_number_chinese(number)}年"  # type: ignore[attr-defined]
    (event,) = extract_dates(text)
    assert (event.era, event.year_number) == (reign.name, number)  # type: ignore[attr-defined]
    assert event.chinese_year == reign.first_year + number - 1  # type: ignore[attr-defined]


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=date(1644, 3, 1), max_value=date(1911, 12, 31)))
def test_a_qing_day_round_trips(day: date) -> None:
    (event,) = extract_dates(to_chinese(day).label)
    assert event.gregorian_date == day
