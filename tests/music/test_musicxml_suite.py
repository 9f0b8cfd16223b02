"""MusicXML parsed back by music21: the whole suite's sung line, and a movement's instrument parts."""

from __future__ import annotations

from pathlib import Path

import music21
import pytest

from dianli.errors import UnknownValueError
from dianli.music.cues import suite_timeline, timeline
from dianli.music.instruments import instrument
from dianli.music.musicxml import read_music21, write_musicxml
from dianli.music.pitch import lu
from dianli.music.score import movement


def _parse(path: Path) -> music21.stream.Score:
    parsed = read_music21(path)
    assert isinstance(parsed, music21.stream.Score)
    return parsed


def _struck(part: music21.stream.Part) -> list[music21.note.GeneralNote]:
    """Notes as sounded: a note tied over a barline counts once."""
    return [n for n in part.recurse().notes if n.tie is None or n.tie.type == "start"]


def test_suite_musicxml_parses_back(tmp_path: Path) -> None:
    tl = suite_timeline()
    path = tmp_path / "dacheng.musicxml"
    write_musicxml(tl, path, parts=("voice",))
    notes = _struck(_parse(path).parts[0])
    expected = [c for mid in tl.movements for c in movement(mid).characters]
    assert len(notes) == len(expected) == 32 * len(tl.movements)
    assert [n.lyrics[1].text + n.lyrics[2].text for n in notes] == [
        lu(c.note.lu).name + c.note.gongche for c in expected
    ]
    assert [n.lyrics[0].text for n in notes] == [c.display for c in expected]


@pytest.fixture(scope="module")
def chuxian_parts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, music21.stream.Part]:
    path = tmp_path_factory.mktemp("xml") / "chuxian.musicxml"
    write_musicxml(timeline("chuxian"), path)
    return {str(p.partName): p for p in _parse(path).parts}


def test_every_sounding_instrument_has_a_part(chuxian_parts: dict[str, music21.stream.Part]) -> None:
    sounding = {e.instrument for e in timeline("chuxian").events if e.kind in ("note", "stroke")}
    assert set(chuxian_parts) == {instrument(i).name for i in sounding}
    assert {"瑟", "鳳簫", "柷", "敔"} <= set(chuxian_parts)


@pytest.mark.parametrize(
    ("part", "count"),
    [
        ("歌", 32),
        ("編鐘", 8),
        ("編磬", 8),
        ("歌鐘", 32),
        ("琴", 32),
        ("笙", 32),
        ("楹鼓", 24),
        ("搏拊", 32),
        ("懸鼓", 4),
    ],
)
def test_instrument_parts_carry_the_rule_counts(
    chuxian_parts: dict[str, music21.stream.Part], part: str, count: int
) -> None:
    assert len(_struck(chuxian_parts[part])) == count


def test_pitched_parts_follow_the_sung_line(chuxian_parts: dict[str, music21.stream.Part]) -> None:
    voice = [n.pitch.name for n in _struck(chuxian_parts["歌"]) if isinstance(n, music21.note.Note)]
    qin = [n.pitch.name for n in _struck(chuxian_parts["琴"]) if isinstance(n, music21.note.Note)]
    assert voice == qin


def test_unknown_part_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnknownValueError, match="琵琶"):
        write_musicxml(timeline("chuxian"), tmp_path / "x.musicxml", parts=("琵琶",))
