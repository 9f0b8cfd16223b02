"""Music domain: pitch, score, fingering, cue counts, MIDI read-back, FFT of rendered pitches."""

from __future__ import annotations

import itertools
import math

import mido
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dianli.errors import DianliError, UnknownValueError
from dianli.music.cues import Event, character_times, suite_timeline, timeline
from dianli.music.instruments import fingering
from dianli.music.midi import to_midi
from dianli.music.pitch import Tuning, cents_table, parse_note, pitch_findings
from dianli.music.score import movement, movement_info, score_findings
from dianli.music.synth import SAMPLE_RATE_HZ, event_signal


@pytest.mark.parametrize(
    ("token", "lu"),
    [
        ("太四", "taicu"),
        ("南工", "nanlu"),
        ("林尺", "linzhong"),
        ("仲上", "zhonglu"),
        ("黃合", "huangzhong"),
        ("黃六", "qing_huangzhong"),
    ],
)
def test_notes_of_the_score(token: str, lu: str) -> None:
    assert parse_note(token).lu == lu


@given(st.text(max_size=4))
def test_parse_note_never_crashes(text: str) -> None:
    try:
        parse_note(text)
    except DianliError:
        pass


@pytest.mark.parametrize(
    ("lu", "verdict"),
    [
        ("huangzhong", "agrees"),
        ("yize", "copying error?"),
        ("zhonglu", "copying error?"),
        ("nanlu", "agrees if 分 are ninths"),
        ("qing_jiazhong", "half of its 律 in ninths"),
        ("qing_dalu", "half of its 律 in ninths"),
        ("qing_taicu", "agrees"),
    ],
)
def test_cents_table_verdicts(lu: str, verdict: str) -> None:
    assert {r.lu.id: r.verdict for r in cents_table()}[lu] == verdict


@pytest.mark.parametrize(
    ("qing", "ninths", "half"),
    [
        ("qing_dalu", (8, 3, 7, 6, 0), 4.188),  # 大呂 8.42798 寸 = 8寸3分7釐6毫 in ninths; 8.376 / 2
        ("qing_jiazhong", (7, 4, 3, 7, 3, 0), 3.7186),  # 夾鐘 7.49154 寸 = 7寸4分3釐7毫3絲; 7.4373 / 2
    ],
)
def test_departing_qing_pipes_are_halved_from_ninths(qing: str, ninths: tuple[int, ...], half: float) -> None:
    from dianli.music.pitch import halved_from_ninths, lu

    assert halved_from_ninths(lu(qing)) == (ninths, half)
    assert lu(qing).stated_length_cun == half


@pytest.mark.parametrize(
    ("pipe", "expected"),
    [
        ("dalu", None),  # a 律, not a 清 pipe
        ("zhonglu", None),
        ("qing_huangzhong", ((9, 0, 0), 4.5)),  # whole 寸: both notations agree, and so does the table
        ("qing_taicu", ((8, 0), 4.0)),
    ],
)
def test_halved_from_ninths_elsewhere(pipe: str, expected: tuple[tuple[int, ...], float] | None) -> None:
    from dianli.music.pitch import halved_from_ninths, lu

    assert halved_from_ninths(lu(pipe)) == expected


def test_pitch_findings_name_the_suspect_pipes() -> None:
    subjects = " ".join(f.subject for f in pitch_findings())
    assert "夷則" in subjects and "仲呂" in subjects


@pytest.mark.parametrize(
    ("name", "mid"),
    [
        ("寧平", "chuxian"),
        ("宁平", "chuxian"),
        ("初献", "chuxian"),
        ("yingshen", "yingshen"),
        ("送神", "songshen"),
        ("景平", "zhongxian"),
    ],
)
def test_movement_names(name: str, mid: str) -> None:
    assert movement_info(name).id == mid


@pytest.mark.parametrize("bad", ["咸平", "foo", ""])
def test_bad_movement_lists_accepted(bad: str) -> None:
    with pytest.raises(UnknownValueError, match="初獻"):
        movement_info(bad)


@pytest.mark.parametrize(
    "mid", ["yingshen", "chuxian", "yaxian", "zhongxian", "chezhuan", "songshen", "wangyi"]
)
def test_every_movement_has_eight_phrases_of_four(mid: str) -> None:
    mv = movement(mid)
    assert [len(p.characters) for p in mv.phrases] == [4] * 8


def test_first_characters_of_chuxian() -> None:
    assert movement("chuxian").phrases[0].text == "覺我生民"
    assert [c.note.token for c in movement("chuxian").phrases[0].characters] == [
        "太四",
        "仲上",
        "林尺",
        "仲上",
    ]


def test_score_findings_report_lost_glyphs_and_variant() -> None:
    messages = [f.message for f in score_findings()]
    assert sum("could not encode" in m for m in messages) == 2
    assert any("材" in m for m in messages)


