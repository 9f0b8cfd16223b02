"""Shared test configuration.

Tests that need a system package carry a marker naming it (``browser`` needs Debian's chromium). Where
the package is absent they skip and say why; under ``.ci/run`` (``DIANLI_REQUIRE_SYSTEM_PACKAGES=1``)
such a skip is a failure, so CI always runs them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    # as root, headless, with no network but loopback: no sandbox, no GPU, no background connections
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

SYSTEM_PACKAGES: dict[str, tuple[str, str]] = {
    # marker: (executable, how to install)
    "browser": ("chromium", "apt-get install chromium"),
}


def pytest_configure(config: pytest.Config) -> None:
    for marker, (binary, install) in SYSTEM_PACKAGES.items():
        config.addinivalue_line("markers", f"{marker}: needs the system program {binary} ({install})")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker, (binary, install) in SYSTEM_PACKAGES.items():
        if item.get_closest_marker(marker) is None or shutil.which(binary):
            continue
        message = f"needs the system program {binary!r}, which is not installed ({install})"
        if os.environ.get("DIANLI_REQUIRE_SYSTEM_PACKAGES") == "1":
            pytest.fail(f"{message}; CI requires it", pytrace=False)
        pytest.skip(message)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright, shared by every browser-marked test."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"needs {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        yield launched
        launched.close()
