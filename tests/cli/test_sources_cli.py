"""``dianli sources``, run as a user runs it: every outside source with its grade, one source with every
use, the filters, JSON, and the errors."""

from __future__ import annotations

import json
import unicodedata

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.corpus.sources import outside_sources

runner = CliRunner()


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def test_every_outside_source_is_listed_with_its_grade() -> None:
    result = runner.invoke(app, ["sources"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith(f"Outside sources: {len(outside_sources())} (")
    for source in outside_sources().values():
        assert f"\n{source.id}  " in out
    for heading in (
        "primary Qing text (",
        "later edition or transcription of a primary text (",
        "web summary (",
    ):
        assert f"\n{heading}" in out
    assert "  grade: web summary, read in a forum post  (weak: never alone)" in out
    assert all(_width(line) <= 80 for line in out.splitlines() if "http" not in line), [
        line for line in out.splitlines() if _width(line) > 80 and "http" not in line
    ]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "wenxian-tongkao-264",
            [
                "wenxian-tongkao-264  皇朝文獻通考 卷二百六十四 象緯考九 月食上",
                "  grade: primary Qing text, read in a digital library",
                "      https://github.com/kanripo/KR2m0015/blob/f9fca05a9e3df257875b6e2111874daa3",
                "  also at: https://m.txshulou.com/html/14292/59651.html",
                "  supports (2):",
                "    - code: ASSUMPTION_PENUMBRAL — dianli/calendar/eclipses.py:",
            ],
        ),
        (
            "tuniu-jing",
            [
                "  grade: later edition or transcription of a primary text, read in a digital",
                "    - spring ox, rule set almanac: 頭 head (the 會典 rule, as 噶瑪蘭廳志 卷三",
                "      土牛芒神式 quotes it (「會典」)) 「常以歲干色爲頭」 —",
            ],
        ),
        ("chgis", ["    - the units, years, names and seats of every place —"]),
        (
            "xieji-bianfang-12",
            [
                "xieji-bianfang-12  欽定協紀辨方書 卷十二 公規一 春牛經",
                "  grade: primary Qing text, read in a digital library",
                "  supports (71):",
                "    - spring ox, rule set almanac: 踏板 treadle board (the 欽天監's rule,",
            ],
        ),
        (
            "qingshigao-10",
            ["  supports (1):", "    - data: qianlong — dianli/calendar/data/wanshou.yaml:"],
        ),
    ],
)
def test_one_source_with_every_use(source: str, expected: list[str]) -> None:
    result = runner.invoke(app, ["sources", source])
    assert result.exit_code == 0, result.output
    for line in expected:
        assert line in result.output


@pytest.mark.parametrize(
    ("args", "kinds"),
    [
        (["sources", "--kind", "web-summary", "--format", "json"], {"web-summary"}),
        (["sources", "--weak", "--format", "json"], {"primary", "reference", "web-summary"}),
    ],
)
def test_filters_and_json(args: list[str], kinds: set[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {d["kind"] for d in data} == kinds
    if "--weak" in args:
        assert all(d["weak"] for d in data)
    youyue = next((d for d in data if d["id"] == "almanac-forum-youyue"), None)
    assert youyue is not None
    assert youyue["grade"] == "web summary, read in a forum post"
    assert youyue["uses"][0] == {
        "supports": "spring ox, rule set almanac: 身高 height (the 會典 rule, as 噶瑪蘭廳志 卷三 土牛芒神式 quotes it (「會典」))",
        "where": "dianli/spring_ox/data/almanac.yaml: ox.height",
        "quote": "牛身高四尺象征‘四时’",
        "rule": "spring_ox.ox.height",
    }


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["sources", "forum-42"], "unknown outside source 'forum-42'; accepted: almanac-2006-olddo"),
        (["sources", "--kind", "blog"], "unknown --kind 'blog'; accepted: primary, edition, scholarly"),
    ],
)
def test_bad_input_names_what_is_accepted(args: list[str], said: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())
