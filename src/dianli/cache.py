"""The on-disk cache: results that are slow to make (parsed data, rendered audio) kept between runs.

An entry is named by a *key*: a hash of everything the result depends on — the bytes of the files it was
made from, the dianli version, the versions of the libraries that made it. A changed input gives another
key, so an entry is never stale; an old entry is simply no longer asked for.

Where: ``$DIANLI_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/dianli``, else ``~/.cache/dianli``. Set
``DIANLI_CACHE_DIR`` to an empty string (or ``off``) to switch the cache off. A cache that cannot be
written is not an error: the result is made again next time, the run goes on.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import os
import pickle
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar, cast

ENV_DIR = "DIANLI_CACHE_DIR"
"""The environment variable that places (or, empty or ``off``, disables) the cache."""

_OFF = {"", "off", "0", "false", "no"}
PICKLE_PROTOCOL = 5
"""The pickle protocol of stored results (part of their keys where the format matters)."""
DERIVED = "derived"
"""The folder of results derived from the package's code and data (keys from :func:`installed_key`)."""
T = TypeVar("T")


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
    from importlib import metadata  # imported when asked: it costs a start-up tens of milliseconds

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "none"


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@functools.cache
def _installed_versions() -> dict[str, str]:
    """distribution (normalised name) → version, from the ``<name>-<version>.dist-info`` folders on the path
    (what :mod:`importlib.metadata` reads, without importing it); the first on the path wins."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info") and "-" in folder:
                name, _, rest = folder[: -len(".dist-info")].partition("-")
                found.setdefault(_normalised(name), rest)
    return found


def versions(*distributions: str) -> str:
    """``name=version`` of each distribution (``none`` when not installed), for a key."""
    installed = _installed_versions()
    return ";".join(f"{d}={installed.get(_normalised(d)) or version(d)}" for d in distributions)


_SKIPPED_DIRS = frozenset({"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"})
_SKIPPED_SUFFIXES = (".pyc", ".pyo")


def package_root() -> Path:
    """The folder of the installed ``dianli`` package (its code, templates and data)."""
    return Path(__file__).resolve().parent


def _tree_entries(folder: str, prefix: str = "") -> Iterator[tuple[str, os.DirEntry[str]]]:
    """Each file of :func:`tree_files` with its directory entry (:func:`_status` reads its status from it),
    in the same order: a folder's files by name, then each of its folders by name (a link to a folder is
    not followed, as :func:`os.walk` does not; an unreadable folder counts as empty)."""
    try:
        with os.scandir(folder) as found:
            entries = sorted(found, key=lambda entry: entry.name)
    except OSError:
        return
    folders = []
    for entry in entries:
        try:
            is_folder = entry.is_dir()
        except OSError:
            is_folder = False
        if is_folder:
            if entry.name not in _SKIPPED_DIRS:
                folders.append(entry)
        elif not entry.name.endswith(_SKIPPED_SUFFIXES):
            yield prefix + entry.name, entry
    for entry in folders:
        if not entry.is_symlink():
            yield from _tree_entries(entry.path, f"{prefix}{entry.name}/")


def tree_files(folder: Path) -> Iterator[str]:
    """The path (relative, ``/``-separated) of every file under ``folder`` that can shape a result, in a
    fixed order: compiled files and tools' caches are left out."""
    for relative, _ in _tree_entries(os.fspath(folder)):
        yield relative


def _tree(digest: hashlib._Hash, folder: Path) -> None:
    """Feed ``digest`` every file of :func:`tree_files` (relative path and bytes)."""
    for relative in tree_files(folder):
        try:
            with open(os.path.join(folder, relative), "rb") as handle:
                data = handle.read()
        except OSError:
            data = b"\x00unreadable"
        name = relative.encode("utf-8", "surrogateescape")
        digest.update(len(name).to_bytes(8, "big") + name)
        digest.update(len(data).to_bytes(8, "big") + data)


def tree_digest(folders: Iterable[Path]) -> bytes:
    """A digest of the relative path and bytes of every file under each of ``folders``, each folder named
    (a missing one counts as empty), read afresh."""
    digest = hashlib.sha256()
    for folder in folders:
        name = os.fspath(folder).encode("utf-8", "surrogateescape")
        digest.update(b"\x00folder" + len(name).to_bytes(8, "big") + name)
        if os.path.isdir(folder):
            _tree(digest, folder)
    return digest.digest()


STATS = "stats"
"""The folder of the package's digests, each under a key of its files' status (see :func:`_read_package_digest`)."""
SETTLED_S = 2.0
"""A digest is kept under its files' status only when no file changed in the last so many seconds: a file's
change time has a coarse grain (a clock tick), so one written twice within a tick, keeping its size, could
show the same status with other bytes."""


