"""The timeline of a rule covers the whole corpus: a witness that states a reading but governs no unit is a
mark at the year it was compiled — in a gutter before the axis when that year is before the place data's."""

from __future__ import annotations

from xml.etree import ElementTree as etree

import pytest

from dianli.comparison import variation_svg
from dianli.comparison.variation import variation

SVG = "{http://www.w3.org/2000/svg}"


def _rule_with_unplaced() -> object:
    """A rule that 金門志 (1836, on the axis) states and no other witness of no unit does (a rule that the
    Ming 永安縣志 states too has a gutter for it)."""
    return next(r for r in variation() if set(variation_svg._unplaced(r)) == {"jinmen-zhi-4"})


def test_a_witness_of_no_unit_is_marked_at_its_year() -> None:
    rule = _rule_with_unplaced()
    root = etree.fromstring(variation_svg.timeline_svg(rule).encode())  # type: ignore[arg-type]
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "金門志 (1836)" in texts
    tips = ["".join(t.itertext()) for p in root.iter(f"{SVG}path") for t in p.iter(f"{SVG}title")]
    assert any("金門志, written 1836; it governs no unit" in tip for tip in tips)
    assert not any(t.startswith("before ") for t in texts)  # 1836 is on the axis: no gutter


def test_a_witness_written_before_the_axis_stands_in_a_gutter(monkeypatch: pytest.MonkeyPatch) -> None:
    rule = _rule_with_unplaced()
    monkeypatch.setattr(variation_svg, "_unplaced", lambda r: {"jinmen-zhi-4": 1490})
    root = etree.fromstring(variation_svg.timeline_svg(rule).encode())  # type: ignore[arg-type]
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "before 1644" in texts and "金門志 (1490)" in texts
    (mark,) = [p for p in root.iter(f"{SVG}path") if "1490" in "".join(p.itertext())]
    x = float(mark.attrib["d"].split()[0][1:])
    assert variation_svg.LEFT < x < variation_svg.LEFT + variation_svg.PRE_GUTTER
