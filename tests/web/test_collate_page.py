"""The collation page and its downloads."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from lxml import etree

from dianli.web.app import app

client = TestClient(app)


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("/collate/社稷?section=sheji.chenshe", 'class="collation"'),
        ("/collate/社稷?section=sheji.chenshe", "/collate/%E7%A4%BE%E7%A8%B7.xml?section=sheji.chenshe"),
        ("/collate/sheji?section=sheji.chenshe", "overflow-x:auto"),
    ],
)
def test_page(url: str, needle: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, response.text[:300]
    assert needle in response.text


def test_downloads() -> None:
    tei = client.get("/collate/sheji.xml?section=sheji.chenshe")
    assert tei.status_code == 200 and tei.headers["content-type"].startswith("application/tei+xml")
    assert etree.fromstring(tei.content).tag.endswith("TEI")
    data = client.get("/collate/sheji.json?section=sheji.chenshe").json()
    assert len(data["table"]) == len(data["witnesses"])


@pytest.mark.parametrize("url", ["/collate/<script>alert(1)", "/collate/sheji?section=<b>x</b>"])
def test_bad_input_is_escaped(url: str) -> None:
    response = client.get(url)
    assert response.status_code == 400
    assert "<script>alert" not in response.text and "<b>x</b>" not in response.text
    assert "accepted" in response.text
