"""Package data files load through one helper; a broken file names itself."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from dianli.datafile import load_model, load_model_path
from dianli.errors import DataError


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rows: tuple[int, ...]


@pytest.fixture()
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A throw-away package dianli.<name> on sys.path, so load_model reads files we write."""
    import sys

    import dianli

    monkeypatch.setattr(dianli, "__path__", [*dianli.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "dianli._test_datafile_pkg", raising=False)
    pkg = tmp_path / "_test_datafile_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    return pkg


@pytest.mark.parametrize(
    ("text", "result"),
    [
        ("rows: [1, 2, 3]\n", (1, 2, 3)),
        ("rows: [1, x]\n", "rows.1"),
        ("rows: [1]\nextra: 1\n", "extra"),
        ("rows: [1\n", "not valid YAML"),
    ],
)
def test_load_model(package: Path, text: str, result: object) -> None:
    (package / "t.yaml").write_text(text, encoding="utf-8")
    if isinstance(result, tuple):
        assert load_model("_test_datafile_pkg", "t.yaml", _Table).rows == result
    else:
        with pytest.raises(DataError) as info:
            load_model("_test_datafile_pkg", "t.yaml", _Table)
        assert "dianli/_test_datafile_pkg/t.yaml" in str(info.value) and str(result) in str(info.value)


# --- the on-disk cache of parsed and validated data (dianli.cache) -----------------------------------

YAML_TEXTS = [
    "rows: [1, 2, 3]\n",
    "a: &x {b: [1, 2.5, null, true]}\nc: *x\nd: 1752-03-16\n",  # an alias, a float, a date
    "- 典禮\n- {名: 祀先師, 日: 上丁}\n",
    "",  # an empty document is None
]


@pytest.mark.parametrize("text", YAML_TEXTS)
def test_a_cache_hit_gives_exactly_the_data_of_a_cold_read(text: str) -> None:
    import yaml

    from dianli import cache
    from dianli.datafile import YAML_CACHE, read_yaml, yaml_key

    where = cache.path_for(YAML_CACHE, yaml_key(text), ".pickle")
    assert where is not None  # the session's cache (tests/conftest.py), never ~/.cache
    assert str(where).startswith(os.environ["DIANLI_CACHE_DIR"])
    where.unlink(missing_ok=True)
    cold = read_yaml(text)
    assert where.is_file()
    warm = read_yaml(text)
    assert warm == cold == yaml.safe_load(text)
    assert type(warm) is type(cold)
    if isinstance(cold, dict) and "c" in cold:
        assert warm["a"] is warm["c"]  # an alias stays one object, as yaml gives it


def test_a_damaged_entry_is_read_afresh_and_replaced() -> None:
    from dianli import cache
    from dianli.datafile import YAML_CACHE, read_yaml, yaml_key

    text = "rows: [4, 5]\n"
    read_yaml(text)
    where = cache.path_for(YAML_CACHE, yaml_key(text), ".pickle")
    assert where is not None
    where.write_bytes(b"not a pickle")
    assert read_yaml(text) == {"rows": [4, 5]}
    assert read_yaml(text) == {"rows": [4, 5]}
    assert where.read_bytes() != b"not a pickle"


def test_invalid_yaml_fails_every_time(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("rows: [1\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DataError, match="not valid YAML"):
            load_model_path(path, _Table)


@pytest.mark.parametrize("setting", ["off", ""])
def test_with_the_cache_off_data_is_read_all_the_same(monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    from dianli.datafile import read_yaml

    monkeypatch.setenv("DIANLI_CACHE_DIR", setting)
    assert read_yaml("rows: [7]\n") == {"rows": [7]}


@pytest.mark.parametrize(
    ("package", "name", "model", "edit", "changed"),
    [
        # a shipped file copied, read (and cached), edited: the edit is what is read next
        (
            "calendar",
            "year_names.yaml",
            "dianli.calendar.year_names_schema:_File",
            ("default_region", "taiwan"),
            "taiwan",
        ),
        ("calendar", "eras.yaml", "dianli.calendar.eras_schema:_ErasFile", ("aliases", []), ()),
    ],
)
def test_editing_a_data_file_invalidates_what_was_cached(
    tmp_path: Path, package: str, name: str, model: str, edit: tuple[str, object], changed: object
) -> None:
    import importlib

    import yaml

    module, _, attribute = model.partition(":")
    cls = getattr(importlib.import_module(module), attribute)
    original = (Path(__file__).parents[1] / "src" / "dianli" / package / "data" / name).read_text(
        encoding="utf-8"
    )
    path = tmp_path / name
    path.write_text(original, encoding="utf-8")
    first = load_model_path(path, cls)
    assert load_model_path(path, cls) == first  # from the cache, the same
    data = yaml.safe_load(original)
    key, value = edit
    assert data[key] != value
    data[key] = value
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert getattr(load_model_path(path, cls), key) == changed
    path.write_text(original, encoding="utf-8")
    assert load_model_path(path, cls) == first


@pytest.mark.usefixtures("stable_package")
def test_a_model_of_dianli_is_validated_once_then_read_from_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from dianli import cache
    from dianli.calendar.year_names_schema import _File

    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "year_names.yaml"
    source = Path(__file__).parents[1] / "src" / "dianli" / "calendar" / "data" / "year_names.yaml"
    path.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    cold = load_model_path(path, _File)
    cache.flush()  # written at the end of a process; here, now
    stored = list((tmp_path / "cache" / cache.DERIVED).rglob("*.pickle"))
    assert len(stored) == 1
    warm = load_model_path(path, _File)
    assert warm == cold and warm is not cold
    assert warm.model_dump() == cold.model_dump()


# --- bounds: YAML aliases, and the text of a file a user gives ----------------------------------------


def _alias_bomb(levels: int) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (_alias_bomb(9), "expand it to 4"),  # 9 levels: some 490 million nodes from 28
        (_alias_bomb(6), "an alias bomb"),  # 6 levels: 600,000 nodes, already too many
        ("a: &a [1, *a]\n", "a recursive alias"),
    ],
)
def test_a_yaml_alias_bomb_is_refused_before_it_is_expanded(text: str, error: str) -> None:
    import yaml

    from dianli.datafile import read_yaml

    with pytest.raises(yaml.YAMLError, match=error):
        read_yaml(text)


def test_aliases_within_the_bound_are_read() -> None:
    from dianli.datafile import read_yaml

    assert read_yaml(_alias_bomb(4))["a4"][0][0][0][0] == ["lol"] * 9  # 9**4 strings: within the bound
    assert read_yaml("base: &b {x: 1}\nother: *b\n") == {"base": {"x": 1}, "other": {"x": 1}}


@pytest.mark.parametrize(
    "text",
    [
        "a: [1, {b: 2}]\nc: 康熙\n",  # no "*": a tree, read without the walk
        "a: &x [1, 2]\n",  # an anchor no alias uses
        "a: '*not an alias*'\nb: 5 * 3\n",  # "*" in values: walked, nothing to find
        "base: &b {x: 1}\nother: *b\n",
    ],
)
def test_a_text_reads_as_yaml_reads_it(text: str) -> None:
    """The walk for aliases is left out only where no alias can be (no ``*``): the data is YAML's own."""
    import yaml

    from dianli.datafile import _load_bounded

    assert _load_bounded(text) == yaml.safe_load(text)


def test_a_manifest_with_an_alias_bomb_is_a_data_error(tmp_path: Path) -> None:
    path = tmp_path / "witness.yaml"
    path.write_text(_alias_bomb(9), encoding="utf-8")
    with pytest.raises(DataError, match=f"^{path}: not valid YAML: .*alias bomb"):
        load_model_path(path, _Table)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"plain text\n", None),
        ("康熙五十五年".encode(), None),
        (b"abc\x00def", "binary data, not text \\(a NUL byte at byte 3\\)"),
        ("康熙".encode() + b"\xb5\xdc", "not UTF-8 text \\(invalid start byte at byte 6: "),
        ("康熙".encode()[:4], "not UTF-8 text \\(unexpected end of data at byte 3"),
    ],
)
def test_read_text_file_names_the_byte_that_is_not_text(
    tmp_path: Path, data: bytes, error: str | None
) -> None:
    from dianli.datafile import read_text_file

    path = tmp_path / "a.txt"
    path.write_bytes(data)
    if error is None:
        assert read_text_file(path) == data.decode("utf-8")
        return
    with pytest.raises(DataError, match=f"^{path}: {error}"):
        read_text_file(path)


