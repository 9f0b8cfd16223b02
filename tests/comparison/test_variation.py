"""Variation across the corpus: rules read differently, their readings, who states them, and where and when
each is in force — on the real data, on a small fixture rite, and on the fixture witness's 厲壇 day (in a
fresh process with ``DIANLI_WITNESSES``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as etree

import pytest

from dianli.comparison import table as table_module
from dianli.comparison import variation as variation_module
from dianli.comparison.table import table
from dianli.comparison.variation import rule_ids as variation_rule_ids
from dianli.comparison.variation import variation
from dianli.comparison.variation_svg import map_svg as variation_map_svg
from dianli.comparison.variation_svg import timeline_svg as variation_timeline_svg
from dianli.corpus.cite import Citation
from dianli.corpus.normalise import fold
from dianli.errors import UnknownValueError
from dianli.rites import readings, resolve
from dianli.rites.load import all_rites
from dianli.rites.model import DateRule, Rite

SVG = "{http://www.w3.org/2000/svg}"
FIXTURES = Path(__file__).parents[1] / "fixtures" / "witnesses"


def _reading_at(rule_id: str, place: str, year: int) -> Any:
    reading = variation(rule_id)[0].reading_at(place, year)
    assert reading is not None, f"{rule_id}: no reading in force at {place} in {year}"
    return reading


# --- the real data -------------------------------------------------------------------------------

REAL = [
    # rule, unit, year, words of the reading in force, a witness stating it, its exact quote
    (
        "xianshi:wangyi-call",
        "taiwan-fu",
        1752,
        "樂奉咸平之章",
        "taiwan-fuzhi-9",
        "唱：『樂奉咸平之章』，有樂無舞",
    ),
    (
        "xianshi:wangyi-call",
        "fuzhou",
        1752,
        "樂奏咸平之章",
        "fujian-tongzhi-14",
        "唱詣望瘞位【各獻官詣瘞位】麾生舉麾唱樂奏咸平之章【有樂無舞樂章同送神】",
    ),
    (
        "guandi:guandi-guangzhao",
        "taiwan-fu",
        1752,
        "光照公",
        "taiwan-fuzhi-9",
        "引贊引承祭官詣曾祖光照公香爐前，司香者跪",
    ),
    (
        "guandi:guandi-guangzhao",
        "quanzhou",
        1800,
        "光昭公",
        "fujian-tongzhi-14",
        "引贊引承祭官詣曾祖光昭公香爐前司香者跪",
    ),
    (
        "qidao:qidao-troops",
        "taiwan-fu",
        1752,
        "鎮標暨城守及三營將士",
        "taiwan-fuzhi-9",
        "每歲霜降前一日，鎮標暨城守及三營將士盛裝鎧仗",
    ),
    (
        "qidao:qidao-troops",
        "fuzhou",
        1752,
        "督撫標暨城守率八營將士",
        "fujian-tongzhi-14",
        "每歲霜降前一日督撫標暨城守率八營將士盛裝鎧仗",
    ),
]


@pytest.mark.parametrize(("rule", "place", "year", "words", "witness", "quote"), REAL)
def test_the_reading_in_force_is_the_governing_witness(
    rule: str, place: str, year: int, words: str, witness: str, quote: str
) -> None:
    reading = _reading_at(rule, place, year)
    assert words in reading.value
    assert witness in reading.witnesses
    assert (witness, quote) in [(c.witness, c.quote) for c in reading.citations]
    assert reading.first_citation(witness) is not None
    assert all(c.resolve() for c in reading.citations if c.witness == witness)


@pytest.mark.parametrize(
    ("rule", "places"),
    [
        ("xianshi:wangyi-call", ("taiwan-fu", "fuzhou")),
        ("guandi:guandi-guangzhao", ("taiwan-fu", "quanzhou")),
        ("qidao:qidao-troops", ("taiwan-fu", "fuzhou")),
    ],
)
def test_a_rule_differs_between_places(rule: str, places: tuple[str, str]) -> None:
    assert rule in variation_rule_ids()
    found = variation(rule)[0]
    assert len(found.readings) >= 2
    first, second = (found.reading_at(p, 1752) for p in places)
    assert first is not None and second is not None and first.value != second.value
    assert [r.number for r in found.readings] == list(range(1, len(found.readings) + 1))


def test_a_province_level_reading_of_a_prefectural_gazetteer_is_in_force_nowhere() -> None:
    """臺灣府志's 山川 主祭 at the provincial capital (布政使司, from 1738): it governs no 省城, so its reading
    is stated but in force at no unit, while 福建通志's 按察使司 is in force at the capital — read there in
    福建通志 itself, then (from 1751) in 福州府志, which is silent on it and inherits it."""
    rule = variation("shanchuan:山川主祭官（省城）")[0]
    taiwan = next(r for r in rule.readings if "福建布政使司" in r.value)
    assert "taiwan-fuzhi-9" in taiwan.witnesses and taiwan.spans == () and "from 1738" in taiwan.scope
    fujian = next(r for r in rule.readings if "福建按察使司" in r.value)
    assert "fujian-tongzhi-14" in fujian.witnesses and fujian.spans
    assert {s.witness for s in fujian.spans} <= {"fujian-tongzhi-14", "fuzhou-fuzhi-qianlong-14"}


def test_the_governing_witness_changes_the_reading_over_time() -> None:
    """臺灣府 follows 福建通志 from its compilation (1737) until 臺灣府志 (1742) takes over."""
    rule = "xianshi:wangyi-call"
    assert "樂奏" in _reading_at(rule, "taiwan-fu", 1740).value
    assert "樂奉" in _reading_at(rule, "taiwan-fu", 1742).value
    span = next(
        s for s in _reading_at(rule, "taiwan-fu", 1700).spans if s.place == "taiwan-fu" and s.holds(1700)
    )
    assert span.stands_in and span.witness == "taiwan-fuzhi-9"


@pytest.mark.parametrize(
    ("bad", "rite"),
    [("nope", None), ("xianshi:", "xianshi"), ("xianshi.nothing", "xianshi"), ("guandi:x", "guandi")],
)
def test_an_unknown_rule_lists_the_accepted_ones(bad: str, rite: str | None) -> None:
    with pytest.raises(UnknownValueError) as caught:
        variation(bad)
    assert bad in str(caught.value)
    expected = [r.id for r in variation() if rite is None or r.rite == rite]
    assert caught.value.accepted == expected and expected


STATED_IN_OWN_PLACE = [
    # rule, witness, words of the reading it states: its reading has none of the variant group's elements
    # (or they name other witnesses), but the correspondence table has it stating the same point in its
    # own words, at its own place in the order of service (issue #25, item 8)
    ("xianshi:wangyi-call", "taiwan-xianzhi-6", "樂奏咸和之曲"),
    ("xianshi:wangyi-call", "chongxiu-fengshan-xianzhi-5", "樂奏咸平之章"),
    ("jiezhao:jiezhao-day", "gemalan-tingzhi-3", "詔書由郡轉派員弁齎送至城外"),
    ("qidao:qidao-troops", "tingzhou-fuzhi-11", "鎮標三營將士"),
    ("qidao:qidao-troops", "gemalan-tingzhi-3", "合標暨存城官弁兵士"),
    ("yingchun:yingchun-units", "miaoli-xianzhi-10", "正官（率屬）"),
]


@pytest.mark.parametrize(("rule", "witness", "words"), STATED_IN_OWN_PLACE)
def test_a_witness_stating_the_point_in_its_own_place_states_a_reading(
    rule: str, witness: str, words: str
) -> None:
    readings = variation(rule)[0].readings
    mine = next(r for r in readings if witness in (*r.witnesses, *r.followers))
    assert witness in mine.witnesses and words in mine.value and not mine.empty
    assert any(c.witness == witness for c in mine.citations)


@pytest.fixture(scope="module")
def quoted() -> frozenset[tuple[str, str]]:
    """(witness, folded quote) of every statement of the correspondence table."""
    return frozenset((s.witness, fold(s.quote)) for s in table())


def test_every_quote_shown_is_a_statement_of_the_table(quoted: frozenset[tuple[str, str]]) -> None:
    """A reading shows only what the correspondence table holds: a quote that is not in its witness is
    shown nowhere."""
    for rule in variation():
        for reading in rule.readings:
            for cite in reading.citations:
                assert (cite.witness, fold(cite.quote)) in quoted, (rule.id, reading.number, cite)


def test_a_witness_quoted_for_its_own_reading_states_it() -> None:
    """Never 'followed by' a witness whose own words the reading quotes (issue #25, item 8: 福建通志 was
    called a follower where ``rites show`` cites it)."""
    for rule in variation():
        for reading in rule.readings:
            quoted_for = {c.witness for c in reading.citations}
            assert not quoted_for & set(reading.followers), (rule.id, reading.number)


def test_rites_filter() -> None:
    rules = variation(rite="祀先師")
    assert rules and {r.rite for r in rules} == {"xianshi"}


# --- a fixture rite ------------------------------------------------------------------------------

_CACHED: list[Callable[..., Any]] = [
    variation_module._read_rite,
    variation_module._variant_index,
    variation_module._base_paths,
    variation_module._rule_keys,
    variation_module._holders,
    variation_module._statement,
    variation_module._evaluate,
    variation_module._all_rules,
    variation_module._selection,
    variation_module._value_of,
    variation_module._table_index,
    variation_module._own_at,
    variation_module._facts_stated,
    variation_module._quotes_stated,
    variation_module._stated_instead,
    variation_module._rule_facts,
    variation_module._walked,
    variation_module._names,
    variation_module._altar_names,
    variation_module._value_facts,
    table_module.table,
    resolve._variant_witnesses,
    resolve._order,
    readings.rites_for,
    readings.witnesses_with_rite,
]


def _clear() -> None:
    for function in _CACHED:
        function.cache_clear()  # type: ignore[attr-defined]


def _day(text: str, witness: str, quote: str, **scope: Any) -> DateRule:
    rule = all_rites()["litan"].date_rule[1].rule
    return DateRule(
        id=f"fixture-{len(text)}-{witness}-{scope.get('from_year', '')}{scope.get('until_year', '')}",
        name=text,
        rule=rule,
        text=text,
        witnesses=(witness,),
        variant="fixture-day",
        cite=Citation(witness=witness, quote=quote),
        **scope,
    )


FIXTURE_DAYS = (
    _day("七月十五日", "fujian-tongzhi-14", "每歲凡三祭春祭清明日秋祭七月十五日冬祭十月初一日"),
    _day("八月十五日 <b>&</b>", "taiwan-fuzhi-9", "秋祭七月十五日", until_year=1760),
    _day("九月初一日", "taiwan-fuzhi-9", "冬祭十月初一日", from_year=1761),
    _day("十月初一日", "taiwan-fuzhi-9", "冬祭十月初一日", places=("淡水廳",)),
)


@pytest.fixture(scope="module")
def fixture_rite() -> Iterator[Rite]:
    """The rites with 厲壇's date rules replaced by one fixture variant group: 福建通志 七月十五日;
    臺灣府志 八月十五日 until 1760 and 九月初一日 from 1761 (a dated change), 十月初一日 at 淡水廳 only.
    The witnesses' reading files are left out: the fixture tests the engine, not the curated readings."""
    rites = dict(all_rites())
    rites["litan"] = rites["litan"].model_copy(update={"date_rule": FIXTURE_DAYS})
    with pytest.MonkeyPatch.context() as patch:
        # tables derived from the rites are kept on disk under the package's files, which the fixture
        # does not change: with the cache off they are made from the fixture's rites
        patch.setenv("DIANLI_CACHE_DIR", "off")
        for module in (variation_module, resolve, readings, table_module):
            patch.setattr(module, "all_rites", lambda: rites)
        for module in (variation_module, readings, table_module):
            patch.setattr(module, "own_readings", lambda _witness: {})
        _clear()
        yield rites["litan"]
    _clear()


