"""The assembled result, the picture and the command line, for real years."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.errors import OutOfRangeError, UnknownValueError
from dianli.spring_ox.figure import spring_ox
from dianli.spring_ox.svg import render_svg as spring_ox_svg

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_1752_lichun_in_twelfth_month_but_year_is_renshen() -> None:
    result = spring_ox(1752)
    assert result.lichun.year_sexagenary.name == "壬申"
    assert result.reading.day_sexagenary.name == "壬子"
    assert "twelfth month" in result.subtle_points[0]
    assert result.outcome("ox.head").primary.colour is not None


def test_2017_zi_hour_day_boundary_is_shown() -> None:
    result = spring_ox(2017, rule="almanac")
    assert result.reading.hour.branch == "子"
    assert result.outcome("god.ear_flaps").primary.value["state"] == "worn"
    changed = {v.attribute for v in result.variations}
    assert {"ox.horns", "god.robe"} <= changed  # 辛酉 at midnight, 壬戌 from 子初


def test_clock_changes_hour_somewhere() -> None:
    # some year whose 立春 straddles a 時辰 boundary between Beijing and Fuzhou
    found = [
        y
        for y in range(1736, 1796)
        if {r.hour.branch for r in spring_ox(y).readings} != {spring_ox(y).reading.hour.branch}
    ]
    assert found


@pytest.mark.parametrize(
    ("year", "rule"), [(1752, "gazetteer"), (2017, "almanac"), (2021, "almanac"), (1800, "almanac")]
)
def test_svg_is_well_formed_and_fills_match(year: int, rule: str) -> None:
    result = spring_ox(year, rule=rule)
    root = ET.fromstring(spring_ox_svg(result))
    assert root.tag == f"{SVG_NS}svg"
    colours = {o.id: o.primary.colour.hex for o in result.outcomes if o.primary.colour is not None}
    painted: dict[str, set[str]] = {}
    for element in root.iter():
        attribute = element.get("data-attribute")
        if attribute in colours:
            paint = (
                element.get("fill") if element.get("fill") not in (None, "none") else element.get("stroke")
            )
            painted.setdefault(attribute, set()).add(str(paint))
    for attribute, hex_colour in colours.items():
        assert painted.get(attribute) == {hex_colour}, attribute


def test_spring_ox_errors() -> None:
    with pytest.raises(OutOfRangeError):
        spring_ox(1500)
    with pytest.raises(UnknownValueError):
        spring_ox(1752, place="nowhere")
    with pytest.raises(UnknownValueError):
        spring_ox(1752, clock="sundial")


runner = CliRunner()


def test_cli_1752_with_svg(tmp_path: Path) -> None:
    out = tmp_path / "ox.svg"
    result = runner.invoke(app, ["spring-ox", "1752", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert "籠頭" in result.output and "because" in result.output
    ET.parse(out)


def test_cli_2017_almanac_json() -> None:
    result = runner.invoke(app, ["spring-ox", "2017", "--rule", "almanac", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["year_ganzhi"] == "丁酉" and data["differences"]["other_rule"] == "gazetteer"


@pytest.mark.parametrize(
    "args",
    [
        ["spring-ox", "1200"],
        ["spring-ox", "1752", "--place", "atlantis"],
        ["spring-ox", "1752", "-o", "bad"],
        ["spring-ox", "1752", "-o", "ox.head=x"],
    ],
)
def test_cli_bad_input_exits_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