@pytest.mark.parametrize(
    ("note", "instrument", "text"),
    [("太四", "qin", "七徽、二絃"), ("黃合", "xiao", "六孔皆閉"), ("林尺", "se", "外七絃、八絃")],
)
def test_fingering(note: str, instrument: str, text: str) -> None:
    assert text in {f.instrument: f.text for f in fingering(note)}[instrument]


@pytest.mark.parametrize(
    ("instrument", "count"),
    [
        ("bianzhong", 8),
        ("bianqing", 8),
        ("gezhong", 32),
        ("geqing", 32),
        ("bofu", 32),
        ("tiangu", 32),
        ("yu", 6),
        ("zhu", 3),
        ("bozhong", 1),
        ("teqing", 1),
        ("xuangu", 4),
        ("muduo", 32),
    ],
)
def test_event_counts_per_movement(instrument: str, count: int) -> None:
    assert timeline("chuxian").count(instrument) == count


def test_undanced_movement_has_no_muduo() -> None:
    assert timeline("yingshen").count("muduo") == 0
    assert timeline("yingshen").count("dagu") == 360
    assert timeline("yingshen").count("dazhong") == 108


def test_tuogu_three_tong_count_36() -> None:
    tl = suite_timeline()
    opening = [
        e
        for e in tl.events
        if e.rule.startswith("tuogu_")
        and e.rule.endswith("_open")
        and e.rule != "tuogu_warning_open"
        and e.kind == "stroke"
        and e.counted
    ]
    assert len(opening) == 36
    assert tl.count(rule="tuogu_warning_open") == 360


def test_bozhong_rotation_follows_the_suite() -> None:
    positions = [e.position for e in suite_timeline().events if e.instrument == "bozhong"]
    assert positions == ["左之中", "右之中", "左之北", "右之北", "左之南", "右之南", "左之中"]


def test_character_times() -> None:
    times = character_times("chuxian")
    assert len(times) == 32 and times[0][0] == "覺"
    assert all(a < b <= c for (_, a, b), (_, c, _) in itertools.pairwise(times))


def test_midi_reads_back_with_the_same_notes() -> None:
    tl = timeline("chuxian")
    mid = to_midi(tl)
    import io

    buf = io.BytesIO()
    mid.save(file=buf)
    buf.seek(0)
    back = mido.MidiFile(file=buf, charset="utf-8")
    names = [t.name for t in back.tracks]
    assert "歌 voice" in names
    voice = next(t for t in back.tracks if t.name == "歌 voice")
    assert sum(1 for m in voice if m.type == "note_on") == 32
    lyrics = [m.text for m in voice if m.type == "lyrics"]
    assert "".join(lyrics[:4]) == "覺我生民"
    assert any(m.type == "sysex" for m in back.tracks[0])


def _peak_hz(signal: np.ndarray, near_hz: float) -> float:
    n = 1 << 20
    spectrum = np.abs(np.fft.rfft(signal * np.hanning(signal.size), n))
    freqs = np.fft.rfftfreq(n, 1 / SAMPLE_RATE_HZ)
    band = (freqs > near_hz * 0.95) & (freqs < near_hz * 1.05)
    i = int(np.argmax(np.where(band, spectrum, 0)))
    a, b, c = np.log(spectrum[i - 1 : i + 2])
    return float(freqs[i] + (a - c) / (2 * (a - 2 * b + c)) * (freqs[1] - freqs[0]))


@pytest.mark.parametrize(
    ("instrument", "lu"),
    [
        ("paixiao", "taicu"),
        ("qin", "nanlu"),
        ("voice", "linzhong"),
        ("gezhong", "zhonglu"),
        ("bianqing", "huangzhong"),
    ],
)
def test_rendered_pitch_within_5_cents(instrument: str, lu: str) -> None:
    tuning = Tuning("stated", 293.66)
    from dianli.music.instruments import instrument as inst

    event = Event(0.0, 2.0, "note", instrument, None, "", "test", lu=lu)
    signal = event_signal(event, tuning)
    assert signal is not None
    expected = tuning.freq_hz(lu, inst(instrument).midi_octave)
    measured = _peak_hz(np.asarray(signal[: SAMPLE_RATE_HZ * 2]), expected)
    assert abs(1200 * math.log2(measured / expected)) < 5


def test_musicxml_parses_back_with_music21(tmp_path: object) -> None:
    import pathlib

    from dianli.music.musicxml import read_music21, write_musicxml

    path = pathlib.Path(str(tmp_path)) / "chuxian.musicxml"
    write_musicxml(timeline("chuxian"), path, parts=("voice",))
    notes = [n for n in read_music21(path).recurse().notes if n.tie is None or n.tie.type == "start"]
    assert len(notes) == 32
    assert [n.lyrics[0].text for n in notes[:4]] == ["覺", "我", "生", "民"]
    assert [ly.text for ly in notes[0].lyrics[1:]] == ["太簇", "四"]
