"""The timeline as MusicXML (music21): the sung line with its lyrics, and a part per chosen instrument.

Time is written in quarter notes: a sung character lasts ``QUARTER_LENGTH_PER_CHARACTER`` quarters, and
every event is placed at its time in the timeline, on a grid of ``GRID_QUARTERS``. The voice carries
the character and its 律呂/工尺 as two lyric lines; pitched instruments sound the 律 in their octave with
its deviation from equal temperament kept as a microtone; drums, 柷 and 敔 are unpitched notes on a
percussion staff, labelled with their stroke. Which instruments get a part is a choice of the renderer
(``DEFAULT_PARTS``), not a fact of the rite: the MIDI and JSON outputs carry every event.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import music21

from dianli.errors import UnknownValueError
from dianli.music.cues import Event, Timeline
from dianli.music.instruments import Instrument, instrument, instruments
from dianli.music.pitch import Tuning, default_tuning, midi_pitch
from dianli.music.score import movement

QUARTER_LENGTH_PER_CHARACTER = 2.0
GRID_QUARTERS = 0.125
"""Offsets and durations are rounded to a thirty-second note."""
VOICE = "voice"
PERCUSSION_CHANNEL = 9
MIDI_CHANNELS = 16
"""Unpitched parts share the General MIDI percussion channel (0-based), as in the MIDI output."""
DEFAULT_PARTS: tuple[str, ...] = (
    VOICE,
    "gezhong",
    "geqing",
    "bianzhong",
    "bianqing",
    "qin",
    "sheng",
    "yinggu",
    "zugu",
    "taogu",
    "bofu",
    "tiangu",
    "xuangu",
)
"""The parts written by default: the voice, the bells and stones, 琴, 笙 and the drums. MusicXML gives each
unpitched part its own MIDI channel, so more than fifteen parts would run out of channels."""


def _seconds_per_quarter(tl: Timeline) -> float:
    sung = next((e for e in tl.events if e.kind == "note"), None)
    character_s = sung.duration_s if sung else 1.0
    return character_s / QUARTER_LENGTH_PER_CHARACTER


def _grid(quarters: float) -> float:
    return round(quarters / GRID_QUARTERS) * GRID_QUARTERS


def _pitch(e: Event, inst: Instrument, tuning: Tuning) -> music21.pitch.Pitch | None:
    if e.lu is None or not inst.pitched:
        return None
    exact = midi_pitch(tuning.freq_hz(e.lu, inst.midi_octave))
    pitch = music21.pitch.Pitch()
    pitch.midi = round(exact)
    pitch.microtone = music21.pitch.Microtone((exact - round(exact)) * 100)
    return pitch


def _note(
    e: Event, inst: Instrument, tuning: Tuning, quarters: float, witness: str | None
) -> music21.note.GeneralNote:
    pitch = _pitch(e, inst, tuning)
    if pitch is None:
        unpitched = music21.note.Unpitched(quarterLength=quarters)
        unpitched.addLyric(e.label)
        return unpitched
    note = music21.note.Note(pitch, quarterLength=quarters)
    if inst.id == VOICE:
        note.addLyric(e.lyric or "")
        note.addLyric(_token(e, witness))
    return note


def _token(e: Event, witness: str | None) -> str:
    """The note as the 樂章 of the score witness writes it (太四 …) for a sung event."""
    if e.movement is None or e.phrase is None or e.character is None:
        return e.lu or ""
    return movement(e.movement, witness).phrases[e.phrase - 1].characters[e.character - 1].note.token


def _part_instrument(inst: Instrument, channel: int) -> music21.instrument.Instrument:
    """The part's music21 instrument, with its MIDI channel set so music21 need not allot one."""
    if not inst.pitched:
        drum = music21.instrument.UnpitchedPercussion()
        drum.midiChannel = PERCUSSION_CHANNEL
        return drum
    melodic = music21.instrument.Instrument()
    melodic.midiChannel = channel
    melodic.midiProgram = inst.midi_program
    return melodic


def _part(tl: Timeline, inst: Instrument, tuning: Tuning, spq: float, channel: int) -> music21.stream.Part:
    part = music21.stream.Part()
    part.partName = inst.name
    part.id = inst.id
    part.insert(0, _part_instrument(inst, channel))
    if not inst.pitched:
        part.insert(0, music21.clef.PercussionClef())
    events = [e for e in tl.events if e.instrument == inst.id and e.kind in ("note", "stroke")]
    placed: list[tuple[float, music21.note.GeneralNote]] = []
    for e in events:
        offset = _grid(e.time_s / spq)
        if placed and offset <= placed[-1][0]:
            continue  # two strokes closer than the grid: the first stands for both
        if placed:
            previous_offset, previous = placed[-1]
            previous.quarterLength = min(previous.quarterLength, offset - previous_offset)
        quarters = max(GRID_QUARTERS, _grid(e.duration_s / spq))
        placed.append((offset, _note(e, inst, tuning, quarters, tl.witness)))
    for offset, note in placed:
        part.insert(offset, note)
    if inst.id == VOICE:
        for mid in tl.movements:
            first = min(e.time_s for e in tl.events if e.movement == mid)
            part.insert(
                _grid(first / spq), music21.expressions.TextExpression(movement(mid, tl.witness).info.title)
            )
    return part


def to_stream(
    tl: Timeline, tuning: Tuning | None = None, parts: Sequence[str] = DEFAULT_PARTS
) -> music21.stream.Score:
    """A score with the voice and the chosen instruments (ids or names), every event at its time."""
    tuning = tuning or default_tuning()
    chosen = [instrument(p) for p in parts]
    known = {x.id for x in instruments()}
    for x in chosen:
        if x.id not in known:
            raise UnknownValueError("part", x.id, sorted(known))
    spq = _seconds_per_quarter(tl)
    score = music21.stream.Score()
    score.insert(0, music21.metadata.Metadata(title="大成樂"))
    channels = iter(c for c in range(MIDI_CHANNELS) if c != PERCUSSION_CHANNEL)
    for x in chosen:
        channel = next(channels, MIDI_CHANNELS - 1) if x.pitched else PERCUSSION_CHANNEL
        score.insert(0, _part(tl, x, tuning, spq, channel))
    return score


def write_musicxml(
    tl: Timeline, path: str | Path, tuning: Tuning | None = None, parts: Sequence[str] = DEFAULT_PARTS
) -> None:
    """Write the timeline as MusicXML."""
    to_stream(tl, tuning, parts).write("musicxml", fp=str(path))
