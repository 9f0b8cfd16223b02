"""The program of one ceremony: assembly, booklet and JSON, checked on 祀先師 at 臺灣府 in 1752."""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.errors import DianliError
from dianli.program.assemble import assemble as assemble_program
from dianli.program.export import booklet_name
from dianli.program.export import to_json as program_json
from dianli.program.html import render_booklet
from dianli.program.model import Program


@pytest.fixture(scope="module")
def xianshi() -> Program:
    return assemble_program("祀先師", "臺灣府", 1752)


@pytest.fixture(scope="module")
def booklet(xianshi: Program) -> str:
    return render_booklet(xianshi, dance=False)


def test_date_is_the_almanac_day(xianshi: Program) -> None:
    assert xianshi.date.western == date(1752, 3, 20)
    assert xianshi.date.chinese == "乾隆十七年二月初五"
    assert xianshi.date.source == "almanac table"
    assert xianshi.season == "spring"


@pytest.mark.parametrize(("season", "day"), [("spring", date(1752, 3, 20)), ("autumn", date(1752, 9, 16))])
def test_season_picks_the_observance(season: str, day: date) -> None:
    assert assemble_program("xianshi", "taiwan-fu", 1752, season=season).date.western == day


@pytest.mark.parametrize(
    ("season", "rule_text"),
    [("spring", "春祭清明日"), ("autumn", "秋祭七月十五日"), ("winter", "冬祭十月初一日")],
)
def test_each_season_prints_its_own_rule(season: str, rule_text: str) -> None:
    """The autumn 厲壇 booklet printed the spring rule (春祭清明日): each observance carries its own words."""
    assert assemble_program("厲壇", "臺灣府", 1752, season=season).date.rule_text == rule_text


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("祀先師", "臺灣府", 1900, None), "1895"),  # Taiwan after the cession: a clear error
        (("祀先師", "臺灣府", 1752, "summer"), "summer"),
        (("祀先師", "臺灣府", 1752, "monsoon"), "monsoon"),
        (("no-such-rite", "臺灣府", 1752, None), "no-such-rite"),
        (("祀先師", "Atlantis", 1752, None), "Atlantis"),
        (("祀先師", "臺灣府", 1500, None), "1500"),
    ],
)
def test_bad_input_names_the_value(args: tuple[str, str, int, str | None], needle: str) -> None:
    with pytest.raises(DianliError, match=needle):
        assemble_program(*args[:3], season=args[3])


@pytest.mark.parametrize("rite", ["chongsheng", "xianshi"])
def test_officiants_preparations_and_prayer(xianshi: Program, rite: str) -> None:
    """Each rite of the occasion has its own officiants, offerings and prayer, filled for the same day."""
    section = xianshi.section(rite)
    assert section.officiants[0].function == "正獻官"
    assert section.altars and section.altars[0].lines
    assert section.date.western == date(1752, 3, 20)
    assert section.prayers[0].filled is not None
    assert section.prayers[0].filled.startswith("維乾隆十七年，歲次壬申，二月癸巳朔，越五日丁酉")


def test_preparations(xianshi: Program) -> None:
    assert "知府" in xianshi.main.officiants[0].office
    kinds = {p.kind: p for p in xianshi.main.preparations}
    assert kinds["散齋"].days == (date(1752, 3, 17), date(1752, 3, 18))
    assert kinds["省牲"].days == (date(1752, 3, 19),)


def test_steps_music_and_citations(xianshi: Program) -> None:
    main = xianshi.main
    assert main.rite == "xianshi" and main.first_step is not None and main.last_step is not None
    own = [s for s in xianshi.steps if s.rite == "xianshi"]
    assert own[-1].call is None and own[-2].call == "禮畢"
    assert [c.movement for c in xianshi.music][:2] == ["yingshen", "chuxian"]
    assert main.first_step + 12 in xianshi.music[0].steps  # 文廟's 13th step, numbered in the occasion
    ids = {p.id for p in xianshi.passages}
    assert all(c in ids for s in xianshi.steps for c in s.cites)
    assert not [p for p in xianshi.passages if p.error]
    assert any(par.section_id == "xianshi.zhisheng" for par in xianshi.parallels)


def test_spring_ox_only_where_the_data_says() -> None:
    ox = assemble_program("yingchun", "臺灣府", 1752)
    assert {p.rule for p in ox.spring_ox} == {"gazetteer", "almanac"}
    assert all(p.svg.startswith("<svg") for p in ox.spring_ox)
    assert not assemble_program("祀先師", "臺灣府", 1752).spring_ox


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "a" and a.get("href"):
            self.hrefs.append(str(a["href"]))
        for key in ("src", "href"):
            value = a.get(key) or ""
            if re.match(r"(https?:)?//", value):
                self.external.append(value)


def test_booklet_content(booklet: str) -> None:
    assert "乾隆十七年二月初五" in booklet and "1752-03-20" in booklet
    assert "知府" in booklet
    assert "鼓初嚴" in booklet and "禮畢" in booklet
    assert "@media print" in booklet and "size: A4" in booklet


