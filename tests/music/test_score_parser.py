"""The score parser on the real 樂章 text and on mutations of it: never a crash, bad input → DianliError."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dianli.corpus.sections import find_sections
from dianli.corpus.witnesses import load_witness
from dianli.errors import DianliError
from dianli.music.score import movement_ids, movement_info, parse_score_text, score_witness


def _text(movement_id: str) -> str:
    section = find_sections(score_witness(), movement_info(movement_id).section)[0]
    return load_witness(score_witness()).norm.text[section.start : section.end]


CHUXIAN = _text("chuxian")
NOTE_ALPHABET = "太南林仲黃夾姑應清四工尺上合六凡一五乙()（）、，；．哉大 "


@pytest.mark.parametrize("movement_id", [m for m in movement_ids() if m != "wangyi"])
def test_every_scored_movement_parses_to_32_notes(movement_id: str) -> None:
    assert len(parse_score_text(_text(movement_id))) == 32


@pytest.mark.parametrize(
    ("mutation", "message"),
    [
        (lambda t: t.replace("(太四)", "(太工)", 1), "太工"),
        (lambda t: t.replace("(太四)", "", 1), "31 notes"),
        (lambda t: t + "又(南工)", "33 notes"),
        (lambda t: "", "0 notes"),
    ],
)
def test_bad_scores_name_the_problem(mutation: Callable[[str], str], message: str) -> None:
    with pytest.raises(DianliError, match=message):
        parse_score_text(mutation(CHUXIAN), where="test")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(CHUXIAN)), st.integers(0, 3), st.text(NOTE_ALPHABET, max_size=3)),
        max_size=4,
    )
)
def test_mutated_score_never_crashes(edits: list[tuple[int, int, str]]) -> None:
    text = CHUXIAN
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut :]
    try:
        scored = parse_score_text(text)
    except DianliError:
        return
    assert len(scored) == 32


@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes(text: str) -> None:
    try:
        parse_score_text(text)
    except DianliError:
        pass
