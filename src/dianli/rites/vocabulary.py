"""The rite vocabulary that is data, not schema: postures and what they count."""

from __future__ import annotations

import functools
from importlib import resources

import yaml
from pydantic import BaseModel, ConfigDict


class Posture(BaseModel):
    """A posture a step may name: the kneelings and kowtows it means, and a gloss."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    kneel: int
    kowtow: int
    gloss: str


@functools.cache
def postures() -> dict[str, Posture]:
    """Every posture of ``data/vocabulary.yaml`` by name."""
    raw = yaml.safe_load(resources.files("dianli.rites.data").joinpath("vocabulary.yaml").read_text("utf-8"))
    return {p["name"]: Posture.model_validate(p) for p in raw["postures"]}


@functools.cache
def place_levels() -> dict[str, frozenset[str]]:
    """Level names a rite may use (省城, 府 …, or a level id itself) → the place levels they mean."""
    raw = yaml.safe_load(resources.files("dianli.rites.data").joinpath("vocabulary.yaml").read_text("utf-8"))
    table = {entry["name"]: frozenset(entry["levels"]) for entry in raw["place_levels"]}
    for levels in list(table.values()):
        for level in levels:
            table.setdefault(level, frozenset({level}))
    return table
