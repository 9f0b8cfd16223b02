"""Every route of the web app through FastAPI's TestClient: status, content, escaping, traversal."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from dianli.web.app import ROUTES, app

client = TestClient(app)


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("/", "祀先師"),
        ("/rites", "祀先師禮"),
        ("/rites/xianshi?place=臺灣府&year=1752", "鼓初嚴"),
        ("/rites/祀先師?place=taiwan-fu&year=1752", "禮畢"),
        ("/rites/xianshi/roles?place=臺灣府&year=1752", "麾生"),
        ("/program/xianshi?place=臺灣府&year=1752", "乾隆十七年二月初五"),
        ("/program/xianshi?place=臺灣府&year=1752&season=autumn", "1752-09-16"),
        ("/program/xianshi/data.json?place=臺灣府&year=1752", '"western": "1752-03-20"'),
        ("/calendar?place=臺灣府&year=1752", "春祭至聖先師"),
        ("/calendar.json?place=臺灣府&year=1752", '"xianshi-spring"'),
        ("/calendar.ics?place=臺灣府&year=1752", "BEGIN:VCALENDAR"),
        ("/music", "寧平"),
        ("/music/chuxian", "data-start"),
        ("/spring-ox?year=1752", "<svg"),
        ("/witnesses", "臺灣府志"),
        ("/witnesses/taiwan-fuzhi-9", "xianshi.zhisheng"),
        ("/witnesses/fujian-tongzhi-14/xianshi.zhisheng", 'class="note"'),
        ("/witnesses/fujian-tongzhi-14/xianshi.zhisheng", "今譯"),
        ("/search?q=钟", "<mark>鐘</mark>"),
        ("/places", "淡水海防廳"),
        ("/places", "臺灣府→臺南府"),
        ("/places?year=1890", "hvd_32029"),
        ("/places?year=1890", "<svg"),
        ("/places?year=1752", "諸羅縣"),
        ("/align/tingzhou-fuzhi?show=variant", "variant"),
        ("/static/site.css", "header.site"),
        ("/static/site.js", "keydown"),
    ],
)
def test_pages(url: str, needle: str) -> None:
    response = client.get(url)
    assert response.status_code == 200, response.text[:500]
    assert needle in response.text


def test_every_route_is_tested() -> None:
    tested = {
        "/", "/rites", "/rites/{rite}", "/rites/{rite}/roles", "/program/{rite}", "/program/{rite}/data.json",
        "/calendar", "/calendar.json", "/calendar.ics", "/music", "/music/{name}", "/music/{name}/audio.ogg",
        "/dance/{name}", "/spring-ox", "/witnesses", "/witnesses/{witness}", "/witnesses/{witness}/{section}",
        "/search", "/places", "/align/{witness}",
        # each tested in its own file: test_collate_page, test_export_page, test_timeline, test_variants
        "/collate/{rite}", "/collate/{rite}.json", "/collate/{rite}.xml", "/export", "/export/datapackage.zip",
        "/timeline", "/variants", "/variants/ranked", "/variants/changes",
        "/variants/{rule}",
        # tested in test_live: the run sheet, its start page, service worker, manifest and icon
        "/live/", "/live/sw.js", "/live/manifest.webmanifest", "/live/icon.svg", "/live/{rite}",
        # tested in test_sources_page
        "/sources",
        # tested in test_review (a drafted witness's proposals; writes need the server's credential)
        "/review/{witness}",
        # tested in test_words (and the guard, test_guard, runs it on every page)
        "/figures.js",
    }  # fmt: skip
    assert {r.path for r in ROUTES} == tested


def test_ical_is_a_download() -> None:
    response = client.get("/calendar.ics?place=臺灣府&year=1752")
    assert response.headers["content-type"].startswith("text/calendar")
    assert 'filename="dianli-taiwan-fu-1752.ics"' in response.headers["content-disposition"]


def test_calendar_json_is_data() -> None:
    data = client.get("/calendar.json?place=臺灣府&year=1752").json()
    assert data["place"] == "taiwan-fu"
    assert any(e["date"] == "1752-03-20" and e["rite"] == "xianshi" for e in data["entries"])


def test_program_page_is_cached_and_links_its_passages() -> None:
    first = client.get("/program/xianshi?place=臺灣府&year=1752")
    again = client.get("/program/祀先師?place=taiwan-fu&year=1752")
    assert first.text == again.text
    assert "max-age" in first.headers["cache-control"]
    ids = set(re.findall(r'id="(c\d+)"', first.text))
    links = set(re.findall(r'href="#(c\d+)"', first.text))
    assert links and links <= ids
    assert 'src="/music/yingshen/audio.ogg"' in first.text


def test_program_json_matches_the_booklet() -> None:
    data = json.loads(client.get("/program/xianshi/data.json?place=臺灣府&year=1752").text)
    assert data["steps"][0]["part"] == "嚴鼓"
    assert [r["rite"] for r in data["rites"]][:2] == ["chongsheng", "xianshi"]  # 崇聖祠 first
    assert data["rites"][1]["officiants"][0]["function"] == "正獻官"


@pytest.mark.parametrize(
    ("url", "status", "needle"),
    [
        ("/rites/nope", 400, "xianshi"),
        ("/rites/xianshi?year=1500", 400, "1644..2100"),
        ("/rites/xianshi?place=Atlantis", 400, "臺灣府"),
        ("/program/xianshi?season=monsoon", 400, "autumn"),
        ("/calendar?year=abc", 422, "1644..1911"),
        ("/calendar.json?year=3000", 400, "1644..2100"),
        ("/music/nope", 400, "chuxian"),
        ("/music/nope/audio.ogg", 400, "chuxian"),
        ("/dance/nope", 400, "chuxian"),
        ("/spring-ox?year=99999", 400, "2200"),
        ("/witnesses/nope", 400, "taiwan-fuzhi-9"),
        ("/witnesses/taiwan-fuzhi-9/nope", 400, "xianshi.zhisheng"),
        ("/search?q=鐘&witness=nope", 400, "taiwan-fuzhi-9"),
        ("/search?q=" + "鐘" * 60, 400, "1..50"),
        ("/places?year=1600", 400, "1644..1911"),
        ("/places?year=1896x", 422, "1644..1911"),
        ("/nope", 404, "/rites"),
    ],
)
def test_bad_parameters_say_what_is_accepted(url: str, status: int, needle: str) -> None:
    response = client.get(url)
    assert response.status_code == status
    assert needle in response.text


HOSTILE = "<script>alert(1)</script>"


@pytest.mark.parametrize(
    "url",
    [
        f"/search?q={HOSTILE}",
        f"/rites/{HOSTILE}",
        f"/rites/xianshi?place={HOSTILE}",
        f"/program/xianshi?witness={HOSTILE}",
        f"/witnesses/{HOSTILE}",
        f"/witnesses/taiwan-fuzhi-9/{HOSTILE}",
        f"/calendar?place={HOSTILE}",
        f"/spring-ox?place={HOSTILE}",
        f"/music/{HOSTILE}",
    ],
)
def test_hostile_values_are_escaped(url: str) -> None:
    response = client.get(url)
    assert HOSTILE not in response.text
    if response.status_code == 200:
        return
    assert 400 <= response.status_code < 500
    assert "&lt;script&gt;" in response.text or response.status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/static/../app.py",
        "/static/..%2fapp.py",
        "/static/..%2F..%2Fpyproject.toml",
        "/static/%2e%2e/%2e%2e/web/app.py",
        "/witnesses/..%2F..%2Fetc%2Fpasswd",
        "/witnesses/taiwan-fuzhi-9/..%2F..%2Fetc%2Fpasswd",
        "/witnesses/../../etc/passwd",
        "/music/..%2F..%2Fapi.py/audio.ogg",
    ],
)
def test_no_path_traversal(url: str) -> None:
    response = client.get(url)
    assert 400 <= response.status_code < 500
    assert "def create_app" not in response.text and "root:" not in response.text


def test_movement_audio_and_dance() -> None:
    audio = client.get("/music/chuxian/audio.ogg")
    assert audio.status_code == 200
    assert audio.headers["content-type"] == "audio/ogg" and audio.content[:4] == b"OggS"
    dance = client.get("/dance/chuxian")
    assert dance.status_code == 200 and "data:audio/ogg;base64," in dance.text


@pytest.mark.parametrize(("year", "present", "absent"), [(1890, ["臺南府", "臺灣府", "臺東州"], ["淡水廳"]),
                                                        (1752, ["淡水廳", "諸羅縣"], ["臺南府", "臺北府"])])  # fmt: skip
def test_places_of_a_year_with_their_map(year: int, present: list[str], absent: list[str]) -> None:
    response = client.get(f"/places?year={year}")
    assert response.status_code == 200
    svg = response.text[response.text.index("<svg") : response.text.index("</svg>")]
    assert 'viewBox="' in svg and "<script" not in svg
    for name in present:
        assert name in svg
    for name in absent:
        assert name not in svg


@pytest.mark.parametrize(
    "year", [HOSTILE, f"1890{HOSTILE}", "1890&year=<b>", "%3Csvg%20onload%3Dalert(1)%3E"]
)
def test_a_hostile_year_is_refused_and_not_echoed(year: str) -> None:
    response = client.get(f"/places?year={year}")
    assert response.status_code == 422
    assert (
        "<script>alert" not in response.text
        and "<svg onload" not in response.text
        and "<b>" not in response.text
    )
    assert "1644..1911" in response.text


@pytest.mark.parametrize(
    ("path", "status", "needle"), [("/dance/迎神", 400, "有樂無舞"), ("/dance/寧平", 200, "寧平")]
)
def test_dance_page_by_name_and_an_undanced_movement(path: str, status: int, needle: str) -> None:
    response = client.get(path)
    assert response.status_code == status and needle in response.text


FIXTURE = Path(__file__).parents[1] / "fixtures" / "witnesses" / "test-fixture-gazetteer"
SERVE_A_PAGE = """
import sys
from fastapi.testclient import TestClient
from dianli.web.app import create_app
response = TestClient(create_app(), raise_server_exceptions=False).get(sys.argv[1])
print(response.status_code)
print(response.text)
"""


@pytest.mark.parametrize("url", ["/witnesses", "/witnesses/test-fixture-gazetteer", "/search?q=root"])
def test_a_fragment_linked_out_of_its_folder_is_never_served(tmp_path: Path, url: str) -> None:
    """Issue 28: a witness fragment that is a link to /etc/passwd is refused (the page names the link and
    says why), never read into a page. A fresh process: the corpus is read once per process."""
    folder = tmp_path / "witnesses" / FIXTURE.name
    shutil.copytree(FIXTURE, folder)
    fragment = next(folder.glob("*.txt"))
    fragment.unlink()
    fragment.symlink_to("/etc/passwd")
    env = {**os.environ, "DIANLI_WITNESSES": str(folder.parent)}
    done = subprocess.run(
        [sys.executable, "-c", SERVE_A_PAGE, url], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    status, page = done.stdout.split("\n", 1)
    assert status == "400", page[:2000]
    said = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "leads to /etc/passwd, outside the folder" in said
    assert "root:x:" not in page and "/bin/" not in page
    assert (
        str(tmp_path) not in page and f"{FIXTURE.name}/{fragment.name}" in said
    )  # not where the server keeps it
