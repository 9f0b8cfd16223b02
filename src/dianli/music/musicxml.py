"""The sung line as MusicXML (music21): one note per character, the character and its 律呂/工尺 as lyrics.

Only the voice is written (the instruments double it; the percussion is in the MIDI and the JSON).
A sung character is a half note; the 律's deviation from equal temperament is kept as a microtone.
"""

from __future__ import annotations

from pathlib import Path

import music21

from dianli.music.cues import Timeline
from dianli.music.pitch import Tuning, default_tuning, midi_pitch
from dianli.music.score import movement

QUARTER_LENGTH_PER_CHARACTER = 2.0


def to_stream(tl: Timeline, tuning: Tuning | None = None) -> music21.stream.Score:
    """A score with one part per movement's voice line, in order."""
    tuning = tuning or default_tuning()
    score = music21.stream.Score()
    score.insert(0, music21.metadata.Metadata(title="大成樂"))
    part = music21.stream.Part()
    part.partName = "歌"
    for mid in tl.movements:
        mv = movement(mid)
        part.append(music21.expressions.TextExpression(mv.info.title))
        for c in mv.characters:
            exact = midi_pitch(tuning.freq_hz(c.note.lu))
            pitch = music21.pitch.Pitch()
            pitch.midi = round(exact)
            pitch.microtone = music21.pitch.Microtone((exact - round(exact)) * 100)
            note = music21.note.Note(pitch, quarterLength=QUARTER_LENGTH_PER_CHARACTER)
            note.addLyric(c.display)
            note.addLyric(c.note.token)
            part.append(note)
    score.insert(0, part)
    return score


def write_musicxml(tl: Timeline, path: str | Path, tuning: Tuning | None = None) -> None:
    """Write the sung line as MusicXML."""
    to_stream(tl, tuning).write("musicxml", fp=str(path))
