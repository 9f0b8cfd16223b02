"""The print edition: the booklet printed to A4 by chromium stays a sensible length in every --appendix
edition (the README states the figures: bench/program.py measures them)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dianli.program.assemble import assemble as assemble_program
from dianli.program.html import render_booklet
from dianli.program.model import Program

pytestmark = pytest.mark.browser

MOST_PAGES = {"full": 60, "compact": 50, "none": 40}
"""Upper bounds of A4 pages for 祀先師 at 臺灣府 in 1752 (52, 43 and 33 when written; 158 before)."""


@pytest.fixture(scope="module")
def xianshi() -> Program:
    return assemble_program("祀先師", "臺灣府", 1752)


def pages(pdf: bytes) -> int:
    return max(int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count (\d+)", pdf))


@pytest.mark.parametrize("appendix", list(MOST_PAGES))
def test_the_printed_booklet_is_a_sensible_length(
    appendix: str, xianshi: Program, browser: Any, tmp_path: Path
) -> None:
    html = tmp_path / f"{appendix}.html"
    html.write_text(render_booklet(xianshi, appendix=appendix), encoding="utf-8")
    page = browser.new_page()
    try:
        page.goto(html.as_uri())
        pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    finally:
        page.close()
    count = pages(pdf)
    assert 10 < count <= MOST_PAGES[appendix], count
    boxes = {tuple(round(float(x)) for x in b.split()) for b in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", pdf)}
    assert boxes == {(0, 0, 595, 842)}  # A4 in points, as the booklet's @page asks
