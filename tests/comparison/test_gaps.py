"""comparison.gaps: what an alignment leaves, as parts and rites."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dianli.cli.application import app
from dianli.comparison.align import align
from dianli.comparison.gaps import missing_parts, rites_not_in_model


@pytest.fixture(scope="module")
def penghu() -> object:
    return align("penghu-tingzhi-2")


def test_a_temple_list_lacks_whole_services(penghu: object) -> None:
    """澎湖廳志's 祠廟 lists the 武廟 and says nothing of the 後殿 service: a part, reported once."""
    titles = {m.title for m in missing_parts(penghu)}  # type: ignore[arg-type]
    assert "祭關帝禮·後殿 初獻" in titles
    assert not any("steps[" in m.part for m in missing_parts(penghu))  # type: ignore[arg-type]


def test_a_part_stated_in_part_is_not_missing() -> None:
    result = align("taiwan-xianzhi-6")
    stated = {e for a in result.clauses if a.kind in ("same", "variant") for e in a.elements}
    for part in missing_parts(result):
        assert not any(e == part.part or e.startswith(part.part + ".") for e in stated)


def test_a_shrine_the_model_lacks_is_a_rite_not_in_the_model(penghu: object) -> None:
    found = {n.name: n for n in rites_not_in_model(penghu)}  # type: ignore[arg-type]
    assert "风神庙" in found
    skeleton = found["风神庙"].skeleton("penghu-tingzhi-2")
    assert skeleton["venue"][0]["name"] == "风神庙"
    assert skeleton["names"]["classical"] == ["风神庙"] and "风神庙" in skeleton["venue"][0]["cite"]["quote"]
    # a temple the model holds (城隍廟, 天后宮, 武廟) is not proposed again
    assert not {"城隍庙", "天后宫", "武庙"} & set(found)


def test_the_align_report_lists_them() -> None:
    result = CliRunner().invoke(app, ["align", "penghu-tingzhi-2", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rites_not_in_model"][0]["name"] == "风神庙"
    assert any(m["title"] == "祭關帝禮·後殿 初獻" for m in data["missing_parts"])
    text = CliRunner().invoke(app, ["--width", "80", "align", "penghu-tingzhi-2", "--show", "variant"]).stdout
    assert "rites not in the model (1" in text and "missing parts (" in text
