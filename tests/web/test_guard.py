"""The guard (issue 27 item 9): every page of the app (one URL per route, tests/web/routes_table.py), the
booklet among them with all its figures, at a phone's 390×844 and a desktop's 1280×900 in Debian's chromium.
A page fails on

- horizontal overflow of the page (the document wider than the window: a figure must scroll in its own box);
- text under 11 CSS px as drawn (an SVG's text at its font size times the figure's scale on screen);
- a figure drawn with no width (the dance stage at 0 px) or a scrolling box a keyboard cannot reach
  (a scrollable region needs tabindex="0" and a label);
- a visible internal id (witness, rite, section, rule … ids: tests/data_ids.py, as test_no_data_ids.py) in
  its text or its aria-labels;
- a character drawn as a missing glyph (see ``MISSING``);
- an axe-core violation of serious or critical impact.

One browser, one page per viewport reused for every URL. Screenshots go to test-artifacts/screens/ (kept by
CI as an artifact; the folder is gitignored).

How a missing glyph is found: chromium draws a character no font covers with the .notdef glyph of the
first font of the stack. Each character is drawn alone on a canvas in the page's own font stack and its
pixels compared with those of a noncharacter (U+10FFFD, which no font has); identical pixels are tofu.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..data_ids import ids_in, shown, visible_text
from .routes_table import PAGES

pytestmark = pytest.mark.browser

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 900)}
MIN_TEXT_PX = 11.0
LOAD_MS = 180_000
SCREENSHOT_MAX_PX = 9000
"""A screenshot shows a long page's first 9000 px (the booklet runs to some 60 000)."""
BLOCKING = ("serious", "critical")
NOT_CHECKED_FOR_IDS = {
    "align": "a developers' report of data paths (as tests/web/test_no_data_ids.py)",
    "export": "the data dictionary documents columns whose values are ids",
}

CHECK_JS = r"""
(minPx) => {
  const out = {overflow: 0, small: [], empty: [], unreachable: []};
  const doc = document.documentElement;
  out.overflow = Math.max(doc.scrollWidth, document.body ? document.body.scrollWidth : 0) - window.innerWidth;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== "hidden" && s.display !== "none" && !el.closest("details:not([open]) > :not(summary)");
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || seen.has(el) || !node.textContent.trim()) continue;
    if (el.closest("script,style,noscript,template,title,desc")) continue;
    seen.add(el);
    if (!visible(el)) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM) {
      const m = el.getScreenCTM();
      if (m) px = px * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    if (px < minPx - 0.05) out.small.push(`${px.toFixed(1)}px: ${node.textContent.trim().slice(0, 30)}`);
  }
  for (const fig of document.querySelectorAll("figure, svg:not(figure svg):not(button svg):not(a svg), iframe, canvas")) {
    if (fig.closest("details:not([open])") || fig.closest("svg svg")) continue;
    const r = fig.getBoundingClientRect();
    const hidden = getComputedStyle(fig).display === "none";
    if (!hidden && (r.width < 1 || r.height < 1) && fig.getAttribute("aria-hidden") !== "true")
      out.empty.push(`${fig.tagName.toLowerCase()}${fig.id ? "#" + fig.id : ""}.${fig.getAttribute("class") || ""}`);
  }
  for (const el of document.querySelectorAll("body *")) {
    if (el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1) continue;
    const s = getComputedStyle(el);
    const scrolls = /(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1
      || /(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
    if (!scrolls || el.closest("details:not([open])")) continue;
    const focusable = el.tabIndex >= 0 || el.querySelector("a[href],button,input,select,textarea,[tabindex]");
    const named = el.getAttribute("aria-label") || el.getAttribute("aria-labelledby") || el.getAttribute("title");
    if (!focusable || (el.tabIndex >= 0 && !named && !el.querySelector("a[href],button,input,select,textarea")))
      out.unreachable.push(`${el.tagName.toLowerCase()}.${el.getAttribute("class") || ""}`);
  }
  out.chars = Array.from(new Set(Array.from(document.body ? document.body.innerText : ""))).join("");
  out.labels = Array.from(document.querySelectorAll("[aria-label]")).map((e) => e.getAttribute("aria-label")).join(" | ");
  return out;
}
"""

GLYPH_JS = r"""
(chars) => {
  const font = getComputedStyle(document.body).fontFamily;
  const size = 24;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size * 2;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  const draw = (ch) => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.font = `${size}px ${font}`;
    ctx.textBaseline = "top";
    ctx.fillText(ch, 4, 4);
    return ctx.getImageData(0, 0, canvas.width, canvas.height).data.join(",");
  };
  const tofu = draw(String.fromCodePoint(0x10FFFD));
  return Array.from(chars).filter((ch) => /\S/.test(ch) && draw(ch) === tofu);
}
"""


