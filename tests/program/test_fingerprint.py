"""The inputs of a program as one digest: every file's bytes and path, extra witness folders, libraries."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from dianli import cache
from dianli.program import fingerprint


def _tree(root: Path) -> Path:
    (root / "rites").mkdir(parents=True)
    (root / "rites" / "a.yaml").write_text("rite: 祀先師\n", encoding="utf-8")
    (root / "code.py").write_text("X = 1\n", encoding="utf-8")
    return root


def _edit(root: Path) -> None:
    (root / "rites" / "a.yaml").write_text("rite: 祀先農\n", encoding="utf-8")


def _add(root: Path) -> None:
    (root / "rites" / "b.yaml").write_text("", encoding="utf-8")


def _rename(root: Path) -> None:
    (root / "code.py").rename(root / "other.py")


def _move(root: Path) -> None:
    (root / "code.py").rename(root / "rites" / "code.py")


def _remove(root: Path) -> None:
    (root / "code.py").unlink()


@pytest.mark.parametrize("change", [_edit, _add, _rename, _move, _remove])
def test_any_change_to_a_file_changes_the_digest(tmp_path: Path, change: Callable[[Path], None]) -> None:
    root = _tree(tmp_path / "pkg")
    before = fingerprint.tree_digest([root])
    assert fingerprint.tree_digest([root]) == before
    change(root)
    assert fingerprint.tree_digest([root]) != before


def test_compiled_files_and_tool_caches_are_left_out(tmp_path: Path) -> None:
    root = _tree(tmp_path / "pkg")
    before = fingerprint.tree_digest([root])
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "code.cpython-311.pyc").write_bytes(b"\0compiled")
    (root / "rites" / "a.cpython-311.pyc").write_bytes(b"\0compiled")
    assert fingerprint.tree_digest([root]) == before
    assert list(cache.tree_files(root)) == ["code.py", "rites/a.yaml"]


def test_a_missing_folder_counts_as_empty_and_the_folder_is_named(tmp_path: Path) -> None:
    one, two = _tree(tmp_path / "one"), _tree(tmp_path / "two")
    digest = fingerprint.tree_digest
    assert len(digest([one])) == 32 and digest([one]) != digest([two])
    assert digest([tmp_path / "missing"]) != digest([tmp_path / "also-missing"])


def test_an_extra_witness_folder_is_an_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fingerprint.WITNESSES_ENV, raising=False)
    plain = fingerprint.inputs_fingerprint()
    extra = _tree(tmp_path / "gazetteer")
    monkeypatch.setenv(fingerprint.WITNESSES_ENV, str(extra))
    assert fingerprint.extra_witness_roots() == [extra]
    with_extra = fingerprint.inputs_fingerprint()
    assert with_extra != plain
    _edit(extra)
    assert fingerprint.inputs_fingerprint() not in (plain, with_extra)


def test_the_package_and_the_libraries_are_inputs() -> None:
    root = fingerprint.package_root()
    assert (root / "program" / "fingerprint.py").is_file() and (root / "rites").is_dir()
    names = fingerprint.installed_distributions()
    assert any(Path(n).name.startswith(("pydantic-", "numpy-")) for n in names)


def test_fingerprint_imports_nothing_heavy() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from dianli.program.fingerprint import inputs_fingerprint, libopus_version; "
        "inputs_fingerprint(); libopus_version(); "
        "print(sorted(m for m in ('pydantic', 'numpy', 'yaml', 'jinja2') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_libopus_version_is_the_one_the_encoder_loads() -> None:
    from dianli.music.opus import opus_available

    found = fingerprint.libopus_version()
    assert (found != "none") is opus_available()
    if opus_available():
        assert found.startswith("libopus ")


def test_the_package_enters_by_its_digest_read_under_the_files_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The package's files are read again only when their status changed (tests/test_cache.py shows the
    digest follows every edit): the fingerprint follows that digest."""
    from dianli import cache

    before = fingerprint.inputs_fingerprint()
    assert fingerprint.inputs_fingerprint() == before
    monkeypatch.setattr(cache, "current_package_digest", lambda: "0" * 64)
    assert fingerprint.inputs_fingerprint() != before
