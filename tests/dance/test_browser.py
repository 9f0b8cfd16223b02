"""The exported animation in headless Chromium: no console errors, the first and the last pose shown."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dianli.api import dance_html

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"needs {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="needs the playwright package (pip install playwright)"
    )
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.mark.parametrize(("movement", "first", "last"), [("寧平", "覺", "正"), ("景平", "猗", "喜")])
def test_opens_without_errors_and_shows_first_and_last_pose(
    browser,
    tmp_path: Path,
    movement: str,
    first: str,
    last: str,  # type: ignore[no-untyped-def]
) -> None:
    path = tmp_path / "dance.html"
    path.write_text(dance_html(movement), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1400, "height": 820})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    for index, char in ((0, first), (31, last)):
        assert page.evaluate(f"window.dianliDance.show({index})") == char
        assert page.inner_text("#char") == char
        figures = page.evaluate("document.querySelectorAll('#stage polygon').length")
        assert figures >= 38, "the robes of the whole formation and the close-up pair are drawn"
        shot = page.screenshot()
        assert len(shot) > 20_000
    page.evaluate("window.dianliDance.play()")
    page.wait_for_timeout(300)
    page.evaluate("window.dianliDance.pause()")
    assert errors == []
    page.close()
