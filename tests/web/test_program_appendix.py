"""The program page offers the print editions of `dianli program --appendix`: full, compact and none."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

client = TestClient(app)
URL = "/program/xianshi?place=臺灣府&year=1752"


@pytest.mark.parametrize(
    ("appendix", "passages", "context"),
    [("full", True, True), ("compact", True, False), ("none", False, False)],
)
def test_each_edition_is_served(appendix: str, passages: bool, context: bool) -> None:
    page = client.get(f"{URL}&appendix={appendix}")
    assert page.status_code == 200
    assert ('id="passages"' in page.text) is passages
    assert ('class="ctx"' in page.text) is context
    chosen = re.search(r'<option value="(\w+)" selected>', page.text)
    assert chosen is not None and chosen.group(1) == appendix


def test_the_form_keeps_the_ceremony_and_names_no_id() -> None:
    form = re.search(r'<form class="edition.*?</form>', client.get(URL).text, re.S)
    assert form is not None
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form.group(0)))
    assert hidden == {"place": "臺灣府", "year": "1752", "season": "spring"}
    again = client.get("/program/xianshi", params={**hidden, "appendix": "compact"})
    assert again.status_code == 200 and 'class="appendix compact"' in again.text


def test_an_unknown_edition_names_the_accepted_ones() -> None:
    page = client.get(f"{URL}&appendix=short")
    assert page.status_code == 400
    for word in ("short", "full", "compact", "none"):
        assert word in page.text
