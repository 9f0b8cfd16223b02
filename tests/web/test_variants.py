"""The variants pages: the list of rules, one rule's readings with their citations, timeline and map."""

from __future__ import annotations

from urllib.parse import quote
from xml.etree import ElementTree as etree

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

client = TestClient(app)
SVG = "{http://www.w3.org/2000/svg}"


def _svgs(text: str) -> list[etree.Element]:
    out = []
    at = text.find("<svg")
    while at >= 0:
        end = text.index("</svg>", at) + len("</svg>")
        out.append(etree.fromstring(text[at:end].encode()))
        at = text.find("<svg", end)
    return out


def test_the_list() -> None:
    page = client.get("/variants")
    assert page.status_code == 200
    for needle in ("xianshi:wangyi-call", "guandi:guandi-guangzhao", "qidao:qidao-troops", 'name="viewport"'):
        assert needle in page.text
    assert f'href="/variants/{quote("xianshi:wangyi-call", safe="")}"' in page.text or (
        'href="/variants/xianshi:wangyi-call"' in page.text
    )


@pytest.mark.parametrize(
    ("rule", "year", "needles"),
    [
        ("xianshi:wangyi-call", 1752, ["樂奉咸平之章", "「唱：『樂奉咸平之章』，有樂無舞」", "Map · 1752"]),
        ("guandi:guandi-guangzhao", 1800, ["光照公", "光昭公", "Map · 1800"]),
        ("qidao:qidao-troops", None, ["鎮標暨城守及三營將士", "督撫標暨城守率八營將士", "Map · "]),
    ],
)
def test_a_rule(rule: str, year: int | None, needles: list[str]) -> None:
    page = client.get(f"/variants/{quote(rule, safe='')}", params={"year": year} if year else {})
    assert page.status_code == 200
    for needle in needles:
        assert needle in page.text
    timeline, drawn = _svgs(page.text)
    assert timeline.tag == drawn.tag == f"{SVG}svg"
    bands = [g for g in timeline.iter(f"{SVG}g") if g.get("class") == "reading"]
    assert len(bands) == page.text.count('<li id="reading-')
    assert "http://" not in page.text.replace("http://www.w3.org/2000/svg", "")


@pytest.mark.parametrize(
    ("path", "status", "needle"),
    [
        ("/variants/nope", 400, "unknown rule"),
        ("/variants/xianshi:nope", 400, "xianshi:wangyi-call"),
        ("/variants/xianshi:wangyi-call?year=1500", 400, "1644..1911"),
        ("/variants/xianshi:wangyi-call?year=abc", 422, "year"),
    ],
)
def test_bad_input(path: str, status: int, needle: str) -> None:
    page = client.get(path)
    assert page.status_code == status and needle in page.text
