from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from lunar_python import Lunar

from dianli.calendar.eras import all_eras
from dianli.calendar.ganzhi import BRANCHES, STEMS
from dianli.calendar.historical import julian_label
from dianli.calendar.reigns import REIGNS
from dianli.calendar.written_dates import day_namings, parse_written_date
from dianli.errors import OutOfRangeError, UnknownValueError

PAIRS = yaml.safe_load((Path(__file__).parent / "data" / "written_dates.yaml").read_text(encoding="utf-8"))[
    "pairs"
]


@pytest.mark.parametrize("pair", PAIRS, ids=[p["text"] for p in PAIRS])
def test_published_pairs(pair: dict[str, object]) -> None:
    """Each published conversion: dianli's reading, and lunar-python's where it gives one."""
    expected = pair["date"]
    assert isinstance(expected, date)
    assert parse_written_date(str(pair["text"])).gregorian == expected
    if "lunar_python" in pair:
        year, month, day = pair["lunar_python"]  # type: ignore[misc]
        assert Lunar.fromYmd(year, month, day).getSolar().toYmd() == expected.isoformat()
    assert pair["source"] and pair["quote"]


@pytest.mark.parametrize(
    ("text", "expected", "label", "dynasty"),
    [
        ("萬曆四十五年正月初一", date(1617, 2, 6), "萬曆四十五年正月初一", "明"),
        ("万历四十五年正月初一", date(1617, 2, 6), "萬曆四十五年正月初一", "明"),
        ("明萬曆四十五年正月初一", date(1617, 2, 6), "萬曆四十五年正月初一", "明"),
        ("天聰三年二月初一", date(1629, 2, 23), "天聰三年二月初一", "後金"),
        ("大清乾隆十七年二月初一日", date(1752, 3, 16), "乾隆十七年二月初一", "清"),
        ("乾隆十七年歲次壬申二月癸巳朔", date(1752, 3, 16), "乾隆十七年二月初一", "清"),
        ("維乾隆十七年歲次壬申，二月癸巳朔", date(1752, 3, 16), "乾隆十七年二月初一", "清"),
        ("乾隆十七年二月初一日癸巳", date(1752, 3, 16), "乾隆十七年二月初一", "清"),
        ("乾隆十七年二月丁酉", date(1752, 3, 20), "乾隆十七年二月初五", "清"),  # 丁酉 is day 5
        ("乾隆十七年二月望", date(1752, 3, 30), "乾隆十七年二月十五", "清"),
        ("乾隆十七年正月晦", date(1752, 3, 15), "乾隆十七年正月三十", "清"),  # 正月 had 30 days
        ("乾隆十七年五月廿三", date(1752, 7, 4), "乾隆十七年五月廿三", "清"),
        ("康熙元年四月十五", date(1662, 6, 1), "康熙元年四月十五", "清"),
        ("洪武元年正月初一", date(1368, 1, 28), "洪武元年正月初一", "明"),
        ("正統十四年八月十五日", date(1449, 9, 10), "正統十四年八月十五", "明"),
        ("天順元年正月初一", date(1457, 2, 4), "天順元年正月初一", "明"),
        ("崇禎十七年三月十九日", date(1644, 4, 25), "崇禎十七年三月十九", "明"),
        ("弘光元年正月初一", date(1645, 1, 28), "弘光元年正月初一", "南明"),
        ("民國105年5月1日", date(2016, 5, 1), "民國一百〇五年五月一日", "中華民國"),
    ],
)
def test_reads(text: str, expected: date, label: str, dynasty: str) -> None:
    found = parse_written_date(text)
    assert (found.gregorian, found.label, found.era.dynasty.name) == (expected, label, dynasty)


def test_leap_month() -> None:
    """乾隆十九年 had a 閏四月 (the almanac): both 四月 and 閏四月 read, a month apart."""
    plain = parse_written_date("乾隆十九年四月初一")
    leap = parse_written_date("乾隆十九年閏四月初一")
    assert leap.leap and not plain.leap
    assert (leap.gregorian - plain.gregorian).days in (29, 30)
    assert leap.label == "乾隆十九年閏四月初一"


def test_yongli_after_the_emperor_is_noted() -> None:
    """永曆 was counted on in Taiwan by the 鄭 regime after the emperor's death in 1662: read and noted."""
    late = parse_written_date("永曆三十七年八月十八日")
    assert late.gregorian == date(1683, 10, 8)
    assert any("鄭" in n and "1683" in n for n in late.notes)
    assert not parse_written_date("永曆十五年三月初一日").notes


