"""Readings inherit: a witness's reading is the shared base plus its own; what it does not state is
inherited from its reading chain and marked so — never a crash."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.errors import DataError, UnknownValueError
from dianli.rites.load import all_rites
from dianli.rites.readings import apply_reading, reading_chain, witnesses_with_rite
from dianli.rites.render import to_data as rite_to_data
from dianli.rites.resolve import inherited_from, resolve_rite


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


# A reading that gives a date rule keeps the base's related days of that rule unless it states its own.
# 晉江縣志 states the 社稷 day (「于春秋二仲月上戊日致祭」) and no 齋戒 or 省牲: they are the base's, as in the
# 臺灣府志 that reads the same rule (before, 晉江縣 had its 2 rite days and none of the 8 related ones).
JINJIANG_SHEJI_1830 = [
    ("1830-02-28", "齋戒（春祭社稷（仲春上戊））", "taiwan-fuzhi-9"),
    ("1830-03-01", "齋戒（春祭社稷（仲春上戊））", "taiwan-fuzhi-9"),
    ("1830-03-02", "齋戒（春祭社稷（仲春上戊））", "taiwan-fuzhi-9"),
    ("1830-03-02", "省牲、治祭物（春祭社稷（仲春上戊））", "taiwan-fuzhi-9"),
    ("1830-03-03", "春祭社稷（仲春上戊）", "jinjiang-xianzhi-15"),
    ("1830-09-16", "齋戒（秋祭社稷（仲秋上戊））", "taiwan-fuzhi-9"),
    ("1830-09-17", "齋戒（秋祭社稷（仲秋上戊））", "taiwan-fuzhi-9"),
    ("1830-09-18", "齋戒（秋祭社稷（仲秋上戊））", "taiwan-fuzhi-9"),
    ("1830-09-18", "省牲、治祭物（秋祭社稷（仲秋上戊））", "taiwan-fuzhi-9"),
    ("1830-09-19", "秋祭社稷（仲秋上戊）", "jinjiang-xianzhi-15"),
]


def test_a_reading_of_the_day_keeps_the_preparation_days() -> None:
    from dianli.rites.observances import observances_for

    found = [(o.day.isoformat(), o.name, o.cite.witness) for o in observances_for("晉江縣", 1830, ["sheji"])]
    assert found == JINJIANG_SHEJI_1830


@pytest.mark.parametrize(
    ("witness", "rite", "rule", "related"),
    [
        # states no related day: the base's (臺灣府志 「主祭官，前三日齋戒」, 「將祭之前一日，省牲」)
        ("jinjiang-xianzhi-15", "sheji", "sheji-spring", [("齋戒", [-3, -2, -1]), ("省牲、治祭物", [-1])]),
        ("miaoli-xianzhi-10", "litan", "litan-qingming", [("牒告本處城隍（先期三日）", [-3])]),
        # states its own: 噶瑪蘭廳志 「致齋三日」, 「祭之前夕」 割牲
        ("gemalan-tingzhi-3", "sheji", "sheji-spring", [("致齋三日", [-3, -2, -1]), ("祭之前夕 割牲", [-1])]),
        # states there is none (鳳山縣志's 旗纛 reading gives ``related: []``)
        ("fengshan-xianzhi-3", "qidao", "qidao", []),
    ],
)
def test_related_days_of_a_read_rule(
    witness: str, rite: str, rule: str, related: list[tuple[str, list[int]]]
) -> None:
    from dianli.rites.readings import rites_for

    found = next(r for r in rites_for(witness)[rite].date_rule if r.id == rule)
    assert [(r.name, list(r.offsets)) for r in found.related] == related


def test_every_quote_of_a_reading_is_checked_where_it_loads() -> None:
    """The element of a quote is named by its id (or kind, name, function) and the problem by the file, the
    element, the quote and the closest passage."""
    from dianli.rites.readings import quote_problems

    patch = {
        "id": "litan",
        "officiants": [
            {"function": "主祭", "office": "同知", "cite": {"witness": "taiwan-fuzhi-9", "quote": "主祭官，前三日齋戒"}},
            {"function": "陪祭", "office": "通判", "cite": {"witness": "taiwan-fuzhi-9", "quote": "通判陪祭於壇北門外"}},
        ],
    }  # fmt: skip
    problems = list(quote_problems("readings/litan.yaml", "rite 'litan'", patch))
    assert len(problems) == 1
    assert problems[0].startswith(
        "readings/litan.yaml: rite 'litan': officiants[陪祭].cite: quote '通判陪祭於壇北門外'"
    )
    assert "not found in witness 'taiwan-fuzhi-9'; closest passage: '" in problems[0]


def _cites_in(node: object) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        own = [node] if isinstance(node.get("witness"), str) and isinstance(node.get("quote"), str) else []
        return own + [c for v in node.values() for c in _cites_in(v)]
    if isinstance(node, list):
        return [c for v in node for c in _cites_in(v)]
    return []


def test_quotes_of_finds_every_citation_at_any_depth() -> None:
    """Any nesting of mappings and lists (as YAML gives): every mapping with a string ``witness`` and
    ``quote`` is found once, in document order, with a path that names where it is."""
    from dianli.rites.readings import quotes_of

    keys = st.sampled_from(["witness", "quote", "section", "id", "kind", "name", "cite", "steps", "x"])
    leaves = st.one_of(st.text(max_size=4), st.integers(), st.none())
    tree = st.recursive(
        leaves,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=5)),
        max_leaves=30,
    )

    @settings(max_examples=200, deadline=None)
    @given(tree)
    def check(node: object) -> None:
        found = list(quotes_of(node))
        assert [c for _, c in found] == _cites_in(node)
        assert all(isinstance(path, str) for path, _ in found)

    check()
