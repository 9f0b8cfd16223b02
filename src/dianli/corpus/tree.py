"""The section tree shared by all witnesses (``data/sections.yaml``): ids, titles, glosses, parents.

It is read before any witness (the witness manifests are checked against it), so it lives apart from
:mod:`dianli.corpus.sections`, which places the tree's sections in each witness.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from dianli.datafile import load_model
from dianli.errors import DataError

SECTIONS_FILE = "data/sections.yaml"


@dataclass(frozen=True)
class SectionDef:
    """A node of the shared section tree."""

    id: str
    title: str
    gloss: str
    parent: str | None

    @property
    def depth(self) -> int:
        return self.id.count(".")


class _SectionEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str
    title: str
    gloss: str = ""
    parent: str | None = None


class _SectionsFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    sections: tuple[_SectionEntry, ...]


@functools.lru_cache(maxsize=1)
def section_defs() -> dict[str, SectionDef]:
    """The shared tree, by id, in document order (a parent is defined before its children)."""
    where = f"dianli/corpus/{SECTIONS_FILE}"
    defs: dict[str, SectionDef] = {}
    for index, entry in enumerate(load_model("corpus", SECTIONS_FILE, _SectionsFile).sections):
        if entry.id in defs:
            raise DataError(f"{where}: sections.{index}.id: section {entry.id!r} is defined twice")
        if entry.parent is not None and entry.parent not in defs:
            raise DataError(
                f"{where}: sections.{index}.parent: section {entry.id!r} names parent {entry.parent!r}, "
                f"not defined before it; accepted: {', '.join(defs)}"
            )
        defs[entry.id] = SectionDef(entry.id, entry.title, entry.gloss, entry.parent)
    return defs
