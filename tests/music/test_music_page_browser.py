"""The music page in Debian's chromium: the engraved score and the witness's columns follow the audio
(the sounding character is marked in the sung line, on the staff and in the columns)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from dianli.music.cues import character_times
from dianli.web.app import app

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = pytest.mark.browser

_PLAYHEAD = """t => { const a = document.querySelector('audio[data-movement]');
  Object.defineProperty(a, 'currentTime', {value: t, configurable: true});
  a.dispatchEvent(new Event('timeupdate')); }"""
_MARKED = """() => Array.from(document.querySelectorAll('.now')).map(
  el => el.closest('.follow').classList[0] + ':' + (el.id || el.textContent.trim().slice(0, 1)))"""


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_content(TestClient(app).get("/music/chuxian").text)
    yield page
    context.close()


@pytest.mark.parametrize(("index", "char"), [(0, "覺"), (1, "我"), (13, "予"), (31, "正")])
def test_the_sounding_character_is_marked_everywhere(page: Any, index: int, char: str) -> None:
    _lyric, start, end = character_times("chuxian")[index]
    page.evaluate(_PLAYHEAD, (start + end) / 2)
    phrase, position = index // 4 + 1, index % 4 + 1
    marked = sorted(page.evaluate(_MARKED))
    assert marked == sorted(
        [
            f"sung:{char}",
            f"engraved:chuxian-p{phrase}c{position}",
            f"witness-columns:col-p{phrase}c{position}",
        ]
    )
    if index == 13:
        page.screenshot(path=str(ARTIFACTS / "music-engraved-following.png"), full_page=True)


def test_nothing_is_marked_between_characters(page: Any) -> None:
    _lyric, _start, end = character_times("chuxian")[3]
    page.evaluate(_PLAYHEAD, end + 0.1)  # the phrase's closing strokes: no character sounds
    assert page.evaluate(_MARKED) == []