def test_julian_note_before_the_reform() -> None:
    found = parse_written_date("洪武元年正月初一")
    assert julian_label(found.gregorian) == "1368-01-20"
    assert any("Julian calendar 1368-01-20" in n for n in found.notes)


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("乾隆十七年閏二月初一", UnknownValueError, ["閏二月", "正月", "十二月"]),  # no such leap month
        ("萬曆四十五年正月三十", OutOfRangeError, ["30", "1..29"]),  # 29-day month
        ("乾隆十七年二月丁巳朔", UnknownValueError, ["丁巳", "癸巳"]),  # first-day 干支 wrong
        ("乾隆十七年二月初一日丙午", UnknownValueError, ["丙午", "癸巳"]),  # day 干支 wrong
        ("乾隆十七年二月癸亥", UnknownValueError, ["癸亥", "癸巳 (day 1)"]),  # 30 days: 癸巳 … 壬戌
        ("乾隆十七年歲次癸酉二月初一", UnknownValueError, ["癸酉", "壬申"]),  # year 干支 wrong
        ("天聰十二年正月初一", OutOfRangeError, ["12", "1..10"]),  # beyond the era's length
        ("乾隆六十一年正月初一", OutOfRangeError, ["61", "1..60"]),
        ("隆武五年正月初一", OutOfRangeError, ["1..4"]),
        ("紹武元年正月初一", OutOfRangeError, ["正月", "十一月..十二月"]),
        ("天聰十年五月初一", OutOfRangeError, ["五月", "正月..四月"]),  # 崇德 from 四月 1636
        ("崇德元年三月初一", OutOfRangeError, ["三月", "四月..十二月"]),
        ("清萬曆四十五年正月初一", UnknownValueError, ["清", "明"]),
        ("民國六年閏二月六日", UnknownValueError, ["閏二月", "Gregorian"]),
        ("民國六年二月三十日", OutOfRangeError, ["30", "1..28"]),
        ("民國六年二月望", UnknownValueError, ["望", "1..28"]),
        ("萬曆四十五年", UnknownValueError, ["萬曆", "<era><n>年<month>月<day>"]),
        ("萬曆四十五年正月", UnknownValueError, ["a day is missing"]),
        ("昭武元年正月初一日", UnknownValueError, ["written date"]),  # 吳三桂's 昭武 is not an era here
        ("乾隆十七年十三月初一", UnknownValueError, ["written date"]),
        ("乾隆十七年二月初十一", UnknownValueError, ["初十一"]),
        ("", UnknownValueError, ["written date"]),
    ],
)
def test_refusals_name_what_is_wrong(text: str, error: type[Exception], words: list[str]) -> None:
    with pytest.raises(error) as caught:
        parse_written_date(text)
    message = str(caught.value)
    assert "accepted:" in message or "valid:" in message
    for word in words:
        assert word in message


# --- fuzz: any text, near-dates included, is read or refused with what is accepted ------------------

_PIECES = [e.name for e in all_eras()[:60]] + [
    *STEMS,
    *BRANCHES,
    *"〇一二三四五六七八九十百廿卅元年載月日閏初朔望晦正冬臘歲次維明清大",
    "民國",
    "後金",
    "南明",
    "0",
    "1",
    "9",
    "12",
    "-",
    " ",
    "，",
    "𡒉",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join) | st.text(max_size=20))
def test_fuzz_never_a_traceback(text: str) -> None:
    try:
        found = parse_written_date(text)
    except UnknownValueError as exc:
        assert exc.accepted
    except OutOfRangeError as exc:
        assert exc.valid
    else:
        assert found.gregorian == parse_written_date(found.label).gregorian


_ERAS = [e for e in all_eras() if e.dynasty.calendar != "Gregorian" and e.first_year >= 1368]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(_ERAS).flatmap(
        lambda e: st.tuples(
            st.just(e),
            st.integers(1, e.years),
            st.sampled_from(["", "閏"]),
            st.integers(1, 12),
            st.integers(1, 30),
            st.sampled_from(["", "日"]),
        )
    )
)
def test_fuzz_era_dates(parts: tuple[object, int, str, int, int, str]) -> None:
    """Any era, year, month and day: converted and named back the same way, or refused with reason."""
    era, number, leap, month, day, suffix = parts
    from dianli.calendar.eras import Era
    from dianli.calendar.lunisolar import DAY_NAMES, MONTH_NAMES

    assert isinstance(era, Era)
    text = f"{era.label(number)}{leap}{MONTH_NAMES[month - 1]}月{DAY_NAMES[day - 1]}{suffix}"
    try:
        found = parse_written_date(text)
    except UnknownValueError as exc:
        assert exc.accepted
        return
    except OutOfRangeError as exc:
        assert exc.valid
        return
    assert (found.month, found.leap, found.day) == (month, leap == "閏", day)
    assert found.label in {n.label for n in day_namings(found.gregorian)}


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=date(1368, 3, 1), max_value=date(2100, 12, 31)))
def test_every_naming_of_a_day_reads_back(day: date) -> None:
    namings = day_namings(day)
    assert namings
    for naming in namings:
        assert parse_written_date(naming.label).gregorian == day or naming.era.dynasty.rank > min(
            e.dynasty.rank for e in all_eras() if e.name == naming.era.name
        )


@pytest.mark.parametrize(
    ("day", "labels"),
    [
        (date(1617, 2, 6), {"萬曆四十五年正月初一", "天命二年正月初一"}),
        (date(1662, 6, 1), {"康熙元年四月十五", "永曆十六年四月十五"}),
        (date(1752, 3, 16), {"乾隆十七年二月初一"}),
        (date(2016, 5, 1), {"民國一百〇五年五月一日"}),
    ],
)
def test_day_namings(day: date, labels: set[str]) -> None:
    assert {n.label for n in day_namings(day)} == labels


def test_qing_reign_table_names_the_eras_years() -> None:
    """The emperors' table of reigns.py and the Qing eras read from chinesecalendar-py agree."""
    qing = [(e.name, e.first_year, e.last_year) for e in all_eras() if e.dynasty.id == "qing"]
    assert qing == [(r.name, r.first_year, r.last_year) for r in REIGNS]
