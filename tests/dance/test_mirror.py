"""The east/west mirror rule, with the asymmetry list as a golden file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dianli.dance.mirror import asymmetries as dance_asymmetries
from dianli.dance.mirror import asymmetries_json as dance_asymmetries_json
from dianli.dance.mirror import mirror_word
from dianli.dance.notation import emendations as dance_emendations
from dianli.errors import UnknownValueError

GOLDENS = Path(__file__).parents[1] / "golden" / "dance"
REGEN = os.environ.get("DIANLI_REGEN_GOLDENS") == "1"
# The two witnesses the dance was first parsed from: their list must not change when a witness is added.
FIRST_TWO = ("fujian-tongzhi-14", "taiwan-fuzhi-9")


def _current(witnesses: tuple[str, ...] | None) -> dict[str, object]:
    return {
        "asymmetries": dance_asymmetries_json(witnesses),
        "emendations": [
            {
                "witness": e.witness,
                "movement": e.movement,
                "char": e.char,
                "reading": e.reading,
                "read_as": e.read_as,
            }
            for e in dance_emendations()
            if witnesses is None or e.witness in witnesses
        ],
    }


@pytest.mark.parametrize(
    ("golden", "witnesses"),
    [("asymmetries.json", FIRST_TWO), ("asymmetries-all.json", None)],
)
def test_asymmetries_golden(golden: str, witnesses: tuple[str, ...] | None) -> None:
    path = GOLDENS / golden
    current = _current(witnesses)
    text = json.dumps(current, ensure_ascii=False, indent=2) + "\n"
    if REGEN or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not REGEN:
            pytest.fail(f"golden {path} was missing and has been written; check it and commit it")
    assert text == path.read_text(encoding="utf-8")


def test_the_one_asymmetry_of_the_first_two_witnesses_is_a_copying_error_of_001() -> None:
    (asym,) = dance_asymmetries(FIRST_TWO)
    assert (asym.movement, asym.index) == ("chuxian", 29)
    by_witness = {r.witness: r for r in asym.readings}
    assert by_witness["fujian-tongzhi-14"].mirrors
    taiwan = by_witness["taiwan-fuzhi-9"]
    assert not taiwan.mirrors
    assert [(d.west, d.expected_west) for d in taiwan.differences] == [("蹺右足", "蹺左足")]
    assert "copying error" in asym.verdict


@pytest.mark.parametrize(
    ("slot", "word", "mirrored"),
    [
        ("side", "左", "右"),
        ("rank", "東", "西"),
        ("facing", "西", "東"),
        ("facing", "上", "上"),
        ("implement", "籥", "翟"),
    ],
)
def test_mirror_words(slot: str, word: str, mirrored: str) -> None:
    assert mirror_word(slot, word) == mirrored


def test_tingzhou_breaks_the_mirror_only_at_duo_and_wan_of_yaxian() -> None:
    found = {(a.movement, a.index): a for a in dance_asymmetries()}
    assert sorted(found) == [("chuxian", 29), ("yaxian", 10), ("yaxian", 11)]
    assert "only in taiwan-fuzhi-9" in found[("chuxian", 29)].verdict
    for index, char, west, expected in [
        (10, "铎", "举龠齐眉举翟平衡", "举翟齐眉举籥平衡"),
        (11, "万", "举翟齐眉举龠平衡", "举籥齐眉举翟平衡"),
    ]:
        asym = found[("yaxian", index)]
        assert asym.verdict == "only in tingzhou-fuzhi-11: likely a copying error"
        by_witness = {r.witness: r for r in asym.readings}
        assert by_witness["fujian-tongzhi-14"].mirrors and by_witness["taiwan-fuzhi-9"].mirrors
        tingzhou = by_witness["tingzhou-fuzhi-11"]
        assert tingzhou.char == char
        assert [(d.west, d.expected_west) for d in tingzhou.differences] == [(west, expected)]


def test_asymmetries_of_an_unknown_witness_name_it() -> None:
    with pytest.raises(UnknownValueError, match="tingzhou-fuzhi") as info:
        dance_asymmetries(("tingzhou-fuzhi",))
    assert "taiwan-fuzhi-9" in str(info.value)
