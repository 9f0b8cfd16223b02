"""A witness passage as the booklet quotes it: found with its context, or the resolver's error."""

from __future__ import annotations

import pytest

from dianli.errors import UnknownValueError
from dianli.program.passages import resolve_passage


@pytest.mark.parametrize(
    ("witness", "quote", "found"),
    [
        ("taiwan-fuzhi-9", "祀先師", True),
        ("taiwan-fuzhi-9", "天下太平無事", False),  # not in the witness: the passage carries the error
    ],
)
def test_a_passage_is_found_or_carries_the_error(witness: str, quote: str, found: bool) -> None:
    passage = resolve_passage("p1", witness, quote)
    assert passage.witness_title == "臺灣府志"
    if found:
        assert passage.error is None and "先師" in passage.passage
    else:
        assert passage.error is not None and quote in passage.error


def test_an_unknown_witness_is_an_error_naming_the_known_ones() -> None:
    with pytest.raises(UnknownValueError, match="taiwan-fuzhi-9"):
        resolve_passage("p1", "no-such-witness", "祭先師")
