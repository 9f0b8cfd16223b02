"""The witnesses: the five texts carried as package data, described by ``data/manifest.yaml``.

A witness is one text of the ritual code; it may come in several fragments (福建通志 卷十四 survives here
as 003 and 004). Its raw text is its fragments joined by :data:`FRAGMENT_SEPARATOR`; every offset the
corpus reports is an offset into that raw text.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from typing import Any

import yaml

from dianli.corpus.normalise import Normalised, normalise
from dianli.errors import DataError, UnknownValueError

FRAGMENT_SEPARATOR = "\n\n⁂\n\n"
"""Joins fragments in a witness's raw text; ⁂ marks the gap (it takes no part in the folding key)."""


@dataclass(frozen=True)
class Fragment:
    """One file of a witness: where it starts and ends in the witness's raw text."""

    file: str
    start: int
    end: int
    note: str
    starts_in: str | None
    """The section the fragment starts inside (it begins mid-section), or None."""


@dataclass(frozen=True)
class WitnessInfo:
    """The manifest entry of a witness."""

    id: str
    title: str
    short_title: str
    edition: str
    script: str
    language: str
    punctuated: bool
    authority: str
    translation_of: str | None
    governs: str
    files: tuple[tuple[str, str, str | None], ...]
    anchors: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Witness:
    """A witness with its raw text, fragments and normalised views."""

    info: WitnessInfo
    fragments: tuple[Fragment, ...]
    norm: Normalised

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def raw(self) -> str:
        return self.norm.raw

    def fragment_at(self, raw_offset: int) -> Fragment:
        """The fragment that holds a raw offset (the separator belongs to the fragment before it)."""
        for fragment in self.fragments:
            if raw_offset < fragment.end:
                return fragment
        return self.fragments[-1]


def _data_text(name: str) -> str:
    return (resources.files("dianli.corpus") / "data" / name).read_text(encoding="utf-8")


def _require(entry: dict[str, Any], field: str, where: str) -> Any:
    if field not in entry:
        raise DataError(f"manifest.yaml: {where} lacks the field {field!r}")
    return entry[field]


@functools.lru_cache(maxsize=1)
def manifest() -> tuple[WitnessInfo, ...]:
    """The manifest entries, in the manifest's order."""
    data = yaml.safe_load(_data_text("manifest.yaml"))
    infos: list[WitnessInfo] = []
    for entry in data["witnesses"]:
        wid = _require(entry, "id", "a witness")
        where = f"witness {wid!r}"
        files = tuple(
            (_require(f, "file", where), str(f.get("note", "")), f.get("starts_in"))
            for f in _require(entry, "fragments", where)
        )
        anchors = tuple((str(a[0]), str(a[1])) for a in entry.get("anchors", []))
        infos.append(
            WitnessInfo(
                id=wid,
                title=_require(entry, "title", where),
                short_title=_require(entry, "short_title", where),
                edition=str(entry.get("edition", "")),
                script=_require(entry, "script", where),
                language=_require(entry, "language", where),
                punctuated=bool(_require(entry, "punctuated", where)),
                authority=_require(entry, "authority", where),
                translation_of=entry.get("translation_of"),
                governs=str(entry.get("governs", "")),
                files=files,
                anchors=anchors,
            )
        )
    return tuple(infos)


def witness_ids() -> tuple[str, ...]:
    """The stable ids of all witnesses."""
    return tuple(info.id for info in manifest())


@functools.cache
def load_witness(witness_id: str) -> Witness:
    """Load and normalise one witness by id (cached: the texts never change at run time)."""
    infos = {info.id: info for info in manifest()}
    if witness_id not in infos:
        raise UnknownValueError("witness", witness_id, infos)
    info = infos[witness_id]
    parts: list[str] = []
    fragments: list[Fragment] = []
    offset = 0
    for index, (file, note, starts_in) in enumerate(info.files):
        if index:
            parts.append(FRAGMENT_SEPARATOR)
            offset += len(FRAGMENT_SEPARATOR)
        text = _data_text(file)
        parts.append(text)
        fragments.append(Fragment(file, offset, offset + len(text), note, starts_in))
        offset += len(text)
    return Witness(info=info, fragments=tuple(fragments), norm=normalise("".join(parts)))


def all_witnesses() -> tuple[Witness, ...]:
    """Every witness, loaded."""
    return tuple(load_witness(wid) for wid in witness_ids())
