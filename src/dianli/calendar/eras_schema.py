"""The schema of ``data/eras.yaml`` (:mod:`dianli.calendar.eras`): loaded only when the file is read, not
when the era table comes from the on-disk cache."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class _TableEra(_Strict):
    name: str = Field(min_length=1)
    first_year: int
    last_year: int
    first_month: int | None = Field(default=None, ge=1, le=12)
    last_month: int | None = Field(default=None, ge=1, le=12)


class _CountedOn(_Strict):
    era: str = Field(min_length=1)
    from_year: int
    note: str = Field(min_length=1)


class _Dynasty(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z-]*$")
    name: str = Field(min_length=1)
    note: str = ""
    eras_from: Literal["chinesecalendar-py", "table"]
    calendar: Literal["default", "SouthernMing", "Gregorian"]
    region: str | None = None
    years: tuple[int, int] | None = None
    source: str | None = None
    eras: tuple[str | _TableEra, ...] = ()
    counted_on: tuple[_CountedOn, ...] = ()
    """Eras counted on beyond their emperor by another regime: from which year, and the note to show."""

    @model_validator(mode="after")
    def _complete(self) -> _Dynasty:
        if self.eras_from == "chinesecalendar-py":
            if self.region is None or self.years is None or not self.eras:
                raise ValueError("eras_from chinesecalendar-py needs region, years and the era names (eras)")
            if not all(isinstance(e, str) for e in self.eras):
                raise ValueError(
                    "eras of chinesecalendar-py are names only (their years come from the package)"
                )
        if self.eras_from == "table":
            if self.source is None or not self.eras or not all(isinstance(e, _TableEra) for e in self.eras):
                raise ValueError("eras_from table needs a source and eras with name, first_year, last_year")
        return self


class _Cite(_Strict):
    witness: str = Field(min_length=1)
    quote: str = Field(min_length=1)


class _Alias(_Strict):
    form: str = Field(min_length=1)
    era: str = Field(min_length=1)
    dynasty: str
    assumption: str = Field(min_length=1)
    cite: _Cite


class _ErasFile(_Strict):
    dynasties: tuple[_Dynasty, ...] = Field(min_length=1)
    aliases: tuple[_Alias, ...] = ()
