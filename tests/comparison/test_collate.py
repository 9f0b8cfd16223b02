"""The collation model: hand-built cases of the aligner, and the real 社稷 section."""

from __future__ import annotations

import pytest

from dianli.comparison.collate import Collation, Token, _tokens, collate, collate_tokens, resolve_target
from dianli.corpus.normalise import fold, normalise
from dianli.corpus.witnesses import manifest
from dianli.errors import UnknownValueError


def readings(*texts: str) -> list[list[str]]:
    """Per varying column, the folded reading of each witness ('' where it has nothing)."""
    rows = [_tokens(normalise(t), 0, len(normalise(t).text)) for t in texts]
    columns = collate_tokens(rows, [f"w{i}" for i in range(len(texts))], 0)
    return [["".join(t.key for t in cell) for cell in col.cells] for col in columns if not col.agree]


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (("社稷壇在縣西", "社稷坛在县西"), []),  # another script: no difference
        (("凡祭社稷。先期齋戒。", "凡祭社稷，先期斋戒"), []),  # punctuation and script
        (("凡祭社稷先期齋戒陳設", "凡祭社稷前期齋戒陳設"), [["先", "前"]]),  # one character changed
        (("凡祭社稷。陳設如儀。", "凡祭社稷。先期齋戒。陳設如儀。"), [["", "先期斋戒"]]),  # a clause inserted
        (("凡祭社稷。先期齋戒。陳設如儀。", "凡祭社稷。先期齋戒。"), [["陈设如仪", ""]]),  # a clause left out
        (  # a clause moved: left out where it stood, added where it now stands
            ("凡祭社稷。先期齋戒。陳設如儀。", "凡祭社稷。陳設如儀。先期齋戒。"),
            [["", "陈设如仪"], ["陈设如仪", ""]],
        ),
        (  # two witnesses share an addition the third lacks; one of them changes a character in it
            ("甲乙丙丁戊己庚辛", "甲乙丙丁子丑寅卯戊己庚辛", "甲乙丙丁子丑辰卯戊己庚辛"),
            [["", "子丑", "子丑"], ["", "寅", "辰"], ["", "卯", "卯"]],
        ),
    ],
)
def test_hand_built_cases(texts: tuple[str, ...], expected: list[list[str]]) -> None:
    assert readings(*texts) == expected


def test_one_change_is_one_column_between_agreements() -> None:
    rows = [_tokens(normalise(t), 0, len(t)) for t in ("社稷壇在縣西南", "社稷坛在府西南")]
    columns = collate_tokens(rows, ["a", "b"], 0)
    assert [c.agree for c in columns] == [True, False, True]
    assert [r.text for r in columns[1].readings()] == ["縣", "府"]
    assert [r.witnesses for r in columns[0].readings()] == [("a", "b")]
    assert columns[0].readings()[0].spellings == (("社稷壇在", ("a",)), ("社稷坛在", ("b",)))


@pytest.mark.parametrize(
    ("text", "notes", "gaps"),
    [
        ("帛各一（色用黑）樂用鼓吹", "色用黑", 0),
        ("祝文云[OMITTED: 祝文 text]尚饗", "", 1),
    ],
)
def test_tokens_carry_notes_and_gaps(text: str, notes: str, gaps: int) -> None:
    tokens = _tokens(normalise(text), 0, len(normalise(text).text))
    assert "".join(t.key for t in tokens if t.note) == fold(notes)
    gap_tokens = [t for t in tokens if t.gap]
    assert len(gap_tokens) == gaps
    assert all(t.key == "" and t.gap == "omitted" and "祝文" in t.gap_words for t in gap_tokens)
    assert "".join(t.key for t in tokens) == fold(text.replace("[OMITTED: 祝文 text]", ""))


def test_a_gap_never_agrees() -> None:
    texts = ("祝文云[OMITTED: 祝文]尚饗", "祝文云[OMITTED: 祝文]尚饗")
    columns = collate_tokens([_tokens(normalise(t), 0, len(normalise(t).text)) for t in texts], ["a", "b"], 0)
    gap_columns = [c for c in columns if any(t.gap for cell in c.cells for t in cell)]
    assert gap_columns and not any(c.agree for c in gap_columns)


@pytest.fixture(scope="module")
def sheji() -> Collation:
    return collate("社稷")


def test_real_sheji_holds_every_classical_witness_of_the_section(sheji: Collation) -> None:
    ids = [w.id for w in sheji.witnesses]
    assert {"taiwan-fuzhi-9", "fujian-tongzhi-14", "tingzhou-fuzhi-11", "zhuluo-xianzhi-4"} <= set(ids)
    languages = {i.id: i.language for i in manifest()}
    assert {languages[w] for w in ids} == {"classical"}
    assert [w for w, _ in sheji.left_out] == ["fujian-tongzhi-14-modern"]
    years = [w.info.compiled_year for w in sheji.witnesses]
    assert years == sorted(years)
    assert sheji.witness("fujian-tongzhi-14").mid_start
    assert sheji.witness("fujian-tongzhi-14").tokens[0].gap == "lost"


def test_real_sheji_rows_are_the_witnesses_texts(sheji: Collation) -> None:
    for w in sheji.witnesses:
        row = sheji.row(w.id)
        assert "".join(t.key for cell in row for t in cell) == w.key()
        assert len(row) == len(sheji.columns)
    assert sheji.varying
    assert all(any(cell for cell in c.cells) for c in sheji.columns)


@pytest.mark.parametrize(
    ("rite", "section", "expected"),
    [
        ("社稷", None, (("sheji", "sheji"))),
        ("sheji", "sheji.chenshe", ("sheji", "sheji.chenshe")),
        ("祭社稷禮", "陳設祭物圖", ("sheji", "sheji.chenshe")),
        ("chongsheng", None, ("chongsheng", "xianshi.chongsheng")),
        ("學宮", None, (None, "xuegong")),  # a top-level section of the texts that is no rite
    ],
)
def test_targets(rite: str, section: str | None, expected: tuple[str | None, str]) -> None:
    assert resolve_target(rite, section) == expected


@pytest.mark.parametrize(
    ("rite", "section", "accepted"),
    [
        ("no-such-rite", None, "sheji"),
        ("社稷", "no-such-section", "sheji.chenshe (陳設祭物圖)"),
        ("社稷", "xianshi.chenshe", "sheji.chenshe (陳設祭物圖)"),
    ],
)
def test_bad_input_lists_what_is_accepted(rite: str, section: str | None, accepted: str) -> None:
    with pytest.raises(UnknownValueError) as caught:
        resolve_target(rite, section)
    assert accepted in caught.value.accepted


def test_unknown_base_is_refused() -> None:
    with pytest.raises(UnknownValueError) as caught:
        collate("社稷", "sheji.chenshe", base="no-such-witness")
    assert "taiwan-fuzhi-9" in caught.value.accepted


def test_token_char_drops_punctuation() -> None:
    assert Token("壇，", "坛", 0).char == "壇"
