"""The on-disk cache: where it lives, keys, atomic writes, switched off, unwritable."""

from __future__ import annotations

import hashlib
import os
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


def test_a_part_is_new_and_its_owners_only(tmp_path: Path) -> None:
    """The file an entry is written to before it is moved in place: made new by this call (never one that
    exists), readable by its owner only, as tempfile.mkstemp makes one."""
    parts = [cache._new_part(tmp_path) for _ in range(50)]
    for handle, _ in parts:
        os.close(handle)
    names = [Path(name) for _, name in parts]
    assert len(set(names)) == 50
    for name in names:
        assert name.parent == tmp_path and name.name.startswith(".part-")
        assert name.stat().st_mode & 0o777 == 0o600
    existing = names[0]
    with pytest.raises(FileExistsError):
        os.open(existing, cache._PART_FLAGS, 0o600)  # a name taken is never opened again


def test_a_stored_entry_is_its_owners_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    where = cache.write("kind", cache.key("owner"), b"1")
    assert where is not None and where.stat().st_mode & 0o777 == 0o600


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


def test_versions_name_each_distribution() -> None:
    from importlib import metadata

    assert cache.versions("pyyaml", "no-such-distribution-dianli") == (
        f"pyyaml={metadata.version('pyyaml')};no-such-distribution-dianli=none"
    )


@pytest.mark.parametrize("edit", ["change", "add", "remove"])
def test_installed_key_changes_with_any_file_of_an_extra_witness_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, edit: str
) -> None:
    root = tmp_path / "witnesses"
    (root / "w").mkdir(parents=True)
    (root / "w" / "witness.yaml").write_text("id: w\n", encoding="utf-8")
    monkeypatch.setenv("DIANLI_WITNESSES", str(root))
    before = cache.installed_key("x")
    assert cache.installed_key("x") == before
    if edit == "change":
        (root / "w" / "witness.yaml").write_text("id: v\n", encoding="utf-8")
    elif edit == "add":
        (root / "w" / "readings.yaml").write_text("", encoding="utf-8")
    else:
        (root / "w" / "witness.yaml").unlink()
    assert cache.installed_key("x") != before
    assert cache.installed_key("y") != cache.installed_key("x")


def test_pickled_makes_once_then_reads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    made: list[int] = []

    def make() -> dict[str, object]:
        made.append(1)
        return {"a": (1, 2), "b": "典禮"}

    entry = cache.key("pickled-test")
    first = cache.pickled("kind", entry, make)
    second = cache.pickled("kind", entry, make)
    assert first == second == {"a": (1, 2), "b": "典禮"} and len(made) == 1
    where = cache.path_for("kind", entry, ".pickle")
    assert where is not None
    where.write_bytes(b"damaged")
    assert cache.pickled("kind", entry, make) == first and len(made) == 2


def test_pickled_keeps_no_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path))
    entry = cache.key("failing")

    def fail() -> int:
        raise ValueError("bad data")

    for _ in range(2):
        with pytest.raises(ValueError, match="bad data"):
            cache.pickled("kind", entry, fail)
    assert cache.read("kind", entry, ".pickle") is None


@pytest.mark.usefixtures("stable_package")  # the edit is made in an extra witness folder
@pytest.mark.parametrize("edited", [False, True])
def test_a_result_made_while_its_files_changed_is_not_stored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, edited: bool
) -> None:
    """A result under an installed_key is written when the process ends, after the files are read again:
    an edit during the run (the result made from the new file, the key naming the old) is not stored."""
    monkeypatch.setenv("DIANLI_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "witnesses"
    (root / "w").mkdir(parents=True)
    data = root / "w" / "witness.yaml"
    data.write_text("id: w\n", encoding="utf-8")
    monkeypatch.setenv("DIANLI_WITNESSES", str(root))
    entry = cache.installed_key("made-while-edited")

    def make() -> str:
        if edited:
            data.write_text("id: v\n", encoding="utf-8")  # another process edits the file meanwhile
        return data.read_text(encoding="utf-8")

    assert cache.pickled(cache.DERIVED, entry, make) == ("id: v\n" if edited else "id: w\n")
    cache.flush()
    stored = cache.read(cache.DERIVED, entry, ".pickle")
    assert (stored is None) == edited
    if edited:  # the file as it is now has a key of its own
        assert cache.installed_key("made-while-edited") != entry


def _full_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    cache._tree(digest, folder)
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("edit", "settled"),
    [
        ("same size", True),  # 甲 → 乙: size and modification time kept, the change time is not
        ("longer", True),
        ("new file", True),
        ("same size", False),  # written just now: the digest is made, and not kept
    ],
)
def test_package_digest_is_kept_under_the_files_status(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, edit: str, settled: bool
) -> None:
    package = tmp_path / "package"
    (package / "data").mkdir(parents=True)
    (package / "code.py").write_text("x = 1\n", encoding="utf-8")
    (package / "data" / "rites.yaml").write_text("name: 甲\n", encoding="utf-8")
    monkeypatch.setattr(cache, "SETTLED_S", -1e9)  # the files count as written long ago
    monkeypatch.setattr(cache, "package_root", lambda: package)
    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path / "cache"))
    first = cache._read_package_digest()
    assert first == _full_digest(package)
    assert len(list((tmp_path / "cache" / cache.STATS).rglob("*"))) == 2  # a folder and the entry

    def unread(*_: object) -> None:
        raise AssertionError("the files were read again although none changed")

    with monkeypatch.context() as patched:
        patched.setattr(cache, "_tree", unread)
        assert cache._read_package_digest() == first

    target = package / "data" / "rites.yaml"
    before = target.stat()
    if edit == "same size":
        target.write_text("name: 乙\n", encoding="utf-8")
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    elif edit == "longer":
        target.write_text("name: 甲乙\n", encoding="utf-8")
    else:
        (package / "data" / "more.yaml").write_text("name: 丙\n", encoding="utf-8")
    if not settled:
        monkeypatch.setattr(cache, "SETTLED_S", 1e9)  # the change counts as just made
    changed = cache._read_package_digest()
    assert changed == _full_digest(package) != first
    stored = len([p for p in (tmp_path / "cache" / cache.STATS).rglob("*") if p.is_file()])
    assert stored == (2 if settled else 1)


