"""The rite vocabulary that is data, not schema: postures and what they count, the place levels, and
the acts an override may do away with."""

from __future__ import annotations

import functools

from pydantic import BaseModel, ConfigDict, Field

from dianli.datafile import load_model


class Posture(BaseModel):
    """A posture a step may name: the kneelings and kowtows it means, and a gloss."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str
    kneel: int
    kowtow: int
    gloss: str


class PlaceLevelName(BaseModel):
    """A level of place as the witnesses name it (府, 縣 …) and the levels of dianli.places it means."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str
    levels: tuple[str, ...] = Field(min_length=1)


class Act(BaseModel):
    """An act a step may perform (望瘞: the prayer and silk buried): an override that replaces it names it
    (``replaces_act``), and no step left in its reach may still perform it. A step performs the act when
    it is tagged with its name or one of its ``words`` stands in a text field."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str
    gloss: str
    words: tuple[str, ...] = Field(min_length=1)


class VocabularyFile(BaseModel):
    """``data/vocabulary.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    postures: tuple[Posture, ...]
    place_levels: tuple[PlaceLevelName, ...]
    acts: tuple[Act, ...] = ()


@functools.cache
def vocabulary_data() -> VocabularyFile:
    """``data/vocabulary.yaml``, validated."""
    return load_model("rites", "data/vocabulary.yaml", VocabularyFile)


@functools.cache
def postures() -> dict[str, Posture]:
    """Every posture of ``data/vocabulary.yaml`` by name."""
    return {p.name: p for p in vocabulary_data().postures}


@functools.cache
def place_levels() -> dict[str, frozenset[str]]:
    """Level names a rite may use (省城, 府 …, or a level id itself) → the place levels they mean."""
    table = {entry.name: frozenset(entry.levels) for entry in vocabulary_data().place_levels}
    for levels in list(table.values()):
        for level in levels:
            table.setdefault(level, frozenset({level}))
    return table


@functools.cache
def acts() -> dict[str, Act]:
    """Every act of ``data/vocabulary.yaml`` by name."""
    return {a.name: a for a in vocabulary_data().acts}
