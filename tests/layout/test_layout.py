"""Layouts: plans from the witnesses' diagrams, seating, tablets as they stood in a year, tables."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from dianli.errors import DataError
from dianli.layout.altar import altar_plan_svg, offering_table_svg
from dianli.layout.config import mark_kind
from dianli.layout.figures import layout_figures
from dianli.layout.grid import plan_grid
from dianli.layout.seating import seating_svg
from dianli.layout.seating import seats as layout_seats
from dianli.layout.svg import wrap
from dianli.layout.tablets import place_tablets, tablet_plan_svg
from dianli.rites.model import Altar, Offering, Plan, Tablet
from dianli.rites.resolve import resolve_rite

NS = {"s": "http://www.w3.org/2000/svg"}


def _svg(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def _texts(root: ET.Element) -> str:
    return "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))


def _axis_words(svg: str) -> list[str]:
    return re.findall(r'<g class="dl-axis">.*?>(.)</text></g>', svg)


@pytest.mark.parametrize(
    ("rite", "axes", "tablets"),
    [
        ("社稷", ["南", "北", "西", "東"], ["社神", "稷神"]),
        # 001's 山川 plan: 北 left, 南 right, so 東 at the top (a map turned, not mirrored; see sheji.yaml)
        ("山川", ["北", "南", "東", "西"], ["風雲雷雨之神", "境內山川之神", "本府城隍之神"]),
    ],
)
def test_altar_plan_follows_the_resolved_plan(rite: str, axes: list[str], tablets: list[str]) -> None:
    svg = altar_plan_svg(resolve_rite(rite, "臺灣府", 1752))
    assert svg is not None
    root = _svg(svg)
    assert _axis_words(svg) == axes  # 山川's frame comes from its own plan's data, not from code
    words = _texts(root)
    for name in tablets:
        assert name in words
    assert "香爐" in words or rite == "山川"  # 001's 山川 plan draws no burner
    assert svg.count('class="dl-mark dl-cup"') == 3 * len(tablets) and "陪祭官位" in words


def test_plan_cells_are_the_datas() -> None:
    r = resolve_rite("社稷", "臺灣府", 1752)
    grid = plan_grid(r)
    assert grid is not None
    she = [m for m in grid.marks if m.altar == "she"]
    assert ("社神", "tablet") in {(m.text, m.kind) for m in she}
    assert {m.kind for m in she} >= {"tablet", "food", "victim", "silk", "cup", "burner"}
    assert sum(1 for m in she if m.text == "爵") == 3


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("羊", "victim"),
        ("帛四", "silk"),
        ("爵", "cup"),
        ("香爐", "burner"),
        ("祝", "person"),
        ("東階", "feature"),
        ("韭菹", "food"),
    ],
)
def test_mark_kinds(word: str, kind: str) -> None:
    assert mark_kind(word) == kind


def test_seating_plan_of_xiangyinjiu() -> None:
    r = resolve_rite("鄉飲酒禮", "臺灣府", 1752)
    svg = seating_svg(r)
    assert svg is not None and altar_plan_svg(r) is None
    words = _texts(_svg(svg))
    for seat in ("主", "大賓", "僎", "介", "一賓", "三賓", "眾賓", "正司", "僚屬", "東階", "西階", "律案"):
        assert seat in words
    assert _axis_words(svg) == ["北", "南", "東", "西"]


@pytest.mark.parametrize(
    ("role", "stated"), [("主", "東南"), ("大賓", "西北"), ("僎", "東北"), ("介", "西南")]
)
def test_the_diagram_agrees_with_the_text(role: str, stated: str) -> None:
    seats = [s for s in layout_seats(resolve_rite("鄉飲酒禮", "臺灣府", 1752)) if s.role == role]
    assert seats and all(s.stated == stated and s.drawn == stated and s.agrees for s in seats)


def test_seats_name_roles_and_offices() -> None:
    seats = {s.word: s for s in layout_seats(resolve_rite("鄉飲酒禮", "臺灣府", 1752))}
    assert seats["正司"].role == "司正" and seats["正司"].assumption
    assert seats["一賓"].role == "三賓"
    assert seats["主"].office == "知府"


def _main_hall(year: int) -> dict[str, tuple[str, int | None]]:
    r = resolve_rite("祀先師", "臺灣府", year)
    return {p.tablet.name: (p.region, p.column) for p in place_tablets(r.tablets)}


@pytest.mark.parametrize(
    ("year", "zhuzi", "youzi", "west_zhe", "east_zhe"),
    [
        (1700, ("west", None), ("east", None), 5, 5),
        (1720, ("main", -2), ("east", None), 6, 5),
        (1740, ("main", -2), ("main", 2), 6, 6),
    ],
)
def test_tablets_as_they_stood_that_year(
    year: int, zhuzi: tuple[str, int | None], youzi: tuple[str, int | None], west_zhe: int, east_zhe: int
) -> None:
    placed = _main_hall(year)
    assert placed["先賢朱子（熹）"] == zhuzi
    assert placed["先賢有子（若）"] == youzi
    assert sum(1 for region, col in placed.values() if (region, col) == ("main", -2)) == west_zhe
    assert sum(1 for region, col in placed.values() if (region, col) == ("main", 2)) == east_zhe
    svg = tablet_plan_svg(resolve_rite("祀先師", "臺灣府", year))
    assert svg is not None and f"as it stood in {year}" in svg
    _svg(svg)


def test_tablet_plans_differ_between_years() -> None:
    svgs = {y: tablet_plan_svg(resolve_rite("祀先師", "臺灣府", y)) for y in (1700, 1720, 1740)}
    assert len(set(svgs.values())) == 3
    assert "先賢朱子（熹） stands in 西廡 until 1711" in str(svgs[1700])
    assert "先賢朱子（熹） stands in 正殿（西哲） from 1712" in str(svgs[1720])
    assert "先賢有子（若） stands in 正殿（東哲） from 1738" in str(svgs[1740])


@pytest.mark.parametrize(
    ("side", "hall", "region", "column"),
    [
        ("正中南向", "正殿", "main", 0),
        ("東傍西向", "正殿", "main", 1),
        ("殿內次西，東向", "正殿（西哲）", "main", -2),
        (None, "東廡", "east", None),
        ("東", "崇聖祠（配）", "main", 1),
        (None, "崇聖祠（兩廡）", "both", None),
        (None, "崇聖祠", "main", None),
    ],
)
def test_tablet_places(side: str | None, hall: str, region: str, column: int | None) -> None:
    t = Tablet(name="x", hall=hall, side=side, assumption="test")
    (p,) = place_tablets([t])
    assert (p.region, p.column) == (region, column)


def test_offering_table_counts_every_vessel() -> None:
    r = resolve_rite("祀先師", "臺灣府", 1752)
    main = next(a for a in r.altars if a.id == "zhengdian")
    svg = offering_table_svg(main)
    assert svg is not None
    words = _texts(_svg(svg))
    assert words.count("籩") == 10 and words.count("豆") == 10
    assert svg.count('class="dl-mark dl-cup"') == 3 and svg.count('class="dl-mark dl-victim"') == 3
    assert "至聖先師孔子" in words and "牛" in words


def test_text_is_escaped() -> None:
    altar = Altar(
        id="x",
        name="<b>&",
        tablets=("<script>",),
        offerings=(Offering(vessel="<籩>", count=2, assumption="test"),),
        assumption="test",
    )
    svg = offering_table_svg(altar)
    assert svg is not None and "<script>" not in svg and "<b>" not in svg
    _svg(svg)


def test_empty_altar_draws_nothing() -> None:
    assert offering_table_svg(Altar(id="x", name="y", assumption="t")) is None


@pytest.mark.parametrize(
    ("rite", "kinds"),
    [
        ("社稷", ["altar-plan"]),
        ("鄉飲酒禮", ["seating"]),
        ("祀先師", ["tablets", "table", "table", "table", "table", "table", "table"]),
        ("迎春禮", []),
    ],
)
def test_figures(rite: str, kinds: list[str]) -> None:
    figs = layout_figures(resolve_rite(rite, "臺灣府", 1752))
    assert [f.kind for f in figs] == kinds
    for f in figs:
        _svg(f.svg)
        assert f.citations


def test_wrap_fits() -> None:
    lines = wrap("the 陳設 list gives kinds and counts, not places " * 3, 200)
    assert len(lines) > 1 and all(len(line) < 60 for line in lines)


def test_plan_model_is_what_the_grid_reads() -> None:
    assert Plan(across=("南", "北"), assumption="t").down is None
    with pytest.raises(DataError):
        raise DataError("layout: a DataError names its file")
