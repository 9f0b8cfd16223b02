"""The manifest describes the five files; the package carries them unchanged."""

from __future__ import annotations

from importlib import resources

import pytest

from dianli.api import UnknownValueError, load_witness, manifest, witness_ids
from dianli.corpus.witnesses import FRAGMENT_SEPARATOR

EXPECTED = {
    "fujian-tongzhi-14": (
        ["003_0d64ae3018f5097c.txt", "004_b8efe50b3f1af946.txt"],
        "traditional",
        "classical",
    ),
    "fujian-tongzhi-14-modern": (["000_e1adf0d084ad04ec.txt"], "simplified", "modern"),
    "taiwan-fuzhi-9": (["001_4c9879b1f5e707b1.txt"], "traditional", "classical"),
    "tingzhou-fuzhi": (["002_1b7263fea57d830b.txt"], "simplified", "classical"),
}


def test_ids() -> None:
    assert sorted(witness_ids()) == sorted(EXPECTED)


@pytest.mark.parametrize("witness", sorted(EXPECTED))
def test_fragments_are_the_files_unchanged(witness: str) -> None:
    files, script, language = EXPECTED[witness]
    wit = load_witness(witness)
    assert [f.file for f in wit.fragments] == files
    assert (wit.info.script, wit.info.language) == (script, language)
    data = resources.files("dianli.corpus") / "data"
    assert wit.raw == FRAGMENT_SEPARATOR.join((data / f).read_text(encoding="utf-8") for f in files)
    for fragment in wit.fragments:
        assert wit.raw[fragment.start : fragment.end] == (data / fragment.file).read_text(encoding="utf-8")
        assert wit.fragment_at(fragment.start) == fragment


def test_translation_points_at_its_original() -> None:
    info = {i.id: i for i in manifest()}
    assert info["fujian-tongzhi-14-modern"].translation_of == "fujian-tongzhi-14"
    assert info["fujian-tongzhi-14-modern"].authority == "gloss"


def test_attribution_is_shipped() -> None:
    readme = (resources.files("dianli.corpus") / "data" / "README.md").read_text(encoding="utf-8")
    for files, _, _ in EXPECTED.values():
        for file in files:
            assert file in readme


def test_unknown_witness_lists_the_ids() -> None:
    with pytest.raises(UnknownValueError) as info:
        load_witness("fujian")
    assert all(w in str(info.value) for w in EXPECTED)
