"""Shared test configuration.

Tests that need a system package carry a marker naming it (``browser`` needs Debian's chromium). Where
the package is absent they skip and say why; under ``.ci/run`` (``DIANLI_REQUIRE_SYSTEM_PACKAGES=1``)
such a skip is a failure, so CI always runs them.

The on-disk cache (:mod:`dianli.cache`) is a temporary folder of the session's own, set before any test
module is imported (and inherited by the processes tests start): the suite never writes into
``~/.cache`` and no result depends on an earlier run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import pytest
import yaml
from pydantic import BaseModel

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
    "espeak": ("espeak-ng", "apt-get install espeak-ng"),
}


_SESSION_CACHE: tempfile.TemporaryDirectory[str] | None = None
_CACHE_BEFORE: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _SESSION_CACHE, _CACHE_BEFORE
    if _SESSION_CACHE is None:
        _CACHE_BEFORE = os.environ.get("DIANLI_CACHE_DIR")
        _SESSION_CACHE = tempfile.TemporaryDirectory(prefix="dianli-test-cache-")
        os.environ["DIANLI_CACHE_DIR"] = _SESSION_CACHE.name
    for marker, (binary, install) in SYSTEM_PACKAGES.items():
        config.addinivalue_line("markers", f"{marker}: needs the system program {binary} ({install})")


def pytest_unconfigure(config: pytest.Config) -> None:
    global _SESSION_CACHE
    if _SESSION_CACHE is not None:
        if _CACHE_BEFORE is None:
            os.environ.pop("DIANLI_CACHE_DIR", None)
        else:
            os.environ["DIANLI_CACHE_DIR"] = _CACHE_BEFORE
        _SESSION_CACHE.cleanup()
        _SESSION_CACHE = None


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


# --- strict data files: a shipped YAML file copied with one key changed ------------------------------

DataCopy = Callable[[str, str, tuple[str | int, ...], str, object], Path]


@pytest.fixture()
def data_copy(tmp_path: Path) -> DataCopy:
    """Call with (package, file name, path to an element, key, value): a copy of ``dianli/<package>/data/
    <name>`` in ``tmp_path`` with ``key: value`` set in that element."""

    def make(package: str, name: str, path: tuple[str | int, ...], key: str, value: object) -> Path:
        text = resources.files(f"dianli.{package}").joinpath("data", name).read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        node: Any = data
        for part in path:
            node = node[part]
        node[key] = value
        target = tmp_path / name
        target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return target

    return make


def assert_unknown_key(path: Path, model: type[BaseModel], element: str, accepted: str, key: str) -> None:
    """Loading ``path`` as ``model`` fails naming the file, the element, the key and an accepted key."""
    from dianli.datafile import load_model_path
    from dianli.errors import DataError

    with pytest.raises(DataError) as info:
        load_model_path(path, model)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert f"{element}: unknown key {key!r}; accepted keys: " in message
    assert accepted in message.split("accepted keys: ", 1)[1].split(", ")


@pytest.fixture()
def unknown_key_fails() -> Callable[[Path, type[BaseModel], str, str, str], None]:
    """:func:`assert_unknown_key`, as a fixture (test folders without ``__init__`` cannot import it)."""
    return assert_unknown_key


@pytest.fixture()
def stable_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """The package's files taken as unchanged while the test runs, so that what it computes is stored at
    :func:`dianli.cache.flush` even if the checkout is being edited meanwhile (a result made during an
    edit is otherwise dropped: tests/test_cache.py checks that)."""
    from dianli import cache

    monkeypatch.setattr(cache, "_read_package_digest", cache._package_digest)


class CachedFunction(Protocol):
    """A function memoised in the process (functools.cache) whose result is also kept on disk."""

    def __call__(self, *args: Any) -> Any: ...

    def cache_clear(self) -> None: ...


@pytest.fixture()
def cold_and_warm(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, stable_package: None
) -> Iterator[Callable[..., tuple[Any, Any]]]:
    """``cold_and_warm(function, *args)``: ``function(*args)`` made with an empty on-disk cache, then read
    back from it in a fresh process state — (cold, warm), for tests that the cache gives what a cold read
    gives."""
    from dianli import cache

    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    used: list[CachedFunction] = []

    def run(function: CachedFunction, *args: Any) -> tuple[Any, Any]:
        used.append(function)
        function.cache_clear()
        cold = function(*args)
        cache.flush()  # written at the end of a process; here, now
        assert list((tmp_path / cache.DERIVED).rglob("*.pickle"))
        function.cache_clear()
        warm = function(*args)
        assert warm is not cold
        return cold, warm

    yield run
    for function in used:
        function.cache_clear()
