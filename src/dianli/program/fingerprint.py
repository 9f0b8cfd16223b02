"""What a program's output depends on, as bytes for a cache key (:mod:`dianli.cache`) — cheap to compute.

A booklet is made from the files of the ``dianli`` package (code, templates and data: rites, corpus,
places, calendar, music …), the witness folders named by ``DIANLI_WITNESSES``, the installed libraries
and the Python running it. :func:`inputs_fingerprint` hashes all of these: the bytes of every file of
the package and of the extra witness folders (with their paths), the names and versions of every
installed distribution and the Python version. Anything that could change the output changes the
fingerprint, so a cached booklet is never stale. The package's files are read only when their status
(size, times, inode) changed since the last run (:func:`dianli.cache.current_package_digest`), so it takes
a few milliseconds and imports nothing heavy (no pydantic, no numpy): a cached run starts at once.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import hashlib
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from dianli import cache

WITNESSES_ENV = cache.EXTRA_WITNESSES_ENV
"""The variable naming extra witness folders (as :mod:`dianli.corpus.witnesses` reads it)."""


def package_root() -> Path:
    """The folder of the installed ``dianli`` package."""
    return cache.package_root()


def tree_digest(roots: Iterable[Path]) -> bytes:
    """A digest of the relative path and bytes of every file under each of ``roots`` (one walk for every
    key of the project: :func:`dianli.cache.tree_digest`)."""
    return cache.tree_digest(roots)


def extra_witness_roots() -> list[Path]:
    """The folders ``DIANLI_WITNESSES`` names, as the corpus reads them."""
    return [Path(p) for p in os.environ.get(WITNESSES_ENV, "").split(os.pathsep) if p.strip()]


def installed_distributions() -> tuple[str, ...]:
    """The ``name-version`` of every distribution installed on ``sys.path``."""
    return cache.installed_distributions()


@functools.cache
def libopus_version() -> str:
    """The system libopus's version string (``"none"`` when it cannot be loaded): it encodes the audio the
    booklet embeds (:mod:`dianli.music.opus` loads the same library), so it is part of a cache key."""
    name = ctypes.util.find_library("opus")
    return "none" if name is None else _library_version(name, "opus_get_version_string")


def _library_version(library: str, function: str) -> str:
    """What the C library ``library``'s ``function`` (no arguments, a C string) says its version is, or
    ``"none"`` when the library or the function cannot be loaded."""
    try:
        get = getattr(ctypes.CDLL(library), function)
    except (OSError, AttributeError):
        return "none"
    get.restype = ctypes.c_char_p
    return bytes(get()).decode("ascii", "replace")


def _sndfile_version(library: str) -> str:
    return _library_version(library, "sf_version_string")


@functools.cache
def libsndfile_versions() -> str:
    """The version of the libsndfile soundfile loads, chosen as soundfile chooses — the copy its wheel
    carries (the ``_soundfile_data`` package, loaded by its path) where one loads, else the system's —
    and read without importing soundfile (which loads numpy): libsndfile encodes the audio the booklet
    embeds, so this is part of a cache key."""
    import importlib.util

    spec = importlib.util.find_spec("_soundfile_data")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        try:
            names = sorted(n for n in os.listdir(folder) if n.startswith("libsndfile"))
        except OSError:
            continue
        found = [f"{n}={_sndfile_version(os.path.join(folder, n))}" for n in names]
        if any(not f.endswith("=none") for f in found):
            return ";".join(found)
    system = ctypes.util.find_library("sndfile")
    return f"system={_sndfile_version(system) if system is not None else 'none'}"


def inputs_fingerprint() -> bytes:
    """Everything outside its arguments that a program's output depends on, as one digest, read now."""
    digest = hashlib.blake2b(digest_size=32)
    digest.update(sys.version.encode("utf-8"))
    digest.update(cache.current_package_digest().encode("ascii"))  # under the files' status: a few ms
    digest.update(tree_digest(extra_witness_roots()))
    digest.update("\n".join(installed_distributions()).encode("utf-8", "surrogateescape"))
    return digest.digest()
