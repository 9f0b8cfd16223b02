"""Engine outputs shown with a part (``shows``): the spring ox in the 迎春/鞭春 order of service."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dianli.cli import app
from dianli.errors import DataError
from dianli.places.places import place_at
from dianli.program.exhibits import exhibit_names, rite_exhibits
from dianli.rites.load import all_rites
from dianli.rites.render import to_data as rite_to_data
from dianli.rites.resolve import resolve_rite, resolve_with

runner = CliRunner()


@pytest.mark.parametrize(
    ("rite", "year", "ganzhi"), [("迎春", 1752, "壬申"), ("鞭春", 1752, "壬申"), ("迎春", 1800, "庚申")]
)
def test_spring_ox_in_the_order_of_service(rite: str, year: int, ganzhi: str) -> None:
    (shown,) = rite_exhibits(resolve_rite(rite, "臺灣府", year))
    assert shown.name == "spring_ox" and shown.title == f"土牛芒神 {year} {ganzhi}年"
    text = "\n".join(shown.lines)
    assert "土牛: 頭" in text and "芒神: " in text and "立春" in text
    assert shown.pointer == f"every attribute with its reason: dianli spring-ox {year} --place 臺灣府"


def test_1752_values() -> None:
    (shown,) = rite_exhibits(resolve_rite("迎春", "臺灣府", 1752))
    text = "\n".join(shown.lines)
    for bit in (
        "頭 黑 (水)",
        "身 白 (金)",
        "衣 黃 (土)",
        "繫腰 青 (木)",
        "罨耳 用手提，左手提",
        "土牛向 南向",
        "芒神向 西向",
    ):
        assert bit in text
    assert "the almanac rule differs" in text


@pytest.mark.parametrize("rite", ["社稷", "祀先師", "鄉飲酒禮"])
def test_rites_that_show_nothing(rite: str) -> None:
    r = resolve_rite(rite, "臺灣府", 1752)
    assert rite_exhibits(r) == ()
    assert "exhibits" not in rite_to_data(r)


def test_every_shows_name_is_known() -> None:
    names = {n for rite in all_rites().values() for p in rite.parts for n in p.shows}
    assert names and names <= set(exhibit_names())


def test_unknown_shows_is_a_data_error() -> None:
    rites = dict(all_rites())
    rite = rites["yingchun"]
    parts = tuple(p.model_copy(update={"shows": ("nonsense",)}) for p in rite.parts)
    rites["yingchun"] = rite.model_copy(update={"parts": parts})
    r = resolve_with(rites, "yingchun", place_at("臺灣府", 1752), 1752, "taiwan-fuzhi-9")
    with pytest.raises(DataError, match=r"nonsense.*accepted: spring_ox"):
        rite_exhibits(r)


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_cli_shows_the_ox(fmt: str) -> None:
    result = runner.invoke(
        app, ["rites", "show", "迎春", "--place", "臺灣府", "--year", "1752", "--format", fmt]
    )
    assert result.exit_code == 0, result.output
    assert "土牛芒神 1752 壬申年" in result.output
    assert "dianli spring-ox 1752 --place 臺灣府" in result.output
    if fmt == "json":
        data = json.loads(result.output)
        assert data["exhibits"][0]["part"] == "ji" and data["exhibits"][0]["name"] == "spring_ox"


def test_cue_sheet_shows_no_exhibit() -> None:
    result = runner.invoke(app, ["rites", "show", "迎春", "-p", "臺灣府", "-y", "1752", "--role", "通贊"])
    assert result.exit_code == 0 and "土牛芒神" not in result.output
