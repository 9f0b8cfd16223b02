"""Rule sets ("profiles") for the spring ox and the Mang god, held as YAML data and validated here.

A profile is a list of *attributes* (ox.head, god.robe …). Each attribute has one rule of a small set of
kinds, and its evidence: a witness citation (``cite``), a public page (``source``: url, title, quote) or a
labelled ``assumption``. A disputed point carries ``alternatives``: other readings, each with its own
evidence, chosen by id. Rule kinds:

* ``value`` — a fixed value (a material, a measure);
* ``colour: {of: KEY, via: own|overcomer}`` — the colour of the 五行 of a fact (``year.stem``) or of an
  earlier attribute (``god.robe``), or of the phase that overcomes it;
* ``cases`` — the first case whose ``when`` matches the facts gives the value;
* ``first_day_after_term: {term, year_offset, branch}`` — the first day of a branch after a solar term.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal, Self, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from dianli.corpus.cite import Citation
from dianli.datafile import load_model, parse_model
from dianli.errors import DataError, UnknownValueError

_PACKAGE = "spring_ox"
PROFILE_FILES: dict[str, str] = {"gazetteer": "data/gazetteer.yaml", "almanac": "data/almanac.yaml"}
PHASES_FILE = "data/phases.yaml"
GLOSSES_FILE = "data/glosses.yaml"
PARTS = ("ox", "god", "placing", "making")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


M = TypeVar("M", bound=_Model)


class Source(_Model):
    url: str
    title: str
    quote: str


class Evidence(_Model):
    """Where a rule comes from: a witness, a public page, or an assumption (at least one)."""

    cite: Citation | None = None
    source: Source | None = None
    assumption: str | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _has_evidence(self) -> Evidence:
        if self.cite is None and self.source is None and self.assumption is None:
            raise ValueError("needs cite, source or assumption")
        return self


class Comparison(_Model):
    lt: int | None = None
    gt: int | None = None
    le: int | None = None
    ge: int | None = None


class Case(_Model):
    when: dict[str, list[str] | Comparison]
    value: Any
    cite: Citation | None = None
    source: Source | None = None
    assumption: str | None = None


class ColourRule(_Model):
    of: str
    via: Literal["own", "overcomer"] = "own"


class TermDayRule(_Model):
    term: str
    year_offset: int
    branch: str


class Rule(Evidence):
    """One way of computing an attribute (exactly one of the rule kinds)."""

    value: Any = None
    colour: ColourRule | None = None
    cases: tuple[Case, ...] | None = None
    first_day_after_term: TermDayRule | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Rule:
        kinds = [self.value is not None, self.colour, self.cases, self.first_day_after_term]
        if sum(bool(k) for k in kinds) != 1:
            raise ValueError("give exactly one of value, colour, cases, first_day_after_term")
        return self


class Alternative(Rule):
    id: str
    label: str


class Attribute(Rule):
    id: str
    part: Literal["ox", "god", "placing", "making"]
    label: str
    gloss: str
    reading: str = "as-stated"  # the id of the primary reading when there are alternatives
    alternatives: tuple[Alternative, ...] = ()
    places: tuple[str, ...] | None = None  # only at these places (site ids)


class Defaults(_Model):
    place: str
    clock: str
    day_source: str
    boundary: str


class Profile(_Model):
    id: str
    title: str
    summary: str
    defaults: Defaults
    notes: tuple[Evidence, ...] = ()
    attributes: tuple[Attribute, ...] = Field(min_length=1)

    def attribute(self, attribute_id: str) -> Attribute:
        for attribute in self.attributes:
            if attribute.id == attribute_id:
                return attribute
        raise UnknownValueError(
            f"attribute of profile {self.id}", attribute_id, [a.id for a in self.attributes]
        )


class Phase(_Model):
    element: str
    colour: str
    hex: str
    cite: Citation


class Phases(_Model):
    phases: tuple[Phase, ...]
    overcomes: dict[str, str]  # 木 → 土: wood overcomes earth
    overcomes_evidence: Evidence
    hex_assumption: str


class Gloss(_Model):
    """A further citation of the gazetteer rule, linked to the attributes or phases it supports."""

    attributes: tuple[str, ...] = ()
    phases: tuple[str, ...] = ()
    cite: Citation
    note: str | None = None

    @model_validator(mode="after")
    def _supports_something(self) -> Self:
        if not self.attributes and not self.phases:
            raise ValueError("a gloss names the attributes or the phases it supports")
        return self


class Glosses(_Model):
    """``data/glosses.yaml``: the wording of one profile's rule in the other witnesses."""

    profile: str
    glosses: tuple[Gloss, ...]


def _validate(model: type[M], name: str, data: Any) -> M:
    """Validate data already in memory as the file ``name`` (errors as :mod:`dianli.datafile` gives them)."""
    return parse_model(f"dianli/{_PACKAGE}/{name}", yaml.safe_dump(data, allow_unicode=True), model)


@cache
def load_profile(profile_id: str) -> Profile:
    """The rule set ``gazetteer`` or ``almanac``."""
    if profile_id not in PROFILE_FILES:
        raise UnknownValueError("spring-ox rule set", profile_id, PROFILE_FILES)
    name = PROFILE_FILES[profile_id]
    profile = load_model(_PACKAGE, name, Profile)
    ids = [a.id for a in profile.attributes]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise DataError(f"dianli/{_PACKAGE}/{name}: duplicate attribute ids {duplicates}")
    return profile


@cache
def load_phases() -> Phases:
    """The five phases: colour names, print colours, and which overcomes which."""
    return load_model(_PACKAGE, PHASES_FILE, Phases)


@cache
def load_glosses() -> Glosses:
    """The further citations of the gazetteer rule; every attribute and phase they name must exist."""
    return check_glosses(load_model(_PACKAGE, GLOSSES_FILE, Glosses), f"dianli/{_PACKAGE}/{GLOSSES_FILE}")


def check_glosses(glosses: Glosses, where: str) -> Glosses:
    """``glosses`` if its profile, attributes and phases exist; else a DataError naming ``where``."""
    if glosses.profile not in PROFILE_FILES:
        raise DataError(
            f"{where}: profile: unknown {glosses.profile!r}; accepted: {', '.join(PROFILE_FILES)}"
        )
    attributes = [a.id for a in load_profile(glosses.profile).attributes]
    elements = [p.element for p in load_phases().phases]
    for i, gloss in enumerate(glosses.glosses):
        for kind, names, known in (
            ("attributes", gloss.attributes, attributes),
            ("phases", gloss.phases, elements),
        ):
            unknown = [n for n in names if n not in known]
            if unknown:
                raise DataError(
                    f"{where}: glosses.{i}.{kind}: unknown {', '.join(unknown)}; accepted: {', '.join(known)}"
                )
    return glosses


def profile_ids() -> tuple[str, ...]:
    return tuple(PROFILE_FILES)
