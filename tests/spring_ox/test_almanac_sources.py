"""The almanac rule is the 會典 rule as 噶瑪蘭廳志 quotes it, plus what the 欽天監's own manual (欽定協紀辨方書
卷十二 春牛經) states beyond that quotation: every attribute says which, cites the 會典's words where it states
the rule and the manual's words for every attribute (each quotation checked against the manual's text), shows
every outside source with its grade (text, JSON), and the rule sets stand side by side where they differ."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.comparison.spring_ox_variation import rule_set_comparison
from dianli.corpus.cite import resolve
from dianli.outside import rule_supports
from dianli.spring_ox.figure import spring_ox
from dianli.spring_ox.profiles import load_profile
from dianli.spring_ox.report import render_text as spring_ox_text
from dianli.spring_ox.report import to_json as spring_ox_json

runner = CliRunner()
STATUTE = "gemalan-tingzhi-3"
MANUAL = "xieji-bianfang-12"
STATUTE_NAME = "噶瑪蘭廳志"
"""How a reader sees the statute's witness: by its short title, never its id."""
BEYOND_THE_STATUTE = {"ox.halter", "ox.treadle", "god.whip_knot"}
MANUAL_TEXT = Path(__file__).parent / "fixtures" / "xieji_bianfang_12_chunniujing.txt"


def _manual_text() -> str:
    """The 春牛經 of 欽定協紀辨方書 卷十二 as Kanripo has it, its lines run together (page breaks, line ends
    and the indentation of continued lines dropped)."""
    body = MANUAL_TEXT.read_text(encoding="utf-8").split("=====\n", 1)[1]
    lines = [line.rstrip("¶").lstrip("\u3000") for line in body.splitlines() if not line.startswith("<pb:")]
    return "".join(lines)


def _manual_quotes() -> list[tuple[str, str]]:
    """(attribute id or ``notes``, quotation) for every quotation of the manual in the almanac rule."""
    profile = load_profile("almanac")
    out = [("notes", r.quote) for note in profile.notes for r in note.sources if r.source == MANUAL]
    for attribute in profile.attributes:
        for rule in (attribute, *attribute.alternatives):
            refs = [*rule.sources, *(r for case in rule.cases or () for r in case.sources)]
            out += [(attribute.id, r.quote) for r in refs if r.source == MANUAL]
    return out


def _almanac_cites(attribute_id: str) -> list[str]:
    attribute = load_profile("almanac").attribute(attribute_id)
    cites = [attribute.cite, *(c.cite for c in attribute.cases or ())]
    return [c.quote for c in cites if c is not None and c.witness == STATUTE]


@pytest.mark.parametrize("attribute", [a.id for a in load_profile("almanac").attributes])
def test_every_attribute_says_its_basis_and_cites_the_huidian_where_it_states_it(attribute: str) -> None:
    entry = load_profile("almanac").attribute(attribute)
    expected = "manual" if attribute in BEYOND_THE_STATUTE else "rule"
    assert entry.basis == expected
    quotes = _almanac_cites(attribute)
    if expected == "rule":
        assert quotes, attribute
        for quote in quotes:
            assert resolve(STATUTE, quote, None).section.id.startswith("yingchun")
    else:
        assert quotes == []


@pytest.mark.parametrize("attribute", [a.id for a in load_profile("almanac").attributes])
def test_every_attribute_quotes_the_qintianjian_manual(attribute: str) -> None:
    assert any(a == attribute for a, _ in _manual_quotes()), attribute


@pytest.mark.parametrize(("attribute", "quote"), _manual_quotes())
def test_every_quotation_of_the_manual_is_in_its_text(attribute: str, quote: str) -> None:
    assert quote in _manual_text(), (attribute, quote)


