"""The web app in Debian's chromium (Playwright) against the real server on a free loopback port:
the program's order of service, audio that plays, the dance stepping, witness search, the iCal file.
Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
AUDIO_WAIT_MS = 60_000

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(web_server: str) -> str:
    """The real server (tests/web/conftest.py), shared with the other browser tests."""
    return web_server


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1200, "height": 900}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == []


def test_program_order_of_service(server: str, page: Any) -> None:
    page.goto(f"{server}/program/xianshi?place=臺灣府&year=1752")
    assert page.inner_text("h1") == "祀先師禮"
    assert "乾隆十七年二月初五" in page.inner_text("#date")
    rows = page.locator("#order tr.step")
    assert rows.count() > 100
    assert "與祭畢集祠中" in rows.first.inner_text()  # the night begins at 崇聖祠
    assert page.locator("#order tr.rite-row").count() == 5  # 崇聖祠, 文廟, 朱文公祠, 名宦祠, 鄉賢祠
    assert "禮畢" in page.inner_text("#step-328")  # 文廟's last call, numbered across the occasion
    page.locator("#step-13 a.cite").first.click()
    target = page.evaluate("location.hash")
    assert page.locator(f"{target} mark").inner_text()
    page.goto(f"{server}/program/xianshi?place=臺灣府&year=1752")
    page.screenshot(path=str(ARTIFACTS / "web-program.png"))


def test_audio_plays_and_highlights(server: str, page: Any) -> None:
    page.goto(f"{server}/music/chuxian")
    page.evaluate("document.querySelector('audio').preload = 'auto'")
    page.locator("audio").click()
    page.evaluate("document.querySelector('audio').play()")
    page.wait_for_function("document.querySelector('audio').currentTime > 0.5", timeout=AUDIO_WAIT_MS)
    assert page.evaluate("document.querySelector('audio').paused") is False
    page.evaluate(
        "const a = document.querySelector('audio'); a.currentTime = +document.querySelector('.ch').dataset.start + 0.1"
    )
    page.wait_for_selector(".ch.now", timeout=10_000)
    page.screenshot(path=str(ARTIFACTS / "web-music.png"))


def test_dance_steps(server: str, page: Any) -> None:
    page.goto(f"{server}/dance/chuxian", timeout=AUDIO_WAIT_MS)
    frame = page.frame_locator("iframe.dance")
    first = frame.locator("#char").inner_text()
    frame.locator("#next").click()
    second = frame.locator("#char").inner_text()
    assert first and second and first != second
    assert "東西班 asymmetries" in page.inner_text("#asymmetries")
    page.screenshot(path=str(ARTIFACTS / "web-dance.png"))


def test_search_the_witnesses(server: str, page: Any) -> None:
    page.goto(f"{server}/witnesses")
    page.fill("main input[name=q]", "钟")
    page.press("main input[name=q]", "Enter")
    page.wait_for_selector("#hit-count")
    assert page.locator("ol.hits li").count() > 0
    assert "鐘" in page.locator("ol.hits mark").first.inner_text()
    page.screenshot(path=str(ARTIFACTS / "web-search.png"))


def test_download_the_ical_file(server: str, page: Any, tmp_path: Path) -> None:
    page.goto(f"{server}/calendar?place=臺灣府&year=1752")
    with page.expect_download() as info:
        page.click("#ical")
    path = tmp_path / "cal.ics"
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("BEGIN:VCALENDAR") and "SUMMARY:春祭至聖先師" in text.replace("\r\n ", "")
    page.screenshot(path=str(ARTIFACTS / "web-calendar.png"))
