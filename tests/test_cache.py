"""The on-disk cache: where it lives, keys, atomic writes, switched off, unwritable."""

from __future__ import annotations

from pathlib import Path

import pytest

from dianli import cache


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"DIANLI_CACHE_DIR": "/tmp/x"}, Path("/tmp/x")),
        ({"DIANLI_CACHE_DIR": ""}, None),
        ({"DIANLI_CACHE_DIR": "off"}, None),
        ({"XDG_CACHE_HOME": "/tmp/xdg"}, Path("/tmp/xdg/dianli")),
    ],
)
def test_root(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], expected: Path | None) -> None:
    monkeypatch.delenv("DIANLI_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert cache.root() == expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (("ab", "c"), ("a", "bc")),  # parts are length-prefixed, so a shifted boundary is another key
        (("x",), (b"y",)),
        (("1", "2"), ("2", "1")),
    ],
)
def test_keys_differ(a: tuple[str | bytes, ...], b: tuple[str | bytes, ...]) -> None:
    assert cache.key(*a) != cache.key(*b)


def test_key_is_stable_for_str_and_bytes() -> None:
    assert cache.key("典禮") == cache.key("典禮".encode())


def test_write_then_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    entry = cache.key("entry")
    assert cache.read("kind", entry) is None
    where = cache.write("kind", entry, b"\x00data", ".bin")
    assert where is not None and where.is_file() and where.suffix == ".bin"
    assert cache.read("kind", entry, ".bin") == b"\x00data"
    assert not [p for p in where.parent.iterdir() if p.name.startswith(".part-")]


def test_off_reads_and_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", "off")
    assert cache.write("kind", cache.key("x"), b"1") is None
    assert cache.read("kind", cache.key("x")) is None


def test_unwritable_is_not_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(blocker))
    assert cache.write("kind", cache.key("x"), b"1") is None
    assert cache.read("kind", cache.key("x")) is None


def test_version_of_missing_distribution() -> None:
    assert cache.version("no-such-distribution-dianli") == "none"
    assert cache.version("pyyaml") != "none"
