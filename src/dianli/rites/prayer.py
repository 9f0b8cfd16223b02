"""A text of a rite (祝文, 表) filled for one occasion: every alternative read, every blank filled or labelled.

The witnesses write their prayers as templates (「維乾隆某年，歲次某干支，二(八)月某干支朔 … 某官某名敢昭告
於 … 今茲仲春(秋)」). For an occasion — a dated observance of the rite at a place — this module

* reads every alternative by the occasion: the spring or autumn reading by its month (「仲春」 or 「仲秋」),
  an occasion's own reading by its observance (「正旦」 on 元旦), a place's by its level (「郡」 at a 府);
* fills the date blanks with the day (:func:`dianli.calendar.date_clause.fill_date_blanks`);
* writes the office of the officiant the data knows, in 〔〕 as supplied (「〔知府〕」), and keeps the 某 of a
  name — a name no text can know — labelled with that office (「正獻官某〔知府〕」);
* leaves what the occasion does not settle as the witness writes it, labelled 〔未定〕.

The rules (which alternatives, which blanks, which officiant) are data: ``data/prayers/fill.yaml``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from pydantic import BaseModel, ConfigDict, Field

from dianli.calendar.date_clause import fill_date_blanks
from dianli.corpus.cite import Citation
from dianli.datafile import load_model
from dianli.places.regions import place_region
from dianli.rites.model import Officiant, Text
from dianli.rites.observances import Occurrence, observances_for
from dianli.rites.resolve import ResolvedRite
from dianli.rites.vocabulary import place_levels

UNSETTLED = "〔未定〕"
"""The label after an alternative the occasion does not settle, or a date blank of an undated occasion."""
DATE_BLANK = re.compile(r"某(?:干支|甲子|年|月|日)|[×Ｘ]月")
"""The date blanks of the templates (「某年」, 「某干支」, 「某甲子」, 「×月」 …)."""
SUPPLIED = re.compile(r"〔[^〔〕]*〕")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class SeasonRule(_Model):
    spring_months: tuple[int, ...]
    autumn_months: tuple[int, ...]
    cite: Citation
    assumption: str


class SeasonPair(_Model):
    spring: str
    autumn: str


class Alternatives(_Model):
    """Alternatives written in ``forms``, read by a key (an observance id, a place level)."""

    forms: tuple[str, ...] = Field(min_length=1)
    readings: dict[str, str]
    cite: Citation
    assumption: str | None = None


class OfficiantBlank(_Model):
    form: str
    function: str
    write: str


class FillRules(_Model):
    """``data/prayers/fill.yaml``."""

    season: SeasonRule
    season_pairs: tuple[SeasonPair, ...]
    season_forms: tuple[str, ...]
    occasions: tuple[Alternatives, ...]
    place_levels: tuple[Alternatives, ...]
    chief_functions: tuple[str, ...]
    unknown_office: str
    officiant_blanks: tuple[OfficiantBlank, ...]


@functools.cache
def fill_rules() -> FillRules:
    """The validated ``data/prayers/fill.yaml``."""
    return load_model("rites", "data/prayers/fill.yaml", FillRules)


@dataclass(frozen=True)
class Occasion:
    """What a prayer is filled for: the day (None when undatable), its Chinese month, the observance,
    the place's name and level (as the place levels of ``data/vocabulary.yaml`` name it), and the
    offices of the rite's officiants by function."""

    day: date | None
    month: int | None
    observance: str | None
    place: str
    level: str
    offices: Mapping[str, tuple[str, ...]]
    region: str | None = None
    """The place's calendar region (how its years are named after the Qing)."""


def offices_by_function(officiants: Iterable[Officiant]) -> dict[str, tuple[str, ...]]:
    """The offices of the officiants in force, by function (in the data's order, each once)."""
    out: dict[str, list[str]] = {}
    for o in officiants:
        offices = out.setdefault(o.function, [])
        if o.office and o.office not in offices:
            offices.append(o.office)
    return {k: tuple(v) for k, v in out.items()}


def level_name(level: str) -> str:
    """The witnesses' name of a place level (府, 縣 …) for a level of :mod:`dianli.places`."""
    for name, levels in place_levels().items():
        if level in levels and name != level:
            return name
    return level


def season_of(month: int | None) -> str | None:
    """``spring`` or ``autumn`` for the Chinese month of an occasion; None when it settles neither."""
    rule = fill_rules().season
    if month in rule.spring_months:
        return "spring"
    if month in rule.autumn_months:
        return "autumn"
    return None


def _read_seasons(text: str, season: str | None) -> str:
    rules = fill_rules()
    for pair in rules.season_pairs:
        for form in rules.season_forms:
            written = form.format(a=pair.spring, b=pair.autumn)
            if written not in text:
                continue
            if season is None:
                text = text.replace(written, written + UNSETTLED)
            else:
                text = text.replace(written, pair.spring if season == "spring" else pair.autumn)
    return text


