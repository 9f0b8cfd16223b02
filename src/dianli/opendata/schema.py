"""The tables of the open-data package: their fields, types, descriptions and keys (Frictionless Table Schema).

Each :class:`TableSchema` describes one resource of the data package ``dianli export`` writes; the rows
come from :mod:`dianli.opendata.tables`. Field types are those of Table Schema: ``string``, ``integer``,
``number``, ``boolean``, ``date``, ``array`` (a JSON array; in CSV the cell holds its JSON text) and
``object`` (a JSON object, likewise). An empty CSV cell, or ``null`` in JSON, is a missing value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

FieldType = Literal["string", "integer", "number", "boolean", "date", "array", "object"]
FIELD_TYPES: tuple[str, ...] = ("string", "integer", "number", "boolean", "date", "array", "object")


@dataclass(frozen=True)
class Field:
    """One column: its name, Table Schema type, what it means, and whether a value is required."""

    name: str
    type: FieldType
    description: str
    required: bool = False

    def descriptor(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type, "description": self.description}
        if self.required:
            out["constraints"] = {"required": True}
        return out


@dataclass(frozen=True)
class ForeignKey:
    """Columns of this table whose values must be found in ``fields`` of ``resource`` ("" = this table)."""

    fields: tuple[str, ...]
    resource: str
    reference: tuple[str, ...]

    def descriptor(self) -> dict[str, Any]:
        return {
            "fields": list(self.fields),
            "reference": {"resource": self.resource, "fields": list(self.reference)},
        }


@dataclass(frozen=True)
class TableSchema:
    """One resource of the package: its name, title, description, columns and keys."""

    name: str
    title: str
    description: str
    fields: tuple[Field, ...]
    primary_key: tuple[str, ...]
    foreign_keys: tuple[ForeignKey, ...] = ()

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def descriptor(self) -> dict[str, Any]:
        """The Table Schema of the resource."""
        out: dict[str, Any] = {
            "fields": [f.descriptor() for f in self.fields],
            "primaryKey": list(self.primary_key),
            "missingValues": [""],
        }
        if self.foreign_keys:
            out["foreignKeys"] = [k.descriptor() for k in self.foreign_keys]
        return out


def _f(name: str, type_: FieldType, description: str, required: bool = False) -> Field:
    return Field(name, type_, description, required)


def _fk(fields: tuple[str, ...] | str, resource: str, reference: tuple[str, ...] | str = "id") -> ForeignKey:
    as_tuple = (fields,) if isinstance(fields, str) else fields
    ref = (reference,) if isinstance(reference, str) else reference
    return ForeignKey(as_tuple, resource, ref)


def _cite_fields() -> tuple[Field, ...]:
    """The element's citation as one witness states it (the reading's own witness first), or its assumption."""
    return (
        _f("cite_witness", "string", "The witness of the citation (witnesses.id); empty for an assumption."),
        _f("cite_quote", "string", "The exact words quoted from the witness."),
        _f("cite_section", "string", "The section the quote is looked up in, where the data narrows it."),
        _f(
            "cite_start",
            "integer",
            "Where the quote starts in the witness's raw text (offset in Unicode code points, 0-based).",
        ),
        _f("cite_end", "integer", "Where the quote ends in the witness's raw text (exclusive offset)."),
        _f("assumption", "string", "Where the sources are silent: the labelled assumption and its reason."),
    )


def _scope_fields() -> tuple[Field, ...]:
    return (
        _f("from_year", "integer", "First Gregorian year the element holds (empty: from the beginning)."),
        _f("until_year", "integer", "Last Gregorian year the element holds (empty: to the end)."),
        _f("places", "array", "Places (ids or names) the element is restricted to (empty: everywhere)."),
        _f("place_levels", "array", "Levels of place (府, 縣 …) the element is restricted to."),
        _f("witnesses", "array", "The witnesses whose reading the element is (empty: all)."),
        _f(
            "variant",
            "string",
            "The point the witnesses read differently (elements sharing it are readings).",
        ),
    )


def _reading_fields() -> tuple[Field, ...]:
    return (
        _f("rite", "string", "The rite (rites.id).", required=True),
        _f("witness", "string", "The witness whose reading this is (witnesses.id).", required=True),
    )


_READING_KEY = _fk(("rite", "witness"), "readings", ("rite", "witness"))
_CITE_KEY = _fk("cite_witness", "witnesses")
_INHERITED = _f(
    "inherited_from",
    "string",
    "Empty when the reading's witness states the element; else the witness it comes from (witnesses.id).",
)

WITNESSES = TableSchema(
    "witnesses",
    "Witnesses",
    "The texts of the ritual code (gazetteer chapters and a modern translation), each a witness folder.",
    (
        _f("id", "string", "The witness id (its folder's name).", required=True),
        _f("title", "string", "The full title.", required=True),
        _f("short_title", "string", "The short title used in tables.", required=True),
        _f("edition", "string", "The edition transcribed and how it is marked up."),
        _f(
            "compiled_year",
            "integer",
            "The Gregorian year the edition was compiled or printed.",
            required=True,
        ),
        _f("compiled_source", "string", "Why that year: a quotation of a witness or a labelled assumption."),
        _f("script", "string", "traditional or simplified.", required=True),
        _f("language", "string", "classical or modern.", required=True),
        _f("punctuated", "boolean", "Whether the transcription is punctuated.", required=True),
        _f("authority", "string", "primary, gloss (a translation) or test-fixture.", required=True),
        _f("translation_of", "string", "The witness this one translates (witnesses.id)."),
        _f("base", "string", "The witness whose reading fills what this one does not state (witnesses.id)."),
        _f("reading_chain", "array", "The witnesses this one reads through, itself first."),
        _f("characters", "integer", "Length of the raw text (its fragments joined), in code points."),
        _f("fragments", "array", "The text files of the witness folder, in order."),
    ),
    ("id",),
    (_fk("translation_of", ""), _fk("base", "")),
)

GOVERNS = TableSchema(
    "governs",
    "Places governed by witnesses",
    "The places each witness was written for, from when: the program and calendar of a place and year "
    "follow the witness that governs it then.",
    (
        _f("witness", "string", "The witness (witnesses.id).", required=True),
        _f("place", "string", "The place it was written for (places.id).", required=True),
        _f("from_year", "integer", "First year it governs the place.", required=True),
        _f("until_year", "integer", "Last year it governs the place (empty: until a later witness)."),
        _f("source", "string", "Why: a quotation of a witness or a labelled assumption."),
    ),
    ("witness", "place", "from_year"),
    (_fk("witness", "witnesses"), _fk("place", "places")),
)

PLACES = TableSchema(
    "places",
    "Places",
    "The administrative units of Fujian and Taiwan (省, 府, 直隸州, 廳, 縣) as lineages over time.",
    (
        _f("id", "string", "The place id (stable over the unit's periods).", required=True),
        _f("name", "string", "The canonical name (of the first period).", required=True),
        _f("names", "array", "Every name the unit bore, in order."),
        _f("aliases", "array", "Other accepted names."),
        _f("first_year", "integer", "The first year of the unit's first period.", required=True),
        _f("last_year", "integer", "The last year of the unit's last period.", required=True),
        _f("ended_by", "string", "The event that ended Qing rule over the unit, if any."),
        _f("periods", "integer", "How many periods the unit has (rows of place_periods)."),
    ),
    ("id",),
)

PLACE_PERIODS = TableSchema(
    "place_periods",
    "Periods of places",
    "Each stretch of a unit's history with a constant name, level, parent and seat, with its CHGIS id.",
    (
        _f("place", "string", "The unit (places.id).", required=True),
        _f("from_year", "integer", "First year of the period (inclusive).", required=True),
        _f("until_year", "integer", "Last year of the period (inclusive).", required=True),
        _f("name", "string", "The unit's name in the period.", required=True),
        _f(
            "level",
            "string",
            "province, provincial-capital, prefecture, independent-department, county, "
            "subprefecture or garrison.",
            required=True,
        ),
        _f("level_label", "string", "The level as the sources name it (省, 省城, 府 …)."),
        _f("parent", "string", "The unit it belonged to in the period (places.id)."),
        _f(
            "chgis_id",
            "string",
            "The CHGIS (China Historical GIS) id of the unit in the period.",
            required=True,
        ),
        _f("latitude", "number", "Latitude of the seat, degrees north.", required=True),
        _f("longitude", "number", "Longitude of the seat, degrees east.", required=True),
        _f("parent_source", "string", "Why it has that parent: quotations of sources and/or an assumption."),
        _f("note", "string", "A note on the period."),
    ),
    ("place", "from_year"),
    (_fk("place", "places"), _fk("parent", "places")),
)

RITES = TableSchema(
    "rites",
    "Rites",
    "The rites of the code as base data (each witness's reading of them is in readings).",
    (
        _f("id", "string", "The rite id.", required=True),
        _f("title", "string", "The classical name (the first of names).", required=True),
        _f("names", "array", "The classical names."),
        _f("gloss", "string", "A modern gloss."),
        _f("aliases", "array", "Other accepted names."),
        _f("category", "string", "The category of the rite, where the data gives one."),
        _f("extends", "string", "The rite this one is stated as a change of (rites.id)."),
        *_scope_fields(),
        _f("holders", "array", "The witnesses that hold the rite (cite it or give a reading of it)."),
        *_cite_fields(),
        _f("notes", "array", "Notes on the rite."),
    ),
    ("id",),
    (_fk("extends", ""), _CITE_KEY),
)

READINGS = TableSchema(
    "readings",
    "Readings",
    "Which witness reads which rite: every witness that holds the rite, with its reading chain, and the "
    "place and year its steps, offerings and tablets are resolved for.",
    (
        *_reading_fields(),
        _f("chain", "array", "The reading chain: the witness, its base, their bases …, with translations."),
        _f("base", "string", "The witness whose reading fills what this one does not state (witnesses.id)."),
        _f("patched", "boolean", "Whether a witness of the chain gives its own reading file of the rite."),
        _f(
            "place",
            "string",
            "The place the reading is resolved at (places.id); empty: held nowhere that year.",
        ),
        _f("place_name", "string", "The place's name that year."),
        _f("year", "integer", "The year the reading is resolved for (empty with place)."),
        _f(
            "place_reason",
            "string",
            "Why this place and year were chosen (or why there is none).",
            required=True,
        ),
        _f("governing_witness", "string", "The witness that governs the place that year (witnesses.id)."),
        _f("steps", "integer", "How many steps the order of service has in this reading.", required=True),
        _f("offerings", "integer", "How many rows of offerings the reading has."),
        _f("tablets", "integer", "How many tablets the reading has."),
    ),
    ("rite", "witness"),
    (
        _fk("rite", "rites"),
        _fk("witness", "witnesses"),
        _fk("base", "witnesses"),
        _fk("place", "places"),
        _fk("governing_witness", "witnesses"),
    ),
)

STEPS = TableSchema(
    "steps",
    "Steps",
    "Every step of the order of service of every reading, expanded (inheritance, includes and overrides "
    "carried out) and numbered.",
    (
        *_reading_fields(),
        _f("number", "integer", "The step's number in the order of service (from 1).", required=True),
        _f("part", "string", "The id of the part (迎神, 初獻 …) the step belongs to.", required=True),
        _f("part_title", "string", "The part's title."),
        _f("step_id", "string", "The step's id in the data, where it has one."),
        _f("kind", "string", "call, action, music_cue or dance_cue.", required=True),
        _f("role", "string", "Who calls or acts (通贊, 引贊, 麾生 …)."),
        _f("call", "string", "The call (唱/贊) in classical words."),
        _f("action", "string", "What is done, in classical words."),
        _f("posture", "string", "The posture (一跪三叩 …), from the vocabulary."),
        _f("actors", "array", "Who else takes part."),
        _f("step_place", "string", "Where the step is done, in the data's words."),
        _f("door", "string", "The door used, where the witness says."),
        _f("music", "string", "The movement of the 大成樂 cued."),
        _f("music_action", "string", "start, pause, resume or stop."),
        _f("dance", "string", "The dancers' cue: hold, dance or stop."),
        _f("gloss", "string", "A modern gloss."),
        _f("notes", "string", "Notes."),
        _f("tags", "array", "Tags overrides aim at."),
        _f("via", "array", "The includes, part extensions and overrides that brought or changed the step."),
        _INHERITED,
        _f("citations", "integer", "How many citations the step has (the first is given here)."),
        *_cite_fields(),
    ),
    ("rite", "witness", "number"),
    (_READING_KEY, _CITE_KEY, _fk("inherited_from", "witnesses")),
)

OFFERINGS = TableSchema(
    "offerings",
    "Offerings",
    "What is laid before each altar in each reading: vessels with their contents, other items, silk, "
    "victims and cups.",
    (
        *_reading_fields(),
        _f("number", "integer", "The row's number within the reading (from 1).", required=True),
        _f("altar", "string", "The altar's id.", required=True),
        _f("altar_name", "string", "The altar's name."),
        _f("altar_tablets", "array", "The tablets the altar serves."),
        _f("kind", "string", "offering (vessels), item, silk, victim or cup.", required=True),
        _f("what", "string", "The vessel, the item, the animal, or 帛/爵."),
        _f("count", "integer", "How many."),
        _f("contents", "array", "What the vessels hold, in order."),
        _f("position", "string", "Where it stands."),
        _f("colour", "string", "The silk's colour."),
        _f("size", "string", "The silk's size."),
        _f("material", "string", "The cups' material."),
        _f("notes", "string", "Notes."),
        _INHERITED,
        *_cite_fields(),
    ),
    ("rite", "witness", "number"),
    (_READING_KEY, _CITE_KEY, _fk("inherited_from", "witnesses")),
)

TABLETS = TableSchema(
    "tablets",
    "Tablets",
    "The spirit tablets of each reading and where they stand.",
    (
        *_reading_fields(),
        _f("number", "integer", "The tablet's number within the reading (from 1).", required=True),
        _f("name", "string", "The tablet's name.", required=True),
        _f("hall", "string", "The hall it stands in.", required=True),
        _f("side", "string", "The side (東, 西 …)."),
        _f("order", "integer", "Its rank in the row."),
        _f("gloss", "string", "A modern gloss."),
        _INHERITED,
        *_cite_fields(),
    ),
    ("rite", "witness", "number"),
    (_READING_KEY, _CITE_KEY, _fk("inherited_from", "witnesses")),
)

OBSERVANCE_RULES = TableSchema(
    "observance_rules",
    "Observance rules",
    "When each rite is held: its date rules (one per observance) as base data, with the calendar rule "
    "that yields the days, its scope and its citation.",
    (
        _f("rite", "string", "The rite (rites.id).", required=True),
        _f("number", "integer", "The rule's number within the rite (from 1).", required=True),
        _f("id", "string", "The observance id.", required=True),
        _f("stated_by", "string", "The rite whose data states the rule (itself, or the rite it extends)."),
        _f("name", "string", "The observance's name.", required=True),
        _f(
            "kind",
            "string",
            "The kind of calendar rule (stem_day_of_month, solar_term, open …).",
            required=True,
        ),
        _f("rule", "object", "The calendar rule with its parameters.", required=True),
        _f("text", "string", "The witness's words for the day."),
        _f("gloss", "string", "A modern gloss."),
        _f("time", "string", "The time of day the witness gives."),
        _f("related", "array", "Days tied to the observance (齋戒, 省牲 …): id, name, offsets in days."),
        *_scope_fields(),
        *_cite_fields(),
        _f("scope_source", "string", "Where the rule's scope comes from, when its citation does not say."),
    ),
    ("rite", "number"),
    (_fk("rite", "rites"), _fk("stated_by", "rites"), _CITE_KEY),
)

OBSERVANCES = TableSchema(
    "observances",
    "Dated observances",
    "The ritual calendar of every place in the exported years: each observance and its related days, dated "
    "by the Qing almanac in the reading of the witness that governs the place that year.",
    (
        _f("place", "string", "The place (places.id).", required=True),
        _f("year", "integer", "The Gregorian year of the calendar.", required=True),
        _f("number", "integer", "The entry's number in the place's calendar of the year.", required=True),
        _f("place_name", "string", "The place's name that year."),
        _f("witness", "string", "The witness whose reading gives the rule (witnesses.id).", required=True),
        _f("rite", "string", "The rite (rites.id).", required=True),
        _f("observance", "string", "The observance id (observance_rules.id).", required=True),
        _f(
            "name",
            "string",
            "The observance's name (of a related day: with the observance's).",
            required=True,
        ),
        _f("part", "string", "Empty for the rite itself, else the related day's id (zhaijie, shengsheng …)."),
        _f("day", "date", "The Gregorian day (empty: the sources leave it open)."),
        _f("chinese_date", "string", "The day in the Chinese calendar."),
        _f("day_source", "string", "How the day is known (the almanac, computed, an assumption …)."),
        _f("time", "string", "The time of day the witness gives."),
        _f("rule_text", "string", "The witness's words for the day."),
        _f("open_reason", "string", "Why the day cannot be given."),
        _f("notes", "array", "Notes on the day."),
        *_cite_fields(),
    ),
    ("place", "year", "number"),
    (_fk("place", "places"), _fk("witness", "witnesses"), _fk("rite", "rites"), _CITE_KEY),
)

VARIANTS = TableSchema(
    "variants",
    "Variants",
    "Where the witnesses differ on a rite: every reading of every point they read differently (a variant "
    "group of the rite data, or a field a witness's reading replaces), with the witnesses that state it "
    "and those that follow it, as the correspondence table has them (dianli variants).",
    (
        _f("rite", "string", "The rite (rites.id).", required=True),
        _f("number", "integer", "The row's number within the rite (from 1).", required=True),
        _f(
            "element",
            "string",
            "The paths of the reading's elements in the rite data ('; ' between them); the point's id "
            "for the empty reading (nothing of the point in the witnesses' reading).",
            required=True,
        ),
        _f(
            "variant", "string", "The point read differently: its id (dianli variants --rule).", required=True
        ),
        _f("witnesses", "array", "The witnesses that state this reading in their own words."),
        _f("followers", "array", "The witnesses that read it without stating it (from their base)."),
        _f("reading", "string", "The reading's words ('—': nothing of the point)."),
        _f("source", "string", "Its source: witness「quote」, or the assumption."),
    ),
    ("rite", "number"),
    (_fk("rite", "rites"),),
)

CITATIONS = TableSchema(
    "citations",
    "Citations",
    "Every citation of the package's data — rite data, the witnesses' readings and agreeing clauses, the "
    "witness manifests — resolved to its place in the witness's text.",
    (
        _f("id", "integer", "The row's number (from 1).", required=True),
        _f(
            "layer",
            "string",
            "rites (base rite data), reading (a witness's reading or its aligned clauses) "
            "or manifest (a witness.yaml).",
            required=True,
        ),
        _f(
            "element",
            "string",
            "The element's path: rite.field[id]… in rite data, witness.field in a manifest.",
            required=True,
        ),
        _f("rite", "string", "The rite of the element (rites.id), if any."),
        _f("witness", "string", "The witness quoted (witnesses.id).", required=True),
        _f("quote", "string", "The exact words quoted.", required=True),
        _f("section", "string", "The section the quote is looked up in, where the data narrows it."),
        _f("resolved_section", "string", "The section the quote was found in."),
        _f(
            "start",
            "integer",
            "Where the quote starts in the witness's raw text (code-point offset).",
            required=True,
        ),
        _f("end", "integer", "Where it ends (exclusive offset).", required=True),
        _f("occurrences", "integer", "How often the quote occurs where it is looked up (the first is used)."),
    ),
    ("id",),
    (_fk("rite", "rites"), _fk("witness", "witnesses")),
)

TABLES: tuple[TableSchema, ...] = (
    WITNESSES,
    GOVERNS,
    PLACES,
    PLACE_PERIODS,
    RITES,
    READINGS,
    STEPS,
    OFFERINGS,
    TABLETS,
    OBSERVANCE_RULES,
    OBSERVANCES,
    VARIANTS,
    CITATIONS,
)
"""Every table of the package, in the order they are written."""


def table_schema(name: str) -> TableSchema:
    return next(t for t in TABLES if t.name == name)