def _status(folder: Path) -> tuple[str, float]:
    """A key of the status of every file of :func:`tree_files` (its path, size, inode, modification and change
    times in nanoseconds: any write changes the change time, which no tool can set back) and the latest
    change time, in seconds."""
    lines = []
    latest = 0.0
    for relative, entry in _tree_entries(os.fspath(folder)):
        try:
            found = entry.stat()  # as os.stat: a link's target
        except OSError:
            lines.append(f"{relative}\x00unreadable\n")
            continue
        latest = max(latest, found.st_ctime, found.st_mtime)
        lines.append(
            f"{relative}\x00{found.st_size}\x00{found.st_ino}\x00{found.st_mtime_ns}\x00{found.st_ctime_ns}\n"
        )
    return hashlib.sha256("".join(lines).encode("utf-8", "surrogateescape")).hexdigest(), latest


def _read_package_digest() -> str:
    """The digest of the bytes of every file of the package. Reading and hashing them all takes tens of
    milliseconds, a good part of a command's start, so the digest is kept under a key of the files' status
    (:func:`_status`, a few milliseconds) and read again only when a file's status changed."""
    folder = package_root()
    status, latest = _status(folder)
    stored = read(STATS, status)
    if stored is not None and len(stored) == 64:
        return stored.decode("ascii")
    digest = hashlib.sha256()
    _tree(digest, folder)
    found = digest.hexdigest()
    if time.time() - latest > SETTLED_S:
        write(STATS, status, found.encode("ascii"))
    return found


def package_digest() -> str:
    """The digest of every file of the package, read now (not the once-per-process one of the keys)."""
    digest = hashlib.sha256()
    _tree(digest, package_root())
    return digest.hexdigest()


def current_package_digest() -> str:
    """:func:`package_digest` as the files are now, read under their status (:func:`_read_package_digest`):
    a few milliseconds where the files have not changed, instead of reading them all."""
    return _read_package_digest()


def installed_distributions() -> tuple[str, ...]:
    """``name-version`` of every distribution installed on the path, sorted (a key part for a result that
    may depend on any library)."""
    return tuple(sorted(f"{name}-{version}" for name, version in _installed_versions().items()))


_package_digest = functools.cache(_read_package_digest)
"""The package's digest, read once per process (:func:`flush` reads it again before storing)."""


LIBRARIES = (
    "pydantic",
    "pydantic-core",
    "PyYAML",
    "chinesecalendar-py",
    "lunar-python",
    "sxtwl",
    "opencc",
    "skyfield",
    "jplephem",
    "de405",
    "numpy",
)
"""The libraries whose code or data a derived result can depend on (validation, YAML, the calendars, the
ephemeris, script conversion): their versions are part of every :func:`installed_key`."""

EXTRA_WITNESSES_ENV = "DIANLI_WITNESSES"
"""Folders of witness folders outside the package (:mod:`dianli.corpus.witnesses`): data too."""


def _extra_digest(folders: str) -> str:
    """The digest of the extra witness folders ``folders`` (a ``DIANLI_WITNESSES`` value), read afresh."""
    digest = hashlib.sha256()
    for entry in folders.split(os.pathsep):
        if entry.strip() and os.path.isdir(entry):
            digest.update(os.path.abspath(entry).encode("utf-8", "surrogateescape"))
            _tree(digest, Path(entry))
    return digest.hexdigest()


_ISSUED: dict[str, tuple[str, str, str]] = {}
"""Each key :func:`installed_key` gave in this process → the package digest, the ``DIANLI_WITNESSES`` value
and its folders' digest it named."""


def installed_key(*parts: str | bytes) -> str:
    """A key for a result derived from dianli's code *and* data: the bytes of every file of the installed
    package (code, data, witnesses — read once per process), of every file in the folders
    ``DIANLI_WITNESSES`` names (read at each call), the Python version, the versions of :data:`LIBRARIES`
    and ``parts`` (the result's name, its arguments, any other library: :func:`versions`). Editing any
    file, or installing another version of a library, gives another key.

    A result made under such a key (:func:`pickled`) is written when the process ends (or at
    :func:`flush`), after the files are read again: one made while a file changed (an edit during the
    run) is not stored under a key naming the files as they were."""
    folders = os.environ.get(EXTRA_WITNESSES_ENV, "")
    package, extra = _package_digest(), _extra_digest(folders)
    entry = key("installed", sys.version, versions(*LIBRARIES), package, extra, *parts)
    _ISSUED[entry] = (package, folders, extra)
    return entry


