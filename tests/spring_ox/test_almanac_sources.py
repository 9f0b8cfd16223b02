"""The almanac rule is the 會典 rule as 噶瑪蘭廳志 quotes it, plus the almanac makers' additions: every
attribute says which, cites the 會典's words where it states the rule, shows every outside source with its
grade (text, JSON), and the rule sets stand side by side where they differ."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from dianli.api import spring_ox, spring_ox_json, spring_ox_text
from dianli.cli import app
from dianli.corpus.cite import resolve
from dianli.spring_ox.profiles import load_profile
from dianli.spring_ox.variation import rule_set_comparison

runner = CliRunner()
STATUTE = "gemalan-tingzhi-3"
ADDITIONS = {"ox.halter", "ox.treadle", "god.whip_knot"}


def _almanac_cites(attribute_id: str) -> list[str]:
    attribute = load_profile("almanac").attribute(attribute_id)
    cites = [attribute.cite, *(c.cite for c in attribute.cases or ())]
    return [c.quote for c in cites if c is not None and c.witness == STATUTE]


@pytest.mark.parametrize("attribute", [a.id for a in load_profile("almanac").attributes])
def test_every_attribute_says_its_basis_and_cites_the_huidian_where_it_states_it(attribute: str) -> None:
    entry = load_profile("almanac").attribute(attribute)
    expected = "addition" if attribute in ADDITIONS else "rule"
    assert entry.basis == expected
    quotes = _almanac_cites(attribute)
    if expected == "rule":
        assert quotes, attribute
        for quote in quotes:
            assert resolve(STATUTE, quote, None).section.id.startswith("yingchun")
    else:
        assert quotes == []


def test_the_huidian_quote_heads_the_rule() -> None:
    resolved = resolve(STATUTE, "「会典」：岁冬至后辰日", None)
    assert resolved.section.id == "yingchun.tuniu"


def test_2017_almanac_text_cites_the_huidian_for_every_attribute_it_covers() -> None:
    result = runner.invoke(app, ["spring-ox", "2017", "--rule", "almanac"])
    assert result.exit_code == 0, result.output
    blocks = re.split(r"\n  (?=\S)", result.output.split("\nWhere the reading")[0])
    covered = [b for b in blocks if "basis: the 會典 rule" in b]
    added = [b for b in blocks if "basis: the almanac makers' addition" in b]
    assert (len(covered), len(added)) == (24, 3)
    assert all(f"{STATUTE} 「" in b for b in covered)
    assert (
        "      outside source: 芒神春牛图 (造春牛法): 「立春日干受克之色为笼头」\n"
        "          [web summary, read in a forum post] <http://hk.11youyue.com/archiver/tid-87395.html>"
    ) in result.output
    assert "almanac summary:" not in result.output


def test_the_json_gives_basis_and_graded_sources() -> None:
    data = spring_ox_json(spring_ox(2017, rule="almanac"))
    height = next(a for a in data["attributes"] if a["id"] == "god.height")
    assert height["basis"].startswith("the 會典 rule")
    evidence = height["evidence"][0]
    assert evidence["cite"]["witness"] == STATUTE
    assert evidence["sources"] == [
        {
            "source": "almanac-2021-bg3",
            "quote": "芒神身高三尺六寸五分",
            "title": "金牛年轉運 農民曆春牛圖藏玄機 (the 2021 almanac's 春牛圖 explained)",
            "kind": "web-summary",
            "read": "mirror",
            "grade": "web summary, read on a mirror or copy site",
            "where": "https://tw.bg3.co/a/jin-niu-nian-zhuan-yun-nong-min-li-chun-niu-tu-cang-xuan-ji.html",
        }
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
    assert f"  {STATUTE} = statute: the 會典 rule, as 噶瑪蘭廳志 卷三 土牛芒神式 quotes it" in section
    expected = (
        "長 height of the god (god.height) 三尺六寸五分 (象三百六十五日) "
        f"← statute: {STATUTE} · almanac: almanac [{STATUTE}; almanac-2021-bg3 (web-summary)] "
        "三尺六寸 (按一年三百六十日) "
        "← gazetteer: gazetteer [taiwan-fuzhi-9], chongxiu-fengshan-xianzhi-5, miaoli-xianzhi-10"
    )
    assert expected in " ".join(section.split())
    holders = [line for line in section.splitlines() if line.lstrip().startswith("←")]
    assert holders and all(len(line) <= 78 for line in holders)
