"""The page /sources: every outside source with its grade, what it supports and where; a bad kind is a
400 naming the accepted kinds."""

from __future__ import annotations

import lxml.html
import pytest
from fastapi.testclient import TestClient
from markupsafe import escape

from dianli.corpus.sources import outside_sources
from dianli.web.app import app

client = TestClient(app)


def test_every_source_is_on_the_page_with_its_grade() -> None:
    page = client.get("/sources")
    assert page.status_code == 200
    for source in outside_sources().values():
        assert f'<dt id="{source.id}">' in page.text
        assert str(escape(source.grade)) in page.text
    assert "web summary, read in a forum post — weak: never alone" in page.text
    assert "the spring-ox rules" in page.text  # where a source is relied on, in words


@pytest.mark.parametrize(
    ("shown", "hidden"),
    [
        ("zh.wikisource.org › 欽定大清一統志 (四庫全書本) › 卷335", "%E6%AC%BD"),  # an address decoded
        ("named in the calendar (program code)", "ASSUMPTION_VISIBLE"),  # no code names
        ("the place data", "places.yaml"),  # no data-file paths
        ("the calendar (program code)", "eclipses.py"),
    ],
)
def test_sources_in_words(shown: str, hidden: str) -> None:
    page = client.get("/sources").text
    assert shown in page
    assert hidden not in _text(page)  # (a link's target keeps its address)


def _text(html: str) -> str:
    return str(lxml.html.fromstring(html).text_content())


@pytest.mark.parametrize(
    ("query", "shown", "hidden"),
    [
        ("?kind=scholarly", "van-aalst-1884", "almanac-forum-youyue"),
        ("?weak=true", "shimonoseki-text", "wenxian-tongkao-264"),
    ],
)
def test_the_filters(query: str, shown: str, hidden: str) -> None:
    page = client.get("/sources" + query)
    assert page.status_code == 200
    assert f'<dt id="{shown}">' in page.text
    assert f'<dt id="{hidden}">' not in page.text


def test_a_bad_kind_names_the_accepted_kinds() -> None:
    page = client.get("/sources?kind=blog")
    assert page.status_code == 400
    assert (
        "unknown kind &#39;blog&#39;; accepted: primary, edition, scholarly, reference, news, web-summary"
        in page.text
    )
