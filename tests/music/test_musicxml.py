"""The MusicXML edition read back: cents as decimal alters, the tempo of the audio, a bar per phrase,
the metadata, every instrument named and given a MIDI channel, long runs of strokes as counted rolls."""

from __future__ import annotations

from pathlib import Path

import music21
import pytest
from lxml import etree

from dianli.music.cues import default_timing, timeline
from dianli.music.instruments import instrument
from dianli.music.musicxml import (
    bars,
    midi_channels,
    musicxml_bytes,
    read_music21,
    spelled,
    tempo_bpm,
    write_musicxml,
)
from dianli.music.pitch import Tuning, cents_table, lu, midi_pitch
from dianli.music.score import movement

D4_HZ = 293.66


def _voice(path: Path) -> music21.stream.Part:
    parsed = read_music21(path)
    assert isinstance(parsed, music21.stream.Score)
    return parsed.parts[0]


def _sung(part: music21.stream.Part) -> list[music21.note.Note]:
    return [n for n in part.recurse().notes if isinstance(n, music21.note.Note) and n.lyrics]


@pytest.fixture(scope="module")
def chuxian_voice(tmp_path_factory: pytest.TempPathFactory) -> music21.stream.Part:
    path = tmp_path_factory.mktemp("xml") / "chuxian.musicxml"
    write_musicxml(timeline("chuxian"), path, parts=("voice",))
    return _voice(path)


@pytest.mark.parametrize(
    ("midi", "step", "alter", "octave", "accidental"),
    [
        (64.03882, "E", 0.03882, 4, "natural"),
        (62.0, "D", 0.0, 4, "natural"),
        (66.9, "G", -0.1, 4, "natural"),
        (63.2, "E", -0.8, 4, "flat"),
        (61.05, "C", 1.05, 4, "sharp"),
        (47.98, "C", -0.02, 3, "natural"),
    ],
)
def test_spelled_keeps_the_fraction_as_alter(
    midi: float, step: str, alter: float, octave: int, accidental: str
) -> None:
    got = spelled(midi)
    assert (got[0], got[2], got[3]) == (step, octave, accidental)
    assert got[1] == pytest.approx(alter, abs=1e-9)


@pytest.mark.parametrize("system", ["sanfen", "stated", "equal"])
def test_parsed_cents_match_the_tuning_table(tmp_path: Path, system: str) -> None:
    tuning = Tuning(system, D4_HZ)
    path = tmp_path / "chuxian.musicxml"
    write_musicxml(timeline("chuxian"), path, tuning, parts=("voice",))
    notes = _sung(_voice(path))
    table = {row.lu.id: row for row in cents_table()}
    chars = movement("chuxian").characters
    assert len(notes) == len(chars) == 32
    for n, c in zip(notes, chars, strict=True):
        above_huangzhong = (n.pitch.ps - midi_pitch(D4_HZ)) * 100
        expected = {
            "sanfen": table[c.note.lu].sanfen_cents,
            "stated": table[c.note.lu].stated_cents,
            "equal": table[c.note.lu].equal_cents,
        }[system]
        assert above_huangzhong == pytest.approx(expected, abs=0.001)


@pytest.mark.parametrize(
    ("lu_id", "cents"),
    [("taicu", 3.91), ("zhonglu", 21.51), ("linzhong", 1.96), ("nanlu", 5.87), ("huangzhong", 0.0)],
)
def test_sanfen_deviation_is_written_in_the_alter(
    chuxian_voice: music21.stream.Part, lu_id: str, cents: float
) -> None:
    offset = (midi_pitch(D4_HZ) - 62) * 100  # 黃鐘 at 293.66 Hz is -0.02 cents from D4
    written = [
        (n.pitch.ps - round(n.pitch.ps)) * 100
        for n, c in zip(_sung(chuxian_voice), movement("chuxian").characters, strict=True)
        if c.note.lu == lu_id
    ]
    assert written
    assert all(w - offset == pytest.approx(cents, abs=0.01) for w in written)


