"""The layout rules as data (``data/layout.yaml``), validated."""

from __future__ import annotations

import functools
from typing import Literal

from pydantic import BaseModel, ConfigDict

from dianli.corpus.cite import Citation
from dianli.datafile import load_model

_FILE = "data/layout.yaml"
MarkKind = Literal["tablet", "food", "victim", "silk", "cup", "burner", "person", "feature"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class MarkRule(_Model):
    kind: MarkKind
    words: tuple[str, ...]


class SeatRule(_Model):
    word: str
    role: str
    assumption: str | None = None


class StatedSeat(_Model):
    role: str
    at: str
    cite: Citation


class ColumnRule(_Model):
    match: str
    column: int


class SideHallRule(_Model):
    match: str
    side: Literal["east", "west", "both"]


class TabletRules(_Model):
    assumption: str
    columns: tuple[ColumnRule, ...]
    side_halls: tuple[SideHallRule, ...]
    unplaced_assumption: str


class TableRules(_Model):
    assumption: str
    cite: Citation
    cites: tuple[Citation, ...] = ()
    soups: tuple[str, ...]
    grains: tuple[str, ...]
    left: str
    right: str


class LayoutConfig(_Model):
    marks: tuple[MarkRule, ...]
    seats: tuple[SeatRule, ...]
    stated_seats: tuple[StatedSeat, ...]
    tablets: TabletRules
    table: TableRules


@functools.cache
def config() -> LayoutConfig:
    """The validated ``layout.yaml``; a broken file is a DataError naming the file and the field."""
    return load_model("layout", _FILE, LayoutConfig)


def mark_kind(word: str) -> MarkKind:
    """What a word of a plan stands for (a food in a vessel unless the rules name it)."""
    for rule in config().marks:
        if word in rule.words:
            return rule.kind
    return "food"


def seat_role(word: str) -> SeatRule | None:
    return next((s for s in config().seats if s.word == word), None)
