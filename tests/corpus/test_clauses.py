"""corpus.clauses: where a witness's text is cut into clauses — calls kept whole, their callers with them."""

from __future__ import annotations

import pytest

from dianli.corpus.clauses import _one_call, clauses

CLAUSES = [
    # (witness, a clause of it): a call is not cut at the stops its words hold, in 「」 as in 『』
    ("taiwan-xianzhi-6", "通赞唱：「鞠躬！拜！兴！拜！兴！拜！兴！拜！兴！平身」（麾生偃麾擽敔，乐止）！"),
    ("chongxiu-fengshan-xianzhi-5", "通赞唱『执事者各司其事。主祭官就位（就拜位），陪祭官各就位，瘗毛血』"),
    # a caller other than the 贊 roles begins the call: no fragment 「…贊禮生」 is left before it
    ("chongxiu-fengshan-xianzhi-5", "赞礼生赞『跪，叩，兴』"),
    # a call its witness closes with the wrong mark is no call holding the next one: cut at its stops
    ("chongxiu-taiwan-fuzhi-7", "引赞赞：『奠帛」；"),
]

NOT_CLAUSES = [
    ("taiwan-xianzhi-6", "通赞唱：「鞠躬！"),
    ("chongxiu-fengshan-xianzhi-5", "乐作，赞礼生"),
]


@pytest.mark.parametrize(("witness", "text"), CLAUSES)
def test_a_clause(witness: str, text: str) -> None:
    assert text in {c.text.strip() for c in clauses(witness)}


@pytest.mark.parametrize(("witness", "text"), NOT_CLAUSES)
def test_not_a_clause(witness: str, text: str) -> None:
    assert text not in {c.text.strip() for c in clauses(witness)}


@pytest.mark.parametrize(
    ("call", "one"),
    [
        ("唱：「俯伏！興！」", True),
        ("引贊贊：『奠帛」；……。贊：『獻爵』", False),  # closed by the wrong mark
        ("『" + "有人類即有人心" * 8 + "』", False),  # a long quotation is prose
    ],
)
def test_one_call(call: str, one: bool) -> None:
    assert _one_call(call) is one
