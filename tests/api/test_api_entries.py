"""The public API as a notebook uses it: ``import dianli``, a dozen entry points, objects that show
themselves and tables with real values (the tests use it the way docs/notebooks do)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dianli

ENTRY_POINTS = (
    "ceremony",
    "calendar",
    "date",
    "places",
    "witnesses",
    "witness",
    "variants",
    "timeline",
    "spring_ox",
    "music",
    "collate",
    "provenance",
)


def test_all_is_small_and_every_name_is_there_with_a_docstring() -> None:
    assert len(dianli.__all__) <= 40
    assert set(ENTRY_POINTS) <= set(dianli.__all__)
    for name in dianli.__all__:
        value = getattr(dianli, name)
        assert (value.__doc__ or "").strip(), name
    assert set(dir(dianli)) >= set(dianli.__all__)


def test_import_dianli_loads_no_entry_point_module() -> None:
    """``import dianli`` loads nothing: the stub is read (by lazy_loader) and the API's modules (pydantic, the
    rites …) imported when a name is first used."""
    code = (
        "import sys, dianli; "
        "print(sorted(m for m in sys.modules if m.startswith(('dianli.', 'pydantic', 'pandas', 'lazy_loader'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_entry_points_keep_their_names_beside_subpackages_of_the_same_name() -> None:
    from dianli.calendar import lunisolar  # the subpackages import as before
    from dianli.music import score
    from dianli.spring_ox import figure

    assert [m.__name__.rsplit(".", 1)[1] for m in (lunisolar, score, figure)] == [
        "lunisolar",
        "score",
        "figure",
    ]
    assert callable(dianli.calendar) and callable(dianli.music) and callable(dianli.spring_ox)
    assert dianli.calendar.__module__ == "dianli.public.calendar"


# --- each entry point with a real value ------------------------------------------------------------------

CASES: dict[str, tuple[Callable[[], Any], Callable[[Any], Any], Any]] = {
    "a written date": (lambda: dianli.date("乾隆十七年二月初一"), lambda d: d.date, date(1752, 3, 16)),
    "an ISO date, its 干支": (lambda: dianli.date("1752-03-16"), lambda d: d.day_ganzhi, "癸巳"),
    "a Ming date": (lambda: dianli.date("萬曆四十五年正月初一"), lambda d: d.date, date(1617, 2, 6)),
    "a date object": (lambda: dianli.date(date(1752, 3, 20)), lambda d: d.chinese_date, "乾隆十七年二月初五"),
    "the ceremony's day": (
        lambda: dianli.ceremony("祀先師", "臺灣府", 1752),
        lambda c: (c.date["day"], c.date["chinese_date"]),
        ("1752-03-20", "乾隆十七年二月初五"),
    ),
    "the autumn ceremony": (
        lambda: dianli.ceremony("祀先師", "臺灣府", 1752, season="autumn"),
        lambda c: dianli.date(c.date["day"]).day_ganzhi[0],
        "丁",
    ),
    "the spring ox's 立春": (
        lambda: dianli.spring_ox(1752),
        lambda s: dianli.date(s.lichun).solar_term,
        "立春",
    ),
    "the 初獻 hymn": (
        lambda: dianli.music("寧平"),
        lambda m: (len(m.score), m.score[0]["character"]),
        (32, "覺"),
    ),
    "a collation's rows": (
        lambda: dianli.collate("社稷"),
        lambda c: len(c.to_table()) == len(c.collation.columns) * len(c.witnesses),
        True,
    ),
    "a calendar after the Qing, by the place's last Qing reading": (
        lambda: dianli.calendar(2024, place="福州", rite="祀先師"),
        lambda t: [dianli.date(r["day"]).day_ganzhi[0] for r in t if r["part"] is None],
        ["丁", "丁"],
    ),
    "a timeline's first year": (
        lambda: dianli.timeline(place="諸羅縣"),
        lambda t: t.column("gregorian_year") == sorted(t.column("gregorian_year")),
        True,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_entry_point_values(case: str) -> None:
    make, read, expected = CASES[case]
    found = make()
    assert read(found) == expected
    assert repr(found) and "object at 0x" not in repr(found)
    shown = found._repr_html_()  # what a notebook shows
    assert shown.startswith("<") and len(shown) > 40


def test_the_ceremony_tables_cite_their_witness() -> None:
    c = dianli.ceremony("祀先師", "臺灣府", 1752)
    assert "上丁" in c.date["rule_text"]
    text = dianli.witness(c.witness).text
    for table in (c.steps, c.people, c.prayers, c.music):
        assert len(table) > 0
        quoted = [r for r in table if r["cite_quote"]]
        assert quoted, table.title
        for row in quoted[:20]:
            assert dianli.witness(row["cite_witness"]).cite(row["cite_quote"]).end > 0
    assert [r["number"] for r in c.steps] == list(range(1, len(c.steps) + 1))
    assert c.date["cite_quote"] in text


def test_the_calendar_dates_the_ceremony() -> None:
    """The calendar of the year holds the ceremony's day, with the same rule."""
    c = dianli.ceremony("祀先師", "臺灣府", 1752)
    days = dianli.calendar(1752, place="臺灣府", rite="祀先師")
    main = [r for r in days if r["part"] is None]
    assert c.date["day"] in [r["day"] for r in main]
    assert {r["rite"] for r in days} == {c.rite}


