"""Search is script-insensitive, ranked and filterable."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.corpus.search import search
from dianli.corpus.witnesses import load_witness
from dianli.errors import DianliError, UnknownValueError


@pytest.mark.parametrize(
    ("query", "witnesses"),
    [
        ("土牛", {"taiwan-fuzhi-9", "fujian-tongzhi-14-modern"}),
        ("钟", {"taiwan-fuzhi-9", "fujian-tongzhi-14", "fujian-tongzhi-14-modern", "tingzhou-fuzhi"}),
        ("萬壽亭", {"taiwan-fuzhi-9"}),
        ("常公祠", {"fujian-tongzhi-14", "fujian-tongzhi-14-modern"}),
    ],
)
def test_hits_by_witness(query: str, witnesses: set[str]) -> None:
    """Among the seeds (the corpus gazetteers may hold the words too)."""
    seeds = {"taiwan-fuzhi-9", "fujian-tongzhi-14", "fujian-tongzhi-14-modern", "tingzhou-fuzhi"}
    assert {h.witness for h in search(query)} & seeds == witnesses


def test_simplified_query_finds_traditional_bell_in_001() -> None:
    hits = search("钟", witness="taiwan-fuzhi-9")
    text = load_witness("taiwan-fuzhi-9").norm.text
    assert any(text[s:e] == "鐘" for h in hits for s, e in h.spans)


def test_all_terms_must_occur() -> None:
    for hit in search("迎神 咸平"):
        key = hit.clause.text
        assert "迎神" in key and "咸平" in key


def test_ranked_by_score() -> None:
    hits = search("舞譜")
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].clause.kind == "heading"


@pytest.mark.parametrize(
    ("section", "prefix"), [("wupu", "wupu"), ("舞譜", "wupu"), ("yue.cues", "yue.cues")]
)
def test_section_filter(section: str, prefix: str) -> None:
    hits = search("東班", section=section) if prefix == "wupu" else search("鼓", section=section)
    assert hits and all(h.section.startswith(prefix) for h in hits)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [({"query": "，"}, DianliError), ({"query": "鐘", "witness": "x"}, UnknownValueError),
     ({"query": "鐘", "section": "nope"}, UnknownValueError)],
)  # fmt: skip
def test_bad_search_input(kwargs: dict[str, str], error: type[Exception]) -> None:
    with pytest.raises(error):
        search(**kwargs)


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=6))
def test_search_never_crashes(query: str) -> None:
    try:
        hits = search(query, limit=5)
    except DianliError:
        return
    for hit in hits:
        assert hit.clause.start <= hit.spans[0][0] < hit.spans[-1][1] <= hit.clause.end
