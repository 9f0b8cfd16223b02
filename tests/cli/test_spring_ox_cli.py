"""``dianli spring-ox`` text at the width of the screen (#14 item 3): wrapped under each line's indent, no
word cut or lost, the web's and the API's text unchanged; a wide terminal sees the lines as they are."""

from __future__ import annotations

import json

import pytest
from tests.widths import too_wide
from typer.testing import CliRunner

from dianli.cli import app
from dianli.cli.common import supplied_text
from dianli.spring_ox.figure import spring_ox
from dianli.spring_ox.report import render_text as spring_ox_text
from dianli.spring_ox.report import to_json as spring_ox_json

ARGS = ["spring-ox", "2017", "--rule", "almanac"]


def _run(width: int, *args: str) -> str:
    result = CliRunner().invoke(app, ["--width", str(width), *args], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def text() -> str:
    return supplied_text(spring_ox_text(spring_ox(2017, rule="almanac")))


@pytest.mark.parametrize("width", [40, 80, 120])
def test_every_word_is_kept_within_the_width(text: str, width: int) -> None:
    shown = _run(width, *ARGS)
    assert "".join(shown.split()) == "".join(text.split())
    assert too_wide(shown, width) == []


def test_a_wide_terminal_sees_the_lines_as_they_are(text: str) -> None:
    assert _run(1000, *ARGS) == text + "\n"


@pytest.mark.parametrize(
    "lines",
    [
        # the header, continued under its indent + 2
        "土牛芒神 2017 丁酉年 — rule set: almanac (春牛芒神 — the almanac rule (the 會典\n"
        "  rule as 噶瑪蘭廳志 quotes it and the 欽天監's 春牛經, as the almanacs print\n"
        "  it))\n",
        # a 立春 reading; its last word moves whole under the reading
        "    local-apparent    2017-02-03 23:17 子初一刻二分 → day 2017-02-03 辛酉\n      (石榴木)\n",
        # a subtle point continues under its text, after the bullet
        "  * 立春 2017-02-03 is 丁酉年正月初七 of the lunar year 丁酉; the ox's year is\n"
        "    丁酉, the year that begins at 立春 (6 days after 元旦 2017-01-28).\n",
        # an outside source's address, wider than the screen, alone on its line and whole
        "          [primary Qing text, read in a digital library]\n"
        "            <https://github.com/kanripo/KR3g0051/blob/8b5522eb0299afbd575f1cb556e972c71c40c42a/"
        "KR3g0051_012.txt>\n",
        # the holders of a reading in the rules side by side
        "        ← almanac: almanac [欽定協紀辨方書 (primary); 芒神春牛图 (造春牛法)\n"
        "          (web-summary); 金牛年轉運 農民曆春牛圖藏玄機 (the 2021 almanac's\n"
        "          春牛圖 explained) (web-summary)]\n",
    ],
)
def test_at_80_columns_a_long_line_continues_under_its_indent(lines: str) -> None:
    assert lines in _run(80, *ARGS)


def test_json_is_not_wrapped() -> None:
    shown = _run(40, *ARGS, "--format", "json")
    assert json.loads(shown) == spring_ox_json(spring_ox(2017, rule="almanac"))
