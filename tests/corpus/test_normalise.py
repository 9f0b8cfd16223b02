"""Normalisation keeps the raw text and maps every offset back; the folding key ignores script."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.corpus.normalise import fold, normalise
from dianli.corpus.witnesses import load_witness, witness_ids


@pytest.mark.parametrize(
    ("raw", "text", "key"),
    [
        ("鼓初嚴，率屬具朝服．", "鼓初嚴，率屬具朝服．", "鼓初严率属具朝服"),
        ("　　　　慶賀禮\n\n　　凡遇", "慶賀禮凡遇", "庆贺礼凡遇"),
        ("<font size=-1 color=#5b0012>土牛胎骨</font>", "土牛胎骨", "土牛胎骨"),
        ("bsp; 上諭申飭", "上諭申飭", "上谕申饬"),
        ("译贺表，称颂", "贺表，称颂", "贺表称颂"),
        ("贊詣\n肇聖王神位前", "贊詣肇聖王神位前", "赞诣肇圣王神位前"),
        ("<史部,地理類>", "<史部,地理類>", "史部地理类"),
    ],
)
def test_reading_text_and_key(raw: str, text: str, key: str) -> None:
    norm = normalise(raw)
    assert norm.text == text
    assert norm.key == key
    for t, char in enumerate(norm.text):
        assert norm.raw[norm.text_to_raw[t]] == char


@pytest.mark.parametrize(
    ("a", "b"),
    [("鐘", "钟"), ("鍾", "钟"), ("歟", "欤"), ("啓", "啟"), ("鼔", "鼓"), ("箎", "篪"), ("脩建", "修建"),
     ("臺灣", "台湾"), ("大(太四)哉", "大太四哉")],
)  # fmt: skip
def test_variants_fold_together(a: str, b: str) -> None:
    assert fold(a) == fold(b)


@pytest.mark.parametrize(("a", "b"), [("磐", "磬"), ("宇", "字"), ("左", "右")])
def test_errors_and_opposites_stay_apart(a: str, b: str) -> None:
    assert fold(a) != fold(b)


@pytest.mark.parametrize(
    ("raw", "notes"),
    [
        ("春秋二祭【今郡縣多用上巳日】主祭", [("【", "【今郡縣多用上巳日】")]),
        ("壇(在西北隅)，", [("(", "(在西北隅)")]),
        ("（外（內）外）", [("（", "（外（內）外）"), ("（", "（內）")]),
        ("<font size=-1>小字</font>大字", [("small-print", "小字")]),
        ("(未閉\n\n下段", [("(", "(未閉")]),
    ],
)
def test_note_spans(raw: str, notes: list[tuple[str, str]]) -> None:
    norm = normalise(raw)
    found = sorted((n.kind, norm.text[n.start : n.end]) for n in norm.notes)
    assert found == sorted(notes)


@pytest.mark.parametrize("witness", witness_ids())
def test_witness_views_are_consistent(witness: str) -> None:
    norm = load_witness(witness).norm
    assert len(norm.text_to_raw) == len(norm.text) + 1
    assert len(norm.key_to_text) == len(norm.key) + 1
    assert list(norm.text_to_raw) == sorted(norm.text_to_raw)
    assert all(0 <= n.start < n.end <= len(norm.text) for n in norm.notes)


def test_small_print_of_001_is_marked() -> None:
    norm = load_witness("taiwan-fuzhi-9").norm
    small = [n for n in norm.notes if n.kind == "small-print"]
    assert len(small) == 24
    assert norm.text[small[0].start : small[0].start + 3] == "表箋式"


def test_non_string_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        normalise(b"bytes")  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("鐘钟禮礼【】()（）<>font/=\n\u3000 ．。，『』“”译bsp;&abc1")),
        max_size=80,
    )
)
def test_normalise_never_crashes_and_offsets_stay_inside(raw: str) -> None:
    norm = normalise(raw)
    assert norm.raw == raw
    assert all(0 <= r < len(raw) for r in norm.text_to_raw[:-1])
    assert all(0 <= t < len(norm.text) for t in norm.key_to_text[:-1])
    assert all(0 <= n.start <= n.end <= len(norm.text) for n in norm.notes)
    for t in range(len(norm.text)):
        assert raw[norm.text_to_raw[t]] == norm.text[t]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_normalise_any_unicode(raw: str) -> None:
    norm = normalise(raw)
    assert len(norm.key) <= len(norm.text) <= len(raw)


# --- the table of folded ideographs, kept on disk ---------------------------------------------------------


@pytest.mark.parametrize(
    ("char", "folded"),
    [
        ("國", "国"),  # OpenCC: traditional → simplified
        ("禮", "礼"),
        ("国", "国"),  # already simplified: itself
        ("㐀", "㐀"),  # Extension A, folding to itself
        ("A", "A"),  # a letter of an id
        ("𠀀", "𠀀"),  # Extension B, beyond the table: by the rules
    ],
)
def test_a_character_folds_as_the_rules_fold_it(char: str, folded: str) -> None:
    from dianli.corpus import normalise

    assert normalise.fold_char(char) == normalise._fold_by_rules(char) == folded


def test_the_table_holds_every_character_that_folds_to_another() -> None:
    from dianli.corpus import normalise, simplified

    table = normalise._fold_table()
    for first, last in simplified.TABLED:
        for code in range(first, last + 1, 7):  # every seventh: the rules are slow one by one
            char = chr(code)
            assert table.get(char, char) == normalise._fold_by_rules(char), char
    assert all(folded != char for char, folded in table.items())


def test_the_tables_are_made_as_the_rules_make_them_one_character_at_a_time() -> None:
    """The tables made the fast way (OpenCC once over every character; the folding rules only where they can
    change one) are those the rules give character by character over the whole plane."""
    from dianli.corpus import normalise, simplified

    assert simplified._make_table() == simplified.table_of(simplified.by_opencc)
    assert normalise._make_fold_table() == simplified.table_of(normalise._fold_by_rules)


def test_a_warm_run_folds_without_opencc(
    cold_and_warm: Callable[..., tuple[Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from dianli.corpus import normalise, simplified

    cold, warm = cold_and_warm(normalise._fold_table)
    assert cold == warm and cold["禮"] == "礼"

    def refuse() -> object:
        raise AssertionError("OpenCC loaded although the table is on disk")

    monkeypatch.setattr(simplified, "_opencc_t2s", refuse)
    normalise._fold_table.cache_clear()
    normalise.fold_char.cache_clear()
    assert fold("祀先師禮") == "祀先师礼"
    normalise.fold_char.cache_clear()  # forget what was folded without OpenCC in reach


@pytest.mark.parametrize("char", ["國", "禮", "国", "㐀", "A", "𠀀", "龜", "丽"])
def test_a_character_is_simplified_as_opencc_simplifies_it(char: str) -> None:
    from dianli.corpus import simplified

    assert simplified.simplified(char) == simplified.by_opencc(char)


def test_the_simplified_table_holds_every_character_opencc_changes() -> None:
    from dianli.corpus import simplified

    table = simplified._table()
    for first, last in simplified.TABLED:
        for code in range(first, last + 1, 7):
            char = chr(code)
            assert table.get(char, char) == simplified.by_opencc(char), char
