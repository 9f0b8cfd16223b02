"""The timeline page: dated events of a place's witnesses as an offline SVG and a list; bad input a 4xx."""

from __future__ import annotations

from xml.etree import ElementTree as etree

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import app

client = TestClient(app)


def test_the_page_of_a_place() -> None:
    page = client.get("/timeline", params={"place": "諸羅縣"})
    assert page.status_code == 200
    text = page.text
    assert "<svg" in text and "<title>" in text and 'id="event-1"' in text
    assert "康熙五十四年" in text and "諸羅縣志" in text and "臺灣府志" in text
    assert 'name="viewport"' in text and "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    svg = text[text.index("<svg") : text.index("</svg>") + 6]
    root = etree.fromstring(svg.encode())
    marks = list(root.iter("{http://www.w3.org/2000/svg}circle"))
    assert len(marks) == text.count('<li id="event-')


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"witness": "taiwan-xianzhi-6"}, "1712-03-10"),
        ({"witness": "penghu-jilue-2", "from": "1600", "until": "1700"}, "天啟四年七月"),
        ({}, "dated events"),
    ],
)
def test_selections(params: dict[str, str], needle: str) -> None:
    page = client.get("/timeline", params=params)
    assert page.status_code == 200 and needle in page.text


def test_the_dates_of_one_rite() -> None:
    """?rite= keeps the dates whose clause states the rite (the correspondence table), each saying so."""
    page = client.get("/timeline", params={"place": "鳳山縣", "rite": "山川"})
    assert page.status_code == 200
    text = page.text
    listed = text[text.index('<ol class="events">') : text.index("</ol>", text.index('<ol class="events">'))]
    count = listed.count('<li id="event-')
    assert count and listed.count("states: ") == count and "in a clause that states 祭山川禮" in text
    assert "雍正二年奏准" in listed and "--rite 祭山川禮" in text
    everything = client.get("/timeline", params={"place": "鳳山縣"}).text
    assert everything.count('<li id="event-') > count


@pytest.mark.parametrize(
    ("params", "needle"),
    [
        ({"rite": "<script>"}, "shanchuan"),
        ({"place": "<script>"}, "臺灣省"),
        ({"witness": "<b>x"}, "taiwan-fuzhi-9"),
        ({"from": "x"}, "from"),
    ],
)
def test_bad_input_is_a_4xx_naming_what_is_accepted(params: dict[str, str], needle: str) -> None:
    page = client.get("/timeline", params=params)
    assert 400 <= page.status_code < 500
    assert needle in page.text and "<script>" not in page.text and "<b>x" not in page.text


@pytest.mark.parametrize(
    ("params", "events", "carried"),
    [({"witness": "zhuluo-xianzhi-4"}, 22, 7), ({"witness": "zhuluo-xianzhi-4", "explicit": "1"}, 15, 0)],
)
def test_carried_eras_on_the_page(params: dict[str, str], events: int, carried: int) -> None:
    page = client.get("/timeline", params=params)
    assert page.status_code == 200
    text = page.text
    svg = text[text.index("<svg") : text.index("</svg>")]
    listed = text[text.index('<ol class="events">') : text.index("</ol>", text.index('<ol class="events">'))]
    assert listed.count('<li id="event-') == events
    assert listed.count('<span class="note">era carried over from') == carried
    assert svg.count("era carried over from") == carried  # in the marks' titles
    if carried:
        assert "〔康熙〕四十三年" in listed and f"{carried} of them with the era carried over" in text
        assert "explicit=1" in text
    else:
        assert "〔" not in listed + svg and "checked" in text and "--explicit-only" in text
