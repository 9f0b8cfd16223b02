"""The pages as a reader meets them, in Debian's chromium: the audio's duration and seeking (HTTP Range),
every page on a 390-px-wide phone, the calendar's dates on one line, the spring ox readable and its text
boxes apart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.routes_table import PAGES, URLS

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
LOAD_MS = 180_000  # a first request of the program or the alignment computes it
AUDIO_MS = 120_000

TEXT_BOXES = """(root) => {
  const frame = root.getBoundingClientRect();
  const boxes = [...root.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
  const problems = [];
  boxes.forEach(([text, b], i) => {
    if (b.left < frame.left - 0.5 || b.top < frame.top - 0.5 || b.right > frame.right + 0.5 || b.bottom > frame.bottom + 0.5)
      problems.push(`outside the picture: ${text}`);
    for (const [other, c] of boxes.slice(i + 1))
      if (b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom)
        problems.push(`overlap: ${text} | ${other}`);
  });
  return problems;
}"""

SMALLEST_TEXT_PX = """(svg) => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')))) * scale;
}"""


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    yield context.new_page()
    context.close()


@pytest.fixture()
def desktop(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def test_audio_has_a_finite_duration_and_seeks(web_server: str, desktop: Any) -> None:
    desktop.goto(web_server + URLS["music"], timeout=LOAD_MS)
    desktop.evaluate("() => { const a = document.querySelector('audio'); a.preload = 'metadata'; a.load(); }")
    desktop.wait_for_function(
        "() => { const a = document.querySelector('audio'); return a.readyState >= 1 && a.duration > 0; }",
        timeout=AUDIO_MS,
    )
    duration = desktop.evaluate("document.querySelector('audio').duration")
    sung = desktop.evaluate(
        "Math.max(...[...document.querySelectorAll('[data-end]')].map(e => +e.dataset.end))"
    )
    assert duration != float("inf")
    assert sung - 0.5 < duration < sung + 30, "the audio lasts as long as the score's characters"
    seekable = desktop.evaluate(
        "(() => { const s = document.querySelector('audio').seekable; return [s.length, s.end(0)]; })()"
    )
    assert seekable[0] == 1 and seekable[1] == pytest.approx(duration, abs=0.1)
    target = round(duration * 0.6, 1)
    landed = desktop.evaluate(
        """(t) => new Promise(done => { const a = document.querySelector('audio');
             a.addEventListener('seeked', () => done(a.currentTime), {once: true}); a.currentTime = t; })""",
        target,
    )
    assert landed == pytest.approx(target, abs=0.25)


@pytest.mark.parametrize(("name", "url"), list(PAGES.items()), ids=list(PAGES))
def test_every_page_fits_a_phone(web_server: str, phone: Any, name: str, url: str) -> None:
    response = phone.goto(web_server + url, timeout=LOAD_MS)
    assert response.ok
    width = phone.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        ARTIFACTS.mkdir(exist_ok=True)
        phone.screenshot(path=str(ARTIFACTS / f"phone-{name}.png"))
    assert width <= PHONE["width"], f"{url} is {width} px wide on a {PHONE['width']}-px phone"


def test_calendar_dates_stay_on_one_line_on_a_phone(web_server: str, phone: Any) -> None:
    phone.goto(web_server + URLS["calendar"], timeout=LOAD_MS)
    heights = phone.evaluate(
        """[...document.querySelectorAll('table.calendar td.date, table.calendar td.cdate')]
             .filter(td => td.textContent.trim())
             .map(td => [td.textContent, td.getBoundingClientRect().height / parseFloat(getComputedStyle(td).lineHeight)])"""
    )
    assert len(heights) > 20
    assert [text for text, lines in heights if lines >= 1.5] == []
    assert any(text.startswith("乾隆十") and len(text) >= 9 for text, _ in heights)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "phone-calendar.png"))


def test_spring_ox_pictures_are_readable_and_their_text_boxes_apart(web_server: str, desktop: Any) -> None:
    desktop.goto(web_server + URLS["spring_ox"], timeout=LOAD_MS)
    pictures = desktop.locator(".ox figure svg")
    assert pictures.count() == 2
    for i in range(pictures.count()):
        svg = pictures.nth(i)
        assert svg.evaluate(TEXT_BOXES) == []
        assert svg.evaluate(SMALLEST_TEXT_PX) >= 11, "the smallest text of the picture is at least 11 px"
        legend = svg.evaluate("s => s.querySelector('#legend').textContent")
        assert legend.endswith("Not given by the rule (neutral): trousers, cap.")
    ARTIFACTS.mkdir(exist_ok=True)
    desktop.screenshot(path=str(ARTIFACTS / "web-spring-ox.png"), full_page=True)


def test_spring_ox_scrolls_in_its_frame_on_a_phone(web_server: str, phone: Any) -> None:
    phone.goto(web_server + URLS["spring_ox"], timeout=LOAD_MS)
    frame = phone.locator(".ox figure").first
    assert frame.evaluate("f => f.scrollWidth > f.clientWidth")
    assert phone.locator(".ox svg").first.evaluate(SMALLEST_TEXT_PX) >= 9.5