def _read(text: str, table: tuple[Alternatives, ...], key: str | None) -> str:
    for alternatives in table:
        for form in alternatives.forms:
            if form in text:
                reading = alternatives.readings.get(key or "")
                text = text.replace(form, reading if reading is not None else form + UNSETTLED)
    return text


def _chief(offices: Mapping[str, tuple[str, ...]]) -> str | None:
    return next((f for f in fill_rules().chief_functions if f in offices), None)


def _office(function: str, occasion: Occasion) -> str:
    """The offices of a function (a function the data qualifies, 分獻官（殿上）, counts as its own)."""
    name = _chief(occasion.offices) if function == "chief" else function
    if name is None:
        return fill_rules().unknown_office
    offices: list[str] = []
    for f, held in occasion.offices.items():
        if f == name or (f.startswith(name) and f[len(name) : len(name) + 1] in "（("):
            offices += [o for o in held if o not in offices]
    if not offices:
        return name if name in occasion.offices else fill_rules().unknown_office
    return "、".join(offices)


def _officiants(text: str, occasion: Occasion) -> str:
    for blank in fill_rules().officiant_blanks:
        if blank.form in text:
            written = blank.write.format(office=_office(blank.function, occasion), place=occasion.place)
            text = text.replace(blank.form, written)
    return text


def fill_prayer(template: str, occasion: Occasion) -> str:
    """The template filled for the occasion (see the module docstring)."""
    text = _read_seasons(template, season_of(occasion.month))
    text = _read(text, fill_rules().occasions, occasion.observance)
    text = _read(text, fill_rules().place_levels, occasion.level)
    if occasion.day is not None:
        text = fill_date_blanks(text, occasion.day, occasion.region)
    else:
        text = DATE_BLANK.sub(lambda m: m.group() + UNSETTLED, text)
    return _officiants(text, occasion)


def _alternative_forms() -> list[str]:
    rules = fill_rules()
    forms = [f.format(a=p.spring, b=p.autumn) for p in rules.season_pairs for f in rules.season_forms]
    return forms + [f for table in (rules.occasions, rules.place_levels) for a in table for f in a.forms]


def unfilled(text: str) -> list[str]:
    """What is left of a template in a filled text: a 某 not labelled in 〔〕, a date blank, an alternative
    neither read nor labelled 〔未定〕 (each as a short excerpt); empty for a prayer filled completely."""
    bare = text
    for form in _alternative_forms():
        bare = bare.replace(form + UNSETTLED, "")
    bare = re.sub(f"(?:{DATE_BLANK.pattern}){UNSETTLED}", "", bare)
    left = [bare[max(0, m.start() - 3) : m.end() + 3] for m in re.finditer(r"某(?!〔)", bare)]
    bare = SUPPLIED.sub("", bare)
    left += [m.group() for m in DATE_BLANK.finditer(bare)]
    left += [form for form in _alternative_forms() if form in bare]
    return left


def occasion_of(resolved: ResolvedRite, occurrence: Occurrence | None) -> Occasion:
    """The occasion of a resolved rite on one of its occurrences (None: no dated occurrence)."""
    return Occasion(
        day=occurrence.day if occurrence is not None else None,
        month=occurrence.chinese_date.month if occurrence is not None and occurrence.chinese_date else None,
        observance=occurrence.observance_id if occurrence is not None else None,
        place=resolved.place.name,
        level=level_name(str(resolved.place.level)),
        offices=offices_by_function(resolved.officiants),
        region=place_region(resolved.place),
    )


def fill_text(text: Text, resolved: ResolvedRite, occurrence: Occurrence | None) -> str:
    """A text of the resolved rite filled for one of its occurrences."""
    return fill_prayer(text.text, occasion_of(resolved, occurrence))


@dataclass(frozen=True)
class FilledText:
    """A text of a rite filled for one occurrence of the year (``occasion``: its name, None if none)."""

    id: str
    title: str
    occasion: str | None
    template: str
    filled: str


def filled_texts(resolved: ResolvedRite) -> tuple[FilledText, ...]:
    """Every text of the resolved rite that has something to fill, filled for each of the rite's
    occurrences of the year at its place (once, undated, when it has none)."""
    occurrences: list[Occurrence | None] = [
        o
        for o in observances_for(
            resolved.place.id, resolved.year, [resolved.rite.id], witness=resolved.witness
        )
        if o.part is None
    ]
    out = []
    for text in resolved.texts:
        if not unfilled(text.text):
            continue
        for occ in occurrences or [None]:
            name = occ.name if occ is not None else None
            out.append(FilledText(text.id, text.title, name, text.text, fill_text(text, resolved, occ)))
    return tuple(out)
