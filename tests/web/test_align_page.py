"""The alignment page: a witness's clauses classed against the model, filtered by class, bad input a 4xx."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

client = TestClient(app)


def test_the_page_lists_the_classes_and_marks_variants() -> None:
    page = client.get("/align/tingzhou-fuzhi")
    assert page.status_code == 200
    text = page.text
    assert "tingzhou-fuzhi" in text and "same " in text and "variant " in text and "new " in text
    assert '<table class="align">' in text


@pytest.mark.parametrize("show", ["same", "variant", "new", "missing"])
def test_a_class_at_a_time(show: str) -> None:
    page = client.get("/align/tingzhou-fuzhi", params={"show": show})
    assert page.status_code == 200
    if show == "missing":
        assert "missing elements" in page.text
    else:
        rows = page.text.count("<tr class=")
        assert rows == page.text.count(f'<tr class="{show}">')


@pytest.mark.parametrize(
    ("path", "needle"),
    [("/align/<script>", "taiwan-fuzhi-9"), ("/align/tingzhou-fuzhi?show=<b>x", "variant")],
)
def test_bad_input_is_a_4xx_naming_what_is_accepted(path: str, needle: str) -> None:
    page = client.get(path)
    assert 400 <= page.status_code < 500
    assert needle in page.text and "<script>" not in page.text and "<b>x" not in page.text


def test_the_witnesses_page_links_each_alignment() -> None:
    assert 'href="/align/taiwan-fuzhi-9"' in client.get("/witnesses").text