@pytest.mark.parametrize(
    ("attribute", "quotes"),
    [
        # the halter's colour: the phase that overcomes the day's stem (甲乙 木 → 白 金 …)
        ("ox.halter", ["牛籠頭拘繩視立春日支干", "甲乙日白色　丙丁日黒色　戊巳日青色", "庚辛日紅色　壬癸日黄色"]),
        ("ox.treadle", ["牛踏板視年隂陽", "陽年用縣門左扇", "隂年用縣門右扇"]),
        ("god.whip_knot", ["鞭結視立春日支", "俱用五色醮染", "子午卯酉日用苧結", "寅申巳亥日用蔴結", "辰戌丑未日用絲結"]),
        (
            "placing.god_position",
            [
                "芒神忙閒立牛前後視立春距正旦前後遠近",
                "立春距正旦前五日外芒神早忙立於牛前邊",
                "立春距正旦後五日外芒神晚閒立於牛後邊",
                "立春距正旦前後五日内芒神忙與牛並立",
                "立春距正旦前後五日内",
            ],
        ),
    ],
)  # fmt: skip
def test_what_the_statute_as_quoted_leaves_out_rests_on_the_manual(attribute: str, quotes: list[str]) -> None:
    assert [q for a, q in _manual_quotes() if a == attribute] == quotes


def test_no_almanac_reading_rests_on_web_summaries_alone_but_a_labelled_modern_one() -> None:
    almanac = [s for s in rule_supports() if s.where.startswith("dianli/spring_ox/data/almanac.yaml")]
    assert len(almanac) == 31
    weak_only = [(s.where, s.labelled) for s in almanac if s.weak_only]
    assert weak_only == [
        (
            "dianli/spring_ox/data/almanac.yaml: ox.halter [year-stem-overcomer]",
            "alternative reading year-stem-overcomer",
        )
    ]


def test_the_manual_basis_names_the_manual() -> None:
    profile = load_profile("almanac")
    assert profile.bases is not None and profile.bases.manual is not None
    assert profile.bases.manual.source == MANUAL
    assert profile.bases.names == ("rule", "manual")
    assert profile.basis_label(profile.attribute("ox.treadle")) == (
        "the 欽天監's rule, 欽定協紀辨方書 卷十二 春牛經 (beyond the 會典 as 噶瑪蘭廳志 quotes it)"
    )


def test_the_huidian_quote_heads_the_rule() -> None:
    resolved = resolve(STATUTE, "「会典」：岁冬至后辰日", None)
    assert resolved.section.id == "yingchun.tuniu"


def _flat(text: str) -> str:
    """``text`` without its spaces and line breaks: its words, whatever the width wrapped them to."""
    return "".join(text.split())


def test_2017_almanac_text_cites_the_huidian_for_every_attribute_it_covers() -> None:
    result = runner.invoke(app, ["spring-ox", "2017", "--rule", "almanac"])
    assert result.exit_code == 0, result.output
    # an attribute's block begins at an indent of two (its wrapped continuations are further in)
    blocks = [_flat(b) for b in re.split(r"\n  (?=\S)", result.output.split("\nWhere the reading")[0])]
    covered = [b for b in blocks if _flat("basis: the 會典 rule") in b]
    manual = [b for b in blocks if _flat("basis: the 欽天監's rule, 欽定協紀辨方書 卷十二 春牛經") in b]
    assert (len(covered), len(manual)) == (24, 3)
    assert all(_flat(f"{STATUTE_NAME} 「") in b for b in covered)
    assert all(
        _flat("outside source: 欽定協紀辨方書 卷十二 公規一 春牛經: 「") in b for b in covered + manual
    )
    assert _flat(
        "outside source: 欽定協紀辨方書 卷十二 公規一 春牛經: 「牛籠頭拘繩視立春日支干」\n"
        "[primary Qing text, read in a digital library] "
        "<https://github.com/kanripo/KR3g0051/blob/8b5522eb0299afbd575f1cb556e972c71c40c42a/KR3g0051_012.txt>\n"
    ) in _flat(result.output)
    assert _flat(
        "outside source: 芒神春牛图 (造春牛法): 「立春日干受克之色为笼头」\n"
        "[web summary, read in a forum post] <http://hk.11youyue.com/archiver/tid-87395.html>"
    ) in _flat(result.output)
    assert "almanac makers' addition" not in result.output