@pytest.fixture(scope="module")
def axe() -> Any:
    sync = pytest.importorskip("axe_playwright_python.sync_playwright", reason="needs axe-playwright-python")
    return sync.Axe()


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[dict[str, Any]]:
    SCREENS.mkdir(parents=True, exist_ok=True)
    contexts = {
        name: browser.new_context(viewport={"width": w, "height": h}) for name, (w, h) in VIEWPORTS.items()
    }
    yield {name: context.new_page() for name, context in contexts.items()}
    for context in contexts.values():
        context.close()


@pytest.fixture(scope="module")
def tofu(web_server: str, pages: dict[str, Any]) -> set[str]:
    """The characters of the corpus (every witness's text) and of every data file that no font draws here."""
    from dianli.corpus.witnesses import load_witness, witness_ids

    chars: set[str] = set()
    for witness in witness_ids():
        chars.update(load_witness(witness).raw)
    for path in (Path(__file__).resolve().parents[2] / "src" / "dianli").rglob("*.yaml"):
        chars.update(path.read_text(encoding="utf-8"))  # the rite, music, dance, place data and the readings
    page = pages["desktop"]
    page.goto(web_server + "/", timeout=LOAD_MS)
    # private-use code points are never shown (dianli.corpus.supplied writes them in 〔〕)
    ordered = "".join(sorted(c for c in chars if ord(c) > 0x2E7F and not 0xE000 <= ord(c) <= 0xF8FF))
    return set(page.evaluate(GLYPH_JS, ordered))


def test_every_character_of_the_corpus_has_a_glyph_or_a_supplied_form(tofu: set[str]) -> None:
    from dianli.program.nofont import supplied_forms

    assert sorted(tofu - set(supplied_forms())) == []


def _cases() -> list[Any]:
    return [
        pytest.param(view, name, url, id=f"{name}-{view}")
        for name, url in PAGES.items()
        for view in VIEWPORTS
    ]


@pytest.mark.parametrize(("view", "name", "url"), _cases())
def test_the_page_as_its_reader_meets_it(
    web_server: str, pages: dict[str, Any], axe: Any, tofu: set[str], view: str, name: str, url: str
) -> None:
    page = pages[view]
    response = page.goto(web_server + url, timeout=LOAD_MS)
    assert response is not None and response.ok, url
    page.wait_for_load_state("load")
    tall = min(page.evaluate("document.documentElement.scrollHeight"), SCREENSHOT_MAX_PX)
    width = VIEWPORTS[view][0]
    page.screenshot(
        path=str(SCREENS / f"{name}-{view}.png"),
        full_page=True,
        clip={"x": 0, "y": 0, "width": width, "height": tall},
        timeout=LOAD_MS,
    )
    problems: list[str] = []
    for frame in page.frames:
        found = frame.evaluate(CHECK_JS, MIN_TEXT_PX)
        where = "" if frame == page.main_frame else " (in its frame)"
        if frame == page.main_frame and found["overflow"] > 1:
            problems.append(f"the page is {found['overflow']} px wider than the window")
        problems += [f"text under {MIN_TEXT_PX:g} px{where}: {s}" for s in found["small"][:8]]
        problems += [f"a figure drawn with no size{where}: {s}" for s in found["empty"]]
        problems += [f"a scrolling box no keyboard reaches{where}: {s}" for s in found["unreachable"][:8]]
        missing = sorted(set(found["chars"]) & tofu)
        problems += [f"a missing glyph{where}: {c} (U+{ord(c):04X})" for c in missing]
        if name not in NOT_CHECKED_FOR_IDS:
            problems += [f"an id in an aria-label{where}: {i}" for i in ids_in(found["labels"])]
    if name not in NOT_CHECKED_FOR_IDS:
        text = visible_text(page.content())
        problems += shown(text, ids_in(text))
    results = axe.run(page)
    problems += [
        f"axe {v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
        if v["impact"] in BLOCKING
    ]
    assert problems == [], "\n".join(problems)


def test_screenshot_names_are_plain() -> None:
    assert all(re.fullmatch(r"[a-z_]+", name) for name in PAGES)


def test_printing_the_booklet_shows_every_collapsed_card(web_server: str, pages: dict[str, Any]) -> None:
    page = pages["desktop"]
    page.goto(web_server + PAGES["program"], timeout=LOAD_MS)
    closed = page.evaluate("document.querySelectorAll('details:not([open])').length")
    assert closed > 0  # 祭器 · 祭物, the other roles …
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    hidden = page.evaluate(
        """Array.from(document.querySelectorAll('details')).filter((d) => !d.open ||
           Array.from(d.children).some((c) => c.tagName !== 'SUMMARY' && c.getBoundingClientRect().height === 0
             && getComputedStyle(c).display !== 'none')).length"""
    )
    page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    assert hidden == 0
    assert page.evaluate("document.querySelectorAll('details:not([open])').length") == closed
