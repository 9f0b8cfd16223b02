"""The 祠祀 of 臺灣府 and its 縣/廳: a place-indexed list of altars, temples and shrines, every entry cited.

The rite schema (:mod:`dianli.rites.model`) describes how rites are performed; it has no home for a list of
buildings. This module holds that list: for each place, its temples (name, location, status) and, for
each temple, the witness's clauses about it in order — dated events (founding, repairs, titles, with the
reign year and its Gregorian year), other locations (「一在…」) and plain notes. The data is
``data/temples/cisi.yaml``; every element cites its clause of the witness (its ``cite``).
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Literal

import yaml
from pydantic import Field, ValidationError

from dianli.corpus.cite import Citation
from dianli.datafile import read_yaml
from dianli.errors import DataError, UnknownValueError
from dianli.places.places import get_place
from dianli.rites.model import Element, _Strict

DATA_PACKAGE = "dianli.rites.data.temples"
DATA_FILE = "cisi.yaml"
FOUNDING_WORDS = ("建", "造")
"""A clause naming the building of a temple uses one of these words (「捐俸建」, 「倡造」)."""
NOT_BUILT = "未建"

NoteKind = Literal["note", "event", "branch"]


class TempleNote(Element):
    """One clause about a temple: a dated ``event``, another location (``branch``, 「一在…」) or a ``note``.

    ``reign_year`` is the reign year the clause names (a bare 「五十五年」 continues the reign last named in
    the entry) and ``year`` the Gregorian year in which that Chinese year began.
    """

    kind: NoteKind
    text: str
    reign_year: str | None = None
    year: int | None = Field(default=None, ge=1000, le=1950)


class Temple(Element):
    """An altar, temple or shrine: its name, location, status (「未建」 …) and the clauses about it."""

    name: str
    location: str | None = None
    status: str | None = None
    notes: tuple[TempleNote, ...] = ()

    @property
    def founding(self) -> TempleNote | None:
        """The first clause that says who built it or when (「康熙五十一年，臺廈道陳璸捐俸建」), if any."""
        for note in self.notes:
            if note.kind != "branch" and NOT_BUILT not in note.text:
                if any(word in note.text for word in FOUNDING_WORDS):
                    return note
        return None

    @property
    def branches(self) -> tuple[TempleNote, ...]:
        """The other temples of the same name in the place (「一在西定坊港口」)."""
        return tuple(n for n in self.notes if n.kind == "branch")


class PlaceTemples(Element):
    """The temples of one place (a place id of :mod:`dianli.places`), under the witness's own heading."""

    place: str
    title: str
    temples: tuple[Temple, ...] = Field(min_length=1)


class TempleList(_Strict):
    """The whole 祠祀 section: its title, its citation and the places in the witness's order."""

    title: str
    cite: Citation
    places: tuple[PlaceTemples, ...] = Field(min_length=1)


def parse_temples(filename: str, text: str) -> TempleList:
    """Validate the YAML text of a temple list; raise DataError naming the file and the field."""
    try:
        raw = read_yaml(text)
    except yaml.YAMLError as exc:
        raise DataError(f"{filename}: not valid YAML: {exc}") from exc
    try:
        parsed = TempleList.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{filename}: field {'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise DataError(problems) from None
    for entry in parsed.places:
        get_place(entry.place)  # an unknown place id is a data error of this file
    return parsed


@functools.cache
def temple_list() -> TempleList:
    """The packaged 祠祀 list (read once per process)."""
    path = resources.files(DATA_PACKAGE).joinpath(DATA_FILE)
    return parse_temples(DATA_FILE, path.read_text(encoding="utf-8"))


def temple_places() -> tuple[str, ...]:
    """Ids of the places that have a temple list."""
    return tuple(p.place for p in temple_list().places)


def temples(place: str | None = None) -> tuple[PlaceTemples, ...]:
    """The temples of every place, or of one place (id, name or alias of :mod:`dianli.places`)."""
    entries = temple_list().places
    if place is None:
        return entries
    try:
        wanted = get_place(place).id
    except UnknownValueError:
        raise UnknownValueError("place with a temple list", place, temple_places()) from None
    found = tuple(p for p in entries if p.place == wanted)
    if not found:
        raise UnknownValueError("place with a temple list", place, temple_places())
    return found
