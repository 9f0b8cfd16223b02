"""The music data files (``data/*.yaml``) as models: every key is a field, an unknown key is an error.

Each file has one model (:class:`PitchFile`, :class:`CuesFile`, :class:`InstrumentsFile`,
:class:`MovementsFile`), loaded once through :func:`dianli.datafile.load_model`; a broken file is a
DataError naming the file, the element and the bad key or value, with the accepted keys.

Three mappings mix the schema's own keys with keys that are data: the stroke syllables of
``stroke_kinds`` (written in Chinese), the named durations of ``timing`` (ending in ``_s``) and the
instrument ids of a ``fingering`` row (not starting with ``_``). The data keys are gathered into one
field (``syllables``, ``durations``, ``instruments``), which an error names in its path
(``stroke_kinds.syllables.扎: unknown key …``); a misspelt schema key is still refused.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Annotated, Literal, Self, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from dianli.corpus.cite import Citation
from dianli.datafile import load_model

Anchor = Literal[
    "rite_start",
    "movement_start",
    "phrase_start",
    "character_start",
    "character",
    "character_end",
    "phrase_end",
    "movement_end",
    "rite_end",
]
"""Where a cue rule applies, in the order the engine walks the score."""
ANCHORS: tuple[str, ...] = get_args(Anchor)
PATTERN_GROUP_SEPARATOR = "、"
"""Separates the groups of a written drum pattern (扎扎鼕、扎扎鼕 …)."""


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


PINYIN_SYLLABLE = re.compile(r"[a-zü]+[1-5]")
"""A pinyin syllable with its tone number (5: the neutral tone)."""
TUNE_SLOT = "{tune}"


def check_reading(text: str, reading: str) -> None:
    """Raise ValueError unless ``reading`` gives one pinyin syllable (with its tone number) for every
    character of ``text`` (``{tune}`` standing for itself in both)."""
    chars = len(text.replace(TUNE_SLOT, "")) + text.count(TUNE_SLOT)
    words = reading.split()
    bad = [w for w in words if w != TUNE_SLOT and not PINYIN_SYLLABLE.fullmatch(w)]
    if bad:
        raise ValueError(
            f"reading {reading!r} of {text}: {', '.join(bad)} is not pinyin with a tone number (e.g. yue4)"
        )
    if len(words) != chars or (TUNE_SLOT in text) != (TUNE_SLOT in words):
        raise ValueError(
            f"reading {reading!r} of {text}: a syllable per character ({chars}), {len(words)} given"
        )


def _one_or_more(value: object) -> object:
    """A single ``cite:`` mapping stands for a list of one."""
    return [value] if isinstance(value, dict) else value


Cites = Annotated[tuple[Citation, ...], BeforeValidator(_one_or_more)]
"""One citation or a list of them."""


def _gather(value: object, field: str, is_data_key: Callable[[str], bool]) -> object:
    """A mapping with its data keys moved under ``field``; the schema's own keys stay where they are."""
    if not isinstance(value, dict):
        return value
    own = {k: v for k, v in value.items() if not (isinstance(k, str) and is_data_key(k))}
    own[field] = {k: v for k, v in value.items() if isinstance(k, str) and is_data_key(k)}
    return own


# --- pitch.yaml -----------------------------------------------------------------------------------


class LuEntry(_Data):
    """One of the sixteen pipes: its pitch, its stated length (in ``cite``) and parallels."""

    id: str
    name: str
    short: str
    semitone: int
    pipe: int
    qing_of: str | None = None
    cite: Citation
    parallels: tuple[Citation, ...] = ()


class Pipes(_Data):
    """What the witness says of the pipes as a whole, and the length-to-pitch assumption."""

    count_cite: Citation
    origin_cite: Citation
    direction_cite: Citation
    tolerance_cite: Citation
    assumption: str
    parallels: tuple[Citation, ...] = ()


class SanfenStart(_Data):
    lu: str
    length_cun: int
    cite: Citation


class Sanfen(_Data):
    """三分損益: the start, the steps (from, to, factor name) and the factors as fractions."""

    assumption: str
    start: SanfenStart
    steps: tuple[tuple[str, str, str], ...]
    factors: dict[str, tuple[int, int]]


class GongcheEntry(_Data):
    name: str
    lu: str
    cite: Citation
    assumption: str | None = None


class Mode(_Data):
    syllables: tuple[str, ...]
    cite: Citation
    cite_fujian: Citation
    parallels: tuple[Citation, ...] = ()


class AbsolutePitch(_Data):
    huangzhong_hz: float
    assumption: str


class Gekoupu(_Data):
    cites: tuple[Citation, ...]


