"""The program's rules as data (``data/program.yaml``), validated."""

from __future__ import annotations

import functools

from pydantic import BaseModel, ConfigDict

from dianli.corpus.cite import Citation
from dianli.datafile import load_model
from dianli.errors import DataError

_FILE = "data/program.yaml"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Seasons(_Model):
    assumption: str
    months: dict[str, tuple[int, ...]]


class SpringOxExhibit(_Model):
    cite: Citation
    summary: dict[str, tuple[str, ...]]
    """Lines of the order of service's summary: a heading and the attribute ids it lists."""


class Exhibits(_Model):
    spring_ox: SpringOxExhibit


class AudioRule(_Model):
    rate_hz: int
    format: str
    subtype: str
    mime: str
    assumption: str


class ProgramConfig(_Model):
    seasons: Seasons
    exhibits: Exhibits
    audio: AudioRule


@functools.cache
def config() -> ProgramConfig:
    """The validated ``program.yaml``; a broken file is a DataError naming file and field."""
    return load_model("program", _FILE, ProgramConfig)


def season_ids() -> tuple[str, ...]:
    return tuple(config().seasons.months)


def season_of_month(month: int) -> str:
    for name, months in config().seasons.months.items():
        if month in months:
            return name
    raise DataError(f"dianli/program/{_FILE}: seasons: month {month} is in no season")
