"""The timeline as a MusicXML edition (written with lxml; music21 reads it back).

**Bars follow the text, senza misura.** The 樂章 is sung a phrase (句) of four characters at a time, and
the cue text gives each phrase a beginning and an end: 編鐘 「每奏一句之始，即擊一聲…乃一句之始條理也」, 編磬
and the drums 「每奏一句之終…乃一句之終條理也」. So a bar is one phrase, from the stroke that opens it to the
strokes that close it, each character sung then closed by its 歌磬, 搏拊 and 田鼓 (「一字之終條理」). The
witness writes no metre, only this order of characters and strokes, and the phrase's strokes make no
regular measure (at the default timing 2 + 11 + 11 + 11 + 11 + 11 sixteenths). So the score is written
*senza misura*: one ``<time><senza-misura/></time>`` at its head, no time signature after it, and
barlines at the phrases (notation software shows no metre and keeps each bar's own length; verovio
hides the signature). What comes before the first phrase (the 麾 call, 柷, 鎛鐘, at 迎神 and 送神 the 360
strokes of 大鼓 with 大鐘) and after the last (特磬, 懸鼓, 敔, the call 樂止) is written in bars of its own
(a long stretch cut into bars of four quarters).

**Time is the audio's.** The tempo mark is the timeline's: a sung character is a half note, so quarter
= 60 / (character seconds / 2) (50 at the default 2.4 s); every event stands where it sounds. A long run
of equal strokes (鼓三百六十擊, 鐘一百八響, the 鼉鼓's 三百六十數) is written as a tremolo note spanning
the run, labelled with its count.

**Pitch is the tuning's.** A pitched event's note is its 律 in the instrument's octave, spelt as the
nearest equal-tempered step, and ``<alter>`` carries the deviation as a decimal (the 三分損益 太簇 at
黃鐘 = D4 is E4 with alter +0.039…, +3.9 cents). A note carries an ``<accidental>`` only where its
semitone step needs drawing (a sharp or flat step, or a natural that cancels one in the bar), never for
its cents: so no natural sign stands before every note, and MuseScore 4 (since its 2024 importer fix) takes the decimal alter of
a note without an accidental as its tuning in cents. music21 refuses a decimal alter without an
accidental; :func:`read_music21` reads the file into music21 with every alter kept. The sung line
carries three lyric lines: the character, its 律呂 and its 工尺. Each part names its instrument and has
one MIDI channel of the 16: unpitched parts share the General MIDI percussion channel with their own
key, pitched parts share a channel only with parts of the same program, so no part is left out for want
of channels.
"""

from __future__ import annotations

import datetime
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree  # type: ignore[import-untyped]  # no stubs shipped

import dianli
from dianli.corpus.witnesses import load_witness
from dianli.errors import DataError, UnknownValueError
from dianli.music.cues import Event, Timeline, timing_assumption
from dianli.music.instruments import Instrument, instrument, instruments
from dianli.music.pitch import Tuning, default_tuning, lu, midi_pitch
from dianli.music.score import movement, movement_ids, movement_info, score_witness

VOICE = "voice"
QUARTERS_PER_CHARACTER = 2
"""A sung character is written as a half note."""
DIVISIONS = 1440
"""Divisions of a quarter note: every default duration (0.25 s, 0.3 s, 0.833 s, 2.4 s …) is whole."""
GRID = DIVISIONS // 32
"""Onsets are placed on a grid of a 128th note (exact for the default timing)."""
PERCUSSION_CHANNEL = 10
"""The General MIDI percussion channel (1-based, as MusicXML counts)."""
MIDI_CHANNELS = 16
ROLL_MIN_STROKES = 12
"""A run of at least this many equal strokes of one rule is written as one tremolo note."""
FREE_BAR_MAX_QUARTERS = 8
"""A stretch outside the phrases up to this long is one bar; a longer one is cut into 4/4 bars."""
FREE_BAR_QUARTERS = 4
TREMOLO_MARKS = 3
UNPITCHED_DISPLAY = ("C", 5)
"""Where an unpitched stroke sits on its one-line staff."""
DOCTYPE = (
    '<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" '
    '"http://www.musicxml.org/dtds/partwise.dtd">'
)
DEFAULT_PARTS: tuple[str, ...] = ()
"""Empty: every instrument that sounds in the timeline gets a part (the voice first)."""