class PitchFile(_Data):
    """``data/pitch.yaml``."""

    lu: tuple[LuEntry, ...]
    pipes: Pipes
    sanfen: Sanfen
    gongche: tuple[GongcheEntry, ...]
    mode: Mode
    scale_cites: tuple[Citation, ...]
    absolute_pitch: AbsolutePitch
    gekoupu: Gekoupu


# --- cues.yaml ------------------------------------------------------------------------------------

DURATION_SUFFIX = "_s"


class CueTiming(_Data):
    """The timing assumption and the named durations in seconds (every key ending in ``_s``)."""

    assumption: str
    cite: Citation
    durations: dict[str, float]

    @model_validator(mode="before")
    @classmethod
    def _durations(cls, value: object) -> object:
        return _gather(value, "durations", lambda k: k.endswith(DURATION_SUFFIX))

    @model_validator(mode="after")
    def _character_and_stroke(self) -> Self:
        missing = [k for k in ("character_s", "stroke_s") if k not in self.durations]
        if missing:
            raise ValueError(f"timing needs {' and '.join(missing)}")
        return self


class StrokeKind(_Data):
    """One syllable of the 鼉鼓 patterns: the hand, whether it counts, its loudness."""

    hand: str
    counted: bool
    velocity: int
    cite: Citation


class StrokeKinds(_Data):
    """The syllables (keys written in Chinese) and the citation for their loudness."""

    velocity_cite: Citation
    syllables: dict[str, StrokeKind]

    @model_validator(mode="before")
    @classmethod
    def _syllables(cls, value: object) -> object:
        return _gather(value, "syllables", lambda k: not k.isascii())


class Suite(_Data):
    performances_cite: Citation


class RoleAction(_Data):
    role: str
    action: str
    after: bool = False
    """Done when the rule's strokes are over (第一通畢，俱升堂), not as they begin (初起，樂生卷班)."""


class When(_Data):
    """A rule's condition on the movement (none: the rule applies outside movements too)."""

    movements: tuple[str, ...] | None = None
    danced: bool | None = None


class Cycle(_Data):
    """A rotation: the value used is chosen by the position ``over`` the suite, movement or phrase."""

    over: Literal["movement_in_suite", "phrase_in_movement", "character_in_phrase"]
    values: tuple[str, ...] = Field(min_length=1)
    field: Literal["position", "hand"] = "position"


class SequenceStep(_Data):
    instrument: str
    label: str


class CueRule(_Data):
    """One cue rule (see the header of ``data/cues.yaml``)."""

    id: str
    at: Anchor
    order: int = 0
    when: When | None = None
    sync: Literal["previous"] | None = None
    overlap: bool = False
    interval: str | None = None
    """A named duration of ``timing``; the stroke duration when not given."""
    offset: str | None = None
    instrument: str | None = None
    count: int | None = None
    strokes: tuple[str, ...] | None = None
    pattern: str | None = None
    sequence: tuple[SequenceStep, ...] | None = None
    times: int = 1
    instruments: tuple[str, ...] | None = None
    role: str | None = None
    action: str = ""
    call: str | None = None
    call_reading: str | None = None
    """How the call is spoken: pinyin with tone numbers, a syllable per character, ``{tune}`` for the
    tune's reading (``tune_reading`` of movements.yaml)."""
    label: str | None = None
    role_action: RoleAction | None = None
    cycle: Cycle | None = None
    pitch: str | None = None
    """``character``, ``first``, ``last`` or a 律 id."""
    pitch_assumption: str | None = None
    assumption: str | None = None
    cite: Cites = ()
    parallels: tuple[Citation, ...] = ()

    @model_validator(mode="after")
    def _makes_something(self) -> Self:
        made = (self.count, self.strokes, self.pattern, self.sequence, self.call, self.instruments)
        if all(m is None for m in made):
            raise ValueError("a rule needs count, strokes, pattern, sequence, call or instruments")
        if self.call is not None and self.role is None:
            raise ValueError("a rule with a call needs the role that calls it")
        if self.call is not None:
            if self.call_reading is None:
                raise ValueError(f"the call {self.call} needs its call_reading (pinyin, e.g. yue4 zhi3)")
            check_reading(self.call, self.call_reading)
        if self.instrument is None and any(m is not None for m in (self.count, self.strokes, self.pattern)):
            raise ValueError("a rule with count, strokes or pattern needs an instrument")
        return self


class CallReadings(_Data):
    assumption: str


