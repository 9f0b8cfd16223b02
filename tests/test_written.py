"""dianli.written: a file is replaced or removed only when dianli wrote it and nobody changed it since."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dianli import written
from dianli.written import MANIFEST, ForeignFileError


def test_a_new_file_is_written_and_recorded(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    written.write(path, b"one")
    record = json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))
    assert record["written by"] == "dianli" and record["files"]["a.txt"]["bytes"] == 3
    assert written.is_own(path) and written.why_foreign(path) is None
    written.write(path, b"two")  # its own: replaced
    assert path.read_bytes() == b"two"
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# (how the file is made before dianli writes, why it is refused)
FOREIGN = [
    ("a user's file", "not written by dianli"),
    ("dianli's, edited since", "changed since dianli wrote it"),
    ("a link", "a symbolic link"),
    ("a folder", "a folder"),
]


@pytest.mark.parametrize(("made", "why"), FOREIGN)
def test_a_foreign_file_is_refused_and_kept(tmp_path: Path, made: str, why: str) -> None:
    path = tmp_path / "a.txt"
    if made == "a user's file":
        path.write_bytes(b"mine")
    elif made == "dianli's, edited since":
        written.write(path, b"dianli's")
        path.write_bytes(b"dianli's, edited")
    elif made == "a link":
        (tmp_path / "target").write_bytes(b"mine")
        path.symlink_to(tmp_path / "target")
    else:
        path.mkdir()
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(ForeignFileError, match=f"{path} \\({why}\\).*--force") as caught:
        written.write(path, b"new")
    assert caught.value.files == [path]
    assert (path.read_bytes() if path.is_file() else None) == before
    with pytest.raises(ForeignFileError):
        written.remove(path)
    if made != "a folder":
        written.write(path, b"new", force=True)
        assert path.read_bytes() == b"new" and not path.is_symlink() and written.is_own(path)
    if made == "a link":
        assert (tmp_path / "target").read_bytes() == b"mine"


def test_every_foreign_file_is_named_at_once(tmp_path: Path) -> None:
    paths = [tmp_path / f"{n}.csv" for n in range(12)]
    for path in paths:
        path.write_bytes(b"mine")
    with pytest.raises(ForeignFileError, match=r"these 12 files: .*0\.csv.*… 4 more") as caught:
        written.check([*paths, tmp_path / "new.csv", "-"])
    assert caught.value.files == paths


def test_removing_its_own_file_forgets_it(tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    written.write(path, b"x")
    assert written.remove(path) and not path.exists()
    assert not (tmp_path / MANIFEST).exists()  # nothing left to record
    assert not written.remove(path)


def test_a_manifest_not_dianlis_lists_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"x")
    (tmp_path / MANIFEST).write_text('["a.txt"]', encoding="utf-8")
    assert written.why_foreign(tmp_path / "a.txt") == "not written by dianli"


def test_a_file_kept_as_the_users_is_not_recorded(tmp_path: Path) -> None:
    path = tmp_path / "witness.yaml"
    written.write(path, b"draft")
    written.write(path, b"draft merged with the curator's edits", own=False)
    assert written.why_foreign(path) == "not written by dianli"
