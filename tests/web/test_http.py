"""HTTP around the pages (dianli.web.responses and the app): HEAD on every route, Range for the audio
(206, 416), ETag and 304, gzip, the favicon; and the dance page's numbering of its asymmetries."""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET

import pytest
from fastapi.testclient import TestClient

from dianli.dance.mirror import asymmetries as dance_asymmetries
from dianli.music.score import movement
from dianli.web.app import ROUTES, app
from dianli.web.responses import byte_range, etag_of
from tests.web.routes_table import URLS

client = TestClient(app)
AUDIO = URLS["music_audio"]


def test_every_route_has_a_representative_url() -> None:
    assert set(URLS) == {r.name for r in ROUTES}


@pytest.mark.parametrize(("name", "url"), list(URLS.items()), ids=list(URLS))
def test_head_on_every_route(name: str, url: str) -> None:
    get = client.get(url)
    head = client.head(url)
    assert get.status_code == 200, get.text[:300]
    assert head.status_code == 200
    assert head.content == b""
    for header in ("content-type", "content-length", "etag", "content-encoding"):
        assert head.headers.get(header) == get.headers.get(header), header
    assert int(get.headers["content-length"]) > 0


@pytest.mark.parametrize(
    ("url", "status"), [("/nope", 404), ("/rites/nope", 400), ("/calendar?year=99", 400)]
)
def test_head_of_an_error_has_its_status_and_no_body(url: str, status: int) -> None:
    head = client.head(url)
    assert head.status_code == status == client.get(url).status_code
    assert head.content == b""


@pytest.mark.parametrize(
    ("header", "size", "expected"),
    [
        ("bytes=0-99", 1000, (0, 99)),
        ("bytes=0-", 1000, (0, 999)),
        ("bytes=990-2000", 1000, (990, 999)),
        ("bytes=-10", 1000, (990, 999)),
        ("bytes=-5000", 1000, (0, 999)),
        (" bytes=5-5 ", 1000, (5, 5)),
        ("bytes=1000-", 1000, "unsatisfiable"),
        ("bytes=1000-1010", 1000, "unsatisfiable"),
        ("bytes=-0", 1000, "unsatisfiable"),
        ("bytes=0-", 0, "unsatisfiable"),
        ("bytes=9-3", 1000, None),
        ("bytes=0-1,5-9", 1000, None),
        ("bytes=-", 1000, None),
        ("items=0-9", 1000, None),
        ("bytes=a-b", 1000, None),
    ],
)
def test_byte_range(header: str, size: int, expected: object) -> None:
    assert byte_range(header, size) == expected


@pytest.fixture(scope="module")
def audio() -> bytes:
    response = client.get(AUDIO)
    assert response.status_code == 200 and response.content[:4] == b"OggS"
    assert response.headers["accept-ranges"] == "bytes"
    return response.content


@pytest.mark.parametrize(
    ("header", "first", "last"),
    [("bytes=0-", 0, -1), ("bytes=0-99", 0, 99), ("bytes=4096-", 4096, -1), ("bytes=-500", -500, -1)],
)
def test_audio_range_is_206_with_content_range(audio: bytes, header: str, first: int, last: int) -> None:
    size = len(audio)
    start, end = first % size, last % size
    response = client.get(AUDIO, headers={"Range": header})
    assert response.status_code == 206
    assert response.headers["content-range"] == f"bytes {start}-{end}/{size}"
    assert response.headers["content-type"] == "audio/ogg"
    assert response.content == audio[start : end + 1]
    assert int(response.headers["content-length"]) == end + 1 - start


@pytest.mark.parametrize("header", ["bytes={size}-", "bytes={size}-{size}", "bytes=-0"])
def test_audio_range_past_the_end_is_416(audio: bytes, header: str) -> None:
    response = client.get(AUDIO, headers={"Range": header.format(size=len(audio))})
    assert response.status_code == 416
    assert response.headers["content-range"] == f"bytes */{len(audio)}"
    assert response.content == b""


@pytest.mark.parametrize("header", ["bytes=9-3", "bytes=0-1,5-9", "lines=1-2"])
def test_a_range_that_is_not_one_byte_range_gets_the_whole_body(audio: bytes, header: str) -> None:
    response = client.get(AUDIO, headers={"Range": header})
    assert response.status_code == 200 and response.content == audio


@pytest.mark.parametrize(("same_etag", "status"), [(True, 206), (False, 200)])
def test_if_range(audio: bytes, same_etag: bool, status: int) -> None:
    tag = etag_of(audio).decode() if same_etag else '"an-older-version"'
    response = client.get(AUDIO, headers={"Range": "bytes=10-19", "If-Range": tag})
    assert response.status_code == status
    assert response.content == (audio[10:20] if same_etag else audio)


@pytest.mark.parametrize("name", ["index", "calendar", "rite", "music_audio", "calendar_json"])
def test_etag_and_304(name: str) -> None:
    first = client.get(URLS[name])
    tag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{24}"', tag)
    again = client.get(URLS[name], headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    other = client.get(URLS[name], headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.content == first.content


@pytest.mark.parametrize(
    ("name", "compressed"), [("calendar", True), ("program_json", True), ("music_audio", False)]
)
def test_text_is_sent_gzipped_to_who_accepts_it(name: str, compressed: bool) -> None:
    plain = client.get(URLS[name], headers={"Accept-Encoding": "identity"})
    zipped = client.get(URLS[name], headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert (zipped.headers.get("content-encoding") == "gzip") is compressed
    assert zipped.content == plain.content  # decoded by the client
    if compressed:
        assert int(zipped.headers["content-length"]) < len(plain.content) / 3
        assert zipped.headers["vary"] == "Accept-Encoding"


def test_gzip_refused_with_q_zero() -> None:
    response = client.get(URLS["calendar"], headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in response.headers


def test_gzip_body_is_the_page() -> None:
    with client.stream("GET", URLS["index"], headers={"Accept-Encoding": "gzip"}) as response:
        body = b"".join(response.iter_raw())
    assert gzip.decompress(body) == client.get(URLS["index"], headers={"Accept-Encoding": "identity"}).content


def test_favicon() -> None:
    svg = client.get("/favicon.svg")
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert ET.fromstring(svg.content).tag == "{http://www.w3.org/2000/svg}svg"
    ico = client.get("/favicon.ico", follow_redirects=False)
    assert ico.status_code == 301 and ico.headers["location"] == "/favicon.svg"
    assert client.head("/favicon.ico", follow_redirects=True).status_code == 200
    page = client.get("/").text
    assert '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' in page


def test_the_dance_page_numbers_characters_from_one() -> None:
    """爰 is the 29th character of 初獻 (寧平); every asymmetry's number points at its character."""
    assert [c.char for c in movement("chuxian").characters].index("爰") + 1 == 29
    pages: dict[str, str] = {}
    items = dance_asymmetries()
    assert items
    for a in items:
        page = pages.setdefault(a.movement, client.get(f"/dance/{a.movement}").text)
        shown = re.findall(rf'href="/dance/{a.movement}">[^<]*</a> · character (\d+) 「(.)」', page)
        assert (str(a.index), a.readings[0].char) in shown
        assert movement(a.movement).characters[a.index - 1].char == a.readings[0].char
    assert "character 29 「爰」" in pages["chuxian"]
    assert "character 30 「爰」" not in pages["chuxian"]
