"""The 樂譜 of each score witness: 汀州府志's own fingerings (data/fingerings.yaml) beside 臺灣府志's."""

from __future__ import annotations

import pytest

from dianli.corpus.cite import resolve
from dianli.errors import UnknownValueError
from dianli.music.instruments import (
    fingered_notes,
    fingering,
    fingering_rule,
    fingering_witnesses,
    fingerings,
)

TAIWAN = "taiwan-fuzhi-9"
TINGZHOU = "tingzhou-fuzhi-11"


def test_the_fingering_witnesses() -> None:
    assert fingering_witnesses() == (TAIWAN, TINGZHOU)


def test_tingzhou_fingers_the_six_notes_on_nine_instruments() -> None:
    assert fingered_notes(TINGZHOU) == ("太四", "南工", "林尺", "仲上", "黄合", "黄六")
    assert len(fingerings(TINGZHOU)) == 54


@pytest.mark.parametrize(
    ("note", "instrument", "written", "text"),
    [
        ("太四", "qin", "琴", "七徽二弦，左手食指按，右手中指勾"),
        ("太四", "chi", "箎", "第六底孔开，余皆闭"),
        ("林尺", "sheng", "笙", "吹第十二管、第十五管，以左手食指及中指按其孔，余孔皆开"),
        ("仲上", "qin", "琴", "七徽半，三弦，左手无名指按，右手中指勾"),
        ("黃合", "xiao", "箫", "六孔皆闭"),
        ("六", "shuangguan", "双管", "六孔尽闭"),
    ],
)
def test_known_fingerings(note: str, instrument: str, written: str, text: str) -> None:
    (f,) = [f for f in fingering(note, TINGZHOU) if f.instrument == instrument]
    assert (f.written, f.text) == (written, text)
    assert f.cite.witness == TINGZHOU


def test_every_fingering_and_rule_resolves() -> None:
    for f in fingerings(TINGZHOU):
        resolve(f.cite.witness, f.cite.quote, f.cite.section)
    for note in fingered_notes(TINGZHOU):
        rule = fingering_rule(note, TINGZHOU)
        assert rule is not None
        resolve(rule.witness, rule.quote, rule.section)


@pytest.mark.parametrize("note", ["黄六", "黃六", "六"])
def test_a_note_in_either_script_finds_the_default_fingering(note: str) -> None:
    assert [f.note for f in fingering(note)] == ["黃六"] * 9


def test_a_witness_without_a_fingering_is_refused() -> None:
    with pytest.raises(UnknownValueError) as info:
        fingering("太四", "fujian-tongzhi-14")
    assert info.value.accepted == [TAIWAN, TINGZHOU]