def test_a_witness_reads_and_cites() -> None:
    first = dianli.witnesses()[0]["id"]
    w = dianli.witness(first)
    sections = w.sections
    assert len(sections) > 0 and sections[0]["witness"] == first
    heading = next(s["heading"] for s in sections if s["heading"])
    found = w.cite(heading)
    assert found.passage == heading and found.end - found.start >= len(heading)
    assert heading in w.section_text(found.section)


def test_a_variant_reading_at_a_place_and_year_is_the_table_s() -> None:
    found = dianli.variants(rite="祀先師")
    assert len(found) > 0
    row = next(r for r in found if r["place"] is not None)
    at = found.at(row["place"], row["from_year"])
    same = [
        r["value"]
        for r in found
        if r["rule"] == row["rule"]
        and r["place"] == row["place"]
        and r["from_year"] <= row["from_year"] <= r["until_year"]
    ]
    assert at[row["rule"]] in same


def test_music_as_musicxml_and_sound() -> None:
    m = dianli.music("寧平")
    xml = m.musicxml()
    assert "<score-partwise" in xml and "覺" in xml
    sound = m.audio(fmt="wav", sample_rate_hz=8000)
    assert sound.data[:4] == b"RIFF" and 100 < sound.seconds < 400


@pytest.mark.parametrize(
    ("call", "accepted"),
    [
        (lambda: dianli.date("乾隆十七年二月三十一"), "day"),
        (lambda: dianli.ceremony("no-such-rite", "臺灣府", 1752), "rite"),
        (lambda: dianli.witness("no-such-witness"), "witness"),
        (lambda: dianli.places(1500), "1644"),
        (lambda: dianli.calendar([]), "year"),
        (lambda: dianli.calendar(1950), "1911"),
    ],
)
def test_bad_input_is_a_clear_error(call: Callable[[], object], accepted: str) -> None:
    from dianli.errors import DianliError

    with pytest.raises(DianliError) as found:
        call()
    assert accepted in str(found.value)


def test_to_frame_without_pandas_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"dianli\[tables\]"):
        dianli.places(1752).to_frame()


def test_a_table_shows_its_cells_escaped() -> None:
    table = dianli.Table("a <b>", ("x",), [{"x": "<script>alert(1)</script>"}])
    shown = table._repr_html_()
    assert "<script>" not in shown and "&lt;script&gt;" in shown and "a &lt;b&gt;" in shown


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="乾隆康熙十二三正月初一日閏年-0123456789 甲子abc", max_size=16))
def test_any_date_text_is_a_day_or_a_clear_error(text: str) -> None:
    from dianli.errors import DianliError

    try:
        found = dianli.date(text)
    except DianliError as exc:
        assert str(exc)
    else:
        assert str(found) == found.date.isoformat()


def test_compared_points_ranked_and_the_changes_at_a_year_are_tables_that_join() -> None:
    ranked = dianli.compare(kind="date_rule").ranked()
    assert len(ranked) >= 2 and ranked.key == ("slot",)
    assert [r["disagreement"] for r in ranked] == sorted((r["disagreement"] for r in ranked), reverse=True)
    shanchuan = next(r for r in ranked if r["rule"].startswith("祭山川禮·祭期"))
    assert shanchuan["witnesses"] == 8 and "晉江縣志" in shanchuan["sentence"]
    changes = dianli.changes(1723, rite="祀先師")
    hymn = [r for r in changes if r["label"] == "祀先師禮·樂章 (hymn)·迎神"]
    assert {(r["side"], r["value"]) for r in hymn} >= {("before", "咸和"), ("after", "咸平")}
    assert {r["witness"] for r in hymn if r["side"] == "before"} == {"taiwan-xianzhi-6"}  # joins witnesses
    frame = changes.to_frame()
    assert list(frame.columns) == list(changes.columns)
