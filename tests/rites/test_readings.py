"""Readings inherit: a witness's reading is the shared base plus its own; what it does not state is
inherited from its reading chain and marked so — never a crash."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dianli.api import (
    DataError,
    UnknownValueError,
    all_rites,
    inherited_from,
    reading_chain,
    resolve_rite,
    rite_to_data,
    witnesses_with_rite,
)
from dianli.rites.readings import apply_reading


@pytest.mark.parametrize(
    ("witness", "chain"),
    [
        ("fujian-tongzhi-14", ("fujian-tongzhi-14", "fujian-tongzhi-14-modern")),
        ("fujian-tongzhi-14-modern", ("fujian-tongzhi-14-modern", "fujian-tongzhi-14")),
        ("taiwan-fuzhi-9", ("taiwan-fuzhi-9",)),
        ("tingzhou-fuzhi", ("tingzhou-fuzhi", "fujian-tongzhi-14", "fujian-tongzhi-14-modern")),
    ],
)
def test_reading_chain(witness: str, chain: tuple[str, ...]) -> None:
    assert reading_chain(witness) == chain


def test_a_witness_nobody_lists_inherits_instead_of_crashing() -> None:
    """Was: "altar 'xizhe': field like: no altar 'dongzhe'" for the modern translation."""
    r = resolve_rite("祀先師", "臺灣府", 1752, witness="fujian-tongzhi-14-modern")
    altars = {a.id: a for a in r.altars}
    assert {"dongzhe", "xizhe"} <= set(altars)
    # the translation's base is its original: it takes 福建通志's reading of the 東西哲 tables
    assert altars["dongzhe"].witnesses == ("fujian-tongzhi-14",)


@pytest.mark.parametrize(
    ("rite", "place", "witness"),
    [
        ("xianshi", "臺灣府", "tingzhou-fuzhi"),
        ("xianshi", "福州府", "fujian-tongzhi-14-modern"),
        ("gengji", "福州府", "fujian-tongzhi-14"),
    ],
)
def test_inherited_elements_are_marked(rite: str, place: str, witness: str) -> None:
    r = resolve_rite(rite, place, 1752, witness=witness)
    data = rite_to_data(r)
    marked = [s for s in data["steps"] if "inherited_from" in s]
    assert marked, "a witness that does not state everything inherits something"
    for step in marked:
        assert step["inherited_from"] != witness
        assert witness not in {c["witness"] for c in step["citations"]}
    stated = [s for s in data["steps"] if "inherited_from" not in s]
    assert all(witness in {c["witness"] for c in s["citations"]} or not s["citations"] for s in stated)


@pytest.mark.parametrize(
    ("witness", "variant", "expected"),
    [
        # 望瘞 call: 臺灣府志 alone has its own; 汀州府志 reads with 福建通志
        ("taiwan-fuzhi-9", "wangyi-call", ("taiwan-fuzhi-9",)),
        ("tingzhou-fuzhi", "wangyi-call", ("fujian-tongzhi-14", "tingzhou-fuzhi")),
        ("fujian-tongzhi-14-modern", "wangyi-call", ("fujian-tongzhi-14", "tingzhou-fuzhi")),
    ],
)
def test_one_reading_per_point(witness: str, variant: str, expected: tuple[str, ...]) -> None:
    r = resolve_rite("xianshi", "臺灣府", 1752, witness=witness)
    readings = {n.step.witnesses for n in r.steps if n.step.variant == variant}
    assert readings == {expected}


def test_stated_elements_are_not_marked() -> None:
    r = resolve_rite("xianshi", "臺灣府", 1752)
    assert r.witness == "taiwan-fuzhi-9"
    cited_here = [n.step for n in r.steps if any(c.witness == "taiwan-fuzhi-9" for c in n.step.citations)]
    assert cited_here and all(inherited_from(s, r.witness) is None for s in cited_here)


def test_text_output_says_not_stated() -> None:
    from dianli.corpus.labels import witness_label
    from dianli.rites.render import source_label

    r = resolve_rite("xianshi", "臺灣府", 1752, witness="tingzhou-fuzhi")
    step = next(n.step for n in r.steps if inherited_from(n.step, r.witness))
    source = inherited_from(step, r.witness)
    assert source is not None
    # named by short titles for a reader, never by ids (#14)
    assert source_label(step, r.witness).startswith(
        f"not stated in {witness_label(r.witness)}; from {witness_label(source)}"
    )


def test_a_witness_without_the_rite_is_a_clear_error() -> None:
    holders = witnesses_with_rite("wanshouting")
    assert "taiwan-fuzhi-9" in holders and "tingzhou-fuzhi" not in holders
    with pytest.raises(UnknownValueError) as err:
        resolve_rite("wanshouting", "臺灣府", 1752, witness="tingzhou-fuzhi")
    assert "tingzhou-fuzhi" in str(err.value) and "taiwan-fuzhi-9" in str(err.value)


def test_apply_reading_replaces_fields_and_merges_parts() -> None:
    base = all_rites()["litan"]
    patch = {
        "id": "litan",
        "date_rule": [
            {
                "id": "litan-zhongyuan",
                "name": "秋祭厲壇",
                "rule": {"kind": "lunar_day", "month": 7, "day": 15},
                "assumption": "test patch",
            }
        ],
        "parts": [{"id": "new-part", "title": "新", "assumption": "test patch", "steps": []}],
    }
    read = apply_reading(base, patch, "test.yaml")
    assert [r.id for r in read.date_rule] == ["litan-zhongyuan"]
    assert [p.id for p in read.parts][: len(base.parts)] == [p.id for p in base.parts]
    assert read.parts[-1].id == "new-part"
    assert read.officiants == base.officiants


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"id": "litan", "date_rules": []}, "unknown field 'date_rules'"),
        ({"id": "litan", "date_rule": [{"id": "x", "name": "x"}]}, "litan"),
    ],
)
def test_apply_reading_errors_name_file_and_field(patch: dict[str, object], message: str) -> None:
    with pytest.raises(DataError) as err:
        apply_reading(all_rites()["litan"], patch, "readings/litan.yaml")
    assert "readings/litan.yaml" in str(err.value) and message in str(err.value)


@pytest.mark.parametrize("witness", ["taiwan-xianzhi-6", "tingzhou-fuzhi-11", "gemalan-tingzhi-3"])
def test_a_cached_alignment_gives_the_citations_a_cold_read_gives(
    witness: str, cold_and_warm: Callable[..., Any]
) -> None:
    from dianli.rites import readings

    cold, warm = cold_and_warm(readings.aligned_citations, witness)
    assert warm == cold and cold
    assert all(c.witness == witness for cites in warm.values() for c in cites)