_PENDING: dict[Path, tuple[str, bytes]] = {}
"""Results made under an :func:`installed_key` in this process, not yet checked and written: where each
goes → its key and its bytes."""
_FLUSH_AT = 256
"""A long-running process (the web server) writes its pending results every so many."""


def flush() -> None:
    """Write the pending results whose :func:`installed_key` still names the files as they are now (read
    again, once); drop the others. Run when the process ends."""
    if not _PENDING:
        return
    pending = dict(_PENDING)
    _PENDING.clear()
    package = _read_package_digest()
    if package != _package_digest():
        _package_digest.cache_clear()  # later keys of this process name the files as they are now
    extras: dict[str, str] = {}
    for where, (entry, blob) in pending.items():
        named_package, folders, named_extra = _ISSUED[entry]
        if folders not in extras:
            extras[folders] = _extra_digest(folders)
        if named_package == package and named_extra == extras[folders]:
            _store(where, blob)
    base = root()
    if base is not None:
        for kind in {where.parent.parent.name for where in pending}:  # <root>/<kind>/<xx>/<key>
            if kind in MAX_BYTES:
                prune(kind, MAX_BYTES[kind])


atexit.register(flush)

MAX_BYTES: dict[str, int] = {DERIVED: 512 << 20, "yaml": 128 << 20, "jinja": 32 << 20, "audio": 256 << 20}
"""How much each kind of result may take on disk. Every edit of the package gives new keys, and an old
entry is never asked for again, so past its bound a kind loses its least recently written entries (when
the process writes new ones). The booklets have their bound where they are written (``dianli program``)."""


def prune(kind: str, max_bytes: int) -> None:
    """Remove the least recently written entries of ``kind`` until the rest fit in ``max_bytes`` (errors
    ignored: another run may be pruning too)."""
    base = root()
    if base is None:
        return
    entries = []
    for path in (base / kind).glob("*/*"):
        try:
            found = path.stat()
        except OSError:
            continue
        entries.append((found.st_mtime, found.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= max_bytes:
            break
        path.unlink(missing_ok=True)
        total -= size


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
    return _store(where, data)


def write_checked(kind: str, entry_key: str, data: bytes, suffix: str = "") -> None:
    """Store an entry as :func:`write` does, except that one under an :func:`installed_key` is written when
    the process ends (:func:`flush`), and only if the files are still as its key names them (as
    :func:`pickled` does): bytes made while a file changed are never stored under the old files' key."""
    where = path_for(kind, entry_key, suffix)
    if where is None:
        return
    if entry_key in _ISSUED:
        _PENDING[where] = (entry_key, data)
        if len(_PENDING) >= _FLUSH_AT:
            flush()
    else:
        _store(where, data)


_PART_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
"""How a part is opened: a new file only (as :func:`tempfile.mkstemp` opens one)."""


def _new_part(folder: Path) -> tuple[int, str]:
    """A new file in ``folder`` that only this call made, named ``.part-`` and random letters, readable by
    its owner only: :func:`tempfile.mkstemp`'s file, without importing :mod:`tempfile` (with shutil and
    random, 3–4 ms of a start that stores a result here)."""
    for _ in range(100):
        name = os.path.join(folder, f".part-{os.urandom(6).hex()}")
        try:
            return os.open(name, _PART_FLAGS, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no new part could be made in {folder}")


def _store(where: Path, data: bytes) -> Path | None:
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = _new_part(where.parent)
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


def pickled(kind: str, entry_key: str, make: Callable[[], T]) -> T:
    """The result of ``make()`` kept as a pickle under ``entry_key``: read back when present (a damaged
    entry is made again and replaced), else made and stored. The key must name everything ``make``
    depends on (:func:`installed_key`); an error raised by ``make`` is never kept, nor a result made under
    an :func:`installed_key` whose files changed meanwhile (see there)."""
    where = path_for(kind, entry_key, ".pickle")
    pending = _PENDING.get(where) if where is not None else None
    stored = pending[1] if pending is not None else read(kind, entry_key, ".pickle")
    if stored is not None:
        try:
            return cast(T, pickle.loads(stored))
        except Exception:  # a damaged or outdated entry is made again
            pass
    result = make()
    try:
        blob = pickle.dumps(result, protocol=PICKLE_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return result  # not storable: made again next time
    if where is None:
        return result  # the cache is off
    if entry_key in _ISSUED:  # checked against the files when the process ends (see installed_key)
        _PENDING[where] = (entry_key, blob)
        if len(_PENDING) >= _FLUSH_AT:
            flush()
    else:
        _store(where, blob)
    return result