FIXTURE_CASES = [
    ("fuzhou", 1752, "七月十五日", "fujian-tongzhi-14"),
    ("taiwan-fu", 1752, "八月十五日 <b>&</b>", "taiwan-fuzhi-9"),
    ("taiwan-fu", 1760, "八月十五日 <b>&</b>", "taiwan-fuzhi-9"),
    ("taiwan-fu", 1761, "九月初一日", "taiwan-fuzhi-9"),
    ("taiwan-fu", 1740, "七月十五日", "fujian-tongzhi-14"),
    ("danshui", 1752, "十月初一日", "taiwan-fuzhi-9"),
    ("zhuluo", 1800, "九月初一日", "taiwan-fuzhi-9"),
]


@pytest.mark.usefixtures("fixture_rite")
@pytest.mark.parametrize(("place", "year", "value", "witness"), FIXTURE_CASES)
def test_fixture_rite_readings_in_force(place: str, year: int, value: str, witness: str) -> None:
    rule = variation("litan:fixture-day")[0]
    reading = rule.reading_at(place, year)
    assert reading is not None and reading.value == value and witness in reading.witnesses
    span = next(s for s in reading.spans if s.place == place and s.holds(year))
    assert span.from_year <= year <= span.until_year


@pytest.mark.usefixtures("fixture_rite")
def test_fixture_rite_dated_change_and_scope() -> None:
    from dianli.places.governs import governed_by

    rule = variation("litan:fixture-day")[0]
    in_force = [r for r in rule.readings if r.spans]
    assert {r.value for r in in_force} == {d.text for d in FIXTURE_DAYS}
    # A witness that governs no place and follows 臺灣府志 (范咸's 重修臺灣府志, base taiwan-fuzhi-9) reads
    # the days as its base states them, every scope at once: a reading in force nowhere, stated by none.
    for reading in rule.readings:
        if not reading.spans:
            assert not reading.witnesses and reading.followers
            assert not any(governed_by(w) for w in reading.followers)
    before = next(r for r in rule.readings if r.value.startswith("八月"))
    after = next(r for r in rule.readings if r.value.startswith("九月"))
    local = next(r for r in rule.readings if r.value.startswith("十月"))
    assert max(end for _start, end in before.years()) == 1760 and before.scope == "until 1760"
    assert min(start for start, _end in after.years()) == 1761 and after.scope == "from 1761"
    assert local.places() == ("danshui",) and local.scope == "places 淡水廳"
    assert (before.citations[0].witness, before.citations[0].quote) == ("taiwan-fuzhi-9", "秋祭七月十五日")


