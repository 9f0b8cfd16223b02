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


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("xianshi:wangyi-call", "祀先師·望瘞樂章"),  # a variant group labelled by a key: the table's words
        ("guandi:guandi-guangzhao", "關帝·光昭公之名"),
        ("shanchuan.date_rule", "山川·祭期"),  # a field a reading replaces: the rite's name and the field's
        ("chongsheng.parts.chuxian", "崇聖祠·初獻"),  # a part: its title in the rite data
        ("chongsheng:崇聖祠兩廡陳設", "崇聖祠兩廡陳設"),  # a label in words, beginning with the rite's name
    ],
)
def test_the_list_names_each_rule_by_words(rule: str, words: str) -> None:
    page = client.get("/variants")
    assert page.status_code == 200
    link = f'<a href="/variants/{quote(rule, safe="")}">{words}</a>'
    assert link in page.text
    assert 'name="viewport"' in page.text


def test_the_list_counts_one_unit_as_one() -> None:
    text = client.get("/variants").text
    assert "· 1 units" not in text
    assert "· 1 unit</span>" in text


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


def test_the_ranked_page_lists_contradictions_with_their_evidence() -> None:
    page = client.get("/variants/ranked?kind=date_rule")
    assert page.status_code == 200
    assert "祭山川禮·祭期" in page.text and "晉江縣志" in page.text
    assert "Evidence: what each witness says" in page.text
    assert '<option value="date_rule" selected>' in page.text
    assert 'href="/variants/ranked"' in client.get("/variants").text


def test_the_ranked_page_refuses_an_unknown_kind() -> None:
    page = client.get("/variants/ranked?kind=<script>")
    assert page.status_code == 400
    assert "<script>" not in page.text


def test_the_changes_page_at_1723_lists_the_hymns_and_the_added_rites() -> None:
    page = client.get("/variants/changes?boundary=1723")
    assert page.status_code == 200
    assert "what changed at 1723 (雍正)" in page.text
    assert "咸和" in page.text and "咸平" in page.text and "Added (" in page.text
    assert client.get("/variants/changes?boundary=99999").status_code in (400, 422)
