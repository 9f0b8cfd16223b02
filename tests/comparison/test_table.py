"""comparison.table: the correspondence table — who states which element, where, with which value."""

from __future__ import annotations

import itertools

import pytest

from dianli.comparison.table import PROVENANCES, Statement, _build, table
from dianli.comparison.values import KINDS, Value
from dianli.corpus.cite import resolve
from dianli.corpus.normalise import fold
from dianli.corpus.witnesses import witness_ids


@pytest.fixture(scope="module")
def statements() -> tuple[Statement, ...]:
    return table().statements


def test_cached_table_equals_a_cold_build(statements: tuple[Statement, ...]) -> None:
    assert _build() == statements


def test_every_statement_is_well_formed(statements: tuple[Statement, ...]) -> None:
    ids = set(witness_ids())
    for s in statements:
        assert s.witness in ids and s.provenance in PROVENANCES and s.kind in KINDS
        assert s.value and 0 <= s.start < s.end


def test_every_provenance_but_draft_is_present(statements: tuple[Statement, ...]) -> None:
    assert {s.provenance for s in statements} >= {"cited", "read", "aligned"}


@pytest.mark.parametrize("index", [0, 100, 1000, 3000, -1])
def test_a_statement_quotes_its_witness_where_it_says(statements: tuple[Statement, ...], index: int) -> None:
    s = statements[index]
    found = resolve(s.witness, s.quote, s.section)
    assert (found.text_start, found.text_end) == (s.start, s.end)


FACTS = [
    # (witness, rite, kind, value): facts the witnesses state in their own words
    ("fengshan-xianzhi-3", "qidao", "date_rule", "霜降前一日"),
    ("gemalan-tingzhi-3", "litan", "date_rule", "清明前一日"),
    ("taiwan-fuzhi-9", "litan", "date_rule", "清明"),
    ("jinjiang-xianzhi-15", "shanchuan", "date_rule", "二月上戊"),
    ("taiwan-xianzhi-6", "xianshi", "hymn", "咸和"),
    ("taiwan-fuzhi-9", "xianshi", "hymn", "寧平"),
]


@pytest.mark.parametrize(("witness", "rite", "kind", "value"), FACTS)
def test_facts_stated(witness: str, rite: str, kind: str, value: str) -> None:
    assert value in {s.value for s in table().where(witness=witness, rite=rite, kind=kind)}


def test_spans_are_merged_and_sorted() -> None:
    spans = table().spans("taiwan-fuzhi-9")
    assert spans and all(a[1] < b[0] for a, b in itertools.pairwise(spans))


def test_an_aligned_statement_states_only_what_its_words_say() -> None:
    """An aligned clause carries the value of the element it agrees with only where its own words state it:
    a bare heading 「名宦祠」 aligned to the 名宦祠's day states no day (it is wording)."""
    from dianli.comparison.values import quote_states

    aligned = [s for s in table() if s.provenance == "aligned"]
    assert aligned
    for s in aligned:
        if s.kind != "text":
            assert quote_states(Value(s.kind, s.slot, s.value), s.quote), s
    headings = [s for s in aligned if fold(s.quote) == fold("名宦祠") and ".date_rule" in s.element]
    assert headings and all(s.kind == "text" for s in headings)
    assert any(s.kind == "venue" for s in aligned if fold(s.quote) == fold("名宦祠"))  # its words: the venue
