"""No web page shows an id of the data as text (#14 item 5): a witness is named by its short title, a section
by its heading, a rite, movement or place by its Chinese name. Ids stay in URLs and attributes; where a page
shows one on purpose (the witness catalogue, the places table, a variant rule) it is the handle the command
line takes, marked ``<code class="data-id">``. The rule for what counts as an id: tests/data_ids.py."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

from ..data_ids import ids_in, shown, visible_text
from .routes_table import PAGES

client = TestClient(app)

EXEMPT = {
    "align": "a developers' report: each row is a data path of the rite files (xianshi.parts[chuxian].steps[0]) "
    "matched to the witness's text, the path being what a reading file names",
    "export": "the data package's data dictionary: it documents columns whose values are ids",
}
"""Pages that are about the data's structure, with why."""

OPEN: dict[str, str] = {}
"""Pages whose ids come from another helper's files: known, reported, expected to fail until fixed there."""


def _params() -> list[object]:
    return [
        pytest.param(
            url, id=name, marks=pytest.mark.xfail(strict=True, reason=OPEN[name]) if name in OPEN else ()
        )
        for name, url in PAGES.items()
        if name not in EXEMPT
    ]


@pytest.mark.parametrize("url", _params())
def test_no_data_id_on_the_page(url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, url
    text = visible_text(response.text)
    found = ids_in(text)
    assert not found, shown(text, found)


@pytest.mark.parametrize("name", sorted(EXEMPT) + sorted(OPEN))
def test_each_exemption_names_a_page(name: str) -> None:
    assert name in PAGES


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/program/xianshi?place=臺灣府&year=1752", "reading of 臺灣府志"),
        ("/rites/xianshi?place=臺灣府&year=1752", "臺灣府志"),
        ("/dance/chuxian", "初獻（寧平）"),
        ("/music/chuxian", "Witness: 臺灣府志「"),
        ("/witnesses/taiwan-fuzhi-9", "臺灣府志"),
    ],
)
def test_the_page_names_them(url: str, name: str) -> None:
    assert name in " ".join(visible_text(client.get(url).text).split())
