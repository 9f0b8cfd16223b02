"""The picture's text: wrapped whole (nothing cut), and in the browser no two text boxes overlap and
none leaves the picture, for every place of the god (before, beside, behind the ox; on either side)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from dianli.spring_ox.figure import spring_ox
from dianli.spring_ox.svg import LEGEND_ORDER, text_width, wrap
from dianli.spring_ox.svg import render_svg as spring_ox_svg

SVG_NS = "{http://www.w3.org/2000/svg}"
# (year, rule): the almanac rule puts the god before (早忙), beside or behind (晚閒) the ox, on its left
# (陽 year) or right (陰 year); the gazetteer rule beside it
PLACINGS = [
    (1700, "almanac"),  # before, left
    (1701, "almanac"),  # beside, right
    (1702, "almanac"),  # behind, left
    (1703, "almanac"),  # before, right
    (1704, "almanac"),  # beside, left
    (1705, "almanac"),  # behind, right
    (1752, "gazetteer"),
    (2017, "gazetteer"),
]

TEXT_BOXES = """(root) => {
  const frame = root.getBoundingClientRect();
  const boxes = [...root.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
  const problems = [];
  const out = (b) => b.left < frame.left - 0.5 || b.top < frame.top - 0.5
    || b.right > frame.right + 0.5 || b.bottom > frame.bottom + 0.5;
  boxes.forEach(([text, b], i) => {
    if (out(b)) problems.push(`outside the picture: ${text}`);
    for (const [other, c] of boxes.slice(i + 1))
      if (b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom)
        problems.push(`overlap: ${text} | ${other}`);
  });
  return problems;
}"""


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize(
    ("text", "size", "width"),
    [
        (
            "assumption: The gazetteer names no colour for the legs; the picture leaves them unpainted clay",
            14,
            300,
        ),
        ("立春時辰 申 (金) ∈ {卯、辰、巳、午、未、申、酉、戌}; 立春時辰 陰陽 陽 ∈ {陽}", 14, 200),
        ("鞋褲行纏 shoes, trousers and leggings: 鞋褲俱全，右行纏懸於腰", 16, 250),
        ("unbreakableverylongwordwithoutanyspaceatall", 14, 120),
        ("short", 14, 400),
    ],
)
def test_wrap_keeps_every_character_and_each_line_fits(text: str, size: float, width: float) -> None:
    lines = wrap(text, size, width)
    assert lines and all(line and line == line.strip() for line in lines)
    assert _squeezed("".join(lines)) == _squeezed(text)
    assert all(text_width(line, size) <= width for line in lines)
    words = set(text.split())
    latin = [w for line in lines for w in line.split() if w.isascii() and w.isalpha()]
    if all(text_width(w, size) <= width for w in words):  # a word longer than a line must be cut
        assert all(w in words for w in latin), "Latin words are not split where a space allows"


@pytest.mark.parametrize(("year", "rule"), PLACINGS)
def test_the_legend_gives_every_reason_whole(year: int, rule: str) -> None:
    result = spring_ox(year, rule=rule)
    root = ET.fromstring(spring_ox_svg(result))
    legend = next(g for g in root.iter(f"{SVG_NS}g") if g.get("id") == "legend")
    shown = _squeezed("".join(t.text or "" for t in legend.iter(f"{SVG_NS}text")))
    listed = [o for o in result.outcomes if o.id in LEGEND_ORDER]
    assert listed
    for outcome in listed:
        assert _squeezed(f"{outcome.label} {outcome.gloss}: {outcome.primary.text}") in shown
        if outcome.primary.reason != "fixed by the rule":
            assert _squeezed(outcome.primary.reason) in shown
    notes = next(g for g in root.iter(f"{SVG_NS}g") if g.get("id") == "notes")
    noted = _squeezed("".join(t.text or "" for t in notes.iter(f"{SVG_NS}text")))
    assert all(_squeezed(point) in noted for point in result.subtle_points)
    width, height = root.get("width"), root.get("height")
    assert root.get("viewBox") == f"0 0 {width} {height}"


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1414, "height": 1000})
    yield context.new_page()
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize(("year", "rule"), PLACINGS)
def test_no_two_text_boxes_overlap_in_the_browser(page: Any, year: int, rule: str) -> None:
    svg = spring_ox_svg(spring_ox(year, rule=rule))
    page.set_content(f"<!DOCTYPE html><html><body style='margin:0'>{svg}</body></html>")
    assert page.locator("svg text").count() > 40
    assert page.locator("svg").evaluate(TEXT_BOXES) == []
