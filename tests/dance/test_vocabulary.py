"""The pose vocabulary: the 籥翟 terms as the witnesses define them, and every item has a drawing."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from dianli.dance.notation import Token
from dianli.dance.pose import Context, FigureState, Hand, apply_draw, figure, rest_state
from dianli.dance.vocabulary import vocabulary as dance_vocabulary

VOCAB = dance_vocabulary()


def test_the_eleven_terms_of_the_yuedi_section() -> None:
    assert "".join(t.char for t in VOCAB.terms) == "執舉衡落拱呈開合相垂交"
    for term in VOCAB.terms:
        assert term.cite.resolve().section.id == "yue.yuedi"


def _tokens(phrase_id: str) -> list[Token]:
    phrase = VOCAB.phrase(phrase_id)
    choices = [[(name, slot, word) for word in VOCAB.slots[slot]] for name, slot in phrase.slots]
    return [Token(phrase_id, phrase.pattern, -1, -1, tuple(combo)) for combo in itertools.product(*choices)]


def _contrast() -> FigureState:
    """A figure unlike the rest pose in every respect, so that a drawing that matches rest still shows."""
    return replace(
        rest_state(),
        bearing_deg=135.0,
        head_deg=20.0,
        bow_deg=10.0,
        crouch=0.5,
        head_down_deg=10.0,
        left=Hand("ear"),
        right=Hand("ear"),
        implements="together",
        left_foot="toe",
        right_foot="toe",
    )


def _drawn(draw: tuple[dict[str, object], ...], token: Token) -> bool:
    for start in (rest_state(), _contrast()):
        phases: list[FigureState] = []
        end = apply_draw(phases, start, draw, Context(token))  # type: ignore[arg-type]
        if phases or end != start:
            return True
    return False


@pytest.mark.parametrize("phrase_id", [p.id for p in VOCAB.phrases])
def test_every_phrase_has_a_drawing(phrase_id: str) -> None:
    phrase = VOCAB.phrase(phrase_id)
    if phrase.kind == "subject":
        assert any("who" in op for op in phrase.draw), "a subject draws by naming who moves"
        return
    assert any(_drawn(phrase.draw, token) for token in _tokens(phrase_id)), f"{phrase.pattern} draws nothing"


@pytest.mark.parametrize("term_id", [t.id for t in VOCAB.terms])
def test_every_term_has_a_drawing(term_id: str) -> None:
    term = next(t for t in VOCAB.terms if t.id == term_id)
    assert _drawn(term.draw, Token(term.id, term.char, -1, -1, ())), f"{term.char} draws nothing"


def test_every_hand_and_foot_position_used_is_drawn_by_the_figure() -> None:
    hands, feet = set(figure()["hands"]), set(figure()["feet"])
    for item in (*VOCAB.terms, *VOCAB.phrases):
        for op in item.draw:
            for name, spec in op.items():
                if name in ("hand", "hands"):
                    assert spec["at"] in hands  # type: ignore[index]
                if name == "foot":
                    assert spec["do"] in feet  # type: ignore[index]


def test_every_phrase_cites_a_witness_and_is_used_or_defined() -> None:
    for phrase in VOCAB.phrases:
        resolved = phrase.cite.resolve()
        assert resolved.section.id.startswith("wupu"), phrase.id
