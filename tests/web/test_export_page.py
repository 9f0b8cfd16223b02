"""The open-data page describes every table and links the package; the zip is the whole package in CSV
format, valid, built off the event loop and kept."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from fastapi.testclient import TestClient
from markupsafe import escape

from dianli.opendata.check import check_package as check_datapackage
from dianli.opendata.schema import TABLES as EXPORT_TABLES
from dianli.web.app import app

client = TestClient(app)


def test_the_page_describes_every_table_and_links_the_zip() -> None:
    page = client.get("/export")
    assert page.status_code == 200
    assert 'href="/export/datapackage.zip"' in page.text
    for table in EXPORT_TABLES:
        assert f'id="{table.name}"' in page.text and str(escape(table.description)) in page.text
    assert "cite_witness → witnesses.id" in page.text and "parent → places.id" in page.text
    assert "dianli export --format csv --out DIR" in page.text


def test_the_zip_is_the_valid_package(tmp_path: Path) -> None:
    answer = client.get("/export/datapackage.zip")
    assert answer.status_code == 200, answer.text[:500]
    assert answer.headers["content-type"] == "application/zip"
    assert 'filename="dianli-datapackage.zip"' in answer.headers["content-disposition"]
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        names = set(archive.namelist())
        assert names == {"datapackage.json", *(f"data/{t.name}.csv" for t in EXPORT_TABLES)}
        archive.extractall(tmp_path)
    assert check_datapackage(tmp_path / "datapackage.json") == []
    again = client.get("/export/datapackage.zip")
    assert again.content == answer.content  # kept: the same bytes, not rebuilt