def test_the_installed_package_digest_is_that_of_its_bytes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    monkeypatch.setattr(cache, "SETTLED_S", -1e9)
    kept = cache._read_package_digest()  # made, then kept under the status
    assert cache._read_package_digest() == kept == cache.package_digest()


@pytest.mark.parametrize(
    ("sizes", "bound", "left"),
    [
        ([300, 300, 300, 100], 500, ["02", "03"]),  # the newest, 400 bytes; the two oldest removed
        ([300, 300], 600, ["00", "01"]),  # within the bound: nothing removed
        ([700], 500, []),
    ],
)
def test_prune_removes_the_least_recently_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, sizes: list[int], bound: int, left: list[str]
) -> None:
    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    for i, size in enumerate(sizes):
        path = tmp_path / "kind" / f"{i:02d}" / f"{i:02d}.pickle"
        path.parent.mkdir(parents=True)
        path.write_bytes(b"x" * size)
        os.utime(path, (1000 + i, 1000 + i))
    cache.prune("kind", bound)
    assert sorted(p.stem for p in (tmp_path / "kind").rglob("*.pickle")) == left


@pytest.mark.usefixtures("stable_package")
def test_flush_keeps_each_kind_within_its_bound(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(cache.ENV_DIR, str(tmp_path))
    monkeypatch.setitem(cache.MAX_BYTES, cache.DERIVED, 1)  # any entry is past it
    old = tmp_path / cache.DERIVED / "00" / "old.pickle"
    old.parent.mkdir(parents=True)
    old.write_bytes(b"x" * 100)
    os.utime(old, (1000, 1000))
    cache.pickled(cache.DERIVED, cache.installed_key("test.prune"), lambda: "new")
    cache.flush()
    assert not old.exists()  # the oldest went first (and, the bound being 1 byte, the new one too)


def _walked(folder: Path) -> list[str]:
    """The files os.walk finds, as tree_files listed them before it walked the folders itself."""
    base = os.fspath(folder)
    out = []
    for current, dirs, files in os.walk(base):
        dirs[:] = sorted(
            d for d in dirs if d not in {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
        )
        prefix = current[len(base) :].lstrip(os.sep).replace(os.sep, "/")
        out += [f"{prefix}/{n}" if prefix else n for n in sorted(files) if not n.endswith((".pyc", ".pyo"))]
    return out


def _walked_status(folder: Path) -> str:
    """The status key as _status made it before (an os.stat of each file os.walk finds)."""
    digest = hashlib.sha256()
    for relative in _walked(folder):
        try:
            found = os.stat(os.path.join(folder, relative))
        except OSError:
            digest.update(f"{relative}\x00unreadable\n".encode())
            continue
        line = (
            f"{relative}\x00{found.st_size}\x00{found.st_ino}\x00{found.st_mtime_ns}\x00{found.st_ctime_ns}\n"
        )
        digest.update(line.encode())
    return digest.hexdigest()


def _awkward_tree(root: Path) -> Path:
    """Files and folders whose order, kind or name could trip a walk: upper and lower case, digits, links
    to a file, to a folder and to nothing, compiled files and tools' caches, nested folders."""
    for relative in [
        "b.txt",
        "B.txt",
        "_x.py",
        "10.md",
        "9.md",
        "x.pyc",
        "y.pyo",
        "a/z.yaml",
        "a/b/c.yaml",
        "a/b/d/e.txt",
        "__pycache__/m.cpython-311.pyc",
        ".mypy_cache/n.json",
        "a/.ruff_cache/o",
        "a-b/p.txt",
        "a.b/q.txt",
        "Z/r.txt",
        "empty/.keep",
    ]:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(relative, encoding="utf-8")
    (root / "link-to-file").symlink_to(root / "b.txt")
    (root / "link-to-folder").symlink_to(root / "a", target_is_directory=True)
    (root / "broken-link").symlink_to(root / "nowhere")
    return root


@pytest.mark.parametrize("which", ["package", "awkward"])
def test_the_walk_finds_the_files_os_walk_finds_in_its_order(which: str, tmp_path: Path) -> None:
    folder = cache.package_root() if which == "package" else _awkward_tree(tmp_path)
    assert list(cache.tree_files(folder)) == _walked(folder)
    assert cache._status(folder)[0] == _walked_status(folder)