@pytest.mark.usefixtures("fixture_rite")
@pytest.mark.parametrize("year", [1700, 1752, 1761, 1890])
def test_fixture_rite_svgs_are_well_formed_and_escaped(year: int) -> None:
    rule = variation("litan:fixture-day")[0]
    for svg in (variation_timeline_svg(rule), variation_map_svg(rule, year)):
        root = etree.fromstring(svg)
        assert root.tag == f"{SVG}svg"
        assert "<b>" not in svg and "&lt;b&gt;&amp;&lt;/b&gt;" in svg.replace(" ", "")
        assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    timeline = etree.fromstring(variation_timeline_svg(rule))
    assert len([g for g in timeline.iter(f"{SVG}g") if g.get("class") == "reading"]) == len(rule.readings)
    legend = "".join(variation_map_svg(rule, year).split('<g class="legend"')[1:])
    for reading in rule.readings:
        assert f"[{reading.number}]" in legend


# --- the fixture witness, in a fresh process -------------------------------------------------------


def test_the_fixture_witness_reads_one_litan_day_a_year_at_its_place() -> None:
    """The fixture gazetteer (淡水廳 from 1760) patches 厲壇's date rules: one sacrifice, in 七月."""
    env = {**os.environ, "DIANLI_WITNESSES": str(FIXTURES)}
    code = (
        "import json; from dianli.comparison.variation import rule_record as variation_record, variation; "
        "print(json.dumps(variation_record(variation('litan.date_rule')[0]), ensure_ascii=False))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    rule = json.loads(done.stdout)
    mine = next(r for r in rule["readings"] if "test-fixture-gazetteer" in r["witnesses"])
    assert mine["value"] == "每歲七月十五日祭厲壇，春、冬不祭"
    quotes = [(c["witness"], c["quote"]) for c in mine["citations"]]
    assert ("test-fixture-gazetteer", "每歲七月十五日祭厲壇，春、冬不祭") in quotes
    assert {s["place"] for s in mine["spans"]} == {"danshui"}
    assert min(s["from_year"] for s in mine["spans"]) == 1760
    general = next(r for r in rule["readings"] if "春祭清明日" in r["value"])
    assert any(s["place"] == "danshui" and s["until_year"] == 1759 for s in general["spans"])
