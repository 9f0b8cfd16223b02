"""dianli.lines: a line wider than the width wrapped under its own indent; nothing cut, nothing lost."""

from __future__ import annotations

import pytest

from dianli.lines import expand_tabs, fit_line, shown_width


@pytest.mark.parametrize(
    ("line", "width", "hang", "lines"),
    [
        # fits: left exactly as it is (inner spaces, tabs)
        ("a  b\tc", 80, 2, ["a  b\tc"]),
        ("漢" * 40, 80, 2, ["漢" * 40]),
        # broken at spaces, continued two columns in from the line's own indent (under a bullet's text)
        ("  * alpha beta gamma", 12, 2, ["  * alpha", "    beta", "    gamma"]),
        ("a  b   c", 4, 2, ["a  b", "  c"]),
        # a run of wide characters fills the line and breaks between two of them
        ("ab 一二三四五六七八九十", 12, 2, ["ab 一二三四", "  五六七八", "  九十"]),
        # never before a closing mark, never after an opening one, never two characters left alone
        ("x 「一二三四五六」。", 12, 2, ["x 「一二三四", "  五六」。"]),
        ("abc 之」", 6, 2, ["abc", "  之」"]),
        # a short word (a name, a date) moves whole
        ("day 1752-02-04 壬子 (桑柘木)", 20, 2, ["day 1752-02-04 壬子", "  (桑柘木)"]),
        # an arrow stays with what it points to
        ("aaaa bbbb → cccc", 12, 2, ["aaaa bbbb", "  → cccc"]),
        # an address wider than the width stands alone, whole; one that fits in less than its indent fits
        (
            "    [grade] <https://example.org/aaaaaaaaaaaaaaaaaaaa>",
            20,
            2,
            ["    [grade]", "      <https://example.org/aaaaaaaaaaaaaaaaaaaa>"],
        ),
        ("        note: <https://ex.org/abcdef>", 24, 2, ["        note:", " <https://ex.org/abcdef>"]),
        # tabs are expanded when the line must wrap; a hang of 8 continues under the second column
        ("笙\t一二三四五六七八\t[臺灣府志]", 30, 8, ["笙      一二三四五六七八", "        [臺灣府志]"]),
    ],
)
def test_fit_line(line: str, width: int, hang: int, lines: list[str]) -> None:
    assert fit_line(line, width, hang) == lines


@pytest.mark.parametrize(
    ("line", "columns", "expanded"),
    [("笙\t琴", 10, "笙      琴"), ("ab\t\tc", 17, "ab" + " " * 14 + "c"), ("漢字", 4, "漢字")],
)
def test_tabs(line: str, columns: int, expanded: str) -> None:
    assert shown_width(line) == columns
    assert expand_tabs(line) == expanded
