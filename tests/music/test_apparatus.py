"""The apparatus of the 樂章: 汀州府志 (tingzhou-fuzhi-11) collated with 臺灣府志 (taiwan-fuzhi-9)."""

from __future__ import annotations

import json

import pytest

from dianli.corpus.cite import resolve
from dianli.errors import UnknownValueError
from dianli.music.apparatus import apparatus, apparatus_json, collatable_witnesses

TAIWAN = "taiwan-fuzhi-9"
TINGZHOU = "tingzhou-fuzhi-11"


def test_every_score_witness_but_the_default_is_collated() -> None:
    assert collatable_witnesses() == (TINGZHOU,)


@pytest.mark.parametrize(
    ("movement_id", "compared", "characters", "notes"),
    [
        ("yingshen", 32, 0, 0),
        ("chuxian", 32, 0, 0),
        ("yaxian", 32, 0, 0),
        ("zhongxian", 32, 0, 1),
        ("chezhuan", 32, 1, 0),
        ("songshen", 32, 0, 0),
        ("wangyi", 0, 0, 0),
    ],
)
def test_counts_per_movement(movement_id: str, compared: int, characters: int, notes: int) -> None:
    (a,) = apparatus(movement_id)
    assert (a.base, a.witness) == (TAIWAN, TINGZHOU)
    assert (a.compared, a.characters_differing, a.notes_differing) == (compared, characters, notes)
    assert a.characters_unencoded == (1 if movement_id in ("yingshen", "chezhuan") else 0)


@pytest.mark.parametrize(
    ("movement_id", "phrase", "position", "kinds", "base", "other"),
    [
        # 001 writes 簠 and 羹 as glyphs its digitised text could not encode (private use): not compared.
        (
            "yingshen",
            7,
            3,
            ("unencoded",),
            ("", "[簠]", "林尺", "(南工)\ueac7(林尺)"),
            ("簠", "簠", "林尺", "簠林尺"),
        ),
        ("zhongxian", 6, 1, ("gongche",), ("惟", "惟", "南工", "惟(南工)"), ("惟", "惟", "南二", "惟南二")),
        ("chezhuan", 3, 3, ("character",), ("先", "先", "林尺", "先(林尺)"), ("宣", "宣", "林尺", "宣林尺")),
        (
            "chezhuan",
            8,
            1,
            ("unencoded",),
            ("", "[羹]", "黃六", "林尺)，\uee13(黃六)"),
            ("羹", "羹", "黄六", "羹黄六"),
        ),
    ],
)
def test_the_known_differences(
    movement_id: str,
    phrase: int,
    position: int,
    kinds: tuple[str, ...],
    base: tuple[str, str, str, str],
    other: tuple[str, str, str, str],
) -> None:
    (a,) = apparatus(movement_id)
    (v,) = [v for v in a.variants if (v.phrase, v.position) == (phrase, position)]
    assert v.kinds == kinds
    assert (v.base.char, v.base.display, v.base.note, v.base.cite.quote) == base
    assert (v.other.char, v.other.display, v.other.note, v.other.cite.quote) == other


def test_four_positions_in_all_and_every_quote_resolves_in_its_witness_and_section() -> None:
    variants = [v for a in apparatus() for v in a.variants]
    assert len(variants) == 4
    for v in variants:
        for reading, witness in ((v.base, TAIWAN), (v.other, TINGZHOU)):
            assert reading.cite.witness == witness
            resolve(witness, reading.cite.quote, reading.cite.section)


def test_the_emended_note_and_the_missing_characters_are_remarked() -> None:
    remarks = {(a.info.id, v.phrase, v.position): v.remark for a in apparatus() for v in a.variants}
    assert "南二 is sung 南工 (an assumption" in remarks[("zhongxian", 6, 1)]
    assert remarks[("yingshen", 7, 3)] == (
        "taiwan-fuzhi-9 writes the note after a glyph its digitised text could not encode (U+EAC7); "
        "the modern translation (a gloss) reads 簠, as tingzhou-fuzhi-11 writes"
    )
    assert remarks[("chezhuan", 3, 3)] == ""


def test_json_round_trip() -> None:
    data = json.loads(apparatus_json(apparatus("徹饌")))
    assert [(v["phrase"], v["position"]) for v in data[0]["variants"]] == [(3, 3), (8, 1)]
    assert (data[0]["characters_differing"], data[0]["characters_unencoded"]) == (1, 1)


@pytest.mark.parametrize(("witness", "accepted"), [(TAIWAN, [TINGZHOU]), ("nope", [TAIWAN, TINGZHOU])])
def test_a_witness_that_cannot_be_collated_is_refused(witness: str, accepted: list[str]) -> None:
    with pytest.raises(UnknownValueError) as info:
        apparatus(None, witness)
    assert info.value.accepted == accepted
