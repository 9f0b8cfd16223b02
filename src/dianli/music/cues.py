"""The cue engine: the score and the cue rules of ``data/cues.yaml`` → one timeline of events.

The engine knows nothing of any instrument: it walks rite → movement → phrase → character, and at each
anchor applies the rules that name it, in order. Each rule yields strokes (a count, a list of labelled
strokes, a written drum pattern, or a sequence of instruments), a call, or the sung note itself.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, field, replace
from typing import TypedDict

from dianli.corpus.cite import Citation
from dianli.errors import DataError, OutOfRangeError
from dianli.music.findings import Finding
from dianli.music.pitch import lu
from dianli.music.schema import (
    ANCHORS,
    PATTERN_GROUP_SEPARATOR,
    CueRule,
    StrokeKind,
    cues_data,
    movements_data,
)
from dianli.music.score import (
    Movement,
    SungCharacter,
    check_score_witness,
    movement,
    movement_info,
    movement_infos,
    score_witness,
)

_FILE = "music/data/cues.yaml"


@dataclass(frozen=True)
class Timing:
    """Durations in seconds (assumptions; see ``timing`` in data/cues.yaml)."""

    character_s: float
    stroke_s: float
    named_s: dict[str, float] = field(default_factory=dict)

    def seconds(self, key: str) -> float:
        """A named duration."""
        if key == "character_s":
            return self.character_s
        if key == "stroke_s":
            return self.stroke_s
        if key not in self.named_s:
            raise DataError(f"{_FILE}: unknown timing {key!r}; known: {sorted(self.named_s)}")
        return self.named_s[key]


TEMPO_RANGE = (0.1, 100.0)
"""How much faster (or slower) than the data's timing a rendering may go."""


def default_timing(
    character_s: float | None = None, stroke_s: float | None = None, tempo: float = 1.0
) -> Timing:
    """The timing of data/cues.yaml, optionally with another character or stroke duration.

    ``tempo`` divides every duration (named ones too): 2 plays twice as fast, 0.5 half as fast.
    """
    if not TEMPO_RANGE[0] <= tempo <= TEMPO_RANGE[1]:
        raise OutOfRangeError("tempo", tempo, f"{TEMPO_RANGE[0]:g} to {TEMPO_RANGE[1]:g}")
    named = {k: v / tempo for k, v in cues_data().timing.durations.items()}
    char_s = named["character_s"] if character_s is None else float(character_s)
    stroke = named["stroke_s"] if stroke_s is None else float(stroke_s)
    for name, value in (("character seconds", char_s), ("stroke seconds", stroke)):
        if not 0.005 <= value <= 60:
            raise OutOfRangeError(name, value, "0.005 to 60 seconds")
    return Timing(char_s, stroke, named)


def timing_assumption() -> str:
    """The tempo assumption, as shown to users."""
    return cues_data().timing.assumption


@dataclass(frozen=True)
class Event:
    """One thing that sounds or is done: a stroke, a note, a call or an action."""

    time_s: float
    duration_s: float
    kind: str
    """``stroke``, ``note``, ``call`` or ``action``."""
    instrument: str | None
    role: str | None
    label: str
    rule: str
    movement: str | None = None
    phrase: int | None = None
    character: int | None = None
    """1-based position of the character within its phrase."""
    lu: str | None = None
    lyric: str | None = None
    position: str | None = None
    hand: str | None = None
    velocity: int = 90
    counted: bool = True
    reading: str | None = None
    """How a call is spoken: pinyin with tone numbers, a syllable per character."""

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready mapping (None fields left out)."""
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class Rule:
    """One cue rule (see the header of data/cues.yaml)."""

    id: str
    at: str
    order: int
    spec: CueRule
    cites: tuple[Citation, ...]

    def applies(self, mv: Movement | None) -> bool:
        """Whether the rule's ``when`` condition holds for the movement."""
        when = self.spec.when
        if mv is None:
            return when is None
        if when is None:
            return True
        if when.movements is not None and mv.id not in when.movements:
            return False
        return when.danced is None or when.danced == mv.info.danced


@functools.lru_cache(maxsize=1)
def rules() -> tuple[Rule, ...]:
    """Every cue rule (validated at load: anchors, durations and stroke syllables)."""
    result = [Rule(r.id, r.at, r.order, r, r.cite + r.parallels) for r in cues_data().rules]
    return tuple(sorted(result, key=lambda r: (ANCHORS.index(r.at), r.order)))


def _stroke_kinds() -> dict[str, StrokeKind]:
    return cues_data().stroke_kinds.syllables


class _Where(TypedDict):
    """Where an event belongs: the rule that made it and its place in the score."""

    rule: str
    movement: str | None
    phrase: int | None
    character: int | None


@dataclass(frozen=True)
class _Context:
    movement: Movement | None = None
    movement_index: int = 0
    phrase: int | None = None
    character: SungCharacter | None = None
    pitch_chars: tuple[SungCharacter, ...] = ()


