"""The east/west mirror rule, with the asymmetry list as a golden file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dianli.api import dance_asymmetries, dance_asymmetries_json, dance_emendations
from dianli.dance.mirror import mirror_word

GOLDEN = Path(__file__).parents[1] / "golden" / "dance" / "asymmetries.json"
REGEN = os.environ.get("DIANLI_REGEN_GOLDENS") == "1"


def _current() -> dict[str, object]:
    return {
        "asymmetries": dance_asymmetries_json(),
        "emendations": [
            {
                "witness": e.witness,
                "movement": e.movement,
                "char": e.char,
                "reading": e.reading,
                "read_as": e.read_as,
            }
            for e in dance_emendations()
        ],
    }


def test_asymmetries_golden() -> None:
    current = _current()
    if REGEN or not GOLDEN.exists():
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(current, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        if not REGEN:
            pytest.fail(f"golden {GOLDEN} was missing and has been written; check it and commit it")
    assert current == json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_one_asymmetry_is_a_copying_error_of_001() -> None:
    (asym,) = dance_asymmetries()
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
