"""What dianli wrote: the one rule by which a command may replace or remove a file.

Every folder dianli writes a file into holds a small manifest, :data:`MANIFEST` (JSON), naming each file
dianli wrote there with the SHA-256 and size of what it wrote. A file may be replaced or removed without
``--force`` only when it is missing, or when it is listed there and still holds exactly what dianli wrote
(so a file a user made, or one of dianli's that a user has since edited, is never lost). Everything else is
*foreign*: :func:`check` refuses it with a :class:`ForeignFileError` naming every such file, unless the
command was given ``--force``.

The manifest travels with the folder (copy the folder and dianli still knows its own files), and is the only
file dianli writes there that the user did not ask for. Writing goes through :func:`write` (a temporary file
beside the target, then an atomic rename, then the manifest), or, for writers that stream into the path
themselves (audio), :func:`check` before and :func:`record` after.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from dianli.errors import DianliError

MANIFEST = ".dianli-written.json"
"""The manifest of what dianli wrote in a folder (one per folder, beside the files)."""
FORMAT = 1
"""The manifest's format version."""
_SHOWN = 8
"""Foreign files named one by one in an error; the rest are counted."""


class ForeignFileError(DianliError):
    """Files a command would replace or remove that dianli did not write (or that were changed since)."""

    def __init__(self, files: Sequence[tuple[Path, str]]) -> None:
        self.files = [path for path, _ in files]
        shown = [f"{path} ({why})" for path, why in files[:_SHOWN]]
        if len(files) > _SHOWN:
            shown.append(f"… {len(files) - _SHOWN} more")
        noun = "this file" if len(files) == 1 else f"these {len(files)} files"
        super().__init__(
            f"refusing to replace {noun}: {'; '.join(shown)}. "
            "accepted: a new file name, a file dianli wrote and nobody changed since, "
            "or --force to replace them"
        )


def digest(path: Path) -> str:
    """The SHA-256 of the file ``path`` (hex)."""
    hasher = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            hasher.update(block)
    return hasher.hexdigest()


def _manifest_path(folder: Path) -> Path:
    return folder / MANIFEST


def _entries(folder: Path) -> dict[str, dict[str, Any]]:
    """The files the manifest of ``folder`` lists ({} when there is none or it is not dianli's)."""
    try:
        data = json.loads(_manifest_path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("written by") != "dianli":
        return {}
    files = data.get("files")
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, dict)}


def why_foreign(path: Path) -> str | None:
    """Why dianli may not replace ``path`` (None: it may — missing, or written by dianli and unchanged)."""
    path = Path(path)
    if path.is_symlink():
        return "a symbolic link"
    if not path.exists():
        return None
    if path.is_dir():
        return "a folder"
    if path.name == MANIFEST:
        return None  # dianli's own bookkeeping
    entry = _entries(path.parent).get(path.name)
    if entry is None:
        return "not written by dianli"
    try:
        if entry.get("bytes") != path.stat().st_size or entry.get("sha256") != digest(path):
            return "changed since dianli wrote it"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    return None


def is_own(path: Path) -> bool:
    """Whether ``path`` exists and holds exactly what dianli last wrote there."""
    return Path(path).is_file() and why_foreign(path) is None


def check(paths: Iterable[str | os.PathLike[str]], force: bool = False) -> None:
    """Refuse (:class:`ForeignFileError`) when any of ``paths`` is a file dianli may not replace, naming
    them all — unless ``force``. A path '-' (standard output) is skipped."""
    if force:
        return
    foreign: list[tuple[Path, str]] = []
    for raw in paths:
        if os.fspath(raw) == "-":
            continue
        path = Path(raw)
        why = why_foreign(path)
        if why is not None:
            foreign.append((path, why))
    if foreign:
        raise ForeignFileError(foreign)


def record(paths: Iterable[str | os.PathLike[str]]) -> None:
    """Note in each folder's manifest that dianli wrote ``paths`` as they are now."""
    by_folder: dict[Path, list[Path]] = {}
    for raw in paths:
        path = Path(raw)
        by_folder.setdefault(path.parent, []).append(path)
    for folder, files in by_folder.items():
        entries = _entries(folder)
        for path in files:
            entries[path.name] = {"sha256": digest(path), "bytes": path.stat().st_size}
        _save(folder, entries)


def forget(path: Path) -> None:
    """Drop ``path`` from its folder's manifest (after dianli removed it)."""
    entries = _entries(path.parent)
    if entries.pop(path.name, None) is not None:
        _save(path.parent, entries)


def _save(folder: Path, entries: dict[str, dict[str, Any]]) -> None:
    data = {
        "written by": "dianli",
        "format": FORMAT,
        "about": "the files dianli wrote in this folder, so that it never replaces one it did not write",
        "files": dict(sorted(entries.items())),
    }
    target = _manifest_path(folder)
    if not entries:
        target.unlink(missing_ok=True)
        return
    _replace(target, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))


def _replace(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` atomically (a temporary file in its folder, then a rename)."""
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            os.chmod(temporary, _file_mode())  # as open() would make it, not mkstemp's owner-only mode
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@functools.cache
def _file_mode() -> int:
    """The mode a new file gets here: 0o666 less the process's umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write(path: str | os.PathLike[str], data: bytes, force: bool = False, own: bool = True) -> None:
    """Write ``data`` to ``path`` when dianli may (:func:`check`), atomically, and record it — or, with
    ``own`` False (a file that holds a user's work, such as a curator's manifest merged with a new draft),
    leave it out of the manifest, so that it is never replaced without ``--force``."""
    target = Path(path)
    check([target], force)
    if force and target.is_symlink():
        target.unlink()  # replace the link itself, never the file it points to
    _replace(target, data)
    if own:
        record([target])
    else:
        forget(target)


def remove(path: Path, force: bool = False) -> bool:
    """Remove ``path`` when it is dianli's own (or ``force``); return whether it was there. A foreign file
    is refused as by :func:`check`."""
    if not path.exists() and not path.is_symlink():
        return False
    check([path], force)
    path.unlink()
    forget(path)
    return True
