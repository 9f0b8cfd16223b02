"""The score read from either score witness: 汀州府志's own 樂章 (inline notes) beside 臺灣府志's (bracketed)."""

from __future__ import annotations

import pytest

from dianli.corpus.cite import resolve
from dianli.corpus.normalise import fold
from dianli.errors import DianliError, UnknownValueError
from dianli.music.cues import timeline
from dianli.music.score import (
    emendations,
    movement,
    movement_ids,
    notation_cite,
    parse_inline_pairs,
    parse_score_text,
    score_witness,
    score_witnesses,
    suite,
    witness_movement_info,
)

TAIWAN = "taiwan-fuzhi-9"
TINGZHOU = "tingzhou-fuzhi-11"


def test_the_score_witnesses_are_data_and_001_is_the_default() -> None:
    assert score_witnesses() == (TAIWAN, TINGZHOU)
    assert score_witness() == TAIWAN


@pytest.mark.parametrize(
    ("name", "phrase", "text", "tokens"),
    [
        ("迎神", 1, "大哉至圣", ["太四", "南工", "林尺", "仲上"]),
        ("迎神", 7, "有虔簠簋", ["黄六", "南工", "林尺", "仲上"]),
        ("初獻", 1, "觉我生民", ["太四", "仲上", "林尺", "仲上"]),
        ("初獻", 7, "既述六经", ["太四", "南工", "黄六", "林尺"]),
        ("亞獻", 8, "英才斯植", ["南工", "林尺", "仲上", "太四"]),
        ("終獻", 6, "惟清且旨", ["南工", "林尺", "太四", "仲上"]),
        ("徹饌", 3, "既歆宣圣", ["太四", "南工", "林尺", "仲上"]),
        ("徹饌", 8, "羹墙靡愒", ["黄六", "南工", "林尺", "仲上"]),
        ("送神", 8, "三五是隆", ["南工", "林尺", "仲上", "太四"]),
        ("望瘞", 8, "三五是隆", ["南工", "林尺", "仲上", "太四"]),
    ],
)
def test_tingzhou_phrases_as_the_text_writes_them(
    name: str, phrase: int, text: str, tokens: list[str]
) -> None:
    p = movement(name, TINGZHOU).phrases[phrase - 1]
    assert p.text == text
    assert [c.note.token for c in p.characters] == tokens


@pytest.mark.parametrize("movement_id", movement_ids())
def test_every_movement_has_32_characters_each_quoted_from_its_witness(movement_id: str) -> None:
    mv = movement(movement_id, TINGZHOU)
    assert mv.witness == TINGZHOU
    assert len(mv.characters) == 32
    for c in mv.characters:
        assert c.citation.witness == TINGZHOU
        assert fold(c.citation.quote).startswith(fold(c.char))
        resolve(TINGZHOU, c.citation.quote)


def test_the_default_witness_is_the_same_movement_by_name_or_by_none() -> None:
    assert movement("寧平") is movement("寧平", TAIWAN)
    assert movement("寧平").witness == TAIWAN
    assert suite(TINGZHOU)[1] is movement("chuxian", TINGZHOU)


@pytest.mark.parametrize("bad", ["tingzhou-fuzhi", "fujian-tongzhi-14", "nope"])
def test_a_witness_that_is_no_score_witness_is_refused_with_the_list(bad: str) -> None:
    with pytest.raises(UnknownValueError) as info:
        movement("寧平", bad)
    assert info.value.accepted == list(score_witnesses())


def test_the_emended_note_keeps_its_written_form() -> None:
    (fix,) = emendations(TINGZHOU)
    c = movement("終獻", TINGZHOU).phrases[5].characters[0]
    assert (fix.written, fix.reading) == ("南二", "南工")
    assert (c.char, c.note.token, c.note_as_written) == ("惟", "南工", "南二")
    assert c.note.gongche == "工"
    for cite in (fix.cite, fix.parallel):
        resolve(cite.witness, cite.quote, cite.section)


def test_without_the_emendation_the_written_note_is_refused() -> None:
    info = witness_movement_info("終獻", TINGZHOU)
    body = resolve(TINGZHOU, info.text_cites[5].quote, info.section).quote
    with pytest.raises(DianliError, match="南二"):
        parse_score_text(body * 8, notation="inline", where="test")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("大太四　哉南工", [("大", "太四"), ("哉", "南工")]),
        ("(有乐、无舞)圣！仲上", [("圣", "仲上")]),
        ("功，仲上敷南", [("功", "仲上")]),
    ],
)
def test_inline_pairs_skip_punctuation_and_notes(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(c, n) for c, n, _s, _e in parse_inline_pairs(text)] == expected


@pytest.mark.parametrize("movement_id", [m for m in movement_ids() if m != "wangyi"])
def test_the_cited_lines_are_the_scored_phrases(movement_id: str) -> None:
    info = witness_movement_info(movement_id, TINGZHOU)
    assert info.cite.witness == TINGZHOU
    phrases = movement(movement_id, TINGZHOU).phrases
    assert len(info.text_cites) == len(phrases)
    for cite, phrase in zip(info.text_cites, phrases, strict=True):
        found = resolve(cite.witness, cite.quote, cite.section)
        assert found.text_start == phrase.characters[0].text_start
        assert found.text_end == phrase.characters[-1].text_end


def test_the_notation_and_parallels_resolve() -> None:
    for witness in score_witnesses():
        cite = notation_cite(witness)
        resolve(cite.witness, cite.quote, cite.section)


def test_a_timeline_plays_the_witness_notes_and_says_so() -> None:
    default, other = timeline("徹饌", None), timeline("徹饌", None, TINGZHOU)
    assert default.witness is None
    assert other.witness == TINGZHOU
    sung = [e.lyric for e in other.events if e.rule == "sung" and e.instrument == "voice"]
    assert sung[8:12] == ["既", "歆", "宣", "圣"]
    assert default.duration_s == other.duration_s
