"""The MusicXML edition as notation software reads it: verovio draws no natural sign and no metre, and
reads each note at the semitone it is spelt at; music21 (through read_music21) reads every pitch within
1 cent of the tuning's; a named accidental only where a semitone step needs drawing; one MIDI channel
of the 16 per part."""

from __future__ import annotations

from collections import Counter
from importlib import resources

import music21
import pytest
import verovio
from lxml import etree

from dianli.music.cues import timeline
from dianli.music.instruments import instrument
from dianli.music.musicxml import _accidental, musicxml_bytes, read_music21
from dianli.music.pitch import Tuning, midi_pitch

NATURAL_GLYPH = "E261"
"""SMuFL's accidentalNatural, as verovio names the glyph it draws."""
TUNINGS = [("sanfen", 293.66), ("equal", 293.66), ("sanfen", 277.18), ("stated", 311.13)]
"""黃鐘 at D4 (every note a natural step), and at C#4 and D#4 (sharps and flats needed)."""
_STEP = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
_ACCID = {None: 0, "s": 1, "f": -1, "n": 0}
MEI = "{http://www.music-encoding.org/ns/mei}"


def _toolkit() -> verovio.toolkit:
    tk = verovio.toolkit(False)
    tk.setResourcePath(str(resources.files("verovio") / "data"))
    return tk


@pytest.fixture(scope="module", params=TUNINGS, ids=lambda t: f"{t[0]}-{t[1]:g}")
def chuxian(request: pytest.FixtureRequest) -> tuple[Tuning, bytes]:
    tuning = Tuning(*request.param)
    return tuning, musicxml_bytes(timeline("chuxian"), tuning)


def _written(data: bytes) -> list[tuple[str, float, int, str | None]]:
    """(step, alter, octave, accidental) of every pitched note as written."""
    root = etree.fromstring(data)
    return [
        (
            n.findtext("pitch/step") or "",
            float(n.findtext("pitch/alter") or 0),
            int(n.findtext("pitch/octave") or 0),
            n.findtext("accidental"),
        )
        for n in root.iter("note")
        if n.find("pitch") is not None
    ]


def test_verovio_draws_no_natural_sign_and_no_metre(chuxian: tuple[Tuning, bytes]) -> None:
    _tuning, data = chuxian
    tk = _toolkit()
    assert tk.loadData(data.decode())
    pages = [tk.renderToSVG(p) for p in range(1, tk.getPageCount() + 1)]
    assert len(pages) > 1
    assert not any(NATURAL_GLYPH in svg for svg in pages)
    assert not any('class="meterSig"' in svg for svg in pages)


def test_verovio_reads_each_note_at_its_semitone(chuxian: tuple[Tuning, bytes]) -> None:
    """verovio keeps no cents: each note is read at the semitone its step and accidental name."""
    _tuning, data = chuxian
    tk = _toolkit()
    assert tk.loadData(data.decode())
    mei = etree.fromstring(tk.getMEI().encode())
    read: Counter[int] = Counter()
    for note in mei.iter(f"{MEI}note"):
        if note.get("pname") is None:
            continue  # an unpitched stroke
        accids = [note, *note.iter(f"{MEI}accid")]
        ges = next((a.get(k) for a in accids for k in ("accid.ges", "accid") if a.get(k)), None)
        read[
            12 * (int(note.get("oct") or 0) + 1) + _STEP[(note.get("pname") or "").upper()] + _ACCID[ges]
        ] += 1
    written = Counter(12 * (o + 1) + _STEP[s] + round(a) for s, a, o, _acc in _written(data))
    assert read == written


@pytest.mark.parametrize("movement_id", ["yingshen", "chuxian", "yaxian", "zhongxian", "chezhuan"])
def test_no_accidental_where_every_note_is_a_natural_step(movement_id: str) -> None:
    data = musicxml_bytes(timeline(movement_id), Tuning("sanfen", 293.66))
    written = _written(data)
    assert written
    assert all(acc is None for *_rest, acc in written)
    assert any(a != round(a) for _s, a, _o, _acc in written)  # the cents are there, as decimal alters


