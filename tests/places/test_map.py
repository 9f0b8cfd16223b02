"""The offline map of a year's units: projection, marks, colours by prefecture, escaping."""

from __future__ import annotations

import re

import pytest

from dianli.places.map import HEIGHT, LAT_MAX, LAT_MIN, LON_MAX, LON_MIN, WIDTH, group_of, project
from dianli.places.map import render_map as places_map_svg
from dianli.places.places import places_in_year


@pytest.mark.parametrize(
    ("lat", "lon", "xy"),
    [
        (LAT_MAX, LON_MIN, (0.0, 28.0)),
        (LAT_MIN, LON_MAX, (float(WIDTH), 28.0 + HEIGHT)),
    ],
)
def test_the_box_fills_the_map(lat: float, lon: float, xy: tuple[float, float]) -> None:
    x, y = project(lat, lon)
    assert abs(x - xy[0]) < 1 and abs(y - xy[1]) < 1


@pytest.mark.parametrize(
    ("year", "unit", "group"),
    [
        (1890, "yunlin", "taiwan-fu-1887"),
        (1890, "fengshan", "taiwan-fu"),
        (1890, "hualiangang", "taidong"),
        (1752, "changting", "tingzhou"),
        (1752, "fuzhou", "fuzhou"),
        (1733, "yongchun", "quanzhou"),
        (1752, "fujian", None),
    ],
)
def test_units_are_grouped_by_their_prefecture_that_year(year: int, unit: str, group: str | None) -> None:
    units = {u.id: u for u in places_in_year(year)}
    assert group_of(units[unit], units) == group


@pytest.mark.parametrize("year", [1644, 1752, 1890, 1911])
def test_every_unit_is_named_on_the_map(year: int) -> None:
    units = places_in_year(year)
    svg = places_map_svg(units, str(year))
    assert svg.startswith("<svg") and 'viewBox="0 0 ' in svg and svg.endswith("</svg>")
    for unit in units:
        assert unit.name in svg
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")  # nothing fetched


def test_text_is_escaped() -> None:
    svg = places_map_svg(places_in_year(1752), '<script>alert("x")</script> & 1752')
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&amp; 1752" in svg
    assert len(re.findall(r"<svg", svg)) == 1