class CuesFile(_Data):
    """``data/cues.yaml``; every duration and stroke syllable a rule names is checked here."""

    timing: CueTiming
    call_readings: CallReadings
    stroke_kinds: StrokeKinds
    suite: Suite
    rules: tuple[CueRule, ...]

    @field_validator("rules")
    @classmethod
    def _names_exist(cls, rules: tuple[CueRule, ...], info: ValidationInfo) -> tuple[CueRule, ...]:
        timing, kinds = info.data.get("timing"), info.data.get("stroke_kinds")
        for i, rule in enumerate(rules):
            for key, name in (("interval", rule.interval), ("offset", rule.offset)):
                if isinstance(timing, CueTiming) and name is not None and name not in timing.durations:
                    raise ValueError(
                        f"{i} ({rule.id}): {key} {name!r} is not a duration of timing; "
                        f"accepted: {', '.join(timing.durations)}"
                    )
            strokes = set((rule.pattern or "").replace(PATTERN_GROUP_SEPARATOR, ""))
            if isinstance(kinds, StrokeKinds) and not strokes <= set(kinds.syllables):
                raise ValueError(
                    f"{i} ({rule.id}): pattern strokes {sorted(strokes - set(kinds.syllables))} are not "
                    f"stroke_kinds; accepted: {', '.join(kinds.syllables)}"
                )
        return rules


# --- instruments.yaml -----------------------------------------------------------------------------


class Family(_Data):
    """One of the 八音 (and the 麾, the dance implements, the voice)."""

    id: str
    name: str
    cite: Citation
    parallels: tuple[Citation, ...] = ()


class Midi(_Data):
    """How the MIDI renderer voices an instrument (an assumption of the renderer)."""

    program: int | None = None
    octave: int = 0
    percussion: int | None = None


class DimensionEntry(_Data):
    """A measurement or count as the witness states it (the words are in ``cite``)."""

    what: str
    cite: Citation
    ratio_to: str | None = None
    ratio: int | None = None
    count: int | None = None


class InstrumentEntry(_Data):
    id: str
    name: str
    family: str
    timbre: str
    pitched: bool = False
    midi: Midi = Midi()
    cite: Citation
    written_as: str | None = None
    """The name the witness's own heading writes (鼓 for the 鞉鼓)."""
    dimensions: tuple[DimensionEntry, ...] = ()
    notes: tuple[Citation, ...] = ()
    description: tuple[Citation, ...] = ()


class FingeringEntry(_Data):
    """How one note is played on one instrument: the name written, the words, the citation."""

    written: str
    text: str
    cite: Citation


class FingeringRule(_Data):
    cite: Citation


class FingeringRow(_Data):
    """The 樂譜 entry of one note: per instrument id, and the ``_rule`` and ``_gloss`` of the entry."""

    rule: FingeringRule | None = Field(default=None, alias="_rule")
    gloss: tuple[Citation, ...] = Field(default=(), alias="_gloss")
    instruments: dict[str, FingeringEntry]

    @model_validator(mode="before")
    @classmethod
    def _instruments(cls, value: object) -> object:
        return _gather(value, "instruments", lambda k: not k.startswith("_"))


class InstrumentsFile(_Data):
    """``data/instruments.yaml``; every family and fingered instrument must be listed."""

    families: tuple[Family, ...]
    instruments: tuple[InstrumentEntry, ...]
    fingering: dict[str, FingeringRow]

    @field_validator("instruments")
    @classmethod
    def _known_families(
        cls, instruments: tuple[InstrumentEntry, ...], info: ValidationInfo
    ) -> tuple[InstrumentEntry, ...]:
        families = [f.id for f in info.data.get("families", ())]
        for i, entry in enumerate(instruments):
            if "families" in info.data and entry.family not in families:
                raise ValueError(
                    f"{i} ({entry.id}): unknown family {entry.family!r}; accepted: {', '.join(families)}"
                )
        return instruments

    @field_validator("fingering")
    @classmethod
    def _known_instruments(
        cls, fingering: dict[str, FingeringRow], info: ValidationInfo
    ) -> dict[str, FingeringRow]:
        ids = [x.id for x in info.data.get("instruments", ())]
        for token, row in fingering.items():
            for inst_id in row.instruments:
                if "instruments" in info.data and inst_id not in ids:
                    raise ValueError(f"{token}: unknown instrument {inst_id!r}; accepted: {', '.join(ids)}")
        return fingering


# --- fingerings.yaml ------------------------------------------------------------------------------


class WitnessFingering(_Data):
    """The 樂譜 of one score witness besides the default: per note, per instrument."""

    witness: str
    fingering: dict[str, FingeringRow]


