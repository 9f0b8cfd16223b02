"""Each cue rule's words against its timing: who waits to hear whom (聽…既發, 聽…響畢), what is done when
a 通 is over (…通畢), and how long a movement's audio — and so the dance player — runs."""

from __future__ import annotations

import pytest

from dianli.dance.animate import animation_data
from dianli.dance.timing import character_timing as dance_timing
from dianli.music.cues import suite_timeline, timeline
from dianli.music.render import movement_audio_seconds, render_movement_samples

RATE = 8000


def _at(movement_id: str, rule: str, phrase: int = 1, character: int = 1) -> float:
    return next(
        e.time_s
        for e in timeline(movement_id).events
        if e.rule == rule and e.phrase == phrase and e.character == character
    )


@pytest.mark.parametrize(
    ("later", "earlier", "words"),
    [
        ("gezhong", "sung", "聽歌聲既發，即擊一聲"),  # 登歌鐘 after the voice has begun
        ("muduo", "sung", "聽堂下樂既發聲，即搖一聲"),
        ("xianggu", "muduo", "每搖鐸一響，則擊鼓一聲以應之"),
        ("geqing", "sung", "每奏一字之終，即擊一聲"),
        ("bofu", "geqing", "聽歌聲響畢，即拍搏拊一聲"),
        ("tiangu", "bofu", "速敲田鼓應之"),
    ],
)
@pytest.mark.parametrize(("phrase", "character"), [(1, 1), (4, 3), (8, 4)])
def test_a_player_who_listens_strikes_after(
    later: str, earlier: str, words: str, phrase: int, character: int
) -> None:
    assert words
    assert _at("chuxian", later, phrase, character) > _at("chuxian", earlier, phrase, character)


@pytest.mark.parametrize("rule", ["gezhong", "muduo"])
def test_heard_strokes_fall_inside_the_character(rule: str) -> None:
    tl = timeline("yaxian")
    sung = {(e.phrase, e.character): e for e in tl.events if e.rule == "sung" and e.instrument == "voice"}
    for e in (e for e in tl.events if e.rule == rule):
        voice = sung[(e.phrase, e.character)]
        assert voice.time_s < e.time_s < voice.time_s + voice.duration_s


@pytest.mark.parametrize(
    ("label", "rule"),
    [
        ("初起：卷班", "tuogu_qigu_open"),
        ("第一通畢：升堂", "tuogu_tong1_open"),
        ("第二通畢：入室", "tuogu_tong2_open"),
        ("第三通畢：就位", "tuogu_tong3_open"),
        ("第三通畢：拜辭而散", "tuogu_tong3_close"),
    ],
)
def test_the_musicians_move_when_the_words_say(label: str, rule: str) -> None:
    tl = suite_timeline()
    action = next(e for e in tl.events if e.kind == "action" and e.label == label)
    strokes = [e for e in tl.events if e.rule == rule and e.kind == "stroke"]
    if "畢" in label:  # 第一通畢，俱升堂: after the last stroke of the 通
        assert action.time_s >= max(e.time_s + e.duration_s for e in strokes) - 1e-9
    else:  # 初起，樂生卷班: as it begins
        assert action.time_s == pytest.approx(min(e.time_s for e in strokes))


@pytest.mark.parametrize("movement_id", ["chuxian", "yaxian", "zhongxian"])
def test_dance_runs_to_the_end_of_the_audio(movement_id: str) -> None:
    seconds = movement_audio_seconds(movement_id)
    samples = render_movement_samples(movement_id, RATE)
    assert seconds == pytest.approx(len(samples) / RATE, abs=1 / RATE)
    timing = dance_timing(movement_id)
    assert timing.duration_s == pytest.approx(seconds, abs=1e-3)
    assert timing.duration_s > timing.spans_s[-1][1] + 10  # the closing strokes after the last character
    assert animation_data(movement_id)["timing"]["total_s"] == pytest.approx(seconds, abs=1e-3)


def test_chuxian_audio_is_155_8_seconds() -> None:
    assert movement_audio_seconds("chuxian") == pytest.approx(155.8)
    assert dance_timing("chuxian").spans_s[-1][1] == pytest.approx(138.0)
