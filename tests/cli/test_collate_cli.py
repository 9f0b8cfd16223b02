"""`dianli collate`: formats, width, errors."""

from __future__ import annotations

import json

import pytest
from lxml import etree
from rich.cells import cell_len
from typer.testing import CliRunner

from dianli.cli import app

runner = CliRunner()


@pytest.mark.parametrize("width", [80, 50])
def test_text_fits_the_width(width: int) -> None:
    args = ["collate", "社稷", "sheji.chenshe", "--kind", "textual", "--width", str(width)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("陳設祭物圖 (sheji · section sheji.chenshe)")
    assert any(line.startswith("[") for line in lines)
    assert max(cell_len(line) for line in lines[len(lines) // 3 :]) <= width


@pytest.mark.parametrize(("fmt", "check"), [("tei", "xml"), ("json", "json"), ("html", "html")])
def test_formats(fmt: str, check: str) -> None:
    result = runner.invoke(app, ["collate", "sheji", "sheji.chenshe", "--kind", "textual", "--format", fmt])
    assert result.exit_code == 0, result.output
    if check == "xml":
        assert etree.fromstring(result.stdout.encode()).tag.endswith("TEI")
    elif check == "json":
        assert "table" in json.loads(result.stdout)
    else:
        assert "<table class='collation'>" in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [(["collate", "no-such-rite"], "accepted"), (["collate", "社稷", "nope"], "sheji.chenshe")],
)
def test_errors_list_accepted_values(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert needle in result.output