class FingeringsFile(_Data):
    """``data/fingerings.yaml``; instrument ids are checked against instruments.yaml when it is read."""

    witnesses: tuple[WitnessFingering, ...]


# --- movements.yaml -------------------------------------------------------------------------------


class GlossEntry(_Data):
    """A reading the modern translation supplies for a character the score witness lacks."""

    position: tuple[int, int]
    """(phrase, position in the phrase), both 1-based."""
    reading: str
    cite: Citation


class MovementEntry(_Data):
    id: str
    name: str
    tune: str
    tune_reading: str
    """The tune's name as spoken in the calls: pinyin with tone numbers, a syllable per character."""
    section: str
    danced: bool
    same_as: str | None = None
    cite: Citation
    gloss: tuple[GlossEntry, ...] = ()
    text_cites: tuple[Citation, ...] = ()

    @model_validator(mode="after")
    def _reading_fits(self) -> Self:
        check_reading(self.tune, self.tune_reading)
        return self


Notation = Literal["bracketed", "inline"]
"""How a 樂章 writes the note after a character: ``大(太四)`` or, unbracketed, ``大太四``."""


class Emendation(_Data):
    """A note the witness writes that is no note of the mode, and the reading the score sings instead."""

    movement: str
    position: tuple[int, int]
    """(phrase, position in the phrase), both 1-based."""
    written: str
    reading: str
    cite: Citation
    """Where the witness writes it."""
    parallel: Citation
    """Where another witness writes the reading."""
    assumption: str


class WitnessMovement(_Data):
    """One movement as a second score witness heads and writes it."""

    id: str
    cite: Citation
    text_cites: tuple[Citation, ...] = ()


class ScoreWitness(_Data):
    """A witness whose 樂章 writes a note after every sung character."""

    witness: str
    notation: Notation
    notation_cite: Citation
    movements: tuple[WitnessMovement, ...] = ()
    """Its headings and sung lines; empty for the first (default) witness, whose are the movements'."""
    emendations: tuple[Emendation, ...] = ()
    parallels: tuple[Citation, ...] = ()
    """What it says of the 樂章 as a whole (the suite, the mode), beside the default's structure_cite and
    the mode of pitch.yaml."""


class MovementsFile(_Data):
    """``data/movements.yaml``."""

    score_witnesses: tuple[ScoreWitness, ...] = Field(min_length=1)
    """The first is the default score."""
    dance_witnesses: tuple[str, ...]
    phrases_per_movement: int
    characters_per_phrase: int
    structure_cite: Citation
    structure_parallels: tuple[Citation, ...] = ()
    one_note_per_character_cite: Citation
    movements: tuple[MovementEntry, ...]

    @model_validator(mode="after")
    def _score_witnesses_list_every_movement(self) -> Self:
        ids = [m.id for m in self.movements]
        witnesses = [w.witness for w in self.score_witnesses]
        if len(set(witnesses)) != len(witnesses):
            raise ValueError(f"score_witnesses: a witness is listed twice: {', '.join(witnesses)}")
        for i, entry in enumerate(self.score_witnesses[1:], start=1):
            listed = [m.id for m in entry.movements]
            if sorted(listed) != sorted(ids):
                raise ValueError(
                    f"score_witnesses.{i} ({entry.witness}): movements {', '.join(listed)} must be each "
                    f"movement once; accepted: {', '.join(ids)}"
                )
            for e in entry.emendations:
                if e.movement not in ids:
                    raise ValueError(
                        f"score_witnesses.{i}.emendations: unknown movement {e.movement!r}; "
                        f"accepted: {', '.join(ids)}"
                    )
        if self.score_witnesses[0].movements:
            raise ValueError("score_witnesses.0: the default witness's movements are the top-level movements")
        return self


# --- loading --------------------------------------------------------------------------------------


@functools.cache
def pitch_data() -> PitchFile:
    """``data/pitch.yaml``, validated."""
    return load_model("music", "data/pitch.yaml", PitchFile)


@functools.cache
def cues_data() -> CuesFile:
    """``data/cues.yaml``, validated."""
    return load_model("music", "data/cues.yaml", CuesFile)


@functools.cache
def instruments_data() -> InstrumentsFile:
    """``data/instruments.yaml``, validated."""
    return load_model("music", "data/instruments.yaml", InstrumentsFile)


@functools.cache
def fingerings_data() -> FingeringsFile:
    """``data/fingerings.yaml``, validated."""
    return load_model("music", "data/fingerings.yaml", FingeringsFile)


@functools.cache
def movements_data() -> MovementsFile:
    """``data/movements.yaml``, validated."""
    return load_model("music", "data/movements.yaml", MovementsFile)
