"""The on-disk cache: results that are slow to make (parsed data, rendered audio) kept between runs.

An entry is named by a *key*: a hash of everything the result depends on — the bytes of the files it was
made from, the dianli version, the versions of the libraries that made it. A changed input gives another
key, so an entry is never stale; an old entry is simply no longer asked for.

Where: ``$DIANLI_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/dianli``, else ``~/.cache/dianli``. Set
``DIANLI_CACHE_DIR`` to an empty string (or ``off``) to switch the cache off. A cache that cannot be
written is not an error: the result is made again next time, the run goes on.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from importlib import metadata
from pathlib import Path

ENV_DIR = "DIANLI_CACHE_DIR"
"""The environment variable that places (or, empty or ``off``, disables) the cache."""

_OFF = {"", "off", "0", "false", "no"}


def root() -> Path | None:
    """The cache's directory, or ``None`` when the cache is switched off."""
    chosen = os.environ.get(ENV_DIR)
    if chosen is not None:
        return None if chosen.strip().lower() in _OFF else Path(chosen).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "dianli"


def version(distribution: str) -> str:
    """The installed version of ``distribution`` (``"none"`` when it is not installed) — part of a key."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "none"


def key(*parts: str | bytes) -> str:
    """A hex key naming everything in ``parts`` (order matters; each part is length-prefixed)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def path_for(kind: str, entry_key: str, suffix: str = "") -> Path | None:
    """Where the entry ``entry_key`` of ``kind`` (a folder: ``"yaml"``, ``"audio"`` …) lives, or ``None``."""
    base = root()
    if base is None:
        return None
    return base / kind / entry_key[:2] / f"{entry_key}{suffix}"


def read(kind: str, entry_key: str, suffix: str = "") -> bytes | None:
    """The bytes of an entry, or ``None`` when there is none (or the cache is off or unreadable)."""
    where = path_for(kind, entry_key, suffix)
    if where is None:
        return None
    try:
        return where.read_bytes()
    except OSError:
        return None


def write(kind: str, entry_key: str, data: bytes, suffix: str = "") -> Path | None:
    """Store an entry atomically (a reader never sees half of it); its path, or ``None`` if it could not be."""
    where = path_for(kind, entry_key, suffix)
    if where is None:
        return None
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=where.parent, prefix=".part-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, where)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return None
    return where
