"""Citations resolve to exact offsets across script differences; bad quotes give a clear error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from dianli.corpus.cite import Citation, CitationError, resolve
from dianli.corpus.clauses import clauses
from dianli.corpus.normalise import fold
from dianli.corpus.sections import sections
from dianli.corpus.witnesses import load_witness, witness_ids
from dianli.errors import UnknownValueError


def _samples() -> list[tuple[str, str, str]]:
    """One quote from the middle of the longest clause of every section of every witness."""
    cases = []
    for witness in witness_ids():
        best: dict[str, str] = {}
        for clause in clauses(witness):
            if len(fold(clause.text)) >= 6 and len(clause.text) > len(best.get(clause.section, "")):
                best[clause.section] = clause.text
        for section, text in sorted(best.items()):
            middle = len(text) // 2
            cases.append((witness, section, text[max(0, middle - 6) : middle + 6]))
    return cases


SAMPLES = _samples()


def test_every_section_is_sampled() -> None:
    sampled = {(w, s) for w, s, _ in SAMPLES}
    for witness in witness_ids():
        for sec in sections(witness):
            if sec.end - sec.start > 12 and sec.depth > 0:
                assert (witness, sec.id) in sampled or any(
                    s.startswith(sec.id + ".") for w, s in sampled if w == witness
                ), (witness, sec.id)


@pytest.mark.parametrize(("witness", "section", "quote"), SAMPLES)
def test_round_trip_from_every_section(witness: str, section: str, quote: str) -> None:
    resolved = Citation(witness=witness, quote=quote, section=section).resolve()
    norm = load_witness(witness).norm
    assert fold(norm.raw[resolved.raw_start : resolved.raw_end]) == fold(quote)
    assert resolved.section.id == section or resolved.section.id.startswith(section + ".")


@pytest.mark.parametrize(
    ("witness", "quote", "section_id"),
    [
        ("taiwan-fuzhi-9", "大钟即镛钟", "yue.yueqi.jin"),  # simplified quote of a traditional witness
        ("tingzhou-fuzhi", "獻官行一跪一叩頭禮", "xianshi.chongsheng"),  # traditional quote, simplified text
        ("fujian-tongzhi-14", "今郡縣多用上巳日", "shanchuan"),  # inside a 【】 note
        ("fujian-tongzhi-14", "但改望瘞為望燎", "shanchuan"),
        ("fujian-tongzhi-14", "贊詣肇聖王神位前", "xianshi.chongsheng"),  # across an elevation line break
        ("taiwan-fuzhi-9", "大(太四)哉(南工)至(林尺)聖(仲上)", "yue.yuezhang.yingshen"),
        ("fujian-tongzhi-14", "籥翟縱横兩分為開", "yue.yuedi"),
        ("fujian-tongzhi-14-modern", "芒神式", "yingchun.mangshen"),
    ],
)
def test_resolves_across_script_punctuation_and_layout(witness: str, quote: str, section_id: str) -> None:
    resolved = resolve(witness, quote)
    assert resolved.section.id == section_id
    assert resolved.raw_start < resolved.raw_end


def test_section_narrows_the_search() -> None:
    everywhere = resolve("taiwan-fuzhi-9", "陳設")
    assert everywhere.occurrences > 1
    narrowed = resolve("taiwan-fuzhi-9", "陳設", "shanchuan")
    assert narrowed.section.id.startswith("shanchuan")


@pytest.mark.parametrize("quote", ["zzzz", "xyz123"])
def test_a_quote_sharing_nothing_names_no_arbitrary_passage(quote: str) -> None:
    """Nothing in common: no 'closest passage' (it used to be the first window, a catalogue id)."""
    with pytest.raises(CitationError) as info:
        resolve("taiwan-fuzhi-9", quote)
    assert info.value.closest == ""
    assert "no passage shares two characters with it" in str(info.value)


def test_unresolvable_quote_names_witness_and_closest_passage() -> None:
    with pytest.raises(CitationError) as info:
        resolve("taiwan-fuzhi-9", "大鐘即銅鐘以鐵鑄造")
    message = str(info.value)
    assert "taiwan-fuzhi-9" in message and "closest passage" in message
    assert "鏞鐘" in info.value.closest


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"witness": "fujian-tongzhi", "quote": "祭期"}, "accepted"),
        ({"witness": "taiwan-fuzhi-9", "quote": "，。"}, "no characters"),
        ({"witness": "taiwan-fuzhi-9", "quote": "祭期", "extra": 1}, "extra"),
    ],
)
def test_bad_citation_fields(fields: dict[str, object], fragment: str) -> None:
    with pytest.raises(ValidationError, match=fragment):
        Citation(**fields)  # type: ignore[arg-type]


def test_unknown_witness_in_resolve() -> None:
    with pytest.raises(UnknownValueError, match="accepted"):
        resolve("nope", "祭期")


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_resolver_never_crashes(quote: str) -> None:
    try:
        resolved = resolve("tingzhou-fuzhi", quote)
    except CitationError:
        return
    norm = load_witness("tingzhou-fuzhi").norm
    assert 0 <= resolved.raw_start < resolved.raw_end <= len(norm.raw)
    assert fold(norm.raw[resolved.raw_start : resolved.raw_end]) == fold(quote)
