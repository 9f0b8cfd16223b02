"""Shared test configuration.

Tests that need a system package carry a marker naming it (``browser`` needs Debian's chromium). Where
the package is absent they skip and say why; under ``.ci/run`` (``DIANLI_REQUIRE_SYSTEM_PACKAGES=1``)
such a skip is a failure, so CI always runs them.
"""

from __future__ import annotations

import os
import shutil

import pytest

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
