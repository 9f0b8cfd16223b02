"""The exported animation in headless Chromium: no console errors, the first and the last pose shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from dianli.dance.animate import render_html as dance_html

pytestmark = pytest.mark.browser


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
