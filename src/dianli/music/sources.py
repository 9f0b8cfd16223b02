"""Loading the music domain's YAML data and its citations, with errors that name file and element."""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import yaml

from dianli.corpus.cite import Citation
from dianli.errors import DataError


@functools.cache
def load_data(name: str) -> dict[str, Any]:
    """The parsed YAML file ``data/<name>`` of the music package."""
    text = resources.files("dianli.music").joinpath("data", name).read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        raise DataError(f"music/data/{name}: expected a mapping at the top level")
    return data


def citation(entry: object, where: str) -> Citation:
    """A :class:`Citation` from a ``cite:`` mapping; ``where`` names the file and element for errors."""
    if not isinstance(entry, dict) or "witness" not in entry or "quote" not in entry:
        raise DataError(f"{where}: a citation needs 'witness' and 'quote', got {entry!r}")
    return Citation(witness=entry["witness"], quote=entry["quote"], section=entry.get("section"))


def citations(entries: object, where: str) -> tuple[Citation, ...]:
    """Citations from one ``cite:`` mapping or a list of them."""
    if entries is None:
        return ()
    if isinstance(entries, dict):
        return (citation(entries, where),)
    if isinstance(entries, list):
        return tuple(citation(e, f"{where}[{i}]") for i, e in enumerate(entries))
    raise DataError(f"{where}: expected a citation or a list of citations, got {entries!r}")


def require(entry: dict[str, Any], key: str, where: str) -> Any:
    """``entry[key]``, or a DataError naming the file, element and missing key."""
    if key not in entry:
        raise DataError(f"{where}: missing {key!r}")
    return entry[key]