_TYPES: tuple[tuple[str, int], ...] = (
    ("whole", 4 * DIVISIONS),
    ("half", 2 * DIVISIONS),
    ("quarter", DIVISIONS),
    ("eighth", DIVISIONS // 2),
    ("16th", DIVISIONS // 4),
    ("32nd", DIVISIONS // 8),
    ("64th", DIVISIONS // 16),
    ("128th", DIVISIONS // 32),
)
_STEPS: tuple[tuple[str, int], ...] = (
    ("C", 0),
    ("C", 1),
    ("D", 0),
    ("E", -1),
    ("E", 0),
    ("F", 0),
    ("F", 1),
    ("G", 0),
    ("A", -1),
    ("A", 0),
    ("B", -1),
    ("B", 0),
)
_ACCIDENTALS = {-1: "flat", 0: "natural", 1: "sharp"}


def seconds_per_quarter(tl: Timeline) -> float:
    """Seconds per quarter note: half a sung character (the first one in the timeline)."""
    sung = next((e for e in tl.events if e.kind == "note" and e.instrument == VOICE), None)
    sung = sung or next((e for e in tl.events if e.kind == "note"), None)
    return (sung.duration_s if sung else 2.0) / QUARTERS_PER_CHARACTER


def tempo_bpm(tl: Timeline) -> float:
    """The tempo mark: quarter notes per minute."""
    return 60.0 / seconds_per_quarter(tl)


def spelled(midi: float) -> tuple[str, float, int, str]:
    """(step, alter, octave, accidental) of a fractional MIDI key: the nearest key's spelling, the rest as
    a decimal alter (in semitones)."""
    key = round(midi)
    step, alter = _STEPS[key % 12]
    return step, alter + (midi - key), key // 12 - 1, _ACCIDENTALS[alter]


def _accidental(
    shown: dict[tuple[str, int], int], where: tuple[str, int], semitones: int, continued: bool
) -> str | None:
    """The accidental to draw on a note of ``semitones`` (-1, 0, 1) at a step and octave, given what the
    bar has shown there so far (a natural step is read as such until a sharp or flat is drawn): a named
    accidental only where the note's semitone step differs from what a reader would read, never for its
    cents (those are the decimal <alter>). A note tied over from before draws none."""
    previous = shown.get(where, 0)
    shown[where] = semitones
    if continued or previous == semitones:
        return None
    return _ACCIDENTALS[semitones]


def _types(duration: int) -> list[tuple[str, int, int]]:
    """A duration in divisions as tied written values: (type, dots, divisions), longest first."""
    out: list[tuple[str, int, int]] = []
    rest = duration
    while rest >= _TYPES[-1][1]:
        for i, (name, size) in enumerate(_TYPES):
            if size > rest:
                continue
            dots, total = 0, size
            while dots < 2 and i + dots + 1 < len(_TYPES) and total + _TYPES[i + dots + 1][1] <= rest:
                dots += 1
                total += _TYPES[i + dots][1]
            out.append((name, dots, total))
            rest -= total
            break
    return out


@dataclass
class _Item:
    """One thing placed in a part: a note, a roll or a direction, at an onset in divisions."""

    start: int
    length: int
    event: Event | None
    roll: int = 0
    """The number of strokes a tremolo note stands for (0: a single note)."""
    words: str = ""


@dataclass(frozen=True)
class Bar:
    """A bar: its start and length in divisions, how it divides (``beats`` over ``beat_type``: at a phrase
    the 編鐘 stroke, each character with its close, the phrase's close, ``2+11+11+11+11+11`` sixteenths;
    not written, as the score is senza misura) and the phrase it holds, if any."""

    start: int
    length: int
    beats: str
    beat_type: int
    phrase: tuple[str, int] | None = None


class _Clock:
    def __init__(self, tl: Timeline) -> None:
        self.spq = seconds_per_quarter(tl)

    def at(self, seconds: float) -> int:
        return round(seconds / self.spq * DIVISIONS / GRID) * GRID


def _unit(lengths: Sequence[int]) -> tuple[int, int]:
    """The longest note value (beat type, divisions) that divides every length."""
    for beat_type, size in ((4, DIVISIONS), (8, DIVISIONS // 2), (16, DIVISIONS // 4), (32, DIVISIONS // 8)):
        if all(n % size == 0 for n in lengths):
            return beat_type, size
    return 128, GRID


def _free_bars(start: int, end: int) -> list[Bar]:
    bars: list[Bar] = []
    if end - start > FREE_BAR_MAX_QUARTERS * DIVISIONS:
        while end - start > FREE_BAR_QUARTERS * DIVISIONS:
            bars.append(Bar(start, FREE_BAR_QUARTERS * DIVISIONS, str(FREE_BAR_QUARTERS), 4))
            start += FREE_BAR_QUARTERS * DIVISIONS
    if end > start:
        beat_type, size = _unit([end - start])
        bars.append(Bar(start, end - start, str((end - start) // size), beat_type))
    return bars


def bars(tl: Timeline) -> tuple[Bar, ...]:
    """The bars of the timeline: a bar per phrase, beats at its sung characters; free bars elsewhere."""
    clock = _Clock(tl)
    phrases: dict[tuple[str, int], list[Event]] = {}
    for e in tl.events:
        if e.movement is not None and e.phrase is not None:
            phrases.setdefault((e.movement, e.phrase), []).append(e)
    spans = sorted(
        (clock.at(min(e.time_s for e in es)), clock.at(max(e.time_s + e.duration_s for e in es)), key)
        for key, es in phrases.items()
    )
    end = max(clock.at(tl.duration_s), max((s[1] for s in spans), default=0))
    result: list[Bar] = []
    now = 0
    for start, stop, key in spans:
        result += _free_bars(now, start)
        onsets = sorted(
            {clock.at(e.time_s) for e in phrases[key] if e.kind == "note" and e.instrument == VOICE}
        ) or [start]
        # the last character's beat ends with its own closing strokes; the phrase's close follows
        closed = max(clock.at(e.time_s + e.duration_s) for e in phrases[key] if e.character is not None)
        cuts = sorted({start, *onsets, min(closed, stop), stop})
        groups = [b - a for a, b in itertools.pairwise(cuts)]
        beat_type, size = _unit(groups)
        beats = "+".join(str(g // size) for g in groups)
        result.append(Bar(start, stop - start, beats, beat_type, key))
        now = stop
    result += _free_bars(now, end)
    return tuple(result)


def _rolls(events: list[Event], clock: _Clock) -> list[_Item]:
    """The events of one part as items, runs of equal strokes of a rule merged into tremolo notes."""
    items: list[_Item] = []
    i = 0
    while i < len(events):
        e = events[i]
        j = i + 1
        while (
            j < len(events)
            and e.kind == "stroke"
            and events[j].rule == e.rule
            and events[j].label == e.label
            and events[j].lu == e.lu
            and math.isclose(events[j].duration_s, e.duration_s)
            and math.isclose(events[j].time_s - events[j - 1].time_s, e.duration_s)
        ):
            j += 1
        if j - i >= ROLL_MIN_STROKES:
            last = events[j - 1]
            start = clock.at(e.time_s)
            items.append(_Item(start, clock.at(last.time_s + last.duration_s) - start, e, roll=j - i))
            i = j
            continue
        items.append(
            _Item(clock.at(e.time_s), max(GRID, clock.at(e.time_s + e.duration_s) - clock.at(e.time_s)), e)
        )
        i += 1
    # two strokes closer than the grid: the first stands for both; a note ends where the next begins
    kept: list[_Item] = []
    for item in items:
        if kept and item.start <= kept[-1].start:
            continue
        if kept:
            kept[-1].length = min(kept[-1].length, item.start - kept[-1].start)
        kept.append(item)
    return kept


def _sounding(inst: Instrument, e: Event) -> bool:
    """Whether an event of this instrument is written with a pitch (it sounds a 律)."""
    return e.lu is not None and (inst.pitched or inst.midi_program is not None)


def _sub(parent: etree._Element, tag: str, text: object = None, **attrs: str) -> etree._Element:
    el = etree.SubElement(parent, tag, {k.replace("_", "-"): v for k, v in attrs.items()})
    if text is not None:
        el.text = str(text)
    return el


class _Writer:
    def __init__(self, tl: Timeline, tuning: Tuning) -> None:
        self.tl = tl
        self.tuning = tuning
        self.clock = _Clock(tl)
        self.bars = bars(tl)

    # --- notes -----------------------------------------------------------------------------------

    def pitch_of(self, inst: Instrument, e: Event) -> float:
        """The exact fractional MIDI key of an event of this instrument."""
        assert e.lu is not None
        return midi_pitch(self.tuning.freq_hz(e.lu, inst.midi_octave))

    def _lyrics(self, note: etree._Element, e: Event) -> None:
        if e.movement is None or e.phrase is None or e.character is None:
            return
        mv = movement(e.movement, self.tl.witness)
        c = mv.phrases[e.phrase - 1].characters[e.character - 1]
        for number, text in ((1, c.display), (2, lu(c.note.lu).name), (3, c.note.gongche)):
            lyric = _sub(note, "lyric", number=str(number))
            _sub(lyric, "syllabic", "single")
            _sub(lyric, "text", text)

    def note(
        self,
        measure: etree._Element,
        pid: str,
        inst: Instrument,
        item: _Item | None,
        length: int,
        tie: tuple[bool, bool],
        first: bool,
        shown: dict[tuple[str, int], int] | None = None,
    ) -> None:
        """Write one tied run of written values for an item (or a rest when item is None); ``shown``: the
        semitone steps the bar has shown so far, by step and octave."""
        pieces = _types(length)
        for k, (name, dots, size) in enumerate(pieces):
            note = _sub(measure, "note")
            if item is None:
                _sub(note, "rest")
            elif item.event is not None and _sounding(inst, item.event):
                step, alter, octave, _acc = spelled(self.pitch_of(inst, item.event))
                pitch = _sub(note, "pitch")
                _sub(pitch, "step", step)
                _sub(pitch, "alter", f"{alter:.6f}".rstrip("0").rstrip(".") if alter else "0")
                _sub(pitch, "octave", octave)
            else:
                unpitched = _sub(note, "unpitched")
                _sub(unpitched, "display-step", UNPITCHED_DISPLAY[0])
                _sub(unpitched, "display-octave", UNPITCHED_DISPLAY[1])
            _sub(note, "duration", size)
            starts = item is not None and (tie[0] or k > 0)
            stops = item is not None and (tie[1] or k < len(pieces) - 1)
            if starts:
                _sub(note, "tie", type="stop")
            if stops:
                _sub(note, "tie", type="start")
            if item is not None:
                _sub(note, "instrument", id=f"{pid}-I1")
            _sub(note, "type", name)
            for _ in range(dots):
                _sub(note, "dot")
            if (
                item is not None
                and item.event is not None
                and _sounding(inst, item.event)
                and shown is not None
            ):
                step, alter, octave, _acc = spelled(self.pitch_of(inst, item.event))
                named = _accidental(shown, (step, octave), round(alter), continued=starts)
                if named is not None:
                    _sub(note, "accidental", named)
            notations = None
            if starts or stops or (item is not None and item.roll):
                notations = _sub(note, "notations")
                if starts:
                    _sub(notations, "tied", type="stop")
                if stops:
                    _sub(notations, "tied", type="start")
                if item is not None and item.roll:
                    ornaments = _sub(notations, "ornaments")
                    _sub(ornaments, "tremolo", TREMOLO_MARKS, type="single")
            if item is not None and item.event is not None and k == 0 and first:
                if inst.id == VOICE:
                    self._lyrics(note, item.event)

    # --- parts -----------------------------------------------------------------------------------

    def words(self, measure: etree._Element, text: str, offset: int, placement: str = "above") -> None:
        direction = _sub(measure, "direction", placement=placement)
        _sub(_sub(direction, "direction-type"), "words", text)
        if offset:
            _sub(direction, "offset", offset)

    def part(self, root: etree._Element, pid: str, inst: Instrument, calls: list[_Item]) -> None:
        events = [e for e in self.tl.events if e.instrument == inst.id and e.kind in ("note", "stroke")]
        items = _rolls(events, self.clock)
        pitched = any(_sounding(inst, e) for e in events)
        part = _sub(root, "part", id=pid)
        index = 0
        for number, bar in enumerate(self.bars, start=1):
            measure = _sub(part, "measure", number=str(number))
            shown: dict[tuple[str, int], int] = {}
            attributes = _sub(measure, "attributes")
            if number == 1:
                _sub(attributes, "divisions", DIVISIONS)
                _sub(_sub(attributes, "time"), "senza-misura")
                self._clef(attributes, inst, events, pitched)
            if not len(attributes):
                measure.remove(attributes)
            if number == 1 and inst.id == VOICE:
                self._tempo(measure)
            if inst.id == VOICE:
                for call in calls:
                    if bar.start <= call.start < bar.start + bar.length:
                        self.words(measure, call.words, call.start - bar.start)
            now = bar.start
            end = bar.start + bar.length
            while index < len(items) and items[index].start < end:
                item = items[index]
                if item.start > now:
                    self.note(measure, pid, inst, None, item.start - now, (False, False), True)
                    now = item.start
                begun = item.start < bar.start
                item_end = item.start + item.length
                stop = min(item_end, end)
                if item.roll and not begun:
                    # at the current position (the roll's note follows): no offset
                    self.words(measure, f"{item.event.label if item.event else ''} ×{item.roll}", 0)
                self.note(measure, pid, inst, item, stop - now, (begun, item_end > end), not begun, shown)
                now = stop
                if item_end > end:
                    break
                index += 1
            if end > now:
                self.note(measure, pid, inst, None, end - now, (False, False), True)
            self._barline(measure, bar, number)

    def _barline(self, measure: etree._Element, bar: Bar, number: int) -> None:
        if number == len(self.bars):
            barline = _sub(measure, "barline", location="right")
            _sub(barline, "bar-style", "light-heavy")
            return
        following = self.bars[number]
        ends_movement = bar.phrase is not None and following.phrase is None
        if ends_movement:
            barline = _sub(measure, "barline", location="right")
            _sub(barline, "bar-style", "light-light")

    def _clef(self, attributes: etree._Element, inst: Instrument, events: list[Event], pitched: bool) -> None:
        if not pitched:
            clef = _sub(attributes, "clef")
            _sub(clef, "sign", "percussion")
            _sub(_sub(attributes, "staff-details"), "staff-lines", 1)
            return
        keys = sorted(self.pitch_of(inst, e) for e in events if _sounding(inst, e))
        low = keys[len(keys) // 2] < 57 if keys else False
        clef = _sub(attributes, "clef")
        _sub(clef, "sign", "F" if low else "G")
        _sub(clef, "line", 4 if low else 2)

    def _tempo(self, measure: etree._Element) -> None:
        bpm = tempo_bpm(self.tl)
        direction = _sub(measure, "direction", placement="above")
        metronome = _sub(_sub(direction, "direction-type"), "metronome")
        _sub(metronome, "beat-unit", "quarter")
        _sub(metronome, "per-minute", f"{bpm:g}" if bpm == int(bpm) else f"{bpm:.2f}")
        _sub(direction, "sound", tempo=f"{bpm:.4f}".rstrip("0").rstrip("."))


def _calls(tl: Timeline, clock: _Clock) -> list[_Item]:
    """The calls (麾生, 節生) and each movement's title, as words over the sung line."""
    items = [
        _Item(clock.at(e.time_s), 0, e, words=f"{e.role}：{e.label}") for e in tl.events if e.kind == "call"
    ]
    for mid in tl.movements:
        first = min(e.time_s for e in tl.events if e.movement == mid)
        items.append(_Item(clock.at(first), 0, None, words=f"{movement_info(mid).title}之曲"))
    return sorted(items, key=lambda i: (i.start, i.event is not None))


def _chosen(tl: Timeline, parts: Sequence[str]) -> list[Instrument]:
    known = {x.id for x in instruments()}
    if parts:
        chosen = [instrument(p) for p in parts]
        for x in chosen:
            if x.id not in known:
                raise UnknownValueError("part", x.id, sorted(known))
        return chosen
    sounding = {e.instrument for e in tl.events if e.kind in ("note", "stroke")}
    order = [VOICE] + [x.id for x in instruments() if x.id != VOICE]
    return [instrument(i) for i in order if i in sounding]


def midi_channels(chosen: Sequence[Instrument]) -> dict[str, int]:
    """A MIDI channel (1-based) per part: unpitched parts on the percussion channel, each other program
    on a channel of its own (parts of one program share it)."""
    free = [c for c in range(1, MIDI_CHANNELS + 1) if c != PERCUSSION_CHANNEL]
    by_program: dict[int, int] = {}
    out: dict[str, int] = {}
    for x in chosen:
        if x.midi_program is None:
            out[x.id] = PERCUSSION_CHANNEL
            continue
        if x.midi_program not in by_program:
            if len(by_program) == len(free):
                raise DataError(
                    f"more than {len(free)} MIDI programs among the parts ({', '.join(p.id for p in chosen)})"
                )
            by_program[x.midi_program] = free[len(by_program)]
        out[x.id] = by_program[x.midi_program]
    return out


def _header(root: etree._Element, tl: Timeline, tuning: Tuning) -> None:
    witness = tl.witness or score_witness()
    infos = [movement_info(m) for m in tl.movements]
    work = _sub(root, "work")
    _sub(work, "work-title", "大成樂")
    if len(infos) == 1:
        _sub(root, "movement-number", movement_ids().index(infos[0].id) + 1)
        _sub(root, "movement-title", f"{infos[0].title}之曲")
    else:
        _sub(root, "movement-title", "、".join(m.name for m in infos))
    ident = _sub(root, "identification")
    title = load_witness(witness).info.title
    sections = "; ".join(f"{m.name}奏{m.tune}之曲 ({m.section})" for m in infos)
    encoding = _sub(ident, "encoding")
    _sub(encoding, "software", f"dianli {dianli.__version__}")
    _sub(encoding, "encoding-date", datetime.date.today().isoformat())
    _sub(encoding, "supports", type="yes", element="accidental")
    _sub(ident, "source", f"{title} [{witness}], 樂章: {sections}")
    misc = _sub(ident, "miscellaneous")
    fields = {
        "movement": "、".join(m.name for m in infos),
        "tune": "、".join(dict.fromkeys(m.tune for m in infos)),
        "witness": witness,
        "witness-title": title,
        "tuning": f"{tuning.system}; 黃鐘 = {tuning.huangzhong_hz:g} Hz (assumption)",
        "tempo": f"a sung character lasts {seconds_per_quarter(tl) * QUARTERS_PER_CHARACTER:g} s "
        f"(assumption: {' '.join(timing_assumption().split())})",
        "bars": "senza misura: a bar per phrase (句), from its opening 編鐘 to its closing 編磬 and "
        "drums, no metre (the witness writes none)",
    }
    for name, value in fields.items():
        _sub(misc, "miscellaneous-field", value, name=name)
    credit = _sub(root, "credit", page="1")
    _sub(
        credit,
        "credit-words",
        f"大成樂 {infos[0].title}之曲" if len(infos) == 1 else "大成樂",
        justify="center",
    )


def to_tree(
    tl: Timeline, tuning: Tuning | None = None, parts: Sequence[str] = DEFAULT_PARTS
) -> etree._Element:
    """The MusicXML document (score-partwise 4.0) of the timeline."""
    tuning = tuning or default_tuning()
    chosen = _chosen(tl, parts)
    root = etree.Element("score-partwise", version="4.0")
    _header(root, tl, tuning)
    part_list = _sub(root, "part-list")
    channels = midi_channels(chosen)
    ids = {x.id: f"P{i}" for i, x in enumerate(chosen, start=1)}
    for x in chosen:
        score_part = _sub(part_list, "score-part", id=ids[x.id])
        _sub(score_part, "part-name", x.name)
        _sub(score_part, "part-abbreviation", x.name)
        score_inst = _sub(score_part, "score-instrument", id=f"{ids[x.id]}-I1")
        _sub(score_inst, "instrument-name", f"{x.name} ({x.id})")
        midi = _sub(score_part, "midi-instrument", id=f"{ids[x.id]}-I1")
        _sub(midi, "midi-channel", channels[x.id])
        if x.midi_program is None:
            _sub(midi, "midi-unpitched", (x.midi_percussion or 0) + 1)
        else:
            _sub(midi, "midi-program", x.midi_program + 1)
    writer = _Writer(tl, tuning)
    calls = _calls(tl, writer.clock)
    for x in chosen:
        writer.part(root, ids[x.id], x, calls)
    return root


def musicxml_bytes(tl: Timeline, tuning: Tuning | None = None, parts: Sequence[str] = DEFAULT_PARTS) -> bytes:
    """The MusicXML file's bytes."""
    body: bytes = etree.tostring(
        to_tree(tl, tuning, parts), encoding="UTF-8", xml_declaration=False, pretty_print=True
    )
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + DOCTYPE.encode() + b"\n" + body


def write_musicxml(
    tl: Timeline, path: str | Path, tuning: Tuning | None = None, parts: Sequence[str] = DEFAULT_PARTS
) -> None:
    """Write the timeline as MusicXML."""
    Path(path).write_bytes(musicxml_bytes(tl, tuning, parts))


def read_music21(source: str | Path | bytes) -> Any:
    """A MusicXML file (a path, or its bytes) read into a ``music21.stream.Score`` with every decimal
    ``<alter>`` kept. music21 refuses a decimal alter on a note without an ``<accidental>`` (the way this
    edition writes its cents, for notation software); such a note is given one for music21 alone, named
    by its semitone step, and left undrawn (its ``displayStatus`` False)."""
    import music21  # imported here: music21 takes a second to load

    data = Path(source).read_bytes() if isinstance(source, (str, Path)) else source
    root = etree.fromstring(data, parser=etree.XMLParser(resolve_entities=False, no_network=True))
    hidden = 0
    for note in root.iter("note"):
        alter = note.findtext("pitch/alter")
        if alter is None or note.find("accidental") is not None or float(alter) == round(float(alter)):
            continue
        _insert_accidental(note, _ACCIDENTALS.get(round(float(alter)), "natural"))
        hidden += 1
    score = music21.converter.parseData(etree.tostring(root), format="musicxml")
    if hidden:
        for n in score.recurse().notes:
            for p in getattr(n, "pitches", ()):
                if p.accidental is not None and p.accidental.alter != round(p.accidental.alter):
                    p.accidental.displayStatus = False
    return score


_BEFORE_ACCIDENTAL = ("time-modification", "stem", "notehead", "notehead-text", "staff", "beam")


def _insert_accidental(note: etree._Element, name: str) -> None:
    """Put an <accidental> where MusicXML's order of a note's children wants it (after <dot>, before
    <time-modification>, <stem> …)."""
    accidental = etree.Element("accidental")
    accidental.text = name
    later = next((c for c in note if c.tag in _BEFORE_ACCIDENTAL or c.tag in ("notations", "lyric")), None)
    if later is None:
        note.append(accidental)
    else:
        later.addprevious(accidental)


__all__ = [
    "DEFAULT_PARTS",
    "Bar",
    "bars",
    "midi_channels",
    "musicxml_bytes",
    "read_music21",
    "seconds_per_quarter",
    "spelled",
    "tempo_bpm",
    "to_tree",
    "write_musicxml",
]
