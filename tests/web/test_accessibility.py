"""axe-core (through axe-playwright-python, which bundles it) on every page of the web app in Debian's
chromium: no violation of serious or critical impact. The pages are one representative URL per route
(tests/web/routes_table.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.routes_table import PAGES

pytestmark = pytest.mark.browser

LOAD_MS = 180_000
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="module")
def axe() -> Any:
    sync = pytest.importorskip("axe_playwright_python.sync_playwright", reason="needs axe-playwright-python")
    return sync.Axe()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context.new_page()
    context.close()


def _described(violations: list[dict[str, Any]]) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:4]]}"
        for v in violations
    ]


@pytest.mark.parametrize(("name", "url"), list(PAGES.items()), ids=list(PAGES))
def test_no_serious_or_critical_violation(web_server: str, page: Any, axe: Any, name: str, url: str) -> None:
    response = page.goto(web_server + url, timeout=LOAD_MS)
    assert response.ok
    results = axe.run(page)
    violations = results.response["violations"]
    assert results.response["passes"], "axe ran its rules"
    assert _described([v for v in violations if v["impact"] in BLOCKING]) == []
