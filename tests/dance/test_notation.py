"""The 舞譜 parser: every character of every dance in every witness parses completely."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.corpus.normalise import fold
from dianli.corpus.sections import find_sections
from dianli.corpus.witnesses import load_witness
from dianli.dance.notation import NotationError, _bare_entries, dance_witnesses
from dianli.dance.notation import movement as dance_movement
from dianli.dance.notation import movements as dance_movements
from dianli.dance.notation import parse_description as parse_dance_description
from dianli.dance.notation import parse_movement as parse_dance
from dianli.errors import DianliError, UnknownValueError

CASES = [(w, m.id) for w in dance_witnesses() for m in dance_movements()]
FIRST_AND_LAST = {
    "chuxian": ("覺", "正"),
    "yaxian": ("至", "植"),
    "zhongxian": ("猗", "喜"),
}


def test_the_witnesses_that_hold_the_dance() -> None:
    assert dance_witnesses() == ("fujian-tongzhi-14", "taiwan-fuzhi-9", "tingzhou-fuzhi-11")


@pytest.mark.parametrize(("witness", "movement"), CASES)
def test_every_character_parses_for_both_ranks(witness: str, movement: str) -> None:
    notes = parse_dance(witness, movement)
    assert len(notes) == 32
    # 汀州府志 writes the simplified script (觉 for 覺): compared on the folding key
    assert (fold(notes[0].char), fold(notes[-1].char)) == tuple(fold(c) for c in FIRST_AND_LAST[movement])
    for note in notes:
        assert note.rank("east") and note.rank("west"), note.char
        for clause in note.clauses:
            assert clause.tokens, f"{note.char}: {clause.rank} has no phrases"
            # nothing skipped: the phrases spell the whole clause (punctuation aside)
            assert "".join(t.text for t in (clause.subject, *clause.tokens)) == clause.text


def test_ninety_six_characters_times_two_ranks_in_each_witness() -> None:
    for witness in dance_witnesses():
        notes = [n for m in dance_movements() for n in parse_dance(witness, m.id)]
        assert len(notes) == 96
        assert sum(1 for n in notes for rank in ("east", "west") if n.rank(rank)) == 192


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("chuxian", "chuxian"),
        ("初獻", "chuxian"),
        ("初献", "chuxian"),
        ("寧平", "chuxian"),
        ("宁平", "chuxian"),
        ("亞獻", "yaxian"),
        ("安平", "yaxian"),
        ("终献", "zhongxian"),
        ("景平", "zhongxian"),
        ("ZhongXian", "zhongxian"),
    ],
)
def test_movement_names_in_either_script(name: str, expected: str) -> None:
    assert dance_movement(name).id == expected


def test_unknown_movement_names_the_value_and_the_accepted() -> None:
    with pytest.raises(UnknownValueError, match="迎神") as info:
        dance_movement("迎神")
    assert "chuxian" in str(info.value) and "寧平" in str(info.value) and "有樂無舞" in str(info.value)


@pytest.mark.parametrize(
    ("description", "unknown"),
    [
        ("東班舞生開籥飛天西班舞生開籥", "飛天"),
        ("東班舞生合籥向上拱蹺籥足", "蹺籥足"),
        ("開籥向上", "開籥向上"),
    ],
)
def test_an_unknown_phrase_is_an_error_that_quotes_it(description: str, unknown: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_dance_description(description)
    assert unknown[:2] in str(info.value)


@pytest.mark.parametrize(
    ("description", "phrases"),
    [
        ("東班舞生，開籥向上，起左手於肩", ["open-yue", "toward", "raise-shoulder"]),
        ("东班舞生开籥向上起左手于肩", ["open-yue", "toward", "raise-shoulder"]),
        ("東班舞生合籥先拱於左次拱於右復拱於上", ["join-yue", "gong-first", "gong-next", "gong-again"]),
        ("東頭三五班舞生轉身向下蹲，身相對拱", ["turn-toward", "crouch", "gong-face-each-other"]),
    ],
)
def test_phrases_are_read_across_script_and_punctuation(description: str, phrases: list[str]) -> None:
    (clause,) = parse_dance_description(description)
    assert [t.phrase for t in clause.tokens] == phrases


def test_the_subsets_of_dancers() -> None:
    notes = parse_dance("fujian-tongzhi-14", "zhongxian")
    zhuo, bi = notes[16], notes[17]
    assert (zhuo.char, bi.char) == ("酌", "彼")
    assert [c.files for c in zhuo.clauses] == [(1, 3, 5), (1, 3, 5)]
    assert [c.files for c in bi.clauses] == [(2, 4, 6), (2, 4, 6)]


def test_emendations_are_recorded_where_they_apply() -> None:
    notes = parse_dance("taiwan-fuzhi-9", "chuxian")
    he = notes[19]
    assert he.char == "和"
    assert [(e.reading, e.read_as) for e in he.emendations] == [("蹺籥足", "蹺右足")]
    assert not any(n.emendations for n in parse_dance("fujian-tongzhi-14", "chuxian"))


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet="東西班舞生頭二三四五六開合交籥翟向上下左右手足於肩蹺點出拱揖，、；abc ", max_size=40)
)
def test_the_parser_never_crashes(text: str) -> None:
    try:
        parse_dance_description(text)
    except DianliError:
        pass


# 汀州府志 卷十一 writes its 舞譜 unbracketed: each sung character followed at once by its description.
@pytest.mark.parametrize(
    ("movement", "index", "char", "east", "west"),
    [
        (
            "chuxian",
            1,
            "觉",
            "东班舞生开龠向上起左手于肩垂右手于下跷右足向前",
            "西班舞生开龠向上起右手于肩垂左手于下跷左足向前",
        ),
        ("chuxian", 7, "前", "东班舞生合龠躬身向上揖", "西班舞生合龠躬身向上揖"),
        ("yaxian", 1, "至", "东班舞生开龠翟蹲身低首", "西班舞生开龠翟蹲身低首"),
        ("zhongxian", 32, "喜", "东班舞生朝南深揖手按于顶三鼓起身", "西班舞生朝南深揖手按于顶三鼓起身"),
    ],
)
def test_the_unbracketed_notation_of_tingzhou(
    movement: str, index: int, char: str, east: str, west: str
) -> None:
    note = parse_dance("tingzhou-fuzhi-11", movement)[index - 1]
    assert (note.index, note.char) == (index, char)
    (e,), (w,) = note.rank("east"), note.rank("west")
    assert (e.text, w.text) == (east, west)


def test_tingzhou_subsets_of_dancers_are_read_like_004s() -> None:
    ours = parse_dance("tingzhou-fuzhi-11", "zhongxian")
    theirs = parse_dance("fujian-tongzhi-14", "zhongxian")
    for k in (16, 17):
        assert [c.files for c in ours[k].clauses] == [c.files for c in theirs[k].clauses]
        assert [[t.phrase for t in c.tokens] for c in ours[k].clauses] == [
            [t.phrase for t in c.tokens] for c in theirs[k].clauses
        ]


@pytest.mark.parametrize(
    ("movement", "index", "char", "reading"),
    [
        ("yaxian", 5, "天", "跷左足。东班舞生"),
        ("yaxian", 20, "醑", "跷左足。东班舞生"),
        ("yaxian", 22, "观", "跷左足。东班舞生"),
        ("yaxian", 26, "和", "面向东。东班舞生"),
        ("zhongxian", 9, "瞻", "面向西。东班舞生"),
    ],
)
def test_tingzhous_second_east_rank_is_emended_to_the_west(
    movement: str, index: int, char: str, reading: str
) -> None:
    note = parse_dance("tingzhou-fuzhi-11", movement)[index - 1]
    assert note.char == char
    assert [(e.reading, e.read_as) for e in note.emendations] == [(reading, reading.replace("东班", "西班"))]
    assert [c.rank for c in note.clauses] == ["east", "west"]
    assert note.rank("west")[0].subject.text == "西班舞生"


def test_a_bracketed_witness_has_no_unbracketed_entries() -> None:
    # the unbracketed reading finds nothing in 001 and 004: their parse is what it was
    for witness in ("taiwan-fuzhi-9", "fujian-tongzhi-14"):
        text = load_witness(witness).norm.text
        assert all(not _bare_entries(text, s.start, s.end, []) for s in find_sections(witness, "wupu"))
