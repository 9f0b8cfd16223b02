"""The schema of ``data/year_names.yaml`` (:mod:`dianli.calendar.year_names`): loaded only when the file is
read, not when its data come from the on-disk cache."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class _Source(_Strict):
    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    locator: str = Field(min_length=1)
    note: str = ""


class _Cite(_Strict):
    source: str = Field(min_length=1)
    quote: str = Field(min_length=1)


class _Period(_Strict):
    from_year: int
    until_year: int | None = None
    calendar: str | None = None
    note: str = Field(min_length=1)
    cite: tuple[_Cite, ...] = Field(min_length=1)
    assumption: str | None = None

    @model_validator(mode="after")
    def _ordered(self) -> _Period:
        if self.until_year is not None and self.until_year < self.from_year:
            raise ValueError(f"until_year {self.until_year} is before from_year {self.from_year}")
        return self

    def holds(self, year: int) -> bool:
        return self.from_year <= year <= (self.until_year if self.until_year is not None else year)


class _Region(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z-]*$")
    name: str = Field(min_length=1)
    places_ended_by: tuple[str, ...] = ()
    periods: tuple[_Period, ...] = ()


class _File(_Strict):
    default_region: str
    sources: tuple[_Source, ...]
    regions: tuple[_Region, ...] = Field(min_length=1)