@pytest.mark.parametrize(("tempo", "bpm"), [(1.0, 50.0), (2.0, 100.0), (0.5, 25.0)])
def test_tempo_mark_equals_the_audio(tmp_path: Path, tempo: float, bpm: float) -> None:
    tl = timeline("chuxian", default_timing(tempo=tempo))
    path = tmp_path / "t.musicxml"
    write_musicxml(tl, path, parts=("voice",))
    part = _voice(path)
    mark = next(iter(part.recurse().getElementsByClass(music21.tempo.MetronomeMark)))
    assert tempo_bpm(tl) == pytest.approx(bpm)
    assert mark.number == pytest.approx(bpm)
    # the score lasts as long as the timeline at that tempo
    assert float(part.duration.quarterLength) * 60 / bpm == pytest.approx(tl.duration_s, abs=1e-6)


def test_a_bar_per_phrase_beginning_with_it(chuxian_voice: music21.stream.Part) -> None:
    mv = movement("chuxian")
    measures = list(chuxian_voice.getElementsByClass(music21.stream.Measure))
    phrase_bars = [b for b in bars(timeline("chuxian")) if b.phrase is not None]
    assert len(phrase_bars) == len(mv.phrases) == 8
    assert len(measures) == 8 + 2  # the opening (麾, 柷, 鎛鐘) and the close (特磬, 懸鼓, 敔, 樂止)
    for measure, phrase in zip(measures[1:9], mv.phrases, strict=True):
        sung = [n.lyrics[0].text for n in measure.notes if n.lyrics]
        assert sung == [c.display for c in phrase.characters]
        # senza misura: no metre; the bar lasts as the phrase does (its 編鐘, four characters, its close)
        assert measure.timeSignature is None
        assert measure.duration.quarterLength == pytest.approx(57 / 4)


@pytest.mark.parametrize(
    "movement_id", ["yingshen", "chuxian", "yaxian", "zhongxian", "chezhuan", "songshen", "wangyi"]
)
def test_every_phrase_bar_holds_its_four_characters(movement_id: str) -> None:
    tl = timeline(movement_id)
    sung = [e for e in tl.events if e.kind == "note" and e.instrument == "voice"]
    phrase_bars = [b for b in bars(tl) if b.phrase is not None]
    assert len(phrase_bars) == 8
    for b in phrase_bars:
        inside = [e for e in sung if b.start <= round(e.time_s / 1.2 * 1440) < b.start + b.length]
        assert [(e.phrase, e.character) for e in inside] == [(b.phrase[1], k) for k in range(1, 5)]


@pytest.fixture(scope="module")
def chuxian_tree() -> etree._Element:
    return etree.fromstring(musicxml_bytes(timeline("chuxian")))


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("work/work-title", "大成樂"),
        ("movement-title", "初獻 寧平之曲"),
        ("movement-number", "2"),
        ("identification/miscellaneous/miscellaneous-field[@name='tune']", "寧平"),
        ("identification/miscellaneous/miscellaneous-field[@name='movement']", "初獻"),
        ("identification/miscellaneous/miscellaneous-field[@name='witness']", "taiwan-fuzhi-9"),
        (
            "identification/miscellaneous/miscellaneous-field[@name='witness-title']",
            "重修福建臺灣府志 卷九 典禮 (祠祀附)",
        ),
    ],
)
def test_metadata(chuxian_tree: etree._Element, path: str, text: str) -> None:
    assert chuxian_tree.findtext(path) == text


def test_no_composer_and_the_source_named(chuxian_tree: etree._Element) -> None:
    assert chuxian_tree.find("identification/creator") is None
    source = chuxian_tree.findtext("identification/source") or ""
    assert "重修福建臺灣府志" in source and "yue.yuezhang.chuxian" in source


def test_every_part_named_with_a_channel(chuxian_tree: etree._Element) -> None:
    names = [p.findtext("part-name") for p in chuxian_tree.iter("score-part")]
    assert "None" not in names and all(names)
    channels = [int(c.text or 0) for c in chuxian_tree.iter("midi-channel")]
    assert len(channels) == len(names) == 26
    assert all(1 <= c <= 16 for c in channels)
    programs = {
        p.findtext("midi-instrument/midi-channel"): p.findtext("midi-instrument/midi-program")
        for p in chuxian_tree.iter("score-part")
        if p.find("midi-instrument/midi-program") is not None
    }
    assert "10" not in programs  # pitched parts keep off the percussion channel


