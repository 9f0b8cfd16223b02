"""The whole suite as MusicXML, parsed back by music21 with the same characters and notes."""

from __future__ import annotations

from pathlib import Path

import music21

from dianli.api import movement, suite_timeline
from dianli.music.musicxml import write_musicxml


def test_suite_musicxml_parses_back(tmp_path: Path) -> None:
    tl = suite_timeline()
    path = tmp_path / "dacheng.musicxml"
    write_musicxml(tl, path)
    parsed = music21.converter.parse(str(path))
    assert isinstance(parsed, music21.stream.Score)
    voice = parsed.parts[0]
    notes = list(voice.recurse().notes)
    expected = [c for mid in tl.movements for c in movement(mid).characters]
    assert len(notes) == len(expected) == 32 * len(tl.movements)
    assert [n.lyrics[1].text for n in notes] == [c.note.token for c in expected]
    assert [n.lyrics[0].text for n in notes] == [c.display for c in expected]