def test_the_json_gives_basis_and_graded_sources() -> None:
    data = spring_ox_json(spring_ox(2017, rule="almanac"))
    height = next(a for a in data["attributes"] if a["id"] == "god.height")
    assert height["basis"].startswith("the 會典 rule")
    evidence = height["evidence"][0]
    assert evidence["cite"]["witness"] == STATUTE
    assert evidence["sources"] == [
        {
            "source": MANUAL,
            "quote": "芒神身高三尺六寸五分象三百六十五日",
            "title": "欽定協紀辨方書 卷十二 公規一 春牛經",
            "kind": "primary",
            "read": "digital-library",
            "grade": "primary Qing text, read in a digital library",
            "where": "https://github.com/kanripo/KR3g0051/blob/8b5522eb0299afbd575f1cb556e972c71c40c42a/KR3g0051_012.txt",
        },
        {
            "source": "almanac-2021-bg3",
            "quote": "芒神身高三尺六寸五分",
            "title": "金牛年轉運 農民曆春牛圖藏玄機 (the 2021 almanac's 春牛圖 explained)",
            "kind": "web-summary",
            "read": "mirror",
            "grade": "web summary, read on a mirror or copy site",
            "where": "https://tw.bg3.co/a/jin-niu-nian-zhuan-yun-nong-min-li-chun-niu-tu-cang-xuan-ji.html",
        },
    ]
    json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize(
    ("attribute", "readings", "silent"),
    [
        (
            "god.height",
            {
                "三尺六寸五分 (象三百六十五日)": [STATUTE, "almanac"],
                "三尺六寸 (按一年三百六十日)": [
                    "gazetteer",
                    "chongxiu-fengshan-xianzhi-5",
                    "miaoli-xianzhi-10",
                ],
            },
            [],
        ),
        (
            "ox.mouth",
            {"口開 (陽) · 口合 (陰)": [STATUTE, "almanac"]},
            ["gazetteer"],
        ),
        (
            "ox.treadle",
            {"縣門左扇 (陽) · 縣門右扇 (陰)": ["almanac"]},
            [STATUTE, "gazetteer"],
        ),
        (
            "ox.halter",
            {
                "colour of day.stem": ["gazetteer", "chongxiu-fengshan-xianzhi-5", "miaoli-xianzhi-10"],
                "colour overcoming day.stem": ["almanac"],
            },
            [STATUTE],
        ),
    ],
)
def test_the_rule_sets_side_by_side(
    attribute: str, readings: dict[str, list[str]], silent: list[str]
) -> None:
    row = next(r for r in rule_set_comparison() if r.attribute == attribute)
    assert {words: [h.rule_set for h in holders] for words, holders in row.readings} == readings
    assert [h.rule_set for h in row.silent] == silent


def test_the_side_by_side_names_who_says_what_and_on_what() -> None:
    text = spring_ox_text(spring_ox(2017, rule="almanac"))
    section = text.split("The rules side by side, where they differ")[1]
    assert f"  {STATUTE_NAME} = statute: the 會典 rule, as 噶瑪蘭廳志 卷三 土牛芒神式 quotes it" in section
    expected = (
        "長 height of the god 三尺六寸五分 (象三百六十五日) "
        f"← statute: {STATUTE_NAME} · almanac: almanac [{STATUTE_NAME}; 欽定協紀辨方書 (primary); "
        "金牛年轉運 農民曆春牛圖藏玄機 (the 2021 almanac's 春牛圖 explained) (web-summary)] "
        "三尺六寸 (按一年三百六十日) "
        "← gazetteer: gazetteer [臺灣府志], 重修鳳山縣志, 苗栗縣志"
    )
    assert expected in " ".join(section.split())
    halter = (
        "colour overcoming day.stem ← almanac: almanac [欽定協紀辨方書 (primary); "
        "芒神春牛图 (造春牛法) (web-summary)]"
    )
    assert halter in " ".join(section.split())
    # each reading's holders on one line of the text, which the CLI wraps to the screen's width
    holders = [line for line in section.splitlines() if line.lstrip().startswith("←")]
    assert len(holders) == section.count("←") and all(line.startswith(" " * 8 + "← ") for line in holders)
