"""How the calls are spoken: every call has its reading as data beside it (pinyin with tone numbers, a
syllable per character, each a reading the character has), and espeak-ng is given exactly the Mandarin
phonemes of that reading, never the characters (which its Debian dictionary reads in English, and 樂 as
lè)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypinyin import Style, pinyin

from dianli.music.cues import Event, suite_timeline
from dianli.music.schema import check_reading, cues_data, movements_data
from dianli.music.voices import ESPEAK, ESPEAK_VOICE, call_reading, espeak_input, phonemes

SUITE_CALLS = sorted({(e.label, e.reading or "") for e in suite_timeline().events if e.kind == "call"})


def test_every_call_rule_and_tune_has_a_reading() -> None:
    calls = [r for r in cues_data().rules if r.call is not None]
    assert len(calls) == 4
    assert all(r.call_reading for r in calls)
    assert all(m.tune_reading for m in movements_data().movements)


@pytest.mark.parametrize(("text", "reading"), SUITE_CALLS)
def test_each_syllable_is_a_reading_of_its_character(text: str, reading: str) -> None:
    """pypinyin's readings of each character (all of them, heteronyms too) include the one given."""
    syllables = reading.split()
    assert len(syllables) == len(text)
    for char, syllable in zip(text, syllables, strict=True):
        known = pinyin(char, style=Style.TONE3, heteronym=True, neutral_tone_with_five=True)[0]
        assert syllable in known, (char, syllable, known)


@pytest.mark.parametrize(
    ("text", "reading", "given"),
    [
        ("樂止", "yue4 zhi3", "[['yE51 ts.'i.214]]"),
        ("舞止", "wu3 zhi3", "[[w'u35 ts.'i.214]]"),  # wǔ zhǐ said wú zhǐ
        (
            "樂奏咸平之曲",
            "yue4 zou4 xian2 ping2 zhi1 qu3",
            "[['yE51 ts'ou51 S;'iE35n ph'i35N ts.'i.55 tS;h'y214]]",
        ),
        (
            "樂奏寧平之曲",
            "yue4 zou4 ning2 ping2 zhi1 qu3",
            "[['yE51 ts'ou51 n'i35N ph'i35N ts.'i.55 tS;h'y214]]",
        ),
        (
            "樂奏安平之曲",
            "yue4 zou4 an1 ping2 zhi1 qu3",
            "[['yE51 ts'ou51 'a55n ph'i35N ts.'i.55 tS;h'y214]]",
        ),
        (
            "樂奏景平之曲",
            "yue4 zou4 jing3 ping2 zhi1 qu3",
            "[['yE51 ts'ou51 tS;'i21N ph'i35N ts.'i.55 tS;h'y214]]",
        ),
        ("奏寧平之舞", "zou4 ning2 ping2 zhi1 wu3", "[[ts'ou51 n'i35N ph'i35N ts.'i.55 w'u214]]"),
        ("奏安平之舞", "zou4 an1 ping2 zhi1 wu3", "[[ts'ou51 'a55n ph'i35N ts.'i.55 w'u214]]"),
        ("奏景平之舞", "zou4 jing3 ping2 zhi1 wu3", "[[ts'ou51 tS;'i21N ph'i35N ts.'i.55 w'u214]]"),
    ],
)
def test_espeak_is_given_the_phonemes_of_each_call(text: str, reading: str, given: str) -> None:
    assert (text, reading) in SUITE_CALLS
    assert espeak_input(reading) == given


def test_the_suite_has_no_other_calls() -> None:
    assert len(SUITE_CALLS) == 9


@pytest.mark.parametrize(
    ("reading", "said"),
    [
        ("wu3 zhi3", "w'u35 ts.'i.214"),  # third before third: a second
        ("jing3 ping2", "tS;'i21N ph'i35N"),  # third before another: a half third
        ("zhi3", "ts.'i.214"),  # a last third: whole
        ("de5", "t@11"),  # neutral: unstressed
        ("huang2 zhong1", "Xw'A35N ts.'ong55"),
        ("si4 ri4 yi4 yu2 lü4", "s'i[51 z.'i.51 j'i51 'y35 l'y51"),
    ],
)
def test_phonemes_follow_the_tones_of_speech(reading: str, said: str) -> None:
    assert phonemes(reading) == said


@pytest.mark.parametrize(
    ("text", "reading", "message"),
    [
        ("樂止", "yue4", "a syllable per character (2), 1 given"),
        ("樂止", "yue zhi3", "yue is not pinyin with a tone number"),
        ("樂奏{tune}之曲", "yue4 zou4 xian2 ping2 zhi1 qu3", "a syllable per character (5), 6 given"),
    ],
)
def test_a_reading_that_does_not_fit_its_call_is_refused(text: str, reading: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        check_reading(text, reading)


@pytest.mark.parametrize("reading", ["yue", "qx4", "yue9"])
def test_phonemes_refuse_what_is_not_pinyin(reading: str) -> None:
    with pytest.raises(ValueError, match="pinyin"):
        phonemes(reading)


def test_a_call_without_a_reading_is_an_error_naming_it() -> None:
    event = Event(0.0, 3.0, "call", None, "麾生", "樂止", "rule")
    with pytest.raises(Exception, match="樂止 has no reading"):
        call_reading(event)


@pytest.mark.espeak
@pytest.mark.parametrize(("text", "reading"), SUITE_CALLS)
def test_espeak_speaks_the_phonemes_as_given_in_mandarin(text: str, reading: str) -> None:
    """espeak-ng's own phoneme echo (-x) of what it is given: the same phonemes, no switch to English,
    and the same as espeak-ng makes of the pinyin itself (its cmn-latn-pinyin voice)."""
    espeak = shutil.which(ESPEAK)
    assert espeak is not None

    def echo(*args: str) -> str:
        out = subprocess.run([espeak, "-q", "-x", *args], check=True, capture_output=True, text=True)
        return " ".join(out.stdout.replace("_|", " ").split())

    said = echo("-v", ESPEAK_VOICE, espeak_input(reading))
    assert text
    assert "(en)" not in said
    assert said == phonemes(reading)
    assert echo("-v", "cmn-latn-pinyin", reading) == said


@given(st.text(alphabet="abcdeghijklmnopqrstuwxyzü12345 ", max_size=30))
def test_phonemes_either_speak_or_refuse(reading: str) -> None:
    """Any text is either spoken (a syllable for each word, each with its stress and tone) or refused
    with a ValueError that names it: never another error."""
    try:
        said = phonemes(reading)
    except ValueError as error:
        assert "pinyin" in str(error)
        return
    assert len(said.split()) == len(reading.split())
    assert all(re.search(r"(55|35|214|21|51|11)", s) for s in said.split())


@given(
    st.lists(
        st.sampled_from(["yue4", "zhi3", "wu3", "jing3", "an1", "ping2", "qu3", "de5", "xiong2"]),
        min_size=1,
        max_size=8,
    )
)
def test_a_third_tone_is_whole_only_at_the_end(syllables: list[str]) -> None:
    said = phonemes(" ".join(syllables)).split()
    for k, (syllable, spoken) in enumerate(zip(syllables, said, strict=True)):
        if syllable.endswith("3"):
            following = syllables[k + 1][-1] if k + 1 < len(syllables) else None
            tone = {None: "214", "3": "35"}.get(following, "21")
            assert tone in spoken and ("214" not in spoken or tone == "214")
