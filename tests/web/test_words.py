"""Words, not keys, where a reader looks (issue 27 item 5): the calendar asks for a day chosen by an authority
in a form (not by a command-line option), the dance page names its timing and its gloss's witness in words,
the score's columns picture is labelled by the witness's title, and no aria-label of any page holds an id."""

from __future__ import annotations

import html
import re

import lxml.html
import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

from ..data_ids import ids_in
from .routes_table import PAGES

client = TestClient(app)
CALENDAR = "/calendar?place=臺灣府&year=1752"


def _rows(url: str) -> list[str]:
    doc = lxml.html.fromstring(client.get(url).text)
    return [" ".join(tr.text_content().split()) for tr in doc.xpath("//table//tr")]


def test_the_calendar_asks_for_the_chosen_day_in_a_form() -> None:
    page = client.get(CALENDAR).text
    assert "--day" not in html.unescape(page)
    assert 'name="day-gengji" type="date"' in page
    assert "day chosen for 耕耤禮" in page


def test_a_day_given_in_the_form_is_the_rites_day() -> None:
    rows = _rows(CALENDAR + "&day-gengji=1752-03-10")
    rite = next(r for r in rows if r.startswith("1752-03-10") and "耕耤禮" in r)
    assert "the day given by the user" in rite
    assert not any(r.startswith("1752-03-22") and "耕耤禮" in r for r in rows)  # the default day is gone


def test_a_bad_chosen_day_is_a_clear_error() -> None:
    page = client.get(CALENDAR + "&day-gengji=soon")
    assert page.status_code == 400
    assert "unknown date &#39;soon&#39;" in page.text


@pytest.mark.parametrize(
    ("hidden", "shown"), [("dianli.music", "the music's timeline"), ("(000)", "现代译文")]
)
def test_the_dance_page_in_words(hidden: str, shown: str) -> None:
    page = html.unescape(html.unescape(client.get("/dance/chuxian").text))  # the stage is an escaped srcdoc
    assert hidden not in page
    assert shown in page


def test_the_dance_gloss_names_its_witness() -> None:
    page = html.unescape(client.get("/dance/chuxian").text)
    data = re.search(r'"gloss_witness": ?\{"id": ?"[^"]+", ?"title": ?"([^"]+)"', page)
    assert data is not None and data.group(1) and not re.fullmatch(r"[a-z0-9-]+", data.group(1))


def test_the_columns_picture_is_labelled_by_title() -> None:
    page = client.get("/music/chuxian").text
    labels = re.findall(r'aria-label="([^"]*)"', page)
    assert any("the 樂章 as 臺灣府志 writes it" in label for label in labels)


@pytest.mark.parametrize(
    "url", [pytest.param(url, id=name) for name, url in PAGES.items() if name != "align"]
)
def test_no_aria_label_holds_an_id(url: str) -> None:
    page = client.get(url).text
    labels = " | ".join(html.unescape(v) for v in re.findall(r'aria-label="([^"]*)"', page))
    assert not ids_in(labels), labels[:300]


def test_the_figures_script_is_one_file_with_the_booklets() -> None:
    from importlib import resources

    served = client.get("/figures.js")
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("text/javascript")
    shipped = (
        resources.files("dianli.program").joinpath("templates", "figures.js").read_text(encoding="utf-8")
    )
    assert served.text == shipped
    assert '<script src="/figures.js"></script>' in client.get("/").text