def test_a_named_accidental_only_for_a_semitone_step(chuxian: tuple[Tuning, bytes]) -> None:
    _tuning, data = chuxian
    for _step, alter, _octave, accidental in _written(data):
        if accidental is not None:
            assert accidental == {1: "sharp", -1: "flat", 0: "natural"}[round(alter)]
        if round(alter) != 0:
            continue
        assert accidental in (None, "natural")


@pytest.mark.parametrize(
    ("notes", "drawn"),
    [
        ([("F", 1, False), ("F", 1, False)], ["sharp", None]),  # a sharp holds for the bar
        ([("F", 1, False), ("F", 0, False)], ["sharp", "natural"]),  # cancelled: a semitone step
        ([("E", 0, False), ("E", 0, False)], [None, None]),  # a natural step needs nothing
        ([("F", 1, True), ("F", 1, False)], [None, None]),  # tied over: read from before
        ([("B", -1, False), ("B", -1, False), ("A", 0, False)], ["flat", None, None]),
    ],
)
def test_accidentals_follow_the_bar(notes: list[tuple[str, int, bool]], drawn: list[str | None]) -> None:
    shown: dict[tuple[str, int], int] = {}
    assert [_accidental(shown, (step, 4), semis, tied) for step, semis, tied in notes] == drawn


def test_music21_reads_every_pitch_within_a_cent(chuxian: tuple[Tuning, bytes]) -> None:
    tuning, data = chuxian
    score = read_music21(data)
    tl = timeline("chuxian")
    names = {p.get("id"): p.findtext("part-name") for p in etree.fromstring(data).iter("score-part")}
    by_name = {instrument(e.instrument).name: instrument(e.instrument) for e in tl.events if e.instrument}
    checked = 0
    for part in score.parts:
        inst = by_name[str(part.partName)]
        computed = {
            midi_pitch(tuning.freq_hz(e.lu, inst.midi_octave))
            for e in tl.events
            if e.instrument == inst.id and e.lu is not None and e.kind in ("note", "stroke")
        }
        for n in part.recurse().notes:
            if not isinstance(n, music21.note.Note):
                continue
            assert (
                not n.pitch.accidental
                or not n.pitch.accidental.displayStatus
                or (n.pitch.accidental.alter == round(n.pitch.accidental.alter))
            )
            assert min(abs(n.pitch.ps - c) for c in computed) * 100 < 1, (part.partName, n.pitch)
            checked += 1
    assert checked > 32 and len(names) == len(score.parts)


def test_one_senza_misura_and_no_other_time_signature() -> None:
    data = musicxml_bytes(timeline("yingshen"))
    root = etree.fromstring(data)
    parts = list(root.iter("part"))
    times = list(root.iter("time"))
    assert len(times) == len(parts)
    assert all(t.find("senza-misura") is not None and t.find("beats") is None for t in times)
    assert all(p.find("measure/attributes/time") is not None for p in parts)
    score = read_music21(data)
    assert not list(score.recurse().getElementsByClass(music21.meter.TimeSignature))


def test_every_part_has_one_midi_channel_of_sixteen() -> None:
    data = musicxml_bytes(timeline("yingshen"))
    root = etree.fromstring(data)
    parts = list(root.iter("score-part"))
    channels = [[int(c.text or 0) for c in p.iter("midi-channel")] for p in parts]
    assert len(parts) > 16  # more parts than channels: some share one
    assert all(len(c) == 1 and 1 <= c[0] <= 16 for c in channels)
    score = read_music21(data)
    read = [i.midiChannel for p in score.parts for i in p.getInstruments(returnDefault=False)]
    assert sorted(c + 1 for c in read if c is not None) == sorted(c[0] for c in channels)
