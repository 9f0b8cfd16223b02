"""The timeline as a Standard MIDI File (mido): one track per instrument, the tuning applied.

The 律 do not fall on equal-tempered keys, so every key the file uses is retuned to its exact
frequency with one MIDI Tuning Standard real-time *single note tuning change* at the start; each
track's name carries the instrument, and each note's text the 律呂/工尺.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import mido

from dianli.music.cues import Event, Timeline
from dianli.music.instruments import Instrument, instrument
from dianli.music.pitch import Tuning, default_tuning, midi_pitch

TICKS_PER_BEAT = 480
TEMPO_US_PER_BEAT = 500_000
TICKS_PER_SECOND = TICKS_PER_BEAT * 1_000_000 // TEMPO_US_PER_BEAT
PERCUSSION_CHANNEL = 9
MTS_FRACTION_STEPS = 1 << 14
MIDI_CHARSET = "utf-8"
"""Text (track names, lyrics, markers) is written in UTF-8; read it back with charset="utf-8"."""


def key_and_cents(freq_hz: float) -> tuple[int, float]:
    """The nearest equal-tempered key and the cents from it to ``freq_hz``."""
    exact = midi_pitch(freq_hz)
    key = round(exact)
    return key, (exact - key) * 100.0


def event_key(e: Event, inst: Instrument, tuning: Tuning) -> tuple[int, float] | None:
    """(key, frequency) of a pitched event, or None for unpitched ones."""
    if e.lu is None or (not inst.pitched and inst.midi_program is None):
        return None
    freq = tuning.freq_hz(e.lu, inst.midi_octave)
    key, _ = key_and_cents(freq)
    return key, freq


def _mts_sysex(tunings: dict[int, float]) -> mido.Message:
    """A real-time single note tuning change (MTS) for every key used: key → exact frequency."""
    data = [0x7F, 0x7F, 0x08, 0x02, 0x00, len(tunings)]
    for key, freq in sorted(tunings.items()):
        exact = midi_pitch(freq)
        base = math.floor(exact)
        fraction = round((exact - base) * MTS_FRACTION_STEPS)
        if fraction == MTS_FRACTION_STEPS:
            base, fraction = base + 1, 0
        data += [key, base, (fraction >> 7) & 0x7F, fraction & 0x7F]
    return mido.Message("sysex", data=data)


def to_midi(tl: Timeline, tuning: Tuning | None = None) -> mido.MidiFile:
    """A type-1 MIDI file of the timeline (strokes and notes; calls become lyric meta events)."""
    tuning = tuning or default_tuning()
    mid = mido.MidiFile(type=1, ticks_per_beat=TICKS_PER_BEAT, charset=MIDI_CHARSET)
    conductor = mido.MidiTrack()
    conductor.append(mido.MetaMessage("set_tempo", tempo=TEMPO_US_PER_BEAT, time=0))
    conductor.append(mido.MetaMessage("track_name", name="大成樂", time=0))
    by_inst: dict[str, list[Event]] = defaultdict(list)
    timed: list[tuple[int, mido.BaseMessage]] = []
    key_freqs: dict[int, float] = {}
    for e in tl.events:
        if e.instrument is not None and e.kind in ("stroke", "note"):
            by_inst[e.instrument].append(e)
        elif e.kind == "call":
            timed.append((_ticks(e.time_s), mido.MetaMessage("marker", text=f"{e.role}：{e.label}")))
    channels: dict[int, int] = {}
    tracks = []
    for inst_id, events in by_inst.items():
        inst = instrument(inst_id)
        track = mido.MidiTrack()
        track.append(mido.MetaMessage("track_name", name=f"{inst.name} {inst.id}", time=0))
        if inst.midi_percussion is not None:
            channel = PERCUSSION_CHANNEL
        else:
            program = inst.midi_program or 0
            if program not in channels:
                free = [c for c in range(16) if c != PERCUSSION_CHANNEL and c not in channels.values()]
                channels[program] = free[0] if free else 0
            channel = channels[program]
            track.append(mido.Message("program_change", channel=channel, program=program, time=0))
        messages: list[tuple[int, int, mido.BaseMessage]] = []
        for e in events:
            if inst.midi_percussion is not None:
                key = inst.midi_percussion
            else:
                pitched = event_key(e, inst, tuning)
                if pitched is None:
                    continue
                key, freq = pitched
                key_freqs[key] = freq
            on, off = _ticks(e.time_s), _ticks(e.time_s + max(e.duration_s, 0.1))
            if e.lyric:
                messages.append((on, 0, mido.MetaMessage("lyrics", text=e.lyric)))
            messages.append((on, 2, mido.Message("note_on", channel=channel, note=key, velocity=e.velocity)))
            messages.append((off, 1, mido.Message("note_off", channel=channel, note=key, velocity=0)))
        _append_sorted(track, messages)
        tracks.append(track)
    if key_freqs:
        timed.insert(0, (0, _mts_sysex(key_freqs)))
    _append_sorted(conductor, [(t, 0, m) for t, m in timed])
    mid.tracks.append(conductor)
    mid.tracks.extend(tracks)
    return mid


def _ticks(seconds: float) -> int:
    return round(seconds * TICKS_PER_SECOND)


def _append_sorted(track: mido.MidiTrack, messages: list[tuple[int, int, mido.BaseMessage]]) -> None:
    now = 0
    for at, _, msg in sorted(messages, key=lambda m: (m[0], m[1])):
        track.append(msg.copy(time=at - now))
        now = at
    track.append(mido.MetaMessage("end_of_track", time=0))


def write_midi(tl: Timeline, path: str | Path, tuning: Tuning | None = None) -> None:
    """Write the timeline as a .mid file."""
    to_midi(tl, tuning).save(str(path))