def test_booklet_links_resolve_and_nothing_is_fetched(booklet: str) -> None:
    found = _Collect()
    found.feed(booklet)
    local = [h[1:] for h in found.hrefs if h.startswith("#")]
    assert local and all(h in found.ids for h in local)
    assert not found.external


def test_booklet_escapes_its_values(xianshi: Program) -> None:
    hostile = xianshi.model_copy(update={"gloss": "<script>alert(1)</script>"})
    page = render_booklet(hostile, dance=False)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_json_has_the_booklet_content(xianshi: Program) -> None:
    data = json.loads(program_json(xianshi))
    assert data["date"]["western"] == "1752-03-20"
    assert data["steps"][0]["number"] == 1
    assert data["passages"][0]["id"] == "c1"


def test_cli_writes_the_booklet(tmp_path: Path, xianshi: Program) -> None:
    result = CliRunner().invoke(
        app,
        ["program", "祀先師", "--place", "臺灣府", "--year", "1752", "--out", str(tmp_path), "--no-audio"],
    )
    assert result.exit_code == 0, result.output
    path = Path(result.output.strip())
    assert path == tmp_path / booklet_name(xianshi) == tmp_path / "xianshi-taiwan-fu-1752.html"
    assert "祀先師禮" in path.read_text(encoding="utf-8")


def test_cli_json_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(
        app,
        [
            "program",
            "xianshi",
            "--place",
            "臺灣府",
            "--year",
            "1752",
            "--out",
            str(tmp_path),
            "--format",
            "json",
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert json.loads(Path(ok.output.strip()).read_text(encoding="utf-8"))["rite"] == "xianshi"
    bad = runner.invoke(app, ["program", "xianshi", "--place", "臺灣府", "--year", "1752", "--format", "pdf"])
    assert bad.exit_code == 2 and "pdf" in bad.output


XIANSHI_TAIWAN = ["chongsheng", "xianshi", "zhuwengong", "minghuan", "xiangxian"]


def test_the_night_begins_at_chongsheng(xianshi: Program) -> None:
    """「凡祭文廟，必先崇聖祠」: the program of 祀先師 begins with 崇聖祠, then 文廟, then the shrines."""
    assert [r.rite for r in xianshi.rites] == XIANSHI_TAIWAN
    assert xianshi.rite == "xianshi" and [r.main for r in xianshi.rites] == [False, True, False, False, False]
    assert xianshi.steps[0].rite == "chongsheng" and xianshi.steps[-1].rite == "xiangxian"
    assert [s.number for s in xianshi.steps] == list(range(1, len(xianshi.steps) + 1))
    first = 1
    for section in xianshi.rites:
        numbers = [s.number for s in xianshi.steps if s.rite == section.rite]
        assert (section.first_step, section.last_step) == (first, numbers[-1])
        assert numbers == list(range(first, numbers[-1] + 1))
        first = numbers[-1] + 1
    quotes = {p.quote for p in xianshi.passages}
    chongsheng, main = xianshi.rites[0], xianshi.rites[1]
    assert [r.text for r in chongsheng.relations] == ["before 祀先師禮"]
    assert "凡祭文廟，必先崇聖祠" in quotes and "祭崇聖祠畢，文廟中鼓初嚴" in quotes
    assert [r.text for r in main.relations] == ["after 祭崇聖祠儀注"]
    assert xianshi.occasion == "祭崇聖祠儀注 → 祀先師禮 → 朱文公祠 → 名宦祠 → 鄉賢祠"


@pytest.mark.parametrize(
    ("rite", "place", "order", "shift"),
    [
        ("xianshi", "福州", ["chongsheng", "xianshi", "changgong", "minghuan", "xiangxian"], {}),
        ("鞭春", "臺灣府", ["yingchun", "bianchun"], {"yingchun": -1}),
        ("迎春", "臺灣府", ["yingchun", "bianchun"], {"bianchun": 1}),
        ("社稷", "臺灣府", ["sheji"], {}),
    ],
)
def test_each_rite_on_its_day(rite: str, place: str, order: list[str], shift: dict[str, int]) -> None:
    program = assemble_program(rite, place, 1752)
    assert [r.rite for r in program.rites] == order
    assert program.alone is (len(order) == 1)
    for section in program.rites:
        assert section.date.western is not None and program.date.western is not None
        assert section.date.western - program.date.western == timedelta(days=shift.get(section.rite, 0))


def test_booklet_heads_each_rite(xianshi: Program, booklet: str) -> None:
    sections = [booklet.index(f'id="rite-{r}"') for r in XIANSHI_TAIWAN]
    headings = [booklet.index(f'id="order-{r}"') for r in XIANSHI_TAIWAN]
    assert sections == sorted(sections) and headings == sorted(headings)
    assert booklet.count('class="rite-row"') == len(XIANSHI_TAIWAN)
    assert (
        booklet.index('id="step-1"') > headings[0]
        and booklet.index(f'id="step-{xianshi.main.first_step}"') > headings[1]
    )
    assert "the occasion:" in booklet


def test_a_rite_alone_has_no_occasion_headings() -> None:
    page = render_booklet(assemble_program("社稷", "臺灣府", 1752), dance=False)
    assert 'class="rite-row"' not in page and "the occasion:" not in page
    assert 'id="rite-sheji"' in page and 'id="step-1"' in page