def test_read_text_file_bounds(tmp_path: Path) -> None:
    from dianli.datafile import read_text_file, read_transcription

    inside = tmp_path / "folder"
    inside.mkdir()
    (tmp_path / "outside.txt").write_text("secret", encoding="utf-8")
    (inside / "link.txt").symlink_to(tmp_path / "outside.txt")
    (inside / "ok.txt").write_text("0123456789", encoding="utf-8")
    (inside / "inner.txt").symlink_to(inside / "ok.txt")  # a link inside the folder is fine
    with pytest.raises(DataError, match="outside the folder"):
        read_text_file(inside / "link.txt", within=inside)
    assert read_text_file(inside / "inner.txt", within=inside) == "0123456789"
    with pytest.raises(DataError, match="10 bytes, more than the 9 a file may have; accepted"):
        read_text_file(inside / "ok.txt", limit=9)
    with pytest.raises(DataError, match="cannot be read"):
        read_text_file(inside / "missing.txt")
    (inside / "empty.txt").write_text(" \n", encoding="utf-8")
    with pytest.raises(DataError, match="empty"):
        read_transcription(inside / "empty.txt")


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"rows: []\n\x00", "binary data, not text \\(a NUL byte at byte 9\\)"),
        (b"rows: [\xff]\n", "at byte 7"),
    ],
)
def test_a_data_file_that_is_not_text_names_the_byte(tmp_path: Path, data: bytes, error: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(data)
    with pytest.raises(DataError, match=f"^{path}: .*{error}"):
        load_model_path(path, _Table)
