"""The GuWen page converter: two real pages, saved verbatim as read, give the page extracts of sources/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.corpus import guwen
from dianli.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "guwen"
SOURCES = ROOT / "sources" / "guwen"
WITNESSES = ROOT / "src" / "dianli" / "corpus" / "witnesses"
COMMIT = "1dbb87ec4994a859a7513ee35edac48e37a12af7"

# page, its h1, its number and total, characters of the HTML as read, of its text, first and last words
PAGES = [
    ("澎湖厅志_page4", "澎湖厅志 - 第 4 页/共 16 页", 4, 16, 10890, 9302, "　　妈宫、西屿头", "王廷干等。"),
    ("金门志_page6", "金门志 - 第 6 页/共 13 页", 6, 13, 8075, 6435, "　　从来制度", "则惟愿宏力定者几焉。"),
]
# the curated witness whose text was transcribed from that page
CURATED = {"澎湖厅志_page4": "penghu-tingzhi-2", "金门志_page6": "jinmen-zhi-4"}


def _convert(name: str) -> guwen.PageExtract:
    page = (FIXTURES / f"{name}.html").read_text(encoding="utf-8")
    return guwen.from_html(page, f"史藏/地理/{name}.html", COMMIT)


@pytest.mark.parametrize(("name", "title", "number", "total", "html", "chars", "first", "last"), PAGES)
def test_a_page_converts_to_its_extract(
    name: str, title: str, number: int, total: int, html: int, chars: int, first: str, last: str
) -> None:
    assert len((FIXTURES / f"{name}.html").read_text(encoding="utf-8")) == html  # the page as read
    extract = _convert(name)
    assert (extract.title, extract.number, extract.total, extract.work) == (
        title,
        number,
        total,
        name.split("_")[0],
    )
    assert (len(extract.text), extract.text[: len(first)], extract.text[-len(last) :]) == (chars, first, last)
    assert extract.source == f"lhw828/GuWen 史藏/地理/{name}.html" and extract.commit == COMMIT
    saved = SOURCES / extract.work / f"{name}.txt"
    assert guwen.render(extract) == saved.read_text(encoding="utf-8")  # the extract of sources/
    assert guwen.parse_extract(guwen.render(extract), str(saved)) == extract  # read back


@pytest.mark.parametrize("name", sorted(CURATED))
def test_the_curated_text_stands_in_the_extract(name: str) -> None:
    """Every run of the curated witness's text between its [OMITTED] marks is in the page's extract (the
    first of 金门志 opens with the chapter's title, which stands on the page before)."""
    folder = WITNESSES / CURATED[name]
    text = next(folder.glob("*.txt")).read_text(encoding="utf-8").split("=====\n", 1)[1]
    runs = [r.strip("\n") for r in re.split(r"\[OMITTED:[^\]]*\]", text) if r.strip()]
    extract = _convert(name).text
    found = [run in extract for run in runs]
    assert sum(found) >= len(runs) - 1 and found[-1]


BROKEN = [
    ("<html><body><h1>金门志 - 第 6 页/共 13 页</h1></body></html>", "0 <div"),
    (
        '<html><body><h1>x</h1><div class="content">a</div><div class="content">b</div></body></html>',
        '2 <div class="content">',
    ),
    (
        '<html><body><h1>金门志 - 第 6 页/共 13 页</h1><div class="content">a<b>b</b></div></body></html>',
        "holds markup",
    ),
    ('<html><body><h1>金门志</h1><div class="content">a</div></body></html>', "is not of the form"),
    (
        '<html><body><h1>金门志 - 第 7 页/共 13 页</h1><div class="content">a</div></body></html>',
        "names page 7",
    ),
    (
        '<html><body><h1>金门志 - 第 6 页/共 5 页</h1><div class="content">a</div></body></html>',
        "page 6 of 5",
    ),
]


@pytest.mark.parametrize(("page", "says"), BROKEN)
def test_a_page_of_another_structure_is_a_clear_error(page: str, says: str) -> None:
    with pytest.raises(DataError, match=re.escape(says)):
        guwen.from_html(page, "史藏/地理/金门志_page6.html", COMMIT)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("TITLE: x\n", "line 1"),
        ("PAGE: lhw828/GuWen 史藏/地理/金门志_page6.html\nCOMMIT: abc\nTITLE: t\n-----\nx\n", "40-hex"),
        (
            f"PAGE: lhw828/GuWen 史藏/地理/金门志_page6.html\nCOMMIT: {COMMIT}\nTITLE: 金门志 - 第 6 页/共 13 页\n",
            "line 4",
        ),
        (
            f"PAGE: lhw828/GuWen 史藏/地理/金门志_page6.html\nCOMMIT: {COMMIT}\nTITLE: 金门志 - 第 6 页/共 13 页\n-----\n \n",
            "no text",
        ),
        (f"PAGE: GuWen\nCOMMIT: {COMMIT}\nTITLE: t\n-----\nx\n", "PAGE: GuWen"),
    ],
)
def test_a_broken_extract_is_a_clear_error(text: str, says: str) -> None:
    with pytest.raises(DataError, match=re.escape(says)):
        guwen.parse_extract(text, "broken.txt")


@pytest.mark.parametrize(
    ("path", "title", "number"),
    [
        ("史藏/地理/金门志.html", "金门志", 1),
        ("金门志_page12.html", "金门志", 12),
        ("a/b_c_page3.html", "b_c", 3),
    ],
)
def test_page_names(path: str, title: str, number: int) -> None:
    assert guwen.page_name(path) == (title, number)


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="<>&"), max_size=200)


@settings(max_examples=200, deadline=None)
@given(body=_TEXT, number=st.integers(1, 99), extra=st.integers(0, 50))
def test_any_text_page_round_trips(body: str, number: int, extra: int) -> None:
    """A page of any text converts to an extract that reads back to itself; or, when the text is blank,
    the extract cannot be read back, and says so."""
    total = number + extra
    page = (
        f'<html><body><h1>某志 - 第 {number} 页/共 {total} 页</h1>\n<div class="content">{body}</div>'
        "</body></html>"
    )
    path = f"史藏/地理/某志_page{number}.html" if number > 1 else "史藏/地理/某志.html"
    try:
        extract = guwen.from_html(page, path, COMMIT)
    except DataError:
        return  # a body lxml reads otherwise than as written (a NUL, a lone carriage return) is refused
    assert extract.text == body.replace("\r\n", "\n").strip(" \t\r\n\ufeff") or "\r" in body
    if extract.text and "\r" not in body:
        assert guwen.parse_extract(guwen.render(extract), "x") == extract
    elif not extract.text:
        with pytest.raises(DataError, match="no text"):
            guwen.parse_extract(guwen.render(extract), "x")


@settings(max_examples=200, deadline=None)
@given(page=st.text(max_size=300))
def test_any_input_is_an_extract_or_a_clear_error(page: str) -> None:
    try:
        guwen.from_html(page, "史藏/地理/金门志_page6.html", COMMIT)
    except DataError:
        pass