def _pitch(rule: Rule, ctx: _Context) -> str | None:
    spec = rule.spec.pitch
    if spec is None:
        return None
    if spec == "character":
        return ctx.character.note.lu if ctx.character else None
    if spec in ("first", "last"):
        if not ctx.pitch_chars:
            return None
        return (ctx.pitch_chars[0] if spec == "first" else ctx.pitch_chars[-1]).note.lu
    return lu(spec).id


def _cycled(rule: Rule, ctx: _Context) -> tuple[str | None, str | None]:
    """(position, hand) chosen by the rule's cycle, if any."""
    cycle = rule.spec.cycle
    if cycle is None:
        return None, None
    index = {
        "movement_in_suite": ctx.movement_index,
        "phrase_in_movement": (ctx.phrase or 1) - 1,
        "character_in_phrase": (ctx.character.position - 1) if ctx.character else 0,
    }[cycle.over]
    value = cycle.values[index % len(cycle.values)]
    return (None, value) if cycle.field == "hand" else (value, None)


def _rule_events(rule: Rule, ctx: _Context, start_s: float, timing: Timing) -> list[Event]:
    """The events of one rule starting at ``start_s`` (relative order kept, times absolute)."""
    spec = rule.spec
    interval = timing.seconds(spec.interval) if spec.interval is not None else timing.stroke_s
    base: _Where = {
        "rule": rule.id,
        "movement": ctx.movement.id if ctx.movement else None,
        "phrase": ctx.phrase,
        "character": ctx.character.position if ctx.character else None,
    }
    position, hand = _cycled(rule, ctx)
    pitch = _pitch(rule, ctx)
    events: list[Event] = []
    t = start_s + (timing.seconds(spec.offset) if spec.offset is not None else 0.0)
    label = spec.label or ""
    if spec.instruments is not None:
        lyric = ctx.character.display if ctx.character else None
        for inst in spec.instruments:
            events.append(Event(t, interval, "note", inst, None, lyric or "", lu=pitch, lyric=lyric, **base))
        return events
    if spec.call is not None:
        info = ctx.movement.info if ctx.movement else None
        text = spec.call.format(tune=info.tune if info else "")
        reading = (spec.call_reading or "").format(tune=info.tune_reading if info else "")
        events.append(Event(t, 0.0, "action", None, spec.role, spec.action, **base))
        events.append(Event(t, interval, "call", None, spec.role, text, **base, reading=reading))
        return events
    ra = spec.role_action
    if ra is not None and not ra.after:
        events.append(Event(t, 0.0, "action", None, ra.role, f"{label}：{ra.action}", **base))
    if spec.pattern is not None:
        kinds = _stroke_kinds()
        for g, group in enumerate(spec.pattern.split(PATTERN_GROUP_SEPARATOR)):
            if g:
                t += timing.seconds("tuogu_group_gap_s") - interval
            for syllable in group:
                kind = kinds.get(syllable)
                if kind is None:
                    raise DataError(f"{_FILE}: rule {rule.id!r}: unknown stroke {syllable!r}")
                events.append(
                    Event(
                        t,
                        interval,
                        "stroke",
                        spec.instrument,
                        None,
                        f"{label} {syllable}",
                        hand=kind.hand,
                        velocity=kind.velocity,
                        counted=kind.counted,
                        **base,
                    )
                )
                t += interval
        if ra is not None and ra.after:
            events.append(Event(t, 0.0, "action", None, ra.role, f"{label}畢：{ra.action}", **base))
        return events
    if spec.sequence is not None:
        for _ in range(spec.times):
            for step in spec.sequence:
                events.append(Event(t, interval, "stroke", step.instrument, None, step.label, **base))
                t += interval
        return events
    labels = (
        list(spec.strokes)
        if spec.strokes is not None
        else [spec.label if spec.label is not None else "擊"] * (spec.count or 0)
    )
    for label in labels:
        events.append(
            Event(
                t,
                interval,
                "stroke",
                spec.instrument,
                None,
                label,
                lu=pitch,
                position=position,
                hand=hand,
                **base,
            )
        )
        t += interval
    return events


def _apply(anchor: str, ctx: _Context, start_s: float, timing: Timing) -> tuple[list[Event], float]:
    """Apply every rule at ``anchor``; return the events and the time at which the anchor ends."""
    events: list[Event] = []
    t = start_s
    previous_start = start_s
    for rule in rules():
        if rule.at != anchor or not rule.applies(ctx.movement):
            continue
        begin = previous_start if rule.spec.sync == "previous" else t
        produced = _rule_events(rule, ctx, begin, timing)
        events.extend(produced)
        previous_start = begin
        if not rule.spec.overlap:
            end = max((e.time_s + e.duration_s for e in produced), default=begin)
            t = max(t, end)
    return events, t


def movement_index(movement_id: str) -> int:
    """0-based position of a movement in the suite (drives the 鎛鐘 and 特磬 rotations)."""
    return [m.id for m in movement_infos()].index(movement_info(movement_id).id)


