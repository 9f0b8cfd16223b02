"""Reading the rite files: YAML → validated :class:`~dianli.rites.model.RiteFile`, errors that say where.

A schema error names the file, the rite (by its ``id``, or its position when the id is missing) and the
field path, e.g. ``family.yaml: rite 'some-rite': field parts[3].steps[2].posture: …``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from pydantic import ValidationError

from dianli import cache
from dianli.datafile import read_yaml
from dianli.errors import DataError, UnknownValueError
from dianli.rites.check import check_rites
from dianli.rites.model import Rite, RiteFile

DATA_PACKAGE = "dianli.rites.data"
UNION_TAGS = frozenset({"Step", "Include"})
NON_RITE_FILES = frozenset({"vocabulary.yaml", "not_procedural.yaml"})


def _loc(parts: Iterable[int | str]) -> str:
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


def _rite_label(raw: Any, index: int) -> str:
    rites = raw.get("rites") if isinstance(raw, dict) else None
    if isinstance(rites, list) and index < len(rites) and isinstance(rites[index], dict):
        rid = rites[index].get("id")
        if rid:
            return f"rite {rid!r}"
    return f"rite #{index + 1}"


def schema_error(filename: str, raw: Any, error: ValidationError) -> DataError:
    """A DataError naming the file, the rite and the field of every validation problem."""
    lines = []
    problems = error.errors()
    deepest = max(len(p["loc"]) for p in problems)
    for problem in problems:
        if problem["type"] == "too_short" and len(problem["loc"]) < deepest:
            continue  # an empty list only because its items failed: the item errors say why
        loc = list(problem["loc"])
        where = "file"
        if len(loc) >= 2 and loc[0] == "rites" and isinstance(loc[1], int):
            where = _rite_label(raw, loc[1])
            loc = loc[2:]
        loc = [p for p in loc if p not in UNION_TAGS]
        field = _loc(str(p) if not isinstance(p, int) else p for p in loc) or "(the element itself)"
        lines.append(f"{filename}: {where}: field {field}: {problem['msg']}")
    return DataError("; ".join(lines))


def parse_rite_file(filename: str, text: str) -> RiteFile:
    """Validate the YAML text of one rite file; raise DataError naming file, rite and field."""
    import yaml  # only when the YAML is read: a cached run never loads it

    try:
        raw = read_yaml(text)
    except yaml.YAMLError as exc:
        raise DataError(f"{filename}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise DataError(f"{filename}: a rite file must be a mapping with 'family' and 'rites'")
    try:
        return RiteFile.model_validate(raw)
    except ValidationError as exc:
        raise schema_error(filename, raw, exc) from None


def rite_files() -> tuple[Traversable, ...]:
    """The packaged rite files, sorted by name."""
    root = resources.files(DATA_PACKAGE)
    return tuple(
        sorted(
            (p for p in root.iterdir() if p.name.endswith(".yaml") and p.name not in NON_RITE_FILES),
            key=lambda p: p.name,
        )
    )


def read_all() -> dict[str, Rite]:
    """Read and validate every rite file afresh (no cache); rite ids must be unique across files."""
    found: dict[str, Rite] = {}
    origin: dict[str, str] = {}
    for path in rite_files():
        parsed = parse_rite_file(path.name, path.read_text(encoding="utf-8"))
        for rite in parsed.rites:
            if rite.id in found:
                raise DataError(
                    f"{path.name}: rite {rite.id!r}: field id: already defined in {origin[rite.id]}"
                )
            found[rite.id] = rite
            origin[rite.id] = path.name
    check_rites(found, origin)
    return found


@functools.cache
def all_rites() -> dict[str, Rite]:
    """Every rite by id, validated and cross-checked (read once per process). The result is kept in the
    on-disk cache under a key naming every file of the package and of the extra witness folders (the rite
    files, the witnesses, places and vocabulary they are checked against, the code that reads them) and the
    versions of the libraries that validate them: a later run reads it back instead of validating again."""
    entry = cache.installed_key("rites.all_rites", cache.versions("pydantic", "pydantic-core", "PyYAML"))
    return cache.pickled(cache.DERIVED, entry, read_all)


def rite_file_of(rite_id: str) -> str:
    """The file name that defines a rite (for messages)."""
    for path in rite_files():
        raw = read_yaml(path.read_text(encoding="utf-8")) or {}
        for rite in raw.get("rites", []) or []:
            if isinstance(rite, dict) and rite.get("id") == rite_id:
                return path.name
    raise UnknownValueError("rite", rite_id, sorted(all_rites()))
