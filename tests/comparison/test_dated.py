"""comparison.dated: a dated event is about the rites its clause states, as the correspondence table has it."""

from __future__ import annotations

import pytest

from dianli.comparison.dated import about_rite, clause_span, event_rites, rites_stated
from dianli.comparison.table import table
from dianli.corpus.clauses import clauses
from dianli.corpus.dated_events import dated_events

EVENTS = [
    # witness, a words of the event's clause, a rite it states
    ("chongxiu-fengshan-xianzhi-5", "雍正二年奏准：风云雷雨神居中", "shanchuan"),
    ("chongxiu-fengshan-xianzhi-5", "乾隆三年议准：直省府州县社稷风云雷雨", "sheji"),
]


@pytest.mark.parametrize(("witness", "words", "rite"), EVENTS)
def test_an_event_states_the_rites_of_its_clause(witness: str, words: str, rite: str) -> None:
    event = next(e for e in dated_events(witness) if words in e.quote)
    assert rite in event_rites(event)
    assert event in about_rite(dated_events(witness), rite)


@pytest.mark.parametrize("witness", ["chongxiu-fengshan-xianzhi-5", "zhuluo-xianzhi-4"])
def test_the_rites_are_those_of_the_statements_that_overlap_the_clause(witness: str) -> None:
    statements = [s for s in table().where(witness=witness) if s.rite]
    for event in dated_events(witness):
        start, end = clause_span(witness, event.offset)
        assert start <= event.offset < end
        expected = {s.rite for s in statements if s.start < end and s.end > start}
        assert set(event_rites(event)) == expected


def test_a_clause_no_statement_quotes_states_no_rite() -> None:
    witness = "zhuluo-xianzhi-4"
    spans = table().spans(witness)
    free = next(c for c in clauses(witness) if all(e <= c.start or s >= c.end for s, e in spans))
    assert rites_stated(witness, free.start, free.end) == ()