@pytest.mark.parametrize(
    ("ids", "shared"),
    [(("qin", "se"), True), (("voice", "qin"), False), (("yinggu", "zhu"), True)],
)
def test_midi_channels_shared_only_by_one_program(ids: tuple[str, str], shared: bool) -> None:
    channels = midi_channels([instrument(i) for i in ids])
    assert (channels[ids[0]] == channels[ids[1]]) is shared


@pytest.mark.parametrize(("part", "words"), [("大鼓", "擊 ×360"), ("大鐘", "擊 ×108")])
def test_long_runs_are_counted_rolls(part: str, words: str) -> None:
    tree = etree.fromstring(musicxml_bytes(timeline("yingshen")))
    pid = next(p.get("id") for p in tree.iter("score-part") if p.findtext("part-name") == part)
    xml_part = next(p for p in tree.iter("part") if p.get("id") == pid)
    assert words in [w.text for w in xml_part.iter("words")]
    assert xml_part.find(".//tremolo") is not None


def test_calls_are_written_over_the_sung_line(chuxian_tree: etree._Element) -> None:
    voice = next(iter(chuxian_tree.iter("part")))
    words = [w.text for w in voice.iter("words")]
    assert words[:3] == ["初獻 寧平之曲", "麾生：樂奏寧平之曲", "東階節生：奏寧平之舞"]
    assert "麾生：樂止" in words


def test_second_witness_sings_its_own_words(tmp_path: Path) -> None:
    path = tmp_path / "t.musicxml"
    write_musicxml(timeline("chuxian", witness="tingzhou-fuzhi-11"), path, parts=("voice",))
    sung = [n.lyrics[0].text for n in _sung(_voice(path))]
    assert sung == [c.display for c in movement("chuxian", "tingzhou-fuzhi-11").characters]
    assert lu("taicu").name == "太簇"


_XML_XSD = """<xs:schema targetNamespace="http://www.w3.org/XML/1998/namespace"
 xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:attribute name="lang" type="xs:language"/>
 <xs:attribute name="space" type="xs:NCName"/></xs:schema>"""
_XLINK_XSD = (
    """<xs:schema targetNamespace="http://www.w3.org/1999/xlink" attributeFormDefault="qualified"
 xmlns:xs="http://www.w3.org/2001/XMLSchema">"""
    + "".join(
        f'<xs:attribute name="{a}" type="xs:string"/>'
        for a in ("href", "type", "role", "title", "show", "actuate")
    )
    + "</xs:schema>"
)


@pytest.fixture(scope="module")
def musicxml_schema(tmp_path_factory: pytest.TempPathFactory) -> etree.XMLSchema:
    """The MusicXML schema music21 ships (2.0: what it checks holds in 4.0 too), its imports made local."""
    folder = tmp_path_factory.mktemp("xsd")
    shipped = Path(music21.__file__).parent / "musicxml" / "musicxml.xsd"
    text = shipped.read_text(encoding="utf-8")
    text = text.replace("http://www.musicxml.org/xsd/xml.xsd", "xml.xsd")
    text = text.replace("http://www.musicxml.org/xsd/xlink.xsd", "xlink.xsd")
    (folder / "xml.xsd").write_text(_XML_XSD, encoding="utf-8")
    (folder / "xlink.xsd").write_text(_XLINK_XSD, encoding="utf-8")
    (folder / "musicxml.xsd").write_text(text, encoding="utf-8")
    return etree.XMLSchema(etree.parse(str(folder / "musicxml.xsd")))


@pytest.mark.parametrize(
    ("movement_id", "witness"), [("chuxian", None), ("yingshen", None), ("chezhuan", "tingzhou-fuzhi-11")]
)
def test_valid_against_the_musicxml_schema(
    musicxml_schema: etree.XMLSchema, movement_id: str, witness: str | None
) -> None:
    doc = etree.fromstring(musicxml_bytes(timeline(movement_id, witness=witness)))
    assert musicxml_schema.validate(doc), [e.message for e in musicxml_schema.error_log][:5]
