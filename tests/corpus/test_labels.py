"""Reader labels of corpus ids: witnesses by short title (told apart), sections by heading, ids in lines."""

from __future__ import annotations

import pytest

from dianli.corpus.labels import name_ids, section_label, witness_label, witness_labels
from dianli.corpus.witnesses import witness_ids


def test_every_witness_has_its_own_label() -> None:
    labels = [witness_label(w) for w in witness_ids()]
    assert len(set(labels)) == len(labels), labels
    assert not set(labels) & set(witness_ids())


@pytest.mark.parametrize(
    ("witness", "label"),
    [
        ("taiwan-fuzhi-9", "臺灣府志"),
        ("gemalan-tingzhi-3", "噶瑪蘭廳志"),
        # two juan of one book share the short title 汀州府志: each reads as its full title
        ("tingzhou-fuzhi", "汀州府志 典禮"),
        ("tingzhou-fuzhi-11", "汀州府志 卷之十一"),
        ("no-such-witness", "no-such-witness"),  # an unknown id is shown as it is, never hidden
    ],
)
def test_witness_label(witness: str, label: str) -> None:
    assert witness_label(witness) == label


def test_witness_labels_join() -> None:
    assert witness_labels(["taiwan-fuzhi-9", "gemalan-tingzhi-3"]) == "臺灣府志、噶瑪蘭廳志"
    assert witness_labels("taiwan-fuzhi-9") == "臺灣府志"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("taiwan-fuzhi-9 (cisi.taiwanfu)", "臺灣府志 (臺灣府)"),
        ("see xianshi.jiqi-vessels", f"see {section_label('xianshi.jiqi-vessels')}"),
        ("plain words-with-hyphens stay", "plain words-with-hyphens stay"),
    ],
)
def test_name_ids(text: str, expected: str) -> None:
    assert name_ids(text) == expected