def _movement_events(mv: Movement, start_s: float, timing: Timing) -> tuple[list[Event], float]:
    index = movement_index(mv.id)
    chars = mv.characters
    events, t = _apply("movement_start", _Context(mv, index, pitch_chars=chars), start_s, timing)
    for phrase in mv.phrases:
        pctx = _Context(mv, index, phrase.number, pitch_chars=phrase.characters)
        produced, t = _apply("phrase_start", pctx, t, timing)
        events += produced
        for c in phrase.characters:
            cctx = replace(pctx, character=c)
            overlapping, _ = _apply("character_start", cctx, t, timing)
            body, t = _apply("character", cctx, t, timing)
            ending, t = _apply("character_end", cctx, t, timing)
            events += overlapping + body + ending
        produced, t = _apply("phrase_end", pctx, t, timing)
        events += produced
    produced, t = _apply("movement_end", _Context(mv, index, pitch_chars=chars), t, timing)
    return events + produced, t


@dataclass(frozen=True)
class Timeline:
    """Every event of one movement or of the whole suite, sorted by time."""

    events: tuple[Event, ...]
    duration_s: float
    movements: tuple[str, ...]
    witness: str | None = None
    """The score witness whose notes it plays (None: the default)."""

    def count(
        self, instrument: str | None = None, rule: str | None = None, counted_only: bool = False
    ) -> int:
        """How many events match."""
        return sum(
            1
            for e in self.events
            if (instrument is None or e.instrument == instrument)
            and (rule is None or e.rule == rule)
            and (not counted_only or e.counted)
        )


def _witness(witness: str | None) -> str | None:
    """The score witness asked for, checked; None for the default (so a default timeline stays as it was)."""
    checked = check_score_witness(witness)
    return None if checked == score_witness() else checked


def timeline(movement_id: str, timing: Timing | None = None, witness: str | None = None) -> Timeline:
    """The timeline of one movement (without the rite's opening and closing drums), with the notes of the
    score witness (None: the default)."""
    timing = timing or default_timing()
    mv = movement(movement_id, witness)
    events, end = _movement_events(mv, 0.0, timing)
    return Timeline(tuple(sorted(events, key=lambda e: e.time_s)), end, (mv.id,), _witness(witness))


def suite_timeline(
    timing: Timing | None = None, movement_ids: tuple[str, ...] | None = None, witness: str | None = None
) -> Timeline:
    """The whole rite's music: 鼉鼓 opening, every movement in order, 鼉鼓 close."""
    timing = timing or default_timing()
    ids = movement_ids or tuple(m.id for m in movement_infos())
    events, t = _apply("rite_start", _Context(), 0.0, timing)
    for mid in ids:
        produced, t = _movement_events(movement(mid, witness), t, timing)
        events += produced
    produced, t = _apply("rite_end", _Context(), t, timing)
    events += produced
    return Timeline(tuple(sorted(events, key=lambda e: e.time_s)), t, ids, _witness(witness))


def character_times(
    movement_id: str, timing: Timing | None = None, witness: str | None = None
) -> list[tuple[str, float, float]]:
    """For the dance: each sung character of a movement with its start and end in seconds.

    Times are from the start of the movement (its 麾 call), one entry per character in order; a
    character the witness lost is shown as the gloss's reading in brackets, or □.
    """
    events = timeline(movement_id, timing, witness).events
    voice = [e for e in events if e.rule == "sung" and e.instrument == "voice"]
    return [(e.lyric or "", e.time_s, e.time_s + e.duration_s) for e in voice]


def rule_assumptions() -> dict[str, str]:
    """Assumptions the rules make (pitch of unpitched frames, one step per character), by rule id."""
    out: dict[str, str] = {}
    for r in rules():
        text = r.spec.pitch_assumption or r.spec.assumption
        if text:
            out[r.id] = " ".join(text.split())
    return out


def structure_cites() -> tuple[Citation, ...]:
    """Where the witnesses count the performances of the whole music (六曲八奏, 八曲八響)."""
    movements = movements_data()
    return (movements.structure_cite, *movements.structure_parallels, cues_data().suite.performances_cite)


def cue_findings() -> tuple[Finding, ...]:
    """Rotations over the suite whose length differs from the number of performances the 樂章 lists."""
    performances = movement_infos()
    listed = "、".join(m.name for m in performances)
    result = []
    for r in rules():
        cycle = r.spec.cycle
        if cycle is None or cycle.over != "movement_in_suite" or len(cycle.values) == len(performances):
            continue
        values = list(cycle.values)
        unused = values[len(performances) :]
        message = (
            f"the {r.spec.instrument or r.id} rotation has {len(values)} strokes (全樂八曲八響; the 樂章 "
            f"counts 六曲八奏) but the 樂章 lists {len(performances)} performances ({listed}); "
        )
        message += (
            f"the last {len(unused)} stroke(s) ({'、'.join(unused)}) fall on no movement, "
            "unless a repeat the witness does not name is meant (the modern translation drops 八奏: "
            "六曲，入场演奏时连奏其中两曲)"
            if unused
            else f"the rotation wraps around after {len(values)} performances"
        )
        result.append(Finding("cues", f"{r.id} rotation", message, structure_cites() + r.cites[:2]))
    return tuple(result)
